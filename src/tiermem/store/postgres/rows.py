"""(internal) How record and vector rows reach their tables: a multi-row INSERT for a few, COPY for many.

A multi-row INSERT of 1,000 records carries 24,000 parameters, and psycopg splits that query text on the client
for every call (~0.2 s a batch, a third of the write on this machine). From ``STAGE_FROM`` rows the store instead
streams them with COPY into a temporary table (vectors in binary: 1.5 kB a 384-d vector, not 4 kB of text) and moves
them with one ``INSERT ... SELECT``. COPY cannot write the tables themselves: PostgreSQL refuses ``COPY FROM`` into a
table with row-level security, so the policy checks every row on the way in from the staging table, as on an
INSERT. The staging tables live for one transaction (``ON COMMIT DROP``: nothing outlives the write, and a
connection pooler in transaction mode sees no session state).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

__all__ = ["RECORD_FIELDS", "STAGE_FROM", "VECTOR_FIELDS", "write_records", "write_vectors"]

STAGE_FROM = 200  # rows from which COPY through a staging table beats a multi-row INSERT
_BATCH = 1000  # rows per multi-row INSERT (24 parameters each: under PostgreSQL's 65,535)
RECORD_FIELDS = (
    "tenant", "id", "user_key", "agent", "session", "type", "content", "source", "source_kind", "trust",
    "created_at", "updated_at", "valid_from", "valid_to", "expires_at", "content_hash", "embedding_model", "tags",
    "supersedes", "metadata", "version", "context", "fts", "fts_len",
)  # fmt: skip
_UPDATED = [f for f in RECORD_FIELDS if f not in ("tenant", "id", "user_key", "created_at")]
VECTOR_FIELDS = ("tenant", "record_id", "part", "user_key", "model", "dim", "vec", "indexed")
_VECTOR_TYPES = ["text", "text", "int4", "text", "text", "int4", "vector", "bool"]


def write_records(conn: psycopg.Connection[Any], rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert or replace (by tenant and id) record rows in ``RECORD_FIELDS`` order; ``fts`` a tsvector literal."""
    fields = ", ".join(RECORD_FIELDS)
    upsert = "ON CONFLICT (tenant, id) DO UPDATE SET " + ", ".join(f"{c} = excluded.{c}" for c in _UPDATED)
    if len(rows) < STAGE_FROM:
        one = "(" + ", ".join(["%s"] * 22 + ["%s::tsvector", "%s"]) + ")"
        _insert_batches(conn, f"INSERT INTO records ({fields}) VALUES", one, upsert, rows)
        return
    # The staging table has the columns' types (fts as text: psycopg has no tsvector dumper for COPY).
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS tiermem_stage_records ON COMMIT DROP AS"
        f" SELECT {_select('fts::text AS fts')} FROM records WITH NO DATA"
    )
    with conn.cursor().copy(f"COPY tiermem_stage_records ({fields}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    conn.execute(
        f"INSERT INTO records ({fields}) SELECT {_select('fts::tsvector')} FROM tiermem_stage_records {upsert}"
    )
    conn.execute("TRUNCATE tiermem_stage_records")  # a second write in the same transaction starts empty


def _insert_batches(
    conn: psycopg.Connection[Any], insert: str, one: str, tail: str, rows: Sequence[tuple[Any, ...]]
) -> None:
    """``insert`` with ``_BATCH`` rows at a time, each row's values ``one``, then ``tail`` (an upsert or nothing)."""
    for start in range(0, len(rows), _BATCH):
        chunk = rows[start : start + _BATCH]
        conn.execute(f"{insert} {', '.join([one] * len(chunk))} {tail}", [v for row in chunk for v in row])


def _select(fts: str) -> str:
    return ", ".join(fts if f == "fts" else f for f in RECORD_FIELDS)


def write_vectors(conn: psycopg.Connection[Any], rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert vector rows in ``VECTOR_FIELDS`` order (the vector a float32 array)."""
    fields = ", ".join(VECTOR_FIELDS)
    if len(rows) < STAGE_FROM:
        _insert_batches(conn, f"INSERT INTO vectors ({fields}) VALUES", "(%s, %s, %s, %s, %s, %s, %s, %s)", "", rows)
        return
    conn.execute(
        f"CREATE TEMP TABLE IF NOT EXISTS tiermem_stage_vectors ON COMMIT DROP AS SELECT {fields} FROM vectors"
        " WITH NO DATA"
    )
    with conn.cursor().copy(f"COPY tiermem_stage_vectors ({fields}) FROM STDIN WITH (FORMAT BINARY)") as copy:
        copy.set_types(_VECTOR_TYPES)
        for row in rows:
            copy.write_row(row)
    conn.execute(f"INSERT INTO vectors ({fields}) SELECT {fields} FROM tiermem_stage_vectors")
    conn.execute("TRUNCATE tiermem_stage_vectors")
