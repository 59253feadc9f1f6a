"""The playground's web server (aiohttp, in the bot's event loop): the page (in the browser's
language) and its assets, the bot's uploads by id, a small JSON API (commands, clicks) and a
server-sent event stream per open page. Nothing else is served: no path from a request reaches the file system."""
from __future__ import annotations

import asyncio
import html
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from aiohttp import web

from .host import Playground, Viewer
from .people import discord_locale
from .uploads import content_type
from .words import language, page_words

ASSETS = {"/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/static/words.js": ("words.js", "text/javascript; charset=utf-8"),
          "/static/render.js": ("render.js", "text/javascript; charset=utf-8"),
          "/static/markdown.js": ("markdown.js", "text/javascript; charset=utf-8"),
          "/static/vendor/simple-markdown.js": ("vendor/simple-markdown.js",
                                                "text/javascript; charset=utf-8"),
          "/static/style.css": ("style.css", "text/css; charset=utf-8"),
          "/static/activity-pane.js": ("activity-pane.js", "text/javascript; charset=utf-8"),
          "/static/activity-pane.css": ("activity-pane.css", "text/css; charset=utf-8")}
SECURITY = {"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                                       "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                                       "form-action 'none'; frame-ancestors 'none'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store"}
PLAYGROUND = web.AppKey("playground", Playground)


def _asset(name: str) -> bytes:
    return resources.files(__package__).joinpath("static", name).read_bytes()


_MARK = re.compile(r"\{\{([\w.]+)\}\}")
#: what the page's placeholders name before its script runs (the main channel, the bot)
_FILL = {"channel": "games", "user": "Tabletop", "bot": "Tabletop"}


@lru_cache(maxsize=None)
def page(lang: str) -> bytes:
    """index.html in one language: each {{name}} is that page word (HTML-escaped), {{lang}}
    the language, {{words}} every page word as JSON for the script (``<`` escaped, so no
    text can close the script element)."""
    words = page_words(lang)

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "lang":
            return lang
        if name == "words":
            return json.dumps(words, ensure_ascii=False).replace("<", "\\u003c")
        return html.escape(words[name].format(**_FILL), quote=True)

    return _MARK.sub(fill, _asset("index.html").decode("utf-8")).encode("utf-8")


LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}
LOCAL_ONLY = web.AppKey("local_only", bool)
FRAMES = web.AppKey("frames", str)


@web.middleware
async def _guard(request: web.Request, handler: Any) -> web.StreamResponse:
    """Same-origin only: a page of another site cannot post here (JSON bodies need a CORS
    preflight this server never grants) nor read anything (no CORS headers); bound to the
    loopback, a request naming another host (DNS rebinding) is refused."""
    if request.app[LOCAL_ONLY] and (request.url.host or "") not in LOOPBACK_NAMES:
        raise web.HTTPMisdirectedRequest(text="this playground answers on 127.0.0.1 only")
    if request.method == "POST":
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="JSON only")
        origin = request.headers.get("Origin")
        if origin and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="other origin")
    response = await handler(request)
    response.headers.update(SECURITY)
    frames = request.app[FRAMES]
    if frames:
        # The Activity's pane: an iframe of the bot's own Activity server, nothing else.
        response.headers["Content-Security-Policy"] += f"; frame-src {frames}"
    return response


def make_app(playground: Playground, local_only: bool = True) -> web.Application:
    app = web.Application(middlewares=[_guard], client_max_size=64 * 1024)
    app[PLAYGROUND] = playground
    app[LOCAL_ONLY] = local_only
    server = getattr(playground.bot, "activity_server", None)
    app[FRAMES] = server.url.rstrip("/") if server is not None else ""
    assets = {path: (_asset(name), kind) for path, (name, kind) in ASSETS.items()}

    async def asset(request: web.Request) -> web.Response:
        body, kind = assets[request.path]
        return web.Response(body=body, headers={"Content-Type": kind})

    async def index(request: web.Request) -> web.Response:
        body = page(language(request.headers.get("Accept-Language")))
        return web.Response(body=body, headers={"Content-Type": "text/html; charset=utf-8",
                                                "Vary": "Accept-Language"})

    app.router.add_get("/", index)
    for path in assets:
        app.router.add_get(path, asset)
    app.router.add_get("/uploads/{id:[0-9]{1,20}}", _upload)
    app.router.add_get("/api/commands", _commands)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/events", _events)
    app.router.add_post("/api/command", _command)
    app.router.add_post("/api/click", _click)
    return app


def _who(request: web.Request, name: str | None = None):
    playground = request.app[PLAYGROUND]
    locale = discord_locale(request.headers.get("Accept-Language"))
    return playground, playground.member(name if name is not None else request.query.get("as"), locale)


async def _upload(request: web.Request) -> web.Response:
    found = request.app[PLAYGROUND].uploads.get(int(request.match_info["id"]))
    if found is None:
        raise web.HTTPNotFound(text="no such upload")
    filename, data = found
    return web.Response(body=data, headers={"Content-Type": content_type(filename)})


async def _commands(request: web.Request) -> web.Response:
    locale = discord_locale(request.headers.get("Accept-Language"))
    return web.json_response(request.app[PLAYGROUND].suggestions_for(locale))


async def _state(request: web.Request) -> web.Response:
    playground, who = _who(request)
    return web.json_response(playground.snapshot(who))


async def _events(request: web.Request) -> web.StreamResponse:
    playground, who = _who(request)
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                           "Cache-Control": "no-store", **SECURITY})
    await response.prepare(request)
    viewer = Viewer(who)
    playground.viewers.add(viewer)
    try:
        viewer.send(playground.snapshot(who))
        while True:
            try:
                event = await asyncio.wait_for(viewer.queue.get(), timeout=15)
            except asyncio.TimeoutError:
                await response.write(b": keep-alive\n\n")
                continue
            await response.write(b"data: " + json.dumps(event).encode() + b"\n\n")
            if event["type"] == "closed":
                break
    except ConnectionResetError:  # the page was closed
        pass
    finally:
        playground.viewers.discard(viewer)
    return response


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (ValueError, UnicodeDecodeError):
        raise web.HTTPBadRequest(text="not JSON") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="not an object")
    return body


def _int(value: Any) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise web.HTTPBadRequest(text="not an id") from None


async def _command(request: web.Request) -> web.Response:
    body = await _body(request)
    text = body.get("text")
    if not isinstance(text, str):
        raise web.HTTPBadRequest(text="text missing")
    playground, who = _who(request, str(body.get("as") or ""))
    return web.json_response(await playground.command(who, text, _int(body.get("channel", 0))))


async def _click(request: web.Request) -> web.Response:
    body = await _body(request)
    custom_id, values = body.get("custom_id"), body.get("values")
    if not isinstance(custom_id, str) or (values is not None and not (
            isinstance(values, list) and all(isinstance(v, str) for v in values))):
        raise web.HTTPBadRequest(text="custom_id or values malformed")
    playground, who = _who(request, str(body.get("as") or ""))
    return web.json_response(await playground.click(who, _int(body.get("message")), custom_id, values))


async def serve(playground: Playground, host: str, port: int) -> web.AppRunner:
    local_only = host in LOOPBACK_NAMES
    runner = web.AppRunner(make_app(playground, local_only), access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner


async def stop(playground: Playground, runner: web.AppRunner) -> None:
    """The pages are told first (their live feeds end), then the server, then the bot."""
    playground.hang_up()
    await asyncio.sleep(0.1)
    await runner.cleanup()
    await playground.close()


def bound_port(runner: web.AppRunner) -> int:
    return runner.addresses[0][1]
