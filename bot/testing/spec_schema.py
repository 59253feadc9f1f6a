"""Discord's API description made quick to judge and its refusals worded as Discord words them
(for ``discord_spec``, which loads the description and judges requests by it).

Unions are rewritten so that a body is judged by one branch: a union told apart by its
``type`` (interaction callbacks, message components) by the branch its ``type`` names, ``null``
or a schema likewise, a ``oneOf`` of constants as an ``enum``. ``$ref``s are written in place.
A jsonschema error becomes Discord's ``errors`` tree entry: path, code and message.
"""
from __future__ import annotations

import re
from typing import Any, Iterable, Iterator

Refusal = tuple[int, dict[str, Any]]


def invalid(errors: dict[str, Any]) -> Refusal:
    return 400, {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def put(tree: dict[str, Any], where: Iterable[Any], code: str, message: str) -> None:
    node = tree
    for key in where:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


# -- the schema, made quick to judge ----------------------------------------------------------

def simplify(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite unions in place so a body is judged by one branch (quicker, clearer errors)."""
    if isinstance(node, list):
        for child in node:
            simplify(child, schemas)
        return
    if not isinstance(node, dict):
        return
    for child in list(node.values()):
        simplify(child, schemas)
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


def inline(node: Any, schemas: dict[str, Any], done: dict[str, Any], stack: tuple[str, ...]) -> Any:
    """``node`` with each ``$ref`` replaced by what it names (kept where a schema contains
    itself) and without annotations: jsonschema then descends less and resolves nothing."""
    if isinstance(node, list):
        return [inline(child, schemas, done, stack) for child in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        name = ref.rsplit("/", 1)[-1]
        if name in stack:
            return node
        if name not in done:
            done[name] = inline(schemas[name], schemas, done, stack + (name,))
        siblings = {k: v for k, v in node.items() if k != "$ref" and k not in _ANNOTATIONS}
        if not siblings:
            return done[name]
        return {"allOf": [done[name]], **inline(siblings, schemas, done, stack)}
    out = {}
    for key, value in node.items():
        if key in _ANNOTATIONS and not isinstance(value, (dict, list)):
            continue
        if key in ("properties", "x-union-by-type"):  # names, not keywords
            out[key] = {k: inline(v, schemas, done, stack) for k, v in value.items()}
        else:
            out[key] = inline(value, schemas, done, stack)
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


#: a branch name as ``x-union-by-type`` can look it up: ``str`` of an integer
_INTEGER = re.compile(r"0|-?[1-9][0-9]*")
#: keywords whose values are data, never schemas: left as they are
_DATA = frozenset({"enum", "const", "default", "examples"})


def standard(node: Any) -> Any:
    """``node`` with this module's keywords written in plain JSON Schema, for a validator that
    knows only the standard: ``x-nullable`` becomes ``null`` or the schema, ``x-union-by-type``
    a choice of branches each pinned to its integer ``type``. It then takes what the extended
    validator takes (but a ``type`` written as ``4.0``, which JSON Schema counts as an integer
    and no client sends)."""
    if isinstance(node, list):
        return [standard(child) for child in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    added: list[Any] = []
    for key, value in node.items():
        if key == "x-nullable":
            added.append({"anyOf": [{"type": "null"}, standard(value)]})
        elif key == "x-union-by-type":
            # A branch named by anything but an integer is never taken (``x-union-by-type``
            # looks a body's integer ``type`` up); with none left, nothing is taken.
            added.append({"type": "object", "required": ["type"], "anyOf": [
                {"properties": {"type": {"type": "integer", "const": int(kind)}},
                 "allOf": [standard(branch)]} for kind, branch in value.items()
                if _INTEGER.fullmatch(kind)] or [False]})
        elif key == "properties":  # names, not keywords
            out[key] = {name: standard(schema) for name, schema in value.items()}
        elif key in _DATA:
            out[key] = value
        else:
            out[key] = standard(value)
    if added:
        out["allOf"] = [*out.get("allOf", []), *added]
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


def translate(error: Any) -> Iterator[tuple[tuple[Any, ...], str, str]]:
    """(path, code, message) of one jsonschema error, as Discord words it."""
    where = tuple(error.absolute_path)
    kind, value, instance, schema = error.validator, error.validator_value, error.instance, error.schema
    if kind in ("oneOf", "anyOf"):
        branch = _closest_branch(error)
        if branch:
            for sub in branch:
                yield from translate(sub)
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
            yield where, "STRING_TYPE_REGEX", 'String value did not match validation regex.'
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
