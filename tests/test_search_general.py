"""Questions about general rules no ruling covers: the players' words for the CR's terms (the search
lexicon's general-rules concepts) and the CR glossary entry a question names through them, which lifts
the rule it refers to (`Searcher._cr_terms`). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.focus import focus
from kb.search.rank import Weights
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher, ranked_ids, rule_entry, ruling_entry


@pytest.mark.parametrize("words, langs, concept", [
    ("Can I respond to the legendary rule?", (Lang.EN,), "~legend_rule"),
    ("This is called the legend rule.", (Lang.EN,), "~legend_rule"),  # the CR's own words
    ("Gilt die Legendenregel auch für Spielsteine?", (Lang.EN, Lang.DE), "~legend_rule"),
    ("What happens if you cast a spell on an invalid target?", (Lang.EN,), "~illegal_target"),
    ("¿Y si el objetivo es ilegal?", (Lang.EN, Lang.ES), "~illegal_target"),  # "es" is a function word
    ("Is the target legal, and is that rule legendary?", (Lang.EN,), None),  # the words, not in a row
    ("Which one applies first, by timestamp?", (Lang.EN,), "~layer"),
    ("Dos efectos de reemplazo quieren aplicarse", (Lang.EN, Lang.ES), "~replacement_effect"),
])  # fmt: skip
def test_players_words_for_general_rules_reach_the_crs_concept(words: str, langs: tuple[Lang, ...],
                                                                concept: str | None) -> None:
    found = CORPUS.glossary.concept_tokens(tokenize(words), langs, question=True)
    if concept is None:
        assert not {"~illegal_target", "~legend_rule"} & set(found)
    else:
        assert concept in found


_rule, _ruling = rule_entry, ruling_entry


LEGEND = [
    _rule("c-704.5j", "704.5j", "If two or more legendary permanents with the same name are controlled by the "
          "same player, that player chooses one of them, and the rest are put into their owners' graveyards."),
    _rule("c-gl-legend", "glossary:Legend Rule", "Legend Rule: A state-based action that causes a player who "
          "controls two or more legendary permanents with the same name to put all but one into their owners' "
          "graveyards. See rule 704.5j."),
    _rule("c-gl-ward", "glossary:Ward", "Ward: A triggered ability that can counter spells or abilities that "
          "target the permanent with ward. See rule 702.21."),
    _rule("c-702.21", "702.21", "Ward is a triggered ability."),
    _rule("c-116.2b", "116.2b", "Turning a face-down creature face up is a special action. A player can take this "
          "action any time they have priority, and it doesn't use the stack."),
    _ruling("r-respond", "You can respond to the ability by turning the face-down creature face up.", "Morph Card"),
    _ruling("r-special", "Turning it face up is a special action; it can't be responded to.", "Morph Card"),
    _ruling("r-stack", "The ability uses the stack, and players may respond to it.", "Morph Card"),
]


def _searcher(tmp_path: Path, bonus: float) -> Searcher:
    searcher = fake_searcher(LEGEND, tmp_path / "index")
    searcher.weights = Weights(cr_term=bonus)
    return searcher


@pytest.mark.parametrize("bonus", [0.0, Weights().cr_term])
def test_a_cr_term_named_in_the_players_words_lifts_the_rule_its_glossary_entry_refers_to(
        tmp_path: Path, bonus: float) -> None:
    """"legendary rule" is not the glossary's "Legend Rule" word for word, but the same concept; the
    rulings say "respond" and "special action", and without the lift they come first."""
    hits = _searcher(tmp_path, bonus).search("Can I respond to the legendary rule?", limit=3)
    lifted = {"c-704.5j", "c-gl-legend"} <= {h.entry.id for h in hits[:2]}
    assert lifted == (bonus > 0)


def test_a_one_word_term_lifts_nothing(tmp_path: Path) -> None:
    """"Ward" is a concept too, but one word, an everyday one in questions about it: no lift."""
    searcher = _searcher(tmp_path, Weights().cr_term)
    lifted = searcher._cr_terms("Does the face-down creature still have ward?", (Lang.EN,))
    assert not lifted.any()
    named = searcher._cr_terms("Can I respond to the legendary rule?", (Lang.EN,))
    assert {searcher.table.ids[i] for i in named.nonzero()[0]} == {"c-704.5j", "c-gl-legend"}


@pytest.mark.parametrize("share", [1.0, None])
def test_the_rule_a_named_glossary_entry_refers_to_comes_before_the_entry(tmp_path: Path, monkeypatch,
                                                                          share: float | None) -> None:
    """Both are lifted; the entry only names the rule. With the whole bonus (share 1) the entry, all
    about the term, came first."""
    from kb.search import rank

    if share is not None:
        monkeypatch.setattr(rank, "GLOSSARY_SHARE", share)
    hits = _searcher(tmp_path, Weights().cr_term).search("Can I respond to the legendary rule?", limit=2)
    order = [h.entry.id for h in hits]
    assert order == (["c-gl-legend", "c-704.5j"] if share == 1.0 else ["c-704.5j", "c-gl-legend"])


STEPS = [
    _rule("c-gl-boc", "glossary:Beginning of Combat Step", "Beginning of Combat Step: The first step of the combat "
          "phase. See rule 507."),
    _rule("c-gl-legend", "glossary:Legend Rule", "Legend Rule: A state-based action. See rule 704.5j."),
    _rule("c-gl-trample", "glossary:Trample", "Trample: A keyword ability. See rule 702.19."),
    _rule("c-gl-deathtouch", "glossary:Deathtouch", "Deathtouch: A keyword ability. See rule 702.2."),
    _rule("c-gl-sick", "glossary:Summoning Sickness Rule", "Summoning Sickness Rule: A common name for the rule. "
          "See rule 302.6."),
    _ruling("r-trigger", "If it is turned face up during the beginning of combat step, its ability triggers.",
            "Morph Card"),
]


@pytest.fixture(scope="module")
def steps_searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    folder = tmp_path_factory.mktemp("steps") / "index"
    return fake_searcher(STEPS, folder)


@pytest.mark.parametrize("question, unknown", [
    # review39 #5: judges capitalise steps, phases, rules terms and sets; they are no cards
    ("If it is turned face up during the Beginning of Combat step, does it trigger?", []),
    ("At the Beginning of Combat, can I unmorph it?", []),  # a step's name without "step"
    ("Is the Legend Rule of Kamigawa still used?", []),  # a phrase that holds a glossary term
    ("Cards from Murders at Karlov Manor with disguise: can they be turned face up?", []),  # a set's name
    ("Is a face-down card of House of Horror a Room?", []),  # Duskmourn: House of Horror
    ("How does Trample with Deathtouch assign damage?", []),  # one-word terms alone
    # a name no card has and that is none of these is still noted
    ("Face down cards leak info. Hide in Plain Sight cloaked two cards.", ["Hide in Plain Sight"]),
    ("Does the Beginning of Wisdom trigger?", ["Beginning of Wisdom"]),  # a step's word is no step
    # the question's own language says whether two capitalised words are a name (tryout32 #9)
    ("¿Puedo lanzar Cryptic Coat boca abajo si mi criatura tiene arrollar?", ["Cryptic Coat"]),
    ("Can I cast Cryptic Coat face down if my creature has trample?", []),
    # review43 #2: a Spanish question's capitalised rules term, in Spanish (the search glossary's) or in
    # English as the CR's term less its last word, is no card (each was noted as an unknown card)
    ("¿Cuándo se resuelve la Habilidad Disparada de mi criatura boca abajo?", []),
    ("¿La criatura que volteo tiene Summoning Sickness este turno?", []),
    ("¿La Habilidad Disparada funciona igual con Cryptic Coat?", ["Cryptic Coat"]),
])  # fmt: skip
def test_rules_terms_steps_and_set_names_are_no_unknown_cards(steps_searcher: Searcher, question: str,
                                                               unknown: list[str]) -> None:
    assert steps_searcher.unknown_cards(question) == unknown


# ------------------------------------------- a question not about face-down play: the CR on its own terms
RESPOND = [
    _rule("c-605.3b", "605.3b", "An activated mana ability doesn't go on the stack, so it can't be targeted, "
          "countered, or otherwise responded to. Rather, it resolves immediately after it is activated."),
    _rule("c-608.2b", "608.2b", "If the spell or ability specifies targets, it checks whether the targets are still "
          "legal. A target that's no longer in the zone it was in when it was targeted is illegal."),
    _rule("c-500.1", "500.1", "A turn consists of five phases, in this order: beginning, precombat main, combat, "
          "postcombat main, and ending."),
    _rule("c-104.2a", "104.2a", "A player still in the game wins the game if that player's opponents have all "
          "left the game."),
    _ruling("r-special", "Turning a face-down creature face up is a special action. It doesn't use the stack and "
            "can't be responded to.", "Morph Card"),
    _ruling("r-manifest", "Turning a manifested creature face up is a special action. It can't be responded to.",
            "Manifest Card"),
    _ruling("r-conspiracy", "Turning a face-down conspiracy face up is a special action; no player can respond to "
            "it.", "Conspiracy Card"),
    _ruling("r-target", "If the face-down creature is an illegal target when the ability tries to resolve, the "
            "ability doesn't resolve.", "Morph Card"),
    _rule("c-gl-agenda", "glossary:Hidden Agenda", "Hidden Agenda: A keyword ability that lets a player secretly "
          "name a card. See rule 702.106."),
    _rule("c-702.106a", "702.106a", "Hidden agenda is a static ability that functions as a conspiracy card with "
          "hidden agenda is put into the command zone face down."),
    _ruling("r-agenda", "You name the card for hidden agenda as the game begins, not as you turn the face-down "
            "conspiracy face up.", "Agenda Card"),
    _ruling("r-agenda2", "The card named for hidden agenda is kept secret until the face-down conspiracy is "
            "turned face up.", "Agenda Card"),
]


def _respond_searcher(tmp_path: Path, weights: Weights) -> Searcher:
    return fake_searcher(RESPOND, tmp_path / "index", weights=weights)


@pytest.mark.parametrize("question, first", [
    ("Can my opponent respond when I activate a mana ability of my land?", "c-605.3b"),
    ("Can a player respond to an activated mana ability before the mana is added?", "c-605.3b"),
    # a question about face-down play: the rulings about it answer as before
    ("Can my opponent respond when I turn my face-down creature face up?", "ruling"),
])  # fmt: skip
def test_a_question_not_about_face_down_play_is_answered_by_the_cr_not_by_boilerplate(
        tmp_path: Path, question: str, first: str) -> None:
    """The face-down rulings share "can't be responded to" with a question about mana abilities; for a
    question that does not speak of face-down play they are discounted, and when the best of them all say
    face down the clauses compete undiscounted: the clause that states the rule comes first (red with
    `on_face_down=1.0`: the rulings came first)."""
    hits = _respond_searcher(tmp_path, Weights()).search(question, limit=3)
    assert first in (hits[0].entry.id, hits[0].entry.kind.value)


def test_without_the_general_reading_the_boilerplate_rulings_crowd_out_the_clause(tmp_path: Path) -> None:
    """The case above as it was: each clause discounted as for a face-down question."""
    off = dataclasses.replace(Weights(), on_face_down=1.0)
    hits = _respond_searcher(tmp_path, off).search(
        "Can my opponent respond when I activate a mana ability of my land?", limit=3)
    assert hits[0].entry.kind.value == "ruling"


def test_a_keyword_the_rulings_say_keeps_its_face_down_rulings(tmp_path: Path) -> None:
    """Hidden agenda puts a conspiracy face down, and the rulings that say it answer a question about it
    though the question says nothing of face-down play: they are not discounted as boilerplate."""
    searcher = _respond_searcher(tmp_path, Weights())
    assert searcher._rulings_keyword("Hidden agenda: do I name the card when the game starts?", (Lang.EN,),
                                     frozenset())
    assert not searcher._rulings_keyword("Can my opponent respond to a mana ability?", (Lang.EN,), frozenset())
    # without that test the rulings' words about face-down conspiracies were boilerplate: the glossary
    # entry came first and the second ruling fell behind the clauses
    hits = searcher.search("Hidden agenda: do I name the card when the game starts?", limit=3)
    assert hits[0].entry.id == "r-agenda" and "r-agenda2" in {h.entry.id for h in hits}


DRAW = [
    _rule("c-121.4", "121.4", "A player who attempts to draw a card from a library with no cards in it loses the "
          "game the next time a player would receive priority."),
    _rule("c-500.1", "500.1", "A turn consists of five phases, in this order: beginning, precombat main, combat, "
          "postcombat main, and ending."),
    _rule("c-302.6", "302.6", "A creature's activated ability with the tap symbol in its cost can't be activated "
          "unless the creature has been under its controller's control continuously since their most recent turn "
          "began."),
    _rule("c-509.1a", "509.1a", "The defending player chooses which creatures they control, if any, will block."),
    _rule("c-701.9a", "701.9a", "To discard a card, move it from its owner's hand to that player's graveyard."),
    _ruling("r-rack", "If there are not enough cards in your library, you don't lose: this isn't a draw.",
            "Rack Card"),
    _ruling("r-tome", "If your library has no cards left, you may still use the ability to replace a draw.",
            "Tome Card"),
    _ruling("r-fate", "You can't draw cards from your own library, even if all your opponents have no cards.",
            "Fate Card"),
    _ruling("r-fate2", "The exiled permanents return under their owners' control.", "Fate Card"),
    _ruling("r-fate3", "Fate's exile lasts until the end of the game.", "Fate Card"),
    _ruling("r-general", "Turning a face-down creature face up is a special action.", "Morph Card"),
]


def _draw_searcher(tmp_path: Path, weights: Weights) -> Searcher:
    return fake_searcher(DRAW, tmp_path / "index", weights=weights)


def test_rulings_each_about_another_unnamed_card_leave_the_answer_to_the_cr(tmp_path: Path) -> None:
    """A question naming no card whose best rulings are each another card's own (Rack's, Tome's, Fate's)
    asks the general rule: the clauses compete on their own scores and the one that states it comes first
    (red with `scattered_k=0`: Rack's ruling first)."""
    question = "My library has no cards in it and I have to draw a card: do I lose the game?"
    hits = _draw_searcher(tmp_path, Weights()).search(question, limit=3)
    assert hits[0].entry.id == "c-121.4"
    off = _draw_searcher(tmp_path / "off", dataclasses.replace(Weights(), scattered_k=0)).search(question, limit=3)
    assert off[0].entry.kind.value == "ruling"


def test_a_named_card_without_rulings_leaves_the_question_general(tmp_path: Path) -> None:
    """tryout44/45: "With Blood Moon and Urborg ...", "Clone a legendary creature": a card the KB has no
    ruling of is named, and the best rulings are still other cards' own: the clause comes first (red when
    any named card keeps the clauses discounted, as before)."""
    question = "I control Blood Moon. My library has no cards in it and I have to draw a card: do I lose the game?"
    searcher = _draw_searcher(tmp_path, Weights())
    assert [c.name for c in searcher.named_cards(question)] == ["Blood Moon"]
    assert searcher.search(question, limit=3)[0].entry.id == "c-121.4"


def test_rulings_of_one_card_or_of_a_named_card_are_what_the_question_asks_about(tmp_path: Path) -> None:
    """When the best rulings are all one card's, the question asks about that card though it does not
    name it; when one of them is a named card's, about the named card: the clauses keep their discount.
    Two owners among the three suffice: two rulings of one unnamed card and a third card's (tryout45's
    "¿El daño de combate usa la pila?": two prevention rulings of one card) are still other cards'."""
    searcher = _draw_searcher(tmp_path, Weights())
    ids = [e.id for e in DRAW]

    def best(*order: str) -> np.ndarray:
        scores = np.zeros(len(DRAW))
        for rank, eid in enumerate(order):
            scores[ids.index(eid)] = 3.0 - rank
        return scores

    assert not searcher._scattered(best("r-fate", "r-fate2", "r-fate3"), 3, [])
    assert searcher._scattered(best("r-fate", "r-fate2", "r-rack"), 3, [])
    assert searcher._scattered(best("r-fate", "r-tome", "r-rack"), 3, [])
    assert not searcher._scattered(best("r-fate", "r-tome", "r-rack"), 3, ["Rack Card"])
    assert searcher._scattered(best("r-fate", "r-tome", "r-rack"), 3, ["Blood Moon"])


def test_three_rulings_all_of_one_card_are_not_scattered_when_one_is_shared_with_another(tmp_path: Path) -> None:
    """A ruling filed under Fate Card and Rack Card is Fate Card's too: with two of Fate Card's own it makes
    three rulings of one card, which the question asks about though it does not name it (review46 #6; red
    when owners are counted as card sets: two sets, read as scattered)."""
    shared = _many_cards(_ruling("r-shared", "Each card exiled this way stays exiled.", "Fate Card"),
                         "Fate Card", "Rack Card")
    entries = [*DRAW, shared]
    searcher = fake_searcher(entries, tmp_path / "index", weights=Weights())
    ids = [e.id for e in entries]

    def best(*order: str) -> np.ndarray:
        scores = np.zeros(len(entries))
        for rank, eid in enumerate(order):
            scores[ids.index(eid)] = 3.0 - rank
        return scores

    assert not searcher._scattered(best("r-fate", "r-shared", "r-fate2"), 3, [])
    assert searcher._scattered(best("r-fate", "r-shared", "r-tome"), 3, [])  # Tome Card's shares no card
    assert searcher._scattered(best("r-rack", "r-shared", "r-fate"), 2, []) is False  # both Rack Card's


def _many_cards(entry: object, *cards: str) -> object:
    """`entry` filed under several cards, as a release-notes ruling printed for each card of a mechanic."""
    return dataclasses.replace(entry, cards=cards)  # type: ignore[type-var]


NAMELESS = [
    _rule("c-704.5j", "704.5j", "If two or more legendary permanents with the same name are controlled by the same "
          "player, that player chooses one of them, and the rest are put into their owners' graveyards."),
    _rule("c-500.1", "500.1", "A turn consists of five phases, in this order: beginning, precombat main, combat, "
          "postcombat main, and ending."),
    _rule("c-509.1a", "509.1a", "The defending player chooses which creatures they control, if any, will block."),
    # a face-down ruling printed under many cards, which a question about names meets
    _many_cards(_ruling("r-noname", "Because face-down creatures have no name, two face-down creatures you control "
                        "never have the same name as each other, so the legendary permanents rule never applies.",
                        "Morph One"), "Morph One", "Morph Two", "Morph Three", "Morph Four", "Morph Five"),
    # other cards' own rulings sharing a few of its words
    _ruling("r-boon", "The copy can choose new targets: a creature you control, or two creatures with the same "
            "name.", "Boon Card"),
    _ruling("r-thief", "Each spell on the stack with the chosen name is countered, whoever controls it.",
            "Thief Card"),
    _ruling("r-area", "If you control two Contraptions with the same name, assemble one of them.", "Area Card"),
]


def test_a_face_down_ruling_of_many_cards_does_not_keep_a_general_question_from_the_cr(tmp_path: Path) -> None:
    """The best rulings of a question not about face-down play are read past those that say face down
    (they are discounted as its boilerplate): a face-down ruling printed under many cards among them
    made the best three look like a general ruling's, and the clauses kept their discount (search46;
    red with `scattered_past_face_down=False`: a ruling first)."""
    question = "I ended up with two legendary creatures with the same name on my side. What do I do?"

    def first(weights: Weights) -> str:
        return ranked_ids(fake_searcher(NAMELESS, tmp_path / "index", weights=weights), question, limit=3)[0]

    assert first(Weights()) == "c-704.5j"
    assert first(dataclasses.replace(Weights(), scattered_past_face_down=False)).startswith("r-")



def test_the_general_reading_weighs_a_clauses_meaning_above_its_shared_words(tmp_path: Path) -> None:
    """In the general reading (`per_kind`: each kind ranked apart) a clause e5 puts first among the CR's
    and BM25 third comes before one BM25 puts first and e5 last: a plain question's words meet the clauses
    that say them most (107.7 and 209.1 say "planeswalker" and "loyalty"), its meaning the clause that
    answers (704.5i; tryout46 D6, general49; red with `general_dense=1.0`: the BM25 clause first)."""
    searcher = fake_searcher(DRAW, tmp_path / "index", weights=dataclasses.replace(Weights(), local=0.0))
    rules = [e.clause for e in DRAW if e.kind.value == "rule"]
    assert rules == ["121.4", "500.1", "302.6", "509.1a", "701.9a"]
    rows = {e.clause: i for i, e in enumerate(DRAW) if e.clause}
    dense = np.zeros(len(DRAW), dtype=np.float32)
    lexical = np.zeros(len(DRAW), dtype=np.float32)
    for clause, cosine, bm25 in [("121.4", 0.9, 3.0), ("509.1a", 0.7, 1.0), ("701.9a", 0.6, 4.0),
                                 ("500.1", 0.55, 0.5), ("302.6", 0.5, 5.0)]:
        dense[rows[clause]], lexical[rows[clause]] = cosine, bm25
    parts = focus("My library has no cards in it and I have to draw a card: do I lose the game?")

    def first(weights: Weights) -> str:
        searcher.weights = weights
        fused = searcher._fuse(True, parts, dense, lexical, [], per_kind=True)
        return DRAW[int(np.argmax(fused))].id

    assert first(dataclasses.replace(Weights(), local=0.0)) == "c-121.4"
    assert first(dataclasses.replace(Weights(), local=0.0, general_dense=1.0)) == "c-302.6"


@pytest.mark.parametrize("words, langs, said", [
    ("Is it still attacking me, and who does it deal damage to?", (Lang.EN,), True),
    ("Macht sie dann noch Schaden, und greift sie noch an?", (Lang.EN, Lang.DE), True),
    ("La vuelvo a lanzar con destello. ¿Sigue atacando?", (Lang.EN, Lang.ES), True),
    ("A permanent that's removed from combat has no further involvement.", (Lang.EN,), True),  # the CR's words
    ("I attack with a 3/3 and my opponent blocks.", (Lang.EN,), False),  # attacking alone is no removal
    ("Ich greife mit einer Kreatur an.", (Lang.EN, Lang.DE), False),
    ("After blockers I flipped it up. Is it still blocked?", (Lang.EN,), False),  # 509.1h: it stays blocked
])  # fmt: skip
def test_still_attacking_is_asked_as_removed_from_combat(words: str, langs: tuple[Lang, ...], said: bool) -> None:
    """Players ask whether a creature is "still attacking" (sigue atacando, greift noch an): the CR glossary's
    "Removed from Combat" (506.4). "still" is a function word, so the term is said word for word."""
    assert ("~removed_from_combat" in CORPUS.glossary.question_tokens(words, langs)) == said


COMBAT = [
    _rule("c-506.4", "506.4", "A permanent is removed from combat if it leaves the battlefield, if its controller "
          "changes, if it phases out, or if an effect specifically removes it from combat."),
    _rule("c-gl-removed", "glossary:Removed from Combat", "Removed from Combat: Certain events can cause an "
          "attacking or blocking creature to be \"removed from combat.\" A permanent that's removed from combat has "
          "no further involvement in that combat phase. See rule 506.4."),
    _rule("c-120.2a", "120.2a", "Damage may be dealt as a result of combat. Each attacking and blocking creature "
          "deals combat damage equal to its power during the combat damage step."),
    # clauses that say "removed from combat" as often, of other cases: the words alone don't tell 506.4
    _rule("c-702.22f", "702.22f", "An attacking creature that's removed from combat is also removed from the band it "
          "was in."),
    _rule("c-508.7a", "508.7a", "The attacking creature isn't removed from combat and it isn't considered to have "
          "attacked a second time."),
    _rule("c-506.4b", "506.4b", "Tapping or untapping a creature that's already been declared as an attacker doesn't "
          "remove it from combat and doesn't prevent its combat damage."),
    _ruling("r-attack", "If the attacking creature deals combat damage to a player, its ability triggers.",
            "Some Card"),
    _ruling("r-control", "If you gain control of the attacking creature, it deals damage to you.", "Other Card"),
    _ruling("r-damage", "The creature deals damage to the player it is attacking, even if it is tapped.",
            "Third Card"),
]


@pytest.mark.parametrize("question", [
    "I gained control of my opponent's attacking creature before damage. Is it still attacking me?",
    "Mein Gegner greift mit einer Kreatur an, ich lasse sie wegphasen. Greift sie noch an?",
    "Mi criatura estaba atacando y volvió a mi mano. ¿Sigue atacando?",
])  # fmt: skip
def test_still_attacking_lifts_the_rule_that_removes_a_creature_from_combat(tmp_path: Path, question: str) -> None:
    """The CR glossary's "Removed from Combat" is named through the words said word for word (`phrases_in`), not
    only through the concepts the token matcher reads: 506.4 and its glossary entry come before the rulings that
    share "attacking" and "damage" and the clauses of other cases that say "removed from combat" (tryout 52 D2)."""
    hits = fake_searcher(COMBAT, tmp_path / "index").search(question, limit=3)
    assert {h.entry.id for h in hits[:2]} == {"c-506.4", "c-gl-removed"}
