"""Phrases found in a text in any word form: the glossary's concepts in a German, Spanish or English
ruling (`ConceptFinder`, on `lemma`s: "das Grauen manifestierst", "ins Spiel gekommen"), and the
phrase finder under it that dedup also finds CR keywords and card names with (`PhraseFinder`).

Dedup reads a translation's concepts with it and the rule linker a German or Spanish ruling's: a
module of its own, so that the linker's memo is keyed by this code and not by all of dedup's.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Sequence

from kb.model import Lang
from kb.normalize import search_words

if TYPE_CHECKING:
    from kb.search.glossary import Glossary

_INFLECTIONS = ("", "s", "es", "d", "ed", "ing", "ped", "ping")  # manifest(ed), cloak(s), tap(ped)
# A German adjective in a name is declined by swapping its ending: "Unnachgiebiger Torwächter", "des
# Unnachgiebigen Torwächters", "dem Unnachgiebigen Torwächter" (tryout17: a faithful translation that
# named its card so was refused as naming none).
_ADJECTIVE_ENDINGS = ("em", "en", "er", "es", "e")


def declined_stem(word: str) -> str | None:
    """The stem a German adjective's endings attach to (`unnachgiebiger` -> `unnachgiebig`), or None
    for a word with no such ending or too short a stem to tell it by."""
    for ending in _ADJECTIVE_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            return word[:-len(ending)]
    return None


# Inflection by rule, so the glossary lists one form of a word and a ruling may use any other:
# "manifestierst", "aufzudecken", "manifestando", "se disparan", "revealing". Crude on purpose
# (a few suffix and prefix rules per language, applied alike to glossary terms and to texts):
# two forms of one verb must meet, nothing needs to be a real lemma.
_DE_PREFIX = "(?:auf|ab|an|aus|ein|um|zuruck|vor|nach|weg|her|hin|mit|offen|fest|los)"
_DE_ZU = re.compile(rf"^({_DE_PREFIX})zu(\w{{3,}}en)$")  # aufzudecken -> aufdecken
_DE_GE = re.compile(rf"^({_DE_PREFIX}?)ge(\w{{3,}}(?:t|en))$")  # aufgedeckt -> aufdeckt, getappt -> tappt
_ENDINGS = {
    Lang.EN: ("ing", "ed", "es", "s", "e", "d"),
    Lang.DE: ("est", "tet", "ten", "end", "st", "te", "et", "en", "em", "er", "es", "e", "t", "n", "s"),
    Lang.ES: ("ieron", "aremos", "eremos", "iremos", "iendo", "yendo", "ando", "aron", "aste", "ados", "adas",
              "idos", "idas", "amos", "emos", "imos", "aban", "aran", "eran", "iran", "ado", "ada", "ido", "ida",
              "aba", "ara", "era", "ira", "ian", "ar", "er", "ir", "as", "es", "an", "en", "ia", "io", "a", "e",
              "o", "s", "n"),
}
_ES_CLITIC = re.compile(r"(ar|er|ir|ndo)(?:se)?(?:la|lo|le|las|los|les|se|me|te|nos)$")  # ponerla


@lru_cache(maxsize=65536)
def lemma(word: str, lang: Lang) -> str:
    """A folded word reduced by `lang`'s inflection rules; forms of one word share it."""
    if lang is Lang.DE:
        word = _DE_ZU.sub(r"\1\2", word)
        word = _DE_GE.sub(r"\1\2", word)
    elif lang is Lang.ES:
        word = _ES_CLITIC.sub(r"\1", word)
    # Two rounds: an adjective or tense ending on top of a verb's (verdeckt-er, manifestar-ás).
    for _ in range(1 if lang is Lang.EN else 2):
        for ending in _ENDINGS.get(lang, ()):
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
        if len(word) > 3 and word[-1] == word[-2]:  # tapped / tap, verlässt / verlassen
            word = word[:-1]
    if lang is Lang.ES:  # stem-vowel diphthongs: manifiesta / manifestar, vuelve / volver
        word = word.replace("ie", "e").replace("ue", "o")
    return word


def _lemmas(text: str, lang: Lang) -> list[str]:
    return [lemma(w, lang) for w in search_words(text)]


class ConceptFinder:
    """Glossary concepts in a text of one language, matched on `lemma`s of that language's terms."""

    def __init__(self, glossary: Glossary | None) -> None:
        concepts = glossary.concepts if glossary else []
        self._by_lang = {
            lang: PhraseFinder(((tuple(_lemmas(term, lang)), c.id) for c in concepts for term in c.terms.get(lang, ())))
            for lang in Lang}

    def find(self, text: str, lang: Lang) -> list[str]:
        """Concept ids in text order, each once."""
        return list(dict.fromkeys(self._by_lang[lang].find(_lemmas(text, lang))))


class PhraseFinder:
    """Phrases (token tuples) found in token lists, longest first, by a look-up on the first token."""

    def __init__(self, phrases: Iterable[tuple[tuple[str, ...], str]], inflect: bool = False,
                 endings: tuple[str, ...] = _INFLECTIONS, every_word: bool = False) -> None:
        self.inflect = inflect
        self.endings = endings
        # every word of a phrase may take an ending, not only its last: a German card name's
        # adjective is declined ("der Streunenden Kiefer" names Streunende Kiefer)
        self.every_word = every_word
        self._by_first: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        for toks, label in phrases:
            if toks:
                firsts = {toks[0] + e for e in endings} if inflect and (len(toks) == 1 or every_word) else {toks[0]}
                stem = declined_stem(toks[0]) if inflect and every_word else None
                if stem is not None:
                    firsts |= {stem + e for e in _ADJECTIVE_ENDINGS}
                for first in sorted(firsts):
                    self._by_first[first].append((toks, label))
        for options in self._by_first.values():
            options.sort(key=lambda p: (-len(p[0]), p[1]))

    def _same(self, token: str, word: str, last: bool) -> bool:
        if token == word:
            return True
        if not self.inflect or not (last or self.every_word):
            return False
        if token.startswith(word) and token[len(word):] in self.endings:
            return True
        stem = declined_stem(word) if self.every_word else None
        return stem is not None and token.startswith(stem) and token[len(stem):] in _ADJECTIVE_ENDINGS

    def find(self, toks: Sequence[str]) -> list[str]:
        return [label for _, _, label in self.spans(toks)]

    def spans(self, toks: Sequence[str]) -> list[tuple[int, int, str]]:
        """(start, end, label) of each phrase found, `toks[start:end]` its words, in text order."""
        return [(start, end, label) for start, end, _, label in self.matches(toks)]

    def matches(self, toks: Sequence[str]) -> list[tuple[int, int, tuple[str, ...], str]]:
        """(start, end, phrase, label) of each phrase found, `toks[start:end]` its words, in text order."""
        out: list[tuple[int, int, tuple[str, ...], str]] = []
        i = 0
        while i < len(toks):
            for phrase, label in self._by_first.get(toks[i], ()):
                n = len(phrase)
                window = toks[i:i + n]
                if len(window) == n and all(self._same(t, w, k == n - 1) for k, (t, w) in
                                            enumerate(zip(window, phrase))):
                    out.append((i, i + n, phrase, label))
                    i += n
                    break
            else:
                i += 1
        return out
