"""A typed slash command, read the way Discord's client reads it, against the commands the
bot registers (``bot.tree``, as the JSON Discord receives): ``/sensei start ai:hard``.

``parse`` returns the command path and typed option values, or raises ``CommandError`` with
the sentence a person sees. No command or game is known here beyond that JSON."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from bot.i18n import language_of, t

from .words import format_number

#: Discord's client refuses a message longer than this
MAX_MESSAGE = 2000
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class CommandError(Exception):
    """Bad input, worded for the person who typed it: a catalog key and its values, said in
    English by ``str()`` and in the person's language by ``text(locale)``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key, self.params = f"playground.error.{key}", params

    def text(self, locale: Any = None) -> str:
        language = language_of(locale)
        return t(self.key, language, **{
            name: format_number(value, language)
            if isinstance(value, int) and not isinstance(value, bool) else value
            for name, value in self.params.items()})

    def __str__(self) -> str:
        return self.text()


def _code(text: Any) -> str:
    return f"`{text}`"


@dataclass
class Parsed:
    path: list[str]                      # e.g. ["sensei", "start"]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "/" + " ".join(self.path)


def too_long(text: str, locale: Any = None) -> str | None:
    if len(text) > MAX_MESSAGE:
        return CommandError("too_long", count=len(text), limit=MAX_MESSAGE).text(locale)
    return None


def catalog(tree: Any) -> list[dict[str, Any]]:
    """The bot's commands as Discord receives them (names, options, choices, ranges)."""
    return [command.to_dict(tree) for command in tree.get_commands()]


def entries(commands: list[dict[str, Any]], locale: str | None = None) -> list[dict[str, Any]]:
    """Every invocable path with its description and options, for suggestions: descriptions
    and choice names in ``locale`` where the command carries them (Discord's
    ``*_localizations``, as its client shows them), else English. Paths and option names stay
    the ones typed."""
    out = []

    def local(node: dict[str, Any], field: str) -> str:
        return ((node.get(f"{field}_localizations") or {}).get(locale or "")
                or node.get(field, ""))

    def walk(node: dict[str, Any], path: list[str]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            out.append({"path": " ".join(path), "description": local(node, "description"),
                        "options": [{"name": o["name"], "type": o["type"],
                                     "required": bool(o.get("required")),
                                     "description": local(o, "description"),
                                     "choices": [{"name": local(c, "name"), "value": c["value"]}
                                                 for c in o.get("choices") or []]}
                                    for o in node.get("options") or []]})
        for sub in subs:
            walk(sub, path + [sub["name"]])

    for command in commands:
        walk(command, [command["name"]])
    return out


async def translated_catalog(tree: Any) -> list[dict[str, Any]]:
    """The commands with every language's names and descriptions, as the bot syncs them."""
    translator = tree.translator
    if translator is None:
        return catalog(tree)
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]


def parse(text: str, commands: list[dict[str, Any]],
          find_user: Callable[[str], Any]) -> Parsed:
    if len(text) > MAX_MESSAGE:
        raise CommandError("too_long", count=len(text), limit=MAX_MESSAGE)
    words = text.strip()[1:].split()
    if not words:
        raise CommandError("empty_command", example=_code("/games"))
    by_name = {c["name"]: c for c in commands}
    node = by_name.get(words[0].lower())
    if node is None:
        raise CommandError("unknown_command", command=_code(f"/{words[0][:40]}"),
                           commands=", ".join("/" + n for n in sorted(by_name)))
    path, rest = [node["name"]], words[1:]
    while subs := {o["name"]: o for o in node.get("options") or []
                   if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)}:
        if not rest or rest[0].lower() not in subs:
            shown = "/" + " ".join(path)
            raise CommandError("needs_subcommand", command=_code(shown),
                               subcommands=", ".join(_code(f"{shown} {s}") for s in subs))
        node = subs[rest[0].lower()]
        path.append(node["name"])
        rest = rest[1:]
    return Parsed(path, _options(node, " ".join(rest), find_user, "/" + " ".join(path)))


def _options(node: dict[str, Any], text: str, find_user: Callable[[str], Any],
             shown: str) -> dict[str, Any]:
    specs = {o["name"]: o for o in node.get("options") or []}
    raw: dict[str, str] = {}
    if text:
        # name:value pairs; a value runs to the next " name:" (values may hold spaces)
        marks = list(re.finditer(r"(?:^|\s)([\w-]+):", text))
        if not marks or marks[0].start() > 0 and text[:marks[0].start()].strip():
            leading = text[:marks[0].start()] if marks else text
            required = [o for o in specs.values() if o.get("required")]
            if len(required) != 1:
                if specs:
                    raise CommandError("options_as_pairs",
                                       example=_code(f"{shown} {next(iter(specs))}:…"))
                raise CommandError("no_options", command=_code(shown))
            raw[required[0]["name"]] = leading.strip()
        for n, mark in enumerate(marks):
            end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
            name = mark.group(1).lower()
            if name not in specs:
                if not specs:
                    raise CommandError("no_options", command=_code(shown))
                raise CommandError("unknown_option", command=_code(shown),
                                   option=_code(name[:40]), options=", ".join(specs))
            if name in raw:
                raise CommandError("option_twice", option=_code(name))
            raw[name] = text[mark.end():end].strip()
    for spec in specs.values():
        if spec.get("required") and not raw.get(spec["name"]):
            raise CommandError("option_required", command=_code(shown),
                               option=_code(spec["name"]),
                               description=spec.get("description", ""))
    return {name: _value(specs[name], value, find_user) for name, value in raw.items()}


def _value(spec: dict[str, Any], value: str, find_user: Callable[[str], Any]) -> Any:
    name, kind = spec["name"], spec["type"]
    if not value:
        raise CommandError("option_empty", option=_code(name))
    choices = spec.get("choices") or []
    if choices:
        for choice in choices:
            if value.casefold() in (str(choice["value"]).casefold(), choice["name"].casefold()):
                return choice["value"]
        raise CommandError("option_choices", option=_code(name),
                           choices=", ".join(str(c["value"]) for c in choices))
    if kind == STRING:
        low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise CommandError("option_length", option=_code(name), low=low, high=high)
        return value
    if kind in (INTEGER, NUMBER):
        try:
            number: Any = int(value) if kind == INTEGER else float(value)
        except ValueError:
            raise CommandError("option_integer" if kind == INTEGER else "option_number",
                               option=_code(name)) from None
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and number < low) or (high is not None and number > high):
            raise CommandError("option_range", option=_code(name), low=low, high=high)
        return number
    if kind == BOOLEAN:
        if value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise CommandError("option_boolean", option=_code(name))
    if kind in (USER, MENTIONABLE):
        user = find_user(value)
        if user is None:
            raise CommandError("no_member", option=_code(name), name=value[:40])
        return user
    raise CommandError("option_type", option=_code(name), type=kind)
