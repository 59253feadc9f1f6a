"""What the documentation site generates rather than repeats: the command table, read from the
bot's own command tree, and the settings table, read from ``.env.example``.

Both are built when the site is (``bot/tools/docs_hooks.py``), so a page can never describe a
command or a setting the bot no longer has. The tests (``tests/docs/``) check the same output.
"""
from __future__ import annotations

import asyncio
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: Discord's application command types (a chat-input command is what people call a slash command)
COMMAND_TYPES = {1: "slash command", 2: "user context menu", 3: "message context menu",
                 4: "Activity entry point"}
#: Discord's option types, as the table names them
OPTION_TYPES = {3: "text", 4: "whole number", 5: "true/false", 6: "member", 7: "channel",
                8: "role", 9: "member or role", 10: "number", 11: "file"}
SUBCOMMAND, GROUP = 1, 2
#: not Discord's: set on a payload here when the command works only in a server that added
#: the bot (``bot.ui.places.needs_server``); elsewhere it answers with a sentence
NEEDS_SERVER = "x_needs_server"
#: the places the tables name: (name, Discord's interaction context, the install that reaches
#: it: "0" the server's, "1" the person's own)
PLACES = (("server with the bot", 0, "0"), ("server without the bot", 0, "1"),
          ("group DM", 2, "1"), ("DM", 2, "1"))
WORKS, SAYS_SO, ABSENT = "✓", "says it needs a server", "—"


def command_payloads() -> list[dict[str, Any]]:
    """Every command as the bot sends it to Discord at a sync (English names and descriptions,
    with their translations), from the cogs loaded into a bot that never connects."""
    from bot.client import TabletopBot, extensions
    from bot.config import Settings
    from bot.store import Store
    from bot.ui.launch import entry_point_payload
    from bot.ui.places import server_only
    from bot.ui.translator import CatalogTranslator

    async def payloads(folder: Path) -> list[dict[str, Any]]:
        store = await Store.open(folder / "docs.sqlite3")
        try:
            bot = TabletopBot(Settings("", folder / "docs.sqlite3", None, "INFO",
                                       ai_workers=0, render_workers=0), store)
            await bot.tree.set_translator(CatalogTranslator())
            for name in extensions():
                await bot.load_extension(name)
            # The Entry Point is sent only where the Activity is configured: listed all the same.
            found = []
            for command in bot.tree.get_commands():
                payload = await command.get_translated_payload(bot.tree, bot.tree.translator)
                if server_only(command):
                    payload[NEEDS_SERVER] = True
                found.append(payload)
            return found + entry_point_payload([])
        finally:
            await store.close()

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(payloads(Path(folder)))


@dataclass(frozen=True)
class Option:
    name: str
    kind: str
    required: bool
    description: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    """One command people can use: ``/sensei move``, or a context menu, with its options."""

    path: str
    kind: str
    description: str
    options: tuple[Option, ...] = ()
    manage_server: bool = False
    #: Discord's interaction contexts and install types the command declares
    contexts: tuple[int, ...] = (0, 1, 2)
    installs: tuple[str, ...] = ("0",)
    needs_server: bool = False

    def works_in(self, context: int, install: str) -> str:
        """``WORKS``, ``SAYS_SO`` (offered, answers that it needs a server) or ``ABSENT`` (Discord
        does not offer it there) for one of ``PLACES``."""
        if context not in self.contexts or install not in self.installs:
            return ABSENT
        return SAYS_SO if self.needs_server and install != "0" else WORKS


def entries(payloads: list[dict[str, Any]]) -> list[Entry]:
    """Every slash command and subcommand (leaves of the tree), and every other command."""
    found: list[Entry] = []

    def leaves(node: dict[str, Any], path: str, manage: bool, where: dict[str, Any]) -> None:
        subs = [o for o in node.get("options") or () if o.get("type") in (SUBCOMMAND, GROUP)]
        if subs:
            for sub in subs:
                leaves(sub, f"{path} {sub['name']}", manage, where)
            return
        options = tuple(Option(o["name"], OPTION_TYPES.get(o["type"], str(o["type"])),
                               bool(o.get("required")), o.get("description", ""),
                               tuple(c["name"] for c in o.get("choices") or ()))
                        for o in node.get("options") or ())
        found.append(Entry(path, COMMAND_TYPES[1], node.get("description", ""), options, manage,
                           **where))

    for payload in sorted(payloads, key=lambda p: (p.get("type", 1), p["name"])):
        kind = payload.get("type", 1)
        manage = _needs_manage_server(payload)
        where = _where(payload)
        if kind == 1:
            leaves(payload, "/" + payload["name"], manage, where)
        else:
            found.append(Entry(payload["name"], COMMAND_TYPES.get(kind, f"type {kind}"),
                               payload.get("description", ""), (), manage, **where))
    return found


def _where(payload: dict[str, Any]) -> dict[str, Any]:
    """What a top-level command declares (Discord's defaults where it declares nothing: every
    context unless ``dm_permission`` is false, the server install)."""
    contexts = payload.get("contexts")
    if contexts is None:
        contexts = [0] if payload.get("dm_permission") is False else [0, 1, 2]
    installs = payload.get("integration_types")
    return {"contexts": tuple(contexts),
            "installs": ("0",) if installs is None else tuple(str(i) for i in installs),
            "needs_server": bool(payload.get(NEEDS_SERVER))}


def where_text(entry: Entry) -> str:
    """The commands table's "where" cell."""
    cells = [entry.works_in(context, install) for _, context, install in PLACES]
    if all(cell == WORKS for cell in cells):
        return "everywhere"
    if entry.needs_server and cells[0] == WORKS and ABSENT not in cells:
        return "servers with the bot (elsewhere it says so)"
    return ", ".join(name for (name, _, _), cell in zip(PLACES, cells) if cell == WORKS) or "—"


def places_markdown(found: list[Entry]) -> str:
    """The table of what works where (docs/players/anywhere.md), one row per top-level
    command (a command's subcommands share where it works)."""
    lines = ["| command | " + " | ".join(name for name, _, _ in PLACES) + " |",
             "|---|" + "---|" * len(PLACES)]
    seen: set[str] = set()
    for entry in found:
        name = entry.path.split()[0]
        if name in seen:
            continue
        seen.add(name)
        subs = [e.path.split(" ", 1)[1] for e in found
                if e.path.split()[0] == name and " " in e.path]
        label = f"`{name}`" + (f" ({', '.join(subs)})" if subs else "")
        if entry.kind != COMMAND_TYPES[1]:
            label = f"{name} ({entry.kind})"
        lines.append(f"| {label} | " + " | ".join(
            entry.works_in(context, install) for _, context, install in PLACES) + " |")
    return "\n".join(lines)


def _needs_manage_server(payload: dict[str, Any]) -> bool:
    wanted = payload.get("default_member_permissions")
    return wanted is not None and int(wanted) & (1 << 5) != 0  # MANAGE_GUILD


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def commands_markdown(found: list[Entry]) -> str:
    """The command table of docs/players/commands.md."""
    lines = ["| command | what it does | options | where |", "|---|---|---|---|"]
    for entry in found:
        if entry.kind != COMMAND_TYPES[1]:
            continue
        options = "<br>".join(
            f"`{o.name}` ({o.kind}{', required' if o.required else ''}): {_cell(o.description)}"
            + (f" — {', '.join(o.choices)}" if o.choices else "") for o in entry.options) or "—"
        note = " *(Manage Server)*" if entry.manage_server else ""
        lines.append(f"| `{entry.path}` | {_cell(entry.description)}{note} | {options} | "
                     f"{where_text(entry)} |")
    others = [e for e in found if e.kind != COMMAND_TYPES[1]]
    if others:
        lines += ["", "Other commands:", "", "| name | type | description |", "|---|---|---|"]
        lines += [f"| {_cell(e.path)} | {e.kind} | {_cell(e.description) or '—'} |" for e in others]
    return "\n".join(lines)


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    comment: str


_ASSIGNMENT = re.compile(r"^([A-Z][A-Z0-9_]*)=(.*)$")


def settings(path: Path = ROOT / ".env.example") -> list[Setting]:
    """Each variable of ``.env.example`` with its default and the comment block above it (a
    comment shared by several variables written together belongs to each of them)."""
    found: list[Setting] = []
    comment: list[str] = []
    after_assignment = False
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#"):
            if after_assignment:
                comment, after_assignment = [], False
            comment.append(line.lstrip("#").strip())
        elif (match := _ASSIGNMENT.match(line)):
            found.append(Setting(match[1], match[2].strip(), " ".join(comment)))
            after_assignment = True
        elif not line:
            comment, after_assignment = [], False
    return found


def settings_markdown(found: list[Setting]) -> str:
    """The settings table of docs/operators/configuration.md."""
    lines = ["| variable | default | what it says in `.env.example` |", "|---|---|---|"]
    previous: Setting | None = None
    for setting in found:
        default = f"`{setting.default}`" if setting.default else "*(empty)*"
        comment = (f"(as `{previous.name}`)" if previous and setting.comment == previous.comment
                   and setting.comment else _cell(setting.comment))
        if not (previous and setting.comment == previous.comment):
            previous = setting
        lines.append(f"| `{setting.name}` | {default} | {comment} |")
    return "\n".join(lines)
