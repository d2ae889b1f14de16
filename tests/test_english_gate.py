"""The English-only rules stay out of the way of text in other languages: French text keeps its every score."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tiermem.embed import HashingEmbedder
from tiermem.english.language import looks_english
from tiermem.english.perspective import first_person
from tiermem.english.statements import about_the_user
from tiermem.memory import Memory, NewMemory
from tiermem.recall.policy import RecallPolicy
from tiermem.types import MemoryType, Scope
from tiermem.write import supersede
from tiermem.write.supersede import Verdict, decide

SCOPE = Scope("t", "u")
NOW = datetime(2025, 5, 20, 12, tzinfo=UTC)
FRENCH_EVENTS = (
    ("user:Marie", "Je voudrais manger léger ce soir."),
    ("agent", "Pour le dîner, je te conseille une soupe de légumes."),
    ("user:Paul", "Marie a donné un vélo rouge à son fils."),
    ("agent", "Le vélo rouge est un bon cadeau pour un enfant."),
)
# "me" is an English word too, and the name invites turning the question into the speaker's first person.
FRENCH_QUESTIONS = ("Tu me conseilles quoi pour le dîner ?", "Qu'est-ce que Marie a donné à son fils ?")


def _scores(policy: RecallPolicy, question: str) -> dict[str, tuple[float, tuple[str, ...]]]:
    with Memory.open(":memory:", embedder=HashingEmbedder(), policy=policy) as memory:
        items = [
            NewMemory(content=text, type=MemoryType.EPISODIC, source=source, valid_from=NOW)
            for source, text in FRENCH_EVENTS
        ]
        memory.remember_many(SCOPE, items)
        hits = memory.recall(SCOPE, question, now=NOW)
        return {h.record.content: (h.score, tuple(p.name for p in h.parts)) for h in hits}


@pytest.mark.parametrize("question", FRENCH_QUESTIONS)
def test_english_only_rules_change_no_score_of_a_french_question(question: str) -> None:
    # Read as English, the rules would act on these questions:
    assert about_the_user(FRENCH_QUESTIONS[0]) and first_person(FRENCH_QUESTIONS[1], "Marie") is not None
    english_free = RecallPolicy(perspective_weight=0.0).without_factor("first_hand").without_factor("named_day")
    with_rules = _scores(RecallPolicy(), question)
    assert with_rules and {c: s for c, (s, _) in with_rules.items()} == {
        c: s for c, (s, _) in _scores(english_free, question).items()
    }
    assert not any({"first_hand", "named_day", "perspective"} & set(parts) for _, parts in with_rules.values())


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Marie a 3 chats et un chien", "Marie a 2 chats et un chien"),
        ("Ma couleur préférée est le bleu", "Ma couleur préférée est le vert"),
        ("Marie travaille chez Renault à Paris", "Marie travaille chez Peugeot à Paris"),
    ],
)
def test_english_statement_rules_do_not_supersede_french_statements(
    new: str, old: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert decide(new, old, 0.8).verdict is Verdict.NONE
    monkeypatch.setattr(supersede, "looks_english", lambda _text: True)
    assert decide(new, old, 0.8).verdict is Verdict.SUPERSEDE  # what the English rules alone would do


@pytest.mark.parametrize(
    ("text", "english"),
    [
        ("What did I tell you about my sister's new job?", True),
        ("Pizza la Roma is my favorite place", True),
        ("Porto", True),
        ("Tu me conseilles quoi pour le dîner ?", False),
        ("Wann habe ich Anna zuletzt gesehen?", False),
        ("私の犬の名前はポチです", False),
    ],
)
def test_looks_english(text: str, english: bool) -> None:
    assert looks_english(text) is english
