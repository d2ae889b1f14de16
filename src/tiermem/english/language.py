"""(internal) Whether a text reads as English, asked by the English-only rules before they act.

The rules (named days, perspective, statements, first hand) ask first, so text in another language keeps its
score instead of meeting a rule that misreads it.

French "Tu me conseilles quoi ?" holds the English "me"; "Marie a donné un vélo à son fils" names a speaker in
the third person. Read with English rules, the first is "about the user" and the second is turned into
"I a donné...". The test is cheap and conservative: a text is English unless most of its letters are not ASCII,
or it holds more function words of another common language (French, German, Spanish, Italian, Portuguese,
Dutch) than of English. A text with neither (a name, a single word) counts as English, as before.
"""

from __future__ import annotations

import functools
import re
from typing import Any

__all__ = ["identified_as_english", "looks_english", "reads_as_english_line"]

_ENGLISH = frozenset(
    """the a an and or but of to in on at for with from by is are was were be been am i you he she we they it
    my your his her our their me him us them this that these those what who when where why how which do does
    did not no have has had will would can could should there here about""".split()
)
# Function words of other languages that are not English words too (so "a", "in", "die", "is" are left out).
_OTHER = (
    frozenset(
        """le la les des du une un est et je tu il elle nous vous ils elles mais pour avec dans sur que qui ce
    cette pas ne au aux à chez mon ma mes ton ta tes son sa ses leur leurs été très aussi
    der das und ist nicht ich du er sie wir ihr ein eine einen mit für auf zu von dem den des sind war habe
    hat auch oder aber wie wann wo warum mein meine dein ist
    el los las es y que de en una por para con mi tu su pero muy también cuando donde está son fue
    il lo gli di che è e per non mi ti ci della delle sono era anche quando dove
    o os um uma não meu minha é são foi também
    het een en niet ik je jij hij zij wij mijn jouw ook maar wanneer waar""".split()
    )
    - _ENGLISH
)
_WORD = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=1024)
def looks_english(text: str) -> bool:
    """Whether English rules may read ``text`` (see the module docstring)."""
    words = [w.casefold() for w in _WORD.findall(text)]
    if not words:
        return True
    letters = sum(len(w) for w in words)
    if sum(len(w) for w in words if w.isascii()) * 2 < letters:
        return False
    english = sum(w in _ENGLISH for w in words)
    other = sum(w in _OTHER for w in words)
    return other <= english


_PROSE_SHARE = 0.9
_LINE_WORDS = 6  # an English sentence this long nearly always holds a function word ("to", "the", "of", "is")
_FUNCTION_SHARE = 0.1  # and one in ten of its words or more is one


def reads_as_english_line(line: str) -> bool:
    """Whether one line reads as English: ``looks_english``, and a line that reads as a sentence (six words or more,
    most of them lower case, unlike a name, an address or a row of figures, and mostly letters, unlike code) holds
    English function words, at least one word in ten.

    A sentence in a language the function-word lists do not know (Indonesian, Polish, Swahili) holds few or none.
    """
    if not looks_english(line):
        return False
    # Words as prose has them: letters between spaces, a comma or full stop after; an address or a file name is none.
    words = [t.rstrip(",.:;!?)\"'") for t in line.split()]
    words = [w.lstrip("(\"'") for w in words]
    words = [w for w in words if w.isalpha()]
    if len(words) < _LINE_WORDS or 3 * sum(w[0].islower() for w in words) < 2 * len(words):
        return True
    # Prose is letters and spaces; a line of code or figures ("f(x, mode='ignore')") is punctuation and digits too.
    if sum(c.isalpha() or c.isspace() for c in line) < _PROSE_SHARE * len(line):
        return True
    # English prose is dense with function words; another language's sentence shares a stray one at most (Polish
    # "do", Czech "i", Igbo "a").
    return sum(w.casefold() in _ENGLISH for w in words) >= _FUNCTION_SHARE * len(words)


_SURE = 0.9  # the identifier's probability at which its verdict stands over the word lists
_IDENTIFIED_WORDS = 4  # shorter pieces (a name, a heading) give it too little to go on
# Tokens in no language: anything with a digit, and long unbroken ASCII runs (base64, hex, ids, URLs).
_CODE = re.compile(r"\S*\d\S*|[\x21-\x7e]{25,}")


@functools.cache
def _identifier() -> Any:
    """py3langid's identifier with normalised probabilities (its model ships inside the package), loaded once."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@functools.lru_cache(maxsize=4096)
def identified_as_english(text: str) -> bool | None:
    """Whether a language identifier is sure ``text`` is English (True) or another language (False); None when it
    is unsure or the text is too short to tell."""
    words = [w for w in text.split() if not _CODE.fullmatch(w)]
    if len(words) < _IDENTIFIED_WORDS:
        return None
    language, probability = _identifier().classify(" ".join(words))
    return None if probability < _SURE else language == "en"
