"""(internal) The service's settings: one frozen value built from the command line and the environment."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TextIO

from tiermem.config import DB_ENV, check_embedder_name
from tiermem.errors import ConfigError
from tiermem.llm import OpenAIChatClient
from tiermem.recall.search import MAX_K, MAX_QUERY_CHARS
from tiermem.store.options import PoolOptions
from tiermem.write.path import MAX_CONTENT_CHARS

__all__ = ["JWTConfig", "Limits", "RateLimit", "ServerSettings"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Request limits; each may only be lowered below the library's own maximum."""

    max_body_bytes: int = 1 << 20  # 1 MiB: a batch of 64 notes of 16,000 characters
    max_k: int = MAX_K
    max_batch: int = 256
    max_text_chars: int = MAX_CONTENT_CHARS
    max_query_chars: int = MAX_QUERY_CHARS

    def __post_init__(self) -> None:
        for name, top in (
            ("max_k", MAX_K),
            ("max_text_chars", MAX_CONTENT_CHARS),
            ("max_query_chars", MAX_QUERY_CHARS),
        ):
            value = getattr(self, name)
            if not 1 <= value <= top:
                raise ConfigError(f"limits.{name} must be from 1 to {top}, not {value}")
        if self.max_body_bytes < 1024 or self.max_batch < 1:
            raise ConfigError("limits.max_body_bytes must be >= 1024 and limits.max_batch >= 1")


@dataclass(frozen=True, slots=True)
class RateLimit:
    """A token bucket per credential: ``per_second`` refill, ``burst`` capacity; 0 per second turns it off."""

    per_second: float = 50.0
    burst: int = 100

    def __post_init__(self) -> None:
        if self.per_second < 0 or self.burst < 1:
            raise ConfigError(f"rate limit needs per_second >= 0 and burst >= 1, not {self.per_second}/{self.burst}")


@dataclass(frozen=True, slots=True)
class JWTConfig:
    """Bearer JWTs from an identity provider: who issues them, for whom, where its keys are, which claims say what."""

    issuer: str
    audience: str
    jwks_file: str | None = None
    jwks_url: str | None = None
    tenant_claim: str = "tenant"
    user_claim: str = "sub"
    role_claim: str = "role"
    algorithms: tuple[str, ...] = ("RS256", "ES256")
    leeway_seconds: int = 30

    def __post_init__(self) -> None:
        if (self.jwks_file is None) == (self.jwks_url is None):
            raise ConfigError("JWT: give exactly one of a JWKS file and a JWKS URL")
        if not self.issuer or not self.audience:
            raise ConfigError("JWT: the issuer and the audience are required")
        if any(a.upper().startswith("HS") or a.lower() == "none" for a in self.algorithms):
            raise ConfigError(f"JWT: only public-key algorithms are accepted, not {', '.join(self.algorithms)}")


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Everything ``create_app`` needs; ``from_env`` fills what the command line left out."""

    db_url: str = field(repr=False)  # may hold a password: shown only through redact_url
    embedder: str = "minilm"
    host: str = "127.0.0.1"
    port: int = 8765
    limits: Limits = field(default_factory=Limits)
    rate: RateLimit = field(default_factory=RateLimit)
    jwt: JWTConfig | None = None
    log_stream: TextIO | None = None  # one JSON line per request; None: standard error
    synchronous: str = "FULL"  # SQLite: each acknowledged write is on disk before the reply
    write_behind: bool = False  # reply once stored and full-text indexed; a worker embeds (tiermem.write.behind)
    core_budget: int = 400  # K, the tokens all core blocks of an agent may cost together
    token_model: str = "gpt-4o"  # whose tokenizer counts core-block tokens
    credential_cache_seconds: float = 1.0  # a verified credential is trusted this long (a revoked key: this late)
    llm_url: str | None = None  # the chat route's OpenAI-compatible model; None: POST .../messages answers 503
    llm_model: str | None = None
    llm_api_key: str | None = field(default=None, repr=False)  # from the environment only; never printed
    pool: PoolOptions = field(default_factory=PoolOptions)  # a server store's connections and waits
    ready_timeout: float = 0.9  # seconds /readyz waits for the store before it answers 503
    allow_rls_bypass: bool = False  # serve even when row-level security does not bind the database role (warned)
    pii_mask: str = "remote"  # the chat model client's outbound gate: always, remote or never (tiermem.llm.PiiMask)
    harm_judge: bool = False  # the chat model also judges untrusted notes at the write gate (tiermem.write.judge)

    def __post_init__(self) -> None:
        check_embedder_name(self.embedder)
        if not self.db_url:
            raise ConfigError(f"no database: give --db or set ${DB_ENV}")
        if self.synchronous.upper() not in ("NORMAL", "FULL", "EXTRA"):
            raise ConfigError(f"synchronous must be NORMAL, FULL or EXTRA, not {self.synchronous!r}")
        if (self.llm_url is None) != (self.llm_model is None):
            raise ConfigError("the chat model needs both --llm-url and --llm-model (or neither)")
        if self.harm_judge and self.llm_url is None:
            raise ConfigError("--harm-judge asks the chat model: give --llm-url and --llm-model too")
        if self.pii_mask not in ("always", "remote", "never"):
            raise ConfigError(f"--pii-mask must be always, remote or never, not {self.pii_mask!r}")

    @property
    def log(self) -> TextIO:
        """Where request lines go."""
        return self.log_stream if self.log_stream is not None else sys.stderr

    def chat_client(self) -> OpenAIChatClient | None:
        """The configured chat model's client (its outbound gate set by ``pii_mask``), or None when there is none."""
        if self.llm_url is None or self.llm_model is None:
            return None
        return OpenAIChatClient(self.llm_url, self.llm_model, api_key=self.llm_api_key, pii_mask=self.pii_mask)

    @staticmethod
    def llm_key_from_env(environ: Mapping[str, str] | None = None) -> str | None:
        """The chat model's API key: $TIERMEM_LLM_API_KEY, else $OPENAI_API_KEY, else none (a local model)."""
        env = os.environ if environ is None else environ
        return env.get("TIERMEM_LLM_API_KEY") or env.get("OPENAI_API_KEY") or None

    @staticmethod
    def jwt_from_env(environ: Mapping[str, str] | None = None) -> JWTConfig | None:
        """A JWTConfig from ``TIERMEM_JWT_*`` variables, or None when ``TIERMEM_JWT_ISSUER`` is not set."""
        env = os.environ if environ is None else environ
        if not env.get("TIERMEM_JWT_ISSUER"):
            return None
        return JWTConfig(
            issuer=env["TIERMEM_JWT_ISSUER"],
            audience=env.get("TIERMEM_JWT_AUDIENCE", ""),
            jwks_file=env.get("TIERMEM_JWT_JWKS_FILE") or None,
            jwks_url=env.get("TIERMEM_JWT_JWKS_URL") or None,
            tenant_claim=env.get("TIERMEM_JWT_TENANT_CLAIM") or "tenant",
            user_claim=env.get("TIERMEM_JWT_USER_CLAIM") or "sub",
            role_claim=env.get("TIERMEM_JWT_ROLE_CLAIM") or "role",
        )
