"""A general question that names no keyword (or no multiplayer variant) is not answered by a keyword's (or the
multiplayer rules') clauses that share its words: their fused score is discounted (`Weights.unnamed_keyword`,
`Weights.unnamed_variant`; search56, bench/data/judge_questions_one_clause.yaml)."""

from __future__ import annotations

import pytest

from kb.search.rank import Weights
from tests.entries import fake_searcher, rule_entry, ruling_entry

ENTRIES = [
    rule_entry("c-attack", "508.1b", "If the defending player controls any planeswalkers, the active player announces "
               "which player, planeswalker, or battle each of the chosen creatures is attacking."),
    rule_entry("c-band", "702.22d", "All creatures in an attacking band must attack the same player, planeswalker, "
               "or battle."),
    rule_entry("c-band-g", "glossary:Banding", "Banding: A keyword ability that modifies the rules for declaring "
               "attackers and assigning combat damage. See rule 702.22, \"Banding.\""),
    rule_entry("c-range", "801.3", "Creatures can attack only opponents within their controller's range of "
               "influence, planeswalkers controlled by those opponents, and battles those opponents protect."),
    rule_entry("c-multi-g", "glossary:Multiplayer Game", "Multiplayer Game: A game that begins with more than two "
               "players. See section 8, \"Multiplayer Rules.\""),
    rule_entry("c-cmd-g", "glossary:Commander", "Commander: A casual variant in which each deck is led by a legendary "
               "creature. See rule 903, \"Commander.\""),
    rule_entry("c-sac", "701.21a", "To sacrifice a permanent, its controller moves it from the battlefield directly to "
               "its owner's graveyard. A player can't sacrifice a permanent they don't control."),
    rule_entry("c-sac-g", "glossary:Sacrifice", "Sacrifice: To move a permanent you control to its owner's graveyard. "
               "See rule 701.21, \"Sacrifice.\""),
    rule_entry("c-double", "702.4b", "If at least one attacking or blocking creature has double strike as the combat "
               "damage step begins, the only creatures that assign combat damage in that step are those with first "
               "strike or double strike."),
    rule_entry("c-double-g", "glossary:Double Strike", "Double Strike: A keyword ability that lets a creature deal "
               "both first-strike and regular combat damage. See rule 702.4, \"Double Strike.\""),
    ruling_entry("r-1", "Your opponents need to sacrifice two creatures total to pay the cost of this scheme's "
                 "ability.", "My Forces Are Innumerable"),
    ruling_entry("r-2", "The creature attacks the player or planeswalker it was attacking before.", "Gideon's Reproach"),
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory):
    return fake_searcher(ENTRIES, tmp_path_factory.mktemp("index"))


def score(searcher, question: str, entry_id: str, **weights) -> float:
    searcher.weights = Weights(**weights)
    return next(h.score for h in searcher.search(question, limit=len(ENTRIES)) if h.entry.id == entry_id)


@pytest.mark.parametrize(("question", "entry_id", "discounted"), [
    # no keyword named: banding's clause and its glossary entry answer another question
    ("Can I send two of my creatures at my opponent and one at his planeswalker, or must they all attack the same "
     "player?", "c-band", True),
    ("Can I send two of my creatures at my opponent and one at his planeswalker, or must they all attack the same "
     "player?", "c-band-g", True),
    # ... nor a multiplayer variant: the range of influence is no two-player rule
    ("Can I send two of my creatures at my opponent and one at his planeswalker, or must they all attack the same "
     "player?", "c-range", True),
    # the general rule itself keeps its score
    ("Can I send two of my creatures at my opponent and one at his planeswalker, or must they all attack the same "
     "player?", "c-attack", False),
    # named, they are asked about
    ("With banding, must all creatures in my band attack the same player or planeswalker?", "c-band", False),
    ("In a multiplayer game, which opponents and planeswalkers can my creatures attack?", "c-range", False),
    # a variant named in German: read as written too, not only as the compound split reads it ("comm ander")
    ("Wir spielen Commander zu viert. Welche Gegner darf meine Kreatur angreifen?", "c-range", False),
    # a keyword named by its printed German name beside another that shares a word (first strike), which the
    # word-by-word translation reads as "first strike double"
    ("Meine Kreatur hat Erstschlag, seine hat Doppelschlag. Wie viele Kampfschadensschritte gibt es?", "c-double", False),
    # a keyword action is named by its everyday verb: sacrifice's rule stays whole
    ("Can I sacrifice one of my opponent's creatures?", "c-sac", False),
])  # fmt: skip
def test_a_keyword_or_variant_the_question_does_not_name_is_discounted(searcher, question: str, entry_id: str,
                                                                       discounted: bool) -> None:
    off = score(searcher, question, entry_id, unnamed_keyword=1.0, unnamed_variant=False)
    on = score(searcher, question, entry_id)
    if discounted:
        assert on == pytest.approx(off * 0.5)  # Weights.unnamed_keyword
    else:
        assert on == pytest.approx(off)


def test_the_general_rule_comes_before_the_unnamed_keywords_clause(searcher) -> None:
    question = ("Can I send two of my creatures at my opponent and one at his planeswalker, or must they all attack "
                "the same player?")
    assert score(searcher, question, "c-attack") > score(searcher, question, "c-band")
