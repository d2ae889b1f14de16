"""(internal) What every backend's full text shares: the tokenizer both index alike, column weights, budgets.

Recall must rank alike on every store, so every store makes its terms with one tokenizer: FTS5's ``porter
unicode61 remove_diacritics 2``, the one the SQLite store's index is declared with. A backend whose database has
no such tokenizer (PostgreSQL's parsers and stemmers split and stem otherwise) runs it here, in an in-memory FTS5
table of the ``sqlite3`` module (one per thread), and stores the terms it gives. The tokenizer reads
``text_index.index_text`` of each column, as the SQLite store's triggers do (CJK runs as character pairs,
accents folded in every script), so every store indexes the same words and queries (``text_index.query_words``)
match alike.

Positions: content tokens from 1, the context's after a gap of one, so a phrase never spans the two columns.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tiermem.text_index import index_text

__all__ = [
    "CONTEXT_WEIGHT",
    "COUNT_CAP",
    "POSTINGS_BUDGET",
    "TOKENIZE",
    "Token",
    "query_stems",
    "rarest_within_budget",
    "tokens_of",
]

TOKENIZE = "porter unicode61 remove_diacritics 2"  # the SQLite store's records_fts (its migrations); a test holds it
# bm25 weight of a record's search context against its content (1.0): a word around a record is weaker evidence
# than a word in it. Measured on LoCoMo with the previous turn as context: 0.25 and 0.5 alike, 1.0 worse.
CONTEXT_WEIGHT = 0.5
POSTINGS_BUDGET = 2_000  # matching rows a big scope's keyword query may rank (its common words are pruned past it)
COUNT_CAP = 1_000  # the relevance floor's term counts stop counting a word's records here

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a record: its term, its position and its column (content or the search context)."""

    term: str
    position: int
    in_content: bool


_LOCAL = threading.local()


def _conn() -> sqlite3.Connection:
    conn: sqlite3.Connection | None = getattr(_LOCAL, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        conn.execute(f"CREATE VIRTUAL TABLE docs USING fts5(content, context, tokenize='{TOKENIZE}')")
        conn.execute("CREATE VIRTUAL TABLE words USING fts5vocab(docs, 'instance')")
        _LOCAL.conn = conn
    return conn


def _words(rows: Sequence[tuple[Any, ...]], query: str) -> list[tuple[Any, ...]]:
    """The tokenizer's rows for ``rows`` (rowid, content, context), as ``query`` on its vocabulary selects them."""
    conn = _conn()
    conn.execute("BEGIN")
    try:
        conn.executemany("INSERT INTO docs (rowid, content, context) VALUES (?, ?, ?)", rows)
        found = conn.execute(query).fetchall()
        conn.execute("DELETE FROM docs")
    finally:
        conn.execute("COMMIT")
    return found


def tokens_of(texts: Sequence[tuple[str, str | None]]) -> list[tuple[list[Token], int]]:
    """Each (content, context) pair's tokens in order, and its length in tokens (BM25's document length)."""
    if not texts:
        return []
    rows = _words(
        [(i, index_text(content), index_text(context or "")) for i, (content, context) in enumerate(texts, 1)],
        "SELECT doc, col, term, offset FROM words",
    )
    content_len = [0] * (len(texts) + 1)
    context_len = [0] * (len(texts) + 1)
    for doc, col, _, offset in rows:
        lengths = content_len if col == "content" else context_len
        lengths[doc] = max(lengths[doc], offset + 1)
    out: list[list[Token]] = [[] for _ in range(len(texts) + 1)]
    for doc, col, term, offset in rows:
        in_content = col == "content"
        position = offset + 1 if in_content else content_len[doc] + 2 + offset
        out[doc].append(Token(str(term), position, in_content))
    return [(out[doc], content_len[doc] + context_len[doc]) for doc in range(1, len(texts) + 1)]


def query_stems(terms: Sequence[str]) -> list[tuple[str, ...]]:
    """Each query term as its stems in order (several: a phrase; none: nothing searchable)."""
    if not terms:
        return []
    rows = _words(
        [(i, t, "") for i, t in enumerate(terms, start=1)], "SELECT doc, offset, term FROM words WHERE col = 'content'"
    )
    stems: list[dict[int, str]] = [{} for _ in terms]
    for doc, offset, term in rows:
        stems[doc - 1][offset] = str(term)
    return [tuple(s[k] for k in sorted(s)) for s in stems]


def rarest_within_budget(ranked: Iterable[tuple[int, _T]], budget: int) -> list[_T]:
    """Of (postings, item) pairs rarest first, the items whose postings fit ``budget`` (at least the first)."""
    kept: list[_T] = []
    total = 0
    for postings, item in ranked:
        if kept and total + postings > budget:
            break
        kept.append(item)
        total += postings
    return kept
