"""Which Comprehensive Rules the model follows: a CR date selects the behaviour that changed.

Only real differences between CR versions are encoded, each with the CR text that introduced it
(see /work/shared/data/comprehensive-rules/facedown-section-diffs.txt). Two differences the 2014 and
2018 ruling wordings seem to suggest are *not* rules changes and are deliberately not encoded:

- "ignoring any copy effects or type-changing effects" (2014) vs "ignoring any type-changing
  effects" (2018): from the first manifest rule (701.31b, January 2015) to today's 701.40b, you
  show that *the card* representing the permanent is a creature card; effects on the permanent,
  copy effects included, never matter. The 2018 wording only dropped a parenthetical.
- "don't have names" (2014) vs "don't have a name ... or share any creature types" (2018): face-down
  permanents have had "no subtypes" since before 2014 (707.2a), so they never shared creature types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from kb.normalize import is_iso_date

CURRENT = "2026-01-16"


class Mechanic(StrEnum):
    """A face-down mechanic that exists only from some CR on."""

    MORPH = "morph"
    MANIFEST = "manifest"
    MEGAMORPH = "megamorph"
    DISGUISE = "disguise"
    CLOAK = "cloak"
    MANIFEST_DREAD = "manifest_dread"


# The date from which the rules know each mechanic. Manifest is dated by the Fate Reforged
# release notes (2014-11-24) that announced it; the CR added it (701.31) effective 2015-01-23.
MECHANICS: dict[Mechanic, str] = {
    Mechanic.MORPH: "2002-10-07",
    Mechanic.MANIFEST: "2014-11-24",
    Mechanic.MEGAMORPH: "2015-03-27",
    Mechanic.DISGUISE: "2024-02-02",
    Mechanic.CLOAK: "2024-02-02",
    Mechanic.MANIFEST_DREAD: "2024-09-20",
}

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class RulesDateError(ValueError):
    """A rules date that is not an ISO date (YYYY-MM-DD)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules in force on `date`, as far as the model's behaviour depends on them."""

    date: str = CURRENT

    @classmethod
    def for_date(cls, date: str | None) -> Rules:
        if date is None:
            return cls(CURRENT)
        date = str(date)
        if not _DATE.match(date):
            raise RulesDateError(f"invalid rules date: {date!r} (expected YYYY-MM-DD)")
        if not is_iso_date(date):
            raise RulesDateError(f"invalid rules date: {date!r} (no such day)")
        return cls(date)

    def knows(self, mechanic: Mechanic | str) -> bool:
        """Whether the mechanic exists under these rules (a name that is no `Mechanic` raises
        ValueError)."""
        return self.date >= MECHANICS[Mechanic(mechanic)]

    @property
    def double_faced_can_be_face_down(self) -> bool:
        """711.8 (2015-01-23, with manifest): a double-faced card may enter face down. Before,
        711.6 said a double-faced permanent always has the status "face up"."""
        return self.date >= MECHANICS[Mechanic.MANIFEST]
