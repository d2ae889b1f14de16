"""Perspective: a question about a named speaker is also asked in that speaker's own first person."""

from __future__ import annotations

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.embed import Embedder, Vectors
from tiermem.english.perspective import first_person
from tiermem.recall.search import RecallPolicy
from tiermem.types import MemoryType

ROOM = Scope("acme", "room-7")


@pytest.mark.parametrize(
    ("question", "asked_as"),
    [
        ("What does Ann do to destress?", "What do I do to destress?"),
        ("What are Ann's kids like?", "What are my kids like?"),
        ("What are Ann\u2019s kids like?", "What are my kids like?"),
        ("What activities has Ann done with her family?", "What activities have I done with my family?"),
        ("Has Ann been to Porto?", "Have I been to Porto?"),
        ("Is Ann still painting?", "Am I still painting?"),
        ("Where did Ann go after she moved?", "Where did I go after I moved?"),
        ("What did Ann buy for herself?", "What did I buy for myself?"),
        # An object pronoun is most likely someone else: left as it is.
        ("What did Ann tell him about the trip?", "What did I tell him about the trip?"),
        ("What did Ann tell her about the trip?", "What did I tell her about the trip?"),
    ],
)
def test_a_question_about_a_speaker_is_asked_in_their_first_person(question: str, asked_as: str) -> None:
    assert first_person(question, "Ann") == asked_as


@pytest.mark.parametrize("question", ["What did Bo say?", "What did Anna say?", "What did ann say?"])
def test_a_question_not_naming_the_speaker_is_not_turned(question: str) -> None:
    assert first_person(question, "Ann") is None


def _chat(memory: Memory) -> tuple[str, str]:
    """Bo talks about Ann's son; Ann says what she gave him. Returns (Bo's id, Ann's id)."""
    bo, ann = memory.remember_many(
        ROOM,
        [
            NewMemory("Bo: Ann, your son looked so happy at the park!", type=MemoryType.EPISODIC, source="user:Bo"),
            NewMemory("Ann: I got my boy a red bike for his birthday", type=MemoryType.EPISODIC, source="user:Ann"),
        ],
    )
    return bo.record.id, ann.record.id


class _Counting:
    """An embedder that counts its calls, so the test sees both questions go to the model at once."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.calls = inner, [0]

    @property
    def dim(self) -> int:
        return self.inner.dim

    @property
    def fingerprint(self) -> str:
        return self.inner.fingerprint

    def embed_batch(self, texts: list[str]) -> Vectors:
        self.calls[0] += 1
        return self.inner.embed_batch(texts)


def test_the_speakers_own_words_are_a_list_of_their_own(mem: Memory) -> None:
    _bo, ann = _chat(mem)
    counting = _Counting(mem.embedder)  # type: ignore[arg-type]
    ask = Memory(mem.store, counting)
    hits = ask.recall(ROOM, "What did Ann give her son?", k=2)
    assert counting.calls[0] == 1  # the question and its first-person form, embedded in one call
    own = {h.record.id: h.part("perspective") for h in hits}
    assert own[ann] is not None and own[ann].rank is not None
    plain = Memory(mem.store, mem.embedder, policy=RecallPolicy(perspective_weight=0.0))
    assert all(h.part("perspective") is None for h in plain.recall(ROOM, "What did Ann give her son?", k=2))
    assert all(h.part("perspective") is None for h in ask.recall(ROOM, "What did someone give a son?", k=2))


@pytest.mark.slow
def test_asked_in_the_speakers_words_the_model_ranks_their_answer_above_talk_about_them(real: Memory) -> None:
    bo, ann = _chat(real)
    hits = {h.record.id: h for h in real.recall(ROOM, "What did Ann give her son?", k=2)}
    vector, own = ({rid: h.part(name).rank for rid, h in hits.items()} for name in ("vector", "perspective"))  # type: ignore[union-attr]
    assert vector[bo] == 1 and vector[ann] == 2  # the third-person question sits nearer to talk about Ann
    assert own[ann] == 1 and own[bo] == 2  # in Ann's own words, it sits nearer to what she said
