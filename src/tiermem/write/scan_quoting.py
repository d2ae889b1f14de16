"""(internal) A memory tool's result judged in parts (``Message.quoting``): the user's quoted notes by their verdicts,
the rest of it scanned as the tool's words.

The agent loop knows what a result it stores quotes; scanning all of it as a tool's words withheld the user's own
rules ("always reply in Portuguese"), which read like orders to the model, from the next prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from types import MappingProxyType

from tiermem.embed import Embedder
from tiermem.message import JUDGED_IN_PARTS, Quoting
from tiermem.trust.injection import REASONS_KEY, SCORE_KEY, InjectionVerdict, ScanLevel, level_of, stored_level
from tiermem.types import MemoryRecord, MetaValue, normalise_text
from tiermem.write.scan import ScanPolicy, scan_records, scan_with_vectors, scanned, stamp

__all__ = ["scan_quoting"]


def scan_quoting(
    records: list[MemoryRecord], quoting: Sequence[Quoting | None], embedder: Embedder | None, policy: ScanPolicy
) -> None:
    """Judge each memory tool's result (``Message.quoting``) by the rest of it and the user's notes it quotes, in place.

    The rest (the result with those notes' quotes left empty) is scanned as its source's words are, classifier
    and judge included; the notes keep the verdicts they were given when written: the user's own rules ("always
    reply in Portuguese") read like orders to the model, and scanned as a tool's words they were withheld from
    the next prompt. The record takes the worst verdict.
    """
    at = [i for i, given in enumerate(quoting) if given is not None]
    if not at:
        return
    rests = [quoting[i].rest for i in at]  # type: ignore[union-attr]
    probes = [_probe(records[i], rest) for i, rest in zip(at, rests, strict=True)]
    unforced: list[bool | None] = [None] * len(probes)
    scan_records(probes, unforced, policy)
    scan_with_vectors(probes, scanned(probes, unforced, policy), embedder, {}, policy)
    for i, probe in zip(at, probes, strict=True):
        level, worst = stored_level(probe) or ScanLevel.CLEAN, _stored_verdict(probe)
        for note in quoting[i].notes:  # type: ignore[union-attr]
            found = level_of(note)
            if _RANK[found] > _RANK[level]:
                level, worst = found, InjectionVerdict(_score_of(note), (f"quotes note {note.id}, judged {found}",))
        records[i] = stamp(replace(records[i], metadata=_marked(records[i])), worst, level)


def _marked(record: MemoryRecord) -> MappingProxyType[str, MetaValue]:
    return MappingProxyType({**record.metadata, JUDGED_IN_PARTS: True})


def _probe(record: MemoryRecord, rest: str) -> MemoryRecord:
    """``record`` as the scan reads it: ``rest`` with its quotes' escapes undone (a line break in a repeated query
    read as a break, not as ``\\n``) and stored as a content is, without the raw text that rebuilds its message."""
    kept = {k: v for k, v in record.metadata.items() if k != "raw"}
    return replace(record, content=normalise_text(_ESCAPE.sub(_unescaped, rest)), metadata=MappingProxyType(kept))


# A JSON string escape: the result quotes texts as JSON strings (``trust.provenance.quote``).
_ESCAPE = re.compile(r'\\(u[0-9a-fA-F]{4}|["\\/bfnrt])')
_SIMPLE = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _unescaped(match: re.Match[str]) -> str:
    code = match.group(1)
    if code[0] == "u":
        char = chr(int(code[1:], 16))
        return " " if 0xD800 <= ord(char) <= 0xDFFF else char
    return _SIMPLE.get(code, code)


def _score_of(record: MemoryRecord) -> float:
    score = record.metadata.get(SCORE_KEY)
    return float(score) if isinstance(score, int | float) else 0.0


def _stored_verdict(record: MemoryRecord) -> InjectionVerdict:
    reasons = record.metadata.get(REASONS_KEY)
    return InjectionVerdict(_score_of(record), tuple(str(reasons).split("; ")) if reasons else ())


_RANK = {ScanLevel.CLEAN: 0, ScanLevel.SUSPICIOUS: 1, ScanLevel.QUARANTINE: 2}
