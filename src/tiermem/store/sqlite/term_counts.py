"""(internal) How many of a scope's SQLite rows hold each word: the relevance floor's and the pruning's counts."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from tiermem.store.fulltext import COUNT_CAP
from tiermem.store.sqlite.fts_syntax import quoted, scope_token
from tiermem.store.sqlite.pin import SQLiteGenerationPin
from tiermem.types import Scope

__all__ = ["SQLiteTermCountsMixin"]


class SQLiteTermCountsMixin(SQLiteGenerationPin):
    """Document counts of words per scope, cached (a SQLiteFullTextMixin part)."""

    _depth: int  # write transactions open: their generation may yet be rolled back
    _doc_counts: dict[tuple[str, str, str], tuple[int, int]]
    _term_counts: dict[tuple[str, str], tuple[int, dict[str, int]]]

    if TYPE_CHECKING:

        def _snapshot(self) -> AbstractContextManager[None]: ...

    def term_document_counts(self, scope: Scope, terms: Sequence[str]) -> tuple[int, dict[str, int]]:
        """The (tenant, user)'s record count and how many of its records' content holds each term (at most
        ``COUNT_CAP``)."""
        key = (scope.tenant, scope.user or "")
        pin = self._pin(key)
        cached = self._term_counts.get(key)
        if pin is not None and cached is not None and cached[0] == pin.gen and all(t in cached[1] for t in terms):
            return pin.size, {t: cached[1][t] for t in terms}
        with self._snapshot():
            row = self._conn.execute(
                "SELECT n, gen FROM scope_generations WHERE tenant = ? AND user_key = ?", key
            ).fetchone()
            if row is None or not row[0]:
                return 0, dict.fromkeys(terms, 0)
            size, gen = row
            cached = self._term_counts.get(key)
            known = cached[1] if cached is not None and cached[0] == gen else {}
            # Capped: a word in a thousand records weighs little either way, and counting stops there.
            counts = {
                t: known[t] if t in known else self._count_in_scope(scope, t, columns="content", cap=COUNT_CAP)
                for t in terms
            }
            # Inside a write transaction the generation may yet be rolled back and reused: not worth keeping.
            if self._depth == 0:
                if len(self._term_counts) > 10_000 or len(known) > 10_000:  # bounded: many scopes, many words
                    self._term_counts.clear()
                    known = {}
                known.update(counts)
                self._term_counts[key] = (gen, known)
        return int(size), counts

    def _count_in_scope(self, scope: Scope, term: str, *, columns: str, cap: int | None) -> int:
        """How many of the (tenant, user)'s rows hold ``term`` (as the index holds it) in ``columns``, up to ``cap``.

        The scope token names exactly the (tenant, user): counting needs no look-up of the records. Shared by
        the relevance floor's term statistics and the pruning of common words in big scopes.
        """
        match = f"scope_tok : {scope_token(scope)} AND {{{columns}}} : {quoted(term)}"
        if cap is None:
            (count,) = self._conn.execute(
                "SELECT count(*) FROM records_fts WHERE records_fts MATCH ?", [match]
            ).fetchone()
        else:
            sql = "SELECT count(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ? LIMIT ?)"
            (count,) = self._conn.execute(sql, [match, cap]).fetchone()
        return int(count)

    def _document_counts(self, scope: Scope, words: list[str], size: int) -> dict[str, int]:
        """How many of the scope's rows hold each word; a count is reused until the scope changed by a tenth."""
        cache = self._doc_counts
        out: dict[str, int] = {}
        for word in words:
            known = cache.get((scope.tenant, scope.user or "", word))
            if known is not None and abs(size - known[1]) * 10 <= known[1]:
                out[word] = known[0]
                continue
            count = self._count_in_scope(scope, word, columns="content context", cap=None)
            if len(cache) > 100_000:  # bounded: a long-lived process sees many distinct words
                cache.clear()
            cache[(scope.tenant, scope.user or "", word)] = (int(count), size)
            out[word] = int(count)
        return out
