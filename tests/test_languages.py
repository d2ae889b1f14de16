"""Keyword search beyond English: CJK runs indexed as character pairs, accents folded in any script."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tiermem.errors import ScopeError
from tiermem.memory import Memory
from tiermem.recall.search import query_terms
from tiermem.text_index import fold, index_text, query_words
from tiermem.types import Scope

SCOPE = Scope("t", "u")
NOTES = (
    "Der Schlüssel für den Keller hängt neben der Tür.",  # German: the cellar key hangs by the door
    "我的猫喜欢在窗台上睡觉。",  # Chinese: my cat likes to sleep on the windowsill
    "私の犬の名前はポチです。",  # Japanese: my dog's name is Pochi
    "Le rendez-vous chez le médecin est jeudi matin.",  # French: the doctor's appointment is Thursday morning
    "Ζεστός καφές στην κουζίνα.",  # Greek: hot coffee in the kitchen
    "The garden hose is in the shed.",
)


@pytest.fixture
def keyword_only() -> Iterator[Memory]:
    """Full text only (no embedder): a hit can only come from the keyword index."""
    with Memory.open(":memory:", embedder=None) as memory:
        for note in NOTES:
            memory.remember(SCOPE, note)
        yield memory


def _found(memory: Memory, query: str) -> list[str]:
    return [hit.record.content for hit in memory.recall(SCOPE, query, k=10)]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Schlüssel", NOTES[0]),  # German, with its umlaut
        ("schlussel", NOTES[0]),  # typed without it
        ("窗台", NOTES[1]),  # Chinese: "windowsill", two characters inside a run
        ("猫", NOTES[1]),  # Chinese: "cat", one character
        ("名前", NOTES[2]),  # Japanese: "name"
        ("犬", NOTES[2]),  # Japanese: "dog", one character
        ("ポチ", NOTES[2]),  # Japanese katakana name
        ("medecin", NOTES[3]),  # French, accent left out
        ("καφες", NOTES[4]),  # Greek, accent left out
    ],
)
def test_a_note_is_found_by_a_keyword_of_its_own_language(keyword_only: Memory, query: str, expected: str) -> None:
    assert _found(keyword_only, query) == [expected]


def test_a_japanese_sentence_finds_the_japanese_note_among_others(keyword_only: Memory) -> None:
    assert _found(keyword_only, "犬の名前は何ですか")[0] == NOTES[2]


def test_full_compaction_keeps_cjk_findable(keyword_only: Memory) -> None:
    keyword_only.store.compact(full=True)
    assert _found(keyword_only, "窗台") == [NOTES[1]]


def test_english_text_indexes_as_its_own_lower_case() -> None:
    text = "Ann's 3 dogs, don't they bark?"
    assert index_text(text) == text.lower()
    assert query_words(text) == ["ann", "s", "3", "dogs", "don", "t", "they", "bark"]


def test_cjk_runs_become_overlapping_pairs_and_han_characters_stand_alone() -> None:
    assert (index_text("我的狗") or "").split() == ["我的", "的狗", "我", "的", "狗"]
    assert query_words("我的狗") == ["我的", "的狗"]
    assert query_words("x犬y") == ["x", "犬", "y"]


def test_folding_drops_accents_but_keeps_marks_that_are_part_of_a_letter() -> None:
    assert fold("Ёлка Müll ΚΑΦΈΣ") == "елка mull καφεσ"
    assert fold("が") == "が"  # a voiced kana is another syllable, not an accented one
    assert fold("नमस्ते") == "नमस्ते"  # Devanagari vowel signs and virama are letters' parts


def test_query_terms_fold_before_splitting() -> None:
    # Case-folding a capital I with a dot adds a combining dot; split first, it cut the word in two.
    assert query_terms("\u0130stanbul") == ["istanbul"]


@pytest.mark.parametrize("name", ["jürgen", "李明", "Ольга", "user_1.a@b+c-d"])
def test_scope_names_may_hold_letters_of_any_script(name: str) -> None:
    assert Scope("t", name).user == name


@pytest.mark.parametrize("name", ["a/b", "a:b", "a b", "_x", "ju\u0308rgen"])
def test_scope_names_refuse_separators_and_unnormalised_letters(name: str) -> None:
    with pytest.raises(ScopeError, match="may hold only letters and digits"):
        Scope("t", name)


def test_opening_a_file_indexed_before_migration_6_reindexes_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Memory.open(url, embedder=None) as memory:
        memory.remember(SCOPE, NOTES[2])
        conn = memory.store._conn  # type: ignore[attr-defined]
        # As a file written before migration 6: the index holds the raw text, and the migration is not recorded.
        conn.execute("INSERT INTO records_fts (records_fts) VALUES ('rebuild')")
        conn.execute("DELETE FROM schema_migrations WHERE version = 6")
        assert _found(memory, "名前") == []
    with Memory.open(url, embedder=None) as memory:
        assert _found(memory, "名前") == [NOTES[2]]
