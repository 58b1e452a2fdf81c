"""Among a keyword's subclauses, the one about what the question does (targets, blocks, deals damage) comes first
(`Searcher._keyword_acts`, `Weights.keyword_act`; try-out 47 D2: "Can I Lightning Bolt a creature with protection
from red?" got 702.16j/f/p/n/k, not 702.16b). Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.question import SPELL, TARGETS, act_match, asked_acts, spell_targets, spell_tokens
from kb.search.rank import Weights
from tests.entries import fake_searcher, ranked_ids, rule_entry as _rule, ruling_entry as _ruling

PROTECTION = [
    _rule("c-702.16", "702.16", "Protection"),
    _rule("c-702.16a", "702.16a", "Protection is a static ability, written \"Protection from [quality].\""),
    _rule("c-702.16b", "702.16b", "A permanent or player with protection can't be targeted by spells with the stated "
          "quality and can't be targeted by abilities from a source with the stated quality."),
    _rule("c-702.16e", "702.16e", "Any damage that would be dealt by sources that have the stated quality to a "
          "permanent or player with protection is prevented."),
    _rule("c-702.16f", "702.16f", "Attacking creatures with protection can't be blocked by creatures that have the "
          "stated quality."),
    _rule("c-702.16j", "702.16j", "\"Protection from everything\" is a variant of the protection ability. A permanent "
          "with protection from everything has protection from each object regardless of that object's "
          "characteristics. Such a permanent can't be targeted by spells or abilities, enchanted by Auras, equipped "
          "by Equipment, blocked by creatures, or dealt damage."),
    _rule("c-gl-protection", "glossary:Protection", "Protection: A keyword ability that provides a range of benefits "
          "against objects with a specific quality. See rule 702.16, \"Protection.\""),
    # rulings that say protection: the keyword is the rulings' too, and its rules are not lifted as a whole
    _ruling("r-p1", "The creature gains protection from the color of your choice until end of turn; it stays "
            "red.", "Shelter Card"),
    _ruling("r-p2", "Protection from a color doesn't stop a creature from being red itself.", "Shield Card"),
    _ruling("r-p3", "If the creature gains protection from red, red Auras attached to it go to the graveyard.",
            "Ward Card"),
]


def _searcher(tmp_path: Path, on: float = 0.2) -> Searcher:
    return fake_searcher(PROTECTION, tmp_path / "index", weights=Weights(keyword_act=on))


def test_the_acts_a_question_asks_about() -> None:
    assert asked_acts(["~target", "~creature"], None) == {"~target"}
    assert asked_acts(["~cast", "~creature"], None) == {"~target"}  # casting a spell at it targets it
    assert asked_acts(["~creature"], True) == {"~target"}  # a named instant that targets, cast at it
    assert asked_acts(["~block", "~creature"], None) == {"~block"}
    assert asked_acts(["~creature", "~owner"], None) == frozenset()
    # review48 M2: a named spell that targets nothing (Pyroclasm) is cast at no one, whatever the casting words
    assert asked_acts(["~cast", "~creature"], False) == frozenset()
    assert asked_acts(["~damage"], False) == {"~damage"}


@pytest.mark.parametrize("types, oracle, tokens", [
    (["instant"], "Lightning Bolt deals 3 damage to any target.", [SPELL, TARGETS]),
    (["sorcery"], "Pyroclasm deals 2 damage to each creature.", [SPELL]),
    (["sorcery"], "Destroy all creatures. They can't be regenerated.", [SPELL]),  # Wrath of God
    # reminder text is no targeting: Cycling's "(… Discard this card: Draw a card.)"
    (["instant"], "Prevent all combat damage.\nBuyback {3} (You may pay … target …)", [SPELL]),
    (["creature"], "When this creature enters, it deals 4 damage to target creature.", []),
])  # fmt: skip
def test_an_instant_or_sorcery_says_whether_it_targets(types: list[str], oracle: str, tokens: list[str]) -> None:
    assert spell_tokens(types, oracle) == tokens


def test_the_named_spells_say_whether_the_question_targets() -> None:
    assert spell_targets([["sorcery", SPELL], ["instant", SPELL, TARGETS]]) is True
    assert spell_targets([["sorcery", SPELL], ["creature"]]) is False
    # a creature whose text speaks of instants is no spell cast at anything
    assert spell_targets([["creature", "instant", TARGETS]]) is None
    assert spell_targets([]) is None


def test_a_clause_about_the_asked_act_alone_matches_best() -> None:
    asked = frozenset({"~target"})
    assert act_match(["~target", "~spell"], asked) == 1.0
    assert act_match(["~target", "~block", "~damage", "~aura", "~equipment"], asked) == pytest.approx(0.2)
    assert act_match(["~damage"], asked) == 0.0


@pytest.mark.parametrize("question, first", [
    ("Can I target a creature with protection from red with a red spell?", "c-702.16b"),
    ("Can I cast a red spell on a creature with protection from red?", "c-702.16b"),
    ("Can a creature with protection from red be blocked by a red creature?", "c-702.16f"),
    ("Does a creature with protection from red take damage from a red source?", "c-702.16e"),
])  # fmt: skip
def test_the_keywords_clause_about_the_asked_act_comes_first(tmp_path: Path, question: str, first: str) -> None:
    searcher = _searcher(tmp_path)
    acts = searcher._keyword_acts(question, question, (Lang.EN,), [], frozenset())
    best = searcher.table.ids[int(np.argmax(acts))]
    assert best == first
    ranked = [i for i in ranked_ids(searcher, question, limit=10) if i.startswith("c-702.16")]
    assert ranked[0] == first, ranked


def test_a_question_naming_no_act_gets_no_act_bonus(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path)
    question = "What does protection from red do?"
    assert not searcher._keyword_acts(question, question, (Lang.EN,), [], frozenset()).any()


@pytest.mark.parametrize("question, card", [
    ("Does protection from red stop Pyroclasm?", "Pyroclasm"),
    ("Does protection from white stop Wrath of God from destroying my creature?", "Wrath of God"),
])  # fmt: skip
def test_a_named_spell_that_targets_nothing_asks_no_targeting(tmp_path: Path, question: str, card: str) -> None:
    """review48 M2: any named instant or sorcery read as targeting put 702.16b first for Pyroclasm (it deals damage
    to each creature: 702.16e) and Wrath of God (it destroys: protection does not stop it)."""
    searcher = _searcher(tmp_path)
    acts = searcher._keyword_acts(question, question, (Lang.EN,), [card], frozenset())
    assert acts[list(searcher.table.ids).index("c-702.16b")] == 0.0
    ranked = [i for i in ranked_ids(searcher, question, limit=10) if i.startswith("c-702.16")]
    assert ranked and ranked[0] != "c-702.16b", ranked


def test_a_named_spell_that_targets_asks_targeting(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path)
    question = "Lightning Bolt a creature with protection from red: does it resolve?"
    acts = searcher._keyword_acts(question, question, (Lang.EN,), ["Lightning Bolt"], frozenset())
    assert searcher.table.ids[int(np.argmax(acts))] == "c-702.16b"
    ranked = [i for i in ranked_ids(searcher, question, limit=10) if i.startswith("c-702.16")]
    assert ranked[0] == "c-702.16b", ranked


@pytest.mark.parametrize("question, acts", [
    ("Wie wirkt Schutz vor Rot gegen Schaden?", {"~damage"}),  # "wirkt": how it works
    ("Welche Wirkung hat Schutz vor Rot?", set()),  # "Wirkung" (effect) stems as "wirken" does
    ("Ich wirke Blitzschlag auf eine Kreatur mit Schutz vor Rot.", {"~target"}),  # casting, no spell named
])  # fmt: skip
def test_a_german_question_that_says_how_it_works_casts_nothing(tmp_path: Path, question: str, acts: set[str]) -> None:
    """review48 L2: the lexicon's `cast` held "wirkt" (works), and "Wirkung" met "wirken". Read as the searcher reads
    a question (a verb's derived forms only for a keyword's: `Searcher._names_keyword`)."""
    glossary = _searcher(tmp_path).glossary
    assert asked_acts(glossary.question_tokens(question, (Lang.DE,)), None) == acts
