"""A statement read once (``english.statements.read``) answers the pairwise tests as reading each pair afresh did."""

from __future__ import annotations

import itertools

from tiermem.english.statements import (
    FRAME_OVERLAP,
    asked,
    content_words,
    name_words,
    names_in,
    read,
    stems,
    subject_of,
    word_overlap,
)

STATEMENTS = (
    "I moved to Lisbon last spring.",
    "Wren Halloway moved to Lisbon last spring.",
    "Wren Halloway's brother teaches chemistry in Leeds.",
    "My sister adopted two kittens from the shelter.",
    "Since June, I work as a carpenter at a boat yard.",
    "Piet Olsen never finished the marathon he trained for.",
    "Piet Olsen finished the marathon in four hours.",
    "We visited the observatory and counted meteors.",
    "",
)


def test_a_reading_holds_what_the_word_functions_give() -> None:
    for text in STATEMENTS:
        reading = read(text)
        assert reading.words == content_words(text)
        assert reading.stems == stems(text)
        assert reading.subject == subject_of(text)
        assert reading.names == names_in(text)
        assert reading.name_words == name_words(text)


def test_readings_compare_pairs_as_the_statements_themselves_do() -> None:
    what = asked("Where did Wren Halloway move last spring?")
    assert what  # the comparison below must have words to answer
    for a, b in itertools.product(STATEMENTS, repeat=2):
        subject = subject_of(a)
        same_subject = (subject is not None and subject == subject_of(b)) or bool(names_in(a) & names_in(b))
        names = name_words(a, b)
        same_frame = word_overlap(content_words(a) - names, content_words(b) - names) >= FRAME_OVERLAP
        assert read(a).same_subject(read(b)) is same_subject, (a, b)
        assert read(a).same_frame(read(b)) is same_frame, (a, b)
        assert read(a).answered(what) == what & stems(a)


def test_a_statement_is_read_once_while_it_stays_among_the_latest() -> None:
    text = "Orrin Vale keeps three beehives behind the barn."
    assert read(text) is read(text)
    assert read(text) is not read(text + " They swarm in May.")
