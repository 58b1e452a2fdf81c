"""A question that names a keyword ability but asks what a rule outside the keyword's own section decides
(`Weights.beyond_keyword`, `rank.asks_beyond`; tryout 50 D2, issue 17: the keyword's definition clauses filled the
list): "My indestructible creature has the same name as another legendary one I control. Does indestructible save
it?" is the legend rule, 704.5j, not indestructible's 702.12b, though every indestructible clause says
"indestructible". Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.model import Lang
from kb.search import Searcher
from kb.search.rank import Weights, asks_beyond
from tests.entries import fake_searcher, ranked_ids, rule_entry as _rule, ruling_entry as _ruling

ENTRIES = [
    _rule("c-702.12", "702.12", "Indestructible"),
    _rule("c-702.12a", "702.12a", "Indestructible is a static ability."),
    _rule("c-702.12b", "702.12b", "A permanent with indestructible can't be destroyed. Such permanents aren't "
          "destroyed by lethal damage, and they ignore the state-based action that checks for lethal damage "
          "(see rule 704.5g)."),
    _rule("c-702.12c", "702.12c", "Multiple instances of indestructible on the same permanent are redundant."),
    _rule("c-gl-indestructible", "glossary:Indestructible", "Indestructible: A keyword ability that precludes a "
          "permanent from being destroyed. See rule 702.12, \"Indestructible.\""),
    _rule("c-704.5j", "704.5j", "If two or more legendary permanents with the same name are controlled by the same "
          "player, that player chooses one of them, and the rest are put into their owners' graveyards. This is "
          "called the \"legend rule.\""),
    _rule("c-704.5g", "704.5g", "If a creature has toughness greater than 0, it has damage marked on it, and the "
          "total damage marked on it is greater than or equal to its toughness, that creature has been dealt lethal "
          "damage and is destroyed."),
    _rule("c-302.6", "302.6", "A creature can't attack unless it has been under its controller's control "
          "continuously since their most recent turn began."),
    # no ruling says indestructible: its rules are lifted as those of a keyword no ruling is about (`keyword_rules`)
    _ruling("r-a", "You may sacrifice a creature to pay the cost.", "A Card"),
    _ruling("r-b", "The legendary creature can attack the turn it enters.", "B Card"),
]

QUESTION = "My indestructible creature has the same name as another legendary one I control. Does indestructible save it?"
SECTION = ("c-702.12a", "c-702.12b", "c-702.12c", "c-gl-indestructible")


def _searcher(tmp_path: Path, on: bool) -> Searcher:
    return fake_searcher(ENTRIES, tmp_path / "index", weights=Weights(beyond_keyword=on))


def test_a_rule_outside_the_keywords_section_answers_what_is_asked_beyond_it(tmp_path: Path) -> None:
    ranked = ranked_ids(_searcher(tmp_path, True), QUESTION, limit=10)
    assert ranked[0] == "c-704.5j", ranked


def test_without_it_the_keywords_clause_comes_first(tmp_path: Path) -> None:
    """The mechanism, not the data, decides: the same entries and question with `beyond_keyword` off."""
    ranked = ranked_ids(_searcher(tmp_path, False), QUESTION, limit=10)
    assert ranked[0] in SECTION, ranked


def test_a_question_about_the_keyword_itself_keeps_its_clause_first(tmp_path: Path) -> None:
    """What the keyword's own clause says (destroyed, lethal damage) holds the question's other words: not beyond."""
    ranked = ranked_ids(_searcher(tmp_path, True), "Is my indestructible creature destroyed by lethal damage?",
                        limit=10)
    assert ranked.index("c-702.12b") < ranked.index("c-704.5j"), ranked


def test_the_keywords_words_name_its_section(tmp_path: Path) -> None:
    searcher = _searcher(tmp_path, True)
    section, drop = searcher._named_sections(QUESTION, (Lang.EN,), frozenset())
    ids = {searcher.table.ids[i] for i in np.flatnonzero(section)}
    assert ids == set(SECTION)  # its lettered clauses and glossary entry, not its title
    assert drop and all(t.startswith(("indestructib", "~indestructib")) for t in drop), drop


@pytest.mark.parametrize("rest, beyond", [
    ([0.0, 0.0, 5.0, 0.0], False),  # its clauses hold none of the other words: "How does menace work?" (review50 H1)
    ([0.0, 1.0, 5.0, 0.0], True),  # a clause outside holds more than 4 times as much
    ([0.0, 2.0, 5.0, 0.0], False),  # less than that: the question may ask about the keyword
    ([0.0, 5.0, 3.0, 0.0], False),  # one of the keyword's own clauses holds most
])  # fmt: skip
def test_asks_beyond_compares_the_best_clause_outside_with_the_keywords(rest: list[float], beyond: bool) -> None:
    """A clause outside must hold more than 4x what the keyword's best clause holds of the question's other words,
    and that clause must hold some: when none of its clauses says any, the other words are everyday ones ("How does
    menace work?": 722.1a says "works"), not what a rule elsewhere decides (review50 H1)."""
    is_rule = np.array([False, True, True, False])  # a ruling, a clause of the keyword, another clause, a ruling
    section = np.array([False, True, False, False])
    assert asks_beyond(np.array(rest), is_rule, section, 4.0) is beyond


FLYING = [
    _rule("c-702.9a", "702.9a", "Flying is an evasion ability."),
    _rule("c-702.9b", "702.9b", "A creature with flying can't be blocked except by creatures with flying and/or reach."),
    _rule("c-gl-flying", "glossary:Flying", "Flying: A keyword ability that restricts how a creature may be blocked. "
          "See rule 702.9, \"Flying.\""),
]
TWO = ("My indestructible creature with flying has the same name as another legendary one I control. "
       "Does indestructible save it?")


def test_a_question_naming_two_keywords_is_not_read_as_asking_beyond_them(tmp_path: Path) -> None:
    """Two keywords named may be asked how they meet, which one of their own sections decides ("Do auras fall off
    with protection?" is 702.16c): the gate opens only for a question that names one keyword."""
    on = fake_searcher(ENTRIES + FLYING, tmp_path / "on", weights=Weights(beyond_keyword=True))
    off = fake_searcher(ENTRIES + FLYING, tmp_path / "off", weights=Weights(beyond_keyword=False))
    section, _ = on._named_sections(TWO, (Lang.EN,), frozenset())
    assert on._sections_named(section) == 2
    assert ranked_ids(on, TWO, limit=10) == ranked_ids(off, TWO, limit=10)
    one, _ = on._named_sections(QUESTION, (Lang.EN,), frozenset())
    assert on._sections_named(one) == 1


def test_a_question_whose_other_words_no_clause_of_the_keyword_says_stays_with_the_keyword(tmp_path: Path) -> None:
    """review50 H1: "How does indestructible work?" holds one other word, "work", which none of indestructible's
    clauses says and some clause elsewhere does: that is no question beyond the keyword."""
    works = _rule("c-722.1a", "722.1a", "If more than one effect would create a monarch, the last one to be created is "
                  "the one that works.")
    on = fake_searcher(ENTRIES + [works], tmp_path / "on", weights=Weights(beyond_keyword=True))
    off = fake_searcher(ENTRIES + [works], tmp_path / "off", weights=Weights(beyond_keyword=False))
    question = "How does indestructible work?"
    assert ranked_ids(on, question, limit=5) == ranked_ids(off, question, limit=5)


PROTECTION = [
    _rule("c-702.16", "702.16", "Protection"),
    _rule("c-702.16a", "702.16a", "Protection is a static ability, written \"Protection from [quality].\""),
    _rule("c-702.16b", "702.16b", "A permanent or player with protection can't be targeted by spells with the stated "
          "quality and can't be targeted by abilities from a source with the stated quality."),
    _rule("c-702.16c", "702.16c", "A permanent or player with protection can't be enchanted by Auras that have the "
          "stated quality."),
    _rule("c-702.16f", "702.16f", "Attacking creatures with protection can't be blocked by objects that have the "
          "stated quality; this is checked only as blockers are declared, and a blocker that gains the stated "
          "quality later goes on blocking until the end of the combat damage step of that combat phase."),
    _rule("c-gl-protection", "glossary:Protection", "Protection: A keyword ability that provides a range of benefits "
          "against objects with a specific quality. See rule 702.16, \"Protection.\""),
    # a CR example that names the card four times and shares the question's "creature"
    _rule("c-120.5", "120.5", "Damage dealt to a creature doesn't destroy it. Example: A player casts Lightning Bolt, "
          "an instant that says \"Lightning Bolt deals 3 damage to any target,\" targeting a 2/2 creature. After "
          "Lightning Bolt deals 3 damage to that creature, the creature is destroyed as a state-based action. Neither "
          "Lightning Bolt nor the damage dealt by Lightning Bolt destroyed that creature."),
    _ruling("r-c", "The creature can't be the target of red spells.", "C Card"),
]


def test_a_cr_example_naming_the_asked_card_is_no_rule_beyond_the_keyword(tmp_path: Path) -> None:
    """smoke53 H1 (the README's example): "Can I Lightning Bolt a creature with protection from red?" lost 702.16b
    since search50b: 120.5's example names Lightning Bolt four times, so a clause outside protection seemed to hold
    the question's other words four times over. The named card's name is no word of what is asked."""
    searcher = fake_searcher(PROTECTION, tmp_path / "index", weights=Weights(beyond_keyword=True))
    ranked = ranked_ids(searcher, "Can I Lightning Bolt a creature with protection from red?", limit=10)
    assert ranked[0] == "c-702.16b", ranked
