"""The cheap looks that spare a text the PII detectors skip only texts no detector could find anything in.

``find_pii`` gives each detector only a text with as many digits as any of its matches holds, and the JSON reading
reads a value after its key only when the key holds one of ``LABEL_HINTS``. Both are kept apart from the
detectors' own patterns, so these tests read the detectors: every value each finds in the benchmark cases (alone
and under a key) holds the digits its gate asks for, and every word a detector reads before a value, expanded from
its pattern, holds a hint. A detector added to ``_DETECTORS`` without a word list here fails the tests.
"""

from __future__ import annotations

import itertools
import json
import re
import re._constants as sre_c
import re._parser as sre_p
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tiermem.trust import pii, pii_accounts, pii_labelled, pii_national, pii_numbers, pii_phones
from tiermem.trust.pii import _DETECTORS, PiiMasker, find_pii
from tiermem.trust.pii_keys import LABEL_HINTS
from tiermem.trust.pii_view import pii_view

CASES = Path(__file__).resolve().parent.parent / "benchmarks" / "detectors"
Detector = Callable[[str], Iterator[tuple[int, int]]]


def _case_texts() -> list[str]:
    """Every text of the detector benchmarks, alone and after the labels the cases name values with."""
    texts: list[str] = []
    for path in sorted(CASES.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                texts += [row["text"], f"{row.get('kind', 'value')}: {row['text']}"]
    return texts


# Values at the least digits each gate allows: the gates are exact there, not only safe.
EDGES = [
    "the host is ::1 today",  # an IPv6 address with one digit
    "passport no. AB12CDE",  # a passport number with two
    "PAN: AAAPL1234C",  # a PAN with four
    "born on 1/2/85",  # a birth date with four
    "from 10.0.0.1",  # an IPv4 address with four
    "ΑΦΜ: 094817360",  # a national identifier of the labelled table with nine
    "FİN kodu: QWE1RTY",  # an identifier of letters with one digit
]


def test_each_detector_finds_values_only_in_texts_with_the_digits_find_pii_asks_of_it() -> None:
    found_at_least = dict.fromkeys(range(len(_DETECTORS)), 99)
    for text in [*_case_texts(), *EDGES]:
        view = pii_view(text).text
        for index, (kind, find, least) in enumerate(_DETECTORS):
            for start, end in find(view):
                digits = len(re.findall(r"\d", view[start:end]))
                assert digits >= least, (kind, least, view[start:end])
                found_at_least[index] = min(found_at_least[index], digits)
    # every detector found something, so each bound was read against real values
    assert all(n < 99 for n in found_at_least.values()), found_at_least
    assert [s.kind.value for edge in EDGES for s in find_pii(edge)] == ["IP", "PASSPORT", "ID", "DOB", "IP", "ID", "ID"]


# -- the words each detector reads before a value ----------------------------------------------------------------

# Per detector, the patterns by which it finds more after a word (a label, a card or phone word) than without.
# A pattern that only makes a detector find less (a version word, an order word) needs no hint.
WORDS_BEFORE: dict[Detector, list[re.Pattern[str]]] = {
    pii._secrets: pii._SECRET_VALUE,
    pii._emails: [],
    pii_numbers.ibans: [],
    pii_numbers.cards: [pii_numbers._CARD_WORDS, pii_numbers._CARD_LABEL],
    pii_numbers.ssns: [pii_numbers._SSN_LABEL],
    pii_numbers.ninos: [pii_numbers._NINO_LABEL],
    pii_labelled.birth_dates: [pii_labelled._BIRTH, pii_labelled._BIRTH_ABROAD],
    pii_labelled.passports: [pii_labelled._PASSPORT, *pii_labelled._PASSPORT_ABROAD],
    pii_labelled.labelled_ids: [pattern for hints, pattern, _ in pii_labelled._LABELLED if hints],
    pii_national.national_labelled_ids: [pattern for _, pattern, _ in pii_national._NATIONAL],
    pii_national.few_digit_ids: [pattern for _, pattern, _ in pii_national._FEW_DIGITS],
    pii_numbers.national_ids: [],
    pii_accounts.bank_accounts: [pii_accounts._ACCOUNT],
    pii_numbers.ipv6s: [],
    pii_numbers.ipv4s: [],
    pii_phones.phones: [pii_phones._PHONE_WORD],
}

_NEUTRAL = "0Q "  # a class is stood for by the first of these it holds, so a class adds no word of its own


def _in_class(char: str, items: list[Any], fold: bool) -> bool:
    """Whether ``char`` is in a parsed character class."""
    code = ord(char)
    negate = bool(items) and items[0][0] is sre_c.NEGATE
    hit = False
    for op, av in items:
        if op is sre_c.LITERAL:
            hit |= av == code or (fold and chr(av).lower() == char.lower())
        elif op is sre_c.RANGE:
            cases = (char.lower(), char.upper()) if fold else (char,)
            hit |= any(av[0] <= ord(c) <= av[1] for c in cases)
        elif op is sre_c.CATEGORY:
            hit |= {
                sre_c.CATEGORY_DIGIT: char.isdigit(),
                sre_c.CATEGORY_SPACE: char.isspace(),
                sre_c.CATEGORY_WORD: char.isalnum() or char == "_",
                sre_c.CATEGORY_NOT_WORD: not (char.isalnum() or char == "_"),
                sre_c.CATEGORY_NOT_DIGIT: not char.isdigit(),
                sre_c.CATEGORY_NOT_SPACE: not char.isspace(),
            }[av]
    return hit != negate


def _expand(items: Any, fold: bool) -> set[str]:
    """The strings a parsed pattern matches, each optional part taken and left out, each repeat at its least
    (and one more), a class of a few letters as each of them, a wider class as one neutral character."""
    out = {""}
    for op, av in items:
        if op is sre_c.LITERAL:
            options = {chr(av)}
        elif op is sre_c.NOT_LITERAL or op is sre_c.ANY:
            options = {next(c for c in _NEUTRAL if ord(c) != av)}
        elif op is sre_c.IN:
            literals = [chr(v) for o, v in av if o is sre_c.LITERAL]
            if len(literals) == len(av) and len(literals) <= 8:
                options = set(literals)
            else:
                options = {next(c for c in _NEUTRAL if _in_class(c, av, fold))}
        elif op is sre_c.BRANCH:
            options = set().union(*(_expand(branch, fold) for branch in av[1]))
        elif op is sre_c.SUBPATTERN:
            options = _expand(av[3], fold)
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            least, most, body = av
            one = _expand(body, fold)
            options = {"".join(p) for n in {least, min(least + 1, most)} for p in itertools.product(one, repeat=n)}
        elif op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT):
            options = {""}
        else:
            raise AssertionError(f"no expansion for {op}")
        out = {a + b for a in out for b in options}
        assert len(out) < 200_000
    return out


def _words_before_the_value(pattern: re.Pattern[str]) -> set[str]:
    """What ``pattern`` matches before its first group (the value), or all of it if it has none."""
    parsed = sre_p.parse(pattern.pattern, pattern.flags)
    items = list(parsed)
    for index, (op, av) in enumerate(items):
        if op is sre_c.SUBPATTERN and av[0] is not None:
            items = items[:index]
            break
    return _expand(items, bool(pattern.flags & re.IGNORECASE))


def test_every_detector_states_the_words_it_reads_before_a_value() -> None:
    assert {find for _, find, _ in _DETECTORS} == set(WORDS_BEFORE)


@pytest.mark.parametrize("find", list(WORDS_BEFORE), ids=lambda f: f.__name__)
def test_label_hints_hold_a_hint_for_every_word_a_detector_reads_before_a_value(find: Detector) -> None:
    words = set().union(*(_words_before_the_value(p) for p in WORDS_BEFORE[find]))
    assert not [word for word in sorted(words) if not LABEL_HINTS.search(word)]


def test_a_number_under_a_key_the_phone_detector_reads_as_a_phone_word_is_masked() -> None:
    # the phone word is any two of its characters (电话, 手机, ...): a key of two is a label, as the text reading has it
    text = json.dumps({"\u8bdd\u8bdd": "4155552671"}, ensure_ascii=False)
    assert [s.kind.value for s in find_pii(text.replace('"', ""))] == ["PHONE"]
    assert "4155552671" not in PiiMasker().mask(text)
