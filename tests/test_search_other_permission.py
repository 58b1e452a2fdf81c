"""Another card's ruling that states a permission its own card's text grants ("You can look at the three exiled cards
at any time." of Three Wishes) is no answer to a question about a card that grants none (`Weights.other_permission`,
`Searcher._other_permissions`; tryout 51 D1, issue 17): Kyren Archive exiles cards face down and says nothing of
looking at them, so 406.3 (cards exiled face down can't be examined) and the rulings that forbid looking (Memory
Jar's, by analogy) answer it.
Hand-made entries, deterministic fake embedder, the bundled Oracle texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.search import Searcher
from kb.search.rank import Weights, permitted_acts
from tests.entries import fake_searcher, ranked_ids, rule_entry as _rule, ruling_entry as _ruling

ENTRIES = [
    _rule("c-406.3", "406.3", "Exiled cards are, by default, kept face up and may be examined by any player at any "
          "time. Cards \"exiled face down\" can't be examined by any player except when instructions allow it."),
    _rule("c-406.4", "406.4", "Face-down cards in exile should be kept in separate piles."),
    _ruling("r-wishes", "You can look at the three exiled cards at any time.", "Three Wishes"),
    _ruling("r-jar", "You can't look at the cards you exiled until they return to your hand.", "Memory Jar"),
    _ruling("r-fate", "Each Shared Fate tracks only the cards it exiled.", "Shared Fate"),
    _ruling("r-elves", "The creature enters tapped.", "Llanowar Elves"),
    _ruling("r-shock", "Damage wears off at end of turn.", "Shock"),
]
QUESTION = "Kyren Archive exiled three cards face down. Can I look at those cards?"


def _searcher(tmp_path: Path, factor: float) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path / "index", weights=Weights(other_permission=factor))


def test_another_cards_permission_is_below_a_ruling_that_forbids_for_a_card_that_grants_none(tmp_path: Path) -> None:
    ranked = ranked_ids(_searcher(tmp_path, Weights().other_permission), QUESTION, limit=5)
    assert ranked[0] == "r-jar", ranked


def test_without_it_the_permission_comes_first(tmp_path: Path) -> None:
    """The mechanism, not the data, decides: the same entries and question with the discount off."""
    assert ranked_ids(_searcher(tmp_path, 1.0), QUESTION, limit=5)[0] == "r-wishes"


def test_a_named_card_that_grants_the_act_keeps_the_permission(tmp_path: Path) -> None:
    """Bane Alley Broker's text says "You may look at cards exiled with Bane Alley Broker": Three Wishes' ruling
    says the same of its own card, an answer by analogy, not discounted."""
    searcher = _searcher(tmp_path, 0.5)
    question = "Bane Alley Broker exiled cards face down. Can I look at the exiled face-down cards?"
    assert ranked_ids(searcher, question, limit=5) == ranked_ids(_searcher(tmp_path / "off", 1.0), question, limit=5)


@pytest.mark.parametrize("text, acts", [
    ("You can look at the three exiled cards at any time.", {"look"}),
    ("You may look at and play those cards this turn.", {"look", "play"}),
    ("Once you are allowed to look at a face-down card in exile, ...", {"look"}),
    ("No player may look at it.", set()),
    ("Neither player can look at cards exiled with it.", set()),
    ("You can't look at the cards you exiled.", set()),
    ("You may not look at them.", set()),
    ("Exile the top card of your library face down. (You can't look at it.)", set()),
])  # fmt: skip
def test_the_acts_a_text_permits(text: str, acts: set[str]) -> None:
    assert permitted_acts(text) == acts
