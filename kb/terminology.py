"""Obsolete Magic terminology: words the rules have replaced, with the replacement and the date.

Loaded once from `corpus/terminology.yaml` and passed to the stages that need it: dedup (of two
same-dated wordings, the one without obsolete terms is the newer) and `kb outdated` (a wording that
uses an obsolete term is flagged). Each term is a phrase matched case-insensitively on whole words,
or, when its forms vary or a false friend must be excluded ("play a land" is still current, "play a
spell" is not), a regular expression. A term belongs to one language: German and Spanish rulings
and translations changed their own words, not always when and how English did ("ins Spiel kommen"
is still the German for "enters the battlefield").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Container, Mapping, Sequence

from kb.model import Lang


@lru_cache(maxsize=None)
def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@lru_cache(maxsize=None)
def _source(pattern: str | None, obsolete: str) -> str:
    return pattern or rf"\b{re.escape(obsolete)}\b"


@lru_cache(maxsize=64)
def _of_lang(terms: tuple[Term, ...], lang: Lang | None) -> tuple[tuple[Term, ...], re.Pattern[str] | None]:
    """The terms of `lang` (all when None), and one regex that matches where any of them does: most
    texts use no obsolete term, and one search tells so where one per term would."""
    mine = tuple(t for t in terms if lang is None or t.lang is lang)
    # named groups (`verb`, `drop` of `_rewritten`) may repeat across terms: unnamed in the union
    union = "|".join(f"(?:{re.sub(r'[(][?]P<[a-z]+>', '(?:', t.expression)})" for t in mine)
    return mine, _compile(union) if mine else None


def _same_case(found: str, replacement: str) -> str:
    """`replacement` capitalised when the phrase it replaces starts a sentence ("He or she" → "They")."""
    return replacement[:1].upper() + replacement[1:] if found[:1].isupper() else replacement


_PLURAL = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go", "doesn't": "don't",
           "hasn't": "haven't", "isn't": "aren't", "wasn't": "weren't"}
_NOT_A_VERB = frozenset({"always", "sometimes", "perhaps", "thus", "also", "as", "is"})


def _plural_verb(word: str) -> str:
    """The verb after "he or she" as "they" takes it: owns → own, passes → pass, tries → try."""
    low = word.lower()
    if low in _PLURAL:
        return _PLURAL[low]
    if low in _NOT_A_VERB or not low.endswith("s") or low.endswith("ss"):
        return word
    if low.endswith("ies"):
        return word[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z)es$", low):
        return word[:-2]
    return word[:-1]


def _rewritten(m: re.Match[str], forms: Mapping[str, str]) -> str | None:
    """A match of a pattern with a `verb` group the forms replace (`put` -> `create`) and perhaps a
    `drop` group the current wording leaves out (` onto the battlefield`): "put a Plant token onto
    the battlefield" -> "create a Plant token". None for other patterns."""
    groups = m.groupdict()
    verb = groups.get("verb")
    if verb is None or verb.lower() not in forms:
        return None
    edits = [(m.span("verb"), _same_case(verb, forms[verb.lower()]))]
    if groups.get("drop") is not None:
        edits.append((m.span("drop"), ""))
    out, start = m.group(0), m.start()
    for (a, b), new in sorted(edits, reverse=True):  # from the end, so the earlier spans hold
        out = out[:a - start] + new + out[b - start:]
    return out


@dataclass(frozen=True, slots=True)
class Term:
    obsolete: str  # the phrase as a judge knows it: "comes into play"
    current: str  # what the rules say now: "enters the battlefield"
    since: str  # ISO date the change took effect
    source: str  # where the change is documented
    lang: Lang = Lang.EN
    pattern: str | None = None  # regex when the phrase alone is not enough (forms, false friends)
    forms: tuple[tuple[str, str], ...] = field(default=())  # matched text (lower case) → replacement

    @property
    def expression(self) -> str:
        """The regular expression of the term (its `pattern`, else the phrase on whole words)."""
        return _source(self.pattern, self.obsolete)

    @property
    def regex(self) -> re.Pattern[str]:
        return _compile(self.expression)

    def found_in(self, text: str) -> bool:
        return self.regex.search(text) is not None

    def matches(self, text: str) -> list[str]:
        """The obsolete phrases as they occur in `text`."""
        return [m.group(0) for m in self.regex.finditer(text)]

    def suggest(self, text: str) -> str | None:
        """`text` with the obsolete phrase replaced, or None when the replacement needs a human
        (a pattern match whose form has no listed replacement: "remove X from the game")."""
        forms = dict(self.forms)
        failed = False

        def replace(m: re.Match[str]) -> str:
            nonlocal failed
            found = m.group(0).lower()
            if found in forms:
                return _same_case(m.group(0), forms[found])
            if (rewritten := _rewritten(m, forms)) is not None:
                return rewritten
            if self.pattern is None:
                return _same_case(m.group(0), self.current)
            failed = True
            return m.group(0)

        out = text
        if self.current == "they":  # singular they takes a plural verb: "he or she owns" → "they own"
            out = _compile(rf"(?:{self.expression})(\s+)([A-Za-z']+)").sub(
                lambda m: replace(m) + m.group(1) + _plural_verb(m.group(2)), out)
        out = self.regex.sub(replace, out)
        return None if failed or out == text else out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Term:
        return cls(str(d["obsolete"]), str(d["current"]), str(d["since"]), str(d.get("source", "")),
                   Lang(d.get("lang", "en")), d.get("pattern"),
                   tuple((str(k).lower(), str(v)) for k, v in (d.get("forms") or {}).items()))


PLAY_A_SPELL = "play a spell"  # the term a nonland card played by its name falls under
# "play" a card by its name ("If you play Clone", "Playing the Onslaught card Artificial Evolution on …"):
# a spell (cast since 2009) or a land (still played), which only the card's type tells, so no pattern can
_PLAYED_NAME = re.compile(r"\b(?P<verb>(?i:play(?:s|ed|ing)?))\s+(?:the\s+(?:[A-Z][\w'’-]*\s+){1,3}card\s+)?"
                          r"(?P<name>[A-Z][\w'’-]*(?:,\s+[A-Z][\w'’-]*|\s+(?:[A-Z][\w'’-]*|of|the|to|in|and|from|with|de|la|von))*)")
_NAME_WORDS = 8  # the longest English card names have 7 words
# a card that is cast: of a spell's type and no land (Dryad Arbor is played; a Vanguard, a Plane, a draft's
# Conspiracy are never cast)
_SPELL_TYPE = re.compile(r"\b(?:Creature|Instant|Sorcery|Artifact|Enchantment|Planeswalker|Tribal|Kindred|Battle)\b")
_LAND = re.compile(r"\bLand\b")
# a set or product that shares a card's name, played in Limited ("if you play Time Spiral booster drafts",
# "Conspiracy drafts", "Onslaught block Constructed"): no card played
_PRODUCT = re.compile(r"\s+(?:booster|draft(?:ing)?|sealed|limited|constructed|block|set|expansion|release|prerelease"
                      r"|pack|league|cube|tournament|format)s?\b", re.IGNORECASE)
CardType = Callable[[str], "str | None"]  # a known card's type line by its name ("Creature — Shapeshifter"), else None


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A nonland card played by its name in a text: the words from "play" to the name, and the card."""
    phrase: str
    card: str
    type: str
    verb: tuple[int, int]  # where "play" (or its form) is in the text


def played_cards(text: str, card_type: CardType) -> list[PlayedCard]:
    """The nonland cards `text` plays by their names ("If you play Clone": Clone is a creature), each
    the longest run of the capitalised words after "play" that names a known card; a land ("play
    Forest"), a card never cast (a Vanguard) and a name the KB doesn't know are none, nor is the first
    part of a longer name the KB doesn't know ("Urza" of "Urza, Lord High Artificer") or a set or product
    that shares a card's name ("Time Spiral booster drafts")."""
    found: list[PlayedCard] = []
    for m in _PLAYED_NAME.finditer(text):
        words = m.group("name").split()[:_NAME_WORDS]
        for n in range(len(words), 0, -1):
            name = " ".join(words[:n]).rstrip(",'’")
            if not name[:1].isupper() or not words[n - 1][:1].isupper():
                continue  # a name ends in a word of its own, not a joiner ("Clone of the ..." is Clone)
            kind = card_type(name)
            if kind is not None:
                end = m.start("name") + len(name)
                # "Urza," of "Urza, Lord High Artificer" is no card played, unless a known card follows the
                # comma ("If you play Clone, Clone enters"); nor is a set or product ("Conspiracy drafts")
                longer = n < len(words) and words[n - 1].endswith(",") and not any(
                    card_type(" ".join(words[n:k]).rstrip(",'’")) for k in range(len(words), n, -1))
                if not longer and not _PRODUCT.match(text, end) and _SPELL_TYPE.search(kind) \
                        and not _LAND.search(kind):
                    found.append(PlayedCard(text[m.start():end], name, kind, m.span("verb")))
                break
    return found


@dataclass(frozen=True, slots=True)
class Terminology:
    terms: tuple[Term, ...] = ()
    # (text, lang) -> the terms it uses: a build asks for each wording several times (dedup folds
    # it, ranks it, `kb outdated` flags it), and a library repeats wordings across pages
    _found: dict[tuple[str, Lang | None], tuple[Term, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def obsolete_in(self, text: str, lang: Lang | str | None = None) -> list[Term]:
        """Terms of `lang` (every language when None) that `text` uses."""
        key = (text, Lang(lang) if lang is not None else None)
        found = self._found.get(key)
        if found is None:
            terms, any_term = _of_lang(self.terms, key[1])
            if any_term is None or any_term.search(text) is None:
                found = ()
            else:
                found = tuple(t for t in terms if t.found_in(text))
            self._found[key] = found
        return list(found)

    def found_table(self, texts: Container[str]) -> dict[tuple[str, Lang | None], tuple[int, ...]]:
        """What `obsolete_in` found in these texts (in any language asked), as positions in `terms`:
        a table a later build gives back to `learn` (the disk cache) to skip the regexes."""
        # by value: `_of_lang` is cached by the terms tuple, so an equal Terminology's Term objects come back
        position = {t: i for i, t in enumerate(self.terms)}
        return {key: tuple(position[t] for t in found) for key, found in self._found.items() if key[0] in texts}

    def learn(self, table: Mapping[tuple[str, Lang | None], Sequence[int]]) -> None:
        """Take what an earlier `found_table` of these very terms says."""
        for key, positions in table.items():
            self._found.setdefault(key, tuple(self.terms[i] for i in positions))

    def term(self, obsolete: str) -> Term | None:
        """The term of that `obsolete` phrase, if the table has it."""
        return next((t for t in self.terms if t.obsolete == obsolete), None)

    def played_by_name(self, text: str, lang: Lang | str | None, card_type: CardType | None) -> list[PlayedCard]:
        """The nonland cards an English text plays by their names (`played_cards`) where the "play a
        spell" term does not already match that "play" ("play Exalted Angel face down")."""
        term = self.term(PLAY_A_SPELL)
        if card_type is None or term is None or (lang is not None and Lang(lang) is not term.lang) \
                or not _PLAYED_NAME.search(text):
            return []
        spans = [m.span() for m in term.regex.finditer(text)]
        return [p for p in played_cards(text, card_type) if not any(a <= p.verb[0] < b for a, b in spans)]

    def cast_played(self, text: str, lang: Lang | str | None, card_type: CardType | None) -> str:
        """`text` with each "play" of a nonland card by its name (`played_by_name`) in the form of "cast"
        the "play a spell" term gives ("If you play Clone" → "If you cast Clone")."""
        term = self.term(PLAY_A_SPELL)
        forms = dict(term.forms) if term else {}
        played = self.played_by_name(text, lang, card_type)
        for p in sorted(played, key=lambda p: p.verb, reverse=True):  # from the end, so the earlier spans hold
            a, b = p.verb
            if text[a:b].lower() in forms:
                text = text[:a] + _same_case(text[a:b], forms[text[a:b].lower()]) + text[b:]
        return text

    def for_lang(self, lang: Lang) -> list[Term]:
        return [t for t in self.terms if t.lang is lang]

    @classmethod
    def from_yaml(cls, text: str) -> Terminology:
        import yaml

        doc = yaml.safe_load(text) or {}
        return cls(tuple(Term.from_json(t) for t in doc.get("terms", [])))
