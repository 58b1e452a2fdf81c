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

# 406.3's "once a player is allowed to look at a card exiled face down, that player may continue to
# look at that card as long as it remains exiled": in every CR of the corpus (the oldest is of
# 2014-09-25); the rulings date it earlier, by Gatecrash's release (Bane Alley Broker, 2013-01-24:
# "Once you are allowed to look at a face-down card in exile, you are allowed to look at that card as
# long as it's exiled"; Grimoire Thief's rulings were reworded to it on 2013-07-01). Shared Fate's
# ruling of 2008-08-01 still says another Shared Fate "will not allow you to look at ... that card again".
KEEP_LOOKING = "2013-01-24"

# CR 2024-11-08 widened 406.3: "if a player is instructed to look at a card and then exile it face
# down, ... that player may continue to look at that card until it leaves the exile zone" (Clone Shell:
# "look at the top four cards of your library, exile one face down"). Dated by the corpus's first CR
# with it (CR-20241108.txt 406.3): its full CRs up to 2018-07-13 have only the "once allowed" sentence,
# and its 2024-02-02 extract lacks 406.3, so the change may be older, not newer.
LOOK_THEN_EXILE = "2024-11-08"

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

    @property
    def keeps_looking_once_allowed(self) -> bool:
        """406.3: a player once allowed to look at a card exiled face down may go on looking at it
        while it stays exiled, even after the permission ends (`KEEP_LOOKING`). Before, the
        permission lasted only as long as the effect that gave it."""
        return self.date >= KEEP_LOOKING

    @property
    def keeps_looking_at_what_it_looked_at_and_exiled(self) -> bool:
        """406.3 since `LOOK_THEN_EXILE`: a player instructed to look at a card and then exile it face
        down may go on looking at it while it stays exiled; before, nobody could unless allowed."""
        return self.date >= LOOK_THEN_EXILE
