"""The supersession detector on pairs of statements: denials, swapped values, slots and guesses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tiermem import Memory, Scope
from tiermem.embed import MiniLMEmbedder
from tiermem.errors import ValidationError
from tiermem.write.path import DetectionPolicy, WritePolicy, WriteStatus
from tiermem.write.supersede import Verdict, decide

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def test_a_denial_never_merges_with_what_it_denies() -> None:
    decision = decide("I do not like tea.", "I like tea.", cosine=0.95)
    assert decision.verdict is Verdict.SUPERSEDE and "denies" in decision.reason


def test_detector_closes_fact_when_rather_than_names_it() -> None:
    old = "Ann Lee's exhibition shows Ben Ray's photos of the coast."
    new = "Ann Lee's exhibition shows her own photos of the coast, rather than Ben Ray's."
    assert decide(new, old, cosine=0.96).verdict is Verdict.SUPERSEDE


def test_detector_keeps_fact_the_other_conjunct_affirms() -> None:
    # The negation belongs to "and has no licence to sell honey", not to the beekeeping it affirms.
    new = "Ann Lee keeps bees on her farm and has no licence to sell honey."
    assert decide(new, "Ann Lee may keep bees on her farm.", cosine=0.8).verdict is Verdict.NONE


def test_detector_closes_fact_when_the_denial_names_a_plural_in_ies() -> None:
    new = "Colm Ward has never studied outside his home city."
    assert decide(new, "Colm Ward has studied in three cities.", cosine=0.8).verdict is Verdict.SUPERSEDE


def test_detector_closes_fact_when_only_the_denial_uses_an_additive_verb() -> None:
    new = "Brenda Holm has never visited the old lighthouse museum."
    old = "Brenda Holm works Saturdays at the old lighthouse museum."
    assert decide(new, old, cosine=0.8).verdict is Verdict.SUPERSEDE


def test_detector_closes_fact_when_a_short_denial_negates_part_of_it() -> None:
    old = "Lena Moss published the Harbour Guide in 2019 for the tourist board."
    decision = decide("Lena Moss did not publish any guides in 2019.", old, cosine=0.7)
    assert decision.verdict is Verdict.SUPERSEDE and "denies" in decision.reason


def test_detector_keeps_fact_when_the_short_denial_says_something_else() -> None:
    old = "Lena Moss published the Harbour Guide in 2019 for the tourist board."
    assert decide("Lena Moss did not publish any guides in 2020.", old, cosine=0.7).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Rina Vale is certified to fly gliders and seaplanes, while Ben Ray only knows how to fly gliders.",
            "Ben Ray is certified to fly gliders and seaplanes.",
        ),
        (
            "Rina Vale enjoys playing the cello in an orchestra, while Ben Ray does not play any instruments.",
            "Ben Ray enjoys playing the cello in an orchestra.",
        ),
    ],
)
def test_detector_closes_fact_when_said_of_another_while_its_subject_is_denied(new: str, old: str) -> None:
    decision = decide(new, old, cosine=0.8)
    assert decision.verdict is Verdict.SUPERSEDE and "someone else" in decision.reason


def test_detector_keeps_an_accumulating_fact_when_the_contrast_denies_another_object() -> None:
    new = "Rina Vale likes green tea, while Ben Ray does not like coffee."
    assert decide(new, "Ben Ray likes green tea.", cosine=0.8).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        (
            "Rina Vale has never spoken at any festivals or fairs.",
            "Rina Vale could have spoken at local or regional festivals.",
        ),
        (
            "Rina Vale avoids all team sports and swims alone.",
            "Rina Vale might join a team sport at the weekend.",
        ),
    ],
)
def test_detector_closes_a_guess_when_a_definite_denial_repeats_its_words(new: str, old: str) -> None:
    decision = decide(new, old, cosine=0.7)
    assert decision.verdict is Verdict.SUPERSEDE and "denies" in decision.reason


def test_detector_keeps_a_guess_when_the_denial_shares_one_word() -> None:
    new = "Rina Vale has never been involved in local politics."
    assert decide(new, "Rina Vale could be involved in community gardening.", cosine=0.7).verdict is Verdict.NONE


def test_detector_closes_fact_when_a_kept_frame_swaps_a_longer_value() -> None:
    old = "Ana Kerr is respected for her research on desert lizards."
    decision = decide("Ana Kerr is respected for her research on medieval trade routes.", old, cosine=0.7)
    assert decision.verdict is Verdict.SUPERSEDE and "desert lizards -> medieval trade routes" in decision.reason


def test_detector_keeps_fact_when_only_the_names_are_kept() -> None:
    old = "Ana Kerr and Bo Lind both sing in the harbour choir."
    new = "Ana Kerr and Bo Lind restored an old fishing boat in their town."
    assert decide(new, old, cosine=0.7).verdict is Verdict.NONE


def test_detector_closes_fact_when_only_restates_it_with_other_values() -> None:
    old = "Ivo Tran teaches four languages at the college: Latin, Greek, Hebrew and Arabic."
    decision = decide("Ivo Tran only teaches Latin and Welsh at the college.", old, cosine=0.8)
    assert decision.verdict is Verdict.SUPERSEDE and "only" in decision.reason


def test_detector_keeps_fact_when_only_says_something_else() -> None:
    assert (
        decide("Ivo Tran only drinks coffee in the morning.", "Ivo Tran drinks tea.", cosine=0.8).verdict
        is Verdict.NONE
    )


def test_detector_closes_fact_when_the_denial_names_what_it_denies() -> None:
    old = "Kai Lund loves sailing and has crossed Lake Geneva."
    assert decide("Kai Lund has never crossed Lake Geneva.", old, cosine=0.8).verdict is Verdict.SUPERSEDE
    assert decide("Kai Lund has never crossed Lake Constance.", old, cosine=0.8).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Ann's brother lives in Boston.", "Ann lives in Chicago."),
        ("My sister's husband works at Intel.", "My sister works at Apple."),
    ],
)
def test_detector_keeps_fact_when_a_possessive_subject_is_someone_else(new: str, old: str) -> None:
    assert decide(new, old, cosine=0.7).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("I check my email every morning.", "My email is ann@example.com."),
        ("I dropped my phone in the lake.", "My phone number is 555-0100."),
        ("I bought a gift for my wife's birthday.", "I'm married to Sam."),
    ],
)
def test_detector_keeps_a_slot_fact_when_the_new_one_only_mentions_the_slot_noun(new: str, old: str) -> None:
    assert decide(new, old, cosine=0.5).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("I lived in Boston during college.", "I live in Austin."),
        ("I worked at Amazon for three years before that.", "I work at Google."),
    ],
)
def test_detector_keeps_the_current_slot_fact_when_the_new_one_tells_a_former_filler(new: str, old: str) -> None:
    assert decide(new, old, cosine=0.4).verdict is Verdict.NONE


def test_detector_closes_the_slot_fact_when_the_same_filler_is_past() -> None:
    assert decide("I lived in Seattle.", "I live in Seattle.", cosine=0.9).verdict is Verdict.SUPERSEDE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("Bo teaches math at Lincoln High.", "Ann teaches math at Lincoln High."),
        ("Bo is a member of the Oakwood chess club.", "Ann is a member of the Oakwood chess club."),
    ],
)
def test_detector_keeps_fact_when_another_subject_is_swapped_in(new: str, old: str) -> None:
    assert decide(new, old, cosine=0.75).verdict is Verdict.NONE


def test_detector_keeps_a_guess_when_the_denial_says_not_yet() -> None:
    old = "I might switch to a standing desk."
    assert decide("I don't use a standing desk yet.", old, cosine=0.8).verdict is Verdict.NONE


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("I prefer coffee over tea.", "I prefer tea over coffee."),
        ("I moved from Denver to Boston.", "I moved from Boston to Denver."),
    ],
)
def test_detector_keeps_the_new_statement_apart_when_the_same_words_swap_roles(new: str, old: str) -> None:
    assert decide(new, old, cosine=0.99).verdict is not Verdict.MERGE


def test_a_min_cosine_above_every_pair_leaves_updates_unclosed(minilm: MiniLMEmbedder) -> None:
    strict = WritePolicy(detection=DetectionPolicy(min_cosine=0.999))
    with Memory.open(":memory:", embedder=minilm, write_policy=strict) as memory:
        memory.remember(ALICE, "I live in Seattle.", valid_from=T0)
        moved = memory.remember(ALICE, "I moved to Austin.", valid_from=T0 + timedelta(days=200))
    assert moved.status is WriteStatus.ADDED and moved.superseded == ()


@pytest.mark.parametrize(("field", "value"), [("neighbours", 0), ("neighbours", True), ("min_cosine", 1.5)])
def test_detection_policy_rejects_values_it_cannot_use(field: str, value: object) -> None:
    with pytest.raises(ValidationError, match=f"^{field}: "):
        DetectionPolicy(**{field: value})  # type: ignore[arg-type]
