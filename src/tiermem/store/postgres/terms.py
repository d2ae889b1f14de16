"""(internal) Full-text tokens for the PostgreSQL store: the one place that turns text into indexed terms.

PostgreSQL's own parsers and stemmers split and stem differently from the SQLite store's FTS5 tokenizer
(``porter unicode61 remove_diacritics 2``), and recall must rank alike on both stores. So the terms are made
here, by that very tokenizer (an in-memory FTS5 table of the ``sqlite3`` module, one per thread), and stored in
PostgreSQL as a ready ``tsvector``. The tokenizer reads ``text_index.index_text`` of each column, as SQLite's
triggers do (CJK runs as character pairs, accents folded in every script), so both stores index the same words
and queries (``text_index.query_words``) match alike. A change of that transformation needs a migration that
re-tokenizes the stored rows (``refill_index_text``, migration 0003), as SQLite's refills its index.

Positions: content tokens from 1, the context's after a gap of one, so a phrase never spans the two columns;
content tokens are weighted A and context tokens B (the BM25 code reads a token's column from its weight).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from tiermem.store.postgres.postings import INDEXED_COLUMNS, indexed_row, reindex
from tiermem.text_index import index_text

__all__ = [
    "MAX_POSITION",
    "TOKENIZE",
    "Tokens",
    "query_stems",
    "refill_index_text",
    "tokenize_many",
]

TOKENIZE = "porter unicode61 remove_diacritics 2"  # as records_fts in store/sqlite/migrations
MAX_POSITION = 16383  # PostgreSQL clamps tsvector positions here
MAX_POSITIONS_PER_TERM = 256  # ... and keeps at most this many positions per lexeme


@dataclass(frozen=True, slots=True)
class Tokens:
    """A record's terms as a ``tsvector`` literal, its length in tokens (BM25's document length), and its
    distinct terms (what its postings and the per-term document counts hold)."""

    tsvector: str
    length: int
    terms: tuple[str, ...] = ()


_LOCAL = threading.local()


def _conn() -> sqlite3.Connection:
    conn: sqlite3.Connection | None = getattr(_LOCAL, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.execute(f"CREATE VIRTUAL TABLE docs USING fts5(content, context, tokenize='{TOKENIZE}')")
        conn.execute("CREATE VIRTUAL TABLE words USING fts5vocab(docs, 'instance')")
        _LOCAL.conn = conn
    return conn


def _quote(term: str) -> str:
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'"


def tokenize_many(texts: Sequence[tuple[str, str | None]]) -> list[Tokens]:
    """The tokens of each (content, context) pair, in order."""
    if not texts:
        return []
    conn = _conn()
    conn.execute("BEGIN")
    try:
        conn.executemany(
            "INSERT INTO docs (rowid, content, context) VALUES (?, ?, ?)",
            [(i, index_text(content), index_text(context or "")) for i, (content, context) in enumerate(texts, 1)],
        )
        rows = conn.execute("SELECT doc, col, term, offset FROM words").fetchall()
        conn.execute("DELETE FROM docs")
    finally:
        conn.execute("COMMIT")
    content_len = [0] * (len(texts) + 1)
    context_len = [0] * (len(texts) + 1)
    for doc, col, _, offset in rows:
        lengths = content_len if col == "content" else context_len
        lengths[doc] = max(lengths[doc], offset + 1)
    terms: list[dict[str, list[str]]] = [{} for _ in range(len(texts) + 1)]
    for doc, col, term, offset in rows:
        if col == "content":
            pos, weight = offset + 1, "A"
        else:
            pos, weight = content_len[doc] + 2 + offset, "B"
        slot = terms[doc].setdefault(term, [])
        if len(slot) < MAX_POSITIONS_PER_TERM:
            slot.append(f"{min(pos, MAX_POSITION)}{weight}")
    out: list[Tokens] = []
    for doc in range(1, len(texts) + 1):
        body = " ".join(f"{_quote(t)}:{','.join(p)}" for t, p in sorted(terms[doc].items()))
        out.append(Tokens(body, content_len[doc] + context_len[doc], tuple(sorted(terms[doc]))))
    return out


def query_stems(terms: Sequence[str]) -> list[tuple[str, ...]]:
    """Each query term as its stems in order (several: a phrase; none: nothing searchable)."""
    if not terms:
        return []
    conn = _conn()
    conn.execute("BEGIN")
    try:
        conn.executemany(
            "INSERT INTO docs (rowid, content, context) VALUES (?, ?, '')",
            [(i, t) for i, t in enumerate(terms, start=1)],
        )
        rows = conn.execute("SELECT doc, offset, term FROM words WHERE col = 'content'").fetchall()
        conn.execute("DELETE FROM docs")
    finally:
        conn.execute("COMMIT")
    stems: list[dict[int, str]] = [{} for _ in terms]
    for doc, offset, term in rows:
        stems[doc - 1][offset] = term
    return [tuple(s[k] for k in sorted(s)) for s in stems]


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
