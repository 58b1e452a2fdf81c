"""What the read commands show, as data with `to_json`: an entry with its outdated marks, its checks
run now and the clauses it links to (`kb show`); a card with its Oracle text, names in every
language and its rulings (`kb card`); a list of entries (`kb list`). The CLI prints the JSON or
renders these objects; it decides nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Collection, Mapping, Sequence

from kb.errors import NotFoundError
from kb.model import Entry, EntrySummary, Kind, Lang, lang_fields, source_fields, text_in, text_lang, wording_langs

if TYPE_CHECKING:
    from kb.checks import CheckResult
    from kb.corpus import Corpus
    from kb.cr.query import ChangeKind
    from kb.oracle import OracleCard
    from kb.outdated import OutdatedItem
    from kb.checks.scenario import Check
    from kb.search.cardnames import NamedCard
    from kb.search.rank import Hit
    from kb.store import KB, CardEntry


def in_lang(entry: Entry, lang: Lang | None) -> dict[str, Any]:
    """The JSON fields `--lang` adds: the language asked for and the entry's text in it (null when none)."""
    return lang_fields(lang, text_in(entry, lang) if lang is not None else None)


def no_text_note(kb: KB, lang: Lang | None, *, filters: bool = True) -> str | None:
    """When the KB holds no text at all in `lang` (the bundled corpus has no Spanish), one sentence
    saying so and what follows: a `--lang` filter (`filters`) keeps nothing, else the rulings are
    shown in English. None otherwise (tryout18: `kb outdated --lang es` said "no outdated wordings",
    read as "every Spanish wording is current")."""
    if lang is None or lang is Lang.EN or kb.variant_count(lang):
        return None
    then = f"--lang {lang.value} keeps nothing" if filters else "the rulings are shown in English"
    return f"the KB holds no {lang.value} text, so {then}"


# --- kb show -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EntryView:
    """An entry, the outdated items of its wordings, its scenario checks and their results under the
    current rules, and the current text of the clauses it links to (when asked for)."""

    entry: Entry
    outdated: list[OutdatedItem]
    checks: list[Check]
    results: list[CheckResult]
    moved_from: str | None = None  # the id asked for, when it moved to this entry
    clause_texts: dict[str, str] = field(default_factory=dict)
    moved_why: str = ""  # why it moved ("its wording was changed in page.txt")
    # a CR clause's entry: (date, number) of each bundled CR version that holds the clause, oldest first
    cr_versions: tuple[tuple[str, str], ...] = ()
    own_page: str | None = None  # the judge's own file its canonical text comes from, when no official source gives it
    # a CR clause's entry: (date, number, how) of each bundled CR version whose text differs from the one before
    # (its older wordings are no variants: `kb rule` shows them, tryout31 #10); `how` says whether reworded or
    # only its references renumbered (tryout48 D7)
    cr_rewordings: tuple[tuple[str, str, ChangeKind], ...] = ()
    # text -> the judge's own file of each wording other than the canonical one that no official source gives
    # (`kb show --lang` shows a translation first: a judge's own is marked as theirs, tryout44 L2, review44 #3)
    own_texts: dict[str, str] = field(default_factory=dict)

    def marks(self) -> dict[int, list[str]]:
        """Variant index -> the outdated reasons of that variant."""
        return {item.variant_index: item.kinds for item in self.outdated}

    def to_json(self, lang: Lang | None = None) -> dict[str, Any]:
        """The entry's JSON, its outdated items and check results; with `lang` (`kb show --lang`), the
        language asked for and the entry's text in it (`lang_text`, null when it has none)."""
        return self.entry.to_json() | in_lang(self.entry, lang) | source_fields(self.own_page, self.entry.text, self.entry.cards) | {
            "shown_own_page": self.shown_own_page(lang),
            "outdated": [item.to_json() for item in self.outdated],
            "check_results": [r.to_json() for r in self.results],
        } | ({"moved_from": self.moved_from, "moved_why": self.moved_why} if self.moved_from else {})

    def shown_own_page(self, lang: Lang | None = None) -> str | None:
        """The judge's own file the text shown first comes from (with `lang`, the translation `kb show
        --lang` puts first); None when an official source gives it (as `kb list` and `kb search` say it)."""
        local = text_in(self.entry, lang) if lang is not None else None
        if local and local != self.entry.text:
            return self.own_texts.get(local)
        return self.own_page


def entry_view(kb: KB, entry_id: str, corpus: Corpus, *, clause_texts: bool = False,
               lang: Lang | None = None) -> EntryView:
    """The entry `entry_id` (or a unique prefix, or an id that moved) names, with its checks run now;
    with `clause_texts`, also the current text of each clause it links to (reads the CR). An id that is
    gone is quoted in `lang` when it had a wording in it (NotFoundError)."""
    found = kb.resolve(entry_id, lang)
    entry = found.entry
    checks: list[Check] = []
    results: list[CheckResult] = []
    if entry.checks:  # the checks and the rules model are imported only for an entry that has some
        from kb.checks import run_entry_checks

        checks, results = run_entry_checks(entry, corpus)
    texts: dict[str, str] = {}
    if clause_texts and entry.rules:
        texts = corpus.clause_texts([link.clause for link in entry.rules])
    versions: tuple[tuple[str, str], ...] = ()
    rewordings: tuple[tuple[str, str, ChangeKind], ...] = ()
    if entry.clause and entry.clause in corpus.rules.current.clauses:  # not a glossary term
        # a clause's text is the CR's, not a page's: its versions say what "0 wordings" did not (tryout18)
        steps = corpus.rules.history(entry.clause).steps
        versions = tuple((step.date, step.number) for step in steps)
        rewordings = tuple((step.date, step.number, step.change) for step in steps if step.change.text_changed)
    others = [(entry.id, text) for text in dict.fromkeys(v.text for v in entry.variants) if text != entry.text]
    return EntryView(entry, kb.outdated(entry.id), checks, results, found.moved_from, texts, found.why, versions,
                     kb.own_pages([entry.id]).get(entry.id), rewordings,
                     {text: page for (_, text), page in kb.own_texts(others).items()})


# --- kb list -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class EntryList:
    """Entries as `kb list` shows them: one summary row each (the variants counted, not listed), and
    how many CR clauses were left out (`kb list` without --kind lists the rulings only)."""

    entries: list[EntrySummary]
    rules_left_out: int = 0
    # (entry id, text) of the translations shown that `kb outdated` calls superseded (`superseded_translations`)
    superseded: frozenset[tuple[str, str]] = frozenset()
    own_pages: dict[str, str] = field(default_factory=dict)  # entry id -> the judge's own file, where no official source gives it
    # entry id -> the judge's own file of the translation shown (`lang_text`), where no official source gives it
    own_shown: dict[str, str] = field(default_factory=dict)

    @classmethod
    def select(cls, kb: KB, *, card: str | None = None, lang: Lang | None = None,
               kind: Kind | None = None) -> EntryList:
        """The entries of `kind`, or without it the rulings: the ~4,000 CR clauses would drown them
        (`kb rule` is their command); those left out are counted."""
        entries = kb.summaries(card=card, lang=lang, kind=kind or Kind.RULING)
        shown = [(e.id, e.lang_text) for e in entries if e.lang_text and e.lang_text != e.text]
        return cls(entries, kb.count(card=card, lang=lang, kind=Kind.RULE) if kind is None else 0,
                   superseded_translations(kb, [e.id for e in entries if e.lang_text], lang),
                   kb.own_pages([e.id for e in entries]),
                   {entry_id: page for (entry_id, _), page in kb.own_texts(shown).items()})

    def own_page(self, entry: EntrySummary) -> str | None:
        """The judge's own file the text shown for `entry` comes from; None when an official source gives it."""
        if entry.lang_text and entry.lang_text != entry.text:
            return self.own_shown.get(entry.id)
        return self.own_pages.get(entry.id)

    @property
    def note(self) -> str | None:
        """What was left out and how to list it; None when nothing was."""
        if not self.rules_left_out:
            return None
        clauses = "1 CR clause is" if self.rules_left_out == 1 else f"{self.rules_left_out} CR clauses are"
        return f"{clauses} not listed (`--kind rule` lists them)"

    @classmethod
    def of(cls, entries: Sequence[Entry], lang: Lang | None = None) -> EntryList:
        return cls([EntrySummary.of(e, lang) for e in entries])

    def to_json(self) -> list[dict[str, Any]]:
        """One object per entry; with `--lang`, the entry's text in it too (`lang_text`)."""
        return [e.to_json() | source_fields(self.own_pages.get(e.id), e.text, e.cards) | {"shown_own_page": self.own_page(e)}
                for e in self.entries]


# --- kb card -------------------------------------------------------------------------------------

# A card printed after the bundled card data (a 2024 disguise card) is unknown, not misspelt: say what is known.
UNKNOWN_CARD_HINT = (" (English, German or Spanish names are known: the 2018 Oracle cards, the cards of "
                     "corpus/mtgjson's files and those of the pages you ingested; a newer card is not, until a page of it is)")


@dataclass(frozen=True)
class CardInfo:
    """A card found by a name in any language: its English name, its Oracle card (None when it is
    not among the bundled Oracle cards) and its names by language."""

    name: str
    oracle: OracleCard | None
    names: dict[Lang, str]
    guessed: bool = False  # no card has the name asked for: this is the closest (a typo forgiven)
    # a two-part card's halves (split, aftermath, flip, double-faced): in the order written for "Fire // Ice",
    # the half asked for first for "Fire" (the card data does not say which half a split card prints first)
    halves: tuple[OracleCard, ...] = ()

    @property
    def entry_names(self) -> list[str]:
        """The names the KB may file this card's rulings under: its own, and for a two-part card each
        half's and the halves joined as MTGJSON v5 names the card ("Fire // Ice"), in either order."""
        names = [self.name, *(h.name for h in self.halves)]
        if len(self.halves) == 2:
            a, b = (h.name for h in self.halves)
            names += [f"{a} // {b}", f"{b} // {a}"]
        elif self.halves:
            names.append(" // ".join(h.name for h in self.halves))
        return list(dict.fromkeys(names))

    def closest_note(self, asked: str) -> str | None:
        """What a judge who typed `asked` is told when no card has that name and this is the closest
        (`kb card` and every `--card` option say it alike, tryout23); None for a name that is a card's."""
        return f"no card is named {asked!r}; showing the closest, {self.name}" if self.guessed else None


def find_card(name: str, corpus: Corpus, kb: KB | None = None) -> CardInfo:
    """The card `name` names, for `kb card` and every `--card` option: an Oracle name, then a German
    or Spanish name of the bundled table, then a name the KB knows (a card newer than the bundled data
    that a judge's page brought), then the closest name: of the bundled cards (`Corpus.card_lookup`),
    else of the KB's own (small typos and a legend's short name are forgiven; `closest_note` says
    so). NotFoundError when none is close, naming the cards whose names contain it, or when several
    are as close, naming them."""
    from kb.oracle import half_names, own_names

    cards, kb_names = corpus.card_lookup, corpus.names
    found = cards.get(name)
    if found is None and half_names(name):
        return _two_part_card(name, corpus)
    english = found.name if found is not None else kb_names.resolve(name)
    if english is None and kb is not None:
        english = kb.card(name)
    guessed = english is None
    if english is None:
        near = cards.near(name)
        if not near and kb is not None:
            from kb.search.cardnames import CardMatcher

            # the judge's own cards are close names too ("Kadena" for a page's "Kadena, Slinking Sorcerer")
            mine = [(local, en) for local, _lang, en in kb.card_names()] + [(en, en) for en in kb.cards()]
            near = CardMatcher.from_names(mine).near(name)
        if len(near) > 1:  # showing one would be a guess (a judge reads the card shown as the one meant)
            raise NotFoundError(f"no card is named {name!r}; did you mean {' or '.join(repr(n) for n in near)}? "
                                f"(each is as close to it)")
        english = near[0] if near else None
    if english is None:
        raise NotFoundError(f"unknown card {name!r}{_cards_containing(name, corpus, kb)}")
    card = cards.get(english) or corpus.newer_cards.get(english)  # a card newer than the 2018 Oracle
    if card is None and kb is not None:
        card = kb.source_card(english)  # ... that only an MTGJSON file of the judge's describes
    halves: tuple[OracleCard, ...] = ()
    if card is not None and card.other_halves:  # `kb card Fire` shows the whole card, Ice too
        others = [cards.get(other) for other in card.other_halves]
        halves = (card, *(o for o in others if o is not None))
    names = dict(kb_names.names.get(english, {}))
    if card is not None:
        names = {**own_names(card, halves), **names}
    if kb is not None and card is None and english not in kb_names.names:
        names = kb.names_of(english)  # a card only the judge's sources name: the names they give it
    return CardInfo(english, card, names, guessed, halves)


def _two_part_card(name: str, corpus: Corpus) -> CardInfo:
    """The two-part card `name` writes as its halves ("Fire // Ice", "Fire/Ice", the printed German
    or Spanish halves "Einbruch // Diebstahl"): each half a card of the Oracle data, the halves of one
    card (`may_be_one_card`). NotFoundError naming the half that is no card's, or saying why the
    halves are not one card's."""
    from kb.oracle import TWO_PART_LAYOUTS, half_names, may_be_one_card, own_names, printed_half

    written = half_names(name)
    halves = []
    for half in written:
        card = corpus.card_lookup.get(half)
        if card is None:
            raise NotFoundError(f"unknown card {name!r}: no card is named {half!r}")
        halves.append(card)
    if not may_be_one_card(halves):
        what = ", ".join(f"{h.name} ({h.layout if h.layout in TWO_PART_LAYOUTS else 'a card of one part'})"
                         for h in halves)
        raise NotFoundError(f"unknown card {name!r}: {what} are not the halves of one card")
    printed = [own_names(h, halves) for h in halves]  # none rather than a wrong one (smoke53 L3: "Fire // Ice")
    names = {lang: " // ".join(printed_half(p[lang]) for p in printed) for lang in Lang if all(lang in p for p in printed)}
    return CardInfo(" // ".join(h.name for h in halves), halves[0], names, False, tuple(halves))


# The CR's lists of subtypes (artifact, enchantment, land, spell and creature types), not planeswalker types: a
# one-word card named as a type ("a white Angel card", "as a Forest land") is the type (try-out 53 D6)
SUBTYPE_RULES = ("205.3g", "205.3h", "205.3i", "205.3k", "205.3m")
_TYPE_LIST = re.compile(r"types are (?:[^.:]*: )?([^.]+)")


def subtypes(kb: KB) -> frozenset[str]:
    """The subtypes the current CR lists (`SUBTYPE_RULES`), as name keys: `angel`, `forest`, `shapeshifter`."""
    from kb.normalize import name_key

    out: set[str] = set()
    for text in kb.rule_texts(SUBTYPE_RULES).values():
        for listed in _TYPE_LIST.findall(re.sub(r"\([^()]*\)", "", text)):
            out.update(name_key(item) for item in re.split(r",\s*(?:and\s+)?|\s+and\s+", listed)
                       if item.strip()[:1].isupper())
    return frozenset(out)


def question_card_notes(kb: KB, corpus: Corpus, named: Sequence[NamedCard], unknown: Sequence[str],
                        one_word: Collection[str] = ()) -> list[str]:
    """What `kb search` says of the cards a question names (tryout26): a card `named` by a capitalised
    name of two words or more, or of one word written as only a name is (`one_word`, English names:
    `Searcher.one_word_cards`), that has no ruling in the KB, whose own text may be the answer; the
    names written as a card's that no card the KB knows has (`unknown`: `CardMatcher.unknown_names`).
    Without it a judge can't tell "the KB has nothing on this card" from "the search missed it"."""
    from kb.normalize import name_key
    from kb.oracle import half_names

    out = []
    halves: dict[str, list[str]] = {}  # "Fire // Ice" as written -> the halves it names (Fire, Ice)
    for card in named:
        if half_names(card.said):
            halves.setdefault(card.said, []).append(card.name)
    for said, names in halves.items():  # a two-part card: one note for the card, if no half has a ruling
        if not any(kb.count(card=n, kind=Kind.RULING) for n in [*names, " // ".join(names)]):
            out.append(f'{" // ".join(names)}{f" ({said})" if name_key(said) != name_key(" ".join(names)) else ""}: '
                       f'no ruling in the KB; `kb card "{" // ".join(names)}"` shows its text')
    types = subtypes(kb) if one_word else frozenset()
    for card in named:
        if card.said in halves:
            continue
        # a name of one word, or in lower case, is as often a word read as a card's (`Kampf` as Fight,
        # `deal damage`): a note would tell a judge about a card never meant, unless written as a name; and
        # a one-word name that is a two-part card's half (Profit // Loss: "a Game Loss") or a subtype is the word
        if (len(card.said.split()) < 2 and (card.name not in one_word or _a_word_too(card.name, corpus, types))) or (
                not card.said[:1].isupper()) or kb.count(card=card.name, kind=Kind.RULING):
            continue
        said = f" ({card.said})" if name_key(card.said) != name_key(card.name) else ""
        shown = corpus.card_lookup.get(card.name) or corpus.newer_cards.get(card.name)
        text = f'; `kb card "{card.name}"` shows its text' if shown is not None and shown.text else ""
        out.append(f"{card.name}{said}: no ruling in the KB{text}")
    if unknown:
        one = len(unknown) == 1
        out.append(f"{', '.join(repr(n) for n in unknown)}: no card the KB knows has {'this name' if one else 'these names'}, "
                   f"so the search read {'it' if one else 'them'} as words, not as a card (a card newer than its "
                   f"2018 card data is known once a page of it is ingested)")
    return out


def _a_word_too(name: str, corpus: Corpus, types: Collection[str]) -> bool:
    """Whether the one-word card `name` is a two-part card's half ("Loss", "Release", "Turn": everyday words) or a
    subtype the CR lists (`types`: "Angel", "Forest"), which a question capitalises as a word as often as the card."""
    from kb.normalize import name_key
    from kb.oracle import TWO_PART_LAYOUTS

    card = corpus.card_lookup.get(name)
    return (card is not None and card.layout in TWO_PART_LAYOUTS) or name_key(name) in types


CARDS_SUGGESTED = 5  # an unknown name: the cards whose names contain it named, at most this many


def _cards_containing(name: str, corpus: Corpus, kb: KB | None) -> str:
    """"; did you mean ..." with the cards whose name, in any language, contains the words typed
    ("Ugin": Ugin, the Spirit Dragon; Ugin's Construct), or UNKNOWN_CARD_HINT when none does."""
    from kb.normalize import name_key
    from kb.oracle import names_containing

    found = corpus.card_lookup.containing(name)
    if kb is not None:
        mine = [(local, en) for local, _lang, en in kb.card_names()] + [(en, en) for en in kb.cards()]
        words = name_key(name).split()
        found += [(k, en) for local, en in mine if (k := name_key(local)) and words and all(w in k for w in words)]
    near = names_containing(name, found, CARDS_SUGGESTED)
    return f"; did you mean {', '.join(repr(n) for n in near)}?" if near else UNKNOWN_CARD_HINT


@dataclass(frozen=True)
class CardView:
    """A card and its entries in the KB: rulings first, each by the first date this card's copies of
    it carry."""

    card: CardInfo
    entries: list[tuple[CardEntry, list[str]]]  # (entry, the dates of this card's copies of it)
    lang: Lang | None = None  # `kb card --lang`: the language asked for, and the entries' texts in it
    texts: dict[str, str] = field(default_factory=dict)
    # the newest wording this card's own copies carry, in the language shown: `lang` where the entry has
    # a text in it, else English (as without --lang)
    own: dict[str, str] = field(default_factory=dict)
    # (entry id, text) of the translations that `kb outdated` calls superseded (`superseded_translations`)
    superseded: frozenset[tuple[str, str]] = frozenset()
    own_pages: dict[str, str] = field(default_factory=dict)  # entry id -> the judge's own file, where no official source gives it
    # entry id -> the judge's own file the text shown comes from, where that is not the canonical text
    # and no official source gives it (a judge's translation: tryout44 L2)
    own_shown: dict[str, str] = field(default_factory=dict)

    def text(self, entry: CardEntry) -> str:
        """This card's own newest wording of the entry in the language shown, else the entry's text in
        the language asked for, else its canonical text: a ruling many cards share may have been
        reworded on other cards' pages since this card's (tryout17: Lightform showed a wording it
        never had)."""
        return self.own.get(entry.id) or self.texts.get(entry.id) or entry.text

    def own_page(self, entry: CardEntry) -> str | None:
        """The judge's own file the text shown for `entry` comes from; None when an official source gives it."""
        if self.text(entry) != entry.text:
            return self.own_shown.get(entry.id)
        return self.own_pages.get(entry.id)

    def replaced(self, entry: CardEntry) -> bool:
        """The text shown for `entry` is a translation of an English wording replaced since."""
        return entry.id in self.texts and (entry.id, self.text(entry)) in self.superseded

    def newer(self, entry: CardEntry) -> bool:
        """The entry has a newer wording than this card's own (from other cards' pages)."""
        own = self.own.get(entry.id)
        return own is not None and own != (self.texts.get(entry.id) or entry.text)

    @property
    def names(self) -> dict[str, str]:
        """Language code -> name, in code order; the English name alone when none is known."""
        return {lang.value: n for lang, n in sorted(self.card.names.items())} or {"en": self.card.name}

    def to_json(self) -> dict[str, Any]:
        oracle = self.card.oracle
        return {
            "name": self.card.name,
            "names": self.names,
            "oracle": oracle.to_json() if oracle else None,
            "halves": [h.to_json() for h in self.card.halves],
            "entries": [{"id": e.id, "kind": e.kind.value, "text": e.text}
                        | lang_fields(self.lang, self.texts.get(e.id))
                        | {"card_text": self.own.get(e.id), "first_date": e.first_date, "card_dates": dates,
                           "langs": list(wording_langs(e.langs))} | source_fields(self.own_pages.get(e.id), e.text, (self.card.name,))
                        | {"shown_own_page": self.own_page(e)}
                        for e, dates in self.entries],
        }


def card_view(card: CardInfo, kb: KB, lang: Lang | None = None) -> CardView:
    """The KB's entries for `card` (its rows only, not every entry of the KB), rulings first, oldest
    first; with `lang`, their texts in it where they have one."""
    # each entry's columns and the dates of the card's own copies (a shared ruling's first date may be
    # another card's; the entry's first date when none of its copies names the card)
    # a two-part card's rulings may be filed under either half or the whole card's name (`entry_names`)
    found = {e.id: e for name in reversed(card.entry_names) for e in kb.card_entries(name)}
    rows = [(e, list(e.card_dates) or [d for d in (e.first_date,) if d]) for e in found.values()]
    rows.sort(key=lambda row: (row[0].kind is not Kind.RULING, (row[1] or [""])[0], row[0].id))
    ids = [e.id for e, _ in rows]
    texts = kb.texts_in(ids, lang) if lang is not None else {}

    def card_texts(of: list[str], in_lang: Lang) -> dict[str, str]:
        """`kb.card_texts` under each of the card's names, its own name's wording winning."""
        out: dict[str, str] = {}
        for name in reversed(card.entry_names):
            out |= kb.card_texts(name, of, in_lang)
        return out

    own = card_texts(ids, lang or Lang.EN)
    if lang is not None and lang is not Lang.EN:
        # an entry with no text in `lang` is shown as without --lang: this card's own English wording,
        # not the canonical one another card's newer page gave it (tryout18: Lightform showed a 2024 wording)
        own = card_texts([i for i in ids if i not in texts], Lang.EN) | own
    view = CardView(card, rows, lang, texts, own, superseded_translations(kb, list(texts), lang), kb.own_pages(ids))
    shown = [(e.id, view.text(e)) for e, _ in rows if view.text(e) != e.text]
    view.own_shown.update((entry_id, page) for (entry_id, _), page in kb.own_texts(shown).items())
    return view


def superseded_translations(kb: KB, ids: Sequence[str], lang: Lang | None) -> frozenset[tuple[str, str]]:
    """(entry id, text) of the wordings of `ids` that `kb outdated` calls superseded, when `lang` is a
    translation's language: `kb card` and `kb list --lang de` mark them as `kb search` does (tryout18:
    they showed a German text `kb outdated` says not to quote, unmarked)."""
    if lang is None or lang is Lang.EN:
        return frozenset()
    return frozenset(kb.superseded_texts(ids))


__all__ = ["CardInfo", "CardView", "EntryList", "EntryView", "card_view",
           "entry_view", "find_card", "no_text_note", "superseded_translations"]


def remarks_last(hits: Sequence[Hit], own_pages: Mapping[str, str]) -> list[Hit]:
    """`hits` with a judge's dated remarks (`kb.gamewords.is_remark`: an entry of their own page,
    `own_pages`, that names none of its cards and no game word) after the other hits, each part in its
    order. A hit moved down takes the score of the place it moves to, as search's own reorderings do
    (the scores a judge reads go down the list); none is dropped (review38: official CR clauses that
    use no game word are never judged so)."""
    if not own_pages:  # no hit is a judge's own, so none is a remark (nor are kb.gamewords' patterns compiled)
        return list(hits)
    from dataclasses import replace

    from kb.gamewords import is_remark

    remark = [is_remark(h.entry.text, own_pages.get(h.entry.id), h.entry.cards) for h in hits]
    order = [h for h, r in zip(hits, remark) if not r] + [h for h, r in zip(hits, remark) if r]
    return [replace(h, score=place.score) for h, place in zip(order, hits)]
