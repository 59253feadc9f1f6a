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

Bodies are judged first by ``jsonschema_rs`` (compiled: 0.02 ms a request against 0.3) on the same
description written in plain JSON Schema (``spec_schema.standard``); only a body it refuses is
judged again by ``jsonschema``, whose errors name the fields. Without ``jsonschema_rs``
(a platform without its wheels) every body takes the slower road, to the same answer.

A few of Discord's documented limits cannot be written in JSON Schema and are checked by
hand (``spec_rules``); ``spec_schema`` makes the description quick to judge and words the
refusals as Discord does.
"""
from __future__ import annotations

import gzip
import json
from collections import deque
from pathlib import Path
from typing import Any

import orjson

from .spec_rules import (BOT_CONTENT_MAX, COMMAND_SIZE_MAX, EMBED_TOTAL_MAX, IS_COMPONENTS_V2,
                         LOCALES, _command_size, house_rules)
from .spec_schema import Refusal, inline, invalid, put, simplify, standard, translate

SPEC_FILE = Path(__file__).with_name("discord-api-spec") / "openapi.json.gz"
#: the largest integer Discord takes (JavaScript's safe integers)
INT53_MAX = 2**53 - 1
#: answers kept for bodies seen before (then forgotten all at once)
VERDICTS_KEPT = 20_000
_SNOWFLAKE_REF = "#/components/schemas/SnowflakeType"

NOT_FOUND = (404, {"message": "404: Not Found", "code": 0})
METHOD_NOT_ALLOWED = (405, {"message": "405: Method Not Allowed", "code": 0})


class SpecUnavailable(RuntimeError):
    """The stand-in cannot judge requests (jsonschema missing): it refuses to pretend."""


class DiscordSpec:
    def __init__(self, source: Path = SPEC_FILE) -> None:
        self.source = source
        self._doc: dict[str, Any] | None = None
        self._by_length: dict[int, list[tuple[tuple[str, ...], str, dict[str, Any]]]] = {}
        self._validators: dict[tuple[str, str], Any] = {}
        self._quick: dict[tuple[str, str], Any] = {}
        self._standard_components: dict[str, Any] | None = None
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

    def warm(self) -> None:
        """Read the description and compile the commonest route now, uncounted: the first
        request judged otherwise stalls while that happens."""
        self._check("POST", "/channels/1/messages", {"content": "warm-up"}, 0)

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
                put(errors, (name,), "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.')
        if errors:
            return invalid(errors)
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
        quick = self._quick.get((template, method))
        if quick is None or not quick.is_valid(body):
            for error in validator.iter_errors(body):
                for where, code, message in translate(error):
                    put(errors, where, code, message)
        verdict = house_rules(method, template, body, uploads, errors) if not errors else None
        if verdict is None and errors:
            verdict = invalid(errors)
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
            schema = inline(schema, self._doc["components"]["schemas"], self._inlined, ())
            root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                    "components": self._doc["components"], **schema}
            validator = _validator_class()(root)
            self._quick[key] = self._quick_validator(schema)
        self._validators[key] = validator
        return validator

    def _quick_validator(self, schema: dict[str, Any]) -> Any:
        """The compiled judge of a route's (inlined) schema, None without jsonschema_rs: it
        answers only yes or no."""
        try:
            import jsonschema_rs
        except ImportError:  # pragma: no cover - its wheels cover Linux, macOS and Windows
            return None
        if self._standard_components is None:
            self._standard_components = standard(self._doc["components"])
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "components": self._standard_components, **standard(schema)}
        try:
            return jsonschema_rs.validator_for(root, validate_formats=False)
        except ValueError:  # e.g. a version that cannot hold 2**64 - 1: the slower road then
            return None

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
        simplify(doc["components"], schemas)
        self._snowflake_params: dict[tuple[str, str], bool] = {}
        for template, item in doc["paths"].items():
            simplify(item, schemas)
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


__all__ = ["SPEC", "DiscordSpec", "SpecUnavailable", "Refusal", "http_exception", "SPEC_FILE",
           "NOT_FOUND", "METHOD_NOT_ALLOWED", "INT53_MAX", "VERDICTS_KEPT", "BOT_CONTENT_MAX",
           "EMBED_TOTAL_MAX", "COMMAND_SIZE_MAX", "IS_COMPONENTS_V2", "LOCALES", "_command_size"]
