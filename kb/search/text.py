"""Tokens for lexical retrieval in English, German and Spanish.

Casefolded, diacritics folded (a judge types `boca arriba` or `Schlachtfeld`, and also `ueber`-less
`uber`), apostrophes dropped (`doesn't` → `doesnt`), function words removed, and a crude shared
suffix stripper so that `verdeckt`/`verdeckte`/`verdeckten` or `reveal`/`revealed`/`reveals` meet.
Stemming all three languages with one rule set is wrong for linguists and right for a few hundred
rulings: it is cheap, predictable, and both the query and the documents go through it.
"""

from __future__ import annotations

from kb.normalize import STOPWORDS, fold, stem, tokenize  # defined once, with the rest of the text machinery

__all__ = ["STOPWORDS", "fold", "stem", "tokenize"]
