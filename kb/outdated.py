"""Which variants no longer hold as written, and why.

Four reasons, each computed from what the KB already knows:

- `superseded`: a later English wording of the same entry replaced this one (2014 → 2018). The
  date of a wording is the newest date it is attested with anywhere in the entry, so an undated
  copy of an old wording is superseded too, and an identical re-issue never is. A translation is
  superseded when the English wording in force at its date has since been replaced.
- `terminology`: the text uses a term from `corpus/terminology.yaml` that the rules have replaced.
- `rule-changed`: a clause the entry links to was reworded after the variant's date.
- `check-fails`: the entry's scenario check passes under the rules of the variant's date but fails
  under the current rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Iterable, Mapping, Sequence

from kb.terminology import Terminology
from kb.model import Entry, Lang, Variant

WordDiff = list[tuple[str, str]]  # (op, text) runs: "equal", "delete", "insert"


class Reason(StrEnum):
    SUPERSEDED = "superseded"
    TERMINOLOGY = "terminology"
    RULE_CHANGED = "rule-changed"
    CHECK_FAILS = "check-fails"


@dataclass(frozen=True, slots=True)
class OutdatedReason:
    kind: Reason
    detail: str
    diff: WordDiff = field(default_factory=list)  # old wording → current wording, where it applies

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.value, "detail": self.detail}
        if self.diff:
            d["diff"] = [list(run) for run in self.diff]
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> OutdatedReason:
        return cls(Reason(d["kind"]), d["detail"], [tuple(run) for run in d.get("diff", [])])  # type: ignore[misc]


@dataclass(frozen=True, slots=True)
class OutdatedItem:
    entry: str
    variant_index: int  # position in Entry.variants
    variant: Variant
    reasons: tuple[OutdatedReason, ...]
    current_text: str

    @property
    def kinds(self) -> list[str]:
        return [r.kind.value for r in self.reasons]

    def to_json(self) -> dict[str, Any]:
        v = self.variant
        return {
            "entry": self.entry,
            "variant": {"text": v.text, "lang": v.lang.value, "date": v.date, "source": v.source,
                        "line": v.line, "card": v.card},
            "reasons": [r.to_json() for r in self.reasons],
            "current_text": self.current_text,
        }

    def to_store(self) -> dict[str, Any]:
        return self.to_json() | {"variant_index": self.variant_index}

    @classmethod
    def from_store(cls, d: Mapping[str, Any], entries: Mapping[str, Entry]) -> OutdatedItem:
        entry = entries[d["entry"]]
        return cls(d["entry"], d["variant_index"], entry.variants[d["variant_index"]],
                   tuple(OutdatedReason.from_json(r) for r in d["reasons"]), d["current_text"])


def word_diff(a: str, b: str) -> WordDiff:
    from kb.cr import word_diff as _word_diff

    return _word_diff(a, b)


# A rule's wording at a date: (number then, text then, text now, dates it changed after `at`),
# or None when the rule can't be followed that far back.
RuleHistory = Callable[[str, str], "tuple[str, str, str, list[str]] | None"]
# The results of an entry's checks under a rules date: list of (check id, passed).
CheckRunner = Callable[[Entry, str | None], "list[tuple[str, bool]]"]


def _wording_dates(entry: Entry) -> dict[str, str | None]:
    """Newest date each English wording of the entry is attested with (None: never dated)."""
    newest: dict[str, str | None] = {}
    for v in entry.variants:
        if v.lang is Lang.EN:
            known = newest.get(v.text)
            if v.date and (known is None or v.date > known):
                newest[v.text] = v.date
            else:
                newest.setdefault(v.text, known)
    return newest


def _superseded(entry: Entry, v: Variant, dates: Mapping[str, str | None]) -> OutdatedReason | None:
    current, current_date = entry.text, dates.get(entry.text)
    if v.lang is Lang.EN:
        if v.text == current or not current_date:
            return None
        own = dates.get(v.text)
        if own is not None and own >= current_date:
            return None  # as new as the canonical wording: a same-day variant, not replaced by a later one
        when = f"dated {own}" if own else "undated"
        return OutdatedReason(Reason.SUPERSEDED, f"this wording ({when}) was replaced on {current_date}",
                              word_diff(v.text, current))
    # A translation: which English wording was in force at its date?
    if not v.date or not current_date or v.date >= current_date:
        return None
    then = [(d, text) for text, d in dates.items() if d and d <= v.date]
    if not then:
        return None
    _, english_then = max(then)
    if english_then == current:
        return None
    return OutdatedReason(Reason.SUPERSEDED,
                          f"translates the English wording of {v.date}, replaced on {current_date}",
                          word_diff(english_then, current))


def _terminology(v: Variant, terminology: Terminology) -> list[OutdatedReason]:
    if v.lang is not Lang.EN:
        return []
    reasons = []
    for term in terminology.obsolete_in(v.text):
        suggested = re.sub(rf"\b{re.escape(term.obsolete)}\b", term.current, v.text, flags=re.IGNORECASE)
        reasons.append(OutdatedReason(
            Reason.TERMINOLOGY,
            f"uses {term.obsolete!r}; since {term.since} it is {term.current!r}. Suggested: {suggested}",
            word_diff(v.text, suggested)))
    return reasons


_EDITORIAL = [
    (re.compile(r"\b\d{3}(?:\.\d+[a-z]?)?\b"), "#"),  # renumbered cross-references
    (re.compile(r"\bhe or she has\b", re.I), "they have"),
    (re.compile(r"\bhe or she is\b", re.I), "they are"),
    (re.compile(r"\bhe or she\b", re.I), "they"),
    (re.compile(r"\bhis or her\b", re.I), "their"),
    (re.compile(r"\bhim or her\b", re.I), "them"),
]


def substantive(text: str) -> str:
    """A clause text with editorial changes (cross-reference numbers, singular they) folded away."""
    from kb.normalize import match_key

    for pattern, replacement in _EDITORIAL:
        text = pattern.sub(replacement, text)
    return match_key(text)


def _rule_changed(entry: Entry, v: Variant, history: RuleHistory | None) -> list[OutdatedReason]:
    """The clause the entry interprets (its best link) reworded in substance after the variant's date."""
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
        then = f" (then {number_then})" if number_then != link.clause else ""
        reasons.append(OutdatedReason(
            Reason.RULE_CHANGED,
            f"{link.clause}{then} was reworded after {v.date}: CR of {', '.join(changed_on)}",
            word_diff(text_then, text_now)))
    return reasons


def find_outdated(entries: Iterable[Entry], *, terminology: Terminology,
                  rule_history: RuleHistory | None = None,
                  check_runner: CheckRunner | None = None) -> list[OutdatedItem]:
    """Every outdated variant of every entry, with all its reasons."""
    items: list[OutdatedItem] = []
    for entry in entries:
        dates = _wording_dates(entry)
        check_cache: dict[str | None, list[tuple[str, bool]]] = {}

        def checks_at(at: str | None) -> list[tuple[str, bool]]:
            if at not in check_cache:
                check_cache[at] = check_runner(entry, at) if check_runner else []
            return check_cache[at]

        for i, v in enumerate(entry.variants):
            reasons: list[OutdatedReason] = []
            if (r := _superseded(entry, v, dates)) is not None:
                reasons.append(r)
            reasons += _terminology(v, terminology)
            reasons += _rule_changed(entry, v, rule_history)
            if check_runner and entry.checks and v.date:
                now = dict(checks_at(None))
                then = dict(checks_at(v.date))
                broken = [c for c, ok in then.items() if ok and not now.get(c, True)]
                if broken:
                    reasons.append(OutdatedReason(
                        Reason.CHECK_FAILS,
                        f"passes under the rules of {v.date} but fails under current rules: {', '.join(broken)}"))
            if reasons:
                items.append(OutdatedItem(entry.id, i, v, tuple(reasons), entry.text))
    return items


def filter_items(items: Sequence[OutdatedItem], entries: Mapping[str, Entry], *, card: str | None = None,
                 lang: Lang | None = None, since: str | None = None,
                 reason: Reason | None = None) -> list[OutdatedItem]:
    out = []
    for item in items:
        if card and card not in entries[item.entry].cards:
            continue
        if lang and item.variant.lang is not lang:
            continue
        if since and (item.variant.date or "") < since:
            continue
        if reason and reason not in {r.kind for r in item.reasons}:
            continue
        out.append(item)
    return out


def rule_history_from(rules: Any) -> RuleHistory:
    """A RuleHistory backed by a `kb.cr.RulesCorpus`, memoised: variants share (clause, date)."""
    from functools import lru_cache

    from kb.errors import KBError

    @lru_cache(maxsize=None)
    def rewordings(clause: str) -> list[tuple[str, bool]]:
        """(date, reworded in substance) for each step of the clause's history after the first."""
        steps = list(rules.history(clause).steps)
        return [(s.date, substantive(prev.text) != substantive(s.text)) for prev, s in zip(steps, steps[1:])]

    @lru_cache(maxsize=None)
    def history(clause: str, at: str) -> tuple[str, str, str, list[str]] | None:
        try:
            steps = rewordings(clause)
            then = rules.clause(clause, at=at)
            number_then = rules.number_at(clause, at) or clause
        except KBError:
            return None
        changed = [date for date, reworded in steps if date > at and reworded]
        return number_then, then.text, rules.current.clauses[clause].text, changed

    return history
