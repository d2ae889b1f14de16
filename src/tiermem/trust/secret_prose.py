"""(internal) The word after a password's "is" in a sentence: the password, or the sentence going on.

"The wifi password is sunflower." gives a password; "the password is on the fridge", "... is required" do not.
Other languages say the same ("la contraseña es girasol", "das Passwort ist abgelaufen"): a plain word there is
a password only where the sentence stops and the word is none that tells a state or a quality of the password
(short, expired, wrong, mandatory...), by the word itself or by the ending its language gives such words.
"""

from __future__ import annotations

import re
import unicodedata

from tiermem.trust.secret_placeholders import is_placeholder

__all__ = ["foreign_prose_value", "prose_value"]

# Words that continue a sentence after "password is": the password is *on the fridge*, *required*, *the same*.
_PROSE_WORDS = frozenset(
    "on in at under behind inside near by with without for from of to into onto over above below about the a an "
    "my your his her our their its this that these those same different written saved stored kept somewhere "
    "required needed incorrect wrong correct right invalid valid weak strong long short secure safe unsafe "
    "unknown blank empty missing set reset changed case too very still now not also just only being known new "
    "old easy hard simple complicated good bad fine ok okay optional mandatory temporary encrypted hashed visible "
    "hidden printed listed attached included enclosed there here something anything nothing what whatever "
    "different expired expiring protected sent shared".split()
)
_PROSE_SHAPE = re.compile(r"^[a-z]+(?:ed|ing|ly|ible|able|ful|less|ous|ive)$")


def prose_value(value: str, after: str) -> bool:
    """Whether ``value`` (the word after "password is") is a credential rather than the sentence going on."""
    lower = value.lower()
    # a quality said with its negation ("insecure", "unsafe", "nonstandard") is a quality all the same
    negated = re.match(r"(?:in|un|non|dis)(?P<word>[a-z]{4,})$", lower)
    if negated is not None and negated["word"] in _PROSE_WORDS:
        return False
    if lower in _PROSE_WORDS or _PROSE_SHAPE.match(lower) or is_placeholder(value):
        return False
    if re.search(r"\d|[^\w]", value) or value != value.lower():
        return True  # password-shaped: a digit, a symbol or a capital inside
    # One plain word: a credential only where the sentence stops ("the wifi password is sunflower.").
    return not re.match(r"\s+[A-Za-z]", after)


# What a sentence in Spanish, Portuguese, Italian, French, German, Dutch or Polish says a password is when it gives
# none: its length, strength, state, novelty or where it is (written here without accents, as compared).
_FOREIGN_PROSE_WORDS = frozenset(
    # Spanish, Portuguese, Italian
    "corta corto larga largo longa longo lunga debil fuerte forte fraca debole segura seguro sicura insegura "
    "insicura incorrecta incorrecto incorreta incorreto correcta correcto correta correto corretta sbagliata errata "
    "errada erronea nueva nuevo nova novo nuova vieja viejo velha vecchia antigua antiguo antiga igual misma mismo "
    "mesma uguale stessa diferente distinta distinto diversa otra otro outra altra obligatoria obligatorio "
    "obrigatoria obbligatoria opcional facoltativa valida invalida secreta secreto segreta privada privado privata "
    "temporal temporaria temporanea facil dificil facile difficile simple simples semplice vacia vazia vuota "
    "buena mala boa certa giusta aqui ali alli qui personal personale pessoal segredo segreto confidencial "
    "confidenziale predeterminada padrao ninguna ninguno nenhuma nessuna "
    # French
    "court courte longue faible fort sur sure correct correcte incorrect incorrecte nouveau nouvelle ancien "
    "ancienne meme pareil autre obligatoire facultatif facultative valide invalide secret secrete prive privee "
    "temporaire vide trop tres faux fausse juste bon bonne mauvais mauvaise expire change modifie bloque oublie "
    "reinitialise enregistre sauvegarde perdu verrouille desactive active requis exige demande envoye partage "
    "chiffre cache masque affiche personnel personnelle confidentiel defaut aucun aucune "
    # German
    "kurz lang schwach stark sicher unsicher falsch richtig korrekt neu neue neues alt alte altes gleich gleiche "
    "dasselbe anders andere pflicht gultig ungultig geheim privat temporar einfach schwierig leer bekannt "
    "unbekannt hier dort gut schlecht immer noch sehr standard pflichtfeld pflichtangabe keine keines "
    # Dutch
    "kort zwak sterk veilig onveilig fout onjuist juist nieuw oud oude hetzelfde verplicht optioneel geldig "
    "ongeldig tijdelijk makkelijk moeilijk daar goed slecht standaard geen "
    # Polish
    "krotkie dlugie slabe silne bezpieczne bledne zle poprawne prawidlowe nieprawidlowe nowe stare inne wymagane "
    "obowiazkowe wazne tajne proste trudne puste sekret tajemnica brak "
    # Danish, Norwegian, Swedish
    "forkert feil fel ratt rigtig riktig gammel gammal gamle gamla nyt nytt kort lang svag svak stark sterk sikker "
    "saker usikker osaker gyldig ugyldig giltig ogiltig midlertidig tillfallig glemt glomt last laast last spaerret "
    "sperret sparrat udlobet utlopt utgatt utganget aendret endret andrat skiftet byttet bytt".split()
)
# Endings the languages give a past participle, an adjective or an abstract noun: "caducada", "scaduta",
# "obligatoria", "expiré", "abgelaufen", "verlopen", "erforderlich", "gewijzigd", "ottimizzazione", "Sicherheit".
_FOREIGN_PROSE_SHAPE = re.compile(
    r"^[a-z]+(?:ad[oa]s?|id[oa]s?|at[oaie]|ut[oaie]|bles?|vel|veis|bile|ori[oa]s?|os[oa]s?|iv[oa]s?|ente|ante|mente"
    r"|ees?|lich|ig|bar|los|sam|isch|lijk|baar|loos"
    r"|zione|sione|cion|sion|cao|tion|ung|heit|keit|schaft|ismo|ismus|isme|dade|idad)$"
    r"|^(?:ab|an|auf|aus|ein|mit|nach|vor|weg|zu|zuruck|um)?ge[a-z]{2,}(?:t|en|d)$"
    r"|^(?:be|er|ver|zer|ent|ont|her)[a-z]{2,}(?:t|en|d)$"
    # a participle in Danish, Norwegian or Swedish: "udløbet", "nulstillet", "blokeret", "återställt"
    r"|^(?:ud|ut|til|op|af|om|fra|ater|nul)[a-z]{3,}(?:et|t)$|^[a-z]{3,}(?:eret|illet|ndret|ndrat|stilt|stallt)$"
)
# How a sentence that goes on after the value may end it: a full stop, a comma, a closing quote, the line's end.
_STOPS = re.compile(r"[\"'\u201d\u00bb]?(?:[.!?;,]*\s*$|[.!?;,]*\s*\n|[.!?;,]+\s)")


def foreign_prose_value(value: str, after: str, *, neuter: bool = False) -> bool:
    """Whether a plain word after a password's "is" in another language is the password: at the end of the
    sentence, and no word telling a state or a quality; ``neuter``: the label is a neuter noun whose adjectives
    end in "e" (Polish "hasło"), so such a word is one."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", value) if not unicodedata.combining(c)).lower()
    bare = bare.replace("\u0142", "l").replace("\u00f8", "o").replace("\u00e6", "ae")  # letters NFKD keeps whole
    if not value[1:].islower():
        return False  # capitals inside: a product's name ("KeePassXC"), which a password shaped so is read elsewhere
    if len(bare) < 5 or not bare.isalpha() or bare in _FOREIGN_PROSE_WORDS or bare in _PROSE_WORDS:
        return False
    if _FOREIGN_PROSE_SHAPE.match(bare) or _PROSE_SHAPE.match(bare) or is_placeholder(value):
        return False
    if neuter and bare.endswith("e"):
        return False
    return _STOPS.match(after) is not None
