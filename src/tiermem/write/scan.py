"""(internal) Scanning in the write path: secrets refused, injections quarantined or flagged, per source kind.

Credentials are the write gate's (``write.gate``): a batch holding one in any field is refused whole.
Writes from sources below the user's trust (``tool:``, ``web:``, ``import:``; and whatever a caller marks
with ``NewMemory.scan``) are scored for injection (``trust.injection_score``, and the learned signal of
``trust.learned`` on the note's vectors) under the thresholds of their source kind (``ScanPolicy``). What is
scored is every text the record hands a reader (``write.reader_texts``), not the content alone, and the record
takes the worst verdict. The verdict is stored on the record, so recall reads it instead of scoring: metadata
``injection_verdict`` (clean | suspicious | quarantine), ``injection_score`` and ``injection_reasons``, and the tag
``quarantined`` or ``suspicious``. Default recall never returns a quarantined note (``include_quarantined=True``
shows it); a suspicious one is flagged and down-ranked. An operator releases a note with ``release`` (audited).
The user's own words are not scanned by default: they are the user's instructions to begin with. They carry a
verdict all the same, the read-time check's (``trust.read_time``), so every new record is judged once, when
written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from types import MappingProxyType

import numpy as np

from tiermem.embed import Embedder, Vectors
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
from tiermem.trust.read_time import read_time_score
from tiermem.types import MemoryRecord, MetaValue, Scope, SourceKind
from tiermem.write.judge import HarmJudge
from tiermem.write.reader_texts import CONTENT, judged_note, model_texts, reader_texts
from tiermem.write.scan_foreign import foreign_parts, other_languages, reads_english

__all__ = [
    "ScanPolicy",
    "SourceScan",
    "judge_scanned",
    "learned_applies",
    "release",
    "scan_learned",
    "scan_records",
    "scan_texts",
    "scan_with_vectors",
    "scanned",
    "stamp",
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
    - ``judge``: a ``HarmJudge`` (a chat model) asked about every scanned note the scan leaves below quarantine;
      one it judges harmful is quarantined (``judge_scanned``). Off by default: it costs a model call per note.
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
    judge: HarmJudge | None = None
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
            records[i] = _mark(record, _worst(record, injection_score), policy)
        elif stamp_unscanned:
            verdict = _worst(record, lambda text: InjectionVerdict(*read_time_score(text)))
            flagged = verdict.score >= INJECTION_THRESHOLD or QUARANTINE_TAG in record.tags
            level = ScanLevel.QUARANTINE if flagged else ScanLevel.CLEAN
            if level is ScanLevel.CLEAN and SUSPICIOUS_TAG in record.tags:
                level = ScanLevel.SUSPICIOUS
            records[i] = stamp(record, verdict, level)


def _worst(record: MemoryRecord, score: Callable[[str], InjectionVerdict]) -> InjectionVerdict:
    """The highest of ``score``'s verdicts over the texts ``record`` hands a reader (``write.reader_texts``); its
    reasons name the field when it is not the content."""
    worst: InjectionVerdict | None = None
    for where, text in reader_texts(record):
        verdict = score(text)
        if worst is None or verdict.score > worst.score:
            worst = _named(verdict, where)
    return worst or InjectionVerdict(0.0, ())


def _named(verdict: InjectionVerdict, where: str) -> InjectionVerdict:
    """``verdict`` with reasons that say which field they were found in (the content's say nothing more)."""
    if where == CONTENT:
        return verdict
    return InjectionVerdict(verdict.score, tuple(f"in {where}: {reason}" for reason in verdict.reasons))


def judge_scanned(records: list[MemoryRecord], wanted: Sequence[int], policy: ScanPolicy) -> None:
    """The policy's harm judge on the scanned records at ``wanted`` below quarantine: a harmful one is raised to it."""
    judge = policy.judge
    if judge is None:
        return
    for i in wanted:
        if QUARANTINE_TAG in records[i].tags:
            continue  # quarantined text goes before no model, the judge's included
        judged = judge.judge(judged_note(records[i]))
        at = policy.for_source(records[i].source.kind).quarantine_at if judged.harmful else 0.0
        why = "the harm judge did not answer" if judged.failed else "judged harmful by the model"
        if judged.failed or judged.harmful:
            _raise_record(records, i, partial(_judged, at=at, why=f"{why}: {judged.reason}"), policy)


def _judged(verdict: InjectionVerdict, *, at: float, why: str) -> InjectionVerdict:
    return InjectionVerdict(max(verdict.score, at), (*verdict.reasons, why))


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
        english = [not m and reads_english(p, line=True) for p, m in zip(passages(text), marked, strict=True)]
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


def scan_with_vectors(
    records: list[MemoryRecord],
    wanted: Sequence[int],
    embedder: Embedder | None,
    known: Mapping[int, tuple[Vectors | None, Vectors | None]],
    policy: ScanPolicy,
) -> None:
    """The learned signal on the scanned records at ``wanted``, reusing ``known`` vectors, embedding the others;
    then the policy's harm judge on what is still below quarantine.

    No model pass when no record is scanned, the policy turns the signal off, or the embedder is not the one the
    signal was trained on. With write-behind the write path has no vectors yet: only the scanned notes are
    embedded here, for the scan (user-sourced writes are never scanned, so never pay for it).
    """
    signal = signal_for(embedder.fingerprint) if embedder is not None else None
    if signal is not None and embedder is not None and wanted and policy.learned:
        _scan_learned_vectors(records, wanted, embedder, signal, known, policy)
    judge_scanned(records, wanted, policy)


def _scan_learned_vectors(
    records: list[MemoryRecord],
    wanted: Sequence[int],
    embedder: Embedder,
    signal: LearnedSignal,
    known: Mapping[int, tuple[Vectors | None, Vectors | None]],
    policy: ScanPolicy,
) -> None:
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
    _scan_model_texts(records, wanted, embedder, signal, policy)


def _scan_model_texts(
    records: list[MemoryRecord], wanted: Sequence[int], embedder: Embedder, signal: LearnedSignal, policy: ScanPolicy
) -> None:
    """The sentences each scanned record hands a reader beyond its content (``model_texts``), each read by the rules
    and the classifiers as a content is; a record's verdict is raised to the worst of them."""
    texts = [(i, where, text) for i in wanted for where, text in model_texts(records[i])]
    if not texts:
        return
    flat = [text for _, _, text in texts]
    vectors, parts = embed_with_passages(embedder, flat)
    worst: dict[int, InjectionVerdict] = {}
    for j, ((i, where, text), reading) in enumerate(zip(texts, other_languages(flat, signal), strict=True)):
        verdict = raise_verdict(injection_score(text), read_probability(signal, text, vectors[j], parts[j]), signal)
        verdict = _named(verdict if reading is None else reading.raise_(verdict), where)
        if i not in worst or verdict.score > worst[i].score:
            worst[i] = verdict
    for i, verdict in worst.items():
        _raise_record(records, i, partial(_higher, verdict), policy)


def _higher(found: InjectionVerdict, before: InjectionVerdict) -> InjectionVerdict:
    return found if found.score > before.score else before


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
    return stamp(record, verdict, ScanLevel.of(verdict.score, settings.suspicious_at, settings.quarantine_at))


def stamp(record: MemoryRecord, verdict: InjectionVerdict, level: ScanLevel) -> MemoryRecord:
    """``record`` with ``level``, the verdict's score and its reasons in metadata, and the level's tag."""
    reasons = "; ".join(verdict.reasons)
    if len(reasons) > _MAX_REASONS_CHARS:
        reasons = reasons[: _MAX_REASONS_CHARS - 3] + "..."
    # Reasons left from an earlier verdict, or given by the writer, would pass for this one's (and are not judged).
    kept = {k: v for k, v in record.metadata.items() if k != REASONS_KEY}
    meta: dict[str, MetaValue] = {**kept, VERDICT_KEY: level.value, SCORE_KEY: verdict.score}
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
