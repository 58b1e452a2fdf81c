"""Tokens for lexical retrieval in English, German and Spanish.

Casefolded, diacritics folded (a judge types `boca arriba` or `Schlachtfeld`, and also `ueber`-less
`uber`), apostrophes dropped (`doesn't` → `doesnt`), function words removed, and a crude shared
suffix stripper so that `verdeckt`/`verdeckte`/`verdeckten` or `reveal`/`revealed`/`reveals` meet.
Stemming all three languages with one rule set is wrong for linguists and right for a few hundred
rulings: it is cheap, predictable, and both the query and the documents go through it.
"""

from __future__ import annotations

import re

from kb.normalize import STOPWORDS, fold, stem, tokenize  # defined once, with the rest of the text machinery

__all__ = ["STOPWORDS", "fold", "stem", "tokenize", "split_enclitics"]

# A Spanish infinitive with its object pronouns written onto it: "¿puedo lanzarla?", "jugarlas",
# "sacrificarlo", "ponerla boca arriba". The glossary lists infinitives ("lanzar", "jugar"); the
# stemmer leaves "lanzarl", which meets nothing. At least three letters before the -ar/-er/-ir, so
# "perla", "charla" or "mirlo" stay whole.
_ENCLITIC = re.compile(r"\b(\w{3,}?[aeií]r)((?:me|te|se|nos|os)?(?:la|las|lo|los|le|les)|me|te|se|nos)\b",
                       re.IGNORECASE)


def split_enclitics(text: str) -> str:
    """Spanish `text` with each infinitive's attached pronouns written apart ("jugarla" → "jugar la")."""
    return _ENCLITIC.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
