"""Which lines of a document the scanner reads as another language: a language identifier where it is sure, the
English word lists where it is not."""

from __future__ import annotations

import pytest

from tiermem.embed import MiniLMEmbedder
from tiermem.recall.passages import embed_with_passages, passages
from tiermem.trust.learned import learned_signal
from tiermem.write.scan import read_probability
from tiermem.write.scan_foreign import foreign_lines, foreign_parts


def read_alone(line: str, text: str) -> bool:
    """Whether the scanner reads ``line`` of ``text`` alone as another language: as a line or as its passage."""
    _, marked = foreign_parts(text)
    alone = {p.strip() for p, m in zip(passages(text), marked, strict=True) if m}
    return line in foreign_lines(text) or line in alone


LETTER = (
    "Invoice 0000-7 (example)\nDear Ann,\nThanks for your order of three chairs.\n{line}\nTotal: 120.00\nKind regards"
)


@pytest.mark.parametrize(
    "line",
    [
        "Przypominam o zebraniu w czwartek, prosze przyniesc klucze do piwnicy.",
        "Bidh an talla dùinte Diluain air sgàth obair dealain anns an togalach.",
    ],
)
def test_a_line_in_a_language_the_word_lists_take_for_english_is_read_as_another_language(line: str) -> None:
    assert read_alone(line, LETTER.format(line=line))


@pytest.mark.parametrize(
    "line",
    [
        "Expected dispatch: two working days after payment clears.",
        "Gutters cleared, downpipe unblocked, two cracked tiles replaced.",
        "Moves cache settings into config.py; drops three unused helpers.",
    ],
)
def test_a_terse_english_line_with_few_function_words_is_read_as_english(line: str) -> None:
    assert not read_alone(line, LETTER.format(line=line))


def test_a_base64_attachment_after_english_words_is_no_other_language() -> None:
    text = "Here it is in base64: UGhvdG9zIGZyb20gdGhlIHNjaG9vbCB0cmlwIHRvIHRoZSBjb2FzdCwgZGF5IHR3byBhbmQgZGF5IHRocmVl"
    whole, marked = foreign_parts(text)
    assert not whole and not any(marked)


@pytest.mark.slow
def test_the_english_classifier_reads_no_passage_whose_lines_are_in_another_language() -> None:
    # Sundanese prose: the identifier is unsure of its later sentences and the word lists know none of their words,
    # so those passages pass as English; read line by line they do not, and MiniLM's vector of them is noise.
    text = (
        "Hatur nuhun parantos mesen roti di toko kami kanggo hajatan minggu payun. "
        "Roti bakal dikirim dinten saptu isuk-isuk ka bumi ibu sareng bapa. "
        "Kami moal pernah menta nomer kartu atawa kode rusiah ngaliwatan telepon. "
        "Upami aya nu menta kitu, ulah dibere sareng geura wartosan ka kami."
    )
    model = MiniLMEmbedder()
    vectors, parts = embed_with_passages(model, [text])
    own, marked = foreign_parts(text)
    assert own and not all(marked)  # the whole text reads foreign, some of its passages pass as English
    assert read_probability(learned_signal(), text, vectors[0], parts[0]) == 0.0
