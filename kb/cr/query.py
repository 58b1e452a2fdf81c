"""Questions about the aligned CR versions: a clause as it stood on a date, its wording history,
what changed in a section between two versions."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from enum import StrEnum

from kb.cr.lineage import Lineage, Members
from kb.cr.numbers import nearest
from kb.cr.parse import Clause, RulesVersion
from kb.cr.text import wording_key
from kb.errors import InputError, NotFoundError
from kb.normalize import is_iso_date


class ChangeKind(StrEnum):
    """How a clause changed from one CR version to the next (a str: it is its JSON form)."""

    ADDED = "added"  # first seen
    REMOVED = "removed"
    UNCHANGED = "unchanged"
    REWORDED = "reworded"
    RENUMBERED = "renumbered"
    RENUMBERED_REWORDED = "renumbered+reworded"

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
        return self in (ChangeKind.REWORDED, ChangeKind.RENUMBERED_REWORDED)


@dataclass(frozen=True, slots=True)
class HistoryStep:
    """A clause as it stood in one version: its number then, its text, and whether it changed."""

    date: str
    number: str
    text: str
    change: ChangeKind


@dataclass(frozen=True, slots=True)
class ClauseHistory:
    current: str | None  # number in the current CR, None when the rule was removed
    steps: tuple[HistoryStep, ...]
    removed_after: str | None = None  # date of the last version that has it, when removed

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

    def number_at(self, number: str, at: str | None) -> str | None:
        """The number that current clause `number` had in the CR in force on `at` (None: not yet)."""
        if at is None:
            return number
        lid = self.lineage.get((self.current.date, number))
        if lid is None:
            return None
        try:
            found = self._member_at(lid, at)
        except NotFoundError:
            return None
        return found[1] if found else None

    def history(self, number: str, at: str | None = None) -> ClauseHistory:
        """The wording of clause `number` (numbered as in the CR in force on `at`, default the
        current CR) in every version that has it, oldest first."""
        version = self.current if at is None else self.in_force(at)
        lid = self._lid(number, version)
        steps: list[HistoryStep] = []
        before: Clause | None = None
        for date, num in self.members[lid]:
            clause = self.version(date).clauses[num]
            steps.append(HistoryStep(date, num, clause.text, ChangeKind.between(before, clause)))
            before = clause
        last_date, last_num = self.members[lid][-1]
        current = last_num if last_date == self.current.date else None
        return ClauseHistory(current, tuple(steps), None if current else last_date)

    def diff(self, date_a: str, date_b: str, section: str) -> SectionDiff:
        """What changed in `section` (numbered as in the later version) between the CRs in force on
        two dates (any dates, in either order; `SectionDiff.from_date/to_date` say which versions)."""
        if date_a > date_b:
            date_a, date_b = date_b, date_a
        b = self.in_force(date_b)
        if not b.complete and section not in b.clauses:  # a face-down extract without it
            b = self.in_force(date_b, complete=True)
        if section not in b.clauses:
            raise NotFoundError(_missing(section, b))
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
            changes.append(ClauseChange(ChangeKind.between(old, c), old, c))
        for l, old in by_lid_a.items():
            if l not in seen:
                changes.append(ClauseChange(ChangeKind.REMOVED, old, None))
        return SectionDiff(a.date, b.date, section_a, section, tuple(changes))

    def _lid(self, number: str, version: RulesVersion) -> int:
        if number not in version.clauses:
            raise NotFoundError(_missing(number, version))
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


def _missing(number: str, version: RulesVersion) -> str:
    near = nearest(number, version.clauses, 2)
    hint = f"; nearest: {', '.join(near)}" if near else ""
    return f"no clause {number} in the CR of {version.date}{hint}"
