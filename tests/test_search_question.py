"""Questions as players ask them: the rules concepts implied by the Oracle texts of the cards a question
names (kb.search.question), and how the ranker uses them. Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import Entry
from kb.search import Hit, Searcher, build_index
from kb.search.cardnames import CardIndex, CardMatcher
from kb.search.index import former_numbers
from kb.search.question import (ORACLE_CONCEPTS, SPECIFIC_SHARE, cited_clauses, concept_tokens, glossary_term,
                                names_term, oracle_concepts, plan, referenced_rules, split_concepts)
from kb.search.rank import Weights
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher, rule_entry, ruling_entry


@pytest.mark.parametrize(("text", "concepts"), [
    ("Blue spells you cast cost {1} less to cast.", ["spell_characteristics"]),
    ("Whenever an opponent casts a multicolored spell, you gain 1 life.", ["spell_characteristics"]),
    ("Counter target spell with mana value X.", ["spell_characteristics"]),
    ("You may cast creature spells from the top of your library.", ["spell_characteristics", "casting_permission"]),
    ("You may cast spells as though they had flash.", ["casting_permission"]),
    ("You may cast this card from exile.", ["casting_permission", "cast_from_exile"]),
    ("Turn target face-down creature face up.", ["turns_face_up"]),
    ("Activated abilities of artifacts can't be activated.", ["no_activated"]),
    ("Destroy target creature and all other creatures with the same name as that creature.", ["names"]),
    ("As this enters, turn all other nontoken creatures face down.", ["turns_face_down"]),
    ("Whenever another creature you control dies, draw a card.", ["leaves_battlefield"]),
    # removal is leaving the battlefield too: the face-down card is revealed as it goes
    ("Return target creature to its owner's hand.", ["leaves_battlefield"]),
    ("Exile target creature. Its controller gains 2 life.", ["leaves_battlefield"]),
    # countering an ability does not stop a special action
    ("Counter target activated ability.", ["no_activated"]),
    ("Counter target activated or triggered ability.", ["no_activated"]),
    # a free spell uses an alternative cost, as casting face down does
    ("You may cast that card without paying its mana cost.", ["free_cast"]),
    ("Creature cards in graveyards and libraries can't enter the battlefield.", ["enter_prohibited"]),
    ("If a nontoken creature would enter the battlefield and it wasn't cast, exile it instead.",
     ["enter_prohibited"]),
    ("If this land would enter the battlefield, sacrifice a Plains instead.", []),  # a land's own upkeep
    ("Gain control of target creature until end of turn. Untap that creature.", ["control_change"]),
    # reminder text is not the card's effect: every morph card would turn things face down
    ("Flying\nMorph {2}{W} (You may cast this card face down as a 2/2 creature for {3}. "
     "Turn it face up any time for its morph cost.)", []),
    ("Flying, vigilance", []),
])
def test_oracle_text_is_read_for_the_rules_concepts_it_implies(text: str, concepts: list[str]) -> None:
    assert oracle_concepts(text) == concepts


def test_concepts_are_stored_as_marked_tokens_beside_the_rules_tokens() -> None:
    stored = ["artifact"] + concept_tokens("Green spells you cast cost {1} less to cast.")
    assert split_concepts(stored) == (["artifact"], ["spell_characteristics"])


def test_a_card_without_rulings_brings_in_its_concepts_and_asks_for_the_rule() -> None:
    p = plan({"Sapphire Medallion": ["spell_characteristics"]})
    assert p.concepts == ("spell_characteristics",)
    assert "characteristics" in p.implied and p.wants_rule


def test_a_concept_is_specific_when_few_oracle_texts_hold_it() -> None:
    cards = list(CORPUS.oracle)
    counts = {c.id: 0 for c in ORACLE_CONCEPTS}
    for card in cards:
        for cid in oracle_concepts(card.text):
            counts[cid] += 1
    assert all(counts.values())  # every concept is met on real cards
    assert {c.id for c in ORACLE_CONCEPTS if c.specific} == {
        cid for cid, n in counts.items() if n < SPECIFIC_SHARE * len(cards)}


def test_a_card_with_rulings_brings_in_only_its_specific_concepts() -> None:
    p = plan({"Ixidron": ["turns_face_down"], "Midnight Reaper": ["leaves_battlefield"]},
             ["Ixidron", "Midnight Reaper"])
    assert p.concepts == ("turns_face_down",) and "2/2" in p.implied
    assert not p.wants_rule  # its rulings may still be the answer


@pytest.mark.parametrize(("cards", "with_rulings", "rules_words"), [
    ({"Hooded Hydra": ["leaves_battlefield"]}, ["Hooded Hydra"], []),  # its rulings say what it does
    ({"Conspiracy": ["spell_characteristics"]}, [], ["conspiracy"]),  # the rules term, not the card
    ({"Grizzly Bears": []}, [], []),  # a vanilla card implies nothing
])
def test_a_card_that_is_asked_about_through_its_own_rulings_brings_in_nothing(
        cards: dict[str, list[str]], with_rulings: list[str], rules_words: list[str]) -> None:
    p = plan(cards, with_rulings, rules_words)
    assert p.implied == "" and not p.wants_rule


# --------------------------------------------------------------------------- in the ranker
_rule, _ruling = rule_entry, ruling_entry


ENTRIES = [
    _rule("c-708.4", "708.4", "Objects that are cast face down are turned face down before they are put onto the "
          "stack, so effects that care about the characteristics of a spell will see only the face-down "
          "spell's characteristics."),
    _rule("c-116.2b", "116.2b", "Turning a face-down creature face up is a special action. A player can take this "
          "action any time they have priority."),
    _rule("c-708.9", "708.9", "If a face-down permanent moves from the battlefield to any other zone, its owner "
          "must reveal it to all players as they move it."),
    _rule("c-708.3", "708.3", "Objects that are put onto the battlefield face down are turned face down before "
          "they enter the battlefield."),
    _ruling("r-counter", "A face-down spell can be countered like any other spell.", "Morph Card"),
    _ruling("r-up", "Turning a face-down creature face up costs its morph cost.", "Morph Card"),
    _ruling("r-look", "You may look at a face-down spell you control at any time.", "Morph Card"),
]


def _searcher(tmp_path: Path, oracle_text: str) -> Searcher:
    matcher = CardMatcher.from_names([("Sapphire Medallion", "Sapphire Medallion"), ("Morph Card", "Morph Card")])
    cards = CardIndex(matcher, {"Sapphire Medallion": ["artifact", *concept_tokens(oracle_text)]})
    return fake_searcher(ENTRIES, tmp_path / "index", cards=cards)


def test_a_question_naming_a_card_without_rulings_meets_the_rule_its_oracle_text_implies(
        tmp_path: Path) -> None:
    """The implied CR words reach the clause both lexically (undiscounted) and in meaning. (Its fused
    rank is the ranker's weights' business: on four rulings the rule discount decides it.)"""
    question = "Will Sapphire Medallion reduce the cost to cast my face-down spell?"

    def rule_hit(oracle_text: str, folder: str) -> Hit:
        hits = _searcher(tmp_path / folder, oracle_text).search(question, limit=len(ENTRIES))
        return next(h for h in hits if h.entry.id == "c-708.4")

    plain = rule_hit("Flying", "a")
    implied = rule_hit("Blue spells you cast cost {1} less to cast.", "b")
    assert implied.lexical > 5 * plain.lexical
    assert implied.dense > plain.dense  # the gist joins the dense query


# ------------------------------------------------------------ CR terms the rulings never use
@pytest.mark.parametrize(("clause", "term"), [
    ("glossary:Summoning Sickness Rule", ("summon", "sicknes")),  # a closing "Rule" is not asked for
    ("glossary:State-Based Actions", ("stat", "based", "action")),
    ("708.4", ()),  # not a glossary entry
])
def test_a_glossary_entry_defines_the_term_its_clause_names(clause: str, term: tuple[str, ...]) -> None:
    assert glossary_term(clause, tokenize) == term


def test_a_term_is_named_by_its_words_in_a_row() -> None:
    words = tokenize("Does morphing give summoning sickness?")
    assert names_term(words, ("summon", "sicknes"))
    assert not names_term(tokenize("sickness from summoning"), ("summon", "sicknes"))
    assert referenced_rules('Informal term ... See rule 302.6 and rule 702.10, "Haste."') == ["302.6", "702.10"]


SICKNESS = [
    *ENTRIES,
    _rule("c-302.6", "302.6", "A creature can't attack unless it has been under its controller's control "
          "continuously since their most recent turn began."),
    _rule("c-gl-ss", "glossary:Summoning Sickness Rule", "Summoning Sickness Rule: Informal term for a player's "
          "inability to attack with a creature unless it has been under that player's control since the start "
          "of that player's most recent turn. See rule 302.6."),
]


@pytest.mark.parametrize("bonus", [0.0, Weights().cr_term])
def test_a_cr_term_the_rulings_never_use_lifts_the_rule_its_glossary_entry_refers_to(
        tmp_path: Path, bonus: float) -> None:
    """"Summoning sickness" is in no ruling: the question asks about the rule the glossary names."""
    searcher = fake_searcher(SICKNESS, tmp_path / "index")
    searcher.weights = Weights(cr_term=bonus)
    hits = searcher.search("Does turning a morph face up give it summoning sickness?", limit=3)
    # the rule first, its glossary entry (half the bonus: rank.GLOSSARY_SHARE) after it
    lifted = hits[0].entry.id == "c-302.6" and "c-gl-ss" in {h.entry.id for h in hits}
    assert lifted == (bonus > 0)


# ------------------------------------------------------------------ rules cited by number
def test_a_question_cites_clauses_by_number_not_dates_or_damage() -> None:
    text = "CR 707.8 Question ... the rule 707.9. instructs; see 702.37c. In 2014.09 I dealt 3.5 damage"
    assert cited_clauses(text) == ["707.8", "707.9", "702.37c"]


def test_an_older_number_names_the_rule_its_lineage_has_now() -> None:
    lineage = {("2018", "707.9"): 1, ("2026", "708.9"): 1,  # renumbered
               ("2018", "707.2"): 2, ("2026", "707.2"): 2,  # same number: nothing to map
               ("2018", "707.8"): 3, ("2026", "708.8"): 3, ("2026", "707.8"): 4}  # 707.8 is a new rule now
    assert former_numbers(lineage, "2026") == {"707.8": ["708.8"], "707.9": ["708.9"]}


CITED = [
    *ENTRIES,
    _rule("c-707.9", "707.9", "If a copy of a permanent spell becomes a token, it is created with the copied "
          "values."),
]


@pytest.mark.parametrize("bonus", [0.0, Weights().cited])
def test_a_rule_cited_by_its_old_number_is_found_under_its_new_one(tmp_path: Path, bonus: float) -> None:
    """"The rule 707.9 instructs players to reveal manifested cards": 707.9 was 708.9's number."""
    searcher = fake_searcher(CITED, tmp_path / "index", former={"707.9": ["708.9"]})
    searcher.weights = Weights(cited=bonus)
    hits = [h.entry.id for h in searcher.search(
        "Why does the rule 707.9 instruct players to show what card a creature was?", limit=3)]
    assert ({"c-708.9", "c-707.9"} <= set(hits[:2])) == (bonus > 0)


# --------------------------------------------------------------------------- with the real model
@pytest.fixture(scope="module")
def face_down_rules() -> list[Entry]:
    """The CR's clauses on face-down play and casting (708, 702.37, 701.40, 406.3, 601.2-3, 116.2)."""
    from kb.cr.entries import rule_entries

    keep = ("708.", "702.37", "701.40", "406.3", "601.2", "601.3", "116.2")
    return [e for e in rule_entries(CORPUS.rules) if e.clause and e.clause.startswith(keep)]


def _real_question(qid: str) -> str:
    import yaml

    doc = yaml.safe_load((Path(__file__).parent.parent / "bench" / "data" / "real_questions.yaml").read_text("utf-8"))
    (row,) = [q for q in doc["questions"] if q["id"] == qid]
    assert row["split"] == "dev"  # never a test-split question
    return str(row["question"])


@pytest.mark.model
@pytest.mark.parametrize(("qid", "card", "clause"), [
    ("real-en-09", "Mycosynth Golem", "708.4"),  # affinity for artifact creature spells
    ("real-en-03", "Garruk's Horde", "708.4"),  # cast creature spells from the top of the library
])
def test_the_real_model_finds_the_rule_a_named_cards_oracle_text_implies(
        e5, face_down_rules: list[Entry], tmp_path: Path, qid: str, card: str, clause: str) -> None:
    question = _real_question(qid)
    oracle = CORPUS.oracle.card(card)
    assert oracle is not None
    matcher = CardMatcher.from_names([(card, card)])

    def rank(expand: list[str], folder: str) -> int:
        cards = CardIndex(matcher, {card: expand})
        build_index(face_down_rules, tmp_path / folder, e5, cards=cards, corpus=CORPUS)
        hits = Searcher.load(tmp_path / folder, face_down_rules, query_embedder=e5).search(question, limit=10)
        return next((i for i, h in enumerate(hits, 1) if h.entry.clause == clause), 11)

    without = rank([], "a")
    with_concepts = rank(concept_tokens(oracle.text), "b")
    assert with_concepts <= 3 and with_concepts <= without, (with_concepts, without)
