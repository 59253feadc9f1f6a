"""Which slash commands Discord offers where: the stand-in's side of installation and
interaction contexts.

Discord shows a person an application's command only where both hold:

- the place is one of the command's ``contexts`` (0 a server, 1 the bot's own DM, 2 a group DM
  or a DM between people; a command that declares none is offered in all three, unless it
  still says ``dm_permission: false``);
- one of the command's ``integration_types`` is installed there for that person: ``0`` the
  server installed the app (in the bot's DM, Discord names that install with owner ``"0"``),
  ``1`` the person installed it to their own account. A command that declares none has the
  application's default, the server install.

The interaction then names, in ``authorizing_integration_owners``, only the installs that
authorized this command. A server-scoped command (a development server's) exists only in that
server, through the server's install.

``Harness.command`` asks ``authorize`` before sending an interaction; a command Discord would
not offer raises ``NotOffered`` instead (a person cannot type a command their client does not
show), so a test cannot come to depend on one.
"""
from __future__ import annotations

from typing import Any, Callable

ALL_CONTEXTS = (0, 1, 2)
GUILD_CONTEXT = 0
GUILD_INSTALL, USER_INSTALL = "0", "1"
CHAT_INPUT = 1


class NotOffered(AssertionError):
    """Discord would not show this command to this person here."""


def _named(commands: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((c for c in commands if c.get("name") == name
                 and c.get("type", CHAT_INPUT) == CHAT_INPUT), None)


def contexts_of(command: dict[str, Any]) -> tuple[int, ...]:
    contexts = command.get("contexts")
    if contexts is None:
        return (GUILD_CONTEXT,) if command.get("dm_permission") is False else ALL_CONTEXTS
    return tuple(contexts)


def installs_of(command: dict[str, Any]) -> tuple[str, ...]:
    types = command.get("integration_types")
    return (GUILD_INSTALL,) if types is None else tuple(str(t) for t in types)


def authorize(apps: Any, payload: dict[str, Any], name: str,
              declared: Callable[[str], dict[str, Any] | None]) -> dict[str, Any]:
    """The command Discord offers for ``payload`` (a slash command interaction about to be
    sent: its ``context``, and in ``authorizing_integration_owners`` every install of the app
    in that place); narrows those owners to the ones that authorize this command.

    ``apps`` is the stand-in's application (its synced commands); ``declared`` gives the bot's
    own declaration of a command when none was ever synced (a bot started without a sync)."""
    context = payload.get("context", GUILD_CONTEXT)
    user = (payload.get("member") or {}).get("user") or payload.get("user") or {}
    installs = {k: v for k, v in (payload.get("authorizing_integration_owners") or {}).items()
                # a person's install is their own: another's does not offer them anything
                if k != USER_INSTALL or v == user.get("id")}
    guild_id = payload.get("guild_id")
    if context == GUILD_CONTEXT and guild_id and installs.get(GUILD_INSTALL) == str(guild_id):
        command = _named(apps.guild_commands.get(int(guild_id), []), name)
        if command is not None:
            payload["authorizing_integration_owners"] = {GUILD_INSTALL: str(guild_id)}
            return command
    # A bot started without sending its commands (another process sent them, or the
    # playground) is offered what it declares.
    command = _named(apps.commands, name) if apps.synced else declared(name)
    if command is None:
        raise NotOffered(f"/{name}: the application has no such command here")
    if context not in contexts_of(command):
        raise NotOffered(f"/{name} is not offered in interaction context {context} "
                         f"(it declares {list(contexts_of(command))})")
    owners = {k: v for k, v in installs.items() if k in installs_of(command)}
    if not owners:
        raise NotOffered(f"/{name} is not offered to this person here: it is installable "
                         f"{list(installs_of(command))}, the installs here are "
                         f"{sorted(installs)}")
    payload["authorizing_integration_owners"] = owners
    return command
