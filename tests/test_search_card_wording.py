"""A named card's Oracle text that uses a wording the CR glossary reads ("end the turn": rule 723; "instead":
614) brings in those rules for a question that says none of their words (`question.card_wording`,
`Searcher._wording_rules`, `Weights.card_wording`). Hand-made entries, deterministic fake embedder, the
bundled Oracle cards."""

from __future__ import annotations

import pytest

from kb.search import Searcher
from kb.search.question import card_rules, card_wording, rule_tokens, split_concepts, wording_rules
from tests.entries import fake_searcher, ranked_ids_with, rule_entry as _rule, ruling_entry as _ruling

END_THE_TURN = ("To “end the turn” as the result of an effect is to perform an expedited process that skips nearly "
                "everything else that would happen that turn. See rule 723, “Ending Turns and Phases.”")
INSTEAD = ("Effects that use the word “instead” are replacement effects. The word “instead” indicates what an event "
           "will be replaced with. See rule 614, “Replacement Effects.”")


@pytest.mark.parametrize("term, text, wording", [
    ("End the Turn", END_THE_TURN, ("end the turn", ("723",))),
    ("Instead", INSTEAD, ("instead", ("614",))),
    ("Dies", "A creature or planeswalker “dies” if it is put into a graveyard from the battlefield. See rule 700.4.",
     ("dies", ("700.4",))),
    # a quote of the title of the rule it refers to is no card wording
    ("Ward", "A keyword ability that protects permanents. See rule 702.21, “Ward.”", None),
    ("Cleanup Step", "Part of the turn. See rule 514, “Cleanup Step.”", None),
    # a wording the CR reads but refers to no rule for: nothing to bring in
    ("Bury (Obsolete)", "A term that meant “put into its owner's graveyard.” Cards with “bury” have received errata.",
     None),
])
def test_a_glossary_entry_quoting_its_own_term_in_lower_case_is_a_card_wording(term: str, text: str,
                                                                                wording: tuple | None) -> None:
    found = card_wording(term, text)
    assert (found and (found.phrase, found.rules)) == (wording or None)


@pytest.mark.parametrize("oracle, rules", [
    ("Each player shuffles their hand and graveyard into their library, then draws seven cards. If it's your turn, "
     "end the turn.", [("723", "end the turn")]),
    ("Target creature gets +3/+3 until end of turn.", []),  # "end of turn" is no "end the turn"
    ("If a card would be put into a graveyard from anywhere, exile it instead.", [("614", "instead")]),
    ("Flying (If a creature would deal damage, it deals that damage instead.)", []),  # reminder text is no wording
    ("Whenever another creature dies, you gain 1 life.", [("700.4", "dies")]),
    ("Studies of the ancients", []),  # a word that holds the wording is not it
])
def test_the_rules_of_an_oracle_texts_card_wordings(oracle: str, rules: list[tuple[str, str]]) -> None:
    wordings = [w for term, text in (("End the Turn", END_THE_TURN), ("Instead", INSTEAD),
                                     ("Dies", "A creature “dies” if ... See rule 700.4."))
                if (w := card_wording(term, text)) is not None]
    assert wording_rules(oracle, wordings) == rules


def test_a_cards_wording_rules_are_kept_apart_from_its_rules_tokens_and_concepts() -> None:
    tokens = ["sorcery", "hand", "@names", *rule_tokens([("723", "end the turn"), ("614", "instead")])]
    assert card_rules(tokens) == [("723", "end the turn"), ("614", "instead")]
    assert split_concepts(tokens) == (["sorcery", "hand"], ["names"])


TUTELAGE = "I control Sphinx's Tutelage, and I cast Day's Undoing. Do I get seven triggers from the Tutelage?"

ENTRIES = [
    _rule("c-723", "723", "Ending Turns and Phases"),
    _rule("c-723.1", "723.1", "Some cards end the turn. When an effect ends the turn, follow these steps in order, as "
          "they differ from the normal process for resolving spells and abilities."),
    _rule("c-723.1a", "723.1a", "If there are any triggered abilities that triggered before this process began but "
          "haven't been put onto the stack yet, those abilities cease to exist."),
    _rule("c-723.2", "723.2", "One card (Mandate of Peace) ends the combat phase."),
    _rule("c-gl-end", "glossary:End the Turn", f"End the Turn: {END_THE_TURN}"),
    _rule("c-603.2", "603.2", "Whenever a game event or game state matches a triggered ability's trigger event, that "
          "ability automatically triggers."),
    _rule("c-121.1", "121.1", "A player draws a card by putting the top card of their library into their hand."),
    _rule("c-708.2", "708.2", "Face-down spells and permanents have no characteristics other than those listed."),
    _rule("c-gl-flashback", "glossary:Flashback", "Flashback: A keyword ability that lets a player cast a card from "
          "their graveyard. See rule 702.34, \"Flashback.\""),
    _rule("c-702.34a", "702.34a", "Flashback appears on some instants and sorceries. It represents two static "
          "abilities: one that functions while the card is in a player's graveyard and another that functions while "
          "the card is on the stack."),
    # rulings of other cards sharing the question's words
    _ruling("r-scheme", "The last ability of this scheme triggers if you cast seven or more spells that turn.",
            "Because I Have Willed It"),
    _ruling("r-draw", "If you draw seven cards, the ability triggers seven times. Each trigger resolves on its own.",
            "Some Other Card"),
    _ruling("r-copy", "When the ability resolves, it creates a copy of the spell. You control the copy.",
            "Double Stroke"),
    _ruling("r-face", "If a face-down creature is turned face up, its abilities trigger as it is turned face up.",
            "Morph Card"),
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path_factory.mktemp("wording") / "index")


def test_the_index_keeps_the_rules_of_a_cards_wordings(searcher: Searcher) -> None:
    assert card_rules(searcher.cards.rules_tokens(["Day's Undoing"])) == [("723", "end the turn")]
    assert card_rules(searcher.cards.rules_tokens(["Giant Growth"])) == []


def test_a_card_that_ends_the_turn_brings_in_the_first_clause_of_ending_the_turn(searcher: Searcher) -> None:
    """real-en-116: the question says nothing of ending the turn; Day's Undoing's Oracle text does."""
    assert ranked_ids_with(searcher, TUTELAGE)[0] == "c-723.1"
    assert ranked_ids_with(searcher, TUTELAGE, card_wording=0.0)[0] != "c-723.1"


@pytest.mark.parametrize("question", [
    # about face-down play: the cards' wordings are its setting, not its question
    "I control Sphinx's Tutelage and cast Day's Undoing while I have a face-down creature. Does it stay face down?",
    # it names a keyword no ruling is about: that keyword's rules are what it asks about
    "I control Sphinx's Tutelage, and I cast Day's Undoing with flashback. Do I get seven triggers from the Tutelage?",
    # it cites the rule it asks about
    "I control Sphinx's Tutelage, and I cast Day's Undoing. Does 603.2 give me seven triggers?",
    # the card is not written as a name
    "I control sphinx's tutelage, and I cast day's undoing. Do I get seven triggers from the tutelage?",
])
def test_no_card_wording_where_the_question_says_what_it_asks_or_names_no_card(searcher: Searcher,
                                                                               question: str) -> None:
    assert ranked_ids_with(searcher, question) == ranked_ids_with(searcher, question, card_wording=0.0)
