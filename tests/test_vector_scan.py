"""The vector scan's scores: one dot product per row, equal to the matrix product."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from tiermem.errors import EmbeddingMismatchError
from tiermem.memory import Memory
from tiermem.store.vector_scan import Passages, best, nearest, nearest_to, similarities
from tiermem.types import Filter, Scope

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("rows", [1, 7, 1_313, 20_000])
def test_similarities_equal_the_matrix_product(rows: int) -> None:
    rng = np.random.default_rng(rows)
    matrix = rng.standard_normal((rows, 384)).astype(np.float32)
    query = rng.standard_normal(384).astype(np.float32)
    got = similarities(matrix, query)
    assert got.dtype == np.float32 and got.shape == (rows,)
    np.testing.assert_allclose(got, matrix @ query, rtol=1e-5, atol=1e-4)


def test_similarities_of_a_view_with_spare_rows_ignore_nothing() -> None:
    matrix = np.zeros((8, 4), dtype=np.float32)
    matrix[:3] = np.eye(3, 4, dtype=np.float32)
    view = matrix[:3]
    assert similarities(view, np.array([0, 1, 0, 0], dtype=np.float32)).tolist() == [0.0, 1.0, 0.0]


def test_passages_raise_a_record_to_its_best_sentence() -> None:
    passages = Passages(
        matrix=np.array([[1, 0], [0, 1], [0.6, 0.8]], dtype=np.float32), owner=np.array([0, 1, -1], dtype=np.int64)
    )
    scores = np.array([0.1, 0.2], dtype=np.float32)
    passages.raise_scores(scores, np.array([0, 1], dtype=np.float32), None)
    ids = np.array(["a", "b"], dtype=object)
    assert [(c.id, round(c.score, 3)) for c in best(scores, np.arange(2), ids, 2)] == [("b", 1.0), ("a", 0.1)]


def _scope_of(rows: int, seed: int) -> tuple[np.ndarray, np.ndarray, Passages, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((rows, 16)).astype(np.float32)
    owner = rng.integers(-1, rows, size=3 * rows).astype(np.int64)  # -1: a replaced sentence
    passages = Passages(rng.standard_normal((3 * rows, 16)).astype(np.float32), owner)
    mask = rng.random(rows) > 0.2
    return matrix, np.array([f"r{i}" for i in range(rows)], dtype=object), passages, mask, rng.standard_normal(16)


@pytest.mark.parametrize("everyone", [True, False])
def test_a_scan_prepared_before_its_query_finds_exactly_what_nearest_finds(everyone: bool) -> None:
    matrix, ids, passages, mask, query = _scope_of(300, 3)
    mask = np.ones_like(mask) if everyone else mask
    q = query.astype(np.float32)
    prepared = nearest_to(matrix, None, mask, ids, 20, passages=passages)(q)
    assert [(c.id, c.score) for c in prepared] == [
        (c.id, c.score) for c in nearest(matrix, None, q, mask, ids, 20, passages=passages)
    ]


def test_a_prepared_scan_keeps_the_sentences_it_was_prepared_with_while_a_write_replaces_them() -> None:
    matrix, ids, passages, mask, query = _scope_of(50, 4)
    q = query.astype(np.float32)
    before = nearest(matrix, None, q, mask, ids, 10, passages=passages)
    scan = nearest_to(matrix, None, mask, ids, 10, passages=passages)
    passages.owner[:] = -1  # a write meanwhile replaces every sentence in place
    assert scan(q) == before


def test_a_store_scan_prepared_before_the_vector_finds_what_a_search_finds_and_checks_the_dimension(
    mem: Memory,
) -> None:
    scope = Scope("acme", "ann")
    for text in ("The kettle is in the left cupboard.", "Rent is due on the first. The landlord is Ravi."):
        mem.remember(scope, text)
    assert mem.embedder is not None
    store, fingerprint = mem.store, mem.embedder.fingerprint
    vector = mem.embedder.embed_batch(["where is the kettle"])[0]
    now = datetime.now(UTC)
    scan = store.prepare_vector_candidates(scope, fingerprint, Filter(), now=now, limit=5)
    assert scan(vector) == store.vector_candidates(scope, vector, fingerprint, Filter(), now=now, limit=5)
    with pytest.raises(EmbeddingMismatchError):
        scan(vector[:3])
    nothing = store.prepare_vector_candidates(scope, "another-model", Filter(), now=now, limit=5)
    assert nothing(vector) == []


def test_scan_benchmark_times_both_products_idle_and_busy() -> None:
    flags = ["--rows", "64", "--busy", "0,1", "--runs", "1", "--calls", "3"]
    command = [sys.executable, "benchmarks/scan_threads.py", *flags]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120).stdout
    rows = json.loads(out.splitlines()[-1])
    assert [(r["busy"], r["rows"]) for r in rows] == [(0, 64), (1, 64)]
    assert all(r["blas_p50_ms"] >= 0 and r["row_dot_p50_ms"] >= 0 for r in rows)
