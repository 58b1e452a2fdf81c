"""Rule links: rule entries link to themselves, rulings to the clauses they interpret."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb import links
from kb.cr import load_rules
from kb.errors import InputError
from kb.model import Entry, Kind, Lang, Relation, Variant

DATA = Path(__file__).parent / "data"
LABELLED = yaml.safe_load((DATA / "labelled_links.yaml").read_text(encoding="utf-8"))
# Measured without the override file (see test_labelled_precision_and_recall); asserted a bit below.
MIN_P_AT_1 = 0.72
MIN_RECALL = 0.55


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def ruling(text: str, date: str | None = "2014-11-24", lang: Lang = Lang.EN, entry_id: str = "r1") -> Entry:
    v = Variant(text, text, lang, date, "test", 1, Relation.CANONICAL, 1.0, "Lightform")
    return Entry(entry_id, Kind.RULING, text, ("Lightform",), date, date, (v,))


def top(entry: Entry, rules, overrides=()) -> list[str]:
    return [r.clause for r in links.link_entries([entry], rules, overrides)[0].rules]


def test_rule_entry_links_to_its_own_clause(rules):
    text = "Some cards allow spells and permanents to be face down."
    v = Variant(text, text, Lang.EN, None, "seed", 3, Relation.CANONICAL, 1.0, None)
    entry = Entry("rule-1", Kind.RULE, text, (), None, None, (v,), clause="708.1")
    [linked] = links.link_entries([entry], rules, [])
    assert [(r.clause, r.score) for r in linked.rules] == [("708.1", 1.0)]


@pytest.mark.parametrize("text, clause", [
    ("Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.", "110.5"),
    ("At any time, you can look at a face-down permanent you control.", "708.5"),
    ("If a face-down permanent you control leaves the battlefield, you must reveal it.", "708.9"),
    ("If the enchanted creature is turned face up, the \"Form\" will continue to enchant it.", "708.8"),
])
def test_face_down_rulings_cite_the_clause_first(rules, text, clause):
    assert top(ruling(text), rules)[0] == clause


def test_links_carry_the_number_in_force_at_the_ruling_date_and_evidence(rules):
    [linked] = links.link_entries([ruling("At any time, you can look at a face-down permanent you control.",
                                          date="2018-07-13")], rules, [])
    first = linked.rules[0]
    assert (first.clause, first.at_ruling_date) == ("708.5", "707.5")
    assert 'cue "look at"' in first.evidence
    assert 0 < first.score <= 1
    assert [r.score for r in linked.rules] == sorted((r.score for r in linked.rules), reverse=True)


def test_manifest_clause_did_not_exist_before_fate_reforged(rules):
    [linked] = links.link_entries([ruling("If a manifested creature would have morph if it were face up, you may "
                                          "also turn it face up by paying its morph cost.")], rules, [])
    assert linked.rules[0].clause == "701.40c"
    assert linked.rules[0].at_ruling_date is None  # the CR of 2014-09-25 had no manifest


def test_german_only_ruling_is_linked_by_cues(rules):
    text = "Das Aufdecken oder Verdecken einer bleibenden Karte ändert nicht, ob jene bleibende Karte getappt oder ungetappt ist."
    assert top(ruling(text, lang=Lang.DE), rules)[0] == "110.5"


def test_ruling_without_evidence_abstains_visibly(rules):
    [linked] = links.link_entries([ruling("Zzz qqq.")], rules, [])
    assert linked.rules == ()
    assert linked.link_note.startswith("no confident link")
    assert Entry.from_json(linked.to_json()).link_note == linked.link_note
    assert "link_note" not in links.link_entries([ruling("Turning a permanent face up or face down doesn't change "
                                                         "whether that permanent is tapped or untapped.")],
                                                 rules, [])[0].to_json()


def test_override_replaces_links_by_quote(rules):
    overrides = links.parse_overrides(
        '- quote: "whether that permanent is TAPPED"\n  clauses: ["708.8"]\n  note: test\n')
    entry = ruling("Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.")
    [linked] = links.link_entries([entry], rules, overrides)
    assert linked.rules[0].clause == "708.8"
    assert linked.rules[0].evidence.startswith("reviewed override: test")


@pytest.mark.parametrize("doc", ["{a: 1}", "- clauses: ['708.8']", "- quote: x", "- quote: x\n  add: [", ])
def test_malformed_overrides_are_refused(doc):
    with pytest.raises(InputError):
        links.parse_overrides(doc)


def test_bundled_overrides_parse_and_name_existing_clauses(rules):
    for o in links.load_overrides():
        for n in (*o.clauses, *o.add, *o.remove):
            assert n in rules.current.clauses, (o.quote, n)


def test_labelled_precision_and_recall(rules):
    """Automatic links only (no override file), over the hand-labelled rulings."""
    entries = [ruling(item["text"], item["date"], Lang(item["lang"]), f"r{i}") for i, item in enumerate(LABELLED)]
    linked = links.link_entries(entries, rules, overrides=[])
    predicted = {item["quote"]: [r.clause for r in e.rules] for item, e in zip(LABELLED, linked)}
    gold = {item["quote"]: item["clauses"] for item in LABELLED}
    metrics = links.precision_recall(predicted, gold)
    print(f"labelled links: {metrics}")
    assert metrics["items"] >= 30
    assert metrics["p_at_1"] >= MIN_P_AT_1
    assert metrics["recall"] >= MIN_RECALL


def test_every_ingested_ruling_has_a_link_or_says_why_not(rules):
    ingest = pytest.importorskip("kb.ingest")
    dedup = pytest.importorskip("kb.dedup")
    cards = pytest.importorskip("kb.cards")
    from kb import cr, paths

    corpus = paths.corpus_dir()
    result = ingest.ingest(ingest.bundled_sources(corpus), names=cards.load_names(corpus),
                           match_clause=cr.match_clause)
    entries = links.link_entries(dedup.deduplicate(result.records, embedder=None), rules)
    assert entries and all(bool(e.rules) != bool(e.link_note) for e in entries if e.kind is Kind.RULING)
    assert all(e.rules[0].clause == e.clause for e in entries if e.kind is Kind.RULE)


@pytest.mark.parametrize("text", [
    "The card is revealed when it leaves the battlefield.", "If it leaves, reveal it.",
    "Reveal it.\nIt leaves.", "Revealing it as it leaves", "It leaves the game; reveal it",
    "reveals the game ends", "unrevealed cards leave", "leave the game revealed", "revealed" * 3 + " leaves",
    "leaves the battlefield " * 200 + "revealed", "reveal " * 300 + "nothing else",
])
def test_ordered_cue_agrees_with_its_regex(text: str) -> None:
    """The "reveal when it leaves" cue is tested pair by pair (linear) instead of by its regex
    (backtracking over every variant of an entry); both must find the same texts."""
    cue = next(c for c in links.CUES if c.ordered)
    assert cue.found_in(text) == (cue.pattern.search(text) is not None)
