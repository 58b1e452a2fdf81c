"""A face-down question that holds a second rule's concept (copy, mutate: kb.search.question.face_down_meetings,
tryout 53 D3) is expanded with the words of the clause that states how a face-down object meets it (708.10,
729.2e). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import Lang
from kb.search.question import face_down_meetings
from kb.search.rank import Weights
from tests.entries import CORPUS, fake_searcher, lexical_and_dense, rule_entry, ruling_entry


# ------------------------------------------------------------------------------ reading the meeting
@pytest.mark.parametrize(("concepts", "meetings"), [
    ({"~face_down", "~copy"}, ("copy",)),
    ({"~morph", "~turn_face_up", "~copy"}, ("copy",)),
    ({"~manifest", "~mutate"}, ("mutate",)),
    # no face-down object: a copy or a mutate question of another rule
    ({"~copy", "~creature"}, ()),
    ({"~mutate", "~trigger"}, ()),
    # a copied triggered ability is no permanent becoming a copy ("he copied its leaves trigger")
    ({"~face_down", "~copy", "~trigger"}, ()),
    ({"~face_down", "~mutate", "~trigger"}, ("mutate",)),
    # a face-down question of no second rule the table knows
    ({"~face_down", "~look_at"}, ()),
])  # fmt: skip
def test_a_face_down_question_with_a_second_rules_concept_meets_it(concepts, meetings) -> None:
    assert tuple(c.id for c in face_down_meetings(concepts)) == meetings


@pytest.mark.parametrize(("question", "lang"), [
    ("I mutate Gemrazer onto my face-down creature. Is it face up?", Lang.EN),
    ("Ich lasse eine Kreatur auf meine verdeckte Kreatur mutieren. Ist sie danach offen?", Lang.DE),
    ("Muto una criatura sobre mi criatura boca abajo. ¿Sigue boca abajo?", Lang.ES),
])  # fmt: skip
def test_mutate_is_a_concept_in_each_language(question: str, lang: Lang) -> None:
    assert "~mutate" in CORPUS.glossary.question_tokens(question, (Lang.EN, lang))


# ------------------------------------------------------------------------------------ in the ranker
_rule, _ruling = rule_entry, ruling_entry
ENTRIES = [
    _rule("c-708.10", "708.10", "If a face-down permanent becomes a copy of another permanent, its copiable values "
          "become the copiable values of that permanent, as modified by its face-down status. Its characteristics "
          "therefore remain the same: the characteristics listed by the ability or rules that allowed it to be "
          "turned face down. However, if it is turned face up, its copiable values become the values it copied "
          "from the other permanent."),
    _rule("c-729.2e", "729.2e", "If a merged permanent contains face-up and face-down components, the permanent's "
          "status is determined by its topmost component. If a face-down permanent becomes a face-up permanent as "
          "a result of an object merging with it, other effects don't count it as being turned face up."),
    _rule("c-708.2a", "708.2a", "If a face-up permanent is turned face down by a spell or ability that doesn't list "
          "any characteristics for that object, it becomes a 2/2 face-down creature with no text, no name, no "
          "subtypes, and no mana cost."),
    _ruling("r-reverse", "If another object becomes a copy of a face-down creature, that new object is a 2/2 "
            "colorless face-up creature with no name.", "Morph Card"),
    _ruling("r-turn", "You can turn a face-down creature face up any time you have priority by paying its morph "
            "cost.", "Morph Card"),
    _ruling("r-mutate", "If a mutating creature spell's target is illegal as it resolves, it enters the "
            "battlefield as a creature.", "Mutate Card"),
]


@pytest.mark.parametrize(("question", "answer"), [
    ("My face-down morph became a copy of a Dragon until end of turn. Is it a Dragon now?", "c-708.10"),
    ("Meine verdeckte Kreatur wird eine Kopie eines Drachen. Was ist sie jetzt?", "c-708.10"),
    ("I mutate a creature onto my face-down creature and put it on top. Is the merged creature face up?",
     "c-729.2e"),
])  # fmt: skip
def test_a_meeting_question_reaches_the_clause_that_states_the_case(tmp_path: Path, question: str,
                                                                    answer: str) -> None:
    """The clause's words reach it lexically (the meeting's rules words, its BM25 undiscounted) and in meaning (the
    meeting's gist joins the dense query)."""
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    plain_lexical, plain_dense = lexical_and_dense(searcher, question, answer, Weights(face_down_meetings=False), len(ENTRIES))
    lexical, dense = lexical_and_dense(searcher, question, answer, Weights(), len(ENTRIES))
    assert lexical > 2 * plain_lexical
    assert dense > plain_dense


@pytest.mark.parametrize(("question", "answer", "lifted"), [
    ("I mutate a creature onto my face-down creature and put it on top. Is the merged creature face up?",
     "c-729.2e", True),
    # a copy question may be of either direction (a Clone copying a face-down creature is 708.2's and its rulings'
    # case): 708.10 keeps the clauses' discount
    ("My face-down morph became a copy of a Dragon until end of turn. Is it a Dragon now?", "c-708.10", False),
])  # fmt: skip
def test_the_clause_of_a_merging_meeting_competes_undiscounted(tmp_path: Path, question: str, answer: str,
                                                               lifted: bool) -> None:
    searcher = fake_searcher(ENTRIES, tmp_path / "index")

    def score(weights: Weights) -> float:
        searcher.weights = weights
        return next(h.score for h in searcher.search(question, limit=len(ENTRIES)) if h.entry.id == answer)

    # `local` off: the second stage's bonus is scaled to the best candidate, which the lift may change
    plain, lift = score(Weights(meeting_rule=0.6, local=0.0)), score(Weights(meeting_rule=1.0, local=0.0))
    assert (lift > 1.5 * plain) is lifted


def test_a_card_name_is_no_rule_a_face_down_object_meets(tmp_path: Path) -> None:
    """Clone Shell (Spanish "Caparazón clon") copies nothing: its name says "clon", the copy concept's word, but the
    question asks where the card it turns face up goes; 708.10's words are not added."""
    entries = [*ENTRIES, _ruling("r-shell", "As Clone Shell's second ability resolves, if the exiled card is not a "
                                 "creature card, it simply remains in exile face up.", "Clone Shell")]
    searcher = fake_searcher(entries, tmp_path / "index")
    question = ("Mi Caparazón clon murió. Al resolverse su habilidad puse boca arriba la carta exiliada boca abajo y "
                "era un pantano. ¿Dónde va?")

    def lexical(weights: Weights) -> float:
        searcher.weights = weights
        return next(h.lexical for h in searcher.search(question, limit=len(entries)) if h.entry.id == "c-708.10")

    assert lexical(Weights()) == pytest.approx(lexical(Weights(face_down_meetings=False)))


# -------------------------------------------------------- the words players say for a face-down rule (tryout 54 D2)
@pytest.mark.parametrize(("concepts", "stems", "meetings"), [
    # a colour word, a mana value, "colour": a face-down permanent is colorless with mana value 0
    ({"~face_down", "~destroy", "~target"}, ["doom", "blade", "nonblack", "black"], ("colour",)),
    ({"~face_down", "~block"}, ["schutz", "blau"], ("colour",)),
    ({"~face_down", "~mana_value"}, [], ("colour",)),
    # ... of a face-down spell on the stack: the spell's own words (708.4), not the permanent's
    ({"~face_down", "~mana_value", "~spell"}, ["spell", "stack"], ("colour_spell",)),
    ({"~face_down", "~spell", "~cast"}, ["blau", "stapel"], ("colour_spell",)),
    # ... but a spell cast at the face-down permanent asks of the permanent
    ({"~face_down", "~spell", "~destroy"}, ["hechiz", "negr"], ("colour",)),
    # ... not of a permanent turned face up: the colour is the face-up card's
    ({"~face_down", "~turn_face_up", "~aura"}, ["green"], ()),
    # leaving the battlefield or the stack, asked whether it is shown: revealed (708.9)
    ({"~face_down", "~leaves_the_battlefield", "~reveal"}, [], ("revealed",)),
    ({"~face_down", "~counter_spell", "~graveyard", "~reveal"}, [], ("revealed",)),
    # ... not asked whether it is shown: a "dies" trigger, a Shock before turning face up
    ({"~face_down", "~leaves_the_battlefield", "~trigger"}, [], ()),
    # cast for free / without paying its mana cost: already an alternative cost, so no morph (118.9a)
    ({"~face_down", "~cast", "~morph"}, ["cast", "free"], ("free",)),
    ({"~face_down", "~cast", "~morph"}, ["without", "paying", "mana", "cost"], ("free",)),
    # "free" of no casting, or "without" alone: no such meeting
    ({"~face_down", "~turn_face_up"}, ["free"], ()),
    ({"~face_down", "~cast"}, ["without", "morph"], ()),
    # no face-down object: a colour or a free spell of another rule
    ({"~protection", "~creature"}, ["red"], ()),
    ({"~cast"}, ["free"], ()),
])  # fmt: skip
def test_a_face_down_question_says_a_second_rule_in_players_words(concepts, stems, meetings) -> None:
    assert tuple(c.id for c in face_down_meetings(concepts, stems)) == meetings


SAID_ENTRIES = [
    _ruling("r-colorless", "The face-down permanent is a 2/2 creature with no name, mana cost, creature types, or "
            "abilities. It's colorless and has a mana value of 0.", "Morph Card"),
    _ruling("r-spell", "The face-down spell has no mana cost and a mana value of 0. When you cast a face-down spell, "
            "put it on the stack face down so no other player knows what it is, and pay {3} to cast it.", "Morph Card"),
    _ruling("r-revealed", "If a face-down permanent you control leaves the battlefield, you must reveal it.",
            "Morph Card"),
    _ruling("r-free", "Because you're already casting the card using an alternative cost (by casting it without "
            "paying its mana cost), you can't pay any other alternative costs for the card, including casting it face "
            "down using the morph ability.", "Spell Card"),
    _ruling("r-target", "If the target creature is an illegal target as the spell tries to resolve, it doesn't "
            "resolve.", "Other Card"),
    _ruling("r-hand", "You may look at face-down creatures you control at any time; your opponent may not look at "
            "them while they are on the battlefield.", "Morph Card"),
    *ENTRIES,
]


def test_a_face_down_spells_mana_value_is_its_own_rulings_not_the_permanents(tmp_path: Path) -> None:
    """search59's colour meeting spoke of the face-down permanent for every mana value question, so a question about
    the face-down spell on the stack got the permanent's ruling first (four test questions, found on the test split;
    the lead's dev questions fs-*-07 were written before the fix was tried)."""
    searcher = fake_searcher(SAID_ENTRIES, tmp_path / "index")
    question = "My morph is on the stack as a face-down spell. What is its mana value for my opponent's counterspell?"
    lexical = {h.entry.id: h.lexical for h in searcher.search(question, limit=len(SAID_ENTRIES))}
    assert lexical["r-spell"] > lexical["r-colorless"]


@pytest.mark.parametrize(("question", "answer"), [
    ("My opponent wants to kill my face-down creature with a spell that says destroy target nonblack creature. The "
     "card is black. Is it a legal target?", "r-colorless"),
    ("Meine Kreatur hat Schutz vor Blau. Darf die verdeckte Kreatur meines Gegners sie blocken? Die Karte ist blau.",
     "r-colorless"),
    ("Mi rival hizo que mi criatura boca abajo vuelva a mi mano. ¿Tengo que enseñarle qué carta era?", "r-revealed"),
    ("Wenn ich einen Zauber wirken darf, ohne seine Manakosten zu bezahlen: kann ich eine Karte mit Morph verdeckt "
     "ausspielen?", "r-free"),
    ("Can I cast my morph creature face down for free with my Omniscience?", "r-free"),
])  # fmt: skip
def test_a_question_in_players_words_reaches_the_ruling_that_states_the_case(tmp_path: Path, question: str,
                                                                            answer: str) -> None:
    """The ruling's words reach it lexically (the meeting's rules words) and in meaning (its gist)."""
    searcher = fake_searcher(SAID_ENTRIES, tmp_path / "index")
    size = len(SAID_ENTRIES)
    plain_lexical, plain_dense = lexical_and_dense(searcher, question, answer, Weights(face_down_meetings=False), size)
    lexical, dense = lexical_and_dense(searcher, question, answer, Weights(), size)
    assert lexical > plain_lexical
    assert dense > plain_dense
