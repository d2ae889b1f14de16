"""Settings read from the environment: where data lives by default, which embedders can be named."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from tiermem.errors import ConfigError

__all__ = [
    "DB_ENV",
    "EMBEDDERS",
    "EMBED_URL_ENV",
    "MODEL_SESSIONS_ENV",
    "check_embedder_name",
    "default_db_path",
    "default_db_url",
    "model_sessions",
]

DB_ENV = "TIERMEM_DB"
EMBEDDERS = ("minilm", "hash", "openai:<model>", "e5")
EMBED_URL_ENV = "TIERMEM_EMBED_URL"  # the base URL of the OpenAI-compatible server an `openai:<model>` runs on
# How many single-thread MiniLM sessions share a batch's model runs (each holds its own copy of the model in
# memory): unset for the embedder's default, 1 to keep only the main session.
MODEL_SESSIONS_ENV = "TIERMEM_MODEL_SESSIONS"
MAX_MODEL_SESSIONS = 64


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


def model_sessions(environ: Mapping[str, str]) -> int | None:
    """``$TIERMEM_MODEL_SESSIONS`` as a count (None when unset); a ConfigError naming it when it is not 1-64."""
    given = environ.get(MODEL_SESSIONS_ENV, "").strip()
    if not given:
        return None
    if not given.isdigit() or not 1 <= int(given) <= MAX_MODEL_SESSIONS:
        raise ConfigError(
            f"${MODEL_SESSIONS_ENV} must be a whole number from 1 to {MAX_MODEL_SESSIONS}, given {given!r}"
        )
    return int(given)
