"""Real questions: what the named cards' Oracle concepts bring in. They are face-down rules
(kb.search.question), so a question that names no face-down term gets none of them; a card that
makes a face-down permanent leave brings in the look-back rule. Hand-made entries, fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kb.model import Lang
from kb.search import Hit, Searcher, build_index
from kb.search.cardnames import CardIndex, CardMatcher
from kb.search.embed import FakeEmbedder
from kb.search.text import tokenize
from kb.search.question import QueryPlan, about_face_down, concept_tokens, off_subject
from kb.search.rank import Weights
from tests.entries import CORPUS, fake_searcher
from tests.test_search_question import _rule, _ruling
MEDALLION = "Blue spells you cast cost {1} less to cast."


ENTRIES = [
    _rule("c-708.4", "708.4", "Objects that are cast face down are turned face down before they are put onto the "
          "stack, so effects that care about the characteristics of a spell will see only the face-down "
          "spell's characteristics."),
    _rule("c-601.2f", "601.2f", "The player determines the total cost of the spell: its mana cost, plus all "
          "additional costs and cost increases, less all cost reductions."),
    _ruling("r-up", "Turning a face-down creature face up costs its morph cost.", "Morph Card"),
    _ruling("r-look", "You may look at a face-down spell you control at any time.", "Morph Card"),
    # unrelated texts, so that BM25 finds the words above rare
    _rule("c-500.1", "500.1", "A turn consists of five phases, in this order: beginning, precombat main, combat, "
          "postcombat main, and ending."),
    _rule("c-104.2a", "104.2a", "A player still in the game wins the game if that player's opponents have all "
          "left the game."),
    _ruling("r-tap", "Tapping an untapped land for mana is a mana ability.", "Land Card"),
    _ruling("r-block", "Each creature can block only one attacking creature.", "Wall Card"),
]


def _searcher(tmp_path: Path, weights: Weights = Weights()) -> Searcher:
    matcher = CardMatcher.from_names([("Sapphire Medallion", "Sapphire Medallion"), ("Morph Card", "Morph Card"),
                                      ("Shifting Card", "Shifting Card")])
    cards = CardIndex(matcher, {"Sapphire Medallion": ["artifact", *concept_tokens(MEDALLION)],
                                "Shifting Card": ["creatur", "morph", "face", "down"]})
    return fake_searcher(ENTRIES, tmp_path / "index", cards=cards, weights=weights)


def _hit(searcher: Searcher, question: str, eid: str) -> Hit:
    return next(h for h in searcher.search(question, limit=len(ENTRIES)) if h.entry.id == eid)


@pytest.mark.parametrize(("concepts", "about"), [
    (["~face_down", "~spell"], True),
    (["~morph"], True),
    (["~cloak"], True),
    (["~spell", "~mana_cost", "~copy"], False),
    ([], False),
])
def test_a_question_is_about_face_down_play_when_it_names_a_face_down_term(concepts: list[str],
                                                                           about: bool) -> None:
    assert about_face_down(concepts) is about


def test_an_off_subject_question_keeps_only_whether_it_wants_the_rule() -> None:
    full = QueryPlan("face-down spell characteristics", "a gist", ("spell_characteristics",), True)
    assert off_subject(full) == QueryPlan(wants_rule=True)
    assert off_subject(QueryPlan()) == QueryPlan()


def test_a_question_naming_no_face_down_term_gets_no_face_down_concepts(tmp_path: Path) -> None:
    """The Medallion's text implies the face-down spell rule (708.4) for a question about face-down
    spells; asked about blue spells alone, 708.4's words are not added (red when every question gets
    its cards' concepts: `face_down_subject=False`)."""
    off = "Will Sapphire Medallion reduce the cost of my blue spell?"
    on = "Will Sapphire Medallion reduce the cost to cast my face-down spell?"
    gated = _searcher(tmp_path / "a")
    ungated = _searcher(tmp_path / "b", dataclasses.replace(Weights(), face_down_subject=False))
    assert _hit(ungated, off, "c-708.4").lexical > 3 * _hit(gated, off, "c-708.4").lexical
    # a question about face-down spells still gets them, gated or not
    assert _hit(gated, on, "c-708.4").lexical == pytest.approx(_hit(ungated, on, "c-708.4").lexical)


def test_a_card_whose_oracle_text_is_face_down_play_puts_its_question_on_the_subject(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path)
    assert searcher._about_face_down("Can I cast Shifting Card for less?", (Lang.EN,), ["Shifting Card"])
    assert not searcher._about_face_down("Can I cast Sapphire Medallion for less?", (Lang.EN,),
                                         ["Sapphire Medallion"])


# ------------------------------------------------- a face-down permanent leaves: look back in time
LOOK_BACK = [
    _rule("c-603.10a", "603.10a", "Some zone-change triggers look back in time. These are leaves-the-battlefield "
          "abilities, abilities that trigger when a card leaves a graveyard."),
    _rule("c-708.9", "708.9", "If a face-down permanent moves from the battlefield to any other zone, its owner "
          "must reveal it to all players as they move it."),
    *ENTRIES[2:],
]


def _look_back_lexical(tmp_path: Path, oracle: str) -> float:
    matcher = CardMatcher.from_names([("Athreos", "Athreos"), ("Morph Card", "Morph Card")])
    cards = CardIndex(matcher, {"Athreos": ["creatur", *concept_tokens(oracle)]})
    searcher = fake_searcher(LOOK_BACK, tmp_path / "index", cards=cards)
    hits = searcher.search("My manifested Plains went away. Does Athreos return it?", limit=len(LOOK_BACK))
    return next(h.lexical for h in hits if h.entry.id == "c-603.10a")


def test_a_card_that_makes_a_face_down_permanent_leave_brings_in_the_look_back_rule(tmp_path: Path) -> None:
    """Athreos returns a creature that dies: whether it triggers for a manifested card is decided by
    603.10a (leaves-the-battlefield abilities look back in time), not only by 708.9 (reveal it)."""
    dies = "Whenever another creature you own dies, return it to your hand unless target opponent pays 3 life."
    assert _look_back_lexical(tmp_path / "a", dies) > 2 * _look_back_lexical(tmp_path / "b", "Flying")


# tryout28 D5: "I cloaked an instant card. Can I turn it face up later for its mana cost?" got a cost
# ruling about a face-up scheme first, which shares "instant", "mana cost" and "face up" only.
OFF_ENTRIES = [
    _ruling("r-x", "If an instant or sorcery spell has {X} in its mana cost, choose the value for X first, then "
            "reduce the cost by {1}. Volcanic Geyser costs {3}{R}{R} to cast if this scheme is face up.",
            "Scheme Card"),
    _ruling("r-reveal", "If something tries to turn a face-down instant or sorcery card on the battlefield face "
            "up, reveal that card to show all players it's an instant or sorcery card. The permanent stays on "
            "the battlefield face down.", "Cloak Card"),
    _ruling("r-turned", "Because the permanent is on the battlefield before and after it's turned face up, "
            "turning it face up doesn't cause enters abilities to trigger.", "Cloak Card"),
    # says no face-down word, but goes on from its card's ruling that does
    _ruling("r-ward", "The creature spell is a 2/2 creature spell with ward {2} that has no name or mana cost.",
            "Cloak Card"),
    _rule("c-601.2f", "601.2f", "The player determines the total cost of the spell: its mana cost, plus all "
          "additional costs and cost increases, less all cost reductions."),
    _ruling("r-block", "Each creature can block only one attacking creature.", "Wall Card"),
]


def _scores(tmp_path: Path, question: str, weights: Weights) -> dict[str, float]:
    cards = CardIndex(CardMatcher.from_names([("Scheme Card", "Scheme Card")]), {})
    searcher = fake_searcher(OFF_ENTRIES, tmp_path / "off", cards=cards, weights=weights)
    return {h.entry.id: h.score for h in searcher.search(question, limit=len(OFF_ENTRIES))}


def test_a_ruling_that_speaks_of_no_face_down_play_is_discounted_for_a_face_down_question(tmp_path: Path) -> None:
    question = "I cloaked an instant card. Can I turn it face up later for its mana cost?"
    assert Weights().off_face_down < 1.0
    on = _scores(tmp_path, question, Weights())
    off = _scores(tmp_path, question, Weights(off_face_down=1.0))
    assert on["r-x"] == pytest.approx(Weights().off_face_down * off["r-x"])  # "this scheme is face up"
    # face down; turned face up; its card's other ruling says face down; a CR clause
    for kept in ("r-reveal", "r-turned", "r-ward", "c-601.2f"):
        assert on[kept] == pytest.approx(off[kept])
    # a question that is not about face-down play: every score as it was
    plain = "Can I pay an instant's mana cost with X?"
    assert _scores(tmp_path, plain, Weights()) == pytest.approx(_scores(tmp_path, plain, Weights(off_face_down=1.0)))


def test_the_named_cards_rulings_keep_their_score_in_a_face_down_question(tmp_path: Path) -> None:
    question = "I turned my Scheme Card face down. What does its X cost?"  # its rulings answer, face-down words or none
    assert _scores(tmp_path, question, Weights())["r-x"] == pytest.approx(
        _scores(tmp_path, question, Weights(off_face_down=1.0))["r-x"])


EXILES = "Exile the top card of your library face down."


def test_a_ruling_whose_cards_oracle_text_speaks_of_face_down_play_keeps_its_score(tmp_path: Path) -> None:
    """A card whose rulings say no face-down word but whose Oracle text does (it exiles a card face
    down): its rulings are not discounted for a face-down question; its Oracle text is read for the best
    entries only (`ORACLE_CHECKED`), not for every card at every cold search."""
    entries = [*OFF_ENTRIES, _ruling("r-exiled", "The exiled card's mana cost is paid when you cast it later.",
                                     "Exile Card")]
    cards = CardIndex(CardMatcher.from_names([("Scheme Card", "Scheme Card"), ("Exile Card", "Exile Card")]),
                      {"Exile Card": [*tokenize(EXILES), *concept_tokens(EXILES)]})  # as the index keeps Oracle texts
    build_index(entries, tmp_path / "oracle", FakeEmbedder(), cards=cards, corpus=CORPUS)
    question = "I cloaked an instant card. Can I turn it face up later for its mana cost?"
    scores = {}
    for off in (Weights().off_face_down, 1.0):
        searcher = Searcher.load(tmp_path / "oracle", entries, query_embedder=FakeEmbedder(),
                                 weights=Weights(off_face_down=off))
        scores[off] = {h.entry.id: h.score for h in searcher.search(question, limit=len(entries))}
    assert scores[Weights().off_face_down]["r-exiled"] == pytest.approx(scores[1.0]["r-exiled"])
    assert scores[Weights().off_face_down]["r-x"] < scores[1.0]["r-x"]  # the scheme's card says nothing of it
