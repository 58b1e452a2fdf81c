"""A CR clause is found by the topic its headings name (`kb.search.index.clause_context`): a player
asks about "the last chapter of a Saga", the clause says "lore counters" and leaves "Saga" to its
heading. Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

from kb.search.index import clause_context
from tests.entries import fake_searcher, rule_entry, ruling_entry

ENTRIES = [
    rule_entry("c-701", "701", "Keyword Actions"),
    rule_entry("c-701.23", "701.23", "Search"),
    rule_entry("c-701.23d", "701.23d", "If a player is looking through a hidden zone simply for a quantity of "
               "cards, that player must find that many cards if possible."),
    rule_entry("c-704", "704", "State-Based Actions"),
    rule_entry("c-704.5", "704.5", "The state-based actions are as follows:"),
    rule_entry("c-704.5j", "704.5j", "If two or more legendary permanents with the same name are controlled by "
               "the same player, that player chooses one of them."),
    rule_entry("c-714", "714", "Saga Cards"),
    rule_entry("c-714.4", "714.4", "If the number of lore counters on a permanent is greater than or equal to "
               "its final chapter number, its controller sacrifices it."),
    rule_entry("c-gl-lore", "glossary:Lore Counter", "Lore Counter: A counter put on a permanent with chapter "
               "abilities. See rule 714.4."),
    ruling_entry("r-chapter", "The last chapter ability triggers when the last lore counter is put on it.",
                 "Some Card"),
]


def test_a_clause_reads_the_nearest_heading_above_it_not_its_parent_rule() -> None:
    context = {ENTRIES[i].clause: text for i, text in clause_context(ENTRIES).items()}
    assert context == {
        "701.23d": "Search",  # the nearest heading only, not the section's ("Keyword Actions")
        "704.5": "State-Based Actions",
        "704.5j": "State-Based Actions",  # 704.5 is a rule ("... are as follows:"), not a heading
        "714.4": "Saga Cards",
    }  # headings and glossary entries gain nothing


def test_a_question_naming_the_heading_finds_the_clause(tmp_path: Path) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    # the question's words are in the headings only (the headings are no documents themselves)
    hits = searcher.search("When does my Saga go away?", limit=3, mode="lexical", kind="rule")
    assert [h.entry.id for h in hits][:1] == ["c-714.4"]
    hits = searcher.search("May I search my library for less?", limit=3, mode="lexical", kind="rule")
    assert [h.entry.id for h in hits][:1] == ["c-701.23d"]
