"""No cross-tenant signal: keyword ranking uses the scope's own BM25 statistics, so another tenant's records
change nothing in a user's results; on a file with one scope the score is FTS5's bm25() to the bit."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from store_fixtures import ALICE, EMB, NOW, OTHER_TENANT_ALICE, item, make_record
from tiermem.memory import Memory
from tiermem.recall.search import query_terms
from tiermem.store.fulltext import CONTEXT_WEIGHT
from tiermem.store.sqlite import SQLiteStore
from tiermem.store.sqlite.bm25 import docsize_lengths, docsize_tokens, docsize_total
from tiermem.types import Filter, MemoryRecord, MemoryType, Scope

WORDS = (
    "garden tomato basil kitchen bicycle harbour lantern violin meadow pottery river market "
    "painting running runner ran hiking trail mountain coffee morning evening sister brother"
).split()
QUERIES = [
    "tomato basil garden",
    "running on the mountain trail",
    "coffee with my sister in the morning",
    "violin lessons at the harbour market",
    "pottery",
]
SAME_USER_OTHER_AGENT = Scope("acme", "alice", "helper")


def _texts(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 14))) for _ in range(n)]


def _records(scope: Scope, n: int, seed: int) -> list[MemoryRecord]:
    out = []
    for i, text in enumerate(_texts(n, seed)):
        record = make_record(scope, f"{text} note {i}")
        if i % 3 == 0:  # some have a search context, weighted CONTEXT_WEIGHT
            record = replace(record, context=_texts(1, seed * 100 + i)[0])
        if i % 5 == 0:
            record = replace(record, type=MemoryType.EPISODIC)
        out.append(record)
    return out


ALICE_RECORDS = _records(ALICE, 120, seed=1) + _records(SAME_USER_OTHER_AGENT, 20, seed=2)
# Another tenant: the same words in other proportions, 10x as many rows, and a long note (varint docsize).
INTRUDERS = [
    *_records(OTHER_TENANT_ALICE, 1200, seed=3),
    make_record(OTHER_TENANT_ALICE, " ".join(["tomato"] * 300 + ["pottery"] * 5)),
]


def _store(with_other_tenant: bool) -> SQLiteStore:
    store = SQLiteStore(":memory:")
    if with_other_tenant:  # before and after Alice's rows, so her rowids differ too
        store.put_many([item(r) for r in INTRUDERS[:600]])
    store.put_many([item(r) for r in ALICE_RECORDS])
    if with_other_tenant:
        store.put_many([item(r) for r in INTRUDERS[600:]])
    return store


@pytest.fixture
def alone() -> Iterator[SQLiteStore]:
    store = _store(with_other_tenant=False)
    yield store
    store.close()


@pytest.fixture
def shared() -> Iterator[SQLiteStore]:
    store = _store(with_other_tenant=True)
    yield store
    store.close()


FILTERS = [Filter(), Filter(types=frozenset({MemoryType.EPISODIC}))]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("filter_", FILTERS, ids=["any", "episodic"])
@pytest.mark.parametrize("scope", [ALICE, SAME_USER_OTHER_AGENT], ids=["user", "agent"])
def test_keyword_scores_are_identical_whether_or_not_another_tenant_exists(
    alone: SQLiteStore, shared: SQLiteStore, query: str, filter_: Filter, scope: Scope
) -> None:
    terms = query_terms(query)
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(terms)]
    for terms_ in (terms, pairs):
        mine = alone.keyword_candidates(scope, terms_, filter_, now=NOW, limit=50)
        theirs = shared.keyword_candidates(scope, terms_, filter_, now=NOW, limit=50)
        assert mine or terms_ is pairs, terms_
        assert [(c.id, c.score) for c in mine] == [(c.id, c.score) for c in theirs]


@pytest.mark.parametrize("query", QUERIES)
def test_full_recall_is_identical_whether_or_not_another_tenant_exists(
    alone: SQLiteStore, shared: SQLiteStore, query: str
) -> None:
    # The stores are closed by their fixtures; Memory.close would close them twice.
    one, two = Memory(alone, EMB), Memory(shared, EMB)
    first = one.recall(ALICE, query, k=10, now=NOW)
    second = two.recall(ALICE, query, k=10, now=NOW)
    assert first
    assert [(h.record.id, h.score, h.parts) for h in first] == [(h.record.id, h.score, h.parts) for h in second]


def test_pruning_in_a_big_scope_counts_only_that_scope(
    alone: SQLiteStore, shared: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tiermem.store.sqlite.fts as fts

    monkeypatch.setattr(fts, "PRUNE_FROM_RECORDS", 50)
    monkeypatch.setattr(fts, "POSTINGS_BUDGET", 40)
    terms = query_terms("tomato basil pottery violin")
    mine = alone.keyword_candidates(ALICE, terms, Filter(), now=NOW, limit=50)
    theirs = shared.keyword_candidates(ALICE, terms, Filter(), now=NOW, limit=50)
    assert mine and [(c.id, c.score) for c in mine] == [(c.id, c.score) for c in theirs]


@pytest.mark.parametrize("query", QUERIES)
def test_on_a_file_with_one_scope_the_score_is_fts5_bm25_to_the_bit(alone: SQLiteStore, query: str) -> None:
    store = SQLiteStore(":memory:")
    store.put_many([item(r) for r in ALICE_RECORDS[:120]] + [item(make_record(ALICE, "tomato " * 200 + "basil"))])
    for terms in (query_terms(query), ["tomato basil", "garden"]):
        match = "{content context} : (" + " OR ".join(f'"{t}"' for t in terms) + ")"
        expected = store.execute(
            f"SELECT r.id, -bm25(records_fts, 1.0, {CONTEXT_WEIGHT}, 0.0) AS s FROM records_fts"
            " JOIN records r ON r.rowid = records_fts.rowid WHERE records_fts MATCH ? ORDER BY -s, r.rowid LIMIT 40",
            [match],
        )
        found = store.keyword_candidates(ALICE, terms, Filter(), now=NOW, limit=40)
        assert [(c.id, c.score) for c in found] == [tuple(row) for row in expected]
    store.close()


def test_docsize_blobs_decode_one_and_two_byte_varints() -> None:
    assert docsize_tokens(bytes([3, 0, 1])) == 4
    assert docsize_tokens(bytes([0x82, 0x2C, 5, 1])) == 300 + 5 + 1  # 0x82 0x2C = (2 << 7) | 44


def test_docsize_totals_of_many_rows_match_row_by_row_decoding() -> None:
    blobs = [bytes([3, 0, 1]), bytes([0x82, 0x2C, 5, 1]), bytes([0x81, 0x80, 0x01, 0, 1]), bytes([127, 0x90, 0x00, 1])]
    assert docsize_total(blobs) == sum(docsize_tokens(b) for b in blobs)
    assert docsize_total([bytes([3, 0, 1])] * 4) == 16 and docsize_total([]) == 0


def test_docsize_lengths_of_many_rows_match_row_by_row_decoding() -> None:
    blobs = [bytes([3, 0, 1]), bytes([0x82, 0x2C, 5, 1]), b"", bytes([0x81, 0x80, 0x01, 0, 1]), bytes([127, 0x90, 0])]
    assert docsize_lengths(blobs).tolist() == [float(docsize_tokens(b)) for b in blobs]
    assert docsize_lengths([bytes([3, 0, 1])] * 3).tolist() == [4.0, 4.0, 4.0]
    assert docsize_lengths([]).tolist() == []
