"""A question that asks only what a keyword is ("What is the new cloak action?") wants its definition: the
first clause of the keyword's rule, then its glossary entry (`focus.defined_phrase`, `Searcher._definitions`,
`Weights.definition`). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.focus import defined_phrase
from kb.search.rank import GLOSSARY_SHARE, Weights
from tests.entries import fake_searcher, rule_entry as _rule, ruling_entry as _ruling

ENTRIES = [
    _rule("c-701.58", "701.58", "Cloak"),
    _rule("c-701.58a", "701.58a", "To cloak a card, turn it face down. It becomes a 2/2 face-down creature card with "
          "ward {2}, no name, no subtypes, and no mana cost. Put that card onto the battlefield face down."),
    _rule("c-701.58b", "701.58b", "Any time you have priority, you may turn a cloaked permanent you control face up."),
    _rule("c-gl-cloak", "glossary:Cloak", "Cloak: A keyword action that puts a card onto the battlefield face down as "
          "a 2/2 creature with ward {2}. See rule 701.58, \"Cloak,\" and rule 708, \"Face-Down Spells and Permanents.\""),
    _rule("c-702.37", "702.37", "Morph"),
    _rule("c-702.37a", "702.37a", "Morph is a static ability that functions in any zone from which you could play the "
          "card it's on. You may cast this card as a 2/2 face-down creature by paying {3}."),
    # a term that refers to a keyword's rule without being that keyword
    _rule("c-gl-facedown", "glossary:Face Down", "Face Down: A status a card, spell or permanent can have. See rule "
          "702.37, \"Morph,\" and rule 708, \"Face-Down Spells and Permanents.\""),
    _rule("c-708.2", "708.2", "Face-down spells and face-down permanents have no characteristics other than those "
          "listed by the ability or rules that allowed the spell or permanent to be face down."),
    # rulings that say the keyword: what cloaking does to a card, not what cloak is
    _ruling("r-cloak-up", "You may turn a cloaked creature face up for its mana cost if it's a creature card. Cloak "
            "is new to this set.", "Cloak Card"),
    _ruling("r-cloak-ward", "A cloaked permanent has ward {2} only while it is face down.", "Cloak Card"),
    _ruling("r-cloak-dfc", "If you cloak a double-faced card, it can't be turned face up for its mana cost.",
            "Cloak Card"),
    _ruling("r-cloak-copy", "A copy of a cloaked permanent is a 2/2 creature with ward {2}.", "Other Cloak Card"),
    _ruling("r-facedown", "A face-down creature is a 2/2 creature with no name, mana cost, creature types or "
            "abilities.", "Morph Card"),
]


@pytest.mark.parametrize("question, phrase", [
    ("What is the new cloak action?", "the new cloak action"),
    ("How does morph work?", "morph"),
    ("What does ward do?", "ward"),
    ("Wie funktioniert die neue Verkleidung-Fähigkeit?", "die neue Verkleidung-Fähigkeit"),
    ("¿Qué es manifestar miedo?", "manifestar miedo"),
    # a search of a word or two alone asks what they are (review50 M2: "Trampelschaden" lost trample's rules)
    ("Trampelschaden", "Trampelschaden"),
    ("mantenimiento acumulativo", "mantenimiento acumulativo"),
    ("¿disfraz?", "disfraz"),
    ("Lightform face down", ""),
    # asks about more than a term, or more than one thing
    ("What is the mana value of a cloaked permanent on the battlefield?", ""),
    ("How does cloak work? Can I look at the card?", ""),
    ("Can I look at a cloaked permanent?", ""),
])  # fmt: skip
def test_a_question_that_asks_only_what_a_term_is_names_the_term(question: str, phrase: str) -> None:
    assert defined_phrase(question) == phrase


def _searcher(tmp_path: Path) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path / "index")


def _defined(searcher: Searcher, phrase: str, lang: Lang = Lang.EN) -> dict[str, float]:
    scores = searcher._definitions(phrase, tuple(dict.fromkeys((Lang.EN, lang))), frozenset())
    return {searcher.table.ids[i]: float(scores[i]) for i in np.flatnonzero(scores)}


@pytest.mark.parametrize("phrase, lang", [("the new cloak action", Lang.EN), ("cloak", Lang.EN),
                                          ("tarnen", Lang.DE)])
def test_a_keyword_asked_about_lifts_its_first_clause_and_its_glossary_entry(tmp_path: Path, phrase: str,
                                                                            lang: Lang) -> None:
    """Rulings say "cloak" here, so `_keyword_rules` lifts nothing; the definition is wanted all the same."""
    assert _defined(_searcher(tmp_path), phrase, lang) == {"c-701.58a": 1.0, "c-gl-cloak": GLOSSARY_SHARE}


def test_a_term_that_only_refers_to_a_keywords_rule_is_no_keyword(tmp_path: Path) -> None:
    """"Face Down: ... See rule 702.37, Morph": what a face-down creature is, is not what morph is."""
    assert _defined(_searcher(tmp_path), "a face-down creature") == {}


@pytest.mark.parametrize("question", ["What is cloak?", "How does cloak work?", "What is the new cloak action?",
                                      "cloak", "Tarnen"])
def test_the_definition_of_the_keyword_asked_about_comes_first(tmp_path: Path, question: str) -> None:
    """The rulings that say "cloak" share the question's words and came first; the clause that defines
    cloak sat behind them, discounted as every clause is (real-en-76: 701.58a #13)."""
    searcher = _searcher(tmp_path)
    definitions = {"c-701.58a", "c-gl-cloak"}
    assert searcher.search(question, limit=3)[0].entry.id in definitions
    searcher.weights = Weights(definition=0.0)
    assert searcher.search(question, limit=3)[0].entry.id not in definitions


def test_a_question_about_more_than_the_term_gets_no_definition(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path)
    question = "What is the mana value of a cloaked permanent on the battlefield?"
    with_it = [h.entry.id for h in searcher.search(question, limit=5)]
    searcher.weights = Weights(definition=0.0)
    assert with_it == [h.entry.id for h in searcher.search(question, limit=5)]


@pytest.mark.parametrize("question", ["How does cloak work with Morph Card?", "What is cloak on Morph Card?"])
def test_a_question_naming_a_card_asks_about_that_card_not_the_term(tmp_path: Path, question: str) -> None:
    """review41 #4: "How does disguise work with Ixidron?" wants Ixidron's rulings, not disguise's
    definition above them."""
    searcher = _searcher(tmp_path)
    with_it = [h.entry.id for h in searcher.search(question, limit=5)]
    searcher.weights = Weights(definition=0.0)
    assert with_it == [h.entry.id for h in searcher.search(question, limit=5)]


# A keyword's German or Spanish name that is also a card's translated name: "volar" and "Flugfähigkeit" are
# Flight's, "Wahnsinn" Mind Twist's (the bundled Oracle cards' printed names)
KEYWORD_ENTRIES = [
    _rule("c-702.9", "702.9", "Flying"),
    _rule("c-702.9a", "702.9a", "Flying is an evasion ability."),
    _rule("c-702.9b", "702.9b", "A creature with flying can't be blocked except by creatures with flying and/or reach."),
    _rule("c-gl-flying", "glossary:Flying", "Flying: A keyword ability that restricts how a creature may be blocked. "
          "See rule 702.9, \"Flying.\""),
    _rule("c-702.35", "702.35", "Madness"),
    _rule("c-702.35a", "702.35a", "Madness is a keyword that represents two abilities. If a player would discard this "
          "card, that player discards it, but exiles it instead."),
    _rule("c-gl-madness", "glossary:Madness", "Madness: A keyword ability that lets a player cast a card they "
          "discard. See rule 702.35, \"Madness.\""),
    _ruling("r-fly-lost", "If the creature loses flying, it remains blocked.", "Some Card"),
    _ruling("r-fly-block", "A creature with flying can block a creature with flying.", "Other Card"),
    _ruling("r-madness", "If you discard a card with madness, you may cast it for its madness cost.", "Mad Card"),
]


@pytest.mark.parametrize("question, card, definition", [
    ("volar", "Flight", "c-702.9a"),
    ("Flugfähigkeit", "Flight", "c-702.9a"),
    ("Wahnsinn", "Mind Twist", "c-702.35a"),
])  # fmt: skip
def test_a_keywords_name_alone_that_names_a_card_with_no_ruling_gets_the_keywords_definition(
        tmp_path: Path, question: str, card: str, definition: str) -> None:
    """search51a: the keyword's name is a card's translated name too, a card no ruling of the KB is filed under;
    read as that card alone, the bare word got no definition (a question naming a card is about it)."""
    searcher = fake_searcher(KEYWORD_ENTRIES, tmp_path / "index")
    assert [c.name for c in searcher.named_cards(question)] == [card]
    assert searcher._cards_without_rulings([card]) == [card]
    scores = {h.entry.id: h.score for h in searcher.search(question, limit=8)}
    assert next(iter(scores)) == definition
    searcher.weights = Weights(definition=0.0)
    assert {h.entry.id: h.score for h in searcher.search(question, limit=8)}.get(definition, 0.0) < scores[definition]


def test_a_keywords_name_alone_that_names_a_card_with_rulings_asks_about_the_card(tmp_path: Path) -> None:
    """With a ruling of Flight in the KB, "volar" is the card's name first: no definition is lifted."""
    searcher = fake_searcher([*KEYWORD_ENTRIES, _ruling("r-flight", "Flight can target a creature that already "
                                                       "has flying.", "Flight")], tmp_path / "index")
    with_it = [(h.entry.id, h.score) for h in searcher.search("volar", limit=5)]
    searcher.weights = Weights(definition=0.0)
    assert with_it == [(h.entry.id, h.score) for h in searcher.search("volar", limit=5)]


def test_a_question_of_more_than_a_name_that_names_a_card_with_no_ruling_gets_no_definition(tmp_path: Path) -> None:
    """Only a word or two alone is read as the keyword as much as the card: a sentence naming Flight asks about it."""
    searcher = fake_searcher(KEYWORD_ENTRIES, tmp_path / "index")
    question = "¿Qué es volar?"
    assert [c.name for c in searcher.named_cards(question)] == ["Flight"]
    with_it = [(h.entry.id, h.score) for h in searcher.search(question, limit=5)]
    searcher.weights = Weights(definition=0.0)
    assert with_it == [(h.entry.id, h.score) for h in searcher.search(question, limit=5)]
