"""Tokens for lexical retrieval in English, German and Spanish.

Casefolded, diacritics folded (a judge types `boca arriba` or `Schlachtfeld`, and also `ueber`-less
`uber`), apostrophes dropped (`doesn't` → `doesnt`), function words removed, and a crude shared
suffix stripper so that `verdeckt`/`verdeckte`/`verdeckten` or `reveal`/`revealed`/`reveals` meet.
Stemming all three languages with one rule set is wrong for linguists and right for a few hundred
rulings: it is cheap, predictable, and both the query and the documents go through it.
"""

from __future__ import annotations

import re
from typing import Collection

from kb.normalize import STOPWORDS, fold, stem, tokenize  # defined once, with the rest of the text machinery

__all__ = ["STOPWORDS", "fold", "stem", "tokenize", "split_enclitics", "split_compounds", "join_particles", "untitle"]

# A Spanish infinitive with its object pronouns written onto it: "¿puedo lanzarla?", "jugarlas",
# "sacrificarlo", "ponerla boca arriba". The glossary lists infinitives ("lanzar", "jugar"); the
# stemmer leaves "lanzarl", which meets nothing. At least three letters before the -ar/-er/-ir, so
# "perla", "charla" or "mirlo" stay whole.
_ENCLITIC = re.compile(r"\b(\w{3,}?[aeií]r)((?:me|te|se|nos|os)?(?:la|las|lo|los|le|les)|me|te|se|nos)\b",
                       re.IGNORECASE)


def split_enclitics(text: str) -> str:
    """Spanish `text` with each infinitive's attached pronouns written apart ("jugarla" → "jugar la")."""
    return _ENCLITIC.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)


# A German compound names its kind last: "Morphkreaturen" are creatures (Kreatur) with morph,
# "Spielsteinkopie" a copy (Kopie), "Kampfschaden" damage (Schaden). The glossary lists the simple
# words, and one token "morphkreatur" meets none of them. A compound is written apart where its
# last part is a known word (the glossary's one-word terms, stemmed); the head stays as written, and
# meets a term too when it is one ("Morph"). Parts of at least 5 letters ("land", "form", "deck"
# end many words that are no compounds of them), heads of at least 3.
_WORD = re.compile(r"\w+")
MIN_TAIL = 5
MIN_HEAD = 3


def split_compounds(text: str, known: Collection[str], whole: Collection[str] = ()) -> str:
    """German `text` with each word that is no `known` token itself but ends in one (a stemmed
    one-word glossary term, at least `MIN_TAIL` letters) written as head and tail, the longest such
    tail: "Morphkreaturen" -> "morph kreaturen". A word that is a `whole` token stays as written: a
    term that is a compound ("Trampelschaden", trample) names its own thing, not its tail's (damage)."""

    def split(m: re.Match[str]) -> str:
        word = fold(m.group(0))
        if len(word) < MIN_HEAD + MIN_TAIL or not word.isalpha() or stem(word) in known or stem(word) in whole:
            return m.group(0)
        for i in range(MIN_HEAD, len(word) - MIN_TAIL + 1):
            if stem(word[i:]) in known:
                return f"{word[:i]} {word[i:]}"
        return m.group(0)

    return _WORD.sub(split, text)


# A German separable verb puts its particle last in a main clause: "Ich decke meine manifestierte Karte auf" is
# aufdecken (turn face up), "drehe sie um" umdrehen, "deckt sie zu" zudecken. The glossary lists the verbs whole, and
# "decke" alone (its term "decke auf" is "deck", "auf" being a function word) or "drehe" meets none of them. So the
# particle, the last word of a clause, is written onto the clause's word it makes a known word with (the glossary's
# one-word terms, stemmed): "Ich aufdecke meine manifestierte Karte".
PARTICLES = frozenset({"ab", "an", "auf", "aus", "ein", "um", "zu", "zuruck"})
_CLAUSE = re.compile(r"[^,;:.?!«»\"“”„()\n]+")


def join_particles(text: str, known: Collection[str]) -> str:
    """German `text` with each clause's last word, when it is a separable verb's particle, written onto the first
    word of the clause it makes a `known` token with ("decke meine Karte auf" -> "aufdecke meine Karte")."""

    def join(m: re.Match[str]) -> str:
        part = m.group(0)
        words = part.split()
        particle = fold(words[-1]) if len(words) > 2 else ""
        if particle not in PARTICLES:
            return part
        for i, word in enumerate(words[:-1]):
            if stem(particle + fold(word)) in known:
                joined = [*words[:i], particle + word, *words[i + 1:-1]]
                lead, trail = part[:len(part) - len(part.lstrip())], part[len(part.rstrip()):]
                return lead + " ".join(joined) + trail
        return part

    return _CLAUSE.sub(join, text)


# A forum post's title capitalises every word ("Does Turning a Creature Face Up Count as Entering the
# Battlefield?"); e5 reads case, and "Turning" or "Battlefield" capitalised reads as a name, not as the
# words the rulings use. A sentence of English or Spanish (German capitalises its nouns) whose words of
# `TITLE_LETTERS` letters or more are capitalised, at least `TITLE_SHARE` of them and `TITLE_WORDS` or
# more, is a title: its words are lower-cased for the dense query, but for the names in `keep` (the cards
# the question names: their words are a name).
TITLE_LETTERS = 4
TITLE_SHARE = 0.8
TITLE_WORDS = 3
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")


def untitle(text: str, keep: Collection[str] = ()) -> str:
    """`text` with each title-cased sentence's words lower-cased, but for the phrases `keep`."""

    def sentence(part: str) -> str:
        kept = [m.span() for name in keep if name for m in re.finditer(re.escape(name), part)]
        words = [m for m in _WORD.finditer(part) if not any(a <= m.start() < b for a, b in kept)]
        long = [m.group(0) for m in words if len(m.group(0)) >= TITLE_LETTERS and m.group(0).isalpha()]
        capital = sum(w[0].isupper() for w in long)
        if capital < TITLE_WORDS or capital < TITLE_SHARE * len(long):
            return part
        return _WORD.sub(lambda m: m.group(0) if any(a <= m.start() < b for a, b in kept) else m.group(0).lower(),
                         part)

    return " ".join(sentence(p) for p in _SENTENCE_END.split(text))
