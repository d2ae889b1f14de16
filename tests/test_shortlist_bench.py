"""The shortlist benchmark script runs as the README shows it, and its arithmetic holds at the extremes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo-dev.json"


def _bench() -> object:
    import importlib.util

    spec = importlib.util.spec_from_file_location("shortlist_recall", ROOT / "benchmarks" / "shortlist_recall.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shortlist_as_large_as_the_scope_keeps_the_whole_exact_top_10() -> None:
    rng = np.random.default_rng(0)
    vecs = rng.standard_normal((600, 32)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    result = _bench().measure(vecs, vecs[:20] + 0.1, [600, 16])  # type: ignore[attr-defined]
    assert result["shortlist_600"]["recall@10"] == 1.0
    assert 0.0 <= result["shortlist_16"]["recall@10"] <= 1.0  # 16 is raised to 32 per result: 320 rows


@pytest.mark.skipif(not LOCOMO.exists(), reason="needs the development data beside the repository")
@pytest.mark.parametrize(("extra", "key"), [([], "recall@10"), (["--queries-from", "turns", "--k", "5"], "recall@5")])
def test_shortlist_benchmark_command_prints_recall_per_size(extra: list[str], key: str) -> None:
    command = [sys.executable, "benchmarks/shortlist_recall.py", str(LOCOMO), "--embedder", "hash"]
    command += ["--records", "5000", "--queries", "20", "--sizes", "512,2048", *extra]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    assert report["records"] == 5000 and report["queries"] == 20
    assert set(report) >= {"shortlist_512", "shortlist_2048", "exact_p50_ms"}
    assert report["shortlist_2048"][key] >= report["shortlist_512"][key]
