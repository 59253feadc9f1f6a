"""Discord's documented limits that JSON Schema cannot say, checked by hand after the schema
(for ``discord_spec``): content of a bot's message ≤ 2,000 characters, all embeds of a message
≤ 6,000 characters, custom_ids unique in a message, at most five action rows of at most five
buttons or one select, option values unique, every attachment entry naming an uploaded file,
no empty message, command and option names as Discord allows them (lowercase, no spaces, in
every language), each command ≤ 4,000 characters in its longest language, names unique. The
codes of those errors are Discord's where known.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Iterator

from .spec_schema import Refusal, put

#: the message flag of components v2 messages (no content or embeds; up to 40 components)
IS_COMPONENTS_V2 = 1 << 15
BOT_CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
COMMAND_SIZE_MAX = 4000
#: Discord's locales (the keys of name_localizations and description_localizations)
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko"})
_SELECTS = frozenset({3, 5, 6, 7, 8})


def house_rules(method: str, template: str, body: Any, uploads: int,
                 errors: dict[str, Any]) -> Refusal | None:
    if template.endswith("/commands") and method == "PUT" and isinstance(body, list):
        _command_rules(body, errors)
        return None
    if not isinstance(body, dict):
        return None
    if template == "/interactions/{interaction_id}/{interaction_token}/callback":
        if body.get("type") in (4, 7) and isinstance(body.get("data"), dict):
            return _message_rules(body["data"], ("data",), errors, uploads=uploads,
                                  create=body["type"] == 4)
        return None
    if template == "/channels/{channel_id}/messages" and method == "POST":
        return _message_rules(body, (), errors, uploads=uploads, create=True,
                              content_max=BOT_CONTENT_MAX)
    if template == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
        return _message_rules(body, (), errors, uploads=uploads, create=False,
                              content_max=BOT_CONTENT_MAX)
    if template.startswith("/webhooks/{webhook_id}/{webhook_token}") and method in ("POST", "PATCH"):
        return _message_rules(body, (), errors, uploads=uploads,
                              create=method == "POST" and template.endswith("{webhook_token}"))
    return None


def _text_length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _message_rules(message: dict[str, Any], at: tuple[Any, ...], errors: dict[str, Any], *,
                   uploads: int, create: bool, content_max: int | None = None) -> Refusal | None:
    content = message.get("content")
    if content_max is not None and _text_length(content) > content_max:
        put(errors, at + ("content",), "BASE_TYPE_MAX_LENGTH",
             f"Must be {content_max} or fewer in length.")
    embeds = message.get("embeds") or []
    total = 0
    for embed in embeds:
        total += _text_length(embed.get("title")) + _text_length(embed.get("description"))
        total += _text_length((embed.get("footer") or {}).get("text"))
        total += _text_length((embed.get("author") or {}).get("name"))
        for f in embed.get("fields") or []:
            total += _text_length(f.get("name")) + _text_length(f.get("value"))
    if total > EMBED_TOTAL_MAX:
        put(errors, at + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
             f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")
    components = message.get("components") or []
    v2 = bool((message.get("flags") or 0) & IS_COMPONENTS_V2)
    if components and not v2:
        if len(components) > 5:
            put(errors, at + ("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for r, row in enumerate(components):
            if row.get("type") != 1:
                put(errors, at + ("components", r, "type"), "UNION_TYPE_CHOICES",
                     'Value of field "type" must be one of (1,).')
                continue
            children = row.get("components") or []
            if len(children) > 1 and any(c.get("type") in _SELECTS for c in children):
                put(errors, at + ("components", r, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "The specified component exceeds the maximum width")
    seen: set[str] = set()
    for where, component in _walk_components(components, at + ("components",)):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                put(errors, where + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED",
                     "Component custom id was already specified")
            seen.add(custom_id)
        if component.get("type") == 2:
            _button_rules(component, where, errors)
        elif component.get("type") == 3:
            _select_rules(component, where, errors)
    attachments = message.get("attachments") or []
    for i, attachment in enumerate(attachments):
        ident = attachment.get("id")
        try:
            number = int(ident)
        except (TypeError, ValueError):
            continue
        # A small id names an uploaded file (files[n]); a snowflake keeps an existing one.
        if number < 2**22 and not number < uploads:
            put(errors, at + ("attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
                 f"Attachment {number} was not uploaded with this request.")
    if create and not errors and not (
            content or embeds or components or uploads or message.get("sticker_ids")
            or message.get("poll") or attachments):
        return 400, {"message": "Cannot send an empty message", "code": 50006}
    return None


def _walk_components(components: list[Any], at: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], dict[str, Any]]]:
    for i, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        where = at + (i,)
        yield where, component
        if component.get("components"):
            yield from _walk_components(component["components"], where + ("components",))
        if isinstance(component.get("accessory"), dict):
            yield where + ("accessory",), component["accessory"]


def _button_rules(button: dict[str, Any], where: tuple[Any, ...], errors: dict[str, Any]) -> None:
    style = button.get("style")
    if style == 5:
        if not button.get("url"):
            put(errors, where + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id"):
            put(errors, where + ("custom_id",), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                 "A link button cannot have a custom id")
    elif style in (1, 2, 3, 4):
        if not button.get("custom_id"):
            put(errors, where + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("url"):
            put(errors, where + ("url",), "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                 "Only a link button can have a url")
    if style != 6 and not button.get("label") and not button.get("emoji"):
        put(errors, where, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
             "A button needs a label or an emoji")


def _select_rules(select: dict[str, Any], where: tuple[Any, ...], errors: dict[str, Any]) -> None:
    options = select.get("options") or []
    values: set[str] = set()
    for i, option in enumerate(options):
        if option.get("value") in values:
            put(errors, where + ("options", i, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                 "The specified option value is already used")
        values.add(option.get("value"))
    low = select.get("min_values")
    high = select.get("max_values")
    low = 1 if low is None else low
    high = 1 if high is None else high
    if low > high:
        put(errors, where + ("min_values",), "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
             "min_values must be less than or equal to max_values")
    if options and high > len(options):
        put(errors, where + ("max_values",), "BASE_TYPE_MAX_VALUE",
             f"max_values must be less than or equal to the number of options ({len(options)})")
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > high:
        put(errors, where + ("options",), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
             "More options are selected by default than max_values allows")


def _valid_name(name: str) -> bool:
    """Discord's ^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$, lowercase where a letter has case."""
    if not 1 <= len(name) <= 32:
        return False
    for ch in name:
        if ch.lower() != ch:
            return False
        if ch in "-_'" or ch.isalnum():
            continue
        if unicodedata.category(ch) in ("Mn", "Mc") and unicodedata.name(ch, "").split()[0] in (
                "DEVANAGARI", "THAI"):
            continue
        return False
    return True


def _longest(node: dict[str, Any], field: str) -> int:
    values = [node.get(field)] + list((node.get(f"{field}_localizations") or {}).values())
    return max((len(v) for v in values if isinstance(v, str)), default=0)


def _command_size(node: dict[str, Any]) -> int:
    """Discord's size of a command: name, description and value of it, its options and choices,
    each field counted in its longest language."""
    size = _longest(node, "name") + _longest(node, "description")
    for choice in node.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in node.get("options") or []:
        size += _command_size(option)
    return size


def _name_rules(node: dict[str, Any], where: tuple[Any, ...], errors: dict[str, Any]) -> None:
    name = node.get("name")
    if isinstance(name, str) and not _valid_name(name):
        put(errors, where + ("name",), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    for locale, text in (node.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            put(errors, where + ("name_localizations", locale), "LOCALE_INVALID", "Invalid locale")
        elif isinstance(text, str) and not _valid_name(text):
            put(errors, where + ("name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME",
                 "Command name is invalid")
    for locale in node.get("description_localizations") or {}:
        if locale not in LOCALES:
            put(errors, where + ("description_localizations", locale), "LOCALE_INVALID",
                 "Invalid locale")
    if not node.get("description"):
        put(errors, where + ("description",), "BASE_TYPE_REQUIRED", "This field is required")
    names: set[str] = set()
    seen_optional = False
    for i, option in enumerate(node.get("options") or []):
        if not isinstance(option, dict):
            continue
        if option.get("name") in names:
            put(errors, where + ("options", i, "name"), "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                 "Option names must be unique")
        names.add(option.get("name"))
        if option.get("type") not in (1, 2):
            if option.get("required") and seen_optional:
                put(errors, where + ("options", i, "required"),
                     "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER",
                     "Required options must be placed before non-required options")
            seen_optional = seen_optional or not option.get("required")
        _name_rules(option, where + ("options", i), errors)


def _command_rules(commands: list[Any], errors: dict[str, Any]) -> None:
    names: set[tuple[Any, str]] = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        key = (command.get("type") or 1, command.get("name"))
        if key in names:
            put(errors, (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME",
                 "Application command names must be unique")
        names.add(key)
        if command.get("type") == 4 and any(isinstance(c, dict) and c.get("type") == 4
                                            for c in commands[:i]):
            put(errors, (i, "type"), "APPLICATION_COMMAND_PRIMARY_ENTRY_POINT_ALREADY_EXISTS",
                 "An application can only have one PRIMARY_ENTRY_POINT command")
        if command.get("type") in (None, 1):
            _name_rules(command, (i,), errors)
            size = _command_size(command)
            if size > COMMAND_SIZE_MAX:
                put(errors, (i,), "APPLICATION_COMMAND_TOO_LARGE",
                     f"Command exceeds maximum size ({COMMAND_SIZE_MAX}): {size}")
