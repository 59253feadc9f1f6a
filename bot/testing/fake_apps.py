"""The stand-in's side of an application with Activities: its global commands (with the Entry
Point command Discord creates when Activities are enabled, and Discord's refusal, code 50240,
of a bulk overwrite that leaves it out), the activity instances a LAUNCH_ACTIVITY answer opens,
and the OAuth2 routes an Activity's server calls: ``POST /oauth2/token`` (form-encoded, with
the client's credentials; Discord documents it outside its OpenAPI description, so it is judged
here by hand, as Discord's OAuth2 documentation states it) and ``GET /users/@me`` with the
user's Bearer token (judged by the description like every other route).
"""
from __future__ import annotations

import secrets
from typing import Any, Callable

#: the client secret the stand-in's application has (an Activity server configured against
#: the stand-in uses it)
CLIENT_SECRET = "fake-client-secret"
#: an authorization code lives this long (Discord: 10 minutes)
CODE_LIFETIME = 600.0
ACCESS_LIFETIME = 604800
ENTRY_POINT = 4
DISCORD_LAUNCH_ACTIVITY = 2
#: Discord's refusal of a bulk overwrite that drops the Entry Point command
ENTRY_POINT_REMOVED = {
    "code": 50240,
    "message": "You cannot remove this app's Entry Point command in a bulk update operation. "
               "Please include the Entry Point command in your update request or delete it "
               "separately."}
_FORM = "application/x-www-form-urlencoded"
#: open_instance's default: the stand-in's own server, unless the channel is a private one
_AUTO = object()


class AppStandIn:
    """``fake`` is the FakeDiscord it belongs to; ``app_id``, ``ids`` (new snowflakes) and
    ``refusal`` (its error answer) are the fake's, handed over to keep imports one way."""

    def __init__(self, fake: Any, *, app_id: int, ids: Callable[[], int],
                 refusal: type[Exception]) -> None:
        self.fake = fake
        self._app = app_id
        self._ids = ids
        self._refusal = refusal
        self.client_secret = CLIENT_SECRET
        self.activities_enabled = False
        #: the Developer Portal's Installation Contexts: "0" Guild Install, "1" User Install
        self.install_types: set[str] = {"0", "1"}
        #: the application's global commands, as Discord keeps them (with the contexts and
        #: install types each declares: what ``offered.authorize`` reads)
        self.commands: list[dict[str, Any]] = []
        #: each server's own commands (a development server's), by server id
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        #: whether the bot ever sent its commands (a bulk overwrite Discord took)
        self.synced = False
        self.instances: dict[str, dict[str, Any]] = {}
        self._codes: dict[str, tuple[dict[str, Any], float]] = {}
        self._tokens: dict[str, dict[str, Any]] = {}
        #: each LAUNCH_ACTIVITY answered: interaction token, instance, user, channel, code
        self.launches: list[dict[str, Any]] = []
        #: statuses ``/oauth2/token`` answers next, one per call, before judging the code (a
        #: test's way to have Discord rate limit the exchange, 429, or fail, 5xx)
        self.token_failures: list[int] = []

    def enable_activities(self) -> None:
        """What ticking "Enable Activities" in the Developer Portal does: Discord creates the
        default Entry Point command (``/launch``, handled by Discord itself)."""
        self.activities_enabled = True
        if not any(c.get("type") == ENTRY_POINT for c in self.commands):
            self.commands.append({
                "id": str(self._ids()), "application_id": str(self._app), "version": "1",
                "type": ENTRY_POINT, "name": "launch", "description": "",
                "handler": DISCORD_LAUNCH_ACTIVITY, "contexts": [0, 1, 2],
                "integration_types": [0, 1], "default_member_permissions": None, "nsfw": False})

    # -- codes and tokens ---------------------------------------------------------------------

    def grant(self, user: dict[str, Any]) -> str:
        """The code the SDK's ``authorize`` gives ``user`` (one use, ten minutes)."""
        code = secrets.token_urlsafe(18)
        self._codes[code] = (dict(user), self.fake.now() + CODE_LIFETIME)
        return code

    def launch(self, interaction_token: str | None, record: Any) -> str:
        """LAUNCH_ACTIVITY: an instance in the interaction's channel with its user in it."""
        return self.open_instance(record.channel_id, record.user or {}, interaction_token)

    def open_instance(self, channel_id: int, user: dict[str, Any],
                      interaction_token: str | None = None, guild: Any = _AUTO) -> str:
        """An activity instance in ``channel_id`` with ``user`` in it (what a launch, or the
        Entry Point command Discord handles itself, opens); its code is in ``launches``.
        ``guild``: the server's id (default: the stand-in's), or None for a DM or group DM."""
        if guild is _AUTO:
            place = self.fake.places.get(channel_id)
            guild = place.guild_id if place is not None else self.fake.guild_id
        launch_id = str(self._ids())
        if guild is None:  # a DM or a group DM: a private channel, no guild
            location = {"id": f"pc-{channel_id}", "kind": "pc", "channel_id": str(channel_id)}
        else:
            location = {"id": f"gc-{guild}-{channel_id}", "kind": "gc",
                        "channel_id": str(channel_id), "guild_id": str(guild)}
        # Discord's shape: "i-<launch id>-<location id>"
        instance_id = f"i-{launch_id}-{location['id']}"
        self.instances[instance_id] = {
            "application_id": str(self._app_id()), "instance_id": instance_id,
            "launch_id": launch_id, "location": location,
            "users": [str(user.get("id"))] if user else []}
        code = self.grant(user) if user else ""
        self.launches.append({"token": interaction_token, "instance_id": instance_id,
                              "user_id": int(user["id"]) if user else None,
                              "channel_id": channel_id, "code": code})
        return instance_id

    def leave(self, instance_id: str, user_id: int) -> None:
        """Someone closes the activity (or leaves its voice channel): no longer in its users."""
        users = self.instances[instance_id]["users"]
        if str(user_id) in users:
            users.remove(str(user_id))

    def end(self, instance_id: str) -> None:
        """Everyone left: Discord forgets the instance (its route answers 404)."""
        self.instances.pop(instance_id, None)

    def join(self, instance_id: str, user: dict[str, Any]) -> str:
        """Another person joins a running activity: they are in its users, and get a code."""
        users = self.instances[instance_id]["users"]
        if str(user["id"]) not in users:
            users.append(str(user["id"]))
        return self.grant(user)

    def _app_id(self) -> int:
        return self._app

    # -- OAuth2 routes --------------------------------------------------------------------------

    @staticmethod
    def is_oauth(path: str, headers: dict[str, str]) -> bool:
        route = path.split("?", 1)[0]
        return route == "/oauth2/token" or headers.get("Authorization", "").startswith("Bearer ")

    def oauth(self, method: str, path: str, headers: dict[str, str],
              body: Any) -> tuple[int, Any]:
        from .discord_spec import SPEC
        route = path.split("?", 1)[0]
        if route == "/oauth2/token":
            if method != "POST":
                return 405, {"message": "405: Method Not Allowed", "code": 0}
            if self.token_failures:
                status = self.token_failures.pop(0)
                if status == 429:
                    return 429, {"message": "You are being rate limited.", "retry_after": 7.5,
                                 "global": False}
                return status, {"message": f"{status}: Server Error", "code": 0}
            return self._token(headers, body)
        refused = SPEC.check(method, path, body)
        if refused is not None:
            return refused
        user = self._tokens.get(headers.get("Authorization", "")[7:])
        if user is None:
            return 401, {"message": "401: Unauthorized", "code": 0}
        if route == "/users/@me" and method == "GET":
            return 200, user
        return 403, {"message": "Missing Access", "code": 50001}

    @staticmethod
    def answer_headers(status: int) -> dict[str, str]:
        return {"Retry-After": "7.5"} if status == 429 else {}

    def _token(self, headers: dict[str, str], body: Any) -> tuple[int, Any]:
        kind = {k.lower(): v for k, v in headers.items()}.get("content-type", "")
        if not kind.startswith(_FORM) or not isinstance(body, dict):
            return 400, {"error": "invalid_request",
                         "error_description": "Content-Type must be " + _FORM}
        if body.get("grant_type") != "authorization_code":
            return 400, {"error": "unsupported_grant_type"}
        if str(body.get("client_id")) != str(self._app_id()) \
                or body.get("client_secret") != self.client_secret:
            return 401, {"error": "invalid_client"}
        found = self._codes.pop(str(body.get("code")), None)
        if found is None or found[1] < self.fake.now():
            return 400, {"error": "invalid_grant",
                         "error_description": 'Invalid "code" in request.'}
        token = secrets.token_urlsafe(24)
        self._tokens[token] = found[0]
        return 200, {"access_token": token, "token_type": "Bearer",
                     "expires_in": ACCESS_LIFETIME, "refresh_token": secrets.token_urlsafe(24),
                     "scope": "identify guilds"}

    # -- the application's routes (bot token) ---------------------------------------------------

    def route(self, method: str, parts: list[str], body: Any) -> tuple[bool, Any]:
        """(handled, answer) for ``/applications/…``; raises the fake's Refusal."""
        Refusal, snowflake = self._refusal, self._ids
        if len(parts) == 4 and parts[2] == "activity-instances" and method == "GET":
            instance = self.instances.get(parts[3])
            if instance is None or not self.activities_enabled:
                raise Refusal(404, {"message": "404: Not Found", "code": 0})
            return True, instance
        if len(parts) == 5 and parts[2] == "guilds" and parts[4] == "commands" \
                and method == "PUT":
            return True, self._guild_overwrite(int(parts[3]), body)
        if len(parts) != 3 or parts[2] != "commands":
            return False, None
        if method == "GET":
            return True, [dict(c) for c in self.commands]
        if method != "PUT":
            return False, None
        had_entry = [c for c in self.commands if c.get("type") == ENTRY_POINT]
        if had_entry and not any(c.get("type") == ENTRY_POINT for c in body):
            raise Refusal(400, ENTRY_POINT_REMOVED)
        known = {c["id"]: c for c in self.commands}
        kept = []
        for command in body:
            old = known.get(str(command.get("id")))
            kept.append(dict(command, id=old["id"] if old else str(snowflake()),
                             application_id=str(self._app_id()), version="1"))
        self.commands = kept
        self.synced = True
        return True, [dict(c) for c in kept]

    def application(self) -> dict[str, Any]:
        """``GET /applications/@me`` (and ``/oauth2/applications/@me``): the application,
        with an ``integration_types_config`` entry per install type the portal allows."""
        return {"id": str(self._app), "name": "Tabletop", "icon": None, "description": "",
                "type": None, "bot_public": True, "bot_require_code_grant": False,
                "verify_key": "0" * 64, "flags": 0, "rpc_origins": [], "tags": [],
                "owner": {"id": "1", "username": "owner", "global_name": None,
                          "discriminator": "0", "avatar": None},
                "integration_types_config": {kind: {} for kind in sorted(self.install_types)}}

    def _guild_overwrite(self, guild_id: int, body: Any) -> list[dict[str, Any]]:
        """A server's bulk overwrite. Discord keeps no contexts or install types for a server's
        commands: they exist in that server only, through its install."""
        known = {c["name"]: c for c in self.guild_commands.get(guild_id, [])}
        kept = []
        for command in body:
            old = known.get(command.get("name"))
            kept.append({k: v for k, v in command.items()
                         if k not in ("contexts", "integration_types")}
                        | {"id": old["id"] if old else str(self._ids()),
                           "application_id": str(self._app_id()), "guild_id": str(guild_id),
                           "version": "1"})
        self.guild_commands[guild_id] = kept
        self.synced = True
        return [dict(c) for c in kept]
