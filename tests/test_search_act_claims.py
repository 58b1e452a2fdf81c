"""A question whether turning a face-down permanent face up counts as another act (casting, entering, an attack
trigger: kb.search.question.act_claims, tryout 52 D1) is expanded with the words of the clause that decides.
Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import Lang
from kb.search.question import act_claims
from kb.search.rank import Weights
from tests.entries import CORPUS, fake_searcher, lexical_and_dense, rule_entry, ruling_entry


# ------------------------------------------------------------------------------ reading the claim
@pytest.mark.parametrize(("whole", "asking", "claims"), [
    ({"~turn_face_up", "~cast", "~spell"}, {"~turn_face_up", "~cast"}, ("cast",)),
    ({"~turn_face_up", "~counter_spell"}, {"~counter_spell"}, ("cast",)),
    ({"~turn_face_up", "~enters_the_battlefield"}, {"~enters_the_battlefield"}, ("enters",)),
    # "... the card says 'When this creature enters ...'. My opponent says it was already on the battlefield. Is he
    # right?"
    ({"~turn_face_up", "~enters_the_battlefield", "~battlefield"}, {"~battlefield", "~controller"}, ("enters",)),
    # the attack is told in the story; the asking part asks whether it triggers
    ({"~turn_face_up", "~attack", "~trigger"}, {"~trigger"}, ("attacks",)),
    # an act the story tells and the asking part does not ask about is the setting: "I cast Break Open on it to
    # flip it. Does it stay a 5/5?", "tapped from attacking. If I flip it up, does it untap?"
    ({"~turn_face_up", "~cast"}, {"~power_toughness"}, ()),
    ({"~turn_face_up", "~attack"}, {"~turn_face_up", "~attack"}, ()),
    # no turning face up: no claim about it
    ({"~cast", "~spell"}, {"~cast"}, ()),
    ({"~enters_the_battlefield", "~trigger"}, {"~trigger"}, ()),
])  # fmt: skip
def test_turning_face_up_beside_an_asked_act_is_a_claim_about_that_act(whole, asking, claims) -> None:
    assert tuple(c.id for c in act_claims(whole, asking)) == claims


@pytest.mark.parametrize(("question", "lang"), [
    ("Wenn ich meine verdeckte Kreatur umdrehe, betritt dann eine andere Kreatur das Schlachtfeld?", Lang.DE),
    ("Si la pongo boca arriba, ¿eso cuenta como que entra otra criatura al campo de batalla?", Lang.ES),
    ("Cuando volteo una criatura boca abajo, ¿entra de nuevo?", Lang.ES),
])  # fmt: skip
def test_entering_said_with_its_object_apart_is_entering_the_battlefield(question: str, lang: Lang) -> None:
    assert "~enters_the_battlefield" in CORPUS.glossary.question_tokens(question, (Lang.EN, lang))


@pytest.mark.parametrize(("question", "enters"), [
    # "entre" (between) stems as "entra" does: a word the concept lists as `unlike`
    ("¿Qué diferencia hay entre encubrir y manifestar?", False),
    ("Tengo que elegir entre mis criaturas", False),
    # ... but the glossary's term said whole ("when it enters") is the term, its "entre" or not
    ("Cuando la criatura entre al campo de batalla, ¿robo una carta?", True),
])  # fmt: skip
def test_an_unlike_word_alone_names_no_concept_but_a_term_said_whole_does(question: str, enters: bool) -> None:
    assert ("~enters_the_battlefield" in CORPUS.glossary.question_tokens(question, (Lang.EN, Lang.ES))) is enters


# ------------------------------------------------------------------------------------ in the ranker
_rule, _ruling = rule_entry, ruling_entry
ENTRIES = [
    _rule("c-116.2b", "116.2b", "Turning a face-down creature face up is a special action. A player can take this "
          "action any time they have priority."),
    _rule("c-708.8", "708.8", "As a face-down permanent is turned face up, its copiable values revert to its normal "
          "copiable values. Any abilities relating to the permanent entering the battlefield don't trigger and "
          "don't have any effect, because the permanent has already entered the battlefield."),
    _rule("c-508.2a", "508.2a", "Abilities that trigger on a creature attacking trigger only at the point the "
          "creature is declared as an attacker. They will not trigger if a creature attacks and then that "
          "creature's characteristics change to match the ability's trigger condition."),
    _rule("c-708.4", "708.4", "Objects that are cast face down are turned face down before they are put onto the "
          "stack, so effects that care about the characteristics of a spell will see only the face-down "
          "spell's characteristics."),
    _ruling("r-cast", "You can cast a creature card face down as a 2/2 creature spell for {3}.", "Morph Card"),
    _ruling("r-spell", "The face-down creature spell is a colorless 2/2 creature spell with no name.", "Morph Card"),
    _ruling("r-enters", "A face-down creature that enters the battlefield has no abilities, so its enters "
            "abilities don't trigger.", "Morph Card"),
    _ruling("r-attack", "If a face-down creature attacks, the defending player may block it with any creature.",
            "Morph Card"),
]


@pytest.mark.parametrize(("question", "answer"), [
    ("Does turning a face-down creature face up count as casting a creature spell?", "c-116.2b"),
    ("When I turn my face-down creature face up, does it enter the battlefield again?", "c-708.8"),
    ("I attacked with a face-down creature and turned it face up. Its card says whenever it attacks, draw a card. "
     "Does that trigger?", "c-508.2a"),
])  # fmt: skip
def test_a_claim_question_reaches_the_clause_that_decides(tmp_path: Path, question: str, answer: str) -> None:
    """The deciding clause's words reach it lexically (the claim's rules words, its BM25 undiscounted) and in
    meaning (the claim's gist joins the dense query). (Its fused rank is the weights' business: on eight entries
    the rule discount decides it.)"""
    searcher = fake_searcher(ENTRIES, tmp_path / "index")
    plain_lexical, plain_dense = lexical_and_dense(searcher, question, answer, Weights(act_claims=False), len(ENTRIES))
    lexical, dense = lexical_and_dense(searcher, question, answer, Weights(), len(ENTRIES))
    assert lexical > 2 * plain_lexical
    assert dense > plain_dense
