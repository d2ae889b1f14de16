"""(internal) LangGraph's search filters on item values: equality, nested objects, dotted paths and six operators.

No LangGraph import here: a filter is plain data. A key names a field of the value; a dotted key (``"user.age"``)
walks nested objects as LangGraph's SQL stores read it, unless the value holds that dotted name as a key of its
own; a missing field is null, as in LangGraph's in-memory store. Equality is JSON's: ``true`` is not ``1``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from tiermem.errors import ValidationError

__all__ = ["OPERATORS", "matches_filter"]

OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
_ORDER = {"$gt": float.__gt__, "$gte": float.__ge__, "$lt": float.__lt__, "$lte": float.__le__}


def _field(value: Mapping[str, Any], key: str) -> Any:
    """The value at ``key``: the key itself when the value holds it, else the dotted path through nested objects."""
    if key in value or "." not in key:
        return value.get(key)
    found: Any = value
    for part in key.split("."):
        if not isinstance(found, Mapping):
            return None
        found = found.get(part)
    return found


def _equal(actual: Any, wanted: Any) -> bool:
    if isinstance(actual, bool) or isinstance(wanted, bool):
        return isinstance(actual, bool) and isinstance(wanted, bool) and actual is wanted
    return bool(actual == wanted)


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            return all(_operator(actual, op, operand) for op, operand in wanted.items())
        return isinstance(actual, Mapping) and all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return _equal(actual, wanted)


def _number(value: Any) -> float | None:
    """``value`` as a float as LangGraph's stores compare it (numbers and numeric strings); None otherwise."""
    try:
        return float(value)
    except OverflowError:  # an int beyond any float: its sign is all a comparison with a float needs
        return math.inf if value > 0 else -math.inf
    except (TypeError, ValueError):
        return None


def _operator(actual: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return _equal(actual, operand)
    if op == "$ne":
        return not _equal(actual, operand)
    if op not in _ORDER:
        raise ValidationError("filter", f"operators are {', '.join(OPERATORS)}", given=op)
    left, right = _number(actual), _number(operand)
    if left is None or right is None:
        return False  # a missing or non-numeric field is neither greater nor smaller than anything
    return bool(_ORDER[op](left, right))


def matches_filter(value: Mapping[str, Any], filter_: Mapping[str, Any] | None) -> bool:
    """Every condition of a LangGraph search filter holds for ``value``."""
    return not filter_ or all(_compare(_field(value, str(k)), v) for k, v in filter_.items())
