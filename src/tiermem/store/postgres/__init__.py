"""The scale-out store: PostgreSQL with pgvector, row-level security by tenant, BM25 from per-scope statistics."""

from tiermem.store.postgres.store import ALL_TENANTS, PostgresStore

__all__ = ["ALL_TENANTS", "PostgresStore"]
