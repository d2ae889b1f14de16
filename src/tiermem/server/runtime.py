"""(internal) What one server process holds: one Memory (the model loaded at start and kept warm), its store's
access tables, the metrics, the rate limiter and the JWT verifier."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field

from tiermem.embed import get_embedder
from tiermem.errors import ConfigError, MemError, StoreError
from tiermem.lifecycle.retention import RetentionPolicy
from tiermem.llm import ChatClient
from tiermem.memory import Memory
from tiermem.server.auth import CredentialCache, JWTVerifier
from tiermem.server.chat import ChatService
from tiermem.server.identity import FAILED_BURST, FAILED_PER_SECOND, AuthPath
from tiermem.server.keys import open_access
from tiermem.server.limits import RateLimiter
from tiermem.server.metrics import Metrics, TimedEmbedder
from tiermem.server.pool import HotPool
from tiermem.server.settings import ServerSettings
from tiermem.store import display_url
from tiermem.store.access_base import AccessStore
from tiermem.store.base import Store
from tiermem.tokens import TokenCounter, counter_for_model
from tiermem.write.judge import HarmJudge
from tiermem.write.path import WritePolicy
from tiermem.write.scan import ScanPolicy

__all__ = ["Runtime", "open_runtime"]

_log = logging.getLogger("tiermem.server")


@dataclass(slots=True)
class Runtime:
    """The process-wide state every request shares."""

    settings: ServerSettings
    memory: Memory
    access: AccessStore
    metrics: Metrics
    limiter: RateLimiter
    jwt: JWTVerifier | None
    counter: TokenCounter
    credentials: CredentialCache
    chat: ChatService
    auth: AuthPath
    model_ready: bool = False
    hot_pool: HotPool = field(default_factory=HotPool)  # the hot routes' trips (server.fast)

    def store_bytes(self) -> int | None:
        """Bytes the store takes: a SQLite file with its log, a PostgreSQL schema's tables; None if unknown."""
        try:
            return self.memory.store.stored_bytes()
        except MemError:  # the server is unreachable: /readyz says so; /metrics leaves the gauge out
            return None

    def store_ok(self) -> bool:
        """The store answers a query."""
        return self.store_problem() is None

    def store_problem(self) -> str | None:
        """Why the store does not answer a query (naming no database: a client may read it), or None."""
        try:
            self.memory.store.count(None)
        except StoreError as exc:
            return exc.public or "the store does not answer"
        except MemError:
            return "the store does not answer"
        return None

    def close(self) -> None:
        """Stop the hot routes' threads, then release the store."""
        self.hot_pool.close()
        self.memory.close()


def _check_row_security(store: Store, settings: ServerSettings) -> None:
    """Refuse (or, when allowed, warn loudly) to serve as a database role that row-level security does not bind."""
    reason = store.rls_bypass
    if reason is None:
        return
    where = display_url(settings.db_url)
    message = (
        f"the service connects to {where} as a role that {reason}: row-level security does not keep tenants apart"
        ' for it. Connect as the runtime role (docs/postgres.md, "Two roles")'
    )
    if not settings.allow_rls_bypass:
        raise ConfigError(message + ", or pass --allow-rls-bypass to serve anyway")
    _log.warning("WARNING: %s; serving anyway (--allow-rls-bypass)", message)


def _write_policy(settings: ServerSettings, client: ChatClient | None) -> WritePolicy:
    """The default write policy, with the chat model as the harm judge when ``--harm-judge`` asks for it."""
    if not settings.harm_judge or client is None:
        return WritePolicy()
    return WritePolicy(scan=ScanPolicy(judge=HarmJudge(client)))


def open_runtime(settings: ServerSettings, metrics: Metrics | None = None) -> Runtime:
    """Open the store, load the model and run it once, so the first request pays for neither."""
    metrics = metrics or Metrics()
    embedder = TimedEmbedder(get_embedder(settings.embedder), metrics)
    store, access = open_access(settings.db_url, pool=settings.pool, synchronous=settings.synchronous)
    try:
        _check_row_security(store, settings)
        retention = RetentionPolicy.from_env(os.environ)
        client = settings.chat_client()  # one client: the chat route's model and, with --harm-judge, the judge
        memory = Memory(
            store,
            embedder,
            retention=retention,
            write_behind=settings.write_behind,
            write_policy=_write_policy(settings, client),
        )
        jwt = JWTVerifier(settings.jwt) if settings.jwt is not None else None
        counter = counter_for_model(settings.token_model)
        chat = ChatService(memory, client, counter)
        limiter = RateLimiter(settings.rate.per_second, settings.rate.burst)
        credentials = CredentialCache(settings.credential_cache_seconds)
        failures = RateLimiter(FAILED_PER_SECOND, FAILED_BURST)
        auth = AuthPath(access, jwt, credentials, limiter, failures)
        runtime = Runtime(settings, memory, access, metrics, limiter, jwt, counter, credentials, chat, auth)
        embedder.embed_batch(["warm up the model"])
        runtime.model_ready = True
        return runtime
    except BaseException:
        store.close()
        raise
