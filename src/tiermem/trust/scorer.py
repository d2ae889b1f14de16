"""(internal) The injection scorer: signals in windows of the text, then again on what markup or encoding hid.

Within one window the signals combine by noisy-OR (score = 1 - prod(1 - w)): one weak signal stays below
the threshold, a strong one or two weak ones cross it. A long text is scored window by window (about two
sentences, overlapping) and keeps its worst window, so an instruction in the middle of a long e-mail scores as
it would alone, and weak signals scattered over pages of benign text do not add up. Parts a reader does not
see (an HTML comment, an alt text, a base64 blob) are scored again on their own; when such a part carries a
directive, having been hidden adds ``HIDDEN_WEIGHT``. Invisible format characters add ``INVISIBLE_WEIGHT``.
"""

from __future__ import annotations

import re

from tiermem.trust.card_ask import asks_for_a_whole_card
from tiermem.trust.cash_drop import asks_cash_in_person
from tiermem.trust.frames import (
    AT_MOST_FLAGGED,
    FRAMED_CEILING,
    addresses_reader,
    code_frame,
    hijack_marker,
    names_attacks,
    quoted_discussion,
    role_frame,
    without_quotes,
)
from tiermem.trust.hidden import decoded_parts, hidden_parts
from tiermem.trust.machine_reader import calls_on_a_machine_reader, is_document
from tiermem.trust.normalise import ScanForm, normalise
from tiermem.trust.patterns import Signal, noisy_or
from tiermem.trust.signals_en import SIGNALS_EN, standing_rule
from tiermem.trust.signals_hijack import PERSONA_HANDED, persona
from tiermem.trust.signals_intl import SIGNALS_INTL
from tiermem.trust.signals_intl_orders import PERSONA_NOW
from tiermem.trust.tables import cells_as_lines

__all__ = ["HIDDEN_WEIGHT", "INVISIBLE_WEIGHT", "LOOKALIKE_WEIGHT", "WINDOW_CHARS", "score_text"]

SIGNALS = (*SIGNALS_EN, *SIGNALS_INTL)
OUTSIDE_ROLES = tuple(signal for signal in SIGNALS if not signal.in_roles)
HIDDEN_WEIGHT = 0.35
# Words spelled in characters that render as nothing (tag characters, zero-width bits) have no reader to serve
# but a machine: with the invisible characters' own weight, that alone quarantines them.
CONCEALED_WEIGHT = 0.5
INVISIBLE_WEIGHT = 0.2
LOOKALIKE_WEIGHT = 0.2
WINDOW_CHARS = 500
INJECTION_AT = 0.5  # trust.injection.INJECTION_THRESHOLD (that module imports this one)
"""A window is two chunks of at most half this, cut at sentence ends: about two or three sentences."""

_EXCERPT = 60
_MAX_DEPTH = 2  # a payload inside a payload is decoded once more, no further
_PART_CHARS = 4000
_LINE_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s*|\n+")  # and the CJK full stop, ! and ?

Scored = tuple[float, tuple[str, ...]]


def _normalise(text: str) -> tuple[str, ScanForm]:
    """The text to scan (``trust.normalise``, case folded, spaces collapsed) and what was undone to make it."""
    form = normalise(text)
    # Keep line breaks: the template detectors look for "system:" at the start of a line (or of a table cell).
    lines = cells_as_lines(form.text).casefold().splitlines()
    return "\n".join(" ".join(line.split()) for line in lines), form


def excerpt(text: str) -> str:
    """``text`` on one line, cut to a short excerpt."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 3] + "..."


def _chunks(text: str) -> list[str]:
    """``text`` cut at sentence ends into pieces of at most half a window (long sentences cut anywhere)."""
    half = WINDOW_CHARS // 2
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    # The text after the last sentence end (a last line without a full stop) is a sentence too.
    bounds = zip([0, *ends], [*ends, len(text)], strict=True)
    out: list[str] = []
    current = ""
    for begin, stop in bounds:
        sentence = text[begin:stop]
        if len(current) + len(sentence) <= half:
            current += sentence
            continue
        if current:
            out.append(current)
        while len(sentence) > half:
            out.append(sentence[:half])
            sentence = sentence[half:]
        current = sentence
    if current:
        out.append(current)
    return out


def _windows(text: str) -> list[tuple[int, str]]:
    """Overlapping windows of ``text`` with their start offsets; a short text is its own window."""
    if len(text) <= WINDOW_CHARS:
        return [(0, text)]
    chunks = _chunks(text)
    offsets = [0]
    for chunk in chunks:
        offsets.append(offsets[-1] + len(chunk))
    if len(chunks) == 1:
        return [(0, chunks[0])]
    return [(offsets[i], chunks[i] + chunks[i + 1]) for i in range(len(chunks) - 1)]


def _score_window(window: str, signals: tuple[Signal, ...]) -> Scored:
    weights: list[float] = []
    reasons: list[str] = []
    for signal in signals:
        found = signal.find(window)
        if found is not None:
            weight, evidence = found
            weights.append(weight)
            reasons.append(f"{signal.name}: '{excerpt(evidence)}'")
    return noisy_or(weights), tuple(reasons)


def _score_scanned(scanned: str, signals: tuple[Signal, ...] = SIGNALS) -> Scored:
    windows = _windows(scanned)
    best: Scored = (0.0, ())
    where = (0, 0)
    # A window's score depends on its text alone: a run of one repeated piece cut into equal chunks gives the same
    # window again and again, scored once.
    seen: dict[str, Scored] = {}
    for start, window in windows:
        scored = seen.get(window)
        if scored is None:
            scored = seen[window] = _score_window(window, signals)
        if scored[0] > best[0]:
            best, where = scored, (start, start + len(window))
    if len(windows) > 1 and best[0] > 0:
        best = (best[0], (*best[1], f"in characters {where[0]}-{where[1]} of {len(scanned)}"))
    return best


def _score_framed(scanned: str) -> Scored:
    """The score of ``scanned`` read in its frame (``trust.frames``): a role description, a discussion quoting attacks,
    source code.

    A framed text's reasons say so, ending in ``AT_MOST_FLAGGED``, which also bounds the classifier on it.
    """
    best = _score_scanned(scanned)
    role = role_frame(scanned)
    if role is not None and hijack_marker(scanned) is None:
        # What an operator's role also says flags it at most; anything else counts on top as always.
        if best[0] > FRAMED_CEILING:
            outside_roles = _score_scanned(scanned, OUTSIDE_ROLES)
            best = (min(best[0], noisy_or((outside_roles[0], FRAMED_CEILING))), best[1])
        note = f"read as an operator's role description ('{excerpt(role)}'): role signals count {AT_MOST_FLAGGED}"
        best = (best[0], (note, *best[1]))
    if quoted_discussion(scanned):
        bare = without_quotes(scanned)
        outside = _score_scanned(bare)
        # Outside its quotes the text is no injection, or it is about attacks and speaks to no one: a write-up
        # telling how "the model should ignore" orders is reported speech, not an order to its reader.
        if outside[0] < INJECTION_AT or (names_attacks(scanned) and not addresses_reader(bare)):
            note = f"quotes in a discussion of attacks: what only they say counts {AT_MOST_FLAGGED}"
            cap = max(outside[0], FRAMED_CEILING) if outside[0] < INJECTION_AT else FRAMED_CEILING
            best = (min(best[0], cap), (note, *best[1]))
    if code_frame(scanned) and not any(r.endswith(AT_MOST_FLAGGED) for r in best[1]):
        # The classifier learned from notes and reads code's words out of their syntax; the rules still count an
        # order in a comment in full.
        best = (best[0], (*best[1], f"read as source code: the classifier counts {AT_MOST_FLAGGED}"))
    return best


def _line_calling_on_a_machine(normalised: str) -> str | None:
    """A line (or table cell, or a line's later sentence) of a document that calls on a machine reader, or None."""
    for line in cells_as_lines(normalised).splitlines():
        # A line's sentences too: the call may follow a sentence to its reader ("Sam, the card failed! You who ...:")
        for piece in (line, *_LINE_SENTENCE_END.split(line)[1:]):
            if calls_on_a_machine_reader(piece):
                return piece
    return None


# How its reader is to speak from then on, or a machine: "reply ... only in Italian", "talk as ...", "the AI".
_ABOUT_REPLIES = re.compile(
    r"\b(?:speak|talk|answer|respond|repl(?:y|ies))\w*\s+(?:[\w']+\s+){0,3}?(?:as|in|only)\b|"
    r"\b(?:assistant|ai|app|tool|computer|bot)\b|\balways\s+(?:include|add|recommend|mention)\b"
)


def _rule_for_replies(line: str) -> bool:
    """Whether a document's line sets a rule for every reply its reader writes (a letter has no such say)."""
    return standing_rule(line) is not None and _ABOUT_REPLIES.search(line) is not None


def _telling_line(scanned: str, normalised: str) -> str | None:
    """What the first telling line of a document does, with the line: calls on a machine, asks for a card, ..."""
    calling = _line_calling_on_a_machine(normalised)
    if calling is not None:
        return f"calls on a machine reader: '{excerpt(calling)}'"
    folded = scanned.splitlines()
    # Names are read by their capital, so a stranger asking for cash is read on the lines as written.
    checks = [
        (folded, asks_for_a_whole_card, "asks for a whole card"),
        (normalised.splitlines(), asks_cash_in_person, "has someone introduce themselves and ask for cash"),
    ]
    if not code_frame(scanned):
        checks.append((folded, _rule_for_replies, "sets a rule for every reply"))
    for lines, tells, what in checks:
        line = next((line for line in lines if tells(line)), None)
        if line is not None:
            return f"{what}: '{excerpt(line)}'"
    return None


def _document_reader(text: str, scanned: str, normalised: str, best: Scored) -> Scored:
    """``best`` raised to flagged where a document speaks to its machine reader, whatever order follows, asks for a
    whole card (``trust.card_ask``), has someone introduce themselves and ask for cash (``trust.cash_drop``), sets
    a rule for every reply, or hands its reader a persona.

    A letter's, a receipt's or a table's lines speak to their addressee and ask it to be no one else; a user's
    short note may well speak to their own assistant ("Note to my assistant: ..."), so notes are left to the
    other signals.
    """
    if not is_document(text):
        return best
    telling = _telling_line(scanned, normalised)
    if telling is not None:
        return FRAMED_CEILING, (*best[1], f"a line of a document {telling}")
    handed = persona(scanned)
    now = PERSONA_NOW.search(scanned) if handed is None else None
    said = handed[1] if handed is not None else now.group(0) if now is not None else None
    if said is None:
        return best
    return FRAMED_CEILING, (*best[1], f"in a document, {PERSONA_HANDED}: '{excerpt(said)}'")


def score_text(text: str, depth: int = 0, parent: str = "") -> Scored:
    """How directive-shaped ``text`` is (0..1), with one reason per signal that fired."""
    scanned, form = _normalise(text)
    best = _score_framed(scanned)
    if depth == 0 and best[0] < FRAMED_CEILING:
        best = _document_reader(text, scanned, form.text, best)
    if depth < _MAX_DEPTH:
        for part in (*hidden_parts(text), *decoded_parts(text)):
            # ROT13 undoes itself: decoding a decoded part can give back the text it came from, which would then
            # count as hidden twice over (a plain header scored as a payload inside a payload).
            if parent and part.text.casefold() == parent.casefold():
                continue
            # The whole text was scored already; a part is scored again only for having been hidden, which its
            # first few thousand characters show as well as all of them (and a long part would cost as much).
            inner, reasons = score_text(part.text[:_PART_CHARS], depth + 1, text)
            if inner <= 0 and not part.concealed:
                continue
            combined = noisy_or((inner, CONCEALED_WEIGHT if part.concealed else HIDDEN_WEIGHT))
            if combined > best[0]:
                best = (combined, (f"hidden in {part.how}: '{excerpt(part.text)}'", *reasons))
    if form.invisible:
        plural = "s" if form.invisible != 1 else ""
        reason = f"{form.invisible} invisible character{plural}"
        best = (noisy_or((best[0], INVISIBLE_WEIGHT)), (*best[1], reason))
    if form.lookalikes:
        plural = "s" if form.lookalikes != 1 else ""
        reason = f"{form.lookalikes} look-alike letter{plural} of another script in Latin words"
        best = (noisy_or((best[0], LOOKALIKE_WEIGHT)), (*best[1], reason))
    return round(best[0], 4), best[1]
