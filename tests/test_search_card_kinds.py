"""A face-down question that names the face-down card says what kind of card it is only through the card (a manifested
Lightning Bolt, Fire // Ice, Delver of Secrets: kb.search.question.card_kind_words, smoke53 L2): the kind's words are
read as if the question said them. Hand-made entries, deterministic fake embedder, the bundled Oracle cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.search.question import card_kind_words, puts_any_kind_face_down
from kb.search.rank import Weights
from tests.entries import fake_searcher, lexical_and_dense, rule_entry, ruling_entry


@pytest.mark.parametrize(("type_line", "layout", "words"), [
    ("Instant", "normal", ["instant"]),
    ("Instant", "split", ["instant"]),  # a split card's half (Fire of Fire // Ice) by its own type line
    ("Basic Land \u2014 Island", "normal", ["land"]),
    ("Legendary Enchantment Artifact", "normal", ["artifact", "enchantment"]),
    ("Creature \u2014 Human Wizard", "double-faced", ["double-faced card"]),
    ("Creature \u2014 Human Wizard", "transform", ["double-faced card"]),
    # a creature card is the ordinary face-down case, whatever its other types (a land creature turns face up)
    ("Creature \u2014 Bear", "normal", []),
    ("Land Creature \u2014 Forest Dryad", "normal", []),
])  # fmt: skip
def test_a_cards_kind_is_its_noncreature_types_and_being_double_faced(type_line: str, layout: str,
                                                                     words: list[str]) -> None:
    assert card_kind_words(type_line, layout) == words


@pytest.mark.parametrize(("concepts", "any_kind"), [
    ({"~manifest", "~turn_face_up"}, True),
    ({"~cloak"}, True),
    ({"~manifest_dread"}, True),
    # a morph or disguise card is a creature card cast face down; "face down" alone says no mechanic
    ({"~morph", "~turn_face_up"}, False),
    ({"~face_down", "~damage"}, False),
])  # fmt: skip
def test_manifesting_and_cloaking_put_a_card_of_any_kind_face_down(concepts: set[str], any_kind: bool) -> None:
    assert puts_any_kind_face_down(concepts) is any_kind


ENTRIES = [
    ruling_entry("r-instant", "If something tries to turn a face-down instant or sorcery card on the battlefield face "
                 "up, reveal that card to show all players it's an instant or sorcery card. The permanent remains on "
                 "the battlefield face down.", "Whisperwood Elemental"),
    ruling_entry("r-dfc", "If a double-faced card is manifested, it will be put onto the battlefield face down. While "
                 "face down, it can't transform.", "Whisperwood Elemental"),
    ruling_entry("r-morph", "If a manifested creature would have morph if it were face up, you may also turn it face "
                 "up by paying its morph cost.", "Whisperwood Elemental"),
    ruling_entry("r-tapped", "Turning a manifested permanent face up doesn't change whether it is tapped.",
                 "Whisperwood Elemental"),
    ruling_entry("r-shift", "If Reality Shift exiles a creature, its controller manifests the top card of their "
                 "library even if that player's library is empty.", "Reality Shift"),
    rule_entry("c-701.40b", "701.40b", "Any time you have priority, you may turn a manifested permanent you control "
               "face up. To do this, show all players that the card representing that permanent is a creature card."),
]


@pytest.mark.parametrize(("question", "answer"), [
    ("I manifested Fire // Ice. Can I turn it face up?", "r-instant"),  # a split card: its halves' type
    ("I manifested Lightning Bolt. Can I turn it face up?", "r-instant"),
    ("Ich habe einen Geheimnisstöberer manifestiert. Kann er sich verdeckt verwandeln?", "r-dfc"),
])  # fmt: skip
def test_a_named_face_down_cards_kind_reaches_the_ruling_about_that_kind(tmp_path: Path, question: str,
                                                                        answer: str) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    plain, _ = lexical_and_dense(searcher, question, answer, Weights(card_kind=0.0), len(ENTRIES))
    lexical, _ = lexical_and_dense(searcher, question, answer, Weights(), len(ENTRIES))
    assert lexical > plain


@pytest.mark.parametrize("question", [
    # not about face-down play: Lightning Bolt is what is cast, not a face-down card
    "Can I Lightning Bolt a creature with protection from red?",
    # a morph question: the instant named is cast at the face-down creature, it is not the face-down card
    "I unmorph my face-down creature in response to Lightning Bolt. Does it survive?",
    # an instant the KB holds rulings of is asked about through them: the manifested card is another
    "My opponent cast Reality Shift on my creature and I manifested a card. Can I turn it face up?",
])  # fmt: skip
def test_no_kind_is_read_for_a_question_not_about_a_face_down_card_it_names(tmp_path: Path, question: str) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    for answer in ("r-instant", "r-dfc"):
        plain, _ = lexical_and_dense(searcher, question, answer, Weights(card_kind=0.0), len(ENTRIES))
        lexical, _ = lexical_and_dense(searcher, question, answer, Weights(), len(ENTRIES))
        assert lexical == pytest.approx(plain)
