"""Entries written in a test: a CR clause's rule entry and one card's ruling, each with one wording."""

from __future__ import annotations

from kb.model import Entry, Kind, Lang, Relation, Variant


def rule_entry(eid: str, clause: str, text: str) -> Entry:
    v = Variant(text, text, Lang.EN, "2026-01-16", "cr", 1, Relation.CANONICAL, 1.0, None)
    return Entry(eid, Kind.RULE, text, (), "2026-01-16", "2026-01-16", (v,), clause=clause)


def ruling_entry(eid: str, text: str, card: str) -> Entry:
    v = Variant(text, text, Lang.EN, "2018-07-13", "seed", 1, Relation.CANONICAL, 1.0, card)
    return Entry(eid, Kind.RULING, text, (card,), "2018-07-13", "2018-07-13", (v,))
