"""The vector scan's scores: one dot product per row, equal to the matrix product."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tiermem.store.vector_index import Passages, best, similarities

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


def test_scan_benchmark_times_both_products_idle_and_busy() -> None:
    flags = ["--rows", "64", "--busy", "0,1", "--runs", "1", "--calls", "3"]
    command = [sys.executable, "benchmarks/scan_threads.py", *flags]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=120).stdout
    rows = json.loads(out.splitlines()[-1])
    assert [(r["busy"], r["rows"]) for r in rows] == [(0, 64), (1, 64)]
    assert all(r["blas_p50_ms"] >= 0 and r["row_dot_p50_ms"] >= 0 for r in rows)
