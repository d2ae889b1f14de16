"""(internal) LongMemEval: stream questions, ingest each haystack, score session- and turn-level retrieval."""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

from tiermem.errors import ValidationError
from tiermem.eval.floor import FloorTally, relevance_by_id
from tiermem.eval.metrics import (
    Averager,
    day_after_last,
    flatten_ranking,
    latency_json,
    ndcg_at_k,
    rank_sessions,
    recall_all,
    recall_any,
)
from tiermem.memory import Memory
from tiermem.types import Scope
from tiermem.write.messages import visible

__all__ = [
    "SESSION_DEPTH",
    "LmeQuestion",
    "LmeResult",
    "LmeTurn",
    "iter_json_array",
    "iter_longmemeval",
    "parse_lme_date",
    "run_longmemeval",
]

# Turns retrieved per question: enough to rank sessions by their best turn (the store caps k at 100).
SESSION_DEPTH = 50
MAX_DEPTH = 100
REOPEN_EVERY = 20
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class LmeTurn:
    """One haystack turn; ``key`` is unique within the question (session position : turn index)."""

    key: str
    session_id: str
    role: str
    content: str
    has_answer: bool
    time: datetime


@dataclass(frozen=True, slots=True)
class LmeQuestion:
    """One LongMemEval question with its flattened haystack."""

    question_id: str
    question_type: str
    question: str
    answer_session_ids: tuple[str, ...]
    turns: tuple[LmeTurn, ...]
    question_date: datetime | None = None

    @property
    def asked_at(self) -> datetime:
        """When the user asked: its question_date, else a day after its last session ("yesterday" counts from it)."""
        if self.question_date is not None:
            return self.question_date
        return day_after_last(turn.time for turn in self.turns)

    @property
    def abstention(self) -> bool:
        """Abstention questions ('_abs' in the id) have no evidence to retrieve."""
        return "_abs" in self.question_id


def parse_lme_date(text: str) -> datetime:
    """Parse a LongMemEval date such as '2023/04/21 (Fri) 07:24' (taken as UTC)."""
    try:
        return datetime.strptime(text.strip(), "%Y/%m/%d (%a) %H:%M").replace(tzinfo=UTC)
    except ValueError:
        raise ValidationError("haystack date", "expected a form like '2023/04/21 (Fri) 07:24'", given=text) from None


def parse_question(raw: Mapping[str, Any], where: str = "entry") -> LmeQuestion:
    """Build an LmeQuestion from one raw LongMemEval entry (``where`` names it in errors)."""
    qid = str(raw.get("question_id", "?"))
    where = f"{where} (question_id {qid})"
    try:
        sessions = raw["haystack_sessions"]
        session_ids = raw["haystack_session_ids"]
        dates = raw["haystack_dates"]
        if not len(sessions) == len(session_ids) == len(dates):
            raise ValidationError(where, "haystack_sessions, _session_ids and _dates differ in length")
        numbered = enumerate(zip(sessions, session_ids, dates, strict=True))
        turns = [
            LmeTurn(
                key=f"{s_index}:{t_index}",
                session_id=str(session_id),
                role=str(turn["role"]),
                content=str(turn["content"]),
                has_answer=bool(turn.get("has_answer", False)),
                time=parse_lme_date(date),
            )
            for s_index, (session, session_id, date) in numbered
            for t_index, turn in enumerate(session)
        ]
        return LmeQuestion(
            question_id=qid,
            question_type=str(raw["question_type"]),
            question=str(raw["question"]),
            answer_session_ids=tuple(str(s) for s in raw.get("answer_session_ids") or ()),
            turns=tuple(turns),
            question_date=parse_lme_date(raw["question_date"]) if raw.get("question_date") else None,
        )
    except (KeyError, TypeError) as exc:
        raise ValidationError(where, f"is not a LongMemEval entry (missing or malformed {exc})") from None


def iter_json_array(fh: IO[str], *, chunk_size: int = _CHUNK) -> Iterator[Any]:
    """Yield the items of a top-level JSON array one at a time, holding about one item in memory."""
    decoder = json.JSONDecoder()
    buf, pos, eof = "", 0, False
    read_size = chunk_size
    state = "open"  # then "first" (an item or ']'), "sep" (',' or ']'), "item" (after a ',')
    while True:
        pos = _skip_ws(buf, pos)
        if pos < len(buf):
            char = buf[pos]
            if state == "open":
                if char != "[":
                    raise ValidationError("data", "expected a JSON array ('[' first)", given=char)
                state, pos = "first", pos + 1
                continue
            if state == "sep" or (state == "first" and char == "]"):
                if char == "]":
                    return
                if char != ",":
                    raise ValidationError("data", "expected ',' or ']' between array items", given=char)
                state, pos = "item", pos + 1
                continue
            try:
                item, end = decoder.raw_decode(buf, pos)
            except json.JSONDecodeError:
                end = -1
            # An item ending exactly at the buffer's end may be cut short (a number): read on to be sure.
            if end != -1 and (end < len(buf) or eof):
                yield item
                buf, pos, state, read_size = buf[end:], 0, "sep", chunk_size
                continue
        if eof:
            raise ValidationError("data", "the JSON array is truncated or malformed")
        more = fh.read(read_size)
        eof = not more
        buf, pos = buf[pos:] + more, 0
        # Double the read while one item spans many chunks so re-parsing it stays linear overall.
        read_size *= 2


def _skip_ws(buf: str, pos: int) -> int:
    while pos < len(buf) and buf[pos] in " \t\r\n":
        pos += 1
    return pos


def _open_text(path: Path) -> IO[str]:
    with path.open("rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


def iter_longmemeval(path: Path) -> Iterator[LmeQuestion]:
    """Stream the questions of a .json / .json.gz array or a .jsonl file (gzip detected by content)."""
    with _open_text(path) as fh:
        first = ""
        while not first:
            char = fh.read(1)
            if not char:
                return
            if not char.isspace():
                first = char
        fh.seek(0)
        if first == "[":
            items: Iterator[Any] = iter_json_array(fh)
        else:
            items = (json.loads(line) for line in fh if line.strip())
        try:
            for number, item in enumerate(items, start=1):
                where = f"{path} entry {number}"
                if not isinstance(item, dict):
                    raise ValidationError(where, "must be a JSON object", given=type(item).__name__)
                yield parse_question(item, where)
        except json.JSONDecodeError as exc:
            raise ValidationError(str(path), f"is not valid JSON Lines ({exc})") from None


@dataclass(frozen=True, slots=True)
class LmeResult:
    """Session- and turn-level recall_any / recall_all / nDCG at each k, overall and per question type."""

    ks: tuple[int, ...]
    n: int
    session: Mapping[str, float]
    turn: Mapping[str, float]
    per_type: Mapping[str, Mapping[str, Mapping[str, float]]]
    per_type_n: Mapping[str, int]
    turns: int
    ingest_seconds: float
    query_ms: tuple[float, ...] = field(repr=False)
    skipped_abstention: int = 0
    skipped_no_evidence: int = 0
    floor: FloorTally | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The JSON report: ``n``, ``session``, ``turn`` and ``per_type`` (same shape inside), timings."""
        return {
            "n": self.n,
            "session": dict(self.session),
            "turn": dict(self.turn),
            "per_type": {
                name: {"n": self.per_type_n[name], **{lvl: dict(v) for lvl, v in levels.items()}}
                for name, levels in self.per_type.items()
            },
            "timing": {
                "ingest_seconds": self.ingest_seconds,
                "turns": self.turns,
                **latency_json(self.query_ms),
            },
            "data": {
                "skipped_abstention": self.skipped_abstention,
                "skipped_no_evidence": self.skipped_no_evidence,
            },
            **({"relevance": self.floor.to_json(label="abstention")} if self.floor is not None else {}),
        }


def score_rankings(ranked: Sequence[str], gold: Collection[str], ks: Sequence[int], prefix: str) -> dict[str, float]:
    """recall_any@k, recall_all@k and ndcg@k for each k, names prefixed with ``prefix``."""
    scores: dict[str, float] = {}
    for k in ks:
        scores[f"{prefix}recall_any@{k}"] = recall_any(ranked, gold, k)
        scores[f"{prefix}recall_all@{k}"] = recall_all(ranked, gold, k)
        scores[f"{prefix}ndcg@{k}"] = ndcg_at_k(ranked, gold, k)
    return scores


def score_question(ranked_turns: Sequence[str], question: LmeQuestion, ks: Sequence[int]) -> dict[str, float]:
    """Session-level (prefix ``session.``) and turn-level (``turn.``) scores of one turn ranking."""
    present = {turn.session_id for turn in question.turns}
    gold_sessions = {sid for sid in question.answer_session_ids if sid in present}
    gold_turns = {turn.key for turn in question.turns if turn.has_answer}
    session_of = {turn.key: turn.session_id for turn in question.turns}
    scores = score_rankings(rank_sessions(ranked_turns, session_of), gold_sessions, ks, "session.")
    if gold_turns:
        scores.update(score_rankings(ranked_turns, gold_turns, ks, "turn."))
    return scores


def run_longmemeval(
    open_memory: Callable[[], Memory],
    questions: Iterator[LmeQuestion],
    ks: Sequence[int],
    *,
    tenant: str = "eval",
    limit: int | None = None,
    on_question: Callable[[], None] | None = None,
    context_turns: int = 1,
) -> LmeResult:
    """Ingest each question's haystack into a fresh scope, recall, and score up to ``limit`` questions.

    Each session is written with ``Memory.remember_messages`` (role, time, session, and the ``context_turns``
    turns before each turn as its search context) and asked at the question's date: the path users take.
    """

    depth = min(MAX_DEPTH, max(SESSION_DEPTH, *ks))
    averager = Averager()
    floor = FloorTally(10)
    query_ms: list[float] = []
    ingest_seconds = 0.0
    turns_ingested = skipped_abs = skipped_none = scopes_open = 0
    memory = open_memory()
    try:
        for index, question in enumerate(questions):
            if limit is not None and averager.count() >= limit:
                break
            present = {turn.session_id for turn in question.turns}
            if not question.abstention and not present.intersection(question.answer_session_ids):
                skipped_none += 1
                continue
            if scopes_open == REOPEN_EVERY:
                # The store caches every scope's vectors for the life of the connection; reopening the same
                # database file drops that cache so memory stays bounded however many questions stream by.
                memory.close()
                memory, scopes_open = open_memory(), 0
            scopes_open += 1
            scope = Scope(tenant, f"lme-{index}")
            started = time.perf_counter()
            turns_of = _ingest(memory, scope, question, context_turns)
            ingest_seconds += time.perf_counter() - started
            turns_ingested += len(question.turns)
            started = time.perf_counter()
            hits = memory.recall(scope, question.question, k=depth, now=question.asked_at)
            if question.abstention:  # nothing to find: measured by the relevance floor, not scored for recall
                skipped_abs += 1
                floor.add_unanswerable(hits)
                continue
            query_ms.append((time.perf_counter() - started) * 1000)
            ids_of = [turns_of.get(hit.record.id) or [str(hit.record.metadata.get("turn"))] for hit in hits]
            ranked = flatten_ranking(ids_of)
            averager.add(question.question_type, score_question(ranked, question, ks))
            gold = [turn.key for turn in question.turns if turn.has_answer]
            if gold:
                relevance = relevance_by_id(hits, ids_of)
                floor.add_answerable([relevance[t] for t in gold if t in ranked[: floor.k]], len(gold))
            if on_question is not None:
                on_question()
    finally:
        memory.close()
    groups = averager.groups()
    return LmeResult(
        ks=tuple(ks),
        n=averager.count(),
        session=_level(averager.means(), "session."),
        turn=_level(averager.means(), "turn."),
        per_type={
            g: {"session": _level(averager.means(g), "session."), "turn": _level(averager.means(g), "turn.")}
            for g in groups
        },
        per_type_n={g: averager.count(g) for g in groups},
        turns=turns_ingested,
        ingest_seconds=ingest_seconds,
        query_ms=tuple(query_ms),
        skipped_abstention=skipped_abs,
        skipped_no_evidence=skipped_none,
        floor=floor,
    )


def _ingest(memory: Memory, scope: Scope, question: LmeQuestion, context_turns: int = 1) -> dict[str, list[str]]:
    """Write the haystack, a session at a time, with ``remember_messages``; return the turn key of each record."""
    turns_of: dict[str, list[str]] = {}
    for position, session in enumerate(_sessions(question.turns)):
        # A turn that shows nothing (empty, or hidden characters alone) is no message, as for ``remember_messages``;
        # a haystack may repeat a session id, so the session is its position.
        messages = [
            {"role": t.role, "content": t.content, "created_at": t.time, "metadata": {"turn": t.key}}
            for t in session
            if visible(t.content)
        ]
        if messages:
            written = memory.remember_messages(scope, messages, session=f"s{position}", context_turns=context_turns)
            for result in written:
                turns_of.setdefault(result.record.id, []).append(str(result.record.metadata["turn"]))
    return turns_of


def _sessions(turns: Sequence[LmeTurn]) -> list[list[LmeTurn]]:
    """The turns grouped by session position (the key's first part), in order."""
    groups: dict[str, list[LmeTurn]] = {}
    for turn in turns:
        groups.setdefault(turn.key.split(":", 1)[0], []).append(turn)
    return list(groups.values())


def _level(means: Mapping[str, float], prefix: str) -> dict[str, float]:
    return {name.removeprefix(prefix): value for name, value in means.items() if name.startswith(prefix)}
