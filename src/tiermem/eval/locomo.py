"""(internal) LoCoMo: load conversations (repairing evidence ids), ingest every turn, score evidence recall@k."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tiermem.errors import ValidationError
from tiermem.eval.floor import FloorTally, relevance_by_id
from tiermem.eval.metrics import (
    Averager,
    all_at_k,
    day_after_last,
    flatten_ranking,
    latency_json,
    recall_at_k,
    session_recall_at_k,
)
from tiermem.memory import Memory
from tiermem.types import Scope

__all__ = [
    "CATEGORY_NAMES",
    "Conversation",
    "LocomoResult",
    "Question",
    "Turn",
    "load_locomo",
    "parse_locomo_date",
    "repair_evidence",
    "run_locomo",
    "sessions",
]

# Category 5 (adversarial) has no answer in the conversation and is never scored.
CATEGORY_NAMES: Mapping[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
ADVERSARIAL = 5
_SESSION_KEY = re.compile(r"session_(\d+)")
# Tolerates the malformed forms seen in the data: "D:11:26" (stray colon), "D30:05" (zero padding).
_DIA_ID = re.compile(r"D:?(\d+):(\d+)")


@dataclass(frozen=True, slots=True)
class Turn:
    """One dialogue turn: who said what (and the caption of a shared image), in which session, when."""

    dia_id: str
    session: str
    speaker: str
    text: str
    caption: str | None
    time: datetime

    @property
    def content(self) -> str:
        """The text its record holds: ``remember_messages`` writes a named speaker's message as "name: text"."""
        return f"{self.speaker}: {self.said}"

    @property
    def said(self) -> str:
        """What was said, with the caption of a shared image."""
        return f"{self.text} [image: {self.caption}]" if self.caption else self.text

    @property
    def message(self) -> dict[str, Any]:
        """The turn as a chat message: said by its speaker (a user), at its session's time, with its id."""
        content = self.said
        named = {"name": self.speaker} if self.speaker.strip() else {}
        return {
            "role": "user",
            "content": content,
            **named,
            "created_at": self.time,
            "metadata": {"dia_id": self.dia_id},
        }


@dataclass(frozen=True, slots=True)
class Question:
    """A scored question: its category and the (repaired) evidence turn ids."""

    question: str
    category: int
    evidence: tuple[str, ...]

    @property
    def category_name(self) -> str:
        """The category's name (``multi-hop``, ``temporal``, ...)."""
        return CATEGORY_NAMES.get(self.category, str(self.category))


@dataclass(frozen=True, slots=True)
class Conversation:
    """One LoCoMo sample: its turns, its scorable questions and what loading had to repair or drop."""

    sample_id: str
    turns: tuple[Turn, ...]
    questions: tuple[Question, ...]
    repaired_ids: int = 0
    dropped_ids: int = 0
    skipped_questions: int = 0

    @property
    def asked_at(self) -> datetime:
        """When its questions are asked: a day after the last session, as a user would ask the next day."""
        return day_after_last(turn.time for turn in self.turns)

    def session_of(self) -> dict[str, str]:
        """Map from dialogue id to session name."""
        return {turn.dia_id: turn.session for turn in self.turns}


def parse_locomo_date(text: str) -> datetime:
    """Parse a LoCoMo session date such as '1:56 pm on 8 May, 2023' (taken as UTC)."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        raise ValidationError("session date", "expected a form like '1:56 pm on 8 May, 2023'", given=text) from None


def repair_evidence(raw: Iterable[str], known: Collection[str]) -> tuple[tuple[str, ...], int, int]:
    """Split, repair and filter evidence ids: (existing ids in order, number repaired, number dropped)."""
    kept: dict[str, None] = {}
    repaired = dropped = 0
    for entry in raw:
        pieces = [p for p in re.split(r"[;,\s]+", str(entry)) if p]
        if not pieces:
            dropped += 1
            continue
        for piece in pieces:
            match = _DIA_ID.fullmatch(piece)
            if match is None:
                dropped += 1
                continue
            dia_id = f"D{int(match[1])}:{int(match[2])}"
            if dia_id not in known:
                dropped += 1
                continue
            if dia_id != entry:
                repaired += 1
            kept.setdefault(dia_id, None)
    return tuple(kept), repaired, dropped


def _parse_turns(conversation: Mapping[str, Any], sample_id: str) -> list[Turn]:
    sessions = sorted((int(m[1]), key) for key in conversation if (m := _SESSION_KEY.fullmatch(key)) is not None)
    turns: list[Turn] = []
    for _, key in sessions:
        date_key = f"{key}_date_time"
        if date_key not in conversation:
            raise ValidationError(f"{sample_id}.{date_key}", "is missing")
        when = parse_locomo_date(conversation[date_key])
        for raw in conversation[key]:
            caption = raw.get("blip_caption")
            turns.append(
                Turn(
                    dia_id=str(raw["dia_id"]),
                    session=key,
                    speaker=str(raw["speaker"]),
                    text=str(raw["text"]),
                    caption=str(caption) if caption else None,
                    time=when,
                )
            )
    return turns


def parse_conversation(sample: Mapping[str, Any]) -> Conversation:
    """Build a Conversation from one raw LoCoMo sample, skipping category 5 and evidence-less questions."""
    sample_id = str(sample.get("sample_id", "?"))
    try:
        turns = _parse_turns(sample["conversation"], sample_id)
        raw_questions = sample["qa"]
    except (KeyError, TypeError) as exc:
        raise ValidationError(sample_id, f"is not a LoCoMo sample (missing {exc})") from None
    known = {turn.dia_id for turn in turns}
    questions: list[Question] = []
    repaired = dropped = skipped = 0
    for raw in raw_questions:
        category = int(raw["category"])
        if category == ADVERSARIAL:
            continue
        evidence, fixed, lost = repair_evidence(raw.get("evidence") or (), known)
        repaired += fixed
        dropped += lost
        if not evidence:
            skipped += 1
            continue
        questions.append(Question(str(raw["question"]), category, evidence))
    return Conversation(sample_id, tuple(turns), tuple(questions), repaired, dropped, skipped)


def load_locomo(path: Path) -> list[Conversation]:
    """Load a LoCoMo file (a JSON array of samples)."""
    with path.open(encoding="utf-8") as fh:
        try:
            data = json.load(fh)
        except json.JSONDecodeError as exc:
            raise ValidationError(str(path), f"is not valid JSON ({exc})") from None
    if not isinstance(data, list):
        raise ValidationError(str(path), "must hold a JSON array of LoCoMo samples")
    return [parse_conversation(sample) for sample in data]


@dataclass(frozen=True, slots=True)
class LocomoResult:
    """Evidence recall, all-hit and session recall at each k, overall and per category, with timings."""

    ks: tuple[int, ...]
    n: int
    overall: Mapping[str, float]
    per_category: Mapping[str, Mapping[str, float]]
    per_category_n: Mapping[str, int]
    conversations: int
    turns: int
    ingest_seconds: float
    query_ms: tuple[float, ...] = field(repr=False)
    repaired_ids: int = 0
    dropped_ids: int = 0
    skipped_questions: int = 0
    floor: FloorTally | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON report: ``n``, each metric@K, ``per_category`` with the same keys, timings."""
        out: dict[str, Any] = {"n": self.n, **self.overall}
        out["per_category"] = {
            name: {"n": self.per_category_n[name], **scores} for name, scores in self.per_category.items()
        }
        out["timing"] = {
            "ingest_seconds": self.ingest_seconds,
            "turns": self.turns,
            **latency_json(self.query_ms),
        }
        out["data"] = {
            "conversations": self.conversations,
            "repaired_ids": self.repaired_ids,
            "dropped_ids": self.dropped_ids,
            "skipped_questions": self.skipped_questions,
        }
        if self.floor is not None and self.floor.unanswerable:
            out["relevance"] = self.floor.to_json()
        return out


def score_question(
    ranked: Sequence[str], question: Question, session_of: Mapping[str, str], ks: Sequence[int]
) -> dict[str, float]:
    """One question's recall@k, all@k and session_recall@k for each k."""
    gold_sessions = {session_of[dia_id] for dia_id in question.evidence}
    scores: dict[str, float] = {}
    for k in ks:
        scores[f"recall@{k}"] = recall_at_k(ranked, question.evidence, k)
        scores[f"all@{k}"] = all_at_k(ranked, question.evidence, k)
        scores[f"session_recall@{k}"] = session_recall_at_k(ranked, gold_sessions, session_of, k)
    return scores


def sessions(turns: Sequence[Turn]) -> list[list[Turn]]:
    """The turns grouped by session, in order."""
    groups: dict[str, list[Turn]] = {}
    for turn in turns:
        groups.setdefault(turn.session, []).append(turn)
    return list(groups.values())


def run_locomo(
    memory: Memory,
    conversations: Sequence[Conversation],
    ks: Sequence[int],
    *,
    tenant: str = "eval",
    limit: int | None = None,
    on_question: Callable[[], None] | None = None,
    context_turns: int = 1,
) -> LocomoResult:
    """Ingest each conversation into a fresh scope and score up to ``limit`` questions overall.

    Each session is written with ``Memory.remember_messages`` (speaker, time, session, and the ``context_turns``
    turns before each turn as its search context) and asked at the conversation's "now": the path users take.
    """

    depth = max(ks)
    averager = Averager()
    query_ms: list[float] = []
    ingest_seconds = 0.0
    turns_ingested = 0
    used: list[Conversation] = []
    floor = FloorTally(depth)
    asked: list[tuple[Scope, Conversation, list[Question]]] = []  # the questions scored, per conversation
    for index, conversation in enumerate(conversations):
        if limit is not None and averager.count() >= limit:
            break
        used.append(conversation)
        scope = Scope(tenant, f"locomo-{index}")
        started = time.perf_counter()
        for session in sessions(conversation.turns):
            messages = [turn.message for turn in session]
            memory.remember_messages(scope, messages, session=session[0].session, context_turns=context_turns)
        ingest_seconds += time.perf_counter() - started
        turns_ingested += len(conversation.turns)
        session_of = conversation.session_of()
        asked.append((scope, conversation, []))
        for question in conversation.questions:
            if limit is not None and averager.count() >= limit:
                break
            asked[-1][2].append(question)
            started = time.perf_counter()
            hits = memory.recall(scope, question.question, k=depth, now=conversation.asked_at)
            query_ms.append((time.perf_counter() - started) * 1000)
            ids_of = [[str(hit.record.metadata.get("dia_id"))] for hit in hits]
            ranked = flatten_ranking(ids_of)
            averager.add(question.category_name, score_question(ranked, question, session_of, ks))
            relevance = relevance_by_id(hits, ids_of)
            floor.add_answerable(
                [relevance[d] for d in question.evidence if d in ranked[:depth]], len(question.evidence)
            )
            if on_question is not None:
                on_question()
    _ask_off_topic(memory, asked, floor, depth)
    groups = averager.groups()
    return LocomoResult(
        ks=tuple(ks),
        n=averager.count(),
        overall=averager.means(),
        per_category={group: averager.means(group) for group in groups},
        per_category_n={group: averager.count(group) for group in groups},
        conversations=len(used),
        turns=turns_ingested,
        ingest_seconds=ingest_seconds,
        query_ms=tuple(query_ms),
        repaired_ids=sum(c.repaired_ids for c in used),
        dropped_ids=sum(c.dropped_ids for c in used),
        skipped_questions=sum(c.skipped_questions for c in used),
        floor=floor,
    )


def _ask_off_topic(
    memory: Memory, asked: Sequence[tuple[Scope, Conversation, list[Question]]], floor: FloorTally, k: int
) -> None:
    """Ask each conversation's scored questions in the next conversation's scope, where nothing answers them."""
    if len(asked) < 2:
        return
    for index, (_, _, questions) in enumerate(asked):
        other_scope, other, _ = asked[(index + 1) % len(asked)]
        for question in questions:
            floor.add_unanswerable(memory.recall(other_scope, question.question, k=k, now=other.asked_at))
