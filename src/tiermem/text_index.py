"""Text as a full-text index sees it, in any language: folded words, and CJK runs as overlapping character pairs.

A word tokenizer (SQLite FTS5's ``unicode61``, PostgreSQL's ``simple`` parser) splits text at spaces and
punctuation. That fails twice outside English:

- Chinese and Japanese are written without spaces, so a whole clause is one "word" and a search for one of its
  words never matches. Here each run of CJK characters becomes its overlapping character pairs (bigrams, as
  Lucene's CJK analyzer and most CJK search engines index them): 「私の犬の名前」 → 私の の犬 犬の の名 名前, so
  a query word of two characters or more matches the pairs it is made of. A Han ideograph also stands alone
  (犬 "dog" is a word of one character), so each one is indexed by itself too; a query of one character looks
  for that. Korean Hangul is treated the same way (its words carry particles: 사과를 → 사과 과를).
- Diacritics: ``unicode61``'s ``remove_diacritics`` folds Latin letters only (``καφές`` keeps its accent), and
  PostgreSQL's parser folds none. Here text is NFKC-normalised, case-folded, and the combining diacritical
  marks are dropped in every script that writes them as optional accents (the generic diacritic blocks used by
  Latin, Greek and Cyrillic, Hebrew points, Arabic harakat). Marks that are letters' own parts (Indic vowel
  signs, Japanese voicing marks) are kept: dropping them would merge different words.

The same transformation must be applied to what is indexed (``index_text``) and to what is asked
(``query_words``), in every store: SQLite indexes ``index_text(content)`` through a SQL function, PostgreSQL
builds its ``tsvector`` from the words the same FTS5 tokenizer makes of that string (``store/fulltext``).
English text (ASCII) comes out as its own lower case, so a store's English ranking does not move.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["INDEX_FUNCTION", "fold", "index_text", "is_cjk", "query_words"]

INDEX_FUNCTION = "tiermem_index_text"
"""The name SQL triggers call ``index_text`` by (registered on each SQLite connection)."""

# Combining marks that are accents, not letters: the generic diacritic blocks (Latin, Greek, Cyrillic ...),
# Hebrew points and cantillation, Arabic harakat.
_DIACRITICS = re.compile(
    "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5"
    "\u05c7\u064b-\u065f\u0670]"
)
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_KANA = "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
# Kana voicing marks (\u3099 \u309a) join the run: they are part of the syllable, not an accent.
_CJK_RUN = re.compile(f"[{_HAN}{_KANA}{_HANGUL}\u3099\u309a]+")
_HAN_CHAR = re.compile(f"[{_HAN}]")
_WORD = re.compile(r"\w+")


@functools.lru_cache(maxsize=4096)
def _fold_word(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", word).casefold())
    return unicodedata.normalize("NFC", _DIACRITICS.sub("", decomposed))


def fold(text: str) -> str:
    """``text`` NFKC-normalised, case-folded and without accents (``Müll`` → ``mull``); ASCII is only lowered."""
    if text.isascii():
        return text.lower()
    # Folded piece by piece (cached): long texts repeat their words.
    return "".join(_fold_word(piece) for piece in re.split(r"(\s+)", text))


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a Chinese, Japanese or Korean character."""
    return not text.isascii() and _CJK_RUN.search(text) is not None


def _pairs(run: str, *, singles: bool) -> list[str]:
    if len(run) == 1:
        return [run]
    out = [run[i : i + 2] for i in range(len(run) - 1)]
    if singles:
        out += [c for c in dict.fromkeys(run) if _HAN_CHAR.fullmatch(c)]
    return out


def _split_runs(text: str, *, singles: bool) -> str:
    return _CJK_RUN.sub(lambda m: " " + " ".join(_pairs(m.group(0), singles=singles)) + " ", text)


def index_text(text: str | None) -> str | None:
    """What a word tokenizer should index for ``text``: folded, CJK runs as pairs (and Han characters alone)."""
    if text is None:
        return None
    folded = fold(text)
    return _split_runs(folded, singles=True) if is_cjk(folded) else folded


def query_words(text: str) -> list[str]:
    """The words of a query as the index holds them, in order (repeats kept): folded, CJK runs as pairs."""
    folded = fold(text)
    if is_cjk(folded):
        folded = _split_runs(folded, singles=False)
    return _WORD.findall(folded)
