"""A typed slash command, read the way Discord's client reads it, against the commands the
bot registers (``bot.tree``, as the JSON Discord receives): ``/sensei start ai:hard``.

``parse`` returns the command path and typed option values, or raises ``CommandError`` with
the sentence a person sees. No command or game is known here beyond that JSON."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

#: Discord's client refuses a message longer than this
MAX_MESSAGE = 2000
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class CommandError(Exception):
    """Bad input, worded for the person who typed it."""


@dataclass
class Parsed:
    path: list[str]                      # e.g. ["sensei", "start"]
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return "/" + " ".join(self.path)


def too_long(text: str) -> str | None:
    if len(text) > MAX_MESSAGE:
        return (f"Your message is too long: {len(text):,} characters. "
                f"Must be {MAX_MESSAGE:,} or fewer in length.")
    return None


def catalog(tree: Any) -> list[dict[str, Any]]:
    """The bot's commands as Discord receives them (names, options, choices, ranges)."""
    return [command.to_dict(tree) for command in tree.get_commands()]


def entries(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every invocable path with its description and options, for suggestions."""
    out = []

    def walk(node: dict[str, Any], path: list[str]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not subs:
            out.append({"path": " ".join(path), "description": node.get("description", ""),
                        "options": [{"name": o["name"], "type": o["type"],
                                     "required": bool(o.get("required")),
                                     "description": o.get("description", ""),
                                     "choices": [c["value"] for c in o.get("choices") or []]}
                                    for o in node.get("options") or []]})
        for sub in subs:
            walk(sub, path + [sub["name"]])

    for command in commands:
        walk(command, [command["name"]])
    return out


def parse(text: str, commands: list[dict[str, Any]],
          find_user: Callable[[str], Any]) -> Parsed:
    if (message := too_long(text)) is not None:
        raise CommandError(message)
    words = text.strip()[1:].split()
    if not words:
        raise CommandError("Type a command after the /, for example `/games`.")
    by_name = {c["name"]: c for c in commands}
    node = by_name.get(words[0].lower())
    if node is None:
        raise CommandError(f"`/{words[0][:40]}` is not a command of this server. "
                           f"Commands: {', '.join('/' + n for n in sorted(by_name))}.")
    path, rest = [node["name"]], words[1:]
    while subs := {o["name"]: o for o in node.get("options") or []
                   if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)}:
        if not rest or rest[0].lower() not in subs:
            shown = "/" + " ".join(path)
            raise CommandError(f"`{shown}` needs one of: "
                               f"{', '.join(f'`{shown} {s}`' for s in subs)}.")
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
                raise CommandError(f"Write options as name:value, e.g. "
                                   f"`{shown} {next(iter(specs), 'option')}:…`."
                                   if specs else f"`{shown}` takes no options.")
            raw[required[0]["name"]] = leading.strip()
        for n, mark in enumerate(marks):
            end = marks[n + 1].start() if n + 1 < len(marks) else len(text)
            name = mark.group(1).lower()
            if name not in specs:
                known = ", ".join(specs) or "none"
                raise CommandError(f"`{shown}` has no option `{name[:40]}` (options: {known}).")
            if name in raw:
                raise CommandError(f"The option `{name}` is given twice.")
            raw[name] = text[mark.end():end].strip()
    for spec in specs.values():
        if spec.get("required") and not raw.get(spec["name"]):
            raise CommandError(f"`{shown}`: the option `{spec['name']}` is required "
                               f"({spec.get('description', '')}).")
    return {name: _value(specs[name], value, find_user) for name, value in raw.items()}


def _value(spec: dict[str, Any], value: str, find_user: Callable[[str], Any]) -> Any:
    name, kind = spec["name"], spec["type"]
    if not value:
        raise CommandError(f"The option `{name}` has no value.")
    choices = spec.get("choices") or []
    if choices:
        for choice in choices:
            if value.casefold() in (str(choice["value"]).casefold(), choice["name"].casefold()):
                return choice["value"]
        raise CommandError(f"`{name}` must be one of: "
                           f"{', '.join(str(c['value']) for c in choices)}.")
    if kind == STRING:
        low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise CommandError(f"`{name}` must be {low} to {high} characters long.")
        return value
    if kind in (INTEGER, NUMBER):
        try:
            number: Any = int(value) if kind == INTEGER else float(value)
        except ValueError:
            raise CommandError(f"`{name}` must be a {'whole ' if kind == INTEGER else ''}number.") from None
        low, high = spec.get("min_value"), spec.get("max_value")
        if (low is not None and number < low) or (high is not None and number > high):
            raise CommandError(f"`{name}` must be between {low} and {high}.")
        return number
    if kind == BOOLEAN:
        if value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise CommandError(f"`{name}` must be True or False.")
    if kind in (USER, MENTIONABLE):
        user = find_user(value)
        if user is None:
            raise CommandError(f"`{name}`: no member called {value[:40]} here "
                               f"(someone who opened the page, by name: @Ben).")
        return user
    raise CommandError(f"The playground cannot fill `{name}` (an option of type {kind}).")
