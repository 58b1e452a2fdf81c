"""Malformed check files (issue 15 item 9): each fault is one problem naming the file and line,
the rest of the file still parses and runs, and running a check never raises."""

from __future__ import annotations

import textwrap

import pytest

from kb.checks import load_cards
from kb.scenario import parse_checks, run_check

CARDS = load_cards()

GOOD = """
  - name: good
    ruling: "x"
    setup:
      you:
        library: [Grizzly Bears]
    actions:
      - manifest: you
    expect:
      Grizzly Bears: {face_down: true}
"""


def parse(bad: str):
    text = "checks:\n" + textwrap.indent(bad, "  ") + GOOD
    return parse_checks(text, "corpus/checks/t.yaml", CARDS)


@pytest.mark.parametrize(
    ("bad", "reason", "line"),
    [
        ("- name: bad-date\n  rules: 2018-13-45\n  ruling: x\n  expect: {stack: 0}\n", "invalid rules date", 2),
        ("- name: lib-int\n  ruling: x\n  setup: {you: {library: 5}}\n  expect: {stack: 0}\n", "must be a list", 4),
        ("- name: lib-nested\n  ruling: x\n  setup: {you: {library: [[X]]}}\n  expect: {stack: 0}\n", "name or a mapping", 4),
        (
            "- name: attached\n  ruling: x\n  setup: {you: {battlefield: [{card: Lightform, attached_to: Nobody}]}}\n"
            "  expect: {stack: 0}\n",
            "attached_to",
            4,
        ),
        ("- name: deep\n  ruling: x\n  expect: " + "[" * 300 + "]" * 300 + "\n", "nested deeper", 4),
        ("- name: bad-face-down\n  ruling: x\n  setup: {you: {battlefield: [{card: Grizzly Bears, face_down: sideways}]}}\n"
         "  expect: {stack: 0}\n", "face_down", 4),
        ("- name: bad-arg\n  ruling: x\n  actions: [{turn_face_up: {card: Nobody}}]\n  expect: {stack: 0}\n", "turn_face_up", 4),
        ("- name: bad-prop\n  ruling: x\n  setup: {you: {hand: [Shock]}}\n  expect: {Shock: {colour: red}}\n", "unknown property", 5),
    ],
)
def test_one_problem_with_file_and_line_and_the_rest_still_runs(bad: str, reason: str, line: int) -> None:
    checks, problems = parse(bad)
    assert len(problems) == 1, problems
    assert problems[0].source == "corpus/checks/t.yaml" and problems[0].line == line
    assert reason in problems[0].reason
    assert [c.name for c in checks] == ["good"] and run_check(checks[0], CARDS) == []


def test_deep_nesting_outside_a_check_is_one_problem() -> None:
    checks, problems = parse_checks("checks: " + "[" * 500 + "]" * 500, "t.yaml", CARDS)
    assert checks == [] and len(problems) == 1 and "nested deeper" in problems[0].reason


def test_running_a_check_never_raises() -> None:
    """A fault the parser did not foresee (here: a setup changed after parsing) is a failure."""
    from dataclasses import replace

    checks, _ = parse("")
    broken = replace(checks[0], setup={"you": {"battlefield": [{"card": "Lightform", "attached_to": "Nobody"}]}})
    failures = run_check(broken, CARDS)
    assert len(failures) == 1 and "could not run" in failures[0] and "t.yaml" in failures[0]


def test_cards_section_defines_cards_for_the_file() -> None:
    text = """
cards:
  - name: Test Morph
    mana_cost: '{2}{U}'
    types: [Creature]
    pt: 3/3
    morph: '{U}'
  - name: Grizzly Bears
    types: [Creature]
checks:
  - name: uses-local-card
    ruling: x
    setup: {you: {hand: [Test Morph]}}
    actions:
      - cast: {card: Test Morph, face_down: morph}
      - resolve: 1
      - turn_face_up: {card: Test Morph, by: morph}
        expect: {cost: '{U}', Test Morph: {power: 3}}
"""
    checks, problems = parse_checks(text, "t.yaml", CARDS)
    assert [p.line for p in problems] == [8] and "defined twice" in problems[0].reason
    assert run_check(checks[0], CARDS) == []
    assert "Test Morph" not in CARDS
