"""(internal) Full-text tokens for the PostgreSQL store: the one place that turns text into indexed terms.

PostgreSQL's own parsers and stemmers split and stem differently from the SQLite store's FTS5 tokenizer
(``porter unicode61 remove_diacritics 2``), and recall must rank alike on both stores. So the terms are made
here, by that very tokenizer (an in-memory FTS5 table of the ``sqlite3`` module, one per thread), and stored in
PostgreSQL as a ready ``tsvector``. A change of tokenizer (e.g. for CJK text) is a change of ``TOKENIZE`` and
the SQLite migration that matches it; stored vectors then need ``tiermem migrate`` (or a rewrite of the rows).

Positions: content tokens from 1, the context's after a gap of one, so a phrase never spans the two columns;
content tokens are weighted A and context tokens B (the BM25 code reads a token's column from its weight).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["MAX_POSITION", "TOKENIZE", "Tokens", "query_stems", "tokenize_many", "tsquery_text"]

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
            [(i, content, context or "") for i, (content, context) in enumerate(texts, start=1)],
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


def tsquery_text(phrases: Sequence[tuple[str, ...]]) -> str:
    """A ``tsquery`` literal matching any of the phrases (a phrase of one stem is a word)."""
    return " | ".join("(" + " <-> ".join(_quote(s) for s in p) + ")" for p in phrases if p)
