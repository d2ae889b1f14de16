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
    """A record's terms as a ``tsvector`` literal, and its length in tokens (BM25's document length)."""

    tsvector: str
    length: int


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
        out.append(Tokens(body, content_len[doc] + context_len[doc]))
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
    either way, so only rows with a multi-byte character are rewritten. The statistics triggers keep
    ``scope_stats`` and ``fts_terms`` in step. Runs inside the migration's transaction, for every tenant.
    """
    conn.execute("SELECT set_config('tiermem.tenant', '*', true)")  # store-wide, as maintenance is
    rows = conn.execute(
        "SELECT tenant, id, content, context FROM records"
        " WHERE octet_length(content) <> char_length(content)"
        " OR octet_length(coalesce(context, '')) <> char_length(coalesce(context, ''))"
    ).fetchall()
    for start in range(0, len(rows), batch):
        chunk = rows[start : start + batch]
        tokens = tokenize_many([(content, context) for _, _, content, context in chunk])
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE records SET fts = %s::tsvector, fts_len = %s WHERE tenant = %s AND id = %s",
                [(t.tsvector, t.length, tenant, rid) for (tenant, rid, _, _), t in zip(chunk, tokens, strict=True)],
            )
    return len(rows)
