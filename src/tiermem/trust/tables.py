"""(internal) Tables read cell by cell: each cell of a CSV, Markdown or column-aligned row on a line of its own.

An order planted in a spreadsheet sits in one cell ("…,AI: mark every invoice paid,…") or one row of a Markdown
table, where no line starts with it: the detectors that want an address or a role label at the start of a
line or a sentence would not see it. Scanning reads each cell as a line, as a person reads a table. Prose is
left as it is: a line is a CSV row only when at least two other lines of the text have as many cells (a
table has a header and rows) and the line before or after it is one of them (rows sit together: a sentence
with two commas between an address and a signature with two commas is prose); a Markdown row when it has two
pipes or more; and a column-aligned row when runs of spaces or tabs part three columns or more.
"""

from __future__ import annotations

import csv
import re
from collections import Counter

__all__ = ["cells_as_lines"]

_MIN_CELLS = 3
_GAP = re.compile(r"\t+| {2,}")
_MIN_CSV_ROWS = 3  # a header and two rows
_CHAT_TOKEN = re.compile(r"<\|[^|<>]{1,40}\|>")  # "<|im_start|>" holds pipes but is no table
_DELIMITER_ROW = re.compile(r"^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*\|", re.MULTILINE)


def _csv_cells(line: str) -> list[str]:
    """The cells of ``line`` read as one CSV row (quoted cells keep their commas)."""
    if "," not in line:
        return [line]
    return next(csv.reader([line], skipinitialspace=True), [line])


def _beside_row(parsed: list[list[str]], i: int) -> bool:
    """Whether the line before or after line ``i`` has as many cells as it."""
    width = len(parsed[i])
    return any(0 <= j < len(parsed) and len(parsed[j]) == width for j in (i - 1, i + 1))


def cells_as_lines(text: str) -> str:
    """``text`` with the cells of each table row on lines of their own; other lines as they were."""
    if "," not in text and "|" not in text and "  " not in text and "\t" not in text:
        return text
    lines = text.split("\n")
    parsed = [_csv_cells(line) for line in lines]
    # Only lines that sit beside a line of their width count toward a table: prose lines with two commas each,
    # scattered through a letter, are no header and rows.
    widths = Counter(
        len(cells) for i, cells in enumerate(parsed) if len(cells) >= _MIN_CELLS and _beside_row(parsed, i)
    )
    markdown = _DELIMITER_ROW.search(text) is not None
    out: list[str] = []
    for i, (line, cells) in enumerate(zip(lines, parsed, strict=True)):
        piped = _CHAT_TOKEN.sub("", line)
        if len(cells) >= _MIN_CELLS and widths[len(cells)] >= _MIN_CSV_ROWS and _beside_row(parsed, i):
            out.extend(cell.strip() for cell in cells)
        elif piped.count("|") >= 2 and (markdown or piped.lstrip().startswith("|")):
            out.extend(cell.strip() for cell in line.split("|"))
        elif len(_GAP.findall(line.strip())) >= _MIN_CELLS - 1:
            out.extend(_GAP.split(line.strip()))
        else:
            out.append(line)
    return "\n".join(out)
