"""(internal) The checks of a new memory's ttl and metadata, and their limits."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import timedelta
from types import MappingProxyType

from tiermem.errors import ValidationError
from tiermem.types import MetaValue

__all__ = ["MAX_METADATA_BYTES", "MAX_TTL", "checked_metadata", "checked_ttl"]

MAX_METADATA_BYTES = 8_192
MAX_TTL = timedelta(days=365 * 100)


def checked_ttl(value: timedelta | float | None) -> timedelta | None:
    """A write's time to live as a timedelta (None: none), or a ValidationError naming ``ttl``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, timedelta | int | float):
        raise ValidationError("ttl", "must be seconds or a timedelta", given=value)
    # Checked as a number first: timedelta() itself fails on NaN, infinity and ~1e14 seconds or more.
    try:
        seconds = value.total_seconds() if isinstance(value, timedelta) else float(value)
    except OverflowError:  # an int beyond any float
        raise ValidationError("ttl", "is too long", given=value, limit=f"{MAX_TTL.days} days") from None
    if not math.isfinite(seconds):
        raise ValidationError("ttl", "must be a finite number of seconds", given=seconds)
    if seconds <= 0:
        raise ValidationError("ttl", "must be > 0 seconds", given=seconds)
    if seconds > MAX_TTL.total_seconds():
        raise ValidationError("ttl", "is too long", given=f"{seconds:.4g} s", limit=f"{MAX_TTL.days} days")
    return value if isinstance(value, timedelta) else timedelta(seconds=seconds)


def checked_metadata(value: Mapping[str, MetaValue]) -> Mapping[str, MetaValue]:
    """A write's metadata, read-only, or a ValidationError naming ``metadata``."""
    if not isinstance(value, Mapping):
        raise ValidationError("metadata", "must be a mapping of names to scalars", given=value)
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > 64:
            raise ValidationError("metadata", "keys are non-empty strings of at most 64 characters", given=key)
        if item is not None and not isinstance(item, str | int | float | bool):
            raise ValidationError("metadata", f"value of '{key}' must be a string, number, boolean or null", given=item)
    size = len(json.dumps(dict(value)).encode())
    if size > MAX_METADATA_BYTES:
        raise ValidationError("metadata", "is too large", given=f"{size} bytes", limit=f"{MAX_METADATA_BYTES} bytes")
    return MappingProxyType(dict(value))
