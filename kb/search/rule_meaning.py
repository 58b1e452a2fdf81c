"""Which rule `--rule N` means for a question: today's N, or the rule N numbered in older CRs.

A judge reading an old ruling types the number it cites (`--rule 707.5`: the face-down look rule in the
CRs of 2014-2018, today's 708.5; today's 707.5 is a copy rule). Filtered by today's 707.5 alone, a
face-down question got three copy rulings at a score of 0.01 (tryout31 #8). Each meaning is searched;
the one whose best hit scores highest answers. The scores compare: a filter masks entries ranked among
all of them, it does not reorder the rest (`Searcher.search`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.cr.query import FormerRule, RulesCorpus
    from kb.search.filters import Filters
    from kb.search.rank import Hit, Searcher


@dataclass(frozen=True)
class RuleRead:
    """The hits of a search filtered by `asked`, read as the current clause `read`: `asked` itself, or
    (`former` set) the rule `asked` numbered in older CRs, whose rulings answer the question better."""

    asked: str
    read: str
    hits: list[Hit]
    former: FormerRule | None = None
    best_asked: float | None = None  # today's `asked`'s best hit's score (None: no hit), when `former` won

    @property
    def note(self) -> str | None:
        """A sentence saying `--rule` was read as the older rule, and how to get today's; None when it was not."""
        if self.former is None:
            return None
        best = self.hits[0].score if self.hits else 0.0
        today = (f"today's {self.asked}'s best scores {self.best_asked:.3f}" if self.best_asked is not None
                 else f"today's {self.asked} has none")
        return (f"--rule {self.asked} read as the rule it numbered in {self.former.span}, now {self.read}: its "
                f"rulings answer the question better (best score {best:.3f}; {today}). "
                f"`kb rule {self.asked}` lists today's {self.asked}'s rulings.")


def search_rule_meanings(searcher: Searcher, rules: RulesCorpus | None, question: str, *, limit: int,
                         filters: Filters) -> RuleRead:
    """Search with `filters`; when its rule number stood for another rule still in the rules in older CRs,
    search by that rule's number today too, and keep the hits of the meaning whose best hit scores highest
    (today's on a tie). `rules` (the CR versions) may be None when `filters` names no rule."""
    asked = filters.rule
    hits = searcher.search(question, limit=limit, filters=filters)
    if asked is None or rules is None:
        return RuleRead("", "", hits)
    best = RuleRead(asked, asked, hits)
    for former in rules.other_rules(asked):
        if former.now is None or former.now == asked:
            continue
        theirs = searcher.search(question, limit=limit, filters=replace(filters, rule=former.now))
        if theirs and (not best.hits or theirs[0].score > best.hits[0].score):
            best = RuleRead(asked, former.now, theirs, former, hits[0].score if hits else None)
    return best
