"""Face-down coverage: which ruling entries are about a face-down clause, which have a check,
and end to end over the bundled corpus: every check attaches to one entry and passes."""

from __future__ import annotations

import json

import pytest

from kb.cards import NAMES_FILE, derive_names
from kb.checks import coverage, is_face_down_entry, load_checks, run_checks
from kb.game.rules import CURRENT
from kb.model import Entry, Kind, Lang, Relation, RuleLink, Variant
from kb.paths import corpus_dir
from kb.corpus import Corpus

CORPUS = Corpus.default()


def entry(eid: str, *clauses: str, checks: tuple[str, ...] = (), kind: Kind = Kind.RULING,
          old: str | None = None) -> Entry:
    variant = Variant("t", "t", Lang.EN, "2018-07-13", "x.txt", 1, Relation.CANONICAL, 1.0, "Lightform")
    links = tuple(RuleLink(c, 0.9, old, "") for c in clauses)
    return Entry(eid, kind, "t", ("Lightform",), None, None, (variant,), links, checks)


@pytest.mark.parametrize(
    ("clause", "face_down"),
    [("708.8", True), ("708", True), ("702.37b", True), ("702.37", True), ("701.40g", True),
     ("702.168d", True), ("701.58a", True), ("701.62a", True), ("712.15a", True), ("712.16", True),
     ("702.3", False), ("702.370", False), ("707.10", False), ("712.14", False), ("7080.1", False),
     ("116.2b", False),
     # face-down exile: 406.3 and its subrules, the keywords whose rule exiles face down (hideaway,
     # foretell), a double-faced card exiled face down; not 406.4 or foretell's special action 116.2h
     ("406.3", True), ("406.3a", True), ("406.3b", True), ("702.75a", True), ("702.143a", True),
     ("702.143f", True), ("712.17", True), ("406.4", False), ("406.30", False), ("702.74a", False),
     ("702.1430", False), ("116.2h", False), ("712.18", False)],
)
def test_face_down_clauses(clause: str, face_down: bool) -> None:
    """707 is copying today: an old face-down number is not read as a current one (702.74a was hideaway
    until 2018; today it is evoke)."""
    assert is_face_down_entry(entry("e", clause)) is face_down


def test_old_number_counts_only_without_a_current_clause() -> None:
    assert is_face_down_entry(entry("e", "", old="707.2a"))
    assert not is_face_down_entry(entry("e", "707.10", old="706.10"))
    # 903.13 of 2014-15 (look at a card exiled face down at once) is no rule today; 903.13 now is Commander Draft
    assert is_face_down_entry(entry("e", "", old="903.13"))
    assert not is_face_down_entry(entry("e", "903.13", old="903.13"))


def test_a_ruling_linked_to_face_down_exile_without_a_check_is_missing() -> None:
    """Try-out 45 defect 8: a rules manager auditing face-down play expects the rulings on cards exiled
    face down (406.3), hideaway (702.75) and foretell (702.143) in `kb check --missing`."""
    entries = [
        entry("grasp", "601.2h", "607.2a", "406.3a"),  # a link of its own evidence ("" records none)
        entry("hideaway", "702.75a", old="702.74a"),
        entry("foretell", "702.143a", checks=("x/foretell",)),
        entry("room", "406.4"),
    ]
    covered, total, missing = coverage(entries)
    assert (covered, total) == (1, 3) and [e.id for e in missing] == ["grasp", "hideaway"]


def test_coverage_counts_face_down_rulings_with_and_without_checks() -> None:
    entries = [
        entry("a", "708.8", checks=("x/a",)),
        entry("b", "116.2b", "702.37e"),  # any of its links
        entry("c", "116.2b"),  # not face-down
        entry("d", "708.2a", kind=Kind.RULE),  # a rule text, not a ruling
        entry("e", "701.62a", checks=("x/e", "x/f")),
    ]
    covered, total, missing = coverage(entries)
    assert (covered, total) == (2, 3) and [e.id for e in missing] == ["b"]


def test_every_ruling_entry_has_a_rule_link_or_says_why_not(bundled_entries):
    entries, _ = bundled_entries
    rulings = [e for e in entries if e.kind is Kind.RULING]
    assert rulings and all(bool(e.rules) != bool(e.link_note) for e in rulings)
    assert all(e.rules[0].clause == e.clause for e in entries if e.kind is Kind.RULE)


def test_every_check_attaches_to_one_entry_and_passes_under_current_rules(bundled_entries):
    """Coverage is measured (kb check --missing), not required: every face-down ruling with a
    check is a subset of the face-down rulings."""
    entries, report = bundled_entries
    assert not report.check_problems, [str(p) for p in report.check_problems]
    checks, problems = load_checks(CORPUS.check_files(), CORPUS.cards)
    assert not problems
    attached = {c for e in entries for c in e.checks}
    assert attached == {c.id for c in checks}
    results = run_checks(checks, rules_date=CURRENT, cards=CORPUS.cards)
    failed = [r for r in results if not r.passed and r.not_applicable is None]
    assert not failed, [(r.id, r.failures) for r in failed]
    # not applicable now: only a check whose ruling a later rule contradicts (holds_until; Shared Fate's, 406.3)
    contradicted = {c.id for c in checks if c.holds_until is not None and c.holds_until <= CURRENT}
    assert {r.id for r in results if r.not_applicable is not None} == contradicted
    covered, total, missing = coverage(entries)
    assert covered + len(missing) == total and covered >= 100


def test_card_names_table_is_what_the_mtgjson_data_says():
    bundled = json.loads((corpus_dir() / NAMES_FILE).read_text(encoding="utf-8"))
    assert derive_names(corpus_dir()).to_json() == bundled
    names = {row["en"]: row for row in bundled["cards"]}
    assert names["Lightform"]["de"] == "Lichtform" and names["Rageform"]["es"] == "Forma de ira"


def test_a_ruling_is_face_down_by_its_top_link_or_a_confident_one() -> None:
    """Try-out 27 D12: "Room cards have two card faces with a shared type line ..." had 708.4 as its third link on
    shared words alone (BM25, 0.30): no face-down ruling; a face-down link with evidence of its own counts anywhere."""
    variant = Variant("t", "t", Lang.EN, None, "x.txt", 1, Relation.CANONICAL, 1.0, None)

    def ruling(*links: tuple[str, str]) -> Entry:
        rule_links = tuple(RuleLink(c, 0.9 - 0.1 * i, None, ev) for i, (c, ev) in enumerate(links))
        return Entry("r", Kind.RULING, "t", (), None, None, (variant,), rule_links)

    room = ruling(("709.5a", 'cue "glossary: Door"'), ("205.3a", 'cue "glossary: Type Line"'),
                  ("708.4", "BM25 0.60 of best"))
    assert not is_face_down_entry(room)
    assert is_face_down_entry(ruling(("708.4", "BM25 1.00 of best")))  # its top link
    assert is_face_down_entry(ruling(("116.2b", 'cue "special action"'),
                                     ("702.37e", 'cue "special action", the ruling\'s mechanic')))
    assert is_face_down_entry(ruling(("116.2b", 'cue "special action"'), ("708.8", "reviewed override")))


def test_a_face_down_link_on_the_ruling_s_face_down_words_alone_still_makes_it_a_face_down_ruling_links45() -> None:
    """links45 marks a 708 link that only the ruling's face-down words (or its cards' face-down ability) put there, and
    that says less of the ruling than another clause, as no confident link; the ruling still says face down, and its
    checks still count for the face-down rulings (Maelstrom Djinn "turns face up and then is turned face down")."""
    variant = Variant("t", "t", Lang.EN, None, "x.txt", 1, Relation.CANONICAL, 1.0, None)
    links = (RuleLink("702.63a", 0.9, None, 'keyword "vanish", BM25 1.00 of best'),
             RuleLink("708.3", 0.5, None, "the face-down words alone (another clause says more of it), BM25 0.43 of best"),
             RuleLink("702.37b", 0.4, None, "its cards' face-down ability alone (another clause says more of it), "
                                            "BM25 0.77 of best"))
    assert is_face_down_entry(Entry("r", Kind.RULING, "t", (), None, None, (variant,), links[:2]))
    assert is_face_down_entry(Entry("r", Kind.RULING, "t", (), None, None, (variant,), links[::2]))

