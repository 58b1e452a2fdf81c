"""Language detection for rulings and questions in English, German and Spanish.

Rulings are long, questions short; both are told apart by function words and a few letters
that only one of the three languages uses. A general-purpose detector (langid, lingua) knows
about a hundred languages and is less sure on a six-word question than this closed choice of three.
"""

from __future__ import annotations

import re
from typing import Callable, Collection

from kb.model import Lang

# The languages by code, as a sentence names them ("a es text" reads badly).
LANGUAGE_NAMES = {"en": "English", "de": "German", "es": "Spanish"}

_WORD = re.compile(r"[a-zäöüßáéíóúñ¿¡]+")

# Frequent function words and domain words, chosen to be unambiguous between the three languages.
_MARKERS: dict[Lang, frozenset[str]] = {
    Lang.EN: frozenset(
        "the and of to is it its that this with you your if can can't doesn't don't isn't "
        "won't it's be are was were an or as by from on at does do what when which who how "
        "would will has have face down up creature card turn turned battlefield".split()
    ),
    Lang.DE: frozenset(
        "der die das und ist nicht ein eine einer eines einen dem den des du dich dir sie "
        "es wenn falls wird werden kann kannst auch mit von zu im auf aus bei oder sich "
        "noch wie was wer wann ob verdeckt verdeckte verdeckten aufdecken aufgedeckt karte "
        "kreatur bleibende bleibenden schlachtfeld spiel zauberspruch getappt offenlegen "
        "manifestiert manifestieren".split()
    ),
    Lang.ES: frozenset(
        "el la los las y es que un una de del en por con para se su sus lo le al si no "
        "como cuando puedo puede qué cómo cuál boca abajo arriba criatura carta campo batalla "
        "hechizo girada girado permanente manifestar manifestada revelar".split()
    ),
}
_ONLY = {Lang.DE: set("äöüß"), Lang.ES: set("ñáíóú¿¡")}
SHORT_TEXT = 2  # words: a text this short has no function words to tell its language by

# The languages whose words a text is, by a lexicon's answer for the text ("Bedrohlich", "Lichtform")
Lexicon = Callable[[str], Collection[Lang]]


def detect(text: str, default: Lang = Lang.EN, lexicon: Lexicon | None = None) -> Lang:
    """The language of `text` among English, German and Spanish; `default` when nothing tells. `lexicon`:
    for a text of SHORT_TEXT words or fewer that no function word or letter tells ("Bedrohlich", German
    menace), the languages whose terms or card names it is (`Searcher.query_lang`); the one language it
    names, else `default`."""
    lowered = text.lower()
    words = _WORD.findall(lowered.replace("’", "'"))
    scores = {lang: sum(w in markers for w in words) for lang, markers in _MARKERS.items()}
    for lang, letters in _ONLY.items():
        scores[lang] += 2 * sum(ch in letters for ch in lowered)
    best = max(scores.values())
    if best == 0:
        if lexicon is not None and 0 < len(text.split()) <= SHORT_TEXT:
            found = set(lexicon(text))
            return found.pop() if len(found) == 1 else default
        return default
    winners = [lang for lang, score in scores.items() if score == best]
    return default if default in winners else winners[0]
