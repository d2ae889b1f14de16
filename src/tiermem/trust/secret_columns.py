"""(internal) A password in a table's column named for one: a CSV or TSV export of logins, a Markdown table.

A header cell labels every cell below it as a label labels the value after it, so a cell under ``password`` (or
``pwd``, ``Passwort``, ``wifi password``) is read as a password's value is after its label: it counts when shaped
like one. An empty cell is no password, nor is a placeholder or a hash's parameters under such a header; a header
naming a property of a password (``password_changed``, ``password hint``) labels no password at all.

The write gate reads a note in its stored form, its line breaks joined into spaces, so a CSV table is read so too:
a header of names with no space in them, then rows whose last and first cells the join has run together.
"""

from __future__ import annotations

import re

from tiermem.trust.pii_columns import column_cells
from tiermem.trust.secret_labels import a_property_value
from tiermem.trust.secret_passwords import shaped

__all__ = ["column_password"]

# A header that ends in a password's name: the words before it say whose ("admin password", "wifi_pass").
_PASSWORD_HEADER = re.compile(
    r"(?i)(?:[^\W\d_][\w .#/-]*?[\s_.\-])?"
    r"(?:pass(?:word|wd|phrase|code)?|pwd|pw|passwort|kennwort|wachtwoord|contrase[ñn]a|senha|mot de passe|mdp"
    r"|l[öo]senord(?:et)?|salasana|has[łl]o|heslo|[şs]ifre|пароль|adgangskode|passord)"
)
# A CSV header on a joined line: two to thirty names with no space in them, the last one ending at a space.
_JOINED_HEADER = {
    delimiter: re.compile(rf"(?<!\S)[^\W\d_][\w.#/\-]*(?:{delimiter}[^\W\d_][\w.#/\-]*){{1,29}}(?=\s)")
    for delimiter in (",", ";")
}


def _a_password(value: str) -> bool:
    return shaped(value) and not a_property_value(value)


def column_password(text: str) -> bool:
    """Whether a cell under a header naming a password holds a value shaped like one."""
    if "\n" in text:
        cells = column_cells(text)
        return any(_PASSWORD_HEADER.fullmatch(name.strip()) and _a_password(text[s:e]) for s, e, name in cells)
    return any(_joined_password(text, delimiter, pattern) for delimiter, pattern in _JOINED_HEADER.items())


def _joined_password(text: str, delimiter: str, header: re.Pattern[str]) -> bool:
    """Whether a table whose rows were joined by spaces holds a password under a password's header. Split at the
    delimiter, the header's last name and each row's last cell share a part with the next row's first cell, so
    column ``k`` of row ``r`` is part ``r * (n - 1) + k``; a first or last column is a word of a shared part."""
    for m in header.finditer(text):
        names = m.group(0).split(delimiter)
        columns = [k for k, name in enumerate(names) if _PASSWORD_HEADER.fullmatch(name)]
        parts = text[m.start() :].split(delimiter)
        width = len(names) - 1
        if not columns or (len(parts) - 1) % width:
            continue  # no password's column, or cells that do not fill whole rows: no table
        for row in range(1, (len(parts) - 1) // width):
            for k in columns:
                cell = parts[row * width + k].strip()
                if k == width:  # the last column: the first word of the part it shares with the next row
                    cell = cell.split(" ", 1)[0]
                elif k == 0:  # the first: the last word of the part it shares with the row before
                    cell = cell.rsplit(" ", 1)[-1]
                if _a_password(cell):
                    return True
    return False
