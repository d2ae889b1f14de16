"""(internal) ``tiermem add-messages FILE``: a JSON or JSON Lines transcript written with ``remember_messages``.

The file holds a JSON list of messages, an object ``{"messages": [...], "session"?: ...}``, or one message per
line (JSONL). A message may name its own ``session``; the others take ``--session`` (or the object's). Every
message is checked before anything is written, and an error names the file's line and the field.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from tiermem.cli.database import open_memory, removed_if_failed
from tiermem.cli.options import store_options
from tiermem.errors import ValidationError
from tiermem.jsonl import json_lines, load_json

__all__ = ["add_messages_command"]

_INDEXED = re.compile(r"messages\[(\d+)\]\.?(.*)")


@dataclass(frozen=True, slots=True)
class _Line:
    """A message as read, with the file line it starts on."""

    line: int
    message: dict[str, Any]


def _item_lines(text: str, start: int) -> list[int]:
    """The line each item of the JSON array opening at ``start`` begins on ([] if the array cannot be walked)."""
    decoder = json.JSONDecoder()
    lines: list[int] = []
    pos = start + 1
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return []


def read_transcript(path: Path) -> tuple[list[_Line], str | None]:
    """The messages of a JSON / JSONL transcript with their lines, and the session the file names (if any)."""
    text = path.read_text(encoding="utf-8")
    stripped = text.lstrip()
    if path.suffix != ".jsonl" and stripped[:1] in ("[", "{"):
        try:
            data = load_json(text, str(path))
        except json.JSONDecodeError as exc:
            if not (stripped[:1] == "{" and exc.msg == "Extra data"):  # JSONL that opens with an object
                raise ValidationError(f"{path}, line {exc.lineno}", f"is not valid JSON ({exc.msg})") from None
        else:
            return _from_json(path, text, data)

    def where(number: int) -> str:
        return f"{path}, line {number}"

    return [_Line(number, _object(item, where(number))) for number, item in json_lines(text.splitlines(), where)], None


def _from_json(path: Path, text: str, data: Any) -> tuple[list[_Line], str | None]:
    session = None
    if isinstance(data, dict):
        items, session = data.get("messages"), data.get("session")
        if not isinstance(items, list):
            raise ValidationError(f"{path}", "a JSON object must hold a list under 'messages'")
        match = re.search(r'"messages"\s*:\s*\[', text)
        start = match.end() - 1 if match else -1
    elif isinstance(data, list):
        items, start = data, text.index("[")
    else:
        raise ValidationError(f"{path}", "must hold a list of messages or {'messages': [...]}")
    if session is not None and not isinstance(session, str):
        raise ValidationError(f"{path}, session", "must be a string", given=session)
    lines = _item_lines(text, start) if start >= 0 else []
    if len(lines) != len(items):  # the walk lost its way (an unusual layout): name the index instead
        lines = [0] * len(items)
    return [_Line(n, _object(item, f"{path}, line {n}" if n else f"{path}, message {i}")) for i, (n, item) in
            enumerate(zip(lines, items, strict=True))], session  # fmt: skip


def _object(item: Any, where: str) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise ValidationError(where, "must be a JSON object (a message)", given=type(item).__name__)
    return item


def _sessions(read: list[_Line], default: str | None, path: Path) -> dict[str | None, list[_Line]]:
    """The messages grouped by their session (``default`` for those without one), in file order."""
    groups: dict[str | None, list[_Line]] = {}
    for entry in read:
        session = entry.message.get("session", default)
        if session is not None and not isinstance(session, str):
            raise ValidationError(f"{path}, line {entry.line}, session", "must be a string", given=session)
        groups.setdefault(session, []).append(entry)
    return groups


def _named(exc: ValidationError, entries: list[_Line], path: Path) -> ValidationError:
    """``exc`` with ``messages[i].field`` replaced by the file's line and the field."""
    match = _INDEXED.fullmatch(exc.field)
    if match is None:
        return exc
    entry = entries[int(match[1])]
    where = f"{path}, line {entry.line}" if entry.line else f"{path}, message {int(match[1])}"
    return ValidationError(f"{where}, {match[2] or 'message'}", exc.problem, given=exc.given, limit=exc.limit)


def _payload(entry: _Line) -> dict[str, Any]:
    return {key: value for key, value in entry.message.items() if key != "session"}


@contextmanager
def _progress(total: int) -> Iterator[Callable[[int], None]]:
    """An 'advance by n' callback; a rich progress bar on a terminal."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("messages"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("messages", total=total)
        yield lambda n: bar.advance(task, n)


@click.command("add-messages")
@store_options
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--session", default=None, help="Session of the messages that name none (default: the file's).")
def add_messages_command(
    db: str | None, tenant: str, user: str, embedder: str, as_json: bool, file: Path, session: str | None
) -> None:
    """Remember a conversation transcript (JSON list, {"messages": [...]}, or JSONL): only turns not yet stored."""
    from tiermem.types import Scope
    from tiermem.write.messages import parse_message
    from tiermem.write.path import WriteStatus

    scope = Scope(tenant, user)
    read, named_session = read_transcript(file)
    groups = _sessions(read, session or named_session, file)
    for entries in groups.values():  # every message checked before anything is written
        for i, entry in enumerate(entries):
            try:
                parse_message(_payload(entry), i)
            except ValidationError as exc:
                raise _named(exc, entries, file) from None
    added = unchanged = 0
    with removed_if_failed(db), open_memory(db, embedder, create=True) as mem, _progress(len(read)) as advance:
        for group, entries in groups.items():
            try:
                results = mem.remember_messages(scope, [_payload(e) for e in entries], session=group)
            except ValidationError as exc:
                raise _named(exc, entries, file) from None
            added += sum(r.status is WriteStatus.ADDED for r in results)
            unchanged += sum(r.status is WriteStatus.UNCHANGED for r in results)
            advance(len(entries))
    summary = {"messages": len(read), "sessions": len(groups), "added": added, "unchanged": unchanged}
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    click.echo(f"{len(read)} messages in {len(groups)} session(s): {added} records added, {unchanged} already stored")
