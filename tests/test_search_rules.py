"""The whole current CR as entries of kind `rule`: stable ids, merging with rules-search pages."""

from __future__ import annotations

import pytest

from kb.cr.entries import GLOSSARY_PREFIX, add_rule_entries, clause_entry_id, rule_entries
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.corpus import Corpus

CORPUS = Corpus.default()


@pytest.fixture(scope="module")
def rules():
    return CORPUS.rules


@pytest.fixture(scope="module")
def entries(rules):
    return rule_entries(rules)


def test_every_numbered_clause_and_glossary_term_is_an_entry(rules, entries):
    numbered = [n for n in rules.current.numbers() if "." in n or len(n) == 3]
    by_clause = {e.clause: e for e in entries}
    assert set(numbered) <= set(by_clause)
    assert len(entries) == len(numbered) + len(rules.current.glossary)
    assert len({e.id for e in entries}) == len(entries)
    assert all(e.kind is Kind.RULE and e.id.startswith("c-") for e in entries)
    assert "special action" in by_clause["702.37e"].text
    assert by_clause[GLOSSARY_PREFIX + "Morph"].text.startswith("Morph: ")
    # each links to itself, as a rules-search page's rule entry does
    assert all(e.rules[0].clause == e.clause and e.rules[0].score == 1.0 for e in entries)
    assert by_clause["708.2a"].rules[0].at_ruling_date == "707.2a"


def test_examples_are_part_of_the_rule_text(rules, entries):
    with_examples = next(n for n in rules.current.numbers() if rules.current.clauses[n].examples)
    entry = next(e for e in entries if e.clause == with_examples)
    assert "Example:" in entry.text


def test_id_follows_the_clause_lineage_not_its_number(rules):
    # 708.2a was 707.2a before 2018: same rule, same id, although the number (and text) changed
    history = rules.history("708.2a")
    assert history.numbers()[0] == "707.2a"
    assert clause_entry_id(rules, "708.2a") == clause_entry_id(rules, "708.2a")
    lid = rules.lineage[(rules.current.date, "708.2a")]
    assert rules.members[lid][0][1] == "707.2a"
    from kb.cr.entries import _id

    assert clause_entry_id(rules, "708.2a") == _id(f"rule:cr:{rules.members[lid][0][0]}:707.2a")
    assert clause_entry_id(rules, "708.2a") != _id(f"rule:cr:{rules.current.date}:708.2a")


def test_a_rules_search_page_entry_merges_into_its_clause(rules):
    text = rules.current.clauses["702.37e"].text
    page = Entry("c-page", Kind.RULE, text, (), None, None,
                 (Variant(text, text, Lang.EN, None, "corpus/seeds/x.txt", 3, Relation.CANONICAL, 1.0, None),),
                 clause="702.37e", checks=("face-down/special-action",))
    ruling = Entry("r-1", Kind.RULING, "A ruling.", ("Lightform",), None, None, ())
    merged = add_rule_entries([ruling, page], rules)
    hits = [e for e in merged if e.clause == "702.37e"]
    assert len(hits) == 1
    assert hits[0].id == clause_entry_id(rules, "702.37e")
    assert hits[0].variants == page.variants and hits[0].checks == page.checks
    assert "c-page" not in {e.id for e in merged}
    assert merged[0] is ruling


def test_a_merged_clause_entry_links_itself_by_the_number_of_its_first_date(rules):
    """tryout18: the 708.x clause entries said `at_ruling_date` 708.2a for a clause first seen in 2014,
    when it was 707.2a: the undated rules-search page's own link (today's number) was kept."""
    from kb.model import RuleLink

    text = rules.current.clauses["708.2a"].text
    page = Entry("c-page", Kind.RULE, text, (), None, None,
                 (Variant(text, text, Lang.EN, None, "corpus/seeds/x.txt", 3, Relation.CANONICAL, 1.0, None),),
                 rules=(RuleLink("708.2a", 1.0, "708.2a", "the entry is this clause's text"),
                        RuleLink("708.4", 0.5, "708.4", "cue")), clause="708.2a")
    (merged,) = [e for e in add_rule_entries([page], rules) if e.clause == "708.2a"]
    assert [(link.clause, link.at_ruling_date) for link in merged.rules] == [("708.2a", "707.2a"), ("708.4", "708.4")]
