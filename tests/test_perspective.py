"""Perspective: a question about a named speaker is also asked in that speaker's own first person."""

from __future__ import annotations

import pytest

from tiermem import Memory, NewMemory, Scope
from tiermem.embed import Embedder, Vectors
from tiermem.english.perspective import first_person, third_person
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


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("Ann: I took my kids to the lake.", "Ann took Ann's kids to the lake."),
        ("Bo: Thanks, the map helped me a lot!", "Thanks, the map helped Bo a lot!"),
        ("Mary Jo: I'm sure I've seen mine somewhere.", "Mary Jo is sure Mary Jo has seen Mary Jo's somewhere."),
        ("Ann: I\u2019ll fix it myself, i'd say.", "Ann will fix it Ann, Ann would say."),
    ],
)
def test_a_transcript_line_is_told_in_the_third_person(line: str, told: str) -> None:
    assert third_person(line) == told


@pytest.mark.parametrize(
    "line",
    [
        "Ann: We had fun at the lake.",  # no word of the speaker's own
        "I took my kids to the lake.",  # no label: the user's own note keeps its person
        "Note to self: I need more seed.",  # not a speaker's label
        "User: how do I water my ferns?",  # a role, not a person a question names
        "Q: Can I plant tulips in May?",
        "GARDENER: I prune in March.",
        "L\u00e9a: Je me l\u00e8ve t\u00f4t le matin pour courir.",  # not English
    ],
)
def test_a_line_that_cannot_be_told_otherwise_is_kept_as_written(line: str) -> None:
    assert third_person(line) == line


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
    ask = Memory(mem.store, counting, policy=RecallPolicy(perspective_weight=1.0))  # opt-in since third person
    hits = ask.recall(ROOM, "What did Ann give her son?", k=2)
    assert counting.calls[0] == 1  # the question and its first-person form, embedded in one call
    own = {h.record.id: h.part("perspective") for h in hits}
    assert own[ann] is not None and own[ann].rank is not None
    plain = Memory(mem.store, mem.embedder)  # the default: one query vector
    assert all(h.part("perspective") is None for h in plain.recall(ROOM, "What did Ann give her son?", k=2))
    assert all(h.part("perspective") is None for h in ask.recall(ROOM, "What did someone give a son?", k=2))


@pytest.mark.slow
def test_told_in_the_third_person_a_speakers_line_is_nearer_the_question_than_talk_about_them(real: Memory) -> None:
    bo, ann = _chat(real)
    question = "What did Ann give her son?"
    vector = {h.record.id: h.part("vector").rank for h in real.recall(ROOM, question, k=2)}  # type: ignore[union-attr]
    assert vector[ann] == 1 and vector[bo] == 2  # Ann's line embedded as "Ann got Ann's boy a red bike ..."
