"""The Activity's web server (aiohttp): the page and its files, the JSON API and the live
socket (see API.md beside this file). Every response carries a strict Content-Security-Policy:
the page loads nothing from outside its own origin, as Discord's proxy requires.
"""
from __future__ import annotations

import asyncio
import json
import logging
import mimetypes
import re
from pathlib import Path
from typing import Any, Awaitable, Callable

from aiohttp import WSMsgType, web

from ..i18n import LANGUAGES, catalogs, language_of
from .discord_api import DiscordRefused
from .door import SignInThrottle, instance_id_ok, retry_after
from .hub import Board, Hub
from .service import ActivityService, Refused, own_refusal, rematch
from .sessions import Session, SessionError, Sessions

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
FRAME_ANCESTORS = ("https://discord.com https://*.discord.com https://discordapp.com "
                   "https://*.discordsays.com")
LOCAL_ANCESTORS = "http://127.0.0.1:* http://localhost:*"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "font-src 'self'; connect-src 'self' {ws}; base-uri 'none'; form-action 'none'; "
       "object-src 'none'; frame-ancestors {ancestors}")
#: catalog keys the page is given (its own, and the words it shares with the pictures)
PAGE_PREFIXES = ("activity.", "narabi.condition.", "render.narabi.condition.",
                 "render.sarena.mark.", "render.sensei.seat.", "render.narabi.rating.",
                 "render.narabi.reason.")
PAGE_KEYS = ("narabi.name", "sensei.name", "sarena.name")
_NONCE = re.compile(r"[A-Za-z0-9_-]{8,64}")
_TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".css": "text/css",
          ".svg": "image/svg+xml", ".html": "text/html", ".json": "application/json",
          ".png": "image/png", ".woff2": "font/woff2", ".txt": "text/plain"}
#: seconds a page has to say hello on its socket
HELLO_WITHIN = 10.0

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def page_strings(lang: str) -> dict[str, str]:
    books = catalogs()
    out: dict[str, str] = {}
    for language in ("en", lang):
        for key, value in books.get(language, {}).items():
            if (key.startswith(PAGE_PREFIXES) or key in PAGE_KEYS) and isinstance(value, str):
                out[key] = value
    return out


def pick_language(*candidates: Any) -> str:
    for candidate in candidates:
        if isinstance(candidate, str) and candidate:
            lang = language_of(candidate[:16])
            if lang in LANGUAGES and (lang != "en" or candidate.lower().startswith("en")):
                return lang
    return "en"


class ActivityApp:
    """The routes, over the service (tables), the hub (live boards) and Discord's checks."""

    def __init__(self, service: ActivityService, hub: Hub, sessions: Sessions, *,
                 authenticate: Callable[[str, str], Awaitable[dict[str, Any]]],
                 client_id: int, mock: bool = False, local: bool = False,
                 launches: Callable[[int, int], int | None] = lambda user, channel: None,
                 throttle: SignInThrottle | None = None,
                 present: Callable[[Session, bool], Awaitable[bool]] | None = None,
                 recheck: float = 180.0) -> None:
        self.service = service
        self.hub = hub
        self.sessions = sessions
        self.authenticate = authenticate
        self.client_id = client_id
        self.mock = mock
        self.launches = launches
        self.throttle = throttle or SignInThrottle(10, 60, 4, clock=sessions.clock)
        #: whether a session's person is still in its instance (None: not looked at)
        self.present = present
        self.recheck = recheck
        ancestors = FRAME_ANCESTORS + (" " + LOCAL_ANCESTORS if local else "")
        # 'self' covers the socket in current browsers; older WebKit wants it named: inside
        # Discord the page's origin is always under discordsays.com (Discord's proxy).
        sockets = "wss://*.discordsays.com" + (" ws://127.0.0.1:* ws://localhost:*" if local
                                                else "")
        self.csp = CSP.format(ws=sockets, ancestors=ancestors)

    # -- the application ----------------------------------------------------------------------

    def make(self) -> web.Application:
        app = web.Application(middlewares=[self._guard], client_max_size=32 * 1024)
        app.router.add_get("/", self._index)
        app.router.add_get("/static/{path:.+}", self._static)
        app.router.add_get("/api/config", self._config)
        app.router.add_get("/api/strings/{lang}", self._strings)
        app.router.add_post("/api/session", self._session)
        app.router.add_get("/api/tables", self._tables)
        app.router.add_post("/api/tables", self._new_table)
        app.router.add_get("/api/tables/{id:[0-9]{1,18}}", self._table)
        app.router.add_post("/api/tables/{id:[0-9]{1,18}}/plan", self._plan)
        app.router.add_post("/api/tables/{id:[0-9]{1,18}}/actions", self._actions)
        app.router.add_post("/api/tables/{id:[0-9]{1,18}}/ask", self._ask)
        app.router.add_post("/api/tables/{id:[0-9]{1,18}}/answer", self._answer)
        app.router.add_post("/api/tables/{id:[0-9]{1,18}}/rematch", self._rematch)
        app.router.add_get("/api/live", self._live)
        return app

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            response = await handler(request)
        except Refused as exc:
            response = web.json_response(exc.body(), status=exc.status)
        except SessionError as exc:
            refused = own_refusal(401, exc.code, _lang_hint(request))
            response = web.json_response(refused.body(), status=401)
        except web.HTTPException as exc:
            exc.headers.update(self._headers(request))
            raise
        if not response.prepared:
            response.headers.update(self._headers(request))
        return response

    def _headers(self, request: web.Request) -> dict[str, str]:
        api = request.path.startswith("/api/")
        return {"Content-Security-Policy": self.csp, "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-store" if api else "no-cache"}

    # -- files --------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return self._file(STATIC / "index.html")

    async def _static(self, request: web.Request) -> web.StreamResponse:
        relative = request.match_info["path"]
        if ".." in relative.split("/") or relative.startswith("/") or "\\" in relative:
            raise web.HTTPNotFound()
        return self._file(STATIC / relative)

    @staticmethod
    def _file(path: Path) -> web.StreamResponse:
        try:
            resolved = path.resolve()
            resolved.relative_to(STATIC)
        except (ValueError, OSError):
            raise web.HTTPNotFound() from None
        if not resolved.is_file():
            raise web.HTTPNotFound()
        kind = _TYPES.get(resolved.suffix) or mimetypes.guess_type(resolved.name)[0] \
            or "application/octet-stream"
        charset = "; charset=utf-8" if kind.startswith("text/") or kind.endswith(
            ("json", "svg+xml")) else ""
        return web.Response(body=resolved.read_bytes(), headers={"Content-Type": kind + charset})

    # -- configuration, strings, session --------------------------------------------------------

    async def _config(self, request: web.Request) -> web.Response:
        return web.json_response({"client_id": str(self.client_id), "mock": self.mock,
                                  "languages": list(LANGUAGES)})

    async def _strings(self, request: web.Request) -> web.Response:
        return web.json_response(page_strings(pick_language(request.match_info["lang"])))

    async def _session(self, request: web.Request) -> web.Response:
        # Counted before anything else is read: junk costs the sender their share, never a
        # call to Discord beyond it.
        wait = self.throttle.admit(request.remote or "")
        if wait is not None:
            raise _later(429, "too_many", _lang_hint(request), wait)
        body = await _json(request)
        code, instance = body.get("code"), body.get("instance_id")
        hint = _lang_hint(request, body.get("lang"))
        if not (isinstance(code, str) and 0 < len(code) <= 256 and instance_id_ok(instance)):
            raise own_refusal(400, "bad_request", hint)
        if not self.throttle.enter():
            # an exchange takes about a second: the others' will be done by then
            raise _later(429, "too_many", hint, 1.0)
        try:
            found = await self.authenticate(code, instance)
        except DiscordRefused as exc:
            if exc.busy:
                raise _later(503, "discord_failed", hint, exc.retry_after or 5.0) from None
            if exc.what == "activity instance":
                raise own_refusal(403, "not_in_instance", hint) from None
            raise own_refusal(401, "code_refused", hint) from None
        finally:
            self.throttle.leave()
        user = found["user"]
        lang = pick_language(body.get("lang"), user.get("locale"))
        name = user.get("global_name") or user.get("username") or str(user["id"])
        token, session = self.sessions.issue(int(user["id"]), instance, found["channel_id"],
                                             found["guild_id"], lang, name)
        return web.json_response({
            "session": token, "access_token": found["access_token"],
            "expires_in": int(self.sessions.lifetime),
            "user": {"id": str(user["id"]), "name": name, "avatar": user.get("avatar")},
            "channel_id": str(session.channel_id),
            "guild_id": None if session.guild_id is None else str(session.guild_id),
            "lang": lang, "strings": page_strings(lang),
            "table": self.launches(session.user_id, session.channel_id)})

    async def _session_of(self, request: web.Request) -> Session:
        header = request.headers.get("Authorization", "")
        token = header[7:].strip() if header.startswith("Bearer ") else None
        return await self._still_in(self.sessions.read(token))

    async def _still_in(self, session: Session, fresh: bool = False) -> Session:
        """The session, if its person has not left its activity instance."""
        if self.present is not None and not await self.present(session, fresh):
            raise SessionError("session_left")
        return session

    # -- tables ---------------------------------------------------------------------------------

    async def _tables(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        return _text(await self.service.channel_tables(session))

    async def _new_table(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        body = await _json(request)
        live = await self.service.open_lobby(session, body.get("game"),
                                             session.name or str(session.user_id))
        listing = await self.service.channel_tables(session)
        mine = next((t for t in listing["tables"] if t["id"] == live.id), {"id": live.id})
        return _text({"table": mine})

    async def _table(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        text = await self.service.state(int(request.match_info["id"]), session)
        return web.Response(text=text, content_type="application/json")

    async def _plan(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        body = await _json(request)
        version, plan = body.get("version"), body.get("plan")
        if not isinstance(version, int) or not isinstance(plan, list):
            raise own_refusal(400, "bad_request", session.lang)
        return _text(await self.service.plan(int(request.match_info["id"]), session, version,
                                             plan))

    async def _actions(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        body = await _json(request)
        version, nonce, actions = body.get("version"), body.get("nonce"), body.get("actions")
        if not isinstance(version, int) or not isinstance(actions, list) \
                or not isinstance(nonce, str) or not _NONCE.fullmatch(nonce):
            raise own_refusal(400, "bad_request", session.lang)
        if not self.sessions.spend_nonce(session, nonce):
            raise own_refusal(409, "replayed", session.lang)
        table_id = int(request.match_info["id"])
        live = await self.service.act(table_id, session, version, actions)
        public = await self.service.public_json(live)
        state = self.service.state_json(live, public, session.user_id)
        return web.Response(text='{"ok":true,"state":' + state + "}",
                            content_type="application/json")

    async def _ask(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        body = await _json(request)
        question = await self.service.ask(int(request.match_info["id"]), session,
                                          body.get("card"), body.get("other"))
        return _text({"ok": True, "question": question})

    async def _answer(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        body = await _json(request)
        await self.service.answer(int(request.match_info["id"]), session, body.get("question"),
                                  body.get("answer"))
        return _text({"ok": True})

    async def _rematch(self, request: web.Request) -> web.Response:
        session = await self._session_of(request)
        live = await rematch(self.service, int(request.match_info["id"]), session)
        row = live.row
        return _text({"table": {"id": row.id, "game": row.game, "status": row.status,
                                "version": row.version, "names": [s.name for s in row.seats],
                                "seat": row.seat_of(session.user_id),
                                "channel_id": str(row.thread_id or row.channel_id)}})

    # -- live -----------------------------------------------------------------------------------

    async def _live(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=16 * 1024)
        ws.headers.update(self._headers(request))
        await ws.prepare(request)
        try:
            first = await ws.receive(timeout=HELLO_WITHIN)
            hello = json.loads(first.data) if first.type == WSMsgType.TEXT else {}
            session = await self._still_in(self.sessions.read(
                hello.get("session") if isinstance(hello, dict) else None), fresh=True)
        except (asyncio.TimeoutError, ValueError, SessionError) as exc:
            code = exc.code if isinstance(exc, SessionError) else "session_missing"
            await ws.send_str(_dumps({"type": "error",
                                      **own_refusal(401, code, _lang_hint(request)).body()}))
            await ws.close(code=4401, message=b"session")
            return ws
        board = Board(ws, session)
        self.hub.add(board)
        board.send(_dumps({"type": "ready", "user": str(session.user_id)}))
        try:
            await self._listen(ws, board)
        finally:
            self.hub.drop(board)
        return ws

    async def _listen(self, ws: web.WebSocketResponse, board: Board) -> None:
        session = board.session
        while not ws.closed:
            left = session.expires - self.sessions.clock()
            try:
                message = await ws.receive(timeout=max(0.0, min(left, self.recheck)))
            except asyncio.TimeoutError:
                message = None
            ended = None
            if session.expires <= self.sessions.clock():
                ended = "session_expired"
            elif self.present is not None and not await self.present(session, False):
                ended = "session_left"  # looked up at most every `recheck` seconds
            if ended is not None:
                board.send(_dumps({"type": "error", **own_refusal(
                    401, ended, session.lang).body()}))
                await asyncio.sleep(0.05)  # let the writer send it
                await ws.close(code=4401, message=ended.encode("ascii"))
                return
            if message is None:
                continue
            if message.type != WSMsgType.TEXT:
                return
            try:
                data = json.loads(message.data)
            except ValueError:
                continue
            kind = data.get("type") if isinstance(data, dict) else None
            if kind == "subscribe":
                tables = data.get("tables")
                if isinstance(tables, list) and all(isinstance(t, int) for t in tables):
                    await self.hub.watch(board, tables)
            elif kind == "subscribe_list":
                board.wants_list = True
                await self.hub.send_list(board)
            elif kind == "ping":
                board.send('{"type":"pong"}')


def _later(status: int, code: str, lang: str, wait: float) -> web.HTTPException:
    """A refusal that says when to come back (``Retry-After``)."""
    body = own_refusal(status, code, lang).body()
    kind = web.HTTPTooManyRequests if status == 429 else web.HTTPServiceUnavailable
    return kind(text=_dumps(body), content_type="application/json",
                headers={"Retry-After": retry_after(wait)})


def _lang_hint(request: web.Request, *more: Any) -> str:
    return pick_language(*more, request.headers.get("Accept-Language", "")[:5])


async def _json(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise own_refusal(400, "bad_request", _lang_hint(request))
    return body


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _text(value: Any) -> web.Response:
    return web.Response(text=_dumps(value), content_type="application/json")
