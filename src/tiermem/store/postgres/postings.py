"""(internal) Keeping the full-text tables in step with ``records``, by the write path's own statements.

What a record puts in them: its postings (``fts_postings``, a row per term with its positions), its share of its
scope's documents and tokens (``scope_stats``, BM25's N and average length) and, per term, one document
(``fts_terms``, the document frequencies). Triggers on ``records`` used to do this (migrations 0001, 0005); a
distributed PostgreSQL (Citus) does not run triggers on distributed tables, so the writes do it themselves, in
their transaction, right after the rows change (migration 0010 dropped the triggers). The statements go in one
pipeline: one round trip whatever their number. Every statement names its tenant, as every statement on a tenant
table does (``tests/tenant_filter.py`` checks the contract suite's).

A record that is rewritten with the same content and context (a supersession closing its validity, a new
version of its metadata) keeps its terms: nothing here moves for it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

__all__ = ["INDEXED_COLUMNS", "Indexed", "indexed_row", "reindex", "text_digest"]

# What the write path reads of a stored record to know what it holds in the full-text tables (see indexed_row).
INDEXED_COLUMNS = (
    "r.id, r.user_key, r.seq, r.fts_len, tsvector_to_array(r.fts), md5(r.content), md5(coalesce(r.context, ''))"
)


@dataclass(frozen=True, slots=True)
class Indexed:
    """What one record holds in the full-text tables: its user, its place (``seq``), length and distinct terms,
    and a digest of the text they were made from (content and context)."""

    user_key: str
    seq: int
    length: int
    terms: tuple[str, ...]
    digest: str


def text_digest(content: str, context: str | None) -> str:
    """The digest ``indexed_row`` reads back for a record of this content and context (what its terms come from)."""
    one = hashlib.md5(content.encode(), usedforsecurity=False).hexdigest()
    two = hashlib.md5((context or "").encode(), usedforsecurity=False).hexdigest()
    return one + two


def indexed_row(row: Sequence[Any]) -> tuple[str, Indexed]:
    """(id, what it holds) of a row selected as ``INDEXED_COLUMNS``."""
    rid, user_key, seq, length, terms, content_md5, context_md5 = row
    return str(rid), Indexed(str(user_key), int(seq), int(length), tuple(terms or ()), content_md5 + context_md5)


def reindex(
    conn: psycopg.Connection[Any],
    tenant: str,
    removed: Sequence[Indexed],
    added_ids: Sequence[str],
    added: Sequence[tuple[str, int, tuple[str, ...]]],
    *,
    count_terms: bool = True,
) -> None:
    """Take ``removed`` (records as they were, now rewritten or deleted) out of the full-text tables and put the
    records ``added_ids`` (as stored now: ``added`` gives each one's user, length and terms) in.

    ``count_terms`` False leaves ``fts_terms`` to a recount (a bulk load's, at its end)."""
    if not removed and not added_ids:
        return
    with conn.pipeline():
        if removed:
            gone = [(r.user_key, term, r.seq) for r in removed for term in r.terms]
            conn.execute(
                "DELETE FROM fts_postings p USING unnest(%s::text[], %s::text[], %s::bigint[]) o(u, w, s)"
                " WHERE p.tenant = %s AND p.user_key = o.u AND p.term = o.w AND p.seq = o.s",
                [[g[0] for g in gone], [g[1] for g in gone], [g[2] for g in gone], tenant],
            )
        if added_ids:
            conn.execute(
                "INSERT INTO fts_postings (tenant, user_key, term, seq, at)"
                " SELECT r.tenant, r.user_key, u.lexeme, r.seq, tiermem_signed_positions(u.positions, u.weights)"
                " FROM records r, unnest(r.fts) u WHERE r.tenant = %s AND r.id = ANY(%s)",
                [tenant, list(added_ids)],
            )
        docs: Counter[str] = Counter()
        tokens: Counter[str] = Counter()
        for r in removed:
            docs[r.user_key] -= 1
            tokens[r.user_key] -= r.length
        for user_key, length, _ in added:
            docs[user_key] += 1
            tokens[user_key] += length
        users = sorted(u for u in docs if docs[u] or tokens[u])
        if users:
            conn.execute(
                "INSERT INTO scope_stats AS s (tenant, user_key, docs, tokens)"
                " SELECT %s, x.u, x.d, x.t FROM unnest(%s::text[], %s::bigint[], %s::bigint[]) x(u, d, t) ORDER BY x.u"
                " ON CONFLICT (tenant, user_key) DO UPDATE SET docs = s.docs + excluded.docs,"
                " tokens = s.tokens + excluded.tokens",
                [tenant, users, [docs[u] for u in users], [tokens[u] for u in users]],
            )
        if count_terms:
            _count_terms(conn, tenant, removed, added)


def _count_terms(
    conn: psycopg.Connection[Any],
    tenant: str,
    removed: Sequence[Indexed],
    added: Sequence[tuple[str, int, tuple[str, ...]]],
) -> None:
    """Per-term document counts: one upsert of the net changes (in key order, so two writers of one scope take
    the rows' locks in the same order), then the terms no document holds any more go: a word is personal data."""
    delta: Counter[tuple[str, str]] = Counter()
    for r in removed:
        delta.update((r.user_key, term) for term in r.terms)
    delta = Counter({k: -n for k, n in delta.items()})
    for user_key, _, terms in added:
        delta.update((user_key, term) for term in terms)
    moved = sorted(k for k, n in delta.items() if n)
    if moved:
        conn.execute(
            "INSERT INTO fts_terms AS t (tenant, user_key, term, df)"
            " SELECT %s, x.u, x.w, x.d FROM unnest(%s::text[], %s::text[], %s::bigint[]) x(u, w, d) ORDER BY x.u, x.w"
            " ON CONFLICT (tenant, user_key, term) DO UPDATE SET df = t.df + excluded.df",
            [tenant, [k[0] for k in moved], [k[1] for k in moved], [delta[k] for k in moved]],
        )
    fewer = [k for k in moved if delta[k] < 0]
    if fewer:
        conn.execute(
            "DELETE FROM fts_terms t USING unnest(%s::text[], %s::text[]) o(u, w)"
            " WHERE t.tenant = %s AND t.user_key = o.u AND t.term = o.w AND t.df <= 0",
            [[k[0] for k in fewer], [k[1] for k in fewer], tenant],
        )
