"""tryout16: a rules manager writes a check file of their own (with a `cards:` section) and makes
the mistakes a new author makes; each must be a problem naming the file and line and saying how to
fix it, or a failure saying why, never a check that passes when it should fail."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from kb.checks.scenario import parse_checks
from kb.corpus import Corpus
from tests.scenario_helpers import run_check

CORPUS = Corpus.default()
CARDS = CORPUS.cards

# Den Protector (Dragons of Tarkir), Oracle text; not in corpus/cards.
MY_CARDS = """
cards:
  - name: Den Protector
    mana_cost: '{1}{G}'
    colors: [G]
    types: [Creature]
    subtypes: [Human, Warrior]
    pt: 2/1
    megamorph: '{1}{G}'
    abilities:
      - {when: turned_face_up, effect: nothing, text: 'Den Protector: return target card from your graveyard to your hand'}
    text: "Creatures with power less than Den Protector's power can't block it.\\nMegamorph {1}{G}"
"""


def parse(checks: str, cards: str = MY_CARDS):
    return parse_checks(cards + "checks:\n" + textwrap.indent(textwrap.dedent(checks), "  "), "my-checks.yaml", CARDS)


def line_of(text: str, needle: str, cards: str = MY_CARDS) -> int:
    full = cards + "checks:\n" + textwrap.indent(textwrap.dedent(text), "  ")
    return next(i for i, ln in enumerate(full.splitlines(), 1) if needle in ln)


def test_a_key_given_twice_is_a_problem_not_a_dropped_expectation() -> None:
    """PyYAML keeps the last of two equal keys: the first `expect:` of the action was dropped and
    the check passed although it expected a counter that is not there."""
    text = """
    - name: two-expects
      ruling: "If a face-down creature with megamorph is turned face up some other way"
      setup: {you: {library: [Den Protector]}}
      actions:
        - manifest: you
        - turn_face_up: {card: Den Protector, by: mana}
          expect: {Den Protector: {counters: 5}}
          expect: {Den Protector: {face_down: false}}
    """
    checks, problems = parse(text)
    assert checks == [] and len(problems) == 1, (checks, problems)
    second = line_of(text, "face_down: false")
    assert problems[0].line == second
    assert "'expect' is given twice" in problems[0].reason and f"first on line {second - 1}" in problems[0].reason


def test_the_bundled_check_files_give_no_key_twice() -> None:
    for path in sorted(Path("corpus/checks").glob("*.yaml")):
        _, problems = parse_checks(path.read_text(encoding="utf-8"), str(path), CARDS)
        assert not [p for p in problems if "given twice" in p.reason], problems


def test_a_check_naming_a_card_whose_definition_has_a_problem_is_told_so_not_unknown_card() -> None:
    """The file defines the card, but with a misspelt filter key: the card's own problem names it and
    the known keys, and the check using it points there (it said "unknown card ... the file's own
    `cards:` define them", sending the author to look for a typo in the name)."""
    cards = MY_CARDS.replace(
        "effect: nothing, text: 'Den Protector:",
        "effect: bounce, target: creature, filter: {min_power: 4}, text: 'Den Protector:")
    text = """
    - name: uses-the-bad-card
      ruling: "If a face-down creature with megamorph is turned face up some other way"
      setup: {you: {library: [Den Protector]}}
      actions:
        - manifest: you
      expect: {Den Protector: {face_down: true}}
    """
    checks, problems = parse(text, cards)
    # the problem is reported at the offending key's line (smoke51 L4), and the check points there
    card_line = line_of(text, "filter: {min_power: 4}", cards)
    assert card_line > line_of(text, "- name: Den Protector", cards)
    assert checks == [] and [p.line for p in problems] == [card_line, line_of(text, "setup:", cards)]
    assert "card 'Den Protector': unknown filter key(s) min_power (known: types," in problems[0].reason
    assert "unknown card" not in problems[1].reason
    assert f"'Den Protector' is left out: its definition in this file's `cards:` (line {card_line})" in problems[1].reason


MANIFESTED = """
- name: {name}
  ruling: "If a face-down creature with megamorph is turned face up some other way"
  setup: {{you: {{library: [Den Protector]}}}}
  actions:
    - manifest: you
    - turn_face_up: {{card: Den Protector, by: mana}}
      expect: {expect}
"""


@pytest.mark.parametrize(("expect", "reason"), [
    # each of these failed every run, some with a message that hid why: "expected '2', got 2"
    ("{Den Protector: {face_down_by: manfest}}", "face_down_by can't be 'manfest' (did you mean 'manifest'?"),
    ("{Den Protector: {power: '3'}}", "Den Protector.power must be a number or null, not '3'"),
    ("{Den Protector: {counters: none}}", "Den Protector.counters must be a number, not 'none'"),
    ("{Den Protector: {face_down: 'no'}}", "Den Protector.face_down must be true or false, not 'no'"),
    ("{Den Protector: {mana_cost: 1G}}", "mana_cost must be a mana cost with its symbols in braces"),
    ("{cost: 1G}", "`cost` is a cost with its mana symbols in braces, like '{2}{U}', not '1G'"),
])
def test_an_expectation_value_of_the_wrong_shape_is_a_problem_when_the_file_is_read(expect: str, reason: str) -> None:
    checks, problems = parse(MANIFESTED.format(name="shape", expect=expect))
    assert checks == [] and len(problems) == 1 and reason in problems[0].reason, problems
    assert problems[0].line == line_of(MANIFESTED.format(name="shape", expect=expect), "expect:")


def test_the_right_shapes_still_parse_and_a_wrong_value_fails_in_the_file_s_words() -> None:
    good = "{cost: '{1}{G}', Den Protector: {power: 2, counters: 0, face_down: false, face_down_by: null, mana_cost: '{1}{G}'}}"
    checks, problems = parse(MANIFESTED.format(name="good", expect=good))
    assert problems == [] and run_check(checks[0], CARDS) == []
    text = """
    - name: wrong-way
      ruling: "If a face-down creature with megamorph is turned face up some other way"
      setup: {you: {library: [Den Protector]}}
      actions:
        - manifest: you
      expect: {Den Protector: {face_down_by: morph}}
    """
    checks, problems = parse(text)
    assert problems == []
    assert run_check(checks[0], CARDS) == [
        f"line {line_of(text, 'face_down_by: morph')}: Den Protector.face_down_by: expected 'morph', got 'manifest'"]


@pytest.mark.parametrize(("step", "reason"), [
    ("- turn_face_up: {card: Den Protector, by: mana}\n  expcet: {Den Protector: {counters: 0}}",
     "not 'turn_face_up', 'expcet': 'expcet' is no action (did you mean 'expect'?"),
    ("- manifest_dread: you\n  resolve: 1", "not 'manifest_dread', 'resolve': give each action its own `- ` item"),
    ("- expect: {stack: 0}", "needs an action besides its `expect`"),
])
def test_an_action_step_with_a_misspelt_expect_says_which_key_and_what_was_meant(step: str, reason: str) -> None:
    """It said only "an action step needs exactly one action", with `expcet:` beside the action."""
    text = ("- name: step\n  ruling: x\n  setup: {you: {library: [Den Protector]}}\n  actions:\n    - manifest: you\n"
            + textwrap.indent(step, "    ") + "\n  expect: {stack: 0}\n")
    checks, problems = parse(text)
    assert checks == [] and len(problems) == 1 and reason in problems[0].reason, problems
    assert problems[0].line == line_of(text, step.splitlines()[0])


def test_a_cost_without_braces_in_a_card_definition_is_a_problem_naming_the_braced_cost() -> None:
    """`morph: 2BGU` was read as a cost in words, which no mana pays: turning the card face up
    "cost '2BGU'" and the check failed with "expected '{2}{B}{G}{U}', got '2BGU'"."""
    cards = MY_CARDS.replace("megamorph: '{1}{G}'", "megamorph: 1G")
    checks, problems = parse(MANIFESTED.format(name="n", expect="{stack: 1}"), cards)
    assert "`megamorph` of 'Den Protector' is '1G': write mana symbols in braces, like '{1}{G}'" in problems[0].reason
    assert problems[0].line == line_of("", "megamorph: 1G", cards)  # the key's line (smoke51 L4)


def test_a_corpus_card_defined_again_says_where_it_already_is() -> None:
    cards = MY_CARDS + "  - name: Grizzly Bears\n    types: [Creature]\n    pt: 2/2\n"
    _, problems = parse(MANIFESTED.format(name="n", expect="{stack: 1}"), cards)
    assert len(problems) == 1 and "'Grizzly Bears' is already defined in corpus/cards/*.yaml" in problems[0].reason
