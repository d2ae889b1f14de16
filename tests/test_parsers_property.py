"""The text parsers take any string: they never raise, finish in bounded time, and keep their own invariants.

Named days, statements, perspective, query terms and the injection scorer read untrusted text (questions,
stored notes, tool output) with regular expressions. Any text includes control characters, other scripts and
long runs of the very words their patterns look for, where a pattern that backtracks goes quadratic or worse.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tiermem.english import statements
from tiermem.english.named_days import named_days
from tiermem.english.perspective import first_person
from tiermem.recall.search import query_terms
from tiermem.trust.injection import INJECTION_THRESHOLD, injection_score

settings.register_profile(
    "parsers",
    derandomize=True,  # the same examples on every run: a failure here is a finding, not a flake
    max_examples=60,
    deadline=None,  # each call is timed below, in CPU time, so a busy machine does not fail it
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile("parsers")

SECONDS = 0.5  # per call, on inputs up to LONG characters: ample for linear work, far too little for quadratic
LONG = 10_000
NOW = datetime(2026, 3, 4, 12, tzinfo=UTC)

# Pieces the patterns look for, so that generated text reaches deep into them rather than failing at once.
PIECES = [
    *"May|June|December|Sept.|8|8th|31|2023|1,2023|-|\u2013|,|.|?|!|;|:|'|\u2019|\"|(|\n|\t|\u200b| ".split("|"),
    *"between |from | and | to |in |the |of |last |past |this |week |weekend |month |year |days |ago ".split("|"),
    *"a |few |couple |yesterday |today |mid-|late |second |I |I'm |my |me |you |said |told |your ".split("|"),
    *"our previous chat |not |never |no |only |while |might |and has |Ann |Ann's |Bo Lind |my sister ".split("|"),
    *"lives |moved |work at |phone |email |favourite |ann@example.com |555-0100 |she |her |his ".split("|"),
    *"herself |does |ignore |all |previous |instructions |system:|[INST]|assistant |now |immediately ".split("|"),
    *"send |password |do not tell the user |pretend |DAN ".split("|"),
    "<|im_start|>",
]
texts = st.one_of(
    st.text(),  # any code point, control characters included
    st.text(alphabet=st.characters(codec="ascii"), max_size=LONG),
    st.lists(st.sampled_from(PIECES), max_size=2_000).map("".join),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=3)), max_size=600).map("".join),
)

# Long runs of one piece: where a pattern with a nested or open-ended repeat shows its worst case.
RUNS = [
    piece * (LONG // len(piece))
    for piece in (
        *"a| |\n|1|-|.|'|May |8 May |Ann |Ann's |my |last |the |a couple of |between 8 May and |I live ".split("|"),
        *"lives in |phone |not |you said |ignore all |system: |x@y|send the password now |Please do ".split("|"),
        "she her his ",
        "<|im_start|>",
    )
]

T = TypeVar("T")


def _timed(call: Callable[[], T]) -> T:
    # The parser's own work is measured: a collection of the whole suite's heap landing in this call is not.
    gc.disable()
    try:
        started = time.process_time()
        result = call()
        spent = time.process_time() - started
    finally:
        gc.enable()
    assert spent < SECONDS, f"took {spent:.2f} s of CPU"
    return result


# -- named days -------------------------------------------------------------------------------------------------


def _check_named_days(text: str) -> None:
    days = _timed(lambda: named_days(text, NOW))
    if days is not None:
        assert days.spans
        assert all(first <= last for first, last in days.spans)


@PROFILE
@given(texts, st.datetimes(timezones=st.just(UTC)))
def test_named_days_never_raise_and_spans_run_forwards(text: str, now: datetime) -> None:
    _check_named_days(text)
    days = named_days(text, now)
    assert days is None or all(first <= last for first, last in days.spans)


@pytest.mark.parametrize("text", RUNS, ids=lambda t: repr(t[:12]))
def test_named_days_stay_fast_on_long_runs(text: str) -> None:
    _check_named_days(text)


# -- statements -------------------------------------------------------------------------------------------------


def _check_statement(text: str, other: str) -> None:
    words = _timed(lambda: statements.content_words(text))
    assert not words & statements.STOP_WORDS
    assert _timed(lambda: statements.stems(text)) == {statements.stem(w) for w in words}
    _timed(lambda: statements.values_of(text))
    names = _timed(lambda: statements.names_in(text))
    assert _timed(lambda: statements.name_words(text)) == {w.casefold() for n in names for w in n.split()}
    _timed(lambda: statements.subject_of(text))
    _timed(lambda: statements.after_relation(text))
    _timed(lambda: statements.slot_of(text))
    _timed(lambda: statements.accumulates(text))
    _timed(lambda: statements.about_the_user(text))
    _timed(lambda: statements.negated_clauses(text))
    unquoted = _timed(lambda: statements.unquote(text))
    assert unquoted in text
    what = _timed(lambda: statements.asked(text))
    assert what <= statements.stems(text)
    assert _timed(lambda: statements.answered(what, other)) <= what
    same = _timed(lambda: statements.same_subject(text, other))
    assert same == statements.same_subject(other, text)
    frame = _timed(lambda: statements.same_frame(text, other))
    assert frame == statements.same_frame(other, text)
    overlap = statements.word_overlap(words, statements.content_words(other))
    assert 0.0 <= overlap <= 1.0


@PROFILE
@given(texts, texts)
def test_statements_never_raise_and_keep_their_invariants(text: str, other: str) -> None:
    _check_statement(text, other)


@pytest.mark.parametrize("text", RUNS, ids=lambda t: repr(t[:12]))
def test_statements_stay_fast_on_long_runs(text: str) -> None:
    _check_statement(text, "Ann lives in Oslo.")


@PROFILE
@given(st.text(max_size=30))
def test_a_stem_is_never_longer_than_its_word(word: str) -> None:
    assert len(statements.stem(word)) <= len(word)


# -- perspective ------------------------------------------------------------------------------------------------

NAMES = st.from_regex(r"[A-Z][a-z]{2,8}( [A-Z][a-z]{2,8})?", fullmatch=True).filter(
    lambda n: n not in {"She", "Her", "His", "Him", "Herself", "Himself"}
)


def _check_first_person(text: str, name: str) -> None:
    turned = _timed(lambda: first_person(text, name))
    if turned is None:
        return
    # Every mention became the speaker's own "I" / "my": asked again, nothing is left to turn.
    assert _timed(lambda: first_person(turned, name)) is None


@PROFILE
@given(texts, NAMES)
def test_first_person_never_raises_and_leaves_no_mention_of_the_name(text: str, name: str) -> None:
    _check_first_person(text, name)
    _check_first_person(f"What did {name} say about {text}?", name)


@PROFILE
@given(texts, st.text(min_size=1))
def test_first_person_takes_any_name(text: str, name: str) -> None:
    _timed(lambda: first_person(text, name))


@pytest.mark.parametrize("text", RUNS, ids=lambda t: repr(t[:12]))
def test_first_person_stays_fast_on_long_runs(text: str) -> None:
    _check_first_person(text, "Ann")


# -- query terms ------------------------------------------------------------------------------------------------


def _check_query_terms(text: str) -> None:
    terms = _timed(lambda: query_terms(text))
    assert len(terms) == len(set(terms)) <= 48
    assert all(t and t == t.casefold() for t in terms)
    assert query_terms(" ".join(terms)) == terms  # the terms of the terms are the terms


@PROFILE
@given(texts)
def test_query_terms_never_raise_and_are_their_own_terms(text: str) -> None:
    _check_query_terms(text)


@pytest.mark.parametrize("text", RUNS, ids=lambda t: repr(t[:12]))
def test_query_terms_stay_fast_on_long_runs(text: str) -> None:
    _check_query_terms(text)


@pytest.mark.parametrize("text", ["\u0130stanbul", "\u0390"])  # a capital I with a dot; an iota with two accents
def test_query_terms_are_their_own_terms_where_casefolding_adds_a_combining_mark(text: str) -> None:
    _check_query_terms(text)


# -- injection signals ------------------------------------------------------------------------------------------


def _check_injection(text: str) -> None:
    verdict = _timed(lambda: injection_score(text))
    assert 0.0 <= verdict.score <= 1.0
    assert (verdict.score > 0) == bool(verdict.reasons)
    assert verdict.flagged == (verdict.score >= INJECTION_THRESHOLD)


@PROFILE
@given(texts)
def test_injection_score_never_raises_and_stays_in_0_1(text: str) -> None:
    _check_injection(text)


@pytest.mark.parametrize("text", RUNS, ids=lambda t: repr(t[:12]))
def test_injection_score_stays_fast_on_long_runs(text: str) -> None:
    _check_injection(text)
