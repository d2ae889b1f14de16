"""Recall finds a record by its best sentence, after a write, a rollback and an import alike."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tiermem import Memory, Scope
from tiermem.embed import HashingEmbedder
from tiermem.english.perspective import third_person
from tiermem.store import StoredItem
from tiermem.write.path import audit_entry

ALICE = Scope("acme", "alice")
TURN = "Ines: We cycled all morning along the coast. I was in Lisbon last week. The custard tarts were great."
SENTENCE = third_person("Ines: I was in Lisbon last week.")  # the sentence as embedded: "Ines was in Lisbon ..."


def _vector_cosine(memory: Memory, query: str, record_id: str) -> float:
    hit = next(h for h in memory.recall(ALICE, query, k=10) if h.record.id == record_id)
    part = hit.part("vector")
    assert part is not None and part.raw is not None
    return part.raw


def test_recall_scores_a_record_by_its_best_sentence_after_write_rollback_and_import(tmp_path: Path) -> None:
    emb = HashingEmbedder(dim=256)
    with Memory.open(tmp_path / "a.db", embedder=emb) as memory:
        rec = memory.remember(ALICE, TURN, type="episodic").record
        memory.remember(ALICE, "Omar: The weather in Bergen was rainy.", type="episodic")
        whole = float(emb.embed_batch([TURN])[0] @ emb.embed_batch([SENTENCE])[0])
        assert whole < 0.9
        assert _vector_cosine(memory, SENTENCE, rec.id) == pytest.approx(1.0, abs=1e-5)

        edited = replace(rec, content="Ines: Nothing happened.", content_hash="x", version=2)
        memory.store.put_many([StoredItem(edited, emb.embed_batch([edited.content])[0])])
        memory.store.append_audit(ALICE, [audit_entry("edit", "user", rec.created_at, rec, edited)])
        assert _vector_cosine(memory, SENTENCE, rec.id) < 0.9  # the edit dropped the old sentences
        memory.rollback(ALICE, rec.id, version=1)
        assert _vector_cosine(memory, SENTENCE, rec.id) == pytest.approx(1.0, abs=1e-5)
        data = memory.export(ALICE)

    with Memory.open(tmp_path / "b.db", embedder=emb) as restored:
        restored.restore(data)
        assert _vector_cosine(restored, SENTENCE, rec.id) == pytest.approx(1.0, abs=1e-5)
