"""Questions about the aligned CR versions: a clause as it stood on a date, its wording history,
what changed in a section between two versions."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any

from kb.cr.lineage import Lineage, Members
from kb.cr.numbers import is_under, nearest, parent_of, sort_key
from kb.cr.parse import Clause, RulesVersion, heading_key
from kb.cr.text import is_title, wording_key
from kb.errors import InputError, NotFoundError
from kb.normalize import is_iso_date, word_diff


class ChangeKind(StrEnum):
    """How a clause changed from one CR version to the next (a str: it is its JSON form)."""

    # First seen: in a clause's history, "in this CR of the corpus and not in its full CR before", which
    # the corpus's CRs, samples of every CR published, can't date closer (ClauseHistory.before); in a
    # diff of two CRs, "in the later, not in the earlier".
    ADDED = "added"
    REMOVED = "removed"
    UNCHANGED = "unchanged"
    REWORDED = "reworded"
    RENUMBERED = "renumbered"
    RENUMBERED_REWORDED = "renumbered+reworded"
    # The wording is the same but for the numbers of the rules it cites, each the same rule renumbered
    # ("See rule 706" -> "See rule 707", copying): no change of meaning a judge reading for changes needs
    # to open (tryout48 D7). `RulesCorpus.change` tells these from `between`'s rewordings.
    REFERENCES_RENUMBERED = "references renumbered"
    RENUMBERED_REFERENCES_RENUMBERED = "renumbered+references renumbered"

    @classmethod
    def between(cls, old: Clause | None, new: Clause) -> ChangeKind:
        """The change from `old` (None: the clause did not exist) to `new`."""
        if old is None:
            return cls.ADDED
        renum, reword = old.number != new.number, wording_key(old.text) != wording_key(new.text)
        if renum and reword:
            return cls.RENUMBERED_REWORDED
        return cls.RENUMBERED if renum else cls.REWORDED if reword else cls.UNCHANGED

    @property
    def reworded(self) -> bool:
        """Whether the wording changed, beyond the numbers of the rules it cites."""
        return self in (ChangeKind.REWORDED, ChangeKind.RENUMBERED_REWORDED)

    @property
    def text_changed(self) -> bool:
        """Whether the text changed at all: reworded, or its references renumbered (a word diff says how)."""
        return self.reworded or self in (ChangeKind.REFERENCES_RENUMBERED, ChangeKind.RENUMBERED_REFERENCES_RENUMBERED)


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """A clause as it stood in one version: its number then, its text, and whether it changed."""

    date: str
    number: str
    text: str
    change: ChangeKind


@dataclass(frozen=True, slots=True)
class ClauseHistory:
    """A rule in every CR of the corpus that has it. The corpus holds some of the CRs published, so
    the rule came in after `before` (None: it is in the oldest CR of the corpus) and no later than
    its first step, and (no longer in the rules) went out after its last step and by `gone_by`."""

    current: str | None  # number in the current CR, None when the rule is no longer in the rules
    steps: tuple[HistoryStep, ...]
    # the corpus's last CR before the first that has it, which lacks it (a full CR, or a face-down extract
    # that holds the rule's section whole or says it has no rule of that heading: RulesCorpus.lacks)
    before: str | None = None
    gone_by: str | None = None  # no longer in the rules: the corpus's first full CR without it

    @property
    def last_seen(self) -> str:
        return self.steps[-1].date

    @property
    def first_seen(self) -> str:
        return self.steps[0].date

    def numbers(self) -> list[str]:
        """The distinct numbers the clause had, oldest first (e.g. 701.31, 701.33, 701.34, 701.40)."""
        out: list[str] = []
        for step in self.steps:
            if not out or out[-1] != step.number:
                out.append(step.number)
        return out

    def changes(self) -> list[HistoryStep]:
        return [s for s in self.steps if s.change is not ChangeKind.UNCHANGED]


@dataclass(frozen=True, slots=True)
class ClauseChange:
    kind: ChangeKind
    before: Clause | None
    after: Clause | None


@dataclass(frozen=True, slots=True)
class SectionDiff:
    date_a: str
    date_b: str
    section_a: str | None
    section_b: str
    changes: tuple[ClauseChange, ...]
    gaps: tuple[RulesGap, ...] = ()  # a date long after the CR that answers for it (see RulesGap)

    @property
    def same_version(self) -> bool:
        """Both dates fall under one CR of the corpus: there is nothing to compare."""
        return self.date_a == self.date_b

    @property
    def changes_note(self) -> str | None:
        """When the older date is long after the CR compared for it (a `RulesGap` from `date_a`), the
        changes listed may have come in before that date, already in force on it: a sentence saying
        so (tryout31 #2: `--diff 2021-08-01 2024-03-01` listed the 2021 renumbering); None otherwise."""
        start = next((g for g in self.gaps if g.used == self.date_a and g.next != g.used), None)
        if start is None or self.same_version:
            return None
        return (f"these are the changes between the CRs of {self.date_a} and {self.date_b}; some may have come in "
                f"before {start.at}, and the KB can't tell which.")

    def to_json(self) -> dict[str, Any]:
        """The diff as `kb rule --diff --json` prints it: a count per kind of change, then every
        change (unchanged clauses too) with a word diff where it was reworded."""
        changes = [{
            "change": c.kind,
            "before": c.before.number if c.before else None,
            "after": c.after.number if c.after else None,
            "text_before": c.before.text if c.before else None,
            "text_after": c.after.text if c.after else None,
            "diff": word_diff(c.before.text, c.after.text) if c.before and c.after and c.kind.text_changed else None,
        } for c in self.changes]
        return {"from": self.date_a, "to": self.date_b, "section": self.section_b,
                "section_before": self.section_a, "same_version": self.same_version,
                "gaps": [g.to_json() for g in self.gaps], "changes_note": self.changes_note,
                "summary": self.summary(), "changes": changes}

    def summary(self) -> dict[str, int]:
        """How many clauses changed each way ("added", "reworded", ...), in order of first change."""
        counts: dict[str, int] = {}
        for c in self.changes:
            counts[c.kind] = counts.get(c.kind, 0) + 1
        return counts


# Wizards publishes a new CR with most sets, three or four times a year: a date this far past the CR
# the KB answers from, when the corpus has a later CR, has most likely seen newer rules than that one.
STALE_AFTER_DAYS = 183


@dataclass(frozen=True, slots=True)
class RulesGap:
    """The CR of `used` answers for date `at`, but `at` is long after it and the corpus's next CR
    (that has the rule, when `skipped` lists extracts without it) is only of `next`: newer rules,
    which the corpus lacks, may have been in force on `at`. Two edges of the corpus are gaps too:
    `at` before its oldest CR (`before_oldest`: `used` and `next` are the oldest), and `at` long after
    its newest (`after_newest`: `used` and `next` are the newest; Wizards has most likely published
    newer CRs by then, which the KB lacks)."""

    at: str
    used: str
    next: str
    skipped: tuple[str, ...] = ()  # face-down extracts between `used` and `next` without the rule
    before_oldest: bool = False  # `at` is before every CR of the corpus: `used` (and `next`) is the oldest
    ran_model: bool = False  # said of a scenario check, which ran the rules model under `used`
    after_newest: bool = False  # `at` is more than STALE_AFTER_DAYS after the corpus's newest CR, `used`

    @property
    def note(self) -> str:
        if self.before_oldest:
            if self.ran_model:
                return (f"no CR in the corpus was in force on {self.at}; the oldest is {self.used}: the model ran "
                        f"with its rules, less the mechanics that came after {self.at}.")
            return (f"no CR in the corpus was in force on {self.at}; the oldest is {self.used}, read instead: "
                    f"older rules, which the KB lacks, may have differed.")
        if self.after_newest:
            return (f"the KB's newest CR is of {self.used}, more than six months before {self.at}: later CRs, "
                    f"which the KB lacks, may have been in force then.")
        lacks = (f" with this rule (the face-down extract of {', '.join(self.skipped)} lacks it)"
                 if self.skipped else "")
        return (f"the KB has no CR between {self.used} and {self.next}{lacks}: this is the last one before "
                f"{self.at}; newer rules may have been in force.")

    def to_json(self) -> dict[str, Any]:
        """`next` is null after the newest CR: the KB has no next one."""
        return {"used": self.used, "next": None if self.after_newest else self.next, "note": self.note}


@dataclass(slots=True)
class RulesCorpus:
    """Every bundled CR version (oldest first) with the clause identity between them."""

    versions: list[RulesVersion]
    # (version date, number) -> lineage id; lineage id -> [(date, number), ...] oldest first
    lineage: Lineage = field(default_factory=dict)
    members: Members = field(default_factory=dict)

    @property
    def current(self) -> RulesVersion:
        return [v for v in self.versions if v.complete][-1]

    @property
    def dates(self) -> list[str]:
        return [v.date for v in self.versions]

    def version(self, date: str) -> RulesVersion:
        """The version published exactly on `date`."""
        for v in self.versions:
            if v.date == date:
                return v
        raise NotFoundError(f"no CR of {date}; versions: {', '.join(self.dates)}")

    def in_force(self, at: str, complete: bool = False) -> RulesVersion:
        """The version in force on date `at` (the newest published on or before it)."""
        if not is_iso_date(at):
            raise InputError(f"not a date (YYYY-MM-DD): {at!r}")
        pool = [v for v in self.versions if v.complete or not complete]
        i = bisect.bisect_right([v.date for v in pool], at)
        if i == 0:
            raise NotFoundError(f"no CR in the corpus was in force on {at}; the oldest is {pool[0].date}")
        return pool[i - 1]

    def before_oldest(self, at: str, ran_model: bool = False) -> RulesGap | None:
        """A `RulesGap` when `at` is before every CR of the corpus, which is read for it instead (a
        check's own `rules:` date, `ran_model`: it runs under the oldest, where `--rules` with that date
        is refused); None otherwise."""
        oldest = self.versions[0].date
        return RulesGap(at, oldest, oldest, before_oldest=True, ran_model=ran_model) if at < oldest else None

    def after_newest(self, at: str) -> RulesGap | None:
        """A `RulesGap` when `at` is more than STALE_AFTER_DAYS after the corpus's newest CR (the one in
        force on `at` as far as the KB knows), as `gap` says of a CR with a later one; None otherwise."""
        newest = self.versions[-1].date
        if at <= newest or (date.fromisoformat(at) - date.fromisoformat(newest)).days <= STALE_AFTER_DAYS:
            return None
        return RulesGap(at, newest, newest, after_newest=True)

    def gap(self, at: str, used: str, having: list[str] | None = None) -> RulesGap | None:
        """A `RulesGap` when the CR of `used` answers for `at` more than STALE_AFTER_DAYS after it
        while the corpus has a later CR (among the dates `having`, the versions that have the rule
        asked about; default every version); None otherwise."""
        later = sorted(d for d in (self.dates if having is None else having) if d > used)
        if not later or (date.fromisoformat(at) - date.fromisoformat(used)).days <= STALE_AFTER_DAYS:
            return None
        # a complete CR before the next that has the rule ends the gap all the same (it lacked the rule)
        following = min([v.date for v in self.versions if v.complete and used < v.date < later[0]] + [later[0]])
        skipped = tuple(v.date for v in self.versions if not v.complete and used < v.date < following)
        return RulesGap(at, used, following, skipped)

    def clause(self, number: str, at: str | None = None) -> Clause:
        """Current clause `number`, or (with `at`) the same rule as it stood in the CR in force on
        `at`, whatever its number was then."""
        lid = self._lid(number, self.current)
        if at is None:
            return self.current.clauses[number]
        found = self._member_at(lid, at)
        if found is None:
            raise NotFoundError(f"clause {number} was not in the CR in force on {at}")
        return self.version(found[0]).clauses[found[1]]

    def subclauses(self, number: str) -> list[str]:
        """The numbers of the current clauses under `number` (708.1 ... 708.12 of section 708), in order."""
        return [c.number for c in self.current.section(number) if c.number != number]

    def number_at(self, number: str, at: str | None) -> str | None:
        """The number that current clause `number` had in the CR in force on `at` (None: not yet, or
        the KB can't tell: `at` is long after the corpus's CR that answers for it, the `gap` note of
        `kb rule --at`, and the corpus's next CR with the clause numbers it otherwise, so it may have
        been renumbered before `at`: 707.8 of 2018-07-13 was 708.8 from 2021, the corpus's next CR
        with it is of 2024)."""
        if at is None:
            return number
        lid = self.lineage.get((self.current.date, number))
        if lid is None:
            return None
        try:
            found = self._member_at(lid, at)
        except NotFoundError:
            return None
        if found is None:
            return None
        having = [d for d, _ in self.members[lid]]
        later = next((n for d, n in self.members[lid] if d > at), found[1])
        if later != found[1] and self.gap(at, found[0], having) is not None:
            return None
        return found[1]

    def history(self, number: str, at: str | None = None) -> ClauseHistory:
        """The wording of clause `number` (numbered as in the CR in force on `at`, default the
        current CR) in every version that has it, oldest first."""
        version = self.current if at is None else self.in_force(at)
        lid = self._lid(number, version)
        steps: list[HistoryStep] = []
        before: Clause | None = None
        for date, num in self.members[lid]:
            clause = self.version(date).clauses[num]
            steps.append(HistoryStep(date, num, clause.text, self.change(before, clause)))
            before = clause
        last_date, last_num = self.members[lid][-1]
        current = last_num if last_date == self.current.date else None
        return ClauseHistory(current, tuple(steps), self.lacking_before(lid, steps[0].date),
                             None if current else self.full_cr_after(last_date))

    def lacks(self, version: RulesVersion, lid: int) -> bool:
        """Whether `version` shows that the rule of lineage `lid` was not in the rules on its date: it does
        not have it, and it is a full CR, or a face-down extract that holds whole the section or rule the
        rule is part of ("## Section 708. ... (complete)"), or says the CR has no rule of its heading, or of
        a heading above it ("## Manifest Dread: no rule with this heading in this version"). An extract's
        silence on anything else says nothing."""
        members = self.members[lid]
        if any(d == version.date for d, _ in members):
            return False
        if version.complete:
            return True
        # the rule's number and headings in the nearest CR that has it, the first after `version` if any
        ref_date, ref_num = next(((d, n) for d, n in members if d > version.date), members[-1])
        for part in version.whole:
            part_lid = self.lineage.get((version.date, part))
            there = next((n for d, n in self.members.get(part_lid, []) if d == ref_date), None) \
                if part_lid is not None else None
            if there is not None and is_under(ref_num, there):
                return True
        ref = self.version(ref_date)
        number: str | None = ref_num
        while number is not None:
            clause = ref.clauses.get(number)
            if clause is not None and heading_key(clause.text) in version.absent:
                return True
            number = parent_of(number)
        return False

    def lacking_before(self, lid: int, date: str) -> str | None:
        """The date of the corpus's newest CR before `date` that shows the rule of `lid` was not in the
        rules (`lacks`); None when it has none."""
        older = [v.date for v in self.versions if v.date < date and self.lacks(v, lid)]
        return older[-1] if older else None

    def full_cr_after(self, date: str) -> str | None:
        """The date of the corpus's oldest full CR after `date`; None when it has none."""
        return next((v.date for v in self.versions if v.complete and v.date > date), None)

    def none_between(self, older: str, newer: str) -> str:
        """"the KB has no CR between" two of its CRs, naming the face-down extracts it has between
        them: they hold the face-down rules only, so a clause they lack says nothing."""
        extracts = [v.date for v in self.versions if not v.complete and older < v.date < newer]
        if not extracts:
            return "the KB has no CR between"
        return f"the KB has no full CR between, only a face-down extract of {', '.join(extracts)}"

    def diff(self, date_a: str, date_b: str, section: str) -> SectionDiff:
        """What changed in `section` (numbered as in the later version) between the CRs in force on
        two dates (any dates, in either order; `SectionDiff.from_date/to_date` say which versions)."""
        if date_a > date_b:
            date_a, date_b = date_b, date_a
        # a date before the oldest CR compares from the oldest, with a note (tryout31 #7), one long after
        # the newest to the newest, with a note (#6)
        early, late = self.before_oldest(date_a), self.before_oldest(date_b) or self.after_newest(date_b)
        oldest = self.versions[0].date
        date_a, date_b = max(date_a, oldest), max(date_b, oldest)
        b = self.in_force(date_b)
        if not b.complete and section not in b.clauses:  # a face-down extract without it
            b = self.in_force(date_b, complete=True)
        if section not in b.clauses:
            raise NotFoundError(self.missing_clause(section, b))
        lid = self.lineage[(b.date, section)]
        a = self.in_force(date_a)
        if not a.complete and all(d != a.date for d, _ in self.members[lid]):
            a = self.in_force(date_a, complete=True)
        section_a = next((n for d, n in self.members[lid] if d == a.date), None)
        after = b.section(section)
        before = a.section(section_a) if section_a else []
        by_lid_a = {self.lineage[(a.date, c.number)]: c for c in before}
        changes: list[ClauseChange] = []
        seen: set[int] = set()
        for c in after:
            l = self.lineage[(b.date, c.number)]
            old = by_lid_a.get(l)
            if old is None:
                num_a = next((n for d, n in self.members[l] if d == a.date), None)
                old = a.clauses[num_a] if num_a else None
            seen.add(l)
            changes.append(ClauseChange(self.change(old, c), old, c))
        for l, old in by_lid_a.items():
            if l not in seen:
                changes.append(ClauseChange(ChangeKind.REMOVED, old, None))
        having = [d for d, _ in self.members[lid]]
        gaps: dict[tuple[str, str], RulesGap] = {}
        for g in (early, self.gap(date_a, a.date, having), self.gap(date_b, b.date, having), late):
            if g:
                gaps.setdefault((g.used, g.next), g)
        return SectionDiff(a.date, b.date, section_a, section, tuple(changes), tuple(gaps.values()))

    def other_rules(self, number: str) -> list[FormerRule]:
        """The rules that `number` numbered in older CRs when it was not today's `number` (707.2 was
        the face-down rule, today's 708.2, until the CR of 2018-07-13 in the corpus): a judge types the
        number an old ruling cites."""
        today = self.lineage.get((self.current.date, number))
        dates: dict[int, list[str]] = {}
        for v in self.versions:
            lid = self.lineage.get((v.date, number))
            if lid is not None and lid != today:
                dates.setdefault(lid, []).append(v.date)
        found = []
        for lid, seen in dates.items():
            last_date, last_num = self.members[lid][-1]
            if last_date == self.current.date:
                found.append(FormerRule(seen[0], seen[-1], last_num))
                continue
            gone_by = self.full_cr_after(last_date)
            section = number.split(".")[0]
            title = self.version(seen[-1]).clauses.get(section)
            found.append(FormerRule(seen[0], seen[-1], None, last_date, gone_by,
                                    self.none_between(last_date, gone_by) if gone_by else "",
                                    section, title.text if title is not None and is_title(title.text) else ""))
        return sorted(found, key=lambda f: f.first)

    def change(self, old: Clause | None, new: Clause) -> ChangeKind:
        """`ChangeKind.between` old and new, where a rewording that is only the renumbering of the rules the
        text cites (each number in `old`'s CR standing for the rule `new`'s CR numbers as in `new`) is
        `REFERENCES_RENUMBERED` (or `RENUMBERED_REFERENCES_RENUMBERED`), not reworded."""
        kind = ChangeKind.between(old, new)
        if old is None or not kind.reworded:
            return kind
        if wording_key(_CITED_NUMBER.sub(lambda m: self._renumbered(m.group(0), old.version, new.version),
                                         old.text)) != wording_key(new.text):
            return kind
        return (ChangeKind.REFERENCES_RENUMBERED if kind is ChangeKind.REWORDED
                else ChangeKind.RENUMBERED_REFERENCES_RENUMBERED)

    def _renumbered(self, number: str, old: str, new: str) -> str:
        """The number that the rule `number` of the CR of `old` has in the CR of `new`; `number` itself when
        the KB can't tell. A face-down extract holds few rules: the rule its text cites is read in the
        corpus's last CR before `old` with that number, and its number in the first CR from `new` on
        with the rule (the extract of 2024-02-02 cites 707, copying, which it does not hold)."""
        lid = next((self.lineage[(v.date, number)] for v in reversed(self.versions)
                    if v.date <= old and (v.date, number) in self.lineage), None)
        if lid is None:
            return number
        return next((n for d, n in self.members[lid] if d >= new), number)

    def missing_clause(self, number: str, version: RulesVersion | None = None) -> str:
        """"No clause N in the CR of DATE" (default the current CR), with the nearest numbers it has in
        N's rule; when N is in none of the corpus's CRs and its rule has no number near it, a sentence
        saying so and naming the oldest CR (tryout48 D6: `420.5e`, the state-based actions of a pre-2009
        CR, was told "nearest: 400.5, 400.7e", zone rules)."""
        version = self.current if version is None else version
        message = missing_clause(number, version)
        if "; nearest: " in message or any(number in v.clauses for v in self.versions):
            return message
        return (f"{message}, nor in any other CR the KB holds: its oldest CR is of {self.versions[0].date}, and "
                f"a number from a CR before it is one the KB can't look up")

    def _lid(self, number: str, version: RulesVersion) -> int:
        if number not in version.clauses:
            message = self.missing_clause(number, version)
            if version is self.current and (former := self.other_rules(number)):
                message = (f"no clause {number} in the CR of {version.date}; "
                           + "; ".join(f.said(number) for f in former))
            raise NotFoundError(message)
        return self.lineage[(version.date, number)]

    def _member_at(self, lid: int, at: str) -> tuple[str, str] | None:
        """The lineage member in the newest version on or before `at` that has the clause;
        None when the complete CR in force then did not have it yet (or any more)."""
        in_force = self.in_force(at, complete=True)
        best = None
        for date, num in self.members[lid]:
            if date <= at and date >= in_force.date:
                best = (date, num)
        if best is None:
            # the clause may be absent from the complete version but present in an extract later
            # than it; otherwise it did not exist then
            return None
        return best


@dataclass(frozen=True, slots=True)
class FormerRule:
    """Another rule an old number stood for, in the corpus's CRs from `first` to `last`; `now` is
    that rule's number today (None: no longer in the rules). A rule no longer in the rules went out
    after the corpus's last CR that has it (`last_seen`), by its next full CR (`gone_by`): when
    exactly, the corpus can't tell (`between` says which CRs it lacks)."""

    first: str
    last: str
    now: str | None
    last_seen: str | None = None
    gone_by: str | None = None
    between: str = ""  # RulesCorpus.none_between(last_seen, gone_by)
    # the section it was in, and that section's title, in the last CR giving it the number ("708", "Split Cards")
    section: str = ""
    heading: str = ""

    @property
    def span(self) -> str:
        return f"the CR of {self.first}" if self.first == self.last else f"the CRs of {self.first} to {self.last}"

    @property
    def what(self) -> str:
        """The rule it was: "the rule now 708.2", or "another rule (in section 708, Split Cards), since removed"."""
        if self.now:
            return f"the rule now {self.now}"
        of = f" (in section {self.section}, {self.heading})" if self.section and self.heading else ""
        return f"another rule{of}, since removed"

    def said(self, number: str) -> str:
        """One sentence for a judge who typed the number (tryout46 D10: "in the CRs of 2014-09-25 to
        2015-01-23, 708.5 was a rule no longer in the rules; last seen in ..." was hard to read)."""
        if self.now:
            return f"in {self.span}, {number} was {self.what}: `kb rule {self.now}`"
        gone = (f": after the CR of {self.last_seen}, by that of {self.gone_by} ({self.between})"
                if self.last_seen and self.gone_by else "")
        return f"in {self.span} the number {number} was {self.what}{gone}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"first": self.first, "last": self.last, "now": self.now}
        if self.last_seen and self.gone_by:  # no longer in the rules (keys added for it alone: tryout26)
            data |= {"last_seen": self.last_seen, "gone_by": self.gone_by, "section": self.section,
                     "heading": self.heading}
        return data


def missing_clause(number: str, version: RulesVersion) -> str:
    """"No clause N in the CR of DATE", with the nearest numbers it has in N's rule (708.99: 708.9,
    708.12); none from another rule, whose digits being near says nothing of what it is about."""
    near = nearest(number, [n for n in version.clauses if sort_key(n)[:2] == sort_key(number)[:2]], 2)
    hint = f"; nearest: {', '.join(near)}" if near else ""
    return f"no clause {number} in the CR of {version.date}{hint}"


# A CR number a rule's text cites: "rule 706", "rule 706.3.", "702.37b,"
_CITED_NUMBER = re.compile(r"(?<![\d.])\d{3}(?:\.\d+[a-z]?)?(?![\w])")


# --- reports: what `kb rule` shows, as data ----------------------------------------------------

Runs = list[tuple[str, str]]  # a word diff: (op, words) runs, see kb.normalize.word_diff


@dataclass(frozen=True, slots=True)
class ClauseThen:
    """A current clause as it stood in the CR in force on a date (`number` None: not in the rules yet)."""

    date: str
    version: str  # the CR the wording comes from: the one in force on `date`, unless that is an extract without it
    number: str | None
    text: str | None
    diff_to_current: Runs | None  # None when the wording has not changed since
    # When the number asked for numbered another rule in that CR (707.2 in 2018 is today's 708.2):
    # that rule's number now (None: it is no longer in the rules). Absent when the number is the same rule.
    other_rule_now: str | None = None
    other_rule: bool = False
    # ... but `date` is long after the CR that says so, and the corpus's next CR with that rule gives it
    # another number: by `date` the number may already have been today's rule (RulesGap.next says which CR)
    other_rule_gap: RulesGap | None = None
    # The CR in force on `date` when it is not `version`: a face-down extract that lacks the clause,
    # so the wording is the older full CR's and its number may have changed in between.
    in_force: str | None = None
    gap: RulesGap | None = None  # `date` long after `version` while the corpus has a later CR
    # Not in the rules on `date` as far as the KB knows, but the KB can't tell: the clause is not in the
    # corpus's last CR on or before `date` that shows it absent (this date: a full CR, or a face-down
    # extract that holds its part whole, RulesCorpus.lacks), nor in `version` when that is a face-down
    # extract after it, and the corpus has no such CR from `date` until the first CR that has it.
    last_complete: str | None = None
    first_seen: str | None = None  # the corpus's first CR with the clause, when it is not in `version`
    # not in the rules yet: the corpus's CR, in force on `date` or later, that shows it (RulesCorpus.lacks)
    lacking: str | None = None
    between: str = ""  # when unknown: RulesCorpus.none_between(last_complete, first_seen)

    @property
    def unknown(self) -> bool:
        """Whether the clause was in the rules on `date` is more than the corpus's CRs can tell."""
        return self.last_complete is not None

    @property
    def absent(self) -> str | None:
        """What the KB can say of a clause not in `version` (None: it is in it), in a sentence."""
        if self.number is not None:
            return None
        if self.gap and self.gap.before_oldest:  # older rules are not in the KB: "not yet" would be a guess
            return f"On {self.date}: before the oldest CR in the corpus ({self.version}), which does not have it."
        if not self.unknown:
            later = (f": not even in the later CR of {self.lacking}" if self.lacking and self.lacking != self.version
                     else "")
            return f"On {self.date} (CR of {self.version}): not in the rules yet{later}."
        if self.version != self.last_complete:
            return (f"On {self.date} (CR of {self.version}, in the corpus only as an extract of the face-down "
                    f"rules): not in that extract, nor in the last full CR before it ({self.last_complete}); "
                    f"the KB can't tell whether it was in the rules then.")
        return (f"On {self.date} (CR of {self.version}): not in that CR, but the KB can't tell whether it was in "
                f"the rules then: it is first seen in the CR of {self.first_seen}, and {self.between}.")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"date": self.date, "version": self.version, "number": self.number,
                                "text": self.text, "diff_to_current": self.diff_to_current,
                                "gap": self.gap.to_json() if self.gap else None}
        if self.in_force:
            data["in_force"] = self.in_force
        data["unknown"] = self.unknown
        if self.last_complete:
            data["last_complete"] = self.last_complete
        if self.other_rule:
            data["then_that_number_was"] = {"now": self.other_rule_now}
            if self.other_rule_gap:
                data["then_that_number_was"]["gap"] = self.other_rule_gap.to_json()
        return data


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One version of a clause's wording history, with the word diff from the version before."""

    date: str
    number: str
    change: ChangeKind
    # the change happened after this (the corpus's previous CR; for a clause first seen on `date`, its
    # last CR before that shows it absent: ClauseHistory.before), on or before `date`
    after: str | None
    text: str
    diff: Runs | None

    def to_json(self) -> dict[str, Any]:
        return {"date": self.date, "number": self.number, "change": self.change, "after": self.after,
                "text": self.text, "diff": self.diff}


@dataclass(frozen=True, slots=True)
class ClauseReport:
    """A current clause: its text, its numbers and wording in every version, and (with a date) as it
    stood then."""

    clause: str
    version: str  # date of the current CR
    text: str
    examples: tuple[str, ...]
    first_seen: str
    first_seen_note: str
    first_seen_after: str | None  # the corpus's full CR before `first_seen`, which lacks it (None: in the oldest)
    numbers: tuple[str, ...]
    at: ClauseThen | None
    history: tuple[HistoryRow, ...]
    in_oldest: bool = False  # already in the corpus's oldest CR: its first row is no "added" on that date
    other_rules: tuple[FormerRule, ...] = ()  # what this number stood for in older CRs, when another rule

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "version": self.version, "text": self.text,
                "examples": list(self.examples), "first_seen": self.first_seen,
                "first_seen_note": self.first_seen_note, "first_seen_after": self.first_seen_after,
                "numbers": list(self.numbers),
                "at": self.at.to_json() if self.at else None, "history": [h.to_json() for h in self.history],
                "other_rules": [f.to_json() for f in self.other_rules]}


def _other_rule_then(rules: RulesCorpus, number: str, at: str) -> dict[str, Any]:
    """`other_rule`/`other_rule_now` when `number` in the CR in force on `at` was another rule than
    today's `number` (judges reading an old ruling type the number it cites); `other_rule_gap` when
    `at` is long after that CR and the corpus's next CR with that rule numbers it otherwise, so it may
    have been renumbered before `at` (707.8 of 2018-07-13 was 708.8 from 2021: tryout31 #2)."""
    try:
        then = rules.history(number, at=at)
    except NotFoundError:  # no such number then
        return {}
    if then.current == number:
        return {}
    read = rules.in_force(at)
    lid = rules.lineage[(read.date, number)]
    later = next((n for d, n in rules.members[lid] if d > at), number)
    gap = rules.gap(at, read.date, [d for d, _ in rules.members[lid]]) if later != number else None
    return {"other_rule": True, "other_rule_now": then.current, "other_rule_gap": gap}


def clause_report(rules: RulesCorpus, number: str, at: str | None = None) -> ClauseReport:
    """Current clause `number` across versions; with `at`, also as it stood in the CR in force then.
    A date before the oldest CR is answered from the oldest, with a note (`RulesGap.before_oldest`);
    one long after the newest from the newest, with a note (`RulesGap.after_newest`)."""
    clause = rules.clause(number)
    history = rules.history(number)
    then_row: ClauseThen | None = None
    asked = at
    edge: RulesGap | None = None
    if at and (edge := rules.before_oldest(at)) is not None:
        at = edge.used  # a judge asking about 2013 gets the oldest CR the KB holds, said to be that (tryout31 #7)
    elif at:
        edge = rules.after_newest(at)
    if at and asked:
        in_force = rules.in_force(at).date
        try:
            then: Clause | None = rules.clause(number, at=at)
        except NotFoundError:  # the clause did not exist then
            then = None
        lid = rules.lineage[(rules.current.date, number)]
        # not in the rules then: say so from the CR in force, but only when a CR of the corpus in force
        # on `at` or later, before the first with the clause, lacks it (a full CR, or an extract that holds
        # its section whole: RulesCorpus.lacks); else the KB can't tell (the clause came in after the
        # last CR before `at` that lacks it, and when is not in the corpus)
        lacking = next((v.date for v in rules.versions
                        if at <= v.date < history.first_seen and rules.lacks(v, lid)), None)
        unknown = then is None and lacking is None
        # the newest CR on or before `at` that lacks it: the full CR in force, or an extract after it that holds its section whole
        complete = max((v.date for v in rules.versions if v.date <= at and rules.lacks(v, lid)),
                       default=rules.in_force(at, complete=True).date)
        version = in_force if then is None else then.version
        having = [d for d, _ in rules.members[lid]]
        gap = rules.gap(at, version, having) if then is not None else rules.gap(at, in_force)
        then_row = ClauseThen(
            date=asked,
            version=version,
            number=then.number if then else None,
            text=then.text if then else None,
            diff_to_current=word_diff(then.text, clause.text) if then and then.text != clause.text else None,
            in_force=in_force if then is not None and then.version != in_force else None,
            # a clause not in the rules yet: the gap is the corpus's, from the CR in force (an extract too)
            gap=edge or gap,
            last_complete=complete if unknown else None,
            first_seen=history.first_seen if then is None else None,
            lacking=lacking if then is None else None,
            between=rules.none_between(complete, history.first_seen) if unknown else "",
            **_other_rule_then(rules, number, at))
    rows: list[HistoryRow] = []
    previous: HistoryStep | None = None
    for step in history.steps:
        after = previous.date if previous else history.before
        rows.append(HistoryRow(
            date=step.date, number=step.number, change=step.change,
            after=after if step.change is not ChangeKind.UNCHANGED else None,
            text=step.text,
            diff=word_diff(previous.text, step.text) if previous and step.change.text_changed else None))
        previous = step
    in_oldest = history.first_seen == rules.versions[0].date
    if in_oldest:
        note = f"already in the oldest CR in the corpus ({history.first_seen})"
    elif history.before:
        # not "added" then: the corpus's CRs are a sample, the clause came in somewhere in between
        note = (f"first seen in the CR of {history.first_seen}: not in the CR of {history.before}, and "
                f"{rules.none_between(history.before, history.first_seen)}")
    else:
        note = f"first seen in the CR of {history.first_seen}, the KB has no full CR before it"
    return ClauseReport(clause=number, version=rules.current.date, text=clause.text,
                        examples=tuple(clause.examples), first_seen=history.first_seen, first_seen_note=note,
                        first_seen_after=history.before,
                        numbers=tuple(history.numbers()), at=then_row, history=tuple(rows), in_oldest=in_oldest,
                        other_rules=tuple(rules.other_rules(number)))
