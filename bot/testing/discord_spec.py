"""Discord's published API description as the judge of every request the stand-in receives.

``SPEC.check(method, path, body)`` answers ``None`` for a request Discord would take, or the
``(status, error_json)`` Discord answers: 404 ``{"message": "404: Not Found", "code": 0}`` for a
route Discord does not have, 405 for a method it does not have on that route, and 400
``{"code": 50035, "message": "Invalid Form Body", "errors": {...}}`` for a body its schema
refuses, the ``errors`` tree naming the field as Discord does
(``{"components": {"0": {"components": {"1": {"custom_id": {"_errors": [...]}}}}}}``).
The stand-in's one funnel (``FakeDiscord.handle``) sends that answer back as Discord's HTTP
response, so discord.py raises from it what it raises from Discord's; ``SPEC.enforce(...)``
raises the matching ``discord.HTTPException`` directly, for a caller without such a funnel.

The description is ``discord-api-spec/openapi.json.gz`` beside this file (its README says where
it comes from and how to update it). Each route's schema is compiled into one ``jsonschema``
validator on first use and kept. Before that, the description is made quicker to judge and
closer to what Discord really accepts:

- snowflakes are decimal strings in the description; Discord also takes JSON integers, which
  discord.py sends (``recipient_id``, attachment ids), and so are permission bit sets
  (``default_member_permissions``, which discord.py sends as a string);
- a union told apart by its ``type`` (interaction callbacks, message components) is judged by
  the branch its ``type`` names, so the error names the field of that branch; ``null`` or a
  schema likewise; a ``oneOf`` of constants is an ``enum``.

A few of Discord's documented limits cannot be written in JSON Schema and are checked here by
hand (``_message_rules``, ``_command_rules``): content of a bot's message ≤ 2,000 characters,
all embeds of a message ≤ 6,000 characters, custom_ids unique in a message, at most five action
rows of at most five buttons or one select, option values unique, every attachment entry naming
an uploaded file, no empty message, command and option names as Discord allows them (lowercase,
no spaces, in every language), each command ≤ 4,000 characters in its longest language, names
unique. The codes of those errors are Discord's where known.
"""
from __future__ import annotations

import gzip
import json
import unicodedata
from collections import deque
from pathlib import Path
from typing import Any, Iterable, Iterator

import orjson

SPEC_FILE = Path(__file__).with_name("discord-api-spec") / "openapi.json.gz"
#: the largest integer Discord takes (JavaScript's safe integers)
INT53_MAX = 2**53 - 1
#: the message flag of components v2 messages (no content or embeds; up to 40 components)
IS_COMPONENTS_V2 = 1 << 15
BOT_CONTENT_MAX = 2000
EMBED_TOTAL_MAX = 6000
COMMAND_SIZE_MAX = 4000
#: answers kept for bodies seen before (then forgotten all at once)
VERDICTS_KEPT = 20_000
#: Discord's locales (the keys of name_localizations and description_localizations)
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko"})
_SELECTS = frozenset({3, 5, 6, 7, 8})
_SNOWFLAKE_REF = "#/components/schemas/SnowflakeType"

NOT_FOUND = (404, {"message": "404: Not Found", "code": 0})
METHOD_NOT_ALLOWED = (405, {"message": "405: Method Not Allowed", "code": 0})


class SpecUnavailable(RuntimeError):
    """The stand-in cannot judge requests (jsonschema missing): it refuses to pretend."""


Refusal = tuple[int, dict[str, Any]]


class DiscordSpec:
    def __init__(self, source: Path = SPEC_FILE) -> None:
        self.source = source
        self._doc: dict[str, Any] | None = None
        self._by_length: dict[int, list[tuple[tuple[str, ...], str, dict[str, Any]]]] = {}
        self._validators: dict[tuple[str, str], Any] = {}
        self._inlined: dict[str, Any] = {}
        self._verdicts: dict[tuple[Any, ...], Refusal | None] = {}
        self.cached = 0
        #: requests judged and refused since start (a test may look at these)
        self.checked = 0
        self.refused: list[tuple[str, str, Refusal]] = []

    # -- the public surface ----------------------------------------------------------------

    def check(self, method: str, path: str, body: Any = None, *, uploads: int = 0) -> Refusal | None:
        """``None`` when Discord would take this request; otherwise Discord's answer.
        ``uploads``: how many files a multipart request carries (``files[0]`` …)."""
        self.checked += 1
        refusal = self._check(method.upper(), path, body, uploads)
        if refusal is not None:
            self.refused.append((method, path, refusal))
        return refusal

    def enforce(self, method: str, path: str, body: Any = None, uploads: int = 0) -> None:
        """Raise what discord.py raises when Discord refuses this request."""
        refusal = self.check(method, path, body, uploads=uploads)
        if refusal is not None:
            raise http_exception(*refusal)

    # -- judging ---------------------------------------------------------------------------

    def _check(self, method: str, path: str, body: Any, uploads: int) -> Refusal | None:
        self._load()
        path = path.split("?", 1)[0]
        found = self._route(path)
        if found is None:
            return NOT_FOUND
        template, item, params = found
        operation = item.get(method.lower())
        if operation is None:
            return METHOD_NOT_ALLOWED
        errors: dict[str, Any] = {}
        for name, value in params.items():
            if self._snowflake_params.get((template, name)) and not value.isdigit():
                _put(errors, (name,), "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
        if errors:
            return _invalid(errors)
        validator = self._validator(template, method, operation)
        if validator is None:
            return None
        # The same body on the same route gets the same answer: judged once (lobbies, menus
        # and refusals repeat, test after test).
        try:
            key = (template, method, uploads, orjson.dumps(body, option=orjson.OPT_SORT_KEYS))
        except (TypeError, orjson.JSONEncodeError):
            key = None
        if key is not None and key in self._verdicts:
            self.cached += 1
            return self._verdicts[key]
        for error in validator.iter_errors(body):
            for where, code, message in _translate(error):
                _put(errors, where, code, message)
        verdict = _house_rules(method, template, body, uploads, errors) if not errors else None
        if verdict is None and errors:
            verdict = _invalid(errors)
        if key is not None:
            if len(self._verdicts) >= VERDICTS_KEPT:
                self._verdicts.clear()
            self._verdicts[key] = verdict
        return verdict

    def _route(self, path: str) -> tuple[str, dict[str, Any], dict[str, str]] | None:
        segments = path.strip("/").split("/")
        best: tuple[int, str, dict[str, Any], dict[str, str]] | None = None
        for template_segments, template, item in self._by_length.get(len(segments), ()):
            score, params = 0, {}
            for want, got in zip(template_segments, segments):
                if want[0] == "{":
                    params[want[1:-1]] = got
                elif want == got:
                    score += 1
                else:
                    break
            else:
                # a literal segment beats a parameter: /messages/@original, /messages/pins
                if best is None or score > best[0]:
                    best = (score, template, item, params)
        return None if best is None else best[1:]

    def _validator(self, template: str, method: str, operation: dict[str, Any]) -> Any:
        key = (template, method)
        if key in self._validators:
            return self._validators[key]
        content = (operation.get("requestBody") or {}).get("content") or {}
        schema = (content.get("application/json") or content.get("multipart/form-data")
                  or {}).get("schema")
        validator = None
        if schema is not None:
            # The document's components are the root of every $ref (#/components/schemas/…);
            # the route's schema has them written in place, but where a schema contains itself.
            schema = _inline(schema, self._doc["components"]["schemas"], self._inlined, ())
            root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                    "components": self._doc["components"], **schema}
            validator = _validator_class()(root)
        self._validators[key] = validator
        return validator

    def _load(self) -> None:
        if self._doc is not None:
            return
        _validator_class()  # say so now, loudly, if jsonschema is missing
        with gzip.open(self.source, "rt", encoding="utf-8") as f:
            doc = json.load(f)
        schemas = doc["components"]["schemas"]
        # Discord takes snowflakes as JSON integers too (discord.py sends some that way).
        schemas["SnowflakeType"] = {"type": ["string", "integer"], "pattern": r"^(0|[1-9][0-9]*)$",
                                    "minimum": 0, "maximum": 2**64 - 1}
        _simplify(doc["components"], schemas)
        self._snowflake_params: dict[tuple[str, str], bool] = {}
        for template, item in doc["paths"].items():
            _simplify(item, schemas)
            segments = tuple(template.strip("/").split("/"))
            self._by_length.setdefault(len(segments), []).append((segments, template, item))
            for param in item.get("parameters") or []:
                if param.get("in") == "path":
                    self._snowflake_params[(template, param["name"])] = (
                        param.get("schema", {}).get("$ref") == _SNOWFLAKE_REF)
        self._doc = doc


SPEC = DiscordSpec()


def http_exception(status: int, body: dict[str, Any]) -> Exception:
    import discord

    class _Response:
        def __init__(self) -> None:
            self.status = status
            self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found",
                           405: "Method Not Allowed"}.get(status, "Error")

    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(_Response(), body)


def _invalid(errors: dict[str, Any]) -> Refusal:
    return 400, {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def _put(tree: dict[str, Any], where: Iterable[Any], code: str, message: str) -> None:
    node = tree
    for key in where:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


# -- the schema, made quick to judge ---------------------------------------------------------

_VALIDATOR_CLASS: Any = None


def _validator_class() -> Any:
    global _VALIDATOR_CLASS
    if _VALIDATOR_CLASS is not None:
        return _VALIDATOR_CLASS
    try:
        from jsonschema import Draft202012Validator, ValidationError
        from jsonschema.validators import extend
    except ImportError as exc:  # pragma: no cover - the test extra always has it
        raise SpecUnavailable(
            "the Discord stand-in judges every request by Discord's API description and needs "
            "jsonschema (pip install -e '.[test]'); it will not accept requests unjudged") from exc

    def nullable(validator, schema, instance, _):
        if instance is not None:
            yield from validator.descend(instance, schema)

    def union_by_type(validator, branches, instance, _):
        if not isinstance(instance, dict):
            yield ValidationError("Only dictionaries may be used in a ModelType",
                                  validator="type", validator_value="object")
            return
        kind = instance.get("type")
        branch = branches.get(str(kind)) if isinstance(kind, int) else None
        if branch is None:
            yield ValidationError(
                "This field is required" if kind is None else
                f'Value of field "type" must be one of ({", ".join(sorted(branches, key=int))},).',
                validator="x-union-by-type", validator_value=branches, path=deque(["type"]))
            return
        yield from validator.descend(instance, branch)

    _VALIDATOR_CLASS = extend(Draft202012Validator,
                              {"x-nullable": nullable, "x-union-by-type": union_by_type})
    return _VALIDATOR_CLASS


def _simplify(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite unions in place so a body is judged by one branch (quicker, clearer errors)."""
    if isinstance(node, list):
        for child in node:
            _simplify(child, schemas)
        return
    if not isinstance(node, dict):
        return
    for child in list(node.values()):
        _simplify(child, schemas)
    if "enum" in node and "allOf" in node:
        # {"enum": [2], "allOf": [{"$ref": MessageComponentTypes}]}: the enum says it all
        del node["allOf"]
    if node.get("default_member_permissions", {}).get("type") == ["integer", "null"]:
        # a permission bit set: Discord documents (and discord.py sends) a decimal string
        node["default_member_permissions"] = {
            "type": ["integer", "string", "null"], "pattern": r"^[0-9]{1,20}$",
            "minimum": 0, "maximum": node["default_member_permissions"].get("maximum")}
    for word in ("oneOf", "anyOf"):
        branches = node.get(word)
        if not isinstance(branches, list):
            continue
        if all(isinstance(b, dict) and "const" in b and not set(b) - {"const", "title", "description"}
               for b in branches):
            node["enum"] = [b["const"] for b in branches]
            del node[word]
        elif len(branches) == 2 and {"type": "null"} in branches:
            node["x-nullable"] = branches[1 - branches.index({"type": "null"})]
            del node[word]
        else:
            by_type = _by_type(branches, schemas)
            if by_type is not None:
                node["x-union-by-type"] = by_type
                del node[word]


_ANNOTATIONS = frozenset({"title", "description", "format", "contentEncoding", "x-discord-union",
                          "deprecated", "examples", "default"})


def _inline(node: Any, schemas: dict[str, Any], done: dict[str, Any], stack: tuple[str, ...]) -> Any:
    """``node`` with each ``$ref`` replaced by what it names (kept where a schema contains
    itself) and without annotations: jsonschema then descends less and resolves nothing."""
    if isinstance(node, list):
        return [_inline(child, schemas, done, stack) for child in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[-1]
        if name in stack:
            return node
        if name not in done:
            done[name] = _inline(schemas[name], schemas, done, stack + (name,))
        siblings = {k: v for k, v in node.items() if k != "$ref" and k not in _ANNOTATIONS}
        if not siblings:
            return done[name]
        return {"allOf": [done[name]], **_inline(siblings, schemas, done, stack)}
    out = {}
    for key, value in node.items():
        if key in _ANNOTATIONS and not isinstance(value, (dict, list)):
            continue
        if key in ("properties", "x-union-by-type"):  # names, not keywords
            out[key] = {k: _inline(v, schemas, done, stack) for k, v in value.items()}
        else:
            out[key] = _inline(value, schemas, done, stack)
    return out


def _by_type(branches: list[Any], schemas: dict[str, Any]) -> dict[str, Any] | None:
    """{"4": branch, "5": branch, …} when every branch is an object told apart by its type."""
    out: dict[str, Any] = {}
    for branch in branches:
        target = branch
        if isinstance(branch, dict) and "$ref" in branch:
            name = branch["$ref"].rsplit("/", 1)[-1]
            target = schemas.get(name)
        kinds = (((target or {}).get("properties") or {}).get("type") or {}).get("enum")
        if not kinds:
            return None
        for kind in kinds:
            if str(kind) in out:
                return None
            out[str(kind)] = branch
    return out


# -- errors as Discord words them -------------------------------------------------------------

_TYPE_WORDS = {
    "integer": ("NUMBER_TYPE_COERCE", 'Value "{v}" is not int.'),
    "number": ("NUMBER_TYPE_COERCE", 'Value "{v}" is not a valid number.'),
    "string": ("BASE_TYPE_STRING", "Could not interpret \"{v}\" as string."),
    "boolean": ("BASE_TYPE_BOOLEAN", "Must be either true or false."),
    "array": ("BASE_TYPE_ARRAY", "Must be an array."),
    "object": ("MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"),
}


def _translate(error: Any) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """(path, code, message) of one jsonschema error, as Discord words it."""
    where = tuple(error.absolute_path)
    kind, value, instance, schema = error.validator, error.validator_value, error.instance, error.schema
    if kind in ("oneOf", "anyOf"):
        branch = _closest_branch(error)
        if branch:
            for sub in branch:
                yield from _translate(sub)
        else:
            yield where, "UNION_TYPE_CHOICES", "Value does not match any allowed shape."
        return
    if kind == "required":
        for name in value:
            if isinstance(instance, dict) and name not in instance:
                yield where + (name,), "BASE_TYPE_REQUIRED", "This field is required"
        return
    if kind in ("maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"):
        low = schema.get("minLength", schema.get("minItems"))
        high = schema.get("maxLength", schema.get("maxItems", schema.get("maxProperties")))
        if low and high is not None:
            yield where, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length."
        elif kind.startswith("max"):
            yield where, "BASE_TYPE_MAX_LENGTH", f"Must be {value} or fewer in length."
        else:
            yield where, "BASE_TYPE_MIN_LENGTH", f"Must be {value} or more in length."
        return
    if kind == "maximum":
        yield where, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {value}."
        return
    if kind == "minimum":
        yield where, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {value}."
        return
    if kind == "type":
        if instance is None:
            yield where, "BASE_TYPE_REQUIRED", "This field is required"
            return
        wanted = [value] if isinstance(value, str) else [v for v in value if v != "null"]
        code, text = _TYPE_WORDS.get(wanted[0] if wanted else "", ("BASE_TYPE_CHOICES", "Invalid type."))
        yield where, code, text.format(v=instance)
        return
    if kind in ("enum", "const"):
        choices = value if kind == "enum" else [value]
        yield where, "BASE_TYPE_CHOICES", f"Value must be one of {{{', '.join(map(str, choices))}}}."
        return
    if kind == "pattern":
        if schema.get("minimum") == 0 and "integer" in (schema.get("type") or ()):
            yield where, "NUMBER_TYPE_COERCE", f'Value "{instance}" is not snowflake.'
        else:
            yield where, "STRING_TYPE_REGEX", f'String value did not match validation regex.'
        return
    if kind == "x-union-by-type":
        code = "BASE_TYPE_REQUIRED" if instance.get("type") is None else "UNION_TYPE_CHOICES"
        yield where, code, error.message
        return
    if kind == "uniqueItems":
        yield where, "BASE_TYPE_DUPLICATE_VALUES", "Values must be unique."
        return
    yield where, "BASE_TYPE_INVALID", error.message


def _closest_branch(error: Any) -> list[Any]:
    """The errors of the union branch the instance was most likely meant for."""
    branches: dict[Any, list[Any]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if not branches:
        return []

    def distance(errors: list[Any]) -> tuple[int, int]:
        # a branch refused at its own level for its type is the wrong branch, not a near miss
        wrong_type = any(e.validator == "type" and len(e.relative_path) == 0 for e in errors)
        return (1 if wrong_type else 0, len(errors))

    return min(branches.values(), key=distance)


# -- Discord's limits that JSON Schema cannot say ---------------------------------------------

def _house_rules(method: str, template: str, body: Any, uploads: int,
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
        _put(errors, at + ("content",), "BASE_TYPE_MAX_LENGTH",
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
        _put(errors, at + ("embeds",), "MAX_EMBED_SIZE_EXCEEDED",
             f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")
    components = message.get("components") or []
    v2 = bool((message.get("flags") or 0) & IS_COMPONENTS_V2)
    if components and not v2:
        if len(components) > 5:
            _put(errors, at + ("components",), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for r, row in enumerate(components):
            if row.get("type") != 1:
                _put(errors, at + ("components", r, "type"), "UNION_TYPE_CHOICES",
                     'Value of field "type" must be one of (1,).')
                continue
            children = row.get("components") or []
            if len(children) > 1 and any(c.get("type") in _SELECTS for c in children):
                _put(errors, at + ("components", r, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                     "The specified component exceeds the maximum width")
    seen: set[str] = set()
    for where, component in _walk_components(components, at + ("components",)):
        custom_id = component.get("custom_id")
        if custom_id is not None:
            if custom_id in seen:
                _put(errors, where + ("custom_id",), "COMPONENT_CUSTOM_ID_DUPLICATED",
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
            _put(errors, at + ("attachments", i, "id"), "ATTACHMENT_NOT_FOUND",
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
            _put(errors, where + ("url",), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id"):
            _put(errors, where + ("custom_id",), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                 "A link button cannot have a custom id")
    elif style in (1, 2, 3, 4):
        if not button.get("custom_id"):
            _put(errors, where + ("custom_id",), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("url"):
            _put(errors, where + ("url",), "BUTTON_COMPONENT_URL_NOT_ALLOWED",
                 "Only a link button can have a url")
    if style != 6 and not button.get("label") and not button.get("emoji"):
        _put(errors, where, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
             "A button needs a label or an emoji")


def _select_rules(select: dict[str, Any], where: tuple[Any, ...], errors: dict[str, Any]) -> None:
    options = select.get("options") or []
    values: set[str] = set()
    for i, option in enumerate(options):
        if option.get("value") in values:
            _put(errors, where + ("options", i, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                 "The specified option value is already used")
        values.add(option.get("value"))
    low = select.get("min_values")
    high = select.get("max_values")
    low = 1 if low is None else low
    high = 1 if high is None else high
    if low > high:
        _put(errors, where + ("min_values",), "SELECT_COMPONENT_MIN_VALUES_TOO_HIGH",
             "min_values must be less than or equal to max_values")
    if options and high > len(options):
        _put(errors, where + ("max_values",), "BASE_TYPE_MAX_VALUE",
             f"max_values must be less than or equal to the number of options ({len(options)})")
    defaults = sum(1 for option in options if option.get("default"))
    if defaults > high:
        _put(errors, where + ("options",), "SELECT_COMPONENT_TOO_MANY_DEFAULT_VALUES",
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
        _put(errors, where + ("name",), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    for locale, text in (node.get("name_localizations") or {}).items():
        if locale not in LOCALES:
            _put(errors, where + ("name_localizations", locale), "LOCALE_INVALID", "Invalid locale")
        elif isinstance(text, str) and not _valid_name(text):
            _put(errors, where + ("name_localizations", locale), "APPLICATION_COMMAND_INVALID_NAME",
                 "Command name is invalid")
    for locale in node.get("description_localizations") or {}:
        if locale not in LOCALES:
            _put(errors, where + ("description_localizations", locale), "LOCALE_INVALID",
                 "Invalid locale")
    if not node.get("description"):
        _put(errors, where + ("description",), "BASE_TYPE_REQUIRED", "This field is required")
    names: set[str] = set()
    seen_optional = False
    for i, option in enumerate(node.get("options") or []):
        if not isinstance(option, dict):
            continue
        if option.get("name") in names:
            _put(errors, where + ("options", i, "name"), "APPLICATION_COMMAND_OPTION_NAME_NOT_UNIQUE",
                 "Option names must be unique")
        names.add(option.get("name"))
        if option.get("type") not in (1, 2):
            if option.get("required") and seen_optional:
                _put(errors, where + ("options", i, "required"),
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
            _put(errors, (i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME",
                 "Application command names must be unique")
        names.add(key)
        if command.get("type") in (None, 1):
            _name_rules(command, (i,), errors)
            size = _command_size(command)
            if size > COMMAND_SIZE_MAX:
                _put(errors, (i,), "APPLICATION_COMMAND_TOO_LARGE",
                     f"Command exceeds maximum size ({COMMAND_SIZE_MAX}): {size}")
