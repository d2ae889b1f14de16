"""The public API is whole: every type a Memory caller meets is exported, names resolve, errors share one tree."""

from __future__ import annotations

import inspect
import subprocess
import sys
import typing
from datetime import UTC, datetime, timedelta

import pytest

import tiermem
from tiermem import Filter, MemError, Memory, NewMemory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.errors import ConfigError, LLMError

ALICE = Scope("acme", "alice")


def _classes(annotation: object) -> set[type]:
    """The classes an annotation names, through generics and unions."""
    found = {annotation} if isinstance(annotation, type) else set()
    for arg in typing.get_args(annotation):
        found |= _classes(arg)
    origin = typing.get_origin(annotation)
    return found | ({origin} if isinstance(origin, type) else set())


def test_every_tiermem_type_in_memorys_signatures_is_exported() -> None:
    named: set[type] = set()
    for name, method in inspect.getmembers(Memory, inspect.isfunction):
        if not name.startswith("_") or name == "__init__":
            for annotation in typing.get_type_hints(method).values():
                named |= _classes(annotation)
    for cls in (
        tiermem.Hit,
        tiermem.WriteResult,
        tiermem.Filter,
        tiermem.RecallPolicy,
        tiermem.Related,
        tiermem.RelatedRecord,
    ):  # types they hold
        for annotation in typing.get_type_hints(cls).values():
            named |= _classes(annotation)
    ours = {cls.__name__ for cls in named if cls.__module__.startswith("tiermem")}
    assert ours - set(tiermem.__all__) == set()


def test_all_is_sorted_and_every_name_resolves_to_its_home() -> None:
    assert list(tiermem.__all__) == sorted(tiermem.__all__)
    for name in tiermem.__all__:
        assert getattr(tiermem, name).__name__ == name
    for name in ("RecallPolicy", "WritePolicy", "RetentionPolicy", "Embedder", "Page", "AuditEntry"):
        assert name in tiermem.__all__
    for name in ("EraseReport", "SweepReport", "WriteStatus", "DetectionPolicy", "ScoreFactor", "ScorePart"):
        assert name in tiermem.__all__


def test_import_tiermem_stays_light() -> None:
    code = "import sys, tiermem; tiermem.__all__; print(sorted({'numpy', 'onnxruntime'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_open_resolves_an_embedder_name() -> None:
    with Memory.open(":memory:", embedder="hash") as memory:
        assert isinstance(memory.embedder, HashingEmbedder)
        memory.remember(ALICE, "the ferry leaves at nine")
        assert memory.recall(ALICE, "when does the ferry leave?", k=1)[0].part("vector") is not None


def test_open_with_an_unknown_embedder_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown embedder 'hsah'; choose one of minilm, hash"):
        Memory.open(":memory:", embedder="hsah")


def test_closed_records_are_not_a_filter_argument() -> None:
    with pytest.raises(TypeError):
        Filter(with_closed=True)  # type: ignore[call-arg]
    assert "with_closed" not in repr(Filter())


def test_as_of_keeps_the_other_conditions_of_the_filter() -> None:
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    with Memory.open(":memory:", embedder="hash") as memory:
        memory.remember_many(
            ALICE,
            [
                NewMemory("ferry timetable for the winter", type="episodic", valid_from=t0),
                NewMemory("ferry timetable for the summer", valid_from=t0),
            ],
        )
        only_events = Filter(types=frozenset({tiermem.MemoryType.EPISODIC}))
        hits = memory.recall(ALICE, "ferry timetable", k=5, filter=only_events, as_of=t0 + timedelta(days=1))
        assert [h.record.type.value for h in hits] == ["episodic"]


def test_llm_error_is_part_of_the_one_error_tree() -> None:
    from tiermem import llm

    assert issubclass(LLMError, MemError) and llm.LLMError is LLMError
    error = LLMError("HTTP 503 from the endpoint", url="http://127.0.0.1:9/v1", status=503, excerpt="busy")
    assert (error.url, error.status, error.excerpt, str(error)) == (
        "http://127.0.0.1:9/v1",
        503,
        "busy",
        "HTTP 503 from the endpoint",
    )
