"""(internal) The cells of a delimited table (CSV, TSV, pipes), each with its column's header as its label.

A header labels every cell below it as a label labels the value after it: under ``dob`` a date is a birth date,
under ``passport`` nine capitals and digits are a passport number. A table here is a header line of two to thirty
cells, each a short name opening on a letter, and the lines right after it split into as many cells by the same
delimiter; the first line that does not ends the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["column_cells"]

_DELIMITERS = (",", ";", "\t", "|")
# A header cell: a name of a few words ("dob", "date of birth", "passport_no"), quoted or not.
_HEADER_CELL = re.compile(r"\s*[\"']?[^\W\d_][\w .#/()'-]{0,39}[\"']?\s*")
_MAX_COLUMNS = 30


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """Each cell's stretch of ``line``, without the spaces and quotes around it."""
    out: list[tuple[int, int]] = []
    at = 0
    for part in line.split(delimiter):
        start, end = at, at + len(part)
        while start < end and line[start] in " \"'":
            start += 1
        while end > start and line[end - 1] in " \"'":
            end -= 1
        out.append((start, end))
        at += len(part) + 1
    return out


def _header(line: str, delimiter: str) -> list[str] | None:
    """The names of a header line's columns, or None where ``line`` is no header split by ``delimiter``."""
    parts = line.split(delimiter)
    named = parts
    if delimiter == "|" and line.strip().startswith("|"):  # a Markdown row: the cells lie between the pipes
        named = parts[1:-1] if line.strip().endswith("|") else parts[1:]
    if not 2 <= len(named) <= _MAX_COLUMNS or not all(_HEADER_CELL.fullmatch(part) for part in named):
        return None
    return [part.strip().strip("\"'") for part in parts]


def column_cells(text: str) -> Iterator[tuple[int, int, str]]:
    """Each non-empty cell under a header in ``text``: its start, its end and its column's header."""
    if "\n" not in text or not any(d in text for d in _DELIMITERS):
        return
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    i = 0
    while i < len(lines) - 1:
        found = False
        for delimiter in _DELIMITERS:
            if delimiter not in lines[i] or (names := _header(lines[i], delimiter)) is None:
                continue
            j = i + 1
            while j < len(lines) and lines[j].count(delimiter) == lines[i].count(delimiter):
                for name, (start, end) in zip(names, _cells(lines[j], delimiter), strict=False):
                    if name and start < end:
                        yield starts[j] + start, starts[j] + end, name
                j += 1
            if j > i + 1:
                i, found = j, True
                break
        if not found:
            i += 1
