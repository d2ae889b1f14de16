"""(internal) How the SQLite store writes to and asks its FTS5 index: the refill statement, and match queries
whose words are always quoted, never FTS5 syntax."""

from __future__ import annotations

from collections.abc import Sequence

from tiermem.text_index import INDEX_FUNCTION
from tiermem.types import Scope

__all__ = ["REFILL_FULL_TEXT", "fts_query", "quoted", "scope_token"]

# The index holds each record's ``text_index.index_text`` (CJK runs as pairs, accents folded), which the
# triggers compute (migration 0006); FTS5's own 'rebuild' would index the raw text, so this refills it instead.
REFILL_FULL_TEXT = (
    "INSERT INTO records_fts (rowid, content, context, scope_tok)"
    f" SELECT rowid, {INDEX_FUNCTION}(content), {INDEX_FUNCTION}(context), scope_tok FROM records"
)


def fts_query(scope: Scope, terms: Sequence[str], *, with_scope_token: bool) -> str:
    """Any of the terms, each quoted so user text is never FTS5 syntax; optionally AND the scope's token."""
    words = "{content context} : (" + " OR ".join(quoted(t) for t in terms) + ")"
    if not with_scope_token:
        return words
    return f"scope_tok : {scope_token(scope)} AND {words}"


def scope_token(scope: Scope) -> str:
    """The token the index's scope column holds for the (tenant, user)."""
    return "s" + (f"{scope.tenant}/{scope.user or ''}").encode().hex().upper()


def quoted(term: str) -> str:
    """``term`` as an FTS5 string: user text is never query syntax."""
    return '"' + term.replace('"', '""') + '"'
