"""Which wordings no longer hold as written, and why: the `kb outdated` report.

Six reasons, each computed per variant from what the KB already knows, and two levels:

*outdated* (a judge should not quote the wording any more):
- `superseded`: a later English wording of the same ruling replaced this one for the same card
  (2014 → 2018). The date of a wording is the newest date it is attested with anywhere in the
  entry, so an undated copy of an old wording is superseded too, and an identical re-issue never is
  (identical as dedup's duplicates are: case, punctuation and spacing aside).
  A translation is superseded when the English wording in force at its date has since been replaced.
  An official copy (bundled corpus, MTGJSON) is replaced only by an official wording: a judge's own
  page rewording a ruling is kept as a revision, not a reason to stop quoting the official text.
- `terminology`: the text uses a term of its language that the rules have replaced
  (`corpus/terminology.yaml`, `kb.terminology`).
- `rule-number`: the text cites a CR number that stands for another number's rule today (read in
  the CR in force on its date, or for an undated or older text in the KB's CR whose wording of that
  number it uses: `_CRHistory.cited`).
- `check-fails`: the entry's scenario check passes under the rules of the variant's date but fails
  under the current rules.

*review* (the ruling probably still holds; a judge may want to re-read the rule):
- `rule-changed`: the clause the entry interprets (its best link) was reworded in substance after
  the variant's date, and the changed words touch what the ruling says (`touched_words`).
- `rule-number-unchecked`: a cited CR number the KB can't check (in none of its CRs, or cited by a
  ruling older than its oldest CR).

Each item has at most one `suggested` wording: every obsolete term replaced and every `rule-number`
renumbered, each once (`_suggestion`).

Items are per variant (`OutdatedItem`, what the store keeps); the report folds them into one
`OutdatedWording` per entry and text, with the places it appears (`group_wordings`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from enum import StrEnum
from typing import Any, Callable, Iterable, Mapping, NamedTuple, Protocol, Sequence

from kb.model import Entry, Lang, Variant, fast_pickle
from kb.normalize import word_diff
from kb.terminology import PLAY_A_SPELL, CardType, Terminology

WordDiff = list[tuple[str, str]]  # (op, text) runs: "equal", "delete", "insert"


class Reason(StrEnum):
    SUPERSEDED = "superseded"
    TERMINOLOGY = "terminology"
    RULE_NUMBER = "rule-number"
    RULE_CHANGED = "rule-changed"
    CHECK_FAILS = "check-fails"
    NUMBER_UNCHECKED = "rule-number-unchecked"

    @property
    def level(self) -> Level:
        return Level.REVIEW if self in (Reason.RULE_CHANGED, Reason.NUMBER_UNCHECKED) else Level.OUTDATED


class Level(StrEnum):
    OUTDATED = "outdated"  # don't quote this wording
    REVIEW = "review"  # the rule under it changed in words the ruling uses: re-read the rule


@fast_pickle
@dataclass(frozen=True, slots=True)
class OutdatedReason:
    kind: Reason
    detail: str
    diff: WordDiff = field(default_factory=list)  # old wording → current wording, where it applies

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.value, "level": self.kind.level.value, "detail": self.detail}
        if self.diff:
            d["diff"] = [list(run) for run in self.diff]
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> OutdatedReason:
        return cls(Reason(d["kind"]), d["detail"], [(op, text) for op, text in d.get("diff", [])])


def _level(reasons: Iterable[OutdatedReason]) -> Level:
    return _level_of(r.kind for r in reasons)


def _level_of(kinds: Iterable[Reason]) -> Level:
    """Outdated when any reason is of that level; review when all are review only."""
    return Level.OUTDATED if any(k.level is Level.OUTDATED for k in kinds) else Level.REVIEW


@fast_pickle
@dataclass(frozen=True, slots=True)
class OutdatedItem:
    """One outdated variant (one source copy of a wording) with its reasons."""

    entry: str
    variant_index: int  # position in Entry.variants
    variant: Variant
    reasons: tuple[OutdatedReason, ...]
    current_text: str  # the wording that replaces it (for this card), else the entry's canonical text
    # the wording with every obsolete term replaced and every cited number renumbered (None: nothing to
    # replace, or a term it can't replace: a judge rewords it)
    suggested: str | None = None

    @property
    def kinds(self) -> list[str]:
        return [r.kind.value for r in self.reasons]

    @property
    def level(self) -> Level:
        return _level(self.reasons)

    def to_json(self) -> dict[str, Any]:
        v = self.variant
        return {
            "entry": self.entry,
            "level": self.level.value,
            "variant": {"text": v.text, "lang": v.lang.value, "date": v.date, "source": v.source,
                        "line": v.line, "card": v.card},
            "reasons": [r.to_json() for r in self.reasons],
            "current_text": self.current_text,
            "suggested": self.suggested,
        }

    def to_store(self) -> dict[str, Any]:
        """The stored row: the variant whole, so reading the list decodes no entry."""
        return self.to_json() | {"variant_index": self.variant_index, "stored_variant": self.variant.to_store()}

    @classmethod
    def from_store(cls, d: Mapping[str, Any]) -> OutdatedItem:
        """The item of a stored row (which keeps its variant whole: no entry is decoded)."""
        return cls(d["entry"], d["variant_index"], Variant.from_json(d["stored_variant"]),
                   tuple(OutdatedReason.from_json(r) for r in d["reasons"]), d["current_text"], d.get("suggested"))


@dataclass(frozen=True, slots=True)
class OutdatedWording:
    """One outdated wording of an entry, with every place (variant) it appears folded under it."""

    entry: str
    text: str
    lang: Lang
    reasons: tuple[OutdatedReason, ...]  # one per kind (per term) over its variants; `items` have all
    current_text: str
    items: tuple[OutdatedItem, ...]
    suggested: str | None = None  # the wording reworded (`OutdatedItem.suggested`), shown once for all reasons

    @property
    def level(self) -> Level:
        return _level(self.reasons)

    @property
    def kinds(self) -> list[str]:
        return sorted({r.kind.value for r in self.reasons})

    @property
    def cards(self) -> list[str]:
        return sorted({i.variant.card for i in self.items if i.variant.card})

    @property
    def sources(self) -> list[str]:
        return sorted({i.variant.source for i in self.items})

    @property
    def dates(self) -> list[str]:
        return sorted({i.variant.date for i in self.items if i.variant.date})

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "text": self.text,
            "lang": self.lang.value,
            "level": self.level.value,
            "reasons": [r.to_json() for r in self.reasons],
            "current_text": self.current_text,
            "suggested": self.suggested,
            "suggested_diff": [list(run) for run in word_diff(self.text, self.suggested)] if self.suggested else [],
            "count": len(self.items),
            "cards": self.cards,
            "sources": self.sources,
            "dates": self.dates,
            "appears": [{"source": i.variant.source, "line": i.variant.line, "card": i.variant.card,
                         "date": i.variant.date, "variant_index": i.variant_index,
                         "kinds": i.kinds} for i in self.items],
        }


def group_wordings(items: Iterable[OutdatedItem]) -> list[OutdatedWording]:
    """One `OutdatedWording` per (entry, text), in first-seen order; reasons deduplicated."""
    groups: dict[tuple[str, str], list[OutdatedItem]] = {}
    for item in items:
        groups.setdefault((item.entry, item.variant.text), []).append(item)
    out = []
    for (entry, text), members in groups.items():
        reasons: dict[tuple[Reason, str], OutdatedReason] = {}
        for item in members:
            for r in item.reasons:
                # the same reason for each copy; per card they may differ in the replacement's date
                if r.kind is Reason.TERMINOLOGY:
                    reasons.setdefault((r.kind, r.detail), r)
                else:
                    reasons.setdefault((r.kind, ""), r)
        ordered = sorted(reasons.values(), key=lambda r: list(Reason).index(r.kind))
        replaced = next((i for i in members if Reason.SUPERSEDED in {r.kind for r in i.reasons}), members[0])
        out.append(OutdatedWording(entry, text, members[0].variant.lang, tuple(ordered),
                                   replaced.current_text, tuple(members), members[0].suggested))
    return out


class RuleHistory(Protocol):
    """A rule's wording at a date: (number then, text then, text now, dates of the CRs in which it is
    first seen changed in substance after the one in force on `at`), or None when the rule can't be
    followed that far back. `common_words` are word stems so frequent in the rules that sharing one
    says nothing (see `touched_words`)."""

    common_words: frozenset[str]

    def __call__(self, clause: str, at: str) -> tuple[str, str, str, list[str]] | None: ...

    def since(self, clause: str, date: str) -> str | None:
        """The date of the corpus's CR before the change first seen on `date`: the change came between
        the two, and when that CR is older than the ruling the KB can't tell whether it came after it
        (the corpus's CRs are samples of those published). None: the history can't tell."""
        ...

    def cited(self, number: str, at: str | None, ruling: str, by: tuple[str, str] | None = None) -> Cited | None:
        """What CR number `number`, cited by `ruling` of date `at`, stands for today (`_CRHistory.cited`);
        None when it is the same rule's number today or the history can't say."""
        ...


class CheckOutcome(NamedTuple):
    """An entry's check run under a rules date."""

    check: str  # its id
    passed: bool
    # not passed as its ruling a later rule contradicts (holds_until): the words `kb check` says it in
    # (`Check.ruling_no_longer_holds`), said here too
    no_longer_holds: str | None = None


# The results of an entry's checks under a rules date (None: the current rules).
CheckRunner = Callable[[Entry, str | None], "list[CheckOutcome]"]


def _wording_dates(entry: Entry) -> dict[str, str | None]:
    """Newest date each English wording of the entry (by `match_key`) is attested with (None: never dated)."""
    from kb.normalize import match_key

    newest: dict[str, str | None] = {}
    for v in entry.variants:
        if v.lang is Lang.EN:
            key = match_key(v.text)
            known = newest.get(key)
            if v.date and (known is None or v.date > known):
                newest[key] = v.date
            else:
                newest.setdefault(key, known)
    return newest


@dataclass(frozen=True, slots=True)
class _Wordings:
    """An entry's English wordings, each by its `match_key` (a comma, case or spacing makes no other
    wording: tryout21, "They aren't attacking, even if ..." superseded by the same words without the
    comma): newest date of each, which cards give which, and the text a key is shown by."""

    dates: Mapping[str, str | None]
    by_card: Mapping[str, frozenset[str]]  # card -> its English wordings
    cards_of: Mapping[str, tuple[str, ...]]  # wording -> cards that give it
    texts: Mapping[str, str]  # wording -> its text as its newest copy writes it
    copies: tuple[tuple[str, str, str | None], ...]  # (date, wording, card) of each dated English copy
    # (card, wording) given beside a longer wording holding it whole, in one source for that card
    beside_whole: frozenset[tuple[str | None, str]] = frozenset()

    @classmethod
    def of(cls, entry: Entry, is_official: Callable[[str], bool] | None = None) -> _Wordings:
        """The entry's English wordings; with `is_official`, only those an official source gives (the
        wordings an official copy may be replaced by)."""
        from kb.normalize import match_key

        by_card: dict[str, set[str]] = {}
        cards_of: dict[str, set[str]] = {}
        texts: dict[str, tuple[str, str]] = {}  # key -> (date, text) of its newest copy, the first in entry order
        listed: dict[tuple[str | None, str], set[str]] = {}  # (card, source) -> its English wordings
        copies: list[tuple[str, str, str | None]] = []
        official = None if is_official is None else {match_key(v.text) for v in entry.variants
                                                      if v.lang is Lang.EN and is_official(v.source)}
        for v in entry.variants:
            if v.lang is not Lang.EN or official is not None and match_key(v.text) not in official:
                continue
            key = match_key(v.text)
            if v.date:
                copies.append((v.date, key, v.card))
            if key not in texts or (v.date or "") > texts[key][0]:
                texts[key] = (v.date or "", v.text)
            listed.setdefault((v.card, v.source), set()).add(key)
            if v.card:
                by_card.setdefault(v.card, set()).add(key)
                cards_of.setdefault(key, set()).add(v.card)
        beside = set()
        for (card, _source), keys in listed.items():
            if len(keys) > 1:
                beside |= {(card, k) for k in keys if any(u != k and k in u for u in keys)}
        dates = {k: d for k, d in _wording_dates(entry).items() if official is None or k in official}
        return cls(dates, {c: frozenset(t) for c, t in by_card.items()},
                   {t: tuple(sorted(c)) for t, c in cards_of.items()}, {k: t for k, (_, t) in texts.items()},
                   tuple(copies), frozenset(beside))

    def split_off(self, key: str, card: str | None) -> bool:
        """The wording `key` is a part split off a longer wording into a ruling of its own: some source
        lists both for `card` (for any card when `card` is None)."""
        if card is None:
            return any(k == key for _, k in self.beside_whole)
        return (card, key) in self.beside_whole


def _card_wordings(card: str | None, w: _Wordings) -> dict[str, str | None]:
    """The English wordings (keys) a variant of `card` can be replaced by: those the entry gives for that
    card (a ruling merged from another card's page does not replace this card's ruling), or every
    English wording when the card has none (card-less pages, translation-only cards)."""
    own = w.by_card.get(card) if card else None
    if own:
        return {key: w.dates[key] for key in own}
    return dict(w.dates)


def _replacement(key: str, card: str | None, w: _Wordings) -> tuple[str, str] | None:
    """(date, wording key) of the newer English wording that replaces the English wording `key` for
    `card`, or None when it is still the newest for it. A card-less copy (a rules-search page) is replaced
    only when the wording is replaced for every card that gives it, or when no card gives it."""
    if card is None:
        cards = w.cards_of.get(key, ())
        if cards:
            found = [_replacement(key, c, w) for c in cards]
            return None if any(f is None for f in found) else max(f for f in found if f)
    # A newer wording wholly inside this one is a part split off into a ruling of its own when a
    # source lists both for the card (the 2025 Lightform page), not a replacement: this wording still
    # says everything it says. Where the card's newer source gives only the shorter one (Rageform's
    # 2025 page), it replaced this one.
    dated = [(d, k) for k, d in _card_wordings(card, w).items()
             if d and (k == key or k not in key or not w.split_off(k, card))]
    if not dated:
        return None
    newest = max(dated)
    own = w.dates.get(key)
    if key == newest[1] or (own is not None and own >= newest[0]):
        return None  # the newest wording, or as new as it: a same-day variant, not replaced
    return newest


def _superseded(entry: Entry, v: Variant, w: _Wordings) -> tuple[OutdatedReason | None, str]:
    """(the superseded reason or None, the wording that replaces `v` for its card)."""
    from kb.normalize import match_key

    canonical = match_key(entry.text)
    if v.lang is Lang.EN:
        key = match_key(v.text)
        # the entry's canonical text is what the KB says now: an official wording stays canonical over
        # a judge's newer page (kb.ingest.dedup), and that page does not supersede it
        found = None if key == canonical else _replacement(key, v.card, w)
        if found is None:
            return None, v.text
        current_date, current = found[0], w.texts[found[1]]
        own = w.dates.get(key)
        # an undated copy may be newer than the dated wording (a 2026 list of 2024 rulings, tryout27
        # D10): it was not "replaced on" that date, there is only a dated wording to quote instead
        detail = (f"this wording (dated {own}) was replaced on {current_date}" if own
                  else f"this wording is undated; a dated wording of this ruling exists ({current_date})")
        return OutdatedReason(Reason.SUPERSEDED, detail, word_diff(v.text, current)), current
    # A translation: which English wording was in force at its date, and is it replaced now?
    wordings = _card_wordings(v.card, w)
    dated = sorted((d, k) for k, d in wordings.items() if d)
    if not dated:
        return None, entry.text
    current = w.texts[dated[-1][1]]
    # every dated copy of those wordings: a wording's newest date (another card's later page) hides
    # that it was given as early as the translation
    own_card = bool(v.card and w.by_card.get(v.card))
    copies = sorted({(d, k) for d, k, card in w.copies if k in wordings and (not own_card or card == v.card)})
    then = [(d, k) for d, k in copies if v.date and d <= v.date]
    # a wording of the translation's day that is given on the newest day too is not replaced (a
    # same-day variant, as `_replacement` has it), whichever of that day's wordings sorts last
    if not then or any(wordings[k] == dated[-1][0] for d, k in then if d == then[-1][0]):
        return None, current
    if then[-1][1] == canonical:  # it translates the canonical text (see above)
        return None, entry.text
    english_then = w.texts[then[-1][1]]
    return OutdatedReason(Reason.SUPERSEDED,
                          f"translates the English wording of {v.date}, replaced on {dated[-1][0]}",
                          word_diff(english_then, current)), current


def _terminology(v: Variant, terminology: Terminology, card_type: CardType | None = None) -> list[OutdatedReason]:
    """One reason per obsolete term, and one per nonland card played by its name ("If you play Clone":
    `card_type` tells a known card's type, tryout30 D4); the rewording they all call for is the item's
    `suggested` (`_suggestion`), shown once: each reason repeating it was five copies of one text (tryout30)."""
    reasons = []
    for term in terminology.obsolete_in(v.text, v.lang):
        found = ", ".join(dict.fromkeys(repr(m) for m in term.matches(v.text)))
        detail = f"uses {found}; since {term.since} it is {term.current!r} ({term.source})"
        if term.suggest(v.text) is None:
            detail += "; no rewording is suggested for it: reword it by hand"
        reasons.append(OutdatedReason(Reason.TERMINOLOGY, detail))
    played = terminology.played_by_name(v.text, v.lang, card_type)
    if played and (cast := terminology.term(PLAY_A_SPELL)) is not None:
        cards = ", ".join(dict.fromkeys(f"{p.phrase!r} ({p.card}: {p.type})" for p in played))
        reasons.append(OutdatedReason(Reason.TERMINOLOGY, f"uses {cards}, a nonland card played; since {cast.since} "
                                      f"it is {cast.current!r} ({cast.source})"))
    return reasons


def _suggestion(v: Variant, terminology: Terminology, renumbered: str,
                card_type: CardType | None = None) -> str | None:
    """The wording with every cited number renumbered (`renumbered`, the text so renumbered), every
    obsolete term replaced, each once, and a nonland card played by its name cast; None when nothing
    changes, or when the result still holds an obsolete term (one no form replaces, or a new one a
    replacement made): a suggestion that fixed only its own term still read "comes into play"
    (tryout18), and one reading "comes-into-activate" was nonsense (tryout30)."""
    text = renumbered
    for term in terminology.obsolete_in(v.text, v.lang):
        text = term.suggest(text) or text
    text = terminology.cast_played(text, v.lang, card_type)
    if text == v.text or terminology.obsolete_in(text, v.lang) or terminology.played_by_name(text, v.lang, card_type):
        return None
    return text


# Editorial rewordings of the rules that change no meaning: renumbered cross-references, singular
# they (with the verb it takes), "enters the battlefield" shortened to "enters" (2024).
_EDITORIAL: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    (re.compile(r"\b\d{3}(?:\.\d+[a-z]?)?(?:-[a-z])?\b"), "#"),
    (re.compile(r"\bhe or she (is|was|has|does|doesn't|hasn't|isn't|wasn't)\b", re.I),
     lambda m: "they " + {"is": "are", "was": "were", "has": "have", "does": "do", "doesn't": "don't",
                          "hasn't": "haven't", "isn't": "aren't", "wasn't": "weren't"}[m.group(1).lower()]),
    (re.compile(r"\bhe or she (\w+?(?:ss|sh|ch|x|z))es\b", re.I), r"they \1"),
    (re.compile(r"\bhe or she (\w+?)s\b", re.I), r"they \1"),
    (re.compile(r"\bhe or she\b", re.I), "they"),
    (re.compile(r"\bhis or her\b", re.I), "their"),
    (re.compile(r"\bhim or her\b", re.I), "them"),
    (re.compile(r"\bhimself or herself\b", re.I), "themselves"),
    (re.compile(r"\b(enter|enters|entered|entering) the battlefield\b", re.I), r"\1"),
    (re.compile(r"\bconverted mana cost\b", re.I), "mana value"),
]


def _fold_editorial(text: str) -> str:
    for pattern, replacement in _EDITORIAL:
        text = pattern.sub(replacement, text)
    return text


def substantive(text: str) -> str:
    """A clause text with editorial changes (cross-reference numbers, singular they) folded away."""
    from kb.normalize import match_key

    return match_key(_fold_editorial(text))


def touched_words(then: str, now: str, ruling: str, common_words: frozenset[str] = frozenset()) -> list[str]:
    """Word stems that a substantive change of a clause (`then` → `now`) deletes or replaces and
    that the ruling also uses, leaving out function words and `common_words`. Empty: the change only
    adds (a new sentence or subcase) or is about something the ruling doesn't talk about."""
    from kb.normalize import tokenize

    a, b = tokenize(_fold_editorial(then)), tokenize(_fold_editorial(now))
    changed: set[str] = set()
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        # Words only added (a new sentence, a new subcase: battles, merged permanents) extend the
        # rule without changing what it said; words deleted or replaced change it.
        if op in ("replace", "delete"):
            changed.update(a[i1:i2])
            changed.update(b[j1:j2])
    # a word moved within the clause is not a change of what the clause says about it
    moved = {w for w in changed if a.count(w) == b.count(w)}
    said = set(tokenize(ruling))
    return sorted((changed - moved) & said - common_words - _discourse_stems())


# Words that join a clause's sentences and say nothing a ruling relies on (tryout20: a ruling was
# sent for review because a clause dropped its "however")
DISCOURSE_WORDS = ("however", "therefore", "thus", "also", "though", "although", "note", "example", "instance",
                   "similarly", "likewise")


@functools.cache
def _discourse_stems() -> frozenset[str]:
    from kb.normalize import stem

    return frozenset(stem(word) for word in DISCOURSE_WORDS)


def _as_written(stems: list[str], ruling: str) -> list[str]:
    """Word stems as the ruling writes them ("howev" → "however"), for a judge to read."""
    from kb.normalize import search_words, stem

    written: dict[str, str] = {}
    for word in search_words(ruling):
        written.setdefault(stem(word), word)
    return [written.get(s, s) for s in stems]


def _rule_changed(entry: Entry, v: Variant, ruling: str, history: RuleHistory | None) -> list[OutdatedReason]:
    """The clause the entry interprets (its best link) reworded in substance after the variant's
    date, in words the ruling uses."""
    if history is None or not v.date or not entry.rules:
        return []
    reasons = []
    for link in entry.rules[:1]:
        found = history(link.clause, v.date)
        if found is None:
            continue
        number_then, text_then, text_now, changed_on = found
        if not changed_on:
            continue
        touched = touched_words(text_then, text_now, ruling, history.common_words)
        if not touched:
            continue
        then = f" (then {number_then})" if number_then != link.clause else ""
        reasons.append(OutdatedReason(
            Reason.RULE_CHANGED,
            f"{link.clause}{then} was {_reworded_when(history, link.clause, v.date, changed_on)} "
            f"in words the ruling uses: {', '.join(_as_written(touched, ruling))}",
            word_diff(text_then, text_now)))
    return reasons


def _reworded_when(history: RuleHistory, clause: str, at: str, changed_on: list[str]) -> str:
    """"reworded after AT (CR of D)", or for a change the corpus can't date after `at` (its CR before
    the change is older than `at`) "reworded between the CRs of P and D (none between in the KB: maybe
    before AT)"."""
    after: list[str] = []
    between: list[str] = []
    for date in changed_on:
        before = history.since(clause, date)
        if before is not None and before < at:
            between.append(f"between the CRs of {before} and {date} (none between in the KB: maybe before {at})")
        else:
            after.append(date)
    # a change the corpus can't date after `at` came before every one it can (its CR before is older than `at`)
    parts = [f"reworded {b}" for b in between]
    parts += [f"reworded after {at} (CR of {', '.join(after)})"] if after else []
    return ", and ".join(parts)


# A CR number a ruling cites: "702.36b specifically says", "(see rule 115)", "Siehe Regel 707". A
# dotted number (a clause: no subrule number starts with 0, "100.000" is a German thousand) wherever it
# stands; a bare section number only after a word for "rule".
_CITED = re.compile(
    r"(?<![\d.,$/])\b(?P<dotted>[1-9]\d{2}\.[1-9]\d{0,2}[a-z]?)\b(?![.,]\d)"
    r"|\b(?:rules?|regeln?|reglas?|sections?|abschnitt|secci[oó]n)\s+(?P<bare>[1-9]\d{2})\b(?![.,]?\d)",
    re.IGNORECASE)


def cited_numbers(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The CR numbers `text` cites, with where each stands, in order."""
    found = []
    for m in _CITED.finditer(text):
        group = "dotted" if m.group("dotted") else "bare"
        found.append((m.group(group).lower(), m.span(group)))
    return found


@dataclass(frozen=True, slots=True)
class Cited:
    """What a CR number a ruling cites stands for today (`RuleHistory.cited`)."""

    kind: Reason  # RULE_NUMBER (another number today) or NUMBER_UNCHECKED (the KB can't tell)
    detail: str
    now: str | None = None  # today's number of the rule cited
    read_at: str | None = None  # an undated or old ruling's number read by its words: the CR it was read in
    # NUMBER_UNCHECKED for a reason shared by several numbers, told once for them all: "nowhere" (in
    # no CR of the KB), "older" (the ruling is older than the KB's CRs); `detail` then ends the sentence
    why: str | None = None


def _rule_numbers(v: Variant, history: RuleHistory | None) -> tuple[list[OutdatedReason], str]:
    """The CR numbers the wording cites that stand for another number's rule today (`rule-number`, with
    the wording renumbered), and those the KB can't check (`rule-number-unchecked`: older than its
    CRs, or in none of them). An undated or old ruling's number whose words are those of a rule in
    one of the KB's CRs tells in which CR its other numbers are read ("702.36d … (see rule 115)")."""
    if history is None:
        return [], v.text
    cite = history.cited
    numbers = cited_numbers(v.text)
    answers = {n: cite(n, v.date, v.text) for n in dict.fromkeys(n for n, _ in numbers)}
    read = next(((n, a.read_at) for n, a in answers.items() if a and a.read_at), None)
    if read is not None:
        for n, a in answers.items():
            if a is None or a.kind is Reason.NUMBER_UNCHECKED:
                answers[n] = cite(n, v.date, v.text, by=read) or a
    renumbered = {n: a.now for n, a in answers.items() if a and a.kind is Reason.RULE_NUMBER and a.now}
    reasons = []
    text = v.text
    if renumbered:
        for number, (start, end) in reversed(numbers):  # from the end, so the earlier spans hold
            if number in renumbered:
                text = text[:start] + renumbered[number] + text[end:]
        details = [a.detail for n, a in answers.items() if a and n in renumbered]
        reasons.append(OutdatedReason(Reason.RULE_NUMBER, "; ".join(details)))
    unchecked = [a.detail for a in answers.values() if a and a.kind is Reason.NUMBER_UNCHECKED and not a.why]
    for why in ("older", "nowhere"):
        told = [(n, a.detail) for n, a in answers.items() if a and a.kind is Reason.NUMBER_UNCHECKED and a.why == why]
        if told:
            detail = told[0][1] if len(told) == 1 else told[0][1].replace(" it stood ", " they stood ")
            unchecked.append(f"cites {', '.join(n for n, _ in told)}{'' if why == 'older' else ','} {detail}")
    if unchecked:
        reasons.append(OutdatedReason(Reason.NUMBER_UNCHECKED, "; ".join(unchecked)))
    return reasons, text


def find_outdated(entries: Iterable[Entry], *, terminology: Terminology,
                  rule_history: RuleHistory | None = None,
                  check_runner: CheckRunner | None = None,
                  is_official: Callable[[str], bool] = lambda source: True,
                  card_type: CardType | None = None) -> list[OutdatedItem]:
    """Every outdated or review-level variant of every entry, with all its reasons. `is_official`
    tells the official sources (bundled corpus, MTGJSON files: `kb.build`, as for deduplication)
    from a judge's own pages, whose wordings do not supersede an official copy; `card_type` gives a
    known card's type line by its name (a nonland card "played" was cast)."""
    items: list[OutdatedItem] = []
    for entry in entries:
        everyone = _Wordings.of(entry)
        official = everyone if all(is_official(v.source) for v in entry.variants) else _Wordings.of(entry, is_official)
        replaced: dict[tuple[str, str | None, Lang, str | None, bool], tuple[OutdatedReason | None, str]] = {}
        check_cache: dict[str | None, list[CheckOutcome]] = {}

        def checks_at(at: str | None) -> list[CheckOutcome]:
            if at not in check_cache:
                check_cache[at] = check_runner(entry, at) if check_runner else []
            return check_cache[at]

        for i, v in enumerate(entry.variants):
            reasons: list[OutdatedReason] = []
            by_official = is_official(v.source)
            key = (v.text, v.card, v.lang, v.date, by_official)  # copies of a wording share the answer
            if key not in replaced:
                replaced[key] = _superseded(entry, v, official if by_official else everyone)
            superseded, current = replaced[key]
            if superseded is not None:
                reasons.append(superseded)
            worded = _terminology(v, terminology, card_type)
            numbered, renumbered = _rule_numbers(v, rule_history)
            reasons += worded + numbered
            suggested = _suggestion(v, terminology, renumbered, card_type) if worded or renumbered != v.text else None
            ruling = v.text if v.lang is Lang.EN else current
            reasons += _rule_changed(entry, v, ruling, rule_history)
            if check_runner and entry.checks and v.date:
                now = {c.check: c for c in checks_at(None)}
                broken = [now[c.check] for c in checks_at(v.date) if c.passed and c.check in now and not now[c.check].passed]
                said = [f"{c.check}: {c.no_longer_holds}" for c in broken if c.no_longer_holds]
                failing = [c.check for c in broken if not c.no_longer_holds]
                if failing:
                    said.insert(0, f"passes under the rules of {v.date} but fails under current rules: {', '.join(failing)}")
                if said:
                    reasons.append(OutdatedReason(Reason.CHECK_FAILS, "; ".join(said)))
            if reasons:
                items.append(OutdatedItem(entry.id, i, v, tuple(reasons), current, suggested))
    return items


def filter_items(items: Sequence[OutdatedItem], entries: Mapping[str, Entry] | None = None, *,
                 card: str | None = None, lang: Lang | None = None, since: str | None = None,
                 reason: Reason | None = None, levels: Iterable[Level] | None = None) -> list[OutdatedItem]:
    """Items matching every filter. `card` selects the variants given for that card (the card of
    the page or set file the wording came from), not every card the entry is shared with."""
    wanted = set(levels) if levels is not None else None
    out = []
    for item in items:
        if card and item.variant.card != card:
            continue
        if lang and item.variant.lang is not lang:
            continue
        if since and (item.variant.date or "") < since:
            continue
        if reason and reason not in {r.kind for r in item.reasons}:
            continue
        if wanted is not None and item.level not in wanted:
            continue
        out.append(item)
    return out


def summarize(wordings: Sequence[OutdatedWording]) -> dict[str, Any]:
    """Counts of wordings: in all, per level, per reason, and per card (a card counts the wordings
    that appear for it, not those of other cards sharing the entry)."""
    return _counts([(w.level, w.kinds, w.cards, len(w.items)) for w in wordings])


@dataclass(frozen=True, slots=True)
class CopyRow:
    """One outdated copy as the store lists it for counting (`kb.store.KB.outdated_copies`): its
    wording, card and reason kinds, without details or diffs."""

    entry: str
    text: str
    card: str | None
    kinds: tuple[Reason, ...]


def summarize_copies(copies: Iterable[CopyRow], levels: Iterable[Level]) -> dict[str, Any]:
    """`summarize` of the wordings these copies group into (one per entry and text, as
    `group_wordings`), keeping the wordings whose level is in `levels`; reads no entry or diff."""
    groups: dict[tuple[str, str], tuple[set[Reason], set[str], list[int]]] = {}
    for c in copies:
        kinds, cards, n = groups.setdefault((c.entry, c.text), (set(), set(), [0]))
        kinds.update(c.kinds)
        if c.card:
            cards.add(c.card)
        n[0] += 1
    wanted = set(levels)
    rows = []
    for kinds, cards, n in groups.values():
        level = _level_of(kinds)
        if level in wanted:
            rows.append((level, sorted(k.value for k in kinds), sorted(cards), n[0]))
    return _counts(rows)


def _counts(wordings: Sequence[tuple[Level, Sequence[str], Sequence[str], int]]) -> dict[str, Any]:
    """The summary of (level, reason kinds, cards, copies) per wording."""
    from collections import Counter

    per_level = Counter(level.value for level, _, _, _ in wordings)
    per_reason = Counter(kind for _, kinds, _, _ in wordings for kind in kinds)
    per_card = Counter(card for _, _, cards, _ in wordings for card in (cards or ["(no card)"]))
    return {"wordings": len(wordings), "variants": sum(n for _, _, _, n in wordings),
            "by_level": dict(sorted(per_level.items())), "by_reason": dict(sorted(per_reason.items())),
            "by_card": dict(sorted(per_card.items(), key=lambda kv: (-kv[1], kv[0])))}


def common_rule_words(rules: Any, share: float = 0.02) -> frozenset[str]:
    """Word stems found in more than `share` of the current CR's clauses ("creature", "player",
    "battlefield"): a rule change and a ruling sharing one of them is no sign that they meet."""
    from collections import Counter

    from kb.normalize import tokenize

    clauses = list(rules.current.clauses.values())
    df = Counter(w for c in clauses for w in set(tokenize(c.text)))
    return frozenset(w for w, n in df.items() if n > share * len(clauses))


class _CRHistory:
    """A RuleHistory backed by a `kb.cr.RulesCorpus`, memoised: variants share (clause, date)."""

    def __init__(self, rules: Any) -> None:
        from functools import lru_cache

        self.rules = rules
        self.common_words = common_rule_words(rules)
        self._rewordings = lru_cache(maxsize=None)(self._rewordings_uncached)
        self._history = lru_cache(maxsize=None)(self._history_uncached)

    def _rewordings_uncached(self, clause: str) -> list[tuple[str, str, bool]]:
        """(date of the step before, date, reworded in substance) for each step of the clause's history
        after the first."""
        steps = list(self.rules.history(clause).steps)
        return [(prev.date, s.date, substantive(prev.text) != substantive(s.text)) for prev, s in zip(steps, steps[1:])]

    def since(self, clause: str, date: str) -> str | None:
        """The date of the corpus's CR before the one of `date` that has current clause `clause`: a change
        first seen on `date` came after it (None: no such step)."""
        return next((before for before, d, _ in self._rewordings(clause) if d == date), None)

    def _history_uncached(self, clause: str, at: str) -> tuple[str, str, str, list[str]] | None:
        from kb.errors import KBError

        try:
            steps = self._rewordings(clause)
            then = self.rules.clause(clause, at=at)
            number_then = self.rules.number_at(clause, at) or clause
        except KBError:
            return None
        changed = [date for _, date, reworded in steps if date > at and reworded]
        return number_then, then.text, self.rules.current.clauses[clause].text, changed

    def __call__(self, clause: str, at: str) -> tuple[str, str, str, list[str]] | None:
        return self._history(clause, at)

    def cited(self, number: str, at: str | None, ruling: str, by: tuple[str, str] | None = None) -> Cited | None:
        """What CR number `number`, cited by `ruling` of date `at`, stands for today: a `Cited` of kind
        RULE_NUMBER when the rule it cited has another number now, NUMBER_UNCHECKED when the KB can't
        tell; None when it is the same rule's number today (or the KB has nothing to say against it).
        A ruling dated within the corpus's CRs cites the numbers of the CR in force then; an undated
        or older one, the rule of that number (in any CR of the corpus) whose words it uses, and its
        other numbers as that CR has them (`by`: (another number, date of the CR it was read in))."""
        rules = self.rules
        oldest = rules.versions[0].date
        if by is not None or (at and at >= oldest):
            when = by[1] if by is not None else at
            assert when is not None
            version = rules.in_force(when, complete=True)
            lid = rules.lineage.get((version.date, number))
            if lid is None:
                return None  # not a clause of its CR: a section the corpus doesn't number so, or a typo
            if by is None and lid != rules.lineage.get((rules.current.date, number)) and rules.gap(when, version.date):
                # the KB lacks the CRs of the ruling's time (2018-07-13 answers for 2016 and 2021): when its
                # CRs before and after the date give the number the same rule, it was that rule then;
                # else it may already be the later one, renumbered in between: read it by its words
                after = rules.full_cr_after(version.date)
                assert after is not None  # gap() found a later CR
                if self._lineages_between(number, version.date, after) == {lid}:
                    return self._now(number, lid, f"{number} of the KB's CRs of {version.date} and {after}, "
                                     f"before and after the ruling's date ({at})", None)
                return self._by_words(number, at, ruling, around=(version.date, after))
            where = (f"{number} of the CR of {version.date}, whose {by[0]} the ruling quotes" if by is not None
                     else f"{number} of the CR in force on {at} (of {version.date})")
            return self._now(number, lid, where, None)
        return self._by_words(number, at, ruling)

    def _lineages_between(self, number: str, before: str, after: str) -> set[int | None]:
        """The rules (lineage ids) `number` stood for in the KB's CRs after that of `before` up to the full
        CR of `after`: None for that CR lacking it; a face-down extract counts only where it has it."""
        rules = self.rules
        return {rules.lineage.get((v.date, number)) for v in rules.versions
                if before < v.date <= after and (v.complete or (v.date, number) in rules.lineage)}

    def _by_words(self, number: str, at: str | None, ruling: str,
                  around: tuple[str, str] | None = None) -> Cited | None:
        """`cited` for a ruling whose date doesn't tell which CR it cites (undated, older than the KB's
        CRs, or in a gap between them, `around`: the dates of its CRs before and after, which give the
        number different rules): the rule of that number in any CR of the KB whose words it uses. When
        the words tell nothing, a number that the CRs around the ruling's date (an undated ruling's: the
        oldest and today's) give different rules is not checked."""
        rules = self.rules
        oldest = rules.versions[0].date
        if not self._meanings(number):
            return Cited(Reason.NUMBER_UNCHECKED, f"which no CR in the KB has (the oldest is of {oldest}): "
                         "not checked", why="nowhere")
        # a dated ruling quotes a CR in force on its date, or the KB's next full CR (the first to hold a
        # wording of the KB's gap): never a later one's
        until = None if at is None else next((v.date for v in rules.versions if v.complete and v.date >= at), None)
        meanings = self._meanings(number, until)
        today = rules.lineage.get((rules.current.date, number))
        stems = set(tokenize_ruling(ruling))
        said = stems - self.common_words
        scores = {lid: (len(said & words), first, last) for lid, (first, last, words) in meanings.items()}
        best = max(scores, key=lambda lid: scores[lid][0], default=None)
        told = best is not None and all(scores[lid][0] < scores[best][0] for lid in scores if lid != best) \
            and self._quoted(meanings[best][2], scores[best][0])
        titled = self._titled(number, ruling, until)
        if titled is not None:  # "Morph (702.36)", "rule 707, \u201cCopying Objects\u201d": the name decides
            best, told = titled, True
        if best is not None and best != today and told:
            _, first, last = scores[best]
            span = f"the CR of {first}" if first == last else f"the CRs of {first} to {last}"
            return self._now(number, best, f"the ruling quotes {number} as worded in {span}", last)
        if today is None:
            formers = "; ".join(f.said(number) for f in rules.other_rules(number))
            return Cited(Reason.NUMBER_UNCHECKED, f"cites {number}, which today's CR doesn't have ({formers})")
        if at and at < oldest:
            return Cited(Reason.NUMBER_UNCHECKED, f"in a ruling dated {at}, before the oldest CR in the KB "
                         f"(of {oldest}): what it stood for then is not checked", why="older")
        if told or self._nearest(stems, meanings) == today:
            # its words are those of today's rule of that number; or, when their uncommon words tell nothing
            # (a clause of common words only: "Which player has priority is determined by the following
            # rules"), all its words are nearer today's rule than any other: not worth a review
            return None
        if around is not None:
            then = "; ".join(f.said(number) for f in rules.other_rules(number))
            return Cited(Reason.NUMBER_UNCHECKED, f"cites {number} in a ruling dated {at}, between the KB's CRs "
                         f"of {around[0]} and {around[1]}, which give it different rules, and its words name "
                         f"neither ({then}; today's {number} since the CR of {self._today_since(number)}): "
                         "not checked")
        first = next(v.date for v in rules.versions if v.complete)
        if at is None and rules.lineage.get((first, number), today) != today:
            # an undated ruling is read against the oldest CR of the KB, where the number meant another rule
            then = "; ".join(f.said(number) for f in rules.other_rules(number) if f.first == first)
            return Cited(Reason.NUMBER_UNCHECKED, f"cites {number} in an undated ruling, read against the KB's "
                         f"oldest CR (of {first}), which gives it another rule than today's, and its words name "
                         f"neither ({then}; today's {number} since the CR of "
                         f"{self._today_since(number)}): not checked")
        return None

    def _quoted(self, words: frozenset[str], shared: int) -> bool:
        """Whether a ruling sharing `shared` uncommon word stems with a rule of word stems `words` quotes
        it: at least _CITED_WORDS of them, or all of a clause of fewer ("… manifest multiple cards …",
        "… look at a face-down permanent …"). Not a heading, whose one word ("Reveal", "Play") said
        anywhere is said by chance: only its name next to the number tells it (`_titled`)."""
        uncommon = len(words - self.common_words)
        if uncommon >= _CITED_WORDS:
            return shared >= _CITED_WORDS
        return shared == uncommon > 0 and len(words) > _HEADING_WORDS

    @staticmethod
    def _nearest(stems: set[str], meanings: dict[int, tuple[str, str, frozenset[str]]]) -> int | None:
        """The rule (lineage id) among `meanings` sharing the most of `stems`, common words included, or as
        many and a larger share of its own (a quote of today's shorter rule that an older one held whole);
        None on a tie."""
        shared = sorted(((len(stems & words), len(stems & words) / len(words), lid)
                         for lid, (_, _, words) in meanings.items() if words), reverse=True)
        if not shared:
            return None
        return shared[0][2] if len(shared) == 1 or shared[0][:2] > shared[1][:2] else None

    def _titled(self, number: str, ruling: str, until: str | None = None) -> int | None:
        """The one rule (lineage id) that `number` stood for in the KB's full CRs (up to that of `until`)
        whose heading the ruling says word for word as the name of the rule it cites, next to the number
        ("Morph (702.36)", "rule 707, \u201cCopying Objects\u201d", "the morph ability, 702.36"); None when
        it names none of them, or several."""
        from kb.normalize import tokenize

        rules = self.rules
        headings = {lid: heading for v in rules.versions if v.complete and (until is None or v.date <= until)
                    and (lid := rules.lineage.get((v.date, number))) is not None
                    and 0 < len(heading := tuple(tokenize(v.clauses[number].text, keep_stopwords=True)))
                    <= _HEADING_WORDS}
        if not headings:
            return None
        between = frozenset(tokenize(_NAMING_WORDS, keep_stopwords=True))
        found = set()
        for cited, (start, end) in cited_numbers(ruling):
            if cited != number:
                continue
            # stop words kept: "and you may play it" is not next to a number cited before it
            before, after = (tuple(tokenize(part, keep_stopwords=True)) for part in (ruling[:start], ruling[end:]))
            found |= {lid for lid, heading in headings.items()
                      if _next_to(heading[::-1], before[::-1], between) or _next_to(heading, after, between)}
        return found.pop() if len(found) == 1 else None

    def _today_since(self, number: str) -> str:
        """The date of the KB's first CR in which `number` already numbered today's rule of that number."""
        rules = self.rules
        today = rules.lineage[(rules.current.date, number)]
        since: str = next(d for d, n in rules.members[today] if n == number)  # ends with (today, number)
        return since

    def _meanings(self, number: str, until: str | None = None) -> dict[int, tuple[str, str, frozenset[str]]]:
        """The rules `number` stood for in the corpus's full CRs (up to that of `until`): lineage -> (first
        and last CR with it so numbered, the word stems of its texts then)."""
        found: dict[int, tuple[str, str, frozenset[str]]] = {}
        for v in self.rules.versions:
            lid = self.rules.lineage.get((v.date, number))
            if lid is None or not v.complete or (until is not None and v.date > until):
                continue
            first, _, words = found.get(lid, (v.date, v.date, frozenset()))
            found[lid] = (first, v.date, words | frozenset(tokenize_ruling(v.clauses[number].text)))
        return found

    def _now(self, number: str, lid: int, where: str, read_at: str | None) -> Cited | None:
        """The cited rule (lineage `lid`) by its number today: None when it is still `number`."""
        rules = self.rules
        members = rules.members[lid]
        last_date, now = members[-1]
        if last_date != rules.current.date:
            return Cited(Reason.NUMBER_UNCHECKED, f"cites {number} ({where}): a rule the KB doesn't find in "
                         f"today's CR (last seen in the CR of {last_date})")
        if now == number:
            return None
        before = [d for d, n in members if n == number]
        after = [d for d, n in members if before and d > before[-1]]
        when = f" (renumbered between the KB's CRs of {before[-1]} and {after[0]})" if before and after else ""
        return Cited(Reason.RULE_NUMBER, f"cites {number}, now {now}{when}: {where}", now, read_at)


# Words (stems, other than the rules' common words) a ruling must share with a rule to be read as citing it
_CITED_WORDS = 2
# A clause of at most this many words is a heading ("Morph", "Face-Down Spells and Permanents"): a ruling
# that says it word for word names that rule
_HEADING_WORDS = 5


# Words that go between a rule's number and its name ("the morph ability (see rule 702.36)", "Regel 707, Kopieren")
_NAMING_WORDS = ("see the rule rules CR comprehensive section sections keyword action actions ability abilities "
                 "siehe der die das Regel Regeln Abschnitt véase ver el la regla reglas sección")


def _next_to(name: tuple[str, ...], words: tuple[str, ...], between: frozenset[str]) -> bool:
    """Whether `words` (stems, from a cited number on) start with `name`, after at most three
    `between` stems."""
    for skip in range(4):
        if words[skip:skip + len(name)] == name:
            return True
        if skip >= len(words) or words[skip] not in between:
            return False
    return False


def tokenize_ruling(text: str) -> list[str]:
    """The word stems of a ruling or clause, without the CR numbers it cites (`RuleHistory.cited` compares words)."""
    from kb.normalize import tokenize

    return tokenize(_CITED.sub(" ", text))


def rule_history_from(rules: Any) -> RuleHistory:
    """A RuleHistory backed by a `kb.cr.RulesCorpus`."""
    return _CRHistory(rules)


def levels_shown(reason: Reason | None = None, *, review: bool = False, both: bool = False) -> set[Level]:
    """The levels a report lists: outdated by default, review with `review`, both with `both` or when
    the one reason asked for is a review reason (its wordings would otherwise never be listed)."""
    if both or (reason is not None and reason.level is Level.REVIEW and not review):
        return {Level.OUTDATED, Level.REVIEW}
    return {Level.REVIEW} if review else {Level.OUTDATED}
