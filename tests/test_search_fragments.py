"""A ruling that is a fragment ("For example, ...": MTGJSON gives a card's example sentence as a ruling of
its own, its subject only in the card's text) is shown after the hits that stand alone (try-out 32 #6).
Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kb.search import Searcher
from kb.search.rank import Weights, _is_fragment
from tests.entries import fake_searcher, rule_entry, ruling_entry

ENTRIES = [
    ruling_entry("r-example", "For example, a 1/4 creature blocking a 3/3 will deal 4 damage rather than 1.",
                 "Toughness Card"),
    ruling_entry("r-stays", "Once a face-down creature has blocked, turning it face up doesn't remove it from combat; "
                 "it deals damage equal to its power.", "Morph Card"),
    rule_entry("c-510.1a", "510.1a", "Each attacking creature and each blocking creature assigns combat damage equal "
               "to its power."),
    rule_entry("c-500.1", "500.1", "A turn consists of five phases, in this order: beginning, precombat main, "
               "combat, postcombat main, and ending."),
    ruling_entry("r-other", "You may look at face-down creatures you control at any time.", "Morph Card"),
]


@pytest.mark.parametrize("text, fragment", [
    ("For example, a 2/3 creature will assign 3 combat damage rather than 2.", True),
    ("  for instance, it can block.", True),
    ("Zum Beispiel verursacht eine 2/3-Kreatur 3 Schadenspunkte.", True),
    ("Por ejemplo, una criatura 2/3 hará 3 daños.", True),
    ("E.g., a 2/3 creature will assign 3 combat damage.", True),  # review43 #3: never read before
    ("e.g. a 2/3 creature will assign 3 combat damage.", True),
    ("If a face-down creature blocks, for example, it deals damage.", False),  # the example inside a sentence
    ("Forexample is no word.", False),
])  # fmt: skip
def test_a_ruling_opening_with_an_example_is_a_fragment(text: str, fragment: bool) -> None:
    assert _is_fragment(ruling_entry("r-x", text, "Card")) is fragment


def test_a_clause_is_never_a_fragment() -> None:
    assert not _is_fragment(rule_entry("c-x", "100.1", "For example, this clause."))


def _searcher(tmp_path: Path, weights: Weights) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path / "index", weights=weights)


QUESTION = "My 1/4 creature blocks a 3/3. Will it deal 4 damage rather than 1?"


def test_a_fragment_comes_after_the_hits_that_stand_alone(tmp_path: Path) -> None:
    """The fragment shares the question's numbers and words best and was first (red with
    `fragments_last=False`); it is still found, below the others."""
    in_place = _searcher(tmp_path / "a", dataclasses.replace(Weights(), fragments_last=False)).search(QUESTION, limit=3)
    assert in_place[0].entry.id == "r-example"
    hits = _searcher(tmp_path / "b", Weights()).search(QUESTION, limit=len(ENTRIES))
    ids = [h.entry.id for h in hits]
    assert ids[-1] == "r-example" and len(ids) == len(ENTRIES)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)  # scores go down the list
