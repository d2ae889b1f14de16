"""Settings read from the environment: where data lives by default."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DB_ENV", "default_db_path", "default_db_url"]

DB_ENV = "TIERMEM_DB"


def default_db_path() -> Path:
    """``$TIERMEM_DB`` if set, else ``memory.db`` in the user's data directory."""
    if os.environ.get(DB_ENV):
        return Path(os.environ[DB_ENV]).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("tiermem", appauthor=False)) / "memory.db"


def default_db_url() -> str:
    """The default store URL."""
    return f"sqlite:///{default_db_path()}"
