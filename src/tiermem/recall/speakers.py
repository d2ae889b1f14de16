"""(internal) Who said a record: its source's name, or the speaker label of a user's transcript line."""

from __future__ import annotations

from tiermem.english.transcript import spoken_line, transcript_speaker
from tiermem.recall.traits import per_record
from tiermem.types import MemoryRecord, SourceKind

__all__ = ["speaker_of", "utterance"]


@per_record
def speaker_of(record: MemoryRecord) -> str | None:
    """The person who said ``record``: its source's name (``user:Ann``), else a user note's label ("Ann: ...")."""
    named = record.source.speaker
    if named is not None or record.source.kind is not SourceKind.USER:
        return named
    return transcript_speaker(record.content)


@per_record
def utterance(record: MemoryRecord) -> bool:
    """Whether ``record`` is a user note that reads as a transcript line: what someone said then, an event.

    A labelled value ("Office: Building 7, room 12") is not: it is a standing fact, and newer ones come first.
    """
    return record.source.kind is SourceKind.USER and spoken_line(record.content)
