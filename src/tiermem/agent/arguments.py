"""(internal) The memory tools' arguments: checked against the schema the model was shown, Letta's names accepted.

A small JSON-schema subset (string, integer, array; lengths, bounds, patterns, enums) is enough for the tools'
schemas and gives errors that name the argument, the rule and what was given. Letta's memory tools name some
arguments differently (``label`` for ``block``, ``content`` for ``text``, ``top_k`` for ``k``...): those names
are accepted here, in the one place every door's calls pass, so an agent written for Letta works unchanged
whether it reaches the tools from Python, over REST, over MCP or through the OpenAI Agents adapter.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from tiermem import errors
from tiermem.errors import shown_name

__all__ = ["LETTA_NAMES", "ArgumentError", "bad", "check_arguments", "given_texts", "shown"]

_GIVEN = 80

# Tool -> {Letta's argument name: this tool's}. Letta's core_memory_append(label, content),
# core_memory_replace(label, old_content, new_content), archival_memory_search(query, top_k, start_datetime,
# end_datetime) and conversation_search(query, limit, ...); the other names are the same on both sides.
LETTA_NAMES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        "core_memory_append": MappingProxyType({"label": "block", "content": "text"}),
        "core_memory_replace": MappingProxyType(
            {"label": "block", "old_content": "old_text", "new_content": "new_text"}
        ),
        "archival_memory_search": MappingProxyType(
            {"top_k": "k", "start_datetime": "start_date", "end_datetime": "end_date"}
        ),
        "conversation_search": MappingProxyType({"limit": "k"}),
    }
)


class ArgumentError(Exception):
    """An argument that breaks a rule: becomes the model-facing error line."""


def shown(value: Any, label: str | None = None) -> str:
    """``value`` as JSON, cut to a length an error line can carry; withheld (``errors.shown``) when it holds a
    credential, alone, as JSON or read under ``label``, the argument it was given for."""
    text = json.dumps(value, ensure_ascii=False)
    if errors.shown(value, label) == errors.WITHHELD or errors.shown(text, label) == errors.WITHHELD:
        return errors.WITHHELD
    return text if len(text) <= _GIVEN else text[: _GIVEN - 3] + "..."


def bad(arg: str, rule: str, value: Any) -> ArgumentError:
    """The error for argument ``arg`` breaking ``rule`` with ``value``."""
    return ArgumentError(f"argument '{arg}' {rule}; given {shown(value, arg)}")


_TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "string": ("a string", lambda v: isinstance(v, str)),
    "integer": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "array": ("an array", lambda v: isinstance(v, list)),
}


def _check_value(arg: str, schema: dict[str, Any], value: Any) -> Any:
    """``value`` checked against its schema; integral floats (5.0) become ints, as JSON does not tell them apart."""
    kind = schema["type"]
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    article, ok = _TYPES[kind]
    if not ok(value):
        raise bad(arg, f"must be {article}", value)
    if "enum" in schema and value not in schema["enum"]:
        raise bad(arg, f"must be one of {', '.join(map(str, schema['enum']))}", value)
    if kind == "string":
        if len(value) < schema.get("minLength", 0):
            raise bad(arg, "must not be empty", value)
        if len(value) > schema.get("maxLength", len(value)):
            raise bad(arg, f"must be at most {schema['maxLength']} characters", f"{len(value)} characters")
        if "pattern" in schema and not re.search(schema["pattern"], value):
            raise bad(arg, f"must match {schema['pattern']}", value)
    if kind == "integer" and not schema.get("minimum", value) <= value <= schema.get("maximum", value):
        raise bad(arg, f"must be from {schema['minimum']} to {schema['maximum']}", value)
    if kind == "array":
        if len(value) < schema.get("minItems", 0):
            raise bad(arg, f"must hold at least {schema['minItems']} item(s)", value)
        if len(value) > schema.get("maxItems", len(value)):
            raise bad(arg, f"must hold at most {schema['maxItems']} items", value)
        value = [_check_value(f"{arg}[{i}]", schema["items"], item) for i, item in enumerate(value)]
        if schema.get("uniqueItems") and len(set(value)) != len(value):
            raise bad(arg, "must not repeat an item", value)
    return value


def _own_names(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """``args`` with Letta's names replaced by this tool's; a name and its Letta name must not disagree."""
    letta = LETTA_NAMES.get(tool, {})
    out = {k: v for k, v in args.items() if k not in letta}
    for theirs, ours in letta.items():
        if theirs not in args or args[theirs] is None:
            continue
        if out.get(ours) is not None and out[ours] != args[theirs]:
            raise ArgumentError(
                f"arguments '{ours}' and '{theirs}' (Letta's name for '{ours}') were both given, with different "
                f"values ({shown(out[ours], ours)} and {shown(args[theirs], theirs)}); give one of them"
            )
        out[ours] = args[theirs]
    return out


def check_arguments(schema: dict[str, Any], raw: str) -> dict[str, Any]:
    """The parsed, validated arguments of tool ``schema`` (optional ones given as null dropped)."""
    try:
        args = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as exc:  # RecursionError: nesting deeper than the parser's stack
        broken: str | None = str(exc)
    else:
        broken = None
    if broken is not None:
        # Outside the handler: the parser's error keeps the whole text, and must not ride along as the context.
        raise ArgumentError(f"arguments are not valid JSON ({broken}); given {shown(raw)}")
    if not isinstance(args, dict):
        raise ArgumentError(f"arguments must be a JSON object; given {shown(args)}")
    params = schema["parameters"]
    properties: dict[str, Any] = params["properties"]
    letta = LETTA_NAMES.get(schema["name"], {})
    unknown = sorted(set(args) - set(properties) - set(letta))
    if unknown:
        also = f" (or Letta's {', '.join(letta)})" if letta else ""
        name = shown_name(unknown[0])
        raise ArgumentError(f"unknown argument '{name}'; this tool takes: {', '.join(properties)}{also}")
    args = _own_names(schema["name"], args)
    args = {k: v for k, v in args.items() if v is not None or k in params["required"]}
    for name in params["required"]:
        if args.get(name) is None:
            raise ArgumentError(f"argument '{name}' is required ({properties[name]['type']}) but was not given")
    return {name: _check_value(name, properties[name], value) for name, value in args.items()}


def given_texts(schema: dict[str, Any], raw: object) -> list[tuple[str, str]]:
    """(field, text) of every value in tool ``schema``'s raw arguments, for the credential check of a call that
    broke a rule: the tool's arguments (Letta's names too) by name, item by item; any other as ``key: value``."""
    if not isinstance(raw, str):
        return []
    try:
        args = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        return [("arguments", raw)]
    if not isinstance(args, dict):
        return [("arguments", raw)]
    names = set(schema["parameters"]["properties"]) | set(LETTA_NAMES.get(schema["name"], {}))
    out: list[tuple[str, str]] = []
    for key, value in args.items():
        if key not in names:
            out.append(("arguments", f"{key}: {_as_text(value)}"))
        elif isinstance(value, list):
            out += [(f"{key}[{i}]", _as_text(item)) for i, item in enumerate(value)]
        else:
            out.append((key, _as_text(value)))
    return out


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
