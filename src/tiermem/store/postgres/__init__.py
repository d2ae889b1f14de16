"""The scale-out store: PostgreSQL with pgvector, row-level security by tenant, BM25 from per-scope statistics."""

from tiermem.store.postgres.store import PostgresStore

__all__ = ["PostgresStore"]
