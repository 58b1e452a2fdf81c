"""The domain vocabulary: languages, kinds, relations, and the frozen records judge-kb is made of.

A source page is parsed into `Record`s. Deduplication groups records into `Entry`s; each record
becomes one `Variant` of exactly one entry. Later stages attach `RuleLink`s (Comprehensive Rules
clauses) and check ids to entries. `Entry.to_json` is the export contract other tools read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Iterable, Sequence, TypeVar

_T = TypeVar("_T")


class Lang(StrEnum):
    EN = "en"
    DE = "de"
    ES = "es"


def lang_fields(lang: Lang | None, text: str | None) -> dict[str, str | None]:
    """The JSON keys a command's `--lang` adds to an entry: the language asked for and the entry's
    text in it (`lang_text`, null when it has none); none without `--lang`."""
    return {} if lang is None else {"lang": lang.value, "lang_text": text}


def source_fields(own_page: str | None, text: str, cards: Sequence[str] = ()) -> dict[str, Any]:
    """The JSON keys saying whose an entry's canonical text is: `official` (the bundled corpus or an
    MTGJSON file gives it) and `own_page`, the judge's own file it comes from when none does (null
    when official); `remark`: a judge's own entry whose `text` names none of its `cards` and no rules
    term or game word (`kb.gamewords.is_remark`), a remark more likely than a ruling."""
    from kb.gamewords import is_remark

    return {"official": own_page is None, "own_page": own_page, "remark": is_remark(text, own_page, cards)}


class Kind(StrEnum):
    RULING = "ruling"
    RULE = "rule"


class Format(StrEnum):
    """How a source is parsed (`kb ingest --format`); stored with each library source."""

    CARD_PAGE = "card-page"
    SEARCH_PAGE = "search-page"
    MTGJSON = "mtgjson"
    RELEASE_NOTES = "release-notes"


class Relation(StrEnum):
    """How a variant relates to its entry's canonical text."""

    CANONICAL = "canonical"  # the newest English wording: the entry's text
    DUPLICATE = "duplicate"  # the same wording again (another page, card, source or date)
    REVISION = "revision"  # an older (or superseded) wording of the same ruling
    TRANSLATION = "translation"  # the ruling in another language


def fast_pickle(cls: type[_T]) -> type[_T]:
    """Pickle a frozen slots dataclass as the tuple of its field values. The dataclass default calls
    `dataclasses.fields()` for every object unpickled (~13 µs each): the build's caches hold
    hundreds of thousands of records, links and variants. Applied over `@dataclass`."""
    import dataclasses
    import operator

    names = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    get = operator.attrgetter(*names)
    setter = object.__setattr__

    def getstate(self: Any) -> Any:
        return get(self) if len(names) > 1 else (get(self),)

    def setstate(self: Any, state: Any) -> None:
        for name, value in zip(names, state):
            setter(self, name, value)

    setattr(cls, "__getstate__", getstate)
    setattr(cls, "__setstate__", setstate)
    return cls


@fast_pickle
@dataclass(frozen=True, slots=True)
class Problem:
    """A unit of input that could not be used, with where it is and why."""

    source: str
    line: int | None
    reason: str
    ignored: bool = False  # True for units that are by design not rulings (cross-reference stubs)

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        return f"{where}: {self.reason}"


@fast_pickle
@dataclass(frozen=True, slots=True)
class Record:
    """One ruling or rule text as parsed from a source, before deduplication."""

    text: str  # normalised (NFKC, plain quotes, single spaces)
    original: str  # exactly as in the source
    lang: Lang
    date: str | None  # ISO 8601, None when the source gives none
    source: str  # the corpus file's path
    line: int  # 1-based line where the text starts
    kind: Kind
    card: str | None  # English card name, None for rules-search pages
    clause: str | None = None  # for kind `rule`: the CR clause number the text is


@fast_pickle
@dataclass(frozen=True, slots=True)
class CardName:
    """A card's name in one language, as a source gives it (`name` == `english` for English)."""

    english: str
    lang: Lang
    name: str


@fast_pickle
@dataclass(frozen=True, slots=True)
class ParseResult:
    records: tuple[Record, ...]
    problems: tuple[Problem, ...] = ()
    card_names: tuple[CardName, ...] = ()  # every card name the source gives, in EN/DE/ES


@fast_pickle
@dataclass(frozen=True, slots=True)
class Variant:
    """A record as it sits in its entry, with its relation and the similarity that justified it."""

    text: str
    original: str
    lang: Lang
    date: str | None
    source: str
    line: int
    relation: Relation
    similarity: float
    card: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "lang": self.lang.value,
            "date": self.date,
            "source": self.source,
            "line": self.line,
            "relation": self.relation.value,
            "similarity": round(self.similarity, 4),
            "card": self.card,
        }

    def to_store(self) -> dict[str, Any]:
        """Like `to_json`, plus the original text where normalising changed it."""
        d = self.to_json()
        if self.original != self.text:
            d["original"] = self.original
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Variant:
        return cls(
            text=d["text"],
            original=d.get("original", d["text"]),
            lang=Lang(d["lang"]),
            date=d["date"],
            source=d["source"],
            line=d["line"],
            relation=Relation(d["relation"]),
            similarity=d["similarity"],
            card=d.get("card"),
        )


@fast_pickle
@dataclass(frozen=True, slots=True)
class RuleLink:
    """A Comprehensive Rules clause an entry interprets."""

    clause: str  # number in the current CR, e.g. "708.8"
    score: float
    at_ruling_date: str | None  # number in the CR in force at the entry's first date, e.g. "707.8"
    evidence: str

    def to_json(self) -> dict[str, Any]:
        return {
            "clause": self.clause,
            "score": round(self.score, 4),
            "at_ruling_date": self.at_ruling_date,
            "evidence": self.evidence,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RuleLink:
        return cls(d["clause"], d["score"], d.get("at_ruling_date"), d.get("evidence", ""))


@fast_pickle
@dataclass(frozen=True, slots=True)
class Entry:
    """One canonical ruling (or rule text) with every variant that says it."""

    id: str
    kind: Kind
    text: str  # canonical: the newest English wording
    cards: tuple[str, ...]
    first_date: str | None
    last_date: str | None
    variants: tuple[Variant, ...]
    rules: tuple[RuleLink, ...] = ()
    checks: tuple[str, ...] = ()
    clause: str | None = field(default=None)  # for kind `rule`: the CR clause the text is
    link_note: str = ""  # why a ruling has no rule link ("no confident link: ..."); "" when it has links

    def variants_in(self, lang: Lang) -> tuple[Variant, ...]:
        return tuple(v for v in self.variants if v.lang == lang)

    def written(self, text: str) -> str | None:
        """When the wording `text` was written, which tells what its words could mean then: the first
        date a variant says it; the entry's last date when none does (the canonical text is its newest
        wording); None for a CR clause (`text` is the current CR's: every mechanic it names exists)."""
        if self.kind is Kind.RULE:
            return None
        return min((v.date for v in self.variants if v.text == text and v.date), default=self.last_date)

    def text_in(self, lang: Lang) -> str | None:
        """The newest text of this entry in `lang`, or None when the KB has none."""
        if lang == Lang.EN:
            return self.text
        found = sorted(self.variants_in(lang), key=lambda v: v.date or "")
        return found[-1].text if found else None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind.value,
            "text": self.text,
            "cards": list(self.cards),
            "first_date": self.first_date,
            "last_date": self.last_date,
            "variants": [v.to_json() for v in self.variants],
            "rules": [r.to_json() for r in self.rules],
            "checks": list(self.checks),
        }
        if self.clause:
            d["clause"] = self.clause
        if self.link_note:
            d["link_note"] = self.link_note
        return d

    def to_store(self) -> dict[str, Any]:
        """Like `to_json`, plus what only the store needs (original texts)."""
        return self.to_json() | {"variants": [v.to_store() for v in self.variants]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entry:
        return cls(
            id=d["id"],
            kind=Kind(d["kind"]),
            text=d["text"],
            cards=tuple(d["cards"]),
            first_date=d["first_date"],
            last_date=d["last_date"],
            variants=tuple(Variant.from_json(v) for v in d["variants"]),
            rules=tuple(RuleLink.from_json(r) for r in d.get("rules", [])),
            checks=tuple(d.get("checks", [])),
            clause=d.get("clause"),
            link_note=d.get("link_note", ""),
        )


def text_lang(entry: Entry, text: str) -> Lang:
    """The language of one of `entry`'s texts: a ruling no English wording holds is its German or
    Spanish text (its canonical text), so "no text in the asked language" does not mean English."""
    return next((v.lang for v in entry.variants if v.text == text), Lang.EN)  # a CR clause: English


def text_in(entry: Entry, lang: Lang) -> str | None:
    """`entry`'s newest text in `lang`, None when it has none (a German ruling with no English
    wording has no English text, although its canonical text is German). `Entry.text_in` gives the
    canonical text for English whatever its language."""
    if lang is Lang.EN:
        return entry.text if text_lang(entry, entry.text) is Lang.EN else None
    return entry.text_in(lang)


def wording_langs(langs: Iterable[str]) -> tuple[str, ...]:
    """The languages of an entry's wordings (codes), sorted; English for an entry with none (a CR
    clause: its text is the English CR's)."""
    return tuple(sorted(set(langs))) or (Lang.EN.value,)


@dataclass(frozen=True, slots=True)
class EntrySummary:
    """An entry as `kb list` shows it: what its row says, its variants counted, not listed, and its
    text in the language asked for. The store reads it from columns (a shared ruling holds thousands
    of copies at 100k rulings: decoding them cost ~0.15 s a card); `of` makes it from an entry."""

    id: str
    kind: Kind
    text: str
    cards: tuple[str, ...]
    first_date: str | None
    last_date: str | None
    clause: str | None
    langs: tuple[str, ...]  # the languages of its wordings, sorted; ("en",) for a CR clause (no wordings)
    variants: int
    lang: Lang | None = None  # the language asked for
    lang_text: str | None = None  # its text in `lang` (see `of`), None when it has none

    @classmethod
    def of(cls, entry: Entry, lang: Lang | None = None) -> EntrySummary:
        """`lang_text` is the newest wording in `lang`; in English, the canonical text unless that is
        a German or Spanish one (a ruling no English wording holds)."""
        text = text_in(entry, lang) if lang is not None else None
        return cls(entry.id, entry.kind, entry.text, entry.cards, entry.first_date, entry.last_date, entry.clause,
                   wording_langs(v.lang.value for v in entry.variants), len(entry.variants), lang, text)

    def to_json(self) -> dict[str, Any]:
        return ({"id": self.id, "kind": self.kind.value, "text": self.text} | lang_fields(self.lang, self.lang_text)
                | {"cards": list(self.cards), "first_date": self.first_date, "last_date": self.last_date,
                   "langs": list(self.langs), "variants": self.variants}
                | ({"clause": self.clause} if self.clause else {}))
