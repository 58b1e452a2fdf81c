"""Why a German or Spanish ruling stayed an entry of its own: the English ruling of its card nearest in
meaning, and what dedup's translation test (`kb.ingest.dedup._align_translations`) found missing.

A judge's German page that writes "Tarnung" where the printed cards say "Verkleidung" keeps its
rulings apart from the English ones, by design (a translation must name the same mechanic); this
says so, with the terms the glossary knows, instead of leaving the judge to guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from kb.ingest.dedup import TRANSLATION_MIN_COSINE, TRANSLATION_MIN_WORDS, Evidence, Lexicon, translation_gaps
from kb.lang import LANGUAGE_NAMES
from kb.model import Entry, Kind, Lang
from kb.search.embed import Embedder
from kb.search.glossary import Glossary

if TYPE_CHECKING:
    from kb.corpus import Corpus
    from kb.store import KB


@dataclass(frozen=True)
class NearestEnglish:
    """The English ruling entry nearest to a foreign ruling among its card's, and why it is no translation of it."""

    entry_id: str
    text: str
    cosine: float
    reasons: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.entry_id, "text": self.text, "cosine": round(self.cosine, 3), "reasons": self.reasons}


def nearest_english(alone: Entry, lang: Lang, english: Sequence[Entry], *, embedder: Embedder,
                    lexicon: Lexicon) -> NearestEnglish | None:
    """For `alone` (a ruling entry with text in `lang` and none in English): the English ruling entry of
    one of its cards nearest by the cosine dedup uses, with the reasons it did not join; None when
    none of its cards has an English ruling in `english` (nothing to compare with)."""
    text = alone.text_in(lang) or alone.text
    cards = set(alone.cards)
    candidates = [e for e in english if e.kind is Kind.RULING and cards & set(e.cards)]
    if not candidates:
        return None
    import numpy as np

    # as dedup compares them: e5's symmetric prompt on both sides
    vectors = np.asarray(embedder.embed_queries([text] + [e.text for e in candidates]))
    cosines = vectors[1:] @ vectors[0]
    best = int(np.argmax(cosines))
    near, cosine = candidates[best], float(cosines[best])
    counts = (len(near.text.split()), len(text.split()))
    mine = lexicon.evidence(near.text, Lang.EN, near.written(near.text), near.cards)
    theirs = lexicon.evidence(text, lang, alone.written(text), alone.cards)
    reasons = []
    if cosine < TRANSLATION_MIN_COSINE:
        reasons.append(f"meanings too far apart (cosine {cosine:.2f}, a translation needs {TRANSLATION_MIN_COSINE:.2f})")
    own = frozenset(alone.cards) & frozenset(near.cards)
    reasons += [_say(gap, mine, theirs, lang, lexicon.glossary, counts)
                for gap in translation_gaps(mine, theirs, min(counts), own, longer=max(counts))]
    if not reasons:
        reasons.append("it fits, but another English ruling fits about as well, or another text in this language "
                       "fits that one better")
    return NearestEnglish(near.id, near.text, cosine, reasons)


def _say(gap: str, english: Evidence, foreign: Evidence, lang: Lang, glossary: Glossary | None,
         words: tuple[int, int] = (0, 0)) -> str:
    """One gap of `translation_gaps`, in a judge's words (`words`: the English's and this text's word counts)."""
    if gap == "short":
        return (f"too short to translate a ruling: {min(words)} words (a heading or a name, not a sentence; "
                f"a translation needs {TRANSLATION_MIN_WORDS})")
    if gap == "length":
        return (f"one says much more than the other: {words[1]} words here, {words[0]} in English "
                f"(a translation is about as long as its English)")
    if gap == "mechanics":
        missing = sorted(english.mechanics - foreign.mechanics)
        said = f"the English names the mechanic {_listed(english.mechanics)}; this text names {_listed(foreign.mechanics)}"
        terms = [f"{m}: {', '.join(_terms(glossary, m, lang))}" for m in missing if _terms(glossary, m, lang)]
        return said + (f" (the {LANGUAGE_NAMES[lang.value]} terms the glossary knows: {'; '.join(terms)})" if terms else "")
    if gap == "digits":
        return f"numbers or mana symbols differ: {_listed(english.digits)} in English, {_listed(foreign.digits)} here"
    if gap == "cards":
        return f"card names differ: {_listed(english.cards)} in English, {_listed(foreign.cards)} here"
    if gap == "negated":
        return "one says not (no, never, without) and the other does not: " + (
            "the English negates, this text not" if english.negated else "this text negates, the English not")
    shared, union = english.concepts & foreign.concepts, english.concepts | foreign.concepts
    only = sorted(english.concepts - foreign.concepts)
    return (f"few rules terms in common ({len(shared)} of {len(union)} glossary concepts)"
            + (f"; the English says {', '.join(only)}, this text not" if only else ""))



def _terms(glossary: Glossary | None, concept: str, lang: Lang) -> list[str]:
    concepts = glossary.concepts if glossary is not None else []
    return [t for c in concepts if c.id == concept for t in c.terms.get(lang, ())][:4]


def explainer(kb: KB, corpus: Corpus, embedder: Embedder) -> Callable[[Entry, Lang], dict[str, Any] | None]:
    """`nearest_english` for `translation_coverage`, with what the KB's build compared by: the corpus's
    lexicon and the card names of the judge's own pages (read on the first call)."""
    from functools import cache

    from kb.build import load_lexicon

    @cache
    def lexicon() -> Lexicon:  # made on the first ruling to explain: most KBs have none
        names = corpus.names.copy()
        for name, lang, english in kb.card_names():
            names.add(english, Lang(lang), name)
        return load_lexicon(corpus, names)

    def explain(alone: Entry, lang: Lang) -> dict[str, Any] | None:
        mine = {e.id: e for card in alone.cards for e in kb.select(card=card, kind=Kind.RULING) if e.variants_in(Lang.EN)}
        found = nearest_english(alone, lang, sorted(mine.values(), key=lambda e: e.id), embedder=embedder,
                                lexicon=lexicon())
        return found.to_json() if found else None

    return explain


def _listed(items: frozenset[str]) -> str:
    return ", ".join(sorted(items)) or "none"
