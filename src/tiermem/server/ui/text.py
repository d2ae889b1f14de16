"""(internal) How the inspector shows stored text: hidden characters made visible, long texts clipped.

A note may hold characters a reader cannot see: a right-to-left override that shows "exe.txt" as "txt.exe",
zero-width spaces and joiners that split or glue words, a byte-order mark. ``visible`` escapes the text and
shows each such character as a marked code point (so it no longer acts on the text around it). ``clip`` cuts a
long text for lists; the page offers the whole of it behind "show all".
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from markupsafe import Markup, escape

from tiermem.text_rules import hidden  # the one definition: what the write path refuses as empty

__all__ = ["Clipped", "clip", "hidden_characters", "visible"]

CLIP_CHARS = 300


def hidden_characters(text: str) -> list[str]:
    """The hidden characters of ``text``, each once, as ``U+XXXX NAME``."""
    seen = dict.fromkeys(ch for ch in text if hidden(ch))
    return [_label(ch) for ch in seen]


def _label(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'UNNAMED')}"


def visible(text: str | None) -> Markup:
    """``text`` escaped, with each hidden character shown as a marked code point."""
    if not text:
        return Markup("")
    out: list[str] = []
    plain: list[str] = []
    for ch in text:
        if not hidden(ch):
            plain.append(ch)
            continue
        out.append(str(escape("".join(plain))))
        plain.clear()
        out.append(f'<span class="hidden-char" title="{escape(_label(ch))}">[U+{ord(ch):04X}]</span>')
    out.append(str(escape("".join(plain))))
    return Markup("".join(out))


@dataclass(frozen=True, slots=True)
class Clipped:
    """A text's head for a list, and whether there is more (then the page offers all of it)."""

    head: str
    full: str

    @property
    def more(self) -> bool:
        """The head is not the whole text."""
        return len(self.head) < len(self.full)


def clip(text: str | None, limit: int = CLIP_CHARS) -> Clipped:
    """The first ``limit`` characters of ``text`` (cut at a space where one is near), and the whole."""
    full = text or ""
    if len(full) <= limit:
        return Clipped(full, full)
    cut = full.rfind(" ", limit * 3 // 4, limit)
    return Clipped(full[: cut if cut > 0 else limit].rstrip(), full)
