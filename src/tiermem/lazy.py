"""(internal) A package's public names imported from their home modules on first use, not when it is imported."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: each name of ``homes`` read from the module it maps to."""

    def attribute(name: str) -> Any:
        if name in homes:
            return getattr(importlib.import_module(homes[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return attribute
