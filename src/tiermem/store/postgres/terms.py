"""(internal) Full-text tokens for the PostgreSQL store: a record's terms as the ``tsvector`` it stores.

PostgreSQL's own parsers and stemmers split and stem differently from the SQLite store's FTS5 tokenizer, and
recall must rank alike on both stores: the terms come from ``store.fulltext`` (the one tokenizer every store
indexes with) and are stored as a ready ``tsvector``. A change of that transformation needs a migration that
re-tokenizes the stored rows (``refill_index_text``, migration 0003), as SQLite's refills its index.

Content tokens are weighted A and context tokens B (the BM25 code reads a token's column from its weight).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from tiermem.store.fulltext import TOKENIZE, query_stems, tokens_of
from tiermem.store.postgres.postings import INDEXED_COLUMNS, indexed_row, reindex

# TOKENIZE and query_stems are store.fulltext's, kept importable here for the PostgreSQL modules that use them.
__all__ = ["MAX_POSITION", "TOKENIZE", "Tokens", "query_stems", "refill_index_text", "tokenize_many"]

MAX_POSITION = 16383  # PostgreSQL clamps tsvector positions here
MAX_POSITIONS_PER_TERM = 256  # ... and keeps at most this many positions per lexeme


@dataclass(frozen=True, slots=True)
class Tokens:
    """A record's terms as a ``tsvector`` literal, its length in tokens (BM25's document length), and its
    distinct terms (what its postings and the per-term document counts hold)."""

    tsvector: str
    length: int
    terms: tuple[str, ...] = ()


def _quote(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tokenize_many(texts: Sequence[tuple[str, str | None]]) -> list[Tokens]:
    """The tokens of each (content, context) pair, in order."""
    out: list[Tokens] = []
    for tokens, length in tokens_of(texts):
        terms: dict[str, list[str]] = {}
        for token in tokens:
            slot = terms.setdefault(token.term, [])
            if len(slot) < MAX_POSITIONS_PER_TERM:
                slot.append(f"{min(token.position, MAX_POSITION)}{'A' if token.in_content else 'B'}")
        body = " ".join(f"{_quote(t)}:{','.join(p)}" for t, p in sorted(terms.items()))
        out.append(Tokens(body, length, tuple(sorted(terms))))
    return out


def refill_index_text(conn: psycopg.Connection[Any], *, batch: int = 500) -> int:
    """Re-tokenize the stored rows whose text ``index_text`` changes (those holding non-ASCII); how many.

    Rows written before the index held ``index_text`` carry the raw text's terms; ASCII text comes out the same
    either way, so only rows with a multi-byte character are rewritten. Runs inside the migration's transaction,
    for every tenant (as the schema's owner). Where the statistics triggers of migration 0001 still stand (a store
    older than migration 0010) they keep ``scope_stats`` and ``fts_terms`` in step; else ``reindex`` does.
    """
    conn.execute("SELECT set_config('tiermem.tenant', '*', true)")  # store-wide, as the policies then allowed
    found = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'records'::regclass AND tgname = 'records_fts_update')"
    ).fetchone()
    triggers = bool(found and found[0])
    rows = conn.execute(
        f"SELECT r.tenant, r.content, r.context, {INDEXED_COLUMNS} FROM records r"
        " WHERE octet_length(r.content) <> char_length(r.content)"
        " OR octet_length(coalesce(r.context, '')) <> char_length(coalesce(r.context, ''))"
    ).fetchall()
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        tokens = tokenize_many([(content, context) for _, content, context, *_ in chunk])
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE records SET fts = %s::tsvector, fts_len = %s WHERE tenant = %s AND id = %s",
                [(t.tsvector, t.length, row[0], row[3]) for row, t in zip(chunk, tokens, strict=True)],
            )
        if triggers:
            continue
        for tenant in sorted({row[0] for row in chunk}):
            mine = [(indexed_row(row[3:]), t) for row, t in zip(chunk, tokens, strict=True) if row[0] == tenant]
            reindex(
                conn,
                tenant,
                [was for (_, was), _ in mine],
                [rid for (rid, _), _ in mine],
                [(was.user_key, t.length, t.terms) for (_, was), t in mine],
            )
    return len(rows)
