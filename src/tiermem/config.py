"""Settings read from the environment: where data lives by default, which embedders can be named and where to."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from tiermem.errors import ConfigError, shown

__all__ = [
    "DB_ENV",
    "EMBEDDERS",
    "EMBED_ALLOW_HTTP_ENV",
    "EMBED_KEY_ENV",
    "EMBED_URL_ENV",
    "MODEL_SESSIONS_ENV",
    "check_embedder_name",
    "default_db_path",
    "default_db_url",
    "embed_endpoint",
    "is_loopback_url",
    "model_sessions",
]

DB_ENV = "TIERMEM_DB"
EMBEDDERS = ("minilm", "hash", "openai:<model>", "e5")
EMBED_URL_ENV = "TIERMEM_EMBED_URL"  # the base URL of the OpenAI-compatible server an `openai:<model>` runs on
EMBED_KEY_ENV = "TIERMEM_EMBED_API_KEY"  # its key; the chat model's OPENAI_API_KEY only for api.openai.com itself
# Set to 1 to let an `openai:<model>` embedder send notes and its key over plain http to another machine.
EMBED_ALLOW_HTTP_ENV = "TIERMEM_EMBED_ALLOW_HTTP"
# How many single-thread MiniLM sessions share a batch's model runs (each holds its own copy of the model in
# memory): unset for the embedder's default, 1 to keep only the main session.
MODEL_SESSIONS_ENV = "TIERMEM_MODEL_SESSIONS"
MAX_MODEL_SESSIONS = 64
OPENAI_HOST = "api.openai.com"


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
    raise ConfigError(f"unknown embedder {shown(name)!r}; choose one of {', '.join(EMBEDDERS)}")


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


_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


def is_loopback_url(url: str) -> bool:
    """The URL names this machine (localhost, 127.0.0.0/8, ::1): what is sent there does not leave it."""
    host = (urlsplit(url).hostname or "").casefold()
    if host in _LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def embed_endpoint(url: str, api_key: str | None, environ: Mapping[str, str]) -> str | None:
    """The key to send to the embeddings server at ``url``, after refusing a URL the notes must not go to.

    ``api_key`` if given, else ``$TIERMEM_EMBED_API_KEY``, else ``$OPENAI_API_KEY`` only when ``url`` is OpenAI's
    own https endpoint: that key belongs to the chat model and must not reach another host. Plain http to another
    machine is a ConfigError unless ``$TIERMEM_EMBED_ALLOW_HTTP`` is 1: notes and the key would cross the network
    in clear.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"${EMBED_URL_ENV} must be an http:// or https:// URL with a host, given {url!r}")
    host = parts.hostname
    if parts.scheme == "http" and not is_loopback_url(url):
        allowed = environ.get(EMBED_ALLOW_HTTP_ENV, "").strip()
        if allowed != "1":
            raise ConfigError(
                f"${EMBED_URL_ENV} {url!r} is plain http to another machine ({host}): notes and the key would"
                f" cross the network in clear; use https, or set ${EMBED_ALLOW_HTTP_ENV}=1 to allow it"
                f" (given {allowed!r})"
            )
    if api_key is not None:
        return api_key
    if environ.get(EMBED_KEY_ENV):
        return environ[EMBED_KEY_ENV]
    if parts.scheme == "https" and host == OPENAI_HOST:
        return environ.get("OPENAI_API_KEY") or None
    return None
