"""The EN/DE/ES domain glossary (`corpus/glossary.yaml`): one concept, its words in each language.

A judge asks in German about `verdeckte` creatures; the ruling says `face-down`. The glossary finds
the concepts a question names and adds their words in the other languages to the lexical query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from datetime import date, timedelta
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from kb.errors import InputError
from kb.model import Lang
from kb.normalize import STOPWORDS, fold, search_words, stem
from kb.search.text import tokenize

GLOSSARY_FILE = "glossary.yaml"
MIN_PART = 5  # a shorter term is too often part of an unrelated word (`carta` in `cartel`)
MIN_HEAD_PREFIX = 4  # "Mitspieler" (fellow player) is no kind of `Spiel`
# What a Spanish verb's stem (kb.normalize.stem) keeps of its ending beyond a listed form:
# "contrarrestaron" `contrarrestaro`, "lanzarla" `lanzarl`, "controlaba" `controlab`, "exiliando"
# `exiliand`. Not "-or": "jugador" (player) is not `jugad` (played).
SPANISH_ENDINGS = frozenset("aro iero ero ab ad id and iend l a o e".split())
LEXICON_FILE = "search-lexicon.yaml"  # search's own additions: the words players ask with
# the German and Spanish names of the CR's keywords the two files above leave out, as translations (and the
# keywords knowingly left without one, `unnamed`, which tests/test_glossary_keywords.py checks against the CR)
KEYWORDS_FILE = "keyword-names.yaml"
CORPUS_FILES = (GLOSSARY_FILE, LEXICON_FILE, KEYWORDS_FILE)  # what `load_corpus` reads, in merge order
# A set's rulings come out weeks before the CR that defines its mechanics (Fate Reforged's manifest
# rulings are dated 2014-11-24, the CR with 701.40 2015-01-23): a wording is read as older than a
# mechanic only when it was written this long before a complete CR that still lacks it.
MECHANIC_LEAD_DAYS = 183

# A verb term of the glossary is asked about in any of its forms: a judge writes "presagié" (I foretold),
# "encubro" (I cloak), "presagio" (the noun), "tarnte", where the glossary lists the infinitive. The forms
# are derived, not listed: a question's word is the verb when it is the verb's root (the infinitive less
# -ar/-er/-ir, -en) with one of a person's or tense's endings, as the stemmer leaves them (`_remnants`).
# Regular conjugation only: an irregular form (encubierto, gesehen) is a term of its own in the YAML.
SPANISH_VERB_ENDINGS = (  # present, preterite, imperfect, future, conditional, subjunctive, participle, gerund
    "o as a amos ais an e es emos eis en aste asteis aron aba abas abamos abais aban "
    "are aras ara aremos areis aran aria arias ariamos arian ase ases asen ado ada ados adas ando "
    "i iste io imos isteis ieron ia ias iamos iais ian ere eras era eremos ereis eran ire iras ira iremos "
    "ireis iran eria erias eriamos erian iria irias iriamos irian iera ieras ieran iese iesen ido ida idos "
    "idas iendo"
).split()
# the noun a verb names its act with (Verkleidung, Tarnung) and the weak verb's persons and tenses
GERMAN_VERB_ENDINGS = "e st t et est te test ten tet ete eten ung ungen end ende".split()
# A German word that goes on from a one-word term's letters with only a weak verb's person or tense ending
# is a verb: it names the term's concept only when the concept lists that verb ("spielt": `play` lists
# "spielen"), not when the concept's verb is another ("Stimmt das?", is that right?, is no `vote`, whose
# verb is "abstimmen", though its noun is "Stimme").
GERMAN_PERSON_ENDINGS = frozenset("t st et est te test ten tet ete eten".split())
GERMAN_PARTICIPLE = ("t", "te", "ten", "ter", "tes", "tem", "et", "ete", "eten", "en", "ene", "enen", "")  # "" the stemmer took it
# separable prefixes: the participle takes ge after them (umgedreht, aufgedeckt); inseparable ones none
GERMAN_SEPARABLE = ("zuruck", "vorher", "heraus", "nach", "auf", "aus", "ein", "vor", "weg", "mit", "um", "an",
                    "ab", "zu")
GERMAN_INSEPARABLE = ("be", "ge", "er", "ver", "zer", "ent", "emp", "miss")
# Folding drops the umlaut, and a German question's "zählt" (counts) became "zahlt" (pays), "drückt"
# "druckt": a German question's words are read with the umlaut spelled out ("zaehlt"), and each German
# term with an umlaut also as so spelled, so "zählt" meets only terms with that umlaut and "zahlt" (or
# an umlaut typed as "a") the terms without. Rulings are read as before (their terms' folded forms).
_SPELLED_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})


def spell_umlauts(text: str) -> str:
    """German `text` with ä, ö, ü written ae, oe, ue (see `_SPELLED_UMLAUTS`)."""
    return text.translate(_SPELLED_UMLAUTS)


def _as_asked(text: str, langs: Iterable[Lang]) -> str:
    """A question's `text` as its German words are read: umlauts spelled out when German is asked for."""
    return spell_umlauts(text) if Lang.DE in langs else text
# How many English terms `english_terms` gives at most: e5 reads them beside the question, and more terms than the
# English wording would say outweigh the question's own words.
ENGLISH_TERMS = 5
MIN_VERB_ROOT = 4  # "ver" (ver, to see), "dar": a root this short would read half the language as the verb

# Where a question says a word as a keyword's name (`keyword_words`): quoted, capitalised inside a sentence ("una
# criatura con Vacío"; in German, where every noun is, only with no article before it: `_DE_DETERMINERS`), right
# after "with" or a verb of having ("criatura con vacío", "tiene amenaza": an object has a keyword), within
# KEYWORD_BESIDE words of a term of the glossary's concepts (or translations) for abilities and keywords in the same clause ("la habilidad vacío",
# "Fähigkeit Fahl", "palabra clave esconder"), or as all the text says (a term looked up alone).
KEYWORD_CONTEXT = ("abilities", "keyword_ability")  # concept or translation ids
KEYWORD_BESIDE = 2
# "with", or a verb of having ("tiene amenaza", "hat Echo", "has menace": an object has a keyword as often as it is
# "with" it; review49 M3), folded
_WITH = frozenset({"with", "con", "mit", "has", "have", "having", "had", "tener", "tiene", "tienen", "tengo", "tienes",
                   "tenga", "tengan", "teniendo", "tenia", "tenian", "haben", "hat", "habe", "hast", "habt", "hatte",
                   "hatten"})
# German capitalises every noun, so a capital says a keyword only where no article or determiner makes the word a
# noun of the sentence ("kein Wunder", "im Schatten", "ein Entkommen": review49 M4; "funktioniert Fahl", "hat Wunder")
_DE_DETERMINERS = frozenset({"der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
                             "kein", "keine", "keinen", "keinem", "keiner", "im", "am", "vom", "zum", "zur", "beim",
                             "ins", "ans", "aufs", "durchs", "furs", "fürs", "diese", "dieser", "dieses", "diesem",
                             "diesen", "jede", "jeder", "jedes", "jedem", "jeden"})
_QUOTES = "\"'“”„‟«»‘’‚‹›"
_CLAUSE_BREAK = re.compile(r"[,;:.?!¿¡()\[\]\n]")
_SENTENCE_OPEN = ".?!¿¡:\n"
_LETTERS = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Concept:
    id: str
    terms: dict[Lang, tuple[str, ...]]
    # Terms (as written in `terms`) that are everyday words too: the printed Spanish devoid "Vacío" is "empty",
    # hideaway's "Esconder" "to hide", German devoid "Fahl" "pale". A question's word is such a term only where it
    # says it as a keyword (`keyword_words`); read by `Glossary.translate`.
    everyday: frozenset[str] = frozenset()
    # Words a question says that share a term's stem but are other words ("Wirkung", effect, stems as "wirken",
    # cast, does; "Lösung", solution, as "lösen", trigger): they name no concept (`Glossary._asked`).
    unlike: frozenset[str] = frozenset()

    def tokens(self, langs: tuple[Lang, ...] = tuple(Lang)) -> list[str]:
        out: list[str] = []
        for lang in langs:
            for term in self.terms.get(lang, ()):
                out.extend(tokenize(term))
        return out


@dataclass(frozen=True, slots=True)
class MechanicHistory:
    """When the glossary's mechanic concepts joined the Comprehensive Rules.

    A mechanic named by an everyday English word (disguise, cloak, manifest, ward) is that mechanic
    in a ruling only if the ruling was written when the mechanic existed: "The pile is shuffled to
    disguise from your opponents which manifested creature is which" (Ghastly Conscription, 2014)
    says the verb, ten years before disguise (702.168)."""

    # concept id -> the date of the last complete CR without its keyword (a later CR has it)
    absent_on: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_rules(cls, glossary: Glossary, versions: Iterable[Any],
                   keywords_of: Callable[[Any], Iterable[str]]) -> MechanicHistory:
        """From the CR `versions` (oldest first; `.date`, `.complete`) and the keyword names each
        defines (`keywords_of`, lowercased: kb.ingest.dedup.keywords_from_rules). A face-down extract
        lacks most keywords and proves no absence; a keyword no later CR has was dropped, not added."""
        versions = list(versions)
        names = [frozenset(keywords_of(v)) for v in versions]
        absent: dict[str, str] = {}
        for concept in glossary.concepts:
            terms = {t.lower() for t in concept.terms.get(Lang.EN, ())}
            has = [bool(terms & n) for n in names]
            if not any(has):
                continue  # no keyword: a game word (face down, tapped), not a mechanic
            last = max(i for i, h in enumerate(has) if h)
            lacking = [versions[i].date for i in range(last) if versions[i].complete and not has[i]]
            if lacking:
                absent[concept.id] = lacking[-1]
        return cls(absent)

    def unknown_on(self, written: str | None) -> frozenset[str]:
        """The concept ids of the mechanics that did not exist yet when a text was written on
        `written` (ISO date; None, unknown: none)."""
        if not written or not self.absent_on:
            return frozenset()
        try:
            latest = (date.fromisoformat(written[:10]) + timedelta(days=MECHANIC_LEAD_DAYS)).isoformat()
        except ValueError:
            return frozenset()
        return frozenset(c for c, absent in self.absent_on.items() if latest <= absent)

    def to_json(self) -> dict[str, str]:
        return dict(self.absent_on)


class Glossary:
    """Concepts and a phrase matcher over their (tokenised) terms.

    `translations` are concepts of another kind: a German or Spanish question's words for them give
    the lexical query their English words (`translate`), and that is all. They add no concept token to
    any text, question or document, so the index and English questions are read as without them."""

    def __init__(self, concepts: list[Concept], digest: str = "",
                 translations: list[Concept] | None = None) -> None:
        self.concepts = concepts
        self.digest = digest  # of the YAML it was read from: an index records which glossary it used
        self.translations = list(translations or [])
        # the translations' own matcher (their German and Spanish terms), made on the first `translate`
        self._translator: Glossary | None = None
        self._head_glossary: Glossary | None = None  # `_heads`
        # Phrases by first token, longest first, per language (a dict look-up per token): `face up`
        # beats `face`. A text is matched with its own language's terms (and a question also with
        # English's, which players mix in): German "löst" must not find `trigger` in the English
        # "lost", nor Spanish "forma" a card name in English.
        # Per language two tables: every term (for rulings), and every term but the quoted ones
        # (for questions: a quoted term, '"Form"', is a nickname the rulings use for a card, while
        # in a question the bare word is an everyday one, Spanish "de alguna forma").
        self._by_first: dict[tuple[Lang, bool], dict[str, list[tuple[tuple[str, ...], int]]]] = {}
        self._parts: dict[tuple[Lang, bool, str], list[tuple[str, int]]] = {}
        # (language, first word) -> (the words of a term that is all function words but one, with
        # them, concept): matched in a question's words as written (`phrases_in`)
        self._whole: dict[tuple[Lang, str], list[tuple[tuple[str, ...], int]]] = {}
        for lang in Lang:
            patterns: set[tuple[tuple[str, ...], int, bool]] = set()
            for i, concept in enumerate(concepts):
                terms = [(term, tuple(tokenize(term))) for term in concept.terms.get(lang, ())]
                if lang is Lang.DE:  # a term with an umlaut as a question spells it (`spell_umlauts`)
                    terms += [(spelled, tuple(tokenize(spelled))) for term, _ in list(terms)
                              if (spelled := spell_umlauts(term)) != term]
                single = {t for term, toks in terms if len(term.split()) == 1 for t in toks}
                for term, toks in terms:
                    # A phrase whose other words are function words ("decke auf", "which one is
                    # which", "in play") leaves one everyday token ("deck", "one", "play"): it stands
                    # for the concept only when a one-word term of the concept is that token too.
                    if (len(toks) == 1 and len(term.split()) > 1 and toks[0] not in single) or not toks:
                        # ... but a question that says the phrase word for word names it
                        # ("más de una vez", "greift an", "which is which": `phrases_in`)
                        if len(whole := tuple(tokenize(term, keep_stopwords=True))) > 1:
                            self._whole.setdefault((lang, whole[0]), []).append((whole, i))
                        continue
                    patterns.add((toks, i, term.startswith('"') and term.endswith('"')))
            # A German or Spanish question's word that holds a one-word term (`parts`): its stem
            # begins with the term's ("contrarrestaron": `contrarrest`; "Morphkreaturen": `morph`) or,
            # German putting a compound's head last, ends with it ("Kartenverkleidung").
            if lang is not Lang.EN:
                # by the first and the last four letters a word must share with the term
                for term, i in sorted({(toks[0], i) for toks, i, quoted in patterns
                                       if len(toks) == 1 and not quoted and len(toks[0]) >= MIN_PART},
                                      key=lambda p: (-len(p[0]), p[1])):
                    self._parts.setdefault((lang, False, term[:4]), []).append((term, i))
                    self._parts.setdefault((lang, True, term[-4:]), []).append((term, i))
            for question in (False, True):
                by_first: dict[str, list[tuple[tuple[str, ...], int]]] = {}
                for phrase, ci in sorted({(t, ci) for t, ci, quoted in patterns if not (question and quoted)},
                                         key=lambda p: (-len(p[0]), p[1])):
                    by_first.setdefault(phrase[0], []).append((phrase, ci))
                self._by_first[lang, question] = by_first
        # (language, a verb term's root) -> concepts: its persons, tenses and noun (`_verb_forms`)
        self._roots: dict[tuple[Lang, str], list[int]] = {}
        # which concepts (ids) a question's derived verb forms may name; None: all. A searcher keeps
        # them to keywords' (`Searcher._names_keyword`): "copiaba" is `copy`, but read so it moved a
        # judge question's answer down (es-25, 1 -> 2), and what players inflect unread are keywords.
        self.inflected: Callable[[str], bool] | None = None
        for i, concept in enumerate(concepts):
            for lang in (Lang.ES, Lang.DE):
                for term in concept.terms.get(lang, ()):
                    forms = (term, spell_umlauts(term)) if lang is Lang.DE else (term,)
                    for root in (r for t in dict.fromkeys(forms) for r in verb_roots(t, lang)):
                        if i not in (have := self._roots.setdefault((lang, root), [])):
                            have.append(i)
        self._words: dict[Lang, frozenset[str]] = {}
        self._whole_words: dict[Lang, frozenset[str]] = {}  # `whole_words`' answers
        self._term_words: dict[Lang, frozenset[str]] = {}  # every token of every term, per language
        self._unlike_words: dict[int, frozenset[str]] = {}  # `_unlike`'s answers
        self._lang_words: dict[Lang, frozenset[str]] | None = None  # `langs_of_word`'s tokens per language

    @classmethod
    def from_yaml(cls, text: str, source: str = GLOSSARY_FILE) -> Glossary:
        import yaml

        try:
            doc = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise InputError(f"{source}: not valid YAML: {exc}") from None
        if not isinstance(doc, dict):
            raise InputError(f"{source}: expected a mapping with a `concepts` list")
        return cls(_concepts(doc, "concepts", source), text_digest(text),
                   _concepts(doc, "translations", source))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"digest": self.digest, "concepts": [_concept_json(c) for c in self.concepts]}
        if self.translations:
            out["translations"] = [_concept_json(c) for c in self.translations]
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Glossary:
        """The compiled form an index stores, so a query never parses YAML."""
        def read(rows: list[dict[str, Any]]) -> list[Concept]:
            return [Concept(row["id"], {lang: tuple(row[lang.value]) for lang in Lang if lang.value in row},
                            frozenset(row.get("everyday", ())), frozenset(row.get("unlike", ()))) for row in rows]

        return cls(read(doc["concepts"]), doc.get("digest", ""), read(doc.get("translations", [])))

    @classmethod
    def read(cls, path: Path) -> Glossary:
        """The glossary file at `path` alone (an empty glossary when there is none)."""
        text = _read(path)  # no glossary: lexical search still works, monolingual
        return cls.from_yaml(text, str(path)) if text else cls([], text_digest(""))

    @classmethod
    def load_corpus(cls, corpus: Path) -> Glossary:
        """The corpus's glossary with its search lexicon and keyword names merged in (what search expands by)."""
        glossary = cls.read(corpus / GLOSSARY_FILE)
        for name in CORPUS_FILES[1:]:
            if more := _read(corpus / name):
                glossary = glossary.merged(cls.from_yaml(more, str(corpus / name)))
        return glossary

    def merged(self, other: Glossary) -> Glossary:
        """This glossary with `other`'s concepts (and translations): a known id gains the other's
        terms, a new id is added."""
        return Glossary(_merge(self.concepts, other.concepts), text_digest(self.digest + other.digest),
                        _merge(self.translations, other.translations))

    def translate(self, text: str, lang: Lang) -> list[str]:
        """The tokens of the English (first) term of each translation a German or Spanish question's
        `text` names by its `lang` terms (found as a question's: inflected forms, compounds, phrases
        said word for word), less the tokens `text` has; none for English."""
        have = set(tokenize(_as_asked(text, (lang,))))
        out: list[str] = []
        for concept in self._translations_in(text, lang):
            for tok in tokenize(concept.terms.get(Lang.EN, ("",))[0]):
                if tok not in have:
                    have.add(tok)
                    out.append(tok)
        return out

    def _translations_in(self, text: str, lang: Lang) -> list[Concept]:
        """The translations (`translate`) a German or Spanish question's `text` names, each once, in text order."""
        return list({c.id: c for c, _ in self._translation_spans(text, lang)}.values())

    def _translation_spans(self, text: str, lang: Lang) -> list[tuple[Concept, frozenset[str]]]:
        """Each translation a German or Spanish question's `text` names (`_translations_in`) with the tokens
        of `text` that name it, in text order."""
        if lang is Lang.EN or not self.translations:
            return []
        if self._translator is None:
            self._translator = Glossary(_everyday_apart(self.translations))
        own = self._translator
        asked = _as_asked(text, (lang,))
        words = tokenize(asked)
        spans: list[tuple[int, int, int]] = []
        own._match(words, (lang,), question=True, spans=spans)
        # an everyday term (`Concept.everyday`: `_everyday_apart` made it a concept of its own) only where the
        # question says it as a keyword
        said = self.keyword_words(text, lang) if any(own.concepts[ci].everyday for ci, _, _ in spans) else frozenset()
        found = [(ci, frozenset(words[i:i + n])) for ci, i, n in spans
                 if not own.concepts[ci].everyday or set(words[i:i + n]) <= said]
        found += [(ci, frozenset()) for ci in own.phrases_in(asked, (lang,))]
        return [(own.concepts[ci], toks) for ci, toks in found]

    def english_terms(self, text: str, lang: Lang) -> list[str]:
        """At most `ENGLISH_TERMS` English terms of the rules words a German or Spanish question's `text` says, each
        once, as its English wording would say them; none for English. What e5 reads beside the question: it ranks
        English texts lower for a German or Spanish question than for the same question in English.

        First the lexicon translations a word names ("stirbt" -> "dies"), then the head term of each concept the
        question names by that concept's own head term in `lang` ("Aufräumphase" -> "cleanup step"), in text
        order. A concept named by another of its terms gives nothing, its head term being another word ("Gegner",
        a term of `controller`, is no "control"; "auf dem Stapel" no "spell"), nor one whose word a translation
        covers ("muere": "dies", not "leaves the battlefield"), unless the concept says more ("Ersatzeffekte":
        `replacement effect`, its last part's translation `effect`). A term another term holds goes ("zona de
        mando": `command zone`, not `zone` too)."""
        if lang is Lang.EN:
            return []
        translated = self._translation_spans(text, lang)
        said, rest, words = self._said(text, (lang,))
        heads = self._heads()
        by_head = {heads.concepts[ci].id for ci, _, _ in heads._spans(rest, words, (lang,))}
        by_head |= {heads.concepts[ci].id for ci in heads._said(text, (lang,))[0]}

        def english(c: Concept) -> set[str]:
            return set(tokenize(c.terms.get(Lang.EN, ("",))[0]))

        named = [ci for ci, i, n in self._spans(rest, words, (lang,)) if all(
            english(t) <= english(self.concepts[ci]) for t, toks in translated if toks & set(rest[i:i + n]))]
        concepts = [c for c, _ in translated] + [self.concepts[ci] for ci in dict.fromkeys(named + said)
                                                 if self.concepts[ci].id in by_head]
        terms = list(dict.fromkeys(c.terms[Lang.EN][0] for c in concepts if c.terms.get(Lang.EN)))
        held = [t for t in terms if any(set(t.lower().split()) < set(u.lower().split()) for u in terms)]
        return [t for t in terms if t not in held][:ENGLISH_TERMS]

    def _heads(self) -> Glossary:
        """This glossary with each concept's first (head) term per language alone (`english_terms`)."""
        if self._head_glossary is None:
            self._head_glossary = Glossary([Concept(c.id, {lang: terms[:1] for lang, terms in c.terms.items()},
                                                    c.everyday, c.unlike) for c in self.concepts])
            self._head_glossary.inflected = self.inflected
        return self._head_glossary

    def keyword_words(self, text: str, lang: Lang) -> frozenset[str]:
        """The tokens of the words a `lang` question's `text` says as a keyword's name (see `KEYWORD_CONTEXT`):
        quoted, capitalised inside a sentence (in German with no article before it: "kein Wunder" is none), right
        after "with" or "has" (`_WITH`), beside a word for an ability or a keyword in the same clause, or all the
        text says."""
        context = {t for c in (*self.concepts, *self.translations) if c.id in KEYWORD_CONTEXT
                   for la in (lang, Lang.EN) for term in c.terms.get(la, ()) for t in tokenize(_as_asked(term, (la,)))}
        found = list(_LETTERS.finditer(text))
        tokens = [tokenize(_as_asked(m[0], (lang,))) for m in found]
        clause: list[int] = []
        at = n = 0
        for m in found:
            n += len(_CLAUSE_BREAK.findall(text, at, m.start()))
            at = m.start()
            clause.append(n)
        out: set[str] = set()
        for k, m in enumerate(found):
            before = text[:m.start()].rstrip()
            opened = before.rstrip(_QUOTES + " ")  # what stands before it, an opening quote left out
            after = text[m.end():m.end() + 1]
            near = range(max(0, k - KEYWORD_BESIDE), min(len(found), k + KEYWORD_BESIDE + 1))
            if (len(found) == 1
                    or (before != "" and before[-1] in _QUOTES and after != "" and after in _QUOTES)
                    or (m[0][:1].isupper() and opened != "" and opened[-1] not in _SENTENCE_OPEN
                        and not (lang is Lang.DE and k > 0 and fold(found[k - 1][0]) in _DE_DETERMINERS))
                    or (k > 0 and clause[k - 1] == clause[k] and fold(found[k - 1][0]) in _WITH)
                    or any(j != k and clause[j] == clause[k] and context & set(tokens[j]) for j in near)):
                out.update(tokens[k])
        return frozenset(out)

    def says_term_word(self, word: str, langs: tuple[Lang, ...]) -> bool:
        """Whether the written `word` is a word of a term of `langs` in a form a question's word meets
        it by (`_says`): German "Grauens" is the "Grauen" of `das Grauen`."""
        toks = tokenize(word)
        if len(toks) != 1:
            return False
        for lang in dict.fromkeys(langs):
            if lang not in self._term_words:
                self._term_words[lang] = frozenset(t for c in self.concepts for term in c.terms.get(lang, ())
                                                   for t in tokenize(term))
        words = frozenset().union(*(self._term_words[lang] for lang in langs))
        return toks[0] in words or (Lang.DE in langs and stem(toks[0]) in words)

    def langs_of_word(self, word: str) -> frozenset[Lang]:
        """The languages a term of which (a concept's or a translation's: the printed keyword names) has the
        written `word` as one of its words, in a form a question's word meets it by ("Bedrohlich": German
        only, menace; "Morph": English and German)."""
        if self._lang_words is None:
            self._lang_words = {lang: frozenset(t for c in (*self.concepts, *self.translations)
                                                for term in c.terms.get(lang, ())
                                                for form in dict.fromkeys((term, _as_asked(term, (lang,))))
                                                for t in tokenize(form)) for lang in Lang}
        out = set()
        for lang, words in self._lang_words.items():
            toks = tokenize(_as_asked(word, (lang,)))
            if len(toks) == 1 and (toks[0] in words or (lang is Lang.DE and stem(toks[0]) in words)):
                out.add(lang)
        # a word no term has may be another form of a keyword's verb, as a question reads it (`_verb_forms`): the
        # infinitive "disfrazar" of the printed reflexive "disfrazarse" (smoke51 L2), "disfracé", "tarnte"
        for lang in (Lang.DE, Lang.ES) if not out else ():
            toks = tokenize(_as_asked(word, (lang,)))
            if len(toks) == 1 and self._verb_forms(toks[0], (lang,)):
                out.add(lang)
        return frozenset(out)

    def term_tokens(self, concept: str, lang: Lang) -> frozenset[str]:
        """Every token of the `lang` terms of the concept with id `concept` (none for an unknown id)."""
        return frozenset(t for c in self.concepts if c.id == concept for term in c.terms.get(lang, ())
                         for t in tokenize(term))

    def words(self, lang: Lang) -> frozenset[str]:
        """The tokens of the terms of `lang` that are one token ("Kreatur", "Kopie"): what
        `split_compounds` finds at the end of a German compound."""
        if lang not in self._words:
            self._words[lang] = _one_token_terms(self.concepts, lang)
        return self._words[lang]

    def whole_words(self, lang: Lang) -> frozenset[str]:
        """The tokens of the `translations`' terms of `lang` that are one token ("Trampelschaden", "Kampfschaden"):
        words a German compound that is a term itself keeps whole (`split_compounds`' `whole`), as `words` keeps
        a concept's."""
        if lang not in self._whole_words:
            self._whole_words[lang] = _one_token_terms(self.translations, lang)
        return self._whole_words[lang]

    def concepts_in(self, text: str, langs: tuple[Lang, ...] = tuple(Lang), *,
                    question: bool = False, unknown: frozenset[str] = frozenset()) -> list[Concept]:
        """Concepts whose terms in `langs` occur in `text` (as token phrases), each once, in text
        order; in a `question`, quoted terms (nicknames the rulings use) are not looked for. A ruling's
        `unknown` concepts (`MechanicHistory.unknown_on` its date) are its words' everyday sense."""
        toks = tokenize(_as_asked(text, langs) if question else text)
        return [self.concepts[ci] for ci in self._match(toks, langs, question) if self.concepts[ci].id not in unknown]

    def question_tokens(self, text: str, langs: tuple[Lang, ...] = tuple(Lang)) -> list[str]:
        """The concept tokens of a question's `text`: `concept_tokens` of its tokens, and the
        concepts of the terms it says word for word that those tokens cannot hold (`phrases_in`)."""
        said, rest, words = self._said(text, langs)
        found = ["~" + self.concepts[ci].id for ci in self._asked(rest, words, langs)]
        return list(dict.fromkeys(found + ["~" + self.concepts[ci].id for ci in said]))

    def _asked(self, tokens: list[str], words: list[str], langs: tuple[Lang, ...]) -> list[int]:
        """The concepts (positions) a question's `tokens` (the stems of its `words`) name, as `_match` finds them,
        less a concept met by one word it lists as `unlike` ("Wirkung", effect, stems as "wirken", cast, does; a
        term of more words said whole, "entre al campo de batalla", is the term whatever its words)."""
        return list(dict.fromkeys(ci for ci, _, _ in self._spans(tokens, words, langs)))

    def _spans(self, tokens: list[str], words: list[str], langs: tuple[Lang, ...]) -> list[tuple[int, int, int]]:
        """`_asked`'s concepts as `_match`'s spans (concept, first token, tokens), in text order."""
        spans: list[tuple[int, int, int]] = []
        self._match(tokens, langs, question=True, spans=spans)
        return [(ci, i, n) for ci, i, n in spans
                if not (n == 1 and self.concepts[ci].unlike and self._unlike(ci) & {words[i]})]

    def _unlike(self, ci: int) -> frozenset[str]:
        """Concept `ci`'s `unlike` words as a question's words are read (folded, umlauts spelled out)."""
        if ci not in self._unlike_words:
            self._unlike_words[ci] = frozenset(w for t in self.concepts[ci].unlike
                                               for w in search_words(spell_umlauts(t)))
        return self._unlike_words[ci]

    def phrases_in(self, text: str, langs: tuple[Lang, ...] = tuple(Lang)) -> list[int]:
        """The concepts (positions) of the terms in `langs` that `text` says word for word, function
        words included, among the terms whose other words are all function words ("más de una vez",
        "greift an", "which is which"): without those words such a term is one everyday word
        ("vez", "greift") or none, and the token matcher (`_match`) leaves it out."""
        return self._said(text, langs)[0]

    def _said(self, text: str, langs: tuple[Lang, ...]) -> tuple[list[int], list[str], list[str]]:
        """`phrases_in(text)`, the tokens of `text` outside the terms it says word for word, and their words
        (folded, unstemmed).

        A said term reads its words: "a morph" is a face-down object named after its keyword, "on
        the stack" a spell; the words within it are not read again as a concept of their own (the
        morph keyword, the stack), or a player's name for an object would read as the mechanic. A
        longer term that holds its words and more ("the morph cost") is read instead, as the token
        matcher reads the longest term."""
        words = search_words(_as_asked(text, langs), keep_stopwords=True)
        tokens = [stem(w) for w in words]
        content = [i for i, w in enumerate(words) if w not in STOPWORDS]  # the positions `tokenize` keeps
        at = {i: n for n, i in enumerate(content)}
        plain = [tokens[i] for i in content]
        inside = [False] * len(words)
        found: list[int] = []
        for k, word in enumerate(tokens if self._whole else ()):
            for lang in dict.fromkeys(langs):
                for phrase, ci in self._whole.get((lang, word), ()):
                    if tuple(tokens[k:k + len(phrase)]) != phrase:
                        continue
                    held = [at[i] for i in range(k, k + len(phrase)) if i in at]
                    if held and self._longest(plain, held[0], langs) > len(held):
                        continue
                    inside[k:k + len(phrase)] = [True] * len(phrase)
                    if ci not in found:
                        found.append(ci)
        rest = [(t, w) for t, w, said in zip(tokens, words, inside) if not said and w not in STOPWORDS]
        return found, [t for t, _ in rest], [w for _, w in rest]

    def _longest(self, toks: list[str], i: int, langs: tuple[Lang, ...]) -> int:
        """How many tokens the longest question term of `langs` at `toks[i]` holds (0: none)."""
        return max((len(p) for lang in dict.fromkeys(langs) for p, _ in self._by_first[lang, True].get(toks[i], ())
                    if tuple(toks[i:i + len(p)]) == p), default=0)

    def concept_tokens(self, tokens: list[str], langs: tuple[Lang, ...] = tuple(Lang), *,
                       question: bool = False, unknown: frozenset[str] = frozenset()) -> list[str]:
        """Language-neutral tokens (`~face_down`) for the concepts in already tokenised text, found
        by the terms of `langs` (the text's language; a question's plus English), less the
        `unknown` ones (see `concepts_in`)."""
        return ["~" + self.concepts[ci].id for ci in self._match(tokens, langs, question)
                if self.concepts[ci].id not in unknown]

    def _match(self, toks: list[str], langs: tuple[Lang, ...], question: bool = False,
               spans: list[tuple[int, int, int]] | None = None) -> list[int]:
        # Greedy left to right, longest phrase first (over every language asked for): `enters the
        # battlefield` is one concept, not `battlefield` as well. `spans` gets each match's (concept,
        # first token, tokens).
        tables = [self._by_first[lang, question] for lang in dict.fromkeys(langs)]
        cased = question and Lang.DE in langs
        found: list[int] = []
        i = 0
        while i < len(toks):
            firsts = dict.fromkeys((toks[i], stem(toks[i])) if cased else (toks[i],))
            options = [o for t in tables for first in firsts for o in t.get(first, ())]
            if len(tables) > 1 or len(firsts) > 1:
                options.sort(key=lambda p: (-len(p[0]), p[1]))
            for phrase, ci in options:
                n = len(phrase)
                if _says(toks[i : i + n], phrase, cased):
                    if ci not in found:
                        found.append(ci)
                    if spans is not None:
                        spans.append((ci, i, n))
                    i += n
                    break
            else:
                if question:
                    for ci in self._verb_forms(toks[i], langs) or self._word_parts(toks[i], langs):
                        if ci not in found:
                            found.append(ci)
                        if spans is not None:
                            spans.append((ci, i, 1))
                i += 1
        return found

    def _verb_forms(self, token: str, langs: tuple[Lang, ...]) -> list[int]:
        """The concepts of the verb terms a German or Spanish question's `token` (no term itself) is a
        form of: the verb's root with a person's or tense's ending ("presagié" `presagi`, "encubro"
        `encubr`, "tarnte" `tarnt`), or the verb's participle ("getarnt", "umgedreht")."""
        if not self._roots:
            return []
        found: list[int] = []
        for lang in langs:
            if lang is Lang.EN:
                continue
            for root in _roots_of(token, lang):
                found.extend(self._roots.get((lang, root), ()))
        return [ci for ci in dict.fromkeys(found) if self.inflected is None or self.inflected(self.concepts[ci].id)]

    def _word_parts(self, token: str, langs: tuple[Lang, ...]) -> list[int]:
        """The concepts of the longest one-word terms a German or Spanish `token` (no term itself)
        is made of: in German a term it begins with (an inflection, a compound's first part; a verb's
        person ending after it only when the concept lists that verb: `GERMAN_PERSON_ENDINGS`) or ends
        with after at least `MIN_HEAD_PREFIX` letters (a compound's head: "Kartenverkleidung"); in
        Spanish a term it begins with when the rest is a verb ending (`SPANISH_ENDINGS`)."""
        found: list[int] = []
        for lang in langs:
            for end in (False, True) if lang is Lang.DE else (False,):
                best = 0
                key = (lang, end, token[-4:] if end else token[:4])
                for term, ci in self._parts.get(key, ()):  # longest first
                    if len(term) < best or len(term) >= len(token):
                        continue
                    if end:
                        fits = token.endswith(term) and len(token) - len(term) >= MIN_HEAD_PREFIX
                    elif lang is Lang.DE:
                        fits = token.startswith(term) and (token[len(term):] not in GERMAN_PERSON_ENDINGS
                                                           or ci in self._roots.get((lang, term), ()))
                    else:
                        fits = token.startswith(term) and token[len(term):] in SPANISH_ENDINGS
                    if fits:
                        best = len(term)
                        found.append(ci)
        return list(dict.fromkeys(found))

    def expand(self, text: str, langs: tuple[Lang, ...] = tuple(Lang), *, first_only: bool = False,
               text_langs: tuple[Lang, ...] = tuple(Lang)) -> list[str]:
        """Tokens of the terms in `langs` of the concepts `text` names (by its terms in `text_langs`)
        that `text` does not already have. The concepts are those `question_tokens` reads: by their
        terms' tokens, and by the terms said word for word ("counter a", "on the stack": `phrases_in`).

        With `first_only`, each concept contributes its first (head) term per language only, so a
        concept with many synonyms does not outweigh one with few."""
        have = set(tokenize(_as_asked(text, text_langs)))
        extra: list[str] = []
        said, rest, words = self._said(text, text_langs)
        for ci in dict.fromkeys(self._asked(rest, words, text_langs) + said):
            concept = self.concepts[ci]
            if first_only:
                toks = [t for lang in langs for t in tokenize(concept.terms.get(lang, ("",))[0])]
            else:
                toks = concept.tokens(langs)
            for tok in toks:
                if tok not in have:
                    have.add(tok)
                    extra.append(tok)
        return extra


def verb_roots(term: str, lang: Lang) -> list[str]:
    """The roots a verb `term` of `lang` is conjugated on (folded): a Spanish infinitive's less -ar,
    -er, -ir (and a reflexive -se), with the spellings it takes before an -e ("disfrazar": disfraz,
    disfrac; "atacar": atac, atacu; "pagar": pag, pagu); a German lower-case infinitive's less -en or
    -n (a capitalised one is a noun: "Kreaturen"). None for a phrase, another word or a short root."""
    word = term.strip()
    if " " in word or not word.isalpha():
        return []
    if lang is Lang.DE:
        if not word[0].islower() or not word.endswith("n"):
            return []
        word = fold(word)
        root = word[:-2] if word.endswith("en") else word[:-1]
        return [root] if len(root) >= MIN_VERB_ROOT else []
    if lang is not Lang.ES:
        return []
    word = fold(word)
    if word.endswith("se") and word[-4:-2] in ("ar", "er", "ir"):
        word = word[:-2]
    if word[-2:] not in ("ar", "er", "ir") or len(word) - 2 < MIN_VERB_ROOT:
        return []
    root = word[:-2]
    roots = [root]
    if word.endswith("zar"):
        roots.append(root[:-1] + "c")  # disfracé
    elif word.endswith("car"):
        roots.append(root[:-1] + "qu")  # ataqué
    elif word.endswith("gar"):
        roots.append(root + "u")  # pagué
    return roots


def _one_token_terms(concepts: Iterable[Concept], lang: Lang) -> frozenset[str]:
    """The tokens of the terms of `lang` that are one token, of `concepts`."""
    return frozenset(toks[0] for c in concepts for term in c.terms.get(lang, ()) if len(toks := tokenize(term)) == 1)


@lru_cache(maxsize=None)
def _remnants(lang: Lang) -> tuple[str, ...]:
    """What the stemmer leaves of each verb ending of `lang` after a root, longest first ("presagiaste"
    `presagiast`: "ast"; "presagié" `presagi`: "")."""
    endings = SPANISH_VERB_ENDINGS if lang is Lang.ES else GERMAN_VERB_ENDINGS
    root = "xxxxx"  # long enough for every suffix the stemmer strips
    return tuple(sorted({stem(root + e)[len(root):] for e in endings}, key=lambda r: (-len(r), r)))


def _roots_of(token: str, lang: Lang) -> list[str]:
    """The verb roots a question's stemmed `token` of `lang` may be a form of (`_remnants`); in German
    also a participle's root, without its ge (and its separable prefix before it: "umgedreht" um+dreh)."""
    out = [token[:len(token) - len(r)] for r in _remnants(lang)
           if token.endswith(r) and len(token) - len(r) >= MIN_VERB_ROOT]
    if lang is Lang.DE:
        for prefix in ("", *GERMAN_SEPARABLE):
            body = token[len(prefix):]
            if token.startswith(prefix) and body.startswith("ge"):
                out += [prefix + body[2:len(body) - len(end)] for end in GERMAN_PARTICIPLE
                        if body.endswith(end) and len(body) - 2 - len(end) >= MIN_VERB_ROOT - len(prefix)]
        # an inseparable or -ieren verb's participle has no ge: "verkleidet", "manifestiert"
        if token.endswith("t") and (token.startswith(GERMAN_INSEPARABLE) or token.endswith("iert")):
            out.append(token[:-1])
    return list(dict.fromkeys(out))


def _says(toks: list[str], phrase: tuple[str, ...], cased: bool) -> bool:
    """Whether the question's tokens `toks` are the term `phrase`; `cased`, a German question's noun
    may carry a case ending the stemmer cut the stem's own ending for in the term: the genitive
    "des Grauens" (`grauen`) is the term's "Grauen" (`grau`), as the stemmer cuts one ending only."""
    if tuple(toks) == phrase:
        return True
    return cased and len(toks) == len(phrase) and all(t == p or stem(t) == p for t, p in zip(toks, phrase))


def text_digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def corpus_digest(corpus: Path) -> str:
    """The digest `Glossary.load_corpus(corpus)` carries, without parsing YAML."""
    digest = text_digest(_read(corpus / GLOSSARY_FILE))
    for name in CORPUS_FILES[1:]:
        if more := _read(corpus / name):
            digest = text_digest(digest + text_digest(more))
    return digest


def _concepts(doc: dict[str, Any], key: str, source: str) -> list[Concept]:
    """The rows of `doc[key]` as concepts; InputError naming the file and the row for a row (or a
    section) of the wrong shape."""
    rows = doc.get(key) or []
    if not isinstance(rows, list):
        raise InputError(f"{source}: `{key}` must be a list of rows (id, en, de, es), not {type(rows).__name__}")
    concepts = []
    for n, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or "id" not in row:
            raise InputError(f"{source}: {key[:-1]} #{n} has no id")  # "concept #3"
        terms: dict[Lang, tuple[str, ...]] = {}
        for lang in Lang:
            value = row.get(lang.value)
            if value is not None and not isinstance(value, (str, list)):
                raise InputError(f"{source}: {key[:-1]} #{n} ({row['id']}): `{lang.value}` must be a term or a list "
                                 f"of terms, not {type(value).__name__}")
            terms[lang] = tuple(_as_list(value))
        everyday = _as_list(row.get("everyday"))
        if everyday and key != "translations":
            raise InputError(f"{source}: {key[:-1]} #{n} ({row['id']}): `everyday` is read for translations only "
                             "(Glossary.translate)")
        if unknown := [t for t in everyday if not any(t in v for v in terms.values())]:
            raise InputError(f"{source}: {key[:-1]} #{n} ({row['id']}): `everyday` lists {unknown[0]!r}, "
                             "which is none of its terms")
        concepts.append(Concept(str(row["id"]), {k: v for k, v in terms.items() if v}, frozenset(everyday),
                                frozenset(_as_list(row.get("unlike")))))
    return concepts


def _concept_json(c: Concept) -> dict[str, Any]:
    out: dict[str, Any] = {"id": c.id, **{k.value: list(v) for k, v in c.terms.items()}}
    for key, words in (("everyday", c.everyday), ("unlike", c.unlike)):
        if words:
            out[key] = sorted(words)
    return out


def _everyday_apart(concepts: list[Concept]) -> list[Concept]:
    """`concepts` with each one's everyday terms (`Concept.everyday`) a concept of their own, with its English
    terms and `everyday` set: where its terms are matched, which one a question's word met is known."""
    out: list[Concept] = []
    for c in concepts:
        if not c.everyday:
            out.append(c)
            continue
        english = c.terms.get(Lang.EN, ())
        plain = {lang: kept for lang, terms in c.terms.items()
                 if (kept := tuple(t for t in terms if lang is Lang.EN or t not in c.everyday))}
        out.append(Concept(c.id, plain))
        out.append(Concept(c.id, {Lang.EN: english, **{lang: everyday for lang, terms in c.terms.items()
                                                       if lang is not Lang.EN
                                                       and (everyday := tuple(t for t in terms if t in c.everyday))}},
                           c.everyday))
    return out


def _merge(mine: list[Concept], other: list[Concept]) -> list[Concept]:
    """`mine` with `other`'s concepts: a known id gains the other's terms, a new id is added."""
    by_id = {c.id: c for c in mine}
    concepts = list(mine)
    for c in other:
        if c.id in by_id:
            have = by_id[c.id]
            terms = {lang: tuple(dict.fromkeys(have.terms.get(lang, ()) + c.terms.get(lang, ())))
                     for lang in Lang if have.terms.get(lang) or c.terms.get(lang)}
            concepts[concepts.index(have)] = Concept(c.id, terms, have.everyday | c.everyday, have.unlike | c.unlike)
        else:
            concepts.append(c)
    return concepts


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]
