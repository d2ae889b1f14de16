"""Summaries of evicted messages for the capped ``summary`` core block.

The default is extractive and needs no model: it keeps the most informative sentences of what was paged out,
preferring what the user said about themselves ("I moved to Lisbon", "my daughter is 7"). An LLM summariser
plugs in by implementing ``Summariser`` (e.g. with a chat client); its text is held to the same cap.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from tiermem.context.messages import Message, Role
from tiermem.tokens import TokenCounter
from tiermem.types import normalise_text

__all__ = ["ExtractiveSummariser", "Summariser", "fit_lines", "split_sentences", "without_sentences"]


class Summariser(Protocol):
    """Folds evicted messages into the previous summary; the result must fit ``limit`` tokens."""

    def summarise(self, previous: str, evicted: Sequence[Message], *, limit: int, counter: TokenCounter) -> str: ...


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|im|my|mine|me|we|our|we're)\b", re.IGNORECASE)
_FACT_VERB = re.compile(
    r"\b(am|is|are|was|were|have|has|had|live|lives|lived|work|works|worked|like|likes|love|loves|hate|hates|"
    r"prefer|prefers|moved|born|allergic|need|needs|want|wants|plan|plans|planning|own|owns|use|uses|started|"
    r"study|studies|married|called|named|birthday|favourite|favorite)\b",
    re.IGNORECASE,
)
_SPECIFIC = re.compile(r"\d|(?<=\w\s)[A-Z][a-z]+")  # numbers, and capitalised words inside a sentence
_FILLER = re.compile(
    r"^(ok(ay)?|sure|thanks?( you)?|thank you|great|cool|yes|no|hi|hello|hey|bye|got it|sounds good|"
    r"you're welcome|no problem|of course)\b[\s!.,]*$",
    re.IGNORECASE,
)
# A line ExtractiveSummariser writes: "- [2024-03-05] user: <the sentence>".
_SUMMARY_LINE = re.compile(r"^- \[\d{4}-\d{2}-\d{2}\] (?:" + "|".join(r.value for r in Role) + r"): (.+)$")
_MIN_PREFIX_WORDS = 4  # a line cut to fit the cap quotes the start of a sentence; shorter starts say too little
_ROLE_WEIGHT = {Role.USER: 1.0, Role.ASSISTANT: 0.5, Role.TOOL: 0.25, Role.SYSTEM: 0.25}


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``: split after . ! ? and at line breaks, whitespace normalised, empties dropped."""
    return [s for s in (normalise_text(part) for part in _SENTENCE_END.split(text)) if s]


def _score(sentence: str, role: Role) -> float:
    """How much a sentence is worth keeping: first-person facts and specifics score high, filler zero."""
    words = sentence.split()
    if len(words) < 4 or _FILLER.match(sentence) or sentence.endswith("?"):
        return 0.0
    score = 1.0
    if _FIRST_PERSON.search(sentence) and role is Role.USER:
        score += 3.0
    if _FACT_VERB.search(sentence):
        score += 1.0
    score += min(2.0, 0.5 * len(_SPECIFIC.findall(sentence)))
    if len(words) > 40:  # long sentences cost the cap more than they usually give back
        score -= 1.0
    return max(0.0, score * _ROLE_WEIGHT[role])


def fit_lines(lines: Sequence[str], *, limit: int, counter: TokenCounter) -> str:
    """Join ``lines``, dropping the oldest (first) ones until the text fits ``limit`` tokens."""
    kept = list(lines)
    while kept:
        text = "\n".join(kept)
        if counter.count(text) <= limit:
            return text
        kept.pop(0)
    return ""


@dataclass(frozen=True, slots=True)
class ExtractiveSummariser:
    """Keeps up to ``max_new_lines`` of the best sentences per eviction, oldest summary lines dropped first."""

    max_new_lines: int = 6
    min_score: float = 1.5

    def summarise(self, previous: str, evicted: Sequence[Message], *, limit: int, counter: TokenCounter) -> str:
        """The previous summary plus the best new sentences, as '- [date] role: sentence' lines within ``limit``."""
        old_lines = [line for line in previous.splitlines() if line.strip()]
        known = {line.partition(": ")[2].casefold() for line in old_lines}
        candidates: list[tuple[float, int, str]] = []
        for order, message in enumerate(evicted):
            for sentence in split_sentences(message.content):
                score = _score(sentence, message.role)
                if score < self.min_score or sentence.casefold() in known:
                    continue
                known.add(sentence.casefold())
                line = f"- [{message.said_at.date().isoformat()}] {message.role.value}: {sentence}"
                candidates.append((score, order, line))
        # The best sentences, then back into the order they were said in.
        chosen = sorted(sorted(candidates, key=lambda c: (-c[0], c[1]))[: self.max_new_lines], key=lambda c: c[1])
        new_lines = [line for _, _, line in chosen]
        text = fit_lines(old_lines + new_lines, limit=limit, counter=counter)
        if text or not new_lines:
            return text
        # Not even one new line fits the cap whole: keep the start of the best one.
        best = max(chosen, key=lambda c: c[0])[2]
        words = best.split()
        while words and counter.count(" ".join(words)) > limit:
            words = words[: max(0, len(words) * 3 // 4)]
        return " ".join(words)


def without_sentences(summary: str, sentences: Collection[str]) -> str:
    """``summary`` without its summariser lines that quote one of ``sentences`` (casefolded) or a cut start of one."""
    wanted = {s.casefold() for s in sentences}

    def quotes(line: str) -> bool:
        found = _SUMMARY_LINE.match(line)
        if found is None:
            return False
        said = found.group(1).casefold()
        if said in wanted:
            return True
        return len(said.split()) >= _MIN_PREFIX_WORDS and any(s.startswith(said + " ") for s in wanted)

    return "\n".join(line for line in summary.split("\n") if not quotes(line))
