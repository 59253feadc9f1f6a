"""The Activity's own sessions: after Discord vouched for a person (OAuth2 code → token →
``/users/@me`` → the activity instance), the server hands the page a signed, expiring ticket
bound to that user, instance and channel. The page cannot forge one (HMAC-SHA256 over a key
only the server holds) nor stretch one (the expiry is inside what is signed), and every
action carries a nonce so the same request sent twice is played once.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Callable

PREFIX = "v1"
#: nonces remembered per process (oldest forgotten first); a replay older than the session's
#: table version is refused by the version check anyway
NONCES_KEPT = 100_000


class SessionError(Exception):
    """A session the server did not issue, or one past its time: ``code`` is the refusal."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Session:
    user_id: int
    instance_id: str
    channel_id: int
    guild_id: int | None
    lang: str
    #: the person's Discord display name, as /users/@me gave it (for a lobby they open)
    name: str
    expires: float
    #: a random id per session, so nonces of different sessions never meet
    sid: str


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def derive_key(client_secret: str, explicit: str | None = None) -> bytes:
    """The signing key: ACTIVITY_SESSION_SECRET when set, else derived from the client secret
    (so every process of one bot signs alike, with nothing more to configure)."""
    material = explicit if explicit else "tabletop-activity-session:" + client_secret
    return hashlib.sha256(material.encode("utf-8")).digest()


class Sessions:
    def __init__(self, key: bytes, lifetime: float,
                 clock: Callable[[], float] = time.time) -> None:
        self._key = key
        self.lifetime = lifetime
        self.clock = clock
        self._nonces: OrderedDict[tuple[str, str], None] = OrderedDict()

    def issue(self, user_id: int, instance_id: str, channel_id: int, guild_id: int | None,
              lang: str, name: str = "") -> tuple[str, Session]:
        session = Session(user_id, instance_id, channel_id, guild_id, lang, name[:32],
                          self.clock() + self.lifetime, secrets.token_urlsafe(9))
        body = _b64(json.dumps({"u": str(user_id), "i": instance_id, "c": str(channel_id),
                                "g": None if guild_id is None else str(guild_id), "l": lang,
                                "n": session.name,
                                "e": int(session.expires), "s": session.sid},
                               separators=(",", ":")).encode("utf-8"))
        return f"{PREFIX}.{body}.{self._sign(body)}", session

    def _sign(self, body: str) -> str:
        return _b64(hmac.new(self._key, f"{PREFIX}.{body}".encode("ascii"),
                             hashlib.sha256).digest())

    def read(self, token: str | None) -> Session:
        """The session a token carries; SessionError when missing, forged or expired."""
        if not token:
            raise SessionError("session_missing")
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != PREFIX or len(token) > 2048:
            raise SessionError("session_invalid")
        if not hmac.compare_digest(self._sign(parts[1]), parts[2]):
            raise SessionError("session_invalid")
        try:
            data = json.loads(_unb64(parts[1]))
            session = Session(int(data["u"]), str(data["i"]), int(data["c"]),
                              None if data["g"] is None else int(data["g"]), str(data["l"]),
                              str(data.get("n", "")), float(data["e"]), str(data["s"]))
        except (ValueError, KeyError, TypeError):
            raise SessionError("session_invalid") from None
        if session.expires <= self.clock():
            raise SessionError("session_expired")
        return session

    def spend_nonce(self, session: Session, nonce: str) -> bool:
        """True the first time this session sends ``nonce``; False for a replay."""
        key = (session.sid, nonce)
        if key in self._nonces:
            return False
        self._nonces[key] = None
        while len(self._nonces) > NONCES_KEPT:
            self._nonces.popitem(last=False)
        return True
