"""tryout22: general rules the face-down checks lean on, written as an L3 judge's check files do
(bench/tryouts/tryout22/): combat damage (510), lifelink (702.15b), ward and "can't be countered"
(101.2), leaving a two-player game (104.2a, 708.9) and who knows a revealed card."""

from __future__ import annotations

import textwrap

import pytest

from kb.checks.scenario import parse_checks
from kb.corpus import Corpus
from tests.scenario_helpers import run_check

CORPUS = Corpus.default()
CARDS = CORPUS.cards

MY_CARDS = """
cards:
  - name: Exalted Angel
    mana_cost: '{4}{W}{W}'
    types: [Creature]
    subtypes: [Angel]
    pt: 4/5
    keywords: [flying, lifelink]
    morph: '{2}{W}{W}'
  - name: Hill Giant
    mana_cost: '{3}{R}'
    types: [Creature]
    subtypes: [Giant]
    pt: 3/3
  - name: Uncounterable Bolt
    mana_cost: '{R}'
    types: [Instant]
    keywords: ["can't be countered"]
    abilities:
      - {effect: damage, count: 3, target: creature}
"""

CHECKS = {
    "unblocked-attacker-damages-the-player-by-default": """
      setup: {you: {battlefield: [{card: Exalted Angel, face_down: morph}]}}
      actions:
        - attack: Exalted Angel
        - combat_damage: Exalted Angel
      expect: {opponent: {life: 18}, you: {life: 20}}
    """,
    "turned-face-up-before-damage-has-lifelink": """
      setup: {you: {battlefield: [{card: Exalted Angel, face_down: morph}]}}
      actions:
        - attack: Exalted Angel
        - turn_face_up: {card: Exalted Angel, by: morph}
        - combat_damage: Exalted Angel
      expect: {opponent: {life: 16}, you: {life: 24}}
    """,
    "attacker-and-blocker-damage-each-other": """
      setup:
        you: {battlefield: [Exalted Angel]}
        opponent: {battlefield: [Hill Giant]}
      actions:
        - attack: Exalted Angel
        - block: {card: Hill Giant, attacker: Exalted Angel}
          expect: {legal: false}
        - grant: {card: Hill Giant, keywords: [reach]}
        - block: {card: Hill Giant, attacker: Exalted Angel}
        - combat_damage: {card: Exalted Angel, blockers: 1}
          expect: {Exalted Angel: {damage: 3}, Hill Giant: {zone: graveyard}, opponent: {life: 20}, you: {life: 24}}
    """,
    "ward-does-not-counter-a-spell-that-cant-be-countered": """
      setup:
        you: {battlefield: [{card: Dog Walker, face_down: disguise}]}
        opponent: {hand: [Uncounterable Bolt]}
      actions:
        - cast: {card: Uncounterable Bolt, player: opponent, targets: [Dog Walker]}
          expect: {triggered: [Dog Walker], stack: 2}
        - resolve: {pay: false}
          expect: {stack: 1, Uncounterable Bolt: {zone: stack}}
        - resolve: 1
      expect: {Dog Walker: {zone: graveyard, revealed: true}}
    """,
    "leaving-a-two-player-game-ends-it-and-reveals-all": """
      setup:
        you: {battlefield: [{card: Exalted Angel, face_down: morph}]}
        opponent: {battlefield: [{card: Abzan Guide, face_down: morph}]}
      actions:
        - leave_game: you
      expect: {Exalted Angel: {revealed: true}, Abzan Guide: {revealed: true, zone: battlefield}}
    """,
    "bounced-face-down-creature-is-known-to-all": """
      setup: {you: {battlefield: [{card: Exalted Angel, face_down: morph}]}}
      actions:
        - bounce: Exalted Angel
      expect: {Exalted Angel: {zone: hand, revealed: true, visible_to: [you], known_to: [you, opponent]}}
    """,
}


def parse(name: str, body: str):
    check = f"- name: {name}\n  ruling: \"x\"\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "  ")
    return parse_checks(MY_CARDS + "checks:\n" + textwrap.indent(check, "  "), "tryout22.yaml", CARDS)


@pytest.mark.parametrize("name", CHECKS)
def test_tryout22_rules_model_check_passes(name: str) -> None:
    checks, problems = parse(name, CHECKS[name])
    assert problems == [] and len(checks) == 1, problems
    assert run_check(checks[0], CARDS) == []


def test_combat_damage_of_a_creature_that_is_not_attacking_is_refused_with_its_line() -> None:
    checks, problems = parse("not-attacking", """
      setup: {you: {battlefield: [Hill Giant]}}
      actions:
        - combat_damage: Hill Giant
      expect: {opponent: {life: 17}}
    """)
    assert problems == []
    failures = run_check(checks[0], CARDS)
    assert any("refused: Hill Giant is not an attacking creature" in f for f in failures), failures
