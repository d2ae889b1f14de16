"""Settings read from the environment: where data lives by default, which embedders can be named."""

from __future__ import annotations

import os
from pathlib import Path

from tiermem.errors import ConfigError

__all__ = ["DB_ENV", "EMBEDDERS", "EMBED_URL_ENV", "check_embedder_name", "default_db_path", "default_db_url"]

DB_ENV = "TIERMEM_DB"
EMBEDDERS = ("minilm", "hash", "openai:<model>", "e5")
EMBED_URL_ENV = "TIERMEM_EMBED_URL"  # the base URL of the OpenAI-compatible server an `openai:<model>` runs on


def default_db_path() -> Path:
    """``$TIERMEM_DB`` if set, else ``memory.db`` in the user's data directory."""
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("tiermem", appauthor=False)) / "memory.db"


def default_db_url() -> str:
    """The default store URL: ``$TIERMEM_DB`` as given if it is a URL, else ``sqlite:///`` and default_db_path."""
    given = os.environ.get(DB_ENV, "")
    if "://" in given:  # a URL kept whole: made a Path, sqlite:////srv/x.db would lose its slashes
        return given
    return f"sqlite:///{default_db_path()}"


def check_embedder_name(name: str) -> None:
    """A ConfigError unless ``name`` is one of EMBEDDERS (any model after ``openai:``)."""
    kind, sep, model = name.partition(":")
    if name in ("minilm", "e5", "multilingual", "hash") or (kind == "openai" and sep and model.strip()):
        return
    raise ConfigError(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}")
