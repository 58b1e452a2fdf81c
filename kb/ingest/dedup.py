"""Deduplication: every parsed record becomes a variant of exactly one canonical entry.

Three steps, each explainable by a similarity that is stored on the variant:

1. exact duplicates: records whose wording is the same once case, punctuation and spacing are
   ignored (`match_key`) and with the same signed numbers (`exact_key`: "+1/+1" is not "-1/-1")
   form one group, across pages, cards and sources;
2. revisions: English ruling groups whose wordings align word by word (difflib ratio, or the
   shorter wording contained in the longer one) after obsolete terms are folded into current ones.
   Candidates come from an inverted index of rare word 3-grams, so the work grows with the number
   of rulings, not its square. Alignment alone is not enough (one word makes another ruling): the
   two must have the same rules-meaning signature (`Lexicon.signature`: CR keywords, card names,
   numbers, mana symbols, negations, quantifiers; unless one adds whole sentences naming nothing
   new, `_adds_sentences`, or is a judge's copy that lost the other's mana symbols,
   `_without_its_symbols`), be given for the same cards or both be shared by several cards (or the
   one be a card's copy of the other's sentences with some left out), and never be two wordings
   one page lists for a card at one date;
3. translations: German and Spanish wordings are grouped into revisions as English ones are
   (`_foreign_revisions`); each group joins the English entry it translates only with evidence
   beyond cosine (see `_align_translations`); otherwise it is an entry of its own.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Mapping, NamedTuple, Sequence, TypeVar

from kb.cards import CardNames
from kb.concepts import ConceptFinder, PhraseFinder, declined_stem
from kb.search.embed import Embedder
from kb.ingest.ids import digest_id
from kb.model import Entry, Kind, Lang, Record, Relation, Variant
from kb.normalize import exact_key, fold, match_key, match_words, normalize_text, sentences, signed_numbers
from kb.search.glossary import Glossary, MechanicHistory
from kb.terminology import Terminology

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

SHINGLE = 3
MAX_SHINGLE_DF = 64  # a 3-gram in more groups than this says nothing about which two are the same ruling
MAX_CANDIDATES = 32
_DIGITS_BELOW = 1 << 62  # a 3-gram's word ids as the digits of one int64 while they fit
GRAM_BASE = 1 << 21  # a 3-gram's word ids as digits of one int64 that stays the same from build to build
GRAM_PAD = GRAM_BASE - 1  # the id of no word (a wording shorter than SHINGLE words), in that base
_PAIR_CHUNK = 100_000  # candidate pairs whose shared words are counted at once (memory: ~40 words a row)
REVISION_RATIO = 0.80  # word-level alignment of two wordings
REVISION_CONTAINED = 0.90  # ... or the shorter wording almost wholly inside the longer one
REVISION_CONTAINED_RATIO = 0.55
TRANSLATION_MIN_COSINE = 0.80
TRANSLATION_MARGIN = 0.02  # over the next English entry that fits as well (dev split of bench/dedup_gold.yaml)
TRANSLATION_MIN_CONCEPTS = 0.7  # Jaccard of glossary concepts (dev: translations >= 0.75, others <= 0.6)
TRANSLATION_LONG = 15  # words: in texts this long that share 2+ concepts, one concept may go unmatched
# A translation runs 0.7 to 1.3 times its English's words (bench/dedup_gold.yaml, the bundled German);
# a text twice as long says more than the one ruling (several points of an article), or half of it
TRANSLATION_MAX_LENGTH_RATIO = 2.0
TRANSLATION_MIN_WORDS = 4  # a ruling is a sentence: fewer words are a heading or a name (tryout30 D9)


# Words whose difference makes two wordings two rulings: negations (counted outside card names, so
# "has no name" and "doesn't have a name" agree, and "No Mercy" is none), quantifiers and comparisons,
# number words. Mechanic keywords, card names, digits and mana symbols come from the reference data
# (see `Lexicon`).
NEGATIONS = frozenset(
    "not no never none nothing nobody neither nor cannot can't don't doesn't didn't isn't aren't wasn't "
    "weren't won't wouldn't couldn't shouldn't hasn't haven't hadn't without".split())
# A translation says "not" where its English does (counting differs: "no hace nada" is one "does nothing").
# Accent-folded (`fold`): a text writes "ningún", "jamás", a judge's page may drop the accent.
FOREIGN_NEGATIONS = {
    Lang.DE: frozenset("nicht kein keine keinen keinem keiner keines keinerlei nie niemals nimmer nirgends nirgendwo "
                       "nichts niemand niemandem niemanden niemands ohne weder".split()),
    Lang.ES: frozenset("no nunca ningun ninguna ninguno ningunos ningunas nada nadie sin ni tampoco jamas".split()),
}
# Words that start so and are a negation compound ("nonland", "Nichtkreatur"), with the words that aren't.
_NOT_NON = frozenset("nonce nonchalant nonchalantly nonetheless nonsense nonsensical".split())
FOREIGN_NEGATION_PREFIX = {Lang.DE: ("nicht", frozenset("nichte nichten nichtsdestotrotz nichtsdestoweniger".split()))}
QUANTIFIERS = frozenset(
    "only each all any every both either another other others more less fewer greater most least first "
    "last before after until instead additional same different except opponent opponents".split())
NUMBER_WORDS = frozenset(
    "zero one two three four five six seven eight nine ten eleven twelve twenty once twice thrice half "
    "single x".split())


def _forms(table: Mapping[str, str], endings: str = "") -> dict[str, str]:
    """Each form (a stem plus each of `endings`, "" among them) -> the word it is a form of."""
    return {stem + ending: word for stem, word in table.items() for ending in ("", *endings.split())}


# The quantifiers and number words of a German or Spanish wording (accent-folded, each form -> one
# word), which two wordings of one translation must share as two English wordings of one ruling
# share theirs (`Lexicon.signature`): "jede andere Kreatur" is not "jede Kreatur", "zwei" not
# "drei Karten", "nur während" not "während". Articles ("ein", "una") are left out: they say "a"
# as often as "one". German "elf" is the creature type as often as eleven.
FOREIGN_MEANING_WORDS: dict[Lang, dict[str, str]] = {
    Lang.DE: {
        **_forms({s: s for s in "jed all beid ander erst letzt zusatzlich gleich verschieden jeglich "
                                "samtlich einzig irgendein irgendwelch gegnerisch".split()}, "e er es em en"),
        **{w: w for w in "nur lediglich ausschliesslich bloss mehr weniger meiste meisten meistens mindestens hochstens "
                         "bevor vorher nachdem danach bis stattdessen statt anstatt ausser".split()},
        "gegner": "gegner", "gegners": "gegner", "gegnern": "gegner",
        **{w: w for w in "null eins zwei drei vier funf sechs sieben acht neun zehn zwolf zwanzig einmal zweimal "
                         "dreimal halfte halb halbe halben".split()},
    },
    Lang.ES: {
        **{form: w for w in "todo otro ultimo mismo distinto primero".split()
           for form in (w, w + "s", w[:-1] + "a", w[:-1] + "as")},
        "primer": "primero", "ambos": "ambos", "ambas": "ambos",
        **{w: w for w in "cada demas solo solamente unicamente cualquier cualquiera cualesquiera mas menos mayor "
                         "menor antes despues hasta adicional adicionales diferente diferentes excepto salvo oponente "
                         "oponentes".split()},
        **{w: w for w in "cero dos tres cuatro cinco seis siete ocho nueve diez once doce veinte mitad".split()},
    },
}


def foreign_signature(text: str, lang: Lang) -> frozenset[str]:
    """The quantifiers and number words (`FOREIGN_MEANING_WORDS`) of a German or Spanish wording."""
    table = FOREIGN_MEANING_WORDS.get(lang, {})
    return frozenset(table[t] for t in fold(match_key(text)).split() if t in table)


_MEANING_TOKEN = re.compile(r"\{[^}]*\}|[a-z0-9]+(?:'[a-z]+)?")
_NAME_ENDINGS = ("", "s", "es", "n", "en")  # German genitive and weak endings: des Gedankenverdrehers
_HEADING = re.compile(r"^70[12]\.\d+$")
_CITES_KEYWORD = re.compile(r"\brules? 70[12]\.\d+")


def keywords_from_rules(versions: Iterable[Any]) -> tuple[str, ...]:
    """Mechanic and keyword names of the Comprehensive Rules: the headings of 701 (keyword actions)
    and 702 (keyword abilities), plus glossary terms defined by those rules (Megamorph), lowercased."""
    found: set[str] = set()
    for version in versions:
        names = [c.text for n, c in version.clauses.items() if _HEADING.match(n)]
        names += [g.term for g in version.glossary.values() if _CITES_KEYWORD.search(g.text)]
        found.update(_keyword_names(names))
    return tuple(sorted(found, key=lambda k: (-len(k.split()), k)))


def _headings_of(versions: Iterable[Any], section: str) -> tuple[str, ...]:
    """The headings of a CR section's rules (701 "Scry", 702 "Foretell"), lowercased, longest first:
    not the section's first rule (701.1, 702.1), which is no heading but a sentence."""
    found: set[str] = set()
    for version in versions:
        found.update(_keyword_names(c.text for n, c in version.clauses.items()
                                    if re.fullmatch(section + r"\.\d+", n) and not c.text.rstrip().endswith(".")))
    return tuple(sorted(found, key=lambda k: (-len(k.split()), k)))


def abilities_from_rules(versions: Iterable[Any]) -> tuple[str, ...]:
    """The keyword abilities of the Comprehensive Rules, the 702 headings ("Foretell", "Kicker"), lowercased."""
    return _headings_of(versions, "702")


def actions_from_rules(versions: Iterable[Any]) -> tuple[str, ...]:
    """The keyword actions of the Comprehensive Rules, the 701 headings ("Scry", "Manifest Dread"), lowercased."""
    return _headings_of(versions, "701")


def mechanics_from_rules(versions: Iterable[Any]) -> tuple[str, ...]:
    """The keywords that are mechanics a translation must name alike: keyword abilities (702
    headings, and glossary terms defined only by a 702 rule, such as Megamorph) and the keyword
    actions whose rules turn cards face down (701: manifest, cloak, manifest dread)."""
    found: set[str] = set()
    for version in versions:
        names = [c.text for n, c in version.clauses.items() if re.fullmatch(r"702\.\d+", n)]
        names += [g.term for g in version.glossary.values()
                  if re.findall(r"\brules? \d+(?:\.\d+)?", g.text) == re.findall(r"\brules? 702\.\d+", g.text) != []]
        actions = {n: (c.text, " ".join(x.text for m, x in version.clauses.items()
                                        if re.fullmatch(re.escape(n) + r"[a-z]", m)).lower())
                   for n, c in version.clauses.items() if re.fullmatch(r"701\.\d+", n)}
        chosen = {n for n, (_, sub) in actions.items() if re.search(r"face[ -]down", sub)}
        # ... and the actions defined through one of those (manifest dread: "manifest one of them")
        chosen |= {n for n, (_, sub) in actions.items()
                   if any(re.search(rf"\b{re.escape(actions[m][0].lower())}\b", sub) for m in chosen if m != n)}
        names += [actions[n][0] for n in chosen]
        found.update(_keyword_names(names))
    return tuple(sorted(found, key=lambda k: (-len(k.split()), k)))


def _keyword_names(names: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for name in names:
        name = re.sub(r"\(.*?\)|\[.*?\]|\"", " ", name)
        for part in re.split(r",| and ", name):
            part = normalize_text(part).strip(" !").lower()
            if part and re.fullmatch(r"[a-z][a-z' -]*", part):
                out.add(part)
    return out


def _name_tokens(name: str) -> tuple[str, ...]:
    return tuple(match_key(name).split())


def _capitals(name: str) -> tuple[bool, ...]:
    """Which of a name's words (`_name_tokens`) it writes capitalised: "Planeadora no identificada" (True,
    False, False); none when case-folding splits one of them ("İ"), so no capital is asked of a text."""
    _, words = match_words(name, cased=True)
    if len(words) != len(_name_tokens(name)):
        return (False,) * len(_name_tokens(name))
    return tuple(w.group()[:1].isupper() for w in words)


# A token of a signature as `Lexicon._signature` keeps it: a card whose name the text writes without
# the name's capitals, and the negations in those words; `Lexicon.signature` resolves it
_UNWRITTEN = "unwritten"


# `Lexicon.evidence`'s memo key: text, language, mechanics unknown on its date, cards it is filed under
EvidenceKey = tuple[str, str, tuple[str, ...], tuple[str, ...]]


_K = TypeVar("_K")
_F = TypeVar("_F")


def _untouched(signatures: Mapping[_K, tuple[_F, str]],
               changed: Iterable[tuple[tuple[str, ...], str]]) -> dict[_K, tuple[_F, str]]:
    """The (found, match key) entries (a signature's, an evidence's) in which none of the `changed` name
    phrases can be found: the name finder looks a phrase up by its first word, so a match key that does
    not hold the first word of any changed phrase (as a substring: a word is one) finds the same cards
    as before."""
    firsts = {declined_stem(toks[0]) or toks[0] for toks, _ in changed if toks}  # a declined form holds its stem
    return {t: found for t, found in signatures.items() if not any(first in found[1] for first in firsts)}


@dataclass
class Lexicon:
    """The reference data that tells rulings apart: mechanic keywords, card names, the glossary.

    `signature` is what two wordings of one ruling must share (after obsolete terms are folded
    into current ones): keywords, card names, numbers and mana symbols, negations and quantifiers.
    """

    keywords: Sequence[str] = ()
    mechanics: Sequence[str] = ()  # the keywords a translation must name alike (mechanics_from_rules)
    names: CardNames | None = None
    glossary: Glossary | None = None
    terminology: Terminology = field(default_factory=Terminology)
    # when the mechanics joined the CR: a wording written before names none of the later ones
    history: MechanicHistory = field(default_factory=MechanicHistory)
    abilities: Sequence[str] = ()  # the CR's keyword abilities (abilities_from_rules)
    # the words for keyword abilities a German or Spanish text names them by, where the glossary has no
    # concept for them (the search lexicon's translations: flying is "Flugfähigkeit", "vuela")
    ability_words: Glossary | None = None

    def __post_init__(self) -> None:
        self._keywords = PhraseFinder(((tuple(k.lower().split()), k.lower()) for k in self.keywords), inflect=True)
        self._extra_cards: set[str] = set()
        self._cards = self._name_finder()
        mechanic_words = {k.lower() for k in self.mechanics}
        concepts = self.glossary.concepts if self.glossary else []
        self.mechanic_concepts = frozenset(
            c.id for c in concepts if any(t.lower() in mechanic_words for t in c.terms.get(Lang.EN, ())))
        self._concepts = ConceptFinder(self.glossary)
        self._heads = {c.id: c.terms[Lang.EN][0].lower() for c in concepts if c.terms.get(Lang.EN)}
        # the keyword abilities no glossary concept names ("foretell", "kicker"): no translation can be seen to name them
        glossed = {match_key(t) for c in concepts for t in c.terms.get(Lang.EN, ())}
        unglossed = {match_key(k): k.lower() for k in self.abilities if match_key(k) not in glossed}
        self._unglossed = PhraseFinder(((tuple(key.split()), k) for key, k in unglossed.items()))
        # ... those a German or Spanish text can be seen to name all the same, by their printed words
        named = [(c, unglossed[key]) for c in (self.ability_words.translations if self.ability_words else [])
                 for key in [match_key(c.terms[Lang.EN][0])] if c.terms.get(Lang.EN) and key in unglossed]
        # by their whole words (accent-folded), not stems: "dragón" is no form of "dragar", "geschützt" none of "Schutz"
        self._abilities_named = {lang: PhraseFinder(((tuple(fold(match_key(t)).split()), ability) for c, ability in named
                                                     for t in c.terms.get(lang, ())), inflect=True, endings=endings)
                                 for lang, endings in _KEYWORD_ENDINGS.items()}
        self._folded: dict[str, str] = {}  # text -> `fold(text)`: dedup folds each wording several times
        # text -> (signature, the match key the card names were found in)
        self._signatures: dict[str, tuple[frozenset[tuple[str, str]], str]] = {}
        self._learned: Mapping[str, Any] | None = None
        # (text, language, mechanics unknown when written, cards filed under) -> (evidence, match key)
        self._evidence: dict[EvidenceKey, tuple[Evidence, str]] = {}
        self._learned_evidence: Mapping[str, Any] | None = None

    def add_cards(self, english_names: Iterable[str]) -> None:
        """Card names the records carry but the names table may lack (a judge's own files)."""
        new = {n for n in english_names if n and n not in self._extra_cards}
        new -= set(self.names.names if self.names else ())
        if new:
            self._extra_cards |= new
            before = self._name_phrases
            self._cards = self._name_finder()
            self._signatures = _untouched(self._signatures, before ^ self._name_phrases)
            self._evidence = _untouched(self._evidence, before ^ self._name_phrases)

    def _name_finder(self) -> PhraseFinder:
        known = list(self.names.every_name()) if self.names else []
        known += [(n, n) for n in sorted(self._extra_cards)]
        phrases = [(_name_tokens(local), english) for english, local in known]
        self._name_phrases = frozenset(phrases)
        # the capitals of each name as written, by its words and its card: "Nothing Can Stop Me Now"'s
        # are its English name's, not its German name's ("Nichts kann mich noch aufhalten")
        self._capitals: dict[tuple[tuple[str, ...], str], set[tuple[bool, ...]]] = defaultdict(set)
        for english, local in known:
            self._capitals[(_name_tokens(local), english)].add(_capitals(local))
        return PhraseFinder(phrases, inflect=True, endings=_NAME_ENDINGS, every_word=True)

    def name_marks(self) -> dict[tuple[tuple[str, ...], str], frozenset[tuple[bool, ...]]]:
        """The card names this lexicon finds (their words, the English name), each with the capitals it is
        written with: what a signature reads of the names (`kb.ingest.delta` compares two builds' marks)."""
        return {name: frozenset(caps) for name, caps in self._capitals.items()}

    def signature_table(self, texts: Iterable[str]) -> dict[str, Any]:
        """The signatures of these texts this lexicon has computed, with the card names it read
        them with: a later build gives the table back to `learn_signatures` (the disk cache)."""
        if self._learned is not None:  # a build that asked for none (the delta asks few) keeps what it learned
            self._take_learned()
        return {"names": self._name_phrases, "keywords": tuple(self.keywords),
                "signatures": {t: self._signatures[t] for t in texts if t in self._signatures}}

    def learn_signatures(self, table: Mapping[str, Any]) -> None:
        """Take the signatures of an earlier `signature_table` made with the same keywords and
        terminology. Card names may differ (a new page brings its card): they are compared when
        the first signature is asked for, after `add_cards`."""
        self._learned = table

    def _take_learned(self) -> None:
        """Keep the learned signatures the card-name change (added or removed phrases) cannot touch."""
        table, self._learned = self._learned or {}, None
        for text, found in self._still_true(table, "signatures").items():
            self._signatures.setdefault(text, found)

    def _still_true(self, table: Mapping[str, Any], part: str) -> dict[Any, Any]:
        """The values of a learned table's `part` (its signatures, its evidence) that this lexicon's card
        names can't have changed (`_untouched`); none when it was made with other keywords, or unreadable."""
        found, names = table.get(part), table.get("names")
        if not isinstance(found, dict) or not isinstance(names, frozenset) \
                or table.get("keywords") != tuple(self.keywords):
            return {}
        return _untouched(found, names ^ self._name_phrases)

    def evidence_table(self, texts: Iterable[str]) -> dict[str, Any]:
        """The evidence of these texts (in any language, date and filing) this lexicon has found,
        with the card names it read them with: a later build gives the table back to `learn_evidence`
        (the disk cache), as signatures are remembered. Finding the evidence of every candidate pair's
        texts took half of a build's deduplication at 100k rulings."""
        if self._learned_evidence is not None:  # a build that asked for none keeps what it learned
            self._take_learned_evidence()
        wanted = set(texts)
        return {"names": self._name_phrases, "keywords": tuple(self.keywords),
                "evidence": {k: found for k, found in self._evidence.items() if k[0] in wanted}}

    def learn_evidence(self, table: Mapping[str, Any]) -> None:
        """Take the evidence of an earlier `evidence_table` made with the same reference data; the
        card names are compared when the first evidence is asked for, after `add_cards`."""
        self._learned_evidence = table

    def _take_learned_evidence(self) -> None:
        """Keep the learned evidence the card-name change (added or removed phrases) cannot touch."""
        table, self._learned_evidence = self._learned_evidence or {}, None
        for key, found in self._still_true(table, "evidence").items():
            self._evidence.setdefault(key, found)

    def fold_table(self, texts: Iterable[str]) -> dict[str, str | None]:
        """`fold` of these texts as far as this lexicon has folded them (None: unchanged), a table
        a later build gives back to `learn_folds` (the disk cache)."""
        return {t: (None if self._folded[t] == t else self._folded[t]) for t in texts if t in self._folded}

    def learn_folds(self, table: Mapping[str, str | None]) -> None:
        """Take what an earlier `fold_table` of the same terminology says."""
        for text, folded in table.items():
            self._folded.setdefault(text, text if folded is None else folded)

    def fold(self, text: str) -> str:
        """`text` with obsolete terms replaced by their current ones ("comes into play" → "enters the battlefield")."""
        folded = self._folded.get(text)
        if folded is None:
            folded = self._folded[text] = self._fold(text)
        return folded

    def _fold(self, text: str) -> str:
        for term in sorted(self.terminology.obsolete_in(text, Lang.EN), key=lambda t: -len(t.obsolete)):
            # the term's own forms ("came into play" -> "entered the battlefield"), else the phrase
            text = term.suggest(text) or re.sub(rf"\b{re.escape(term.obsolete)}\b", term.current, text,
                                                flags=re.IGNORECASE)
        return text

    def cards_in(self, text: str) -> frozenset[str]:
        """English names of the cards `text` names, in any known language."""
        return frozenset(self._cards.find(match_key(text).split()))

    def _names_in(self, text: str) -> tuple[str, list[re.Match[str]], list[tuple[int, int, str, bool]]]:
        """`text` NFKC-normalised and case-folded, its words (`match_key`'s) and the card names found in
        them (as `cards_in` finds them): (start word, end word, English name, whether it is written as
        the name is, each word the name capitalises capitalised: "Nothing can stop me now, says the
        player." holds the words of "Nothing Can Stop Me Now", not the card)."""
        folded, words = match_words(text)
        _, cased = match_words(text, cased=True)
        if len(cased) != len(words):  # case-folding split a word ("İ"): its capitals can't be told
            cased = []
        found = []
        for start, end, name, card in self._cards.matches([w.group() for w in words]):
            written = [w.group() for w in cased[start:end]]
            found.append((start, end, card, not written or any(
                all(word[:1].isupper() for word, cap in zip(written, caps) if cap)
                for caps in self._capitals.get((name, card), ()))))
        return folded, words, found

    def _unnamed(self, text: str, filed: Collection[str] = ()) -> tuple[str, list[str], list[str]]:
        """`text` NFKC-normalised and case-folded with the card names in it blanked where they name the
        card (`_names_in`: written as the name is, or the name of a card the wording is `filed` under),
        its words (`match_key`'s) and those cards' English names: a name's "no" or "nothing"
        ("Planeadora no identificada", "Nothing Can Stop Me Now") is no negation of the text."""
        return _blanked(*self._names_in(text), filed)

    def signature(self, text: str, filed: Collection[str] = ()) -> frozenset[tuple[str, str]]:
        """The rules-meaning tokens of an English wording (folded first) filed under the cards `filed`
        (English names): a card's name written in lower case names that card only on its own page."""
        if self._learned is not None:
            self._take_learned()
        found = self._signatures.get(text)
        if found is None:
            found = self._signatures[text] = self._signature(text)
        if not any(kind == _UNWRITTEN for kind, _ in found[0]):
            return found[0]
        # what the text says of a card named without its capitals depends on the card it is filed under
        sig = {token for token in found[0] if token[0] not in (_UNWRITTEN, "negations")}
        negations = next(int(n) for kind, n in found[0] if kind == "negations")
        for kind, said in found[0]:
            if kind == _UNWRITTEN:
                card, in_name = said.rsplit("\t", 1)
                if card in filed:
                    sig.add(("card", card))
                    negations -= int(in_name)
        sig.add(("negations", str(negations)))
        return frozenset(sig)

    def _signature(self, text: str) -> tuple[frozenset[tuple[str, str]], str]:
        """(the signature of `text` filed under no card, with an `_UNWRITTEN` token for each card whose
        name it writes without the name's capitals: the card, its name's negations; its match key)."""
        written = normalize_text(self.fold(text))
        folded = written.lower()
        toks = _MEANING_TOKEN.findall(folded)
        sig: set[tuple[str, str]] = {("mana", t) for t in toks if t.startswith("{")}
        folded_names, words, found = self._names_in(written)
        unnamed, plain, cards = _blanked(folded_names, words, found)
        sig |= {("keyword", k) for k in self._keywords.find(plain)}
        sig |= {("card", c) for c in cards}
        sig |= {("number", t) for t in plain if t.isdigit() or t in NUMBER_WORDS}
        sig |= {("quantifier", t) for t in plain if t in QUANTIFIERS}
        sig |= {("signed", t) for t in signed_numbers(folded)}
        sig.add(("negations", str(sum(t in NEGATIONS for t in _MEANING_TOKEN.findall(unnamed)))))
        unwritten: dict[str, int] = defaultdict(int)
        for start, end, card, as_name in found:
            if not as_name:
                said = folded_names[words[start].start():words[end - 1].end()]
                unwritten[card] += sum(t in NEGATIONS for t in _MEANING_TOKEN.findall(said))
        sig |= {(_UNWRITTEN, f"{card}\t{n}") for card, n in unwritten.items()}
        return frozenset(sig), " ".join(plain)

    def evidence(self, text: str, lang: Lang = Lang.EN, written: str | None = None,
                 filed: Collection[str] = ()) -> Evidence:
        """Language-neutral evidence of a wording in `lang` written on `written` and filed under the
        cards `filed` (English names; see `Evidence`): a 2014 wording's "to disguise" is the verb, no
        mechanic (`MechanicHistory`). Remembered per text, language, unknown mechanics and filing."""
        if self._learned_evidence is not None:
            self._take_learned_evidence()
        unknown = self.history.unknown_on(written)
        key = (text, lang.value, tuple(sorted(unknown)), tuple(sorted(filed)))
        found = self._evidence.get(key)
        if found is None:
            found = self._evidence[key] = (self._evidence_of(text, lang, unknown, filed), match_key(text))
        return found[0]

    def _evidence_of(self, text: str, lang: Lang, unknown: frozenset[str], filed: Collection[str]) -> Evidence:
        found = [c for c in self._concepts.find(text, lang) if c not in unknown]
        heads = [self._heads.get(c, c) for c in found if c in self.mechanic_concepts]
        # German splits "manifestiert ... das Grauen": manifest dread's text also shows manifest.
        mechanics = frozenset(c for c in found if c in self.mechanic_concepts
                              and not any(h != self._heads.get(c, c) and h.startswith(self._heads.get(c, c) + " ")
                                          for h in heads))
        digits = frozenset(re.findall(r"\{[^}]*\}|\d+", normalize_text(text))) | frozenset(signed_numbers(text))
        unnamed, _, cards = self._unnamed(text, filed)
        if lang is Lang.EN:
            unglossed = _keywords_used(self._unglossed, match_key(unnamed).split())
        else:  # the unglossed abilities it names by their words in its language, used as keywords
            finder = self._abilities_named.get(lang)
            unglossed = _foreign_keywords_used(finder, unnamed, lang) if finder else frozenset()
        return Evidence(mechanics, digits, frozenset(cards), frozenset(found), is_negated(unnamed, lang), unglossed)


# Words around a keyword ability used as one: "with flying", "has foretell", "its kicker cost", "a foretell
# card"; not the everyday word a keyword's name may be ("before it reaches the battlefield", "plot twist")
_KEYWORD_BEFORE = frozenset("with has have had gains gain gained loses lose lost without its their".split())
_KEYWORD_AFTER = frozenset("cost costs ability abilities card cards spell spells".split())


def _keywords_used(finder: PhraseFinder, words: Sequence[str]) -> frozenset[str]:
    """The keyword abilities `finder` finds in `words` where they are used as keywords (review40 #6)."""
    return frozenset(name for start, end, name in finder.spans(words)
                     if (start and words[start - 1] in _KEYWORD_BEFORE)
                     or (end < len(words) and words[end] in _KEYWORD_AFTER))


# The same of a German or Spanish text (review41 #3), as printed cards and rulings say them: German
# "hat Flugfähigkeit", "erhält ... Eile" (the verb stands second, its object at the clause's end: "Erhält
# eine verdeckte Kreatur Flugfähigkeit"), "verursacht Trampelschaden", "Rückblende-Kosten"; Spanish "con
# volar", "tiene prisa", "gana la habilidad de arrollar", "las habilidades de volar y vínculo vital", "coste
# de retrospectiva". Not a chance word: "no hay prisa", "al alcance", "Der Drache ist geschützt".
_FOREIGN_KEYWORD_BEFORE = {
    Lang.DE: frozenset("mit ohne hat habe haben hast hatte hatten erhalt erhalten erhaltst erhielt erhielten "
                       "bekommt bekommen bekam verliert verlieren verlierst verlor verloren besitzt besitzen "
                       "verursacht verursachen".split()),
    # not "su" (its): "fuera de su alcance" is out of its reach
    Lang.ES: frozenset("con sin tiene tienen tenga tengan tenia tenian tuviera tendra tendran gana ganan gane ganen "
                       "gano ganaron ganara obtiene obtienen obtenga obtengan adquiere adquieren pierde pierden pierda "
                       "pierdan perdio perdera".split()),
}
# German: the frame word may stand anywhere before the keyword in its clause, a verb also after it (a
# subordinate clause ends in its verb: "obwohl er Verteidiger hat")
_FOREIGN_KEYWORD_IN_CLAUSE = frozenset({Lang.DE})
_FOREIGN_KEYWORD_VERBS = _FOREIGN_KEYWORD_BEFORE[Lang.DE] - {"mit", "ohne"}
# Spanish "habilidad de X", "coste de X": the two words before the keyword
_FOREIGN_KEYWORD_OF = frozenset("habilidad habilidades coste costes costo costos".split())
_FOREIGN_KEYWORD_AFTER = {Lang.DE: frozenset("kosten fahigkeit fahigkeiten".split()), Lang.ES: frozenset()}
_FOREIGN_AND = frozenset("und oder y e o ni".split())  # "volar y vínculo vital": the second one of a list
# the endings a keyword's word takes in a text: German genitive "des Erstschlags"
_KEYWORD_ENDINGS: dict[Lang, tuple[str, ...]] = {Lang.DE: ("", "s"), Lang.ES: ("",)}
_CLAUSE_END = re.compile(r"[.,;:!?()\[\]\n\u2014\u2013]")


def _foreign_keywords_used(finder: PhraseFinder, text: str, lang: Lang) -> frozenset[str]:
    """The keyword abilities `finder` finds in a German or Spanish `text` (its card names blanked) where
    they are used as keywords (`_FOREIGN_KEYWORD_BEFORE`): the foreign side of `_keywords_used`."""
    before, after = _FOREIGN_KEYWORD_BEFORE[lang], _FOREIGN_KEYWORD_AFTER[lang]
    used: set[str] = set()
    for clause in _CLAUSE_END.split(text):
        words = _split_compounds(finder, fold(match_key(clause)).split(), after)
        last_used = -1  # where the last keyword used as one ended
        for start, end, name in finder.spans(words):
            head = words[:start]
            if ((lang in _FOREIGN_KEYWORD_IN_CLAUSE
                 and (before.intersection(head) or _FOREIGN_KEYWORD_VERBS.intersection(words[end:])))
                    or (head and head[-1] in before)
                    or (len(head) >= 2 and head[-1] == "de" and head[-2] in _FOREIGN_KEYWORD_OF)
                    or (end < len(words) and words[end] in after)
                    or (head and head[-1] in _FOREIGN_AND and last_used == start - 1)):
                used.add(name)
                last_used = end
    return frozenset(used)


def _split_compounds(finder: PhraseFinder, words: list[str], heads: frozenset[str]) -> list[str]:
    """German "rückblendekosten", "umwandlungskosten" as "rückblende kosten", "umwandlung kosten" (the
    keyword then its `heads` word); a word `finder` finds ("flugfähigkeit", "ausrüstkosten") or that ends
    in none of `heads` stays as it is."""
    out: list[str] = []
    for word in words:
        head = next((h for h in heads if word.endswith(h) and len(word) > len(h) + 2), None)
        if head is None or finder.spans([word]):
            out.append(word)
            continue
        first = word[:-len(head)]
        out += [first[:-1] if first.endswith("s") and len(first) > 3 else first, head]
    return out


def _blanked(folded: str, words: Sequence[re.Match[str]], found: Sequence[tuple[int, int, str, bool]],
             filed: Collection[str] = ()) -> tuple[str, list[str], list[str]]:
    """`Lexicon._unnamed` of what `Lexicon._names_in` found."""
    spans = [(start, end, card) for start, end, card, written in found if written or card in filed]
    pieces, at = [], 0
    for start, end, _ in spans:
        pieces += [folded[at:words[start].start()], " "]
        at = words[end - 1].end()
    return "".join(pieces) + folded[at:], [w.group() for w in words], [card for _, _, card in spans]


class Evidence(NamedTuple):
    """What a translation must share with its English entry: the mechanics, digits and mana symbols,
    and cards it names exactly, whether it negates (outside its card names); its glossary concepts
    mostly (`TRANSLATION_MIN_CONCEPTS`). `unglossed`: the mechanics (CR keyword abilities) an English text
    names that no glossary concept names; of a German or Spanish text, those of them it names by the
    words `Lexicon.ability_words` has for them in its language ("Flugfähigkeit": flying)."""

    mechanics: frozenset[str]
    digits: frozenset[str]
    cards: frozenset[str]
    concepts: frozenset[str]
    negated: bool = False
    unglossed: frozenset[str] = frozenset()


def is_negated(text: str, lang: Lang) -> bool:
    """`text` says "not", "no", "never", "without" (or its language's words for them).

    A "non-" compound negates too: English writes "nontoken", "nonbasic", "non-token" as one word
    where a translation says "que no sea ficha", "die kein Spielstein ist" (and German its own
    compounds: "Nichtkreaturzauberspruch"). Counted rather than ignored, so a ruling that says
    "nontoken" and "can't" still refuses a text that says neither. A card name's words are no
    negation: `Lexicon.evidence` blanks the names before asking."""
    if lang is Lang.EN:
        return any(t in NEGATIONS or _is_compound_negation(t, "non", _NOT_NON)
                   for t in _MEANING_TOKEN.findall(normalize_text(text).lower()))
    words = FOREIGN_NEGATIONS.get(lang, frozenset())
    compound = FOREIGN_NEGATION_PREFIX.get(lang)
    return any(t in words or (compound is not None and _is_compound_negation(t, *compound))
               for t in fold(match_key(text)).split())


def _is_compound_negation(word: str, prefix: str, exceptions: frozenset[str]) -> bool:
    """`word` is `prefix` alone ("non" of "non-token") or `prefix` + a word ("nonland"), not one of `exceptions`."""
    return word.startswith(prefix) and word not in exceptions and (word == prefix or len(word) >= len(prefix) + 3)


@dataclass
class _Group:
    """Records with the same wording (same kind, same `exact_key`). `key` is its `match_key`, the
    words dedup aligns and ids hash; `exact` tells apart two groups of one key ("+1/+1", "-1/-1")."""

    key: str
    kind: Kind
    records: list[Record]
    exact: str = ""

    @property
    def lang(self) -> Lang:
        return self.records[0].lang

    @property
    def words(self) -> list[str]:
        return self.key.split()

    @cached_property
    def newest(self) -> str:  # asked once the records are all in
        return max((r.date or "" for r in self.records), default="")

    @cached_property
    def cards(self) -> frozenset[str]:  # asked once the records are all in, for every candidate pair
        return frozenset(r.card for r in self.records if r.card)

    @property
    def written(self) -> str | None:
        """The first date of this wording (None: no record has a date)."""
        return min((r.date for r in self.records if r.date), default=None)


class _UnionFind:
    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def wording_similarity(a: Sequence[str], b: Sequence[str]) -> tuple[float, float]:
    """(ratio, containment) of two word sequences: how well they align, and how much of the shorter is in the longer."""
    sm = SequenceMatcher(None, a, b, autojunk=False)
    matched = sum(block.size for block in sm.get_matching_blocks())
    return sm.ratio(), matched / max(1, min(len(a), len(b)))


def words_digest(words: Sequence[str]) -> bytes:
    """A wording's words as 20 bytes (SHA-1; words are runs of letters and digits, so the separator
    occurs in none): `Similarities` keys a pair by the two digests, taken once per wording."""
    return hashlib.sha1("\x1f".join(words).encode()).digest()


class Similarities:
    """`wording_similarity` of word sequences, remembered by their words. `table` may come from an
    earlier build (the disk cache): adding one page then aligns only the pairs it brings. `used`
    holds the keys this build asked for, the ones worth keeping.

    A pair's key is the two wordings' `words_digest`s one after the other (fixed length: the pair is
    read back from it, so two pairs share a key only if SHA-1 collides). `pair` takes the digests
    already made: dedup's candidate pairs (~200k at 100k rulings) digested each wording per pair
    before, 0.9 s of a build's cpu."""

    def __init__(self, table: dict[bytes, tuple[float, float]] | None = None) -> None:
        self.table: dict[bytes, tuple[float, float]] = {} if table is None else table
        self.used: set[bytes] = set()

    def __call__(self, a: Sequence[str], b: Sequence[str]) -> tuple[float, float]:
        return self.pair(words_digest(a), words_digest(b), a, b)

    def pair(self, digest_a: bytes, digest_b: bytes, a: Sequence[str], b: Sequence[str]) -> tuple[float, float]:
        """`self(a, b)`, given `words_digest(a)` and `words_digest(b)`."""
        key = digest_a + digest_b
        self.used.add(key)
        found = self.table.get(key)
        if found is None:
            found = self.table[key] = wording_similarity(a, b)
        return found

    def kept(self) -> dict[bytes, tuple[float, float]]:
        return {k: self.table[k] for k in self.used}


def is_revision(ratio: float, contained: float) -> bool:
    return ratio >= REVISION_RATIO or (contained >= REVISION_CONTAINED and ratio >= REVISION_CONTAINED_RATIO)


def may_be_revision(shared: Any, total: Any) -> Any:
    """False where two wordings, `total` words in all and `shared` of them in common (as multisets),
    can't be a revision: the words difflib aligns are at most the words they share, so its ratio is
    at most 2 * shared / total, and `is_revision` asks at least REVISION_CONTAINED_RATIO of it.
    Element-wise on numpy arrays (dedup's candidate pairs) or on two numbers."""
    import numpy as np

    total = np.asarray(total)
    return (total == 0) | (2.0 * np.asarray(shared) / np.maximum(total, 1) >= REVISION_CONTAINED_RATIO)


def _group_exact(records: Iterable[Record]) -> list[_Group]:
    groups: dict[tuple[Kind, str], _Group] = {}
    keys: dict[str, str] = {}  # a shared ruling's text recurs on many cards' pages
    for record in records:
        key = keys.get(record.text)
        if key is None:
            key = keys[record.text] = exact_key(record.text)
        group = groups.get((record.kind, key))
        if group is None:
            group = groups[record.kind, key] = _Group(match_key(record.text), record.kind, [], key)
        group.records.append(record)
    return list(groups.values())


class _Tokens:
    """The words of many word lists as integer ids in one array, for dedup's candidate counts: their
    word 3-grams and word counts as sparse matrices, made by numpy sorts instead of Python sets and
    Counters (seconds at 100k rulings). A list shorter than SHINGLE words is one 3-gram of its own,
    padded with an id no word has, as `tuple(w[0:SHINGLE])` is one shorter tuple."""

    def __init__(self, lists: Sequence[Sequence[str]]) -> None:
        import numpy as np

        flat = [t for w in lists for t in w]
        ids = self.words = {t: k for k, t in enumerate(dict.fromkeys(flat))}
        self.gram_keys: NDArray[np.int64] | None = None  # set by `gram_matrix`
        self.grams_of: Any = None  # `gram_matrix`'s, kept by `_revision_pairs` when asked
        self.vocabulary = len(ids)
        self.ids = np.fromiter(map(ids.__getitem__, flat), dtype=np.int64, count=len(flat))
        self.lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
        self.starts = np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)
        self.owner = np.repeat(np.arange(len(lists), dtype=np.int64), self.lengths)

    def gram_matrix(self) -> Any:
        """Groups x distinct 3-grams, 1 where the group has the 3-gram (the column order is arbitrary)."""
        import numpy as np
        from scipy import sparse

        n, pad = len(self.lengths), self.vocabulary  # `pad`: the id of no word
        padded = np.concatenate((self.ids, [pad] * (SHINGLE - 1)))
        position = np.arange(len(self.ids), dtype=np.int64)
        full = position - self.starts[self.owner] <= self.lengths[self.owner] - SHINGLE
        short = np.flatnonzero(self.lengths < SHINGLE)  # one padded 3-gram each, from its start
        at = np.concatenate((position[full], self.starts[short]))
        rows = np.concatenate((self.owner[full], short))
        ends = np.concatenate((np.full(int(full.sum()), 1 << 62), self.starts[short] + self.lengths[short]))
        words = [np.where(at + k < ends, padded[np.minimum(at + k, len(padded) - 1)], pad) for k in range(SHINGLE)]
        self.gram_keys = None
        if (pad + 1) ** SHINGLE < _DIGITS_BELOW:  # the 3-gram's words as digits of one number
            key = np.zeros(len(at), dtype=np.int64)
            for word in words:
                key = key * (pad + 1) + word
            _, gram = np.unique(key, return_inverse=True)
        else:  # a vocabulary too large for that: number the pairs, then the triples
            gram = np.zeros(len(at), dtype=np.int64)
            for word in words:
                _, gram = np.unique(gram * (pad + 1) + word, return_inverse=True)
        gram = gram.ravel()
        width = int(gram.max(initial=-1)) + 1
        if pad < GRAM_PAD:  # each column's 3-gram as `gram_key` gives it (the delta's index, kb.ingest.delta)
            stable = np.zeros(len(at), dtype=np.int64)
            for word in words:
                stable = stable * GRAM_BASE + np.where(word == pad, GRAM_PAD, word)
            self.gram_keys = np.zeros(max(width, 1), dtype=np.int64)
            self.gram_keys[gram] = stable
        matrix = sparse.csr_matrix((np.ones(len(at), dtype=np.int32), (rows, gram)), shape=(n, max(width, 1)))
        matrix.sum_duplicates()
        matrix.data[:] = 1  # a 3-gram counts once per group, however often the group repeats it
        return matrix

    def count_matrix(self) -> Any:
        """Groups x words, how many times the group has the word."""
        import numpy as np
        from scipy import sparse

        width = max(self.vocabulary, 1)
        cells, times = np.unique(self.owner * width + self.ids, return_counts=True)
        return sparse.csr_matrix((times.astype(np.int32), (cells // width, cells % width)),
                                 shape=(len(self.lengths), width))


def _revision_pairs(groups: list[_Group], folded: list[list[str]], similarity: Similarities,
                    tokens_out: list[_Tokens] | None = None) -> Iterable[tuple[int, int, float]]:
    """Pairs of English ruling groups whose (terminology-folded) wordings align, with their similarity.

    Candidates of group i are the (at most MAX_CANDIDATES) later groups j sharing the most word
    3-grams with it, 3-grams in more than MAX_SHINGLE_DF groups left out, ties by index; among
    them, difflib aligns only the pairs that share enough words to reach a revision threshold
    (`may_be_revision`). Both counts are sparse matrix products, so at 100k rulings the
    candidates cost a second or two, not a Python loop over every posting list."""
    from scipy import sparse

    import numpy as np

    n = len(folded)
    if n < 2:
        return
    tokens = _Tokens(folded)
    grams_of = tokens.gram_matrix()
    if tokens_out is not None:
        tokens_out.append(tokens)
        tokens.grams_of = grams_of
    rare = np.flatnonzero(np.asarray(grams_of.sum(axis=0)).ravel() <= MAX_SHINGLE_DF)  # groups per 3-gram
    rare_grams = grams_of[:, rare]
    shared = sparse.triu(rare_grams @ rare_grams.T, k=1).tocoo()  # j > i, count of shared rare 3-grams
    # per row: most shared first, ties by the smaller index; the first MAX_CANDIDATES of each row
    order = np.lexsort((shared.col, -shared.data, shared.row))
    row, col = shared.row[order], shared.col[order]
    starts = np.searchsorted(row, row, side="left")
    keep = (np.arange(len(row)) - starts) < MAX_CANDIDATES
    cand_i, cand_j = row[keep].astype(np.int64), col[keep].astype(np.int64)
    if not len(cand_i):
        return
    # Words shared as multisets bound what difflib can align: at most 2 * shared / total of the
    # two wordings' words, and `is_revision` asks at least REVISION_CONTAINED_RATIO of that.
    counts = tokens.count_matrix()  # how often each word occurs in each group
    words_shared = np.zeros(len(cand_i), dtype=np.int64)
    for start in range(0, len(cand_i), _PAIR_CHUNK):
        a, b = cand_i[start:start + _PAIR_CHUNK], cand_j[start:start + _PAIR_CHUNK]
        words_shared[start:start + _PAIR_CHUNK] = np.asarray(counts[a].minimum(counts[b]).sum(axis=1)).ravel()
    lengths = np.array([len(w) for w in folded], dtype=np.int64)
    may = may_be_revision(words_shared, lengths[cand_i] + lengths[cand_j])
    digests: dict[int, bytes] = {}  # each wording's, once (`Similarities.pair`)

    def digest(k: int) -> bytes:
        found = digests.get(k)
        if found is None:
            found = digests[k] = words_digest(folded[k])
        return found

    for i, j in zip(cand_i[may].tolist(), cand_j[may].tolist()):
        ratio, contained = similarity.pair(digest(i), digest(j), folded[i], folded[j])
        if is_revision(ratio, contained):
            yield i, j, ratio


def _join_pairs(rulings: Sequence[_Group], signatures: Sequence[frozenset[tuple[str, str]]],
                pairs: Iterable[tuple[int, int, float]], lexicon: Lexicon,
                is_official: Callable[[str], bool]) -> tuple[_UnionFind, list[tuple[int, int]]]:
    """English ruling groups joined into revisions along their candidate `pairs` (`_revision_pairs`),
    most similar first, and the pairs that could join (as one ruling or as a copy of it), whether a
    page's listing (`_card_keys`) let them or not: the union-find and those pairs. Which groups end up
    together depends only on the pairs among them that could join, taken in this order, so a delta
    (kb.ingest.delta) may redo the groups such pairs link and keep the rest."""
    uf = _UnionFind(len(rulings))
    keys = [_card_keys(g) for g in rulings]  # per union-find root: (card, source, date) it holds
    split: dict[int, tuple[str, ...]] = {}  # asked only of pairs whose signatures differ

    def sentences_of(i: int) -> tuple[str, ...]:
        if i not in split:
            split[i] = _sentences(lexicon.fold(rulings[i].records[0].text))
        return split[i]

    def abridged(i: int, j: int) -> int | None:
        """The one of two wordings that is one card's wording of a ruling several other cards share,
        with whole sentences left out (`_adds_sentences`; None: neither): it says nothing of its own, so
        it is that ruling as the card's page abridged it (tryout27 D9), though a one-card wording
        otherwise joins only its card's."""
        short, long_ = sorted((i, j), key=lambda k: len(sentences_of(k)))
        if len(_cards(rulings[short])) == 1 and len(_cards(rulings[long_])) >= 2 \
                and _adds_sentences(sentences_of(short), sentences_of(long_), signatures[short], signatures[long_]):
            return short
        return None

    def join(i: int, j: int) -> None:
        ri, rj = uf.find(i), uf.find(j)
        if ri == rj or keys[ri] & keys[rj]:  # one page listing both wordings: two rulings
            return
        uf.union(ri, rj)
        root = uf.find(ri)
        keys[root] = keys[ri] | keys[rj]

    # A copy (a card's page abridging a shared ruling, a site's copy without its mana symbols) fits
    # every ruling it could be a copy of: it joins only when they are one (`_join_copies`), never
    # bridging two rulings ({2} and {3}, "a face-down spell can" and "cannot": review39 #1, #3).
    copies: list[tuple[int, int]] = []  # (the copy, the ruling it may copy)
    passing: list[tuple[int, int]] = []
    for i, j, _ in sorted(pairs, key=lambda t: (-t[2], t[0], t[1])):
        copy: int | None = None  # the one of the two that is a copy of the other
        if not _may_be_one_ruling(rulings[i], rulings[j]):
            if (copy := abridged(i, j)) is None:
                continue
        if signatures[i] != signatures[j] and not _adds_sentences(sentences_of(i), sentences_of(j), signatures[i],
                                                                  signatures[j]):
            if (bare := _without_its_symbols(rulings[i], rulings[j], lexicon, is_official)) is None:
                continue
            copy = i if bare is rulings[i] else j
        passing.append((i, j))
        if copy is None:
            join(i, j)
        else:
            copies.append((copy, j if copy == i else i))
    _join_copies(copies, uf.find, join)
    return uf, passing


def _sentences(text: str) -> tuple[str, ...]:
    return tuple(exact_key(s) for s in sentences(normalize_text(text)) if match_key(s))


def _adds_sentences(a: tuple[str, ...], b: tuple[str, ...], sig_a: frozenset[tuple[str, str]],
                    sig_b: frozenset[tuple[str, str]]) -> bool:
    """True when one wording is the other plus whole sentences (a preamble dropped, a note added)
    that name no other mechanic, keyword or card: the words they add cannot change what the shared
    sentences say. A word changed inside a sentence ("blocked" → "blocked by one creature") is not this."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if not short or len(short) == len(long_):
        return False
    it = iter(long_)
    if not all(any(s == t for t in it) for s in short):  # in order, each sentence verbatim
        return False
    named = {"keyword", "card"}
    return {t for t in sig_a if t[0] in named} == {t for t in sig_b if t[0] in named}


_MANA_SYMBOL = re.compile(r"\{[^}]*\}")


def _without_its_symbols(a: _Group, b: _Group, lexicon: Lexicon,
                         is_official: Callable[[str], bool]) -> _Group | None:
    """The one of two wordings that is the other with its mana symbols left out (None: neither), as
    a copy from a site that draws them as images reads ("by paying  and announcing" for "by paying
    {3} and announcing", tryout27 D5): the one writes no mana symbol at all, and no official source gives it (an official
    text writes its symbols); each symbol of the other stands where the first has nothing, not
    another word ("{2}" / "two", "X"); and without its symbols the other says the same
    (`Lexicon.signature`). A symbol written differently ({2} / {3}) is no symbol left out."""
    whole, bare = sorted((a, b), key=lambda g: not _MANA_SYMBOL.search(g.records[0].text))
    whole_text, bare_text = whole.records[0].text, bare.records[0].text
    if not _MANA_SYMBOL.search(whole_text) or _MANA_SYMBOL.search(bare_text) \
            or any(is_official(r.source) for r in bare.records):
        return None
    tokens = [_MEANING_TOKEN.findall(normalize_text(lexicon.fold(t)).lower()) for t in (whole_text, bare_text)]
    for tag, i1, i2, _, _ in SequenceMatcher(None, tokens[0], tokens[1], autojunk=False).get_opcodes():
        if tag != "delete" and any(t.startswith("{") for t in tokens[0][i1:i2]):
            return None
    return bare if lexicon.signature(_MANA_SYMBOL.sub(" ", whole_text)) == lexicon.signature(bare_text) else None


def _join_copies(copies: Sequence[tuple[int, int]], find: Callable[[int], int],
                 join: Callable[[int, int], None]) -> None:
    """Join each copy's ruling to the one ruling it may copy (`copies`: (copy, ruling) pairs, after
    every other pair is joined): a copy that fits two rulings, or whose own ruling could join
    another as a copy of it, stays as it is, so a copy never joins two rulings into one."""
    targets: dict[int, set[int]] = defaultdict(set)
    for copy, ruling in copies:
        targets[find(copy)].add(find(ruling))
    for root in sorted(targets):
        found = targets[root] - {root}
        if len(found) != 1:
            continue
        (target,) = found
        if targets.get(target, set()) - {target}:  # a copy itself: no chain of copies
            continue
        join(root, target)


def _card_keys(group: _Group) -> set[tuple[str, str, str | None]]:
    """(card, source, date) of each record: a card's page in one source lists a ruling once per date."""
    return {(r.card, r.source, r.date) for r in group.records if r.card}


def _cards(group: _Group) -> frozenset[str]:
    return group.cards


def _may_be_one_ruling(a: _Group, b: _Group) -> bool:
    """Card evidence that two wordings can be one ruling: a card both are given for, or both shared.

    A wording given for several cards (a mechanic's ruling) may be reworded for other cards of the
    mechanic; a wording given for one card only is that card's ruling and joins only that card's.
    Rulings with no card (rules-search pages) are judged on their words alone.
    """
    ca, cb = _cards(a), _cards(b)
    if not ca or not cb or ca & cb:
        return True
    return len(ca) >= 2 and len(cb) >= 2


def _foreign_revisions(foreign: list[_Group], lexicon: Lexicon, similarity: Similarities) -> list[list[_Group]]:
    """Foreign ruling groups as English ones are grouped into revisions: wordings of one language that
    align word by word (`is_revision`), name the same mechanics, digits, cards and glossary concepts
    and negate alike (`Evidence`), say the same quantifiers and number words (`foreign_signature`:
    grouped, the older wording would join the English ruling of the newer), for the same cards or both shared, never two a page lists at one
    date. A corrected wording ("Der" -> "Die +1/+1-Marke") is the same translation: its group aligns
    as one, so the two join one English entry together or stay apart together (tryout18b defect 11)."""
    evidence: dict[int, Evidence] = {}  # asked only of the pairs that align

    def evidence_of(i: int) -> Evidence:
        if i not in evidence:
            evidence[i] = lexicon.evidence(foreign[i].records[0].text, foreign[i].lang, foreign[i].written,
                                           _cards(foreign[i]))
        return evidence[i]

    def signature_of(i: int) -> frozenset[str]:
        return foreign_signature(foreign[i].records[0].text, foreign[i].lang)

    uf = _UnionFind(len(foreign))
    keys = [_card_keys(g) for g in foreign]
    pairs = _revision_pairs(foreign, [g.words for g in foreign], similarity)
    for i, j, _ in sorted(pairs, key=lambda t: (-t[2], t[0], t[1])):
        if foreign[i].lang is not foreign[j].lang or evidence_of(i) != evidence_of(j):
            continue
        if signature_of(i) != signature_of(j):  # "jede andere Kreatur" / "jede Kreatur": two rulings
            continue
        if not _may_be_one_ruling(foreign[i], foreign[j]):
            continue
        ri, rj = uf.find(i), uf.find(j)
        if ri == rj or keys[ri] & keys[rj]:
            continue
        uf.union(ri, rj)
        keys[uf.find(ri)] = keys[ri] | keys[rj]
    members: dict[int, list[_Group]] = defaultdict(list)
    for i, g in enumerate(foreign):
        members[uf.find(i)].append(g)
    return [members[root] for root in sorted(members)]


# What a text must share with an English entry's evidence to translate it, whatever its cards: its
# mechanics, digits and negation (`translation_gaps`)
GapKey = tuple[frozenset[str], frozenset[str], bool]


def gap_key(evidence: Evidence) -> GapKey:
    return evidence.mechanics, evidence.digits, evidence.negated


def _align_translations(foreign: list[list[_Group]], clusters: list[list[_Group]], embedder: Embedder | None,
                        lexicon: Lexicon, keys: list[GapKey | None] | None = None) -> dict[int, tuple[int, float]]:
    """For each group of foreign wordings (by index, see `_foreign_revisions`) that translates an
    English cluster: the cluster and the cosine. A group is judged by its newest wording and its
    records' cards and pages.

    Nearest by cosine is not enough (every text has a nearest neighbour). A translation must name
    the same mechanics (through the glossary, in any inflected form: `ConceptFinder`), digits, mana
    symbols and cards as its English entry, negate where it negates, and share most of its glossary
    concepts (`concepts_agree`); among the entries that fit so, lead the next one by a margin, or
    within it name exactly the text's concepts where the other does not (`_leader`); and be the
    best match of that entry among the texts of its language and card(s) that fit it too. When its
    card is known, only that card's English entries compete; otherwise every entry does, and an entry
    naming a mechanic the glossary has no term for is none it can be shown to translate
    (`translation_gaps`, "unglossed"). A page lists a ruling once per date,
    so the rulings its own page gives at its date are candidates only when no other fits: a page
    may give each English ruling with its translation beside it (tryout18b defect 4).

    `keys`, one per cluster, holds the `gap_key` of each cluster's English evidence where an earlier
    build found it (None: not known): a text is weighed only against the clusters of its own key and
    those not known, as any other has a gap. The keys of the clusters weighed are filled in.
    """
    if not foreign or not clusters or embedder is None:
        return {}
    newest_groups = [max(unit, key=lambda g: (g.newest, len(g.records), g.key, g.exact)) for unit in foreign]
    newest = [g.records[0] for g in newest_groups]
    records = [[r for g in unit for r in g.records] for unit in foreign]
    # The English clusters of the foreign texts' cards and pages, the only ones asked for: a pass over
    # every cluster's records is all this needs, what each cluster says is looked at when it is a candidate
    # (all clusters' cards and newest texts up front were 0.5 s of adding one page at 100k rulings).
    their_cards = {x.card for unit in records for x in unit if x.card}
    their_pages = {(x.source, x.date) for unit in records for x in unit}
    by_card: dict[str, set[int]] = defaultdict(set)
    on_page: dict[tuple[str, str | None], set[int]] = defaultdict(set)
    for c, cluster in enumerate(clusters):
        for group in cluster:
            for r in group.records:
                if r.card in their_cards:
                    by_card[r.card].add(c)
                if (r.source, r.date) in their_pages:
                    on_page[(r.source, r.date)].add(c)

    english_groups: dict[int, _Group] = {}  # cluster -> its newest English group, when asked
    english_text: dict[int, str] = {}
    cluster_cards: dict[int, frozenset[str]] = {}

    def english_of(c: int) -> _Group:
        if c not in english_groups:
            group = english_groups[c] = max(clusters[c], key=lambda g: (g.newest, len(g.records)))
            english_text[c] = group.records[0].text
            cluster_cards[c] = frozenset(r.card for g in clusters[c] for r in g.records if r.card)
        return english_groups[c]

    import numpy as np

    everything = np.arange(len(clusters))
    wanted: dict[int, NDArray[np.int64]] = {}  # foreign group -> its candidate clusters, ascending
    beside: dict[int, NDArray[np.int64]] = {}  # ... and its card's clusters on its own page, the fallback
    by_its_cards: set[int] = set()  # the groups whose cards' English entries are their candidates, not all
    english_evidence: dict[int, Evidence] = {}
    foreign_evidence: dict[int, Evidence] = {}
    unit_cards = [frozenset(x.card for x in unit if x.card) for unit in records]

    def evidence_of_text(f: int) -> Evidence:
        if f not in foreign_evidence:
            foreign_evidence[f] = lexicon.evidence(newest[f].text, newest[f].lang, newest_groups[f].written,
                                                  _cards(newest_groups[f]))
        return foreign_evidence[f]

    by_key: dict[GapKey | None, NDArray[np.int64]] | None = None  # the clusters of each known key, and of none

    def of_key(f: int) -> NDArray[np.int64]:
        """The clusters a text may translate by its `gap_key`: those of its key or of none known."""
        nonlocal by_key
        if keys is None:
            return everything
        if by_key is None:
            at: dict[GapKey | None, list[int]] = defaultdict(list)
            for c, key in enumerate(keys):
                at[key].append(c)
            by_key = {key: np.asarray(cs, dtype=np.int64) for key, cs in at.items()}
        unknown = by_key.get(None, np.empty(0, dtype=np.int64))
        return np.union1d(by_key.get(gap_key(evidence_of_text(f)), unknown), unknown)

    for f in range(len(foreign)):
        exclude = set().union(*(on_page.get((x.source, x.date), set()) for x in records[f]))
        cards = {x.card for x in records[f] if x.card}
        mine = set().union(*(by_card.get(card, set()) for card in cards)) if cards else set()
        # A card page in another language translates that card's rulings; a card the KB has no
        # English ruling for may still carry a mechanic's shared ruling, so all entries compete.
        if mine:
            by_its_cards.add(f)
            if keys is not None:
                key = gap_key(evidence_of_text(f))
                mine = {c for c in mine if keys[c] is None or keys[c] == key}
            beside[f] = np.asarray(sorted(mine & exclude), dtype=np.int64)
            wanted[f] = np.asarray(sorted(mine - exclude), dtype=np.int64)
        else:
            beside[f] = np.empty(0, dtype=np.int64)
            wanted[f] = np.setdiff1d(of_key(f), np.fromiter(exclude, dtype=np.int64, count=len(exclude)))

    def qualifies(f: int, c: int) -> bool:
        if c not in english_evidence:
            group = english_of(c)
            english_evidence[c] = lexicon.evidence(english_text[c], Lang.EN, group.written, _cards(group))
            if keys is not None:
                keys[c] = gap_key(english_evidence[c])
        evidence_of_text(f)
        if f not in by_its_cards and not could_be_shared(english_evidence[c], cluster_cards[c], foreign_evidence[f]):
            return False
        words = sorted((len(english_text[c].split()), len(newest[f].text.split())))
        return not translation_gaps(english_evidence[c], foreign_evidence[f], words[0], unit_cards[f] & cluster_cards[c],
                                    by_card=f in by_its_cards, longer=words[1])

    # Only an entry a text qualifies for (`translation_gaps`) is ever weighed by its cosine, as a fit of
    # the text or as a rival's: the others are dropped before anything is embedded. A text of no card
    # (or of a card with no English ruling) otherwise embedded every English entry of the KB (tryout27
    # D11: two minutes for the first German page, hours at 100k rulings); the result is the same.
    for f in wanted:
        wanted[f] = np.asarray([c for c in wanted[f].tolist() if qualifies(f, c)], dtype=np.int64)
        beside[f] = np.asarray([c for c in beside[f].tolist() if qualifies(f, c)], dtype=np.int64)
    needed = np.unique(np.concatenate([*wanted.values(), *beside.values(), np.empty(0, dtype=np.int64)]))
    if not len(needed):
        return {}
    # e5's symmetric-task prompt ("query: " on both sides) aligns translations best.
    # One call for both sides: the build's embedder starts a child process per call that misses its
    # cache (7-9 s of loading torch and the model), and a page of translations misses on both.
    english = [english_text[c] for c in needed.tolist()]
    vecs = np.asarray(embedder.embed_queries(english + [r.text for r in newest]))
    en_vecs, f_vecs = vecs[:len(english)], vecs[len(english):]
    sims = f_vecs @ en_vecs.T

    # The best foreign text of each language and card for each English entry, for the mutual-best
    # test: a ruling shared by many cards has a translation on each card's German page, worded by
    # whoever translated that page, and each joins; the texts of one card compete (a text several
    # cards' pages give competes in each card's pool and must lead every one; a text of no card
    # competes with the other texts of no card).
    pool_cards: dict[int, list[str | None]] = {  # once per text: a shared ruling's text has thousands of records
        f: [*sorted({x.card for x in records[f] if x.card})] or [None] for f in wanted}
    in_pool: dict[tuple[Lang, str | None], list[int]] = defaultdict(list)  # ascending f
    for f in wanted:
        for card in pool_cards[f]:
            in_pool[(newest[f].lang, card)].append(f)

    def holds(cands: NDArray[np.int64], c: int) -> bool:
        at = int(np.searchsorted(cands, c))
        return at < len(cands) and int(cands[at]) == c

    def competes(g: int, c: int) -> bool:
        return holds(wanted[g], c) or holds(beside[g], c)

    def leads_pools(f: int, c: int) -> bool:
        """`f` is the best text for entry `c` in each of its pools: no text that fits `c` too has a
        higher cosine, or the same and comes first. A text that can't translate `c` is no rival."""
        column = int(np.searchsorted(needed, c))
        mine = sims[f, column]
        for card in pool_cards[f]:
            pool = np.asarray([g for g in in_pool[(newest[f].lang, card)] if g != f and competes(g, c)], dtype=np.int64)
            scores = sims[pool, column]
            ahead = pool[(scores > mine) | ((scores == mine) & (pool < f))]
            if any(qualifies(int(g), c) for g in ahead):
                return False
        return True

    result: dict[int, tuple[int, float]] = {}
    def fitting(f: int, cands: NDArray[np.int64]) -> list[tuple[float, int]]:
        """The entries of `cands` that `f` could translate, nearest first."""
        # compared as Python floats: the threshold is not rounded
        scores = sims[f, np.searchsorted(needed, cands)].astype(np.float64)
        near = scores >= TRANSLATION_MIN_COSINE  # below it no entry qualifies: not looked at
        ranked = sorted(zip(scores[near].tolist(), cands[near].tolist()), key=lambda t: (-t[0], t[1]))
        return [(score, c) for score, c in ranked if qualifies(f, c)]

    for f in wanted:
        # The runner-up that counts is the next English entry that could be the translation too.
        fits = fitting(f, wanted[f]) or fitting(f, beside[f])
        if not fits:
            continue
        agreement = {c: _jaccard(english_evidence[c].concepts, foreign_evidence[f].concepts) for _, c in fits}
        leader = _leader(fits, agreement)
        if leader is None or not leads_pools(f, leader[1]):
            continue
        result[f] = (leader[1], leader[0])
    return result


def _leader(fits: Sequence[tuple[float, int]], agreement: Mapping[int, float]) -> tuple[float, int] | None:
    """The (cosine, entry) of `fits` ahead of every other: by `TRANSLATION_MARGIN` in cosine, or, nearer
    than that, by naming exactly the glossary concepts the text names where the other does not
    (`agreement`, their Jaccard: "... mit Megamorph ... ist eine Sonderaktion" names the ruling that
    says megamorph and special action). A higher Jaccard short of all is no evidence: on the dev
    split of bench/dedup_gold.yaml it broke a tie 0.75 to 0.6 for a text that translates neither.
    None on a near tie that evidence does not break."""
    for score, c in fits:
        if all(score - other >= TRANSLATION_MARGIN
               or (abs(score - other) < TRANSLATION_MARGIN and agreement[c] == 1.0 > agreement[o])
               for other, o in fits if o != c):
            return score, c
    return None


def translation_gaps(english: Evidence, foreign: Evidence, words: int,
                     own_cards: frozenset[str] = frozenset(), by_card: bool = True, longer: int = 0) -> list[str]:
    """What keeps a text from being the translation of an English one, however near in meaning: the
    parts of `Evidence` that differ ("mechanics", "digits", "cards", "negated", "concepts"); none when it may be.
    `words` is the shorter text's word count (see `concepts_agree`), `longer` the longer's: "length"
    when it is more than `TRANSLATION_MAX_LENGTH_RATIO` times as long, "short" when the shorter has
    fewer than `TRANSLATION_MIN_WORDS` (no sentence: a heading a page gave as a unit). `own_cards` are the cards both
    texts are given for: either may name its own card or not ("Mastery of the Unseen's first ability"
    / "die ausgelöste Fähigkeit" on its German page, tryout21), so only other cards must agree.

    A text not `by_card` (of no card, or of none the KB has an English ruling for) is weighed against
    every English entry, where some entry is near in meaning by chance: it can't translate one that
    names a mechanic the glossary can't look for in it ("unglossed": tryout29 D2, a Spanish article's
    paragraph on casting foretold cards taken for the foretell ruling on alternative and kicker costs,
    the two sharing nothing the glossary knows but "exile", "spell" and a "not"), unless the text names
    it by the words the search lexicon has for it ("mit Flugfähigkeit": flying; review40 #6)."""
    gaps = [part for part in ("mechanics", "digits", "negated") if getattr(english, part) != getattr(foreign, part)]
    if english.cards - own_cards != foreign.cards - own_cards:
        gaps.insert(2, "cards")
    if not by_card and english.unglossed - foreign.unglossed:
        gaps.insert(1, "unglossed")
    if longer > TRANSLATION_MAX_LENGTH_RATIO * words:
        gaps.insert(0, "length")
    if words < TRANSLATION_MIN_WORDS:  # "Morph / Morph" and "La metamorfosis": two pages' headings
        gaps.insert(0, "short")
    if not concepts_agree(english.concepts, foreign.concepts, words):
        gaps.append("concepts")
    return gaps


def could_be_shared(english: Evidence, cards: frozenset[str], foreign: Evidence) -> bool:
    """Whether an English entry filed under `cards` may be the ruling a text of no card, or of a card
    with no English ruling, translates (its `foreign` evidence): a mechanic's shared ruling, as that
    fallback is for (filed under no card, as a release note's general note, or under several cards, or
    naming a mechanic or keyword ability), or one of a card the text names. Another card's own ruling is
    not: tryout45 defect 1, a Spanish ruling of Mosswort Bridge ("you may look at it ..., the other
    players may not") joined Gonti, Lord of Luxury's "No player may look at it" as its translation and
    was shown as Gonti's ruling in Spanish."""
    return len(cards) != 1 or bool(english.mechanics or english.unglossed) or bool(foreign.cards & cards)


def concepts_agree(a: frozenset[str], b: frozenset[str], words: int = 0) -> bool:
    """Two texts name mostly the same glossary concepts (Jaccard >= `TRANSLATION_MIN_CONCEPTS`).
    In long texts (`words`, the shorter's count, >= `TRANSLATION_LONG`) that share two or more,
    one concept may be missing on either side: a translation often says a thing in words the
    glossary has no term for ("umzudrehen" for "turn face down")."""
    shared, union = len(a & b), len(a | b)
    if words >= TRANSLATION_LONG and shared >= 2 and union > shared:
        return shared / (union - 1) >= TRANSLATION_MIN_CONCEPTS
    return _jaccard(a, b) >= TRANSLATION_MIN_CONCEPTS


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def _variant(record: Record, relation: Relation, similarity: float) -> Variant:
    return Variant(text=record.text, original=record.original, lang=record.lang, date=record.date,
                   source=record.source, line=record.line, relation=relation, similarity=similarity,
                   card=record.card)


def _make_entry(cluster: list[_Group], translations: list[tuple[_Group, float]],
                terminology: Terminology, used_ids: set[str], similarity: Similarities,
                is_official: Callable[[str], bool]) -> Entry:
    if len(cluster) == 1 and len(cluster[0].records) == 1 and not translations:
        # one record (nine clusters in ten at 100k rulings): what the general case below gives it, without
        # its ranking and sorting of one (1.1 s of adding one page at 100k went to this function)
        group, record = cluster[0], cluster[0].records[0]
        return Entry(id=digest_id(group.kind, f"{group.kind.value}:{group.key}", used_ids), kind=group.kind,
                     text=record.text, cards=(record.card,) if record.card else (), first_date=record.date,
                     last_date=record.date, variants=(_variant(record, Relation.CANONICAL, 1.0),),
                     clause=record.clause or None)
    english = [g for g in cluster if g.lang is Lang.EN] or cluster
    # Canonical: the newest wording an official source gives (the bundled corpus, an MTGJSON file:
    # a judge's own page, typed for one card, does not reword a ruling 29 cards share, tryout21),
    # a judge's only when no official source gives the ruling; on a tie, the one with no obsolete
    # term, then the most attested.
    official = {g.exact: any(is_official(r.source) for r in g.records) for g in english}
    if len(english) == 1:
        canonical = english[0]
    else:
        # a copy that lost the mana symbols the others write is never the canonical text (review39 #1)
        symbols = any(_MANA_SYMBOL.search(g.records[0].text) for g in english)
        rank = {g.exact: (official[g.exact], not symbols or bool(_MANA_SYMBOL.search(g.records[0].text)), g.newest,
                          -len(terminology.obsolete_in(g.key)), len(g.records))
                for g in english}
        best = max(rank.values())
        # among the best, the smallest key, where a key that is a prefix of another counts as the larger
        canonical = min((g for g in english if rank[g.exact] == best), key=lambda g: (g.key + _LAST_CHAR, g.exact))
    variants: list[Variant] = []
    # its official copy first, when it has one (the same words a judge copied with a later date)
    first_canonical = min(canonical.records, key=lambda r: (not is_official(r.source), *_record_order(r)))
    for group in cluster:
        if group is canonical:
            for r in group.records:
                variants.append(_variant(r, Relation.CANONICAL if r is first_canonical else Relation.DUPLICATE, 1.0))
        else:
            ratio, _ = similarity(group.words, canonical.words)
            relation = Relation.REVISION if group.lang is canonical.lang else Relation.TRANSLATION
            variants.extend(_variant(r, relation, ratio) for r in group.records)
    for group, cosine in translations:
        variants.extend(_variant(r, Relation.TRANSLATION, cosine) for r in group.records)
    variants.sort(key=lambda v: (_RELATION_ORDER[v.relation], v.lang.value, -_day_number(v.date), v.source, v.line))
    dates = sorted(v.date for v in variants if v.date)
    oldest = min(english, key=lambda g: (min((r.date or "9999") for r in g.records), g.key, g.exact))
    clause = next((r.clause for g in cluster for r in g.records if r.clause), None)
    return Entry(
        id=digest_id(canonical.kind, f"{canonical.kind.value}:{oldest.key}", used_ids),
        kind=canonical.kind,
        text=first_canonical.text,
        cards=tuple(sorted({v.card for v in variants if v.card})),
        first_date=dates[0] if dates else None,
        last_date=dates[-1] if dates else None,
        variants=tuple(variants),
        clause=clause,
    )


_RELATION_ORDER = {Relation.CANONICAL: 0, Relation.DUPLICATE: 1, Relation.REVISION: 2, Relation.TRANSLATION: 3}


def _record_order(r: Record) -> tuple[int, str, int]:
    """The canonical wording's own copy first: the newest (a page giving one ruling under two dates
    shows it under the later), then by source and line."""
    return (-_day_number(r.date), r.source, r.line)


def _day_number(date: str | None) -> int:
    """An ISO date as a number that orders as the dates do (2018-07-13 -> 20180713); no date: 0."""
    return int((date or "0").replace("-", ""))


_LAST_CHAR = chr(0x10FFFF)  # sorts after every character a key can hold


@dataclass
class Clustering:
    """The English revisions' state between two `deduplicate` calls (`kb.ingest.delta.ClusterState`,
    None: none yet) and whether the last call took the delta (False: it joined every group again).
    After a call, `known` holds, for each entry it returned (in their order), the content digest its kept
    cluster's entry had in the last call (`kb.store.digests.content_digest`; None: not known), and `made`
    the entries of the other clusters with no translation, by root, whose digests the state is to keep
    (`kb.ingest.delta.with_digests`)."""

    state: Any = None
    delta: bool = False
    known: list[str | None] = field(default_factory=list)
    made: dict[int, Entry] = field(default_factory=dict)


def deduplicate(records: Sequence[Record], *, embedder: Embedder | None,
                terminology: Terminology | None = None, lexicon: Lexicon | None = None,
                similarity: Similarities | None = None,
                is_official: Callable[[str], bool] = lambda source: True,
                clustering: Clustering | None = None) -> list[Entry]:
    """Group records into canonical entries. Every record ends up in exactly one entry.

    `lexicon` (keywords, card names, glossary) decides which differences make two rulings; without
    one, only the records' own card names, digits, negations and quantifiers are told apart.
    `similarity` may hold the word alignments of an earlier build (the same entries, sooner).
    `is_official` tells the sources whose wordings are official (the bundled corpus, MTGJSON files)
    from a judge's own pages: an official wording is canonical before a judge's (`_make_entry`).
    `clustering` carries what the English revisions of an earlier call left (`kb.ingest.delta`): the
    groups the new records can reach are joined again, the others kept; it holds this call's after.
    """
    similarity = similarity if similarity is not None else Similarities()
    terminology = terminology if terminology is not None else Terminology()  # its memo is this call's
    lexicon = lexicon or Lexicon(terminology=terminology)
    lexicon.add_cards(r.card for r in records if r.card)
    groups = _group_exact(records)
    groups.sort(key=lambda g: (g.kind.value, g.key, g.exact))  # determinism: input order doesn't matter
    english = [g for g in groups if g.lang is Lang.EN]
    foreign = [g for g in groups if g.lang is not Lang.EN]

    rulings = [g for g in english if g.kind is Kind.RULING]
    roots: list[int] | None = None
    if clustering is not None and clustering.state is not None:
        from kb.ingest.delta import delta_roots

        found = delta_roots(clustering.state, rulings, lexicon, similarity, is_official)
        if found is not None:
            roots, clustering.state = found
            clustering.delta = True
    if roots is None:
        folded = [match_key(lexicon.fold(g.records[0].text)).split() for g in rulings]
        signatures = [lexicon.signature(g.records[0].text, _cards(g)) for g in rulings]
        tokens: list[_Tokens] = []
        uf, passing = _join_pairs(rulings, signatures, _revision_pairs(rulings, folded, similarity, tokens),
                                  lexicon, is_official)
        roots = [uf.find(i) for i in range(len(rulings))]
        if clustering is not None:
            from kb.ingest.delta import full_state

            clustering.state = full_state(rulings, roots, passing, tokens[0] if tokens else None, lexicon,
                                          is_official)
            clustering.delta = False
    members: dict[int, list[_Group]] = defaultdict(list)
    for i, g in enumerate(rulings):
        members[roots[i]].append(g)
    clusters = [members[root] for root in sorted(members)]
    clusters += [[g] for g in english if g.kind is Kind.RULE]

    foreign_rulings = _foreign_revisions([g for g in foreign if g.kind is Kind.RULING], lexicon, similarity)
    keys: list[GapKey | None] | None = None
    if clustering is not None and clustering.state is not None:
        from kb.ingest.delta import gap_keys, with_gap_keys

        keys = gap_keys(clustering.state, sorted(members), len(clusters))
    aligned = _align_translations(foreign_rulings, clusters, embedder, lexicon, keys)
    if clustering is not None and clustering.state is not None and keys is not None:
        clustering.state = with_gap_keys(clustering.state, roots, sorted(members), keys)
    attached: dict[int, list[tuple[_Group, float]]] = defaultdict(list)
    for f, (c, cosine) in aligned.items():
        attached[c].extend((g, cosine) for g in foreign_rulings[f])
    orphans = [unit for f, unit in enumerate(foreign_rulings) if f not in aligned]
    orphans += [[g] for g in foreign if g.kind is Kind.RULE]

    used: set[str] = set()
    entries = [_make_entry(cluster, attached[c], terminology, used, similarity, is_official)
               for c, cluster in enumerate(clusters)]
    entries += [_make_entry(unit, [], terminology, used, similarity, is_official) for unit in orphans]
    known: list[str | None] = [None] * len(entries)
    if clustering is not None and clustering.state is not None:
        # a kept cluster with no translation made the entry its digest was taken of (`kb.ingest.delta`)
        last: dict[int, str] = clustering.state["digests"]
        kept: dict[int, str] = {}
        clustering.made = {}
        for c, root in enumerate(sorted(members)):
            if attached[c]:
                continue
            if root in last:
                known[c] = kept[root] = last[root]
            else:
                clustering.made[root] = entries[c]
        clustering.state = {**clustering.state, "digests": kept}
    order = sorted(range(len(entries)), key=lambda k: (entries[k].kind.value, entries[k].cards,
                                                       entries[k].first_date or "", entries[k].text))
    if clustering is not None:
        clustering.known = [known[k] for k in order]
    return [entries[k] for k in order]


def translation_coverage(entries: Iterable[Entry], langs: Sequence[Lang] = (Lang.DE, Lang.ES),
                         nearest: Callable[[Entry, Lang], dict[str, Any] | None] | None = None) -> dict[str, Any]:
    """Translation coverage both ways, per language: English ruling entries without a text in the
    language, and rulings in the language that no English entry holds (entries of their own), each
    with `nearest(entry, lang)` (`kb.ingest.translations.explainer`: the English ruling of its card
    nearest to it, and why it is no translation of it) when given."""
    rulings = [e for e in entries if e.kind is Kind.RULING]
    english = [e for e in rulings if e.variants_in(Lang.EN)]
    out: dict[str, Any] = {"english_entries": len(english), "languages": {}}
    for lang in langs:
        translated = [e for e in english if e.variants_in(lang)]
        untranslated = [e for e in english if not e.variants_in(lang)]
        alone = [e for e in rulings if e.variants_in(lang) and not e.variants_in(Lang.EN)]
        out["languages"][lang.value] = {
            "translated": len(translated),
            "untranslated": [{"id": e.id, "cards": list(e.cards), "text": e.text} for e in untranslated],
            "without_english": [{"id": e.id, "cards": list(e.cards), "text": e.text_in(lang) or e.text}
                                | ({"nearest_english": nearest(e, lang)} if nearest else {}) for e in alone],
        }
    return out


def stored_count(entries: Iterable[Entry]) -> int:
    return sum(len(e.variants) for e in entries)
