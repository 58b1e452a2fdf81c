"""Tokens for lexical retrieval in English, German and Spanish.

Casefolded, diacritics folded (a judge types `boca arriba` or `Schlachtfeld`, and also `ueber`-less
`uber`), apostrophes dropped (`doesn't` → `doesnt`), function words removed, and a crude shared
suffix stripper so that `verdeckt`/`verdeckte`/`verdeckten` or `reveal`/`revealed`/`reveals` meet.
Stemming all three languages with one rule set is wrong for linguists and right for a few hundred
rulings: it is cheap, predictable, and both the query and the documents go through it.
"""

from __future__ import annotations

import functools
import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+(?:/[a-z0-9]+)?")
_APOSTROPHE = re.compile(r"['’`´]")

STOPWORDS = frozenset(
    # English
    "a an the and or of to in on at by for from with as is are was were be been being it its "
    "this that these those if then than so do does did can could would will shall should may "
    "might must i you he she we they me my your his her our their them what which who whom how "
    "when where why there here not no any some all also only just into onto about after before "
    "while out over such other even still yet get got has have had doesnt dont isnt cant wont "
    "whats thats its im ive youre"
    # German
    " der die das den dem des ein eine einer eines einem einen und oder aber ist sind war waren "
    "wird werden wurde wurden sein bin bist hat habe hast haben zu im in am an auf aus bei mit "
    "von vom zum zur fur uber unter nach vor es sie er ich du wir ihr mich dich mir dir sich "
    "wenn falls ob dass als wie was wer wo warum noch auch nur schon dann denn doch ja nein "
    "nicht kein keine keinen kann kannst konnen muss musst mussen darf darfst soll sollte "
    "man mein meine dein deine sein seine ihre ihren diese dieser dieses jene jener"
    # Spanish
    " el la los las lo un una unos unas y o u de del al en por para con sin que se su sus "
    "es son era fue ser esta estan este esto esa ese eso como cuando si no mi mis tu tus yo "
    "me te le les nos puedo puede pueden hay qué que cual cuál quien pero mas muy ya tambien "
    "todavia sigue siguen"
    .split()
)

# Longest first; a suffix is only stripped when at least four letters remain.
_SUFFIXES = (
    "ungen", "ation", "ingen", "ing", "ern", "ung", "en", "er", "es", "ed", "em", "as", "os",
    "e", "s", "n", "a", "o",
)


_PUNCT = str.maketrans({"\u2014": " ", "\u2013": " ", "\u2022": " ", "\u2212": "-", "\u00a0": " ",
                        "\u2026": " ", "\u201c": '"', "\u201d": '"', "\u2019": "", "\u2018": ""})


def fold(text: str) -> str:
    """Casefolded, diacritics removed, `ß` → `ss`, apostrophes dropped."""
    text = text.casefold().translate(_PUNCT)
    if not text.isascii():  # the per-character pass only where there is something to fold
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _APOSTROPHE.sub("", text)


@functools.lru_cache(maxsize=65536)  # a vocabulary is small; 20,000 Oracle texts repeat it
def stem(word: str) -> str:
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            # English doubles a final consonant before -ed/-ing: tapped, untapping → tap, untap
            if suffix in ("ed", "ing") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]
            return word
    return word


def tokenize(text: str, *, keep_stopwords: bool = False) -> list[str]:
    """Lexical tokens of `text`: folded, stemmed, without function words."""
    words = _WORD.findall(fold(text).replace("-", " "))
    return [stem(w) for w in words if keep_stopwords or w not in STOPWORDS]
