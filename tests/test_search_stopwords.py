"""A text's stop words are its own language's (search50c, f4-en-01): English "die" is the verb ("does it die right
away?"), not the German article, so an English question and an English ruling keep it as a word; a German
question still drops it."""

from __future__ import annotations

from pathlib import Path

from kb.search.cardnames import CardIndex, CardMatcher
from tests.entries import fake_searcher, ruling_entry

ENTRIES = [
    ruling_entry("r-die", "If a Vampire would die, exile it instead.", "Vampire"),
    ruling_entry("r-life", "If it does, the creature's controller loses 2 life.", "Vampire"),  # the question's words
    ruling_entry("r-draw", "You draw a card at the beginning of your upkeep.", "Vampire"),
    ruling_entry("r-tap", "Tapping the Vampire for mana doesn't use the stack.", "Vampire"),
]


def test_an_english_question_saying_die_reaches_the_ruling_saying_die_and_a_german_article_does_not(
        tmp_path: Path) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index", cards=CardIndex(CardMatcher({}), {}))
    assert [h.entry.id for h in searcher.search("Does it die?", limit=2)] == ["r-die", "r-life"]
    assert "r-die" not in [h.entry.id for h in searcher.search("Was passiert, wenn die Kreatur stirbt?", limit=2)]
