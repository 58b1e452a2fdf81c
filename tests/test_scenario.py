"""The scenario format: parsing (with file and line in every problem) and running."""

from __future__ import annotations

import textwrap

import pytest

from kb.checks.scenario import parse_checks
from tests.scenario_helpers import run_check
from kb.corpus import Corpus

CORPUS = Corpus.default()

CARDS = CORPUS.cards

GOOD = """
checks:
  - name: manifested-is-2-2
    ruling: "The face-down permanent is a 2/2 creature"
    setup:
      you:
        library: [Grizzly Bears]
    actions:
      - manifest: you
    expect:
      Grizzly Bears: {face_down: true, power: 2}
"""


def parse(text: str):
    return parse_checks(textwrap.dedent(text), "corpus/checks/t.yaml", CARDS)


def test_parses_a_check_with_a_stable_id() -> None:
    checks, problems = parse(GOOD)
    assert problems == [] and [c.id for c in checks] == ["t/manifested-is-2-2"]
    assert run_check(checks[0], CARDS) == []


def test_malformed_yaml_names_file_and_line() -> None:
    checks, problems = parse("checks:\n  - name: [unclosed\n")
    assert checks == [] and problems[0].source == "corpus/checks/t.yaml"
    assert problems[0].line is not None and "malformed YAML" in problems[0].reason


def test_unknown_action_and_unknown_card_are_problems_other_checks_still_parse() -> None:
    text = GOOD + """
  - name: bad-action
    ruling: "x"
    actions:
      - summon: you
    expect: {stack: 0}
  - name: bad-card
    ruling: "y"
    setup:
      you:
        library: [No Such Card]
    expect: {stack: 0}
"""
    checks, problems = parse(text)
    assert [c.name for c in checks] == ["manifested-is-2-2"]
    reasons = {p.line: p.reason for p in problems}
    assert any("unknown action 'summon'" in r for r in reasons.values())
    assert any("unknown card 'No Such Card'" in r for r in reasons.values())
    assert 16 in reasons and 22 in reasons  # the action's line, the library's line


def test_every_failed_expectation_is_reported() -> None:
    checks, _ = parse(GOOD.replace("{face_down: true, power: 2}", "{face_down: false, power: 3, zone: hand}"))
    failures = run_check(checks[0], CARDS)
    assert len(failures) == 3


def test_an_unexpectedly_illegal_action_fails_the_check() -> None:
    checks, _ = parse(GOOD.replace("- manifest: you", "- manifest: you\n      - turn_face_up: Grizzly Bears\n      - turn_face_up: Grizzly Bears"))
    failures = run_check(checks[0], CARDS)
    assert any("refused" in f for f in failures)


def test_step_expect_checks_legality() -> None:
    text = GOOD.replace(
        "- manifest: you",
        "- manifest: you\n      - turn_face_down: Grizzly Bears\n        expect: {happened: false}",
    )
    checks, problems = parse(text)
    assert problems == [] and run_check(checks[0], CARDS) == []


def test_expect_naming_no_card_or_player_is_a_problem() -> None:
    checks, problems = parse(GOOD.replace("Grizzly Bears: {face", "Grizzly Bear: {face"))
    assert checks == [] and "no card or player" in problems[0].reason


def test_every_action_and_expectation_property_is_documented() -> None:
    from pathlib import Path

    from kb.checks.scenario import _DRAFT_PROPS, _OBJECT_PROPS, ACTIONS

    doc = (Path(__file__).resolve().parent.parent / "docs" / "CHECKS.md").read_text(encoding="utf-8")
    assert [a for a in ACTIONS if f"`{a}`" not in doc] == []
    assert [p for p in [*_OBJECT_PROPS, *_DRAFT_PROPS] if f"`{p}`" not in doc] == []


def test_setup_is_validated_when_the_file_is_read() -> None:
    bad = GOOD.replace("library: [Grizzly Bears]", "library: [{card: Grizzly Bears, tapped: yes please}]")
    checks, problems = parse(bad)
    assert checks == [] and "tapped" in problems[0].reason and problems[0].line == 7


def test_every_vocabulary_word_is_documented() -> None:
    from pathlib import Path

    from kb.game.cards import (KEYWORD_ABILITIES, Affects, ContinuousKind, CounterKind, DraftLook, EffectKind, Layout,
                               Removal, Spend, SpendOnly, TargetKind, TriggerEvent)

    doc = (Path(__file__).resolve().parent.parent / "docs" / "CHECKS.md").read_text(encoding="utf-8")
    enums = (Affects, ContinuousKind, CounterKind, DraftLook, EffectKind, Layout, Removal, Spend, SpendOnly, TargetKind,
             TriggerEvent)
    words = [w.value for enum in enums for w in enum] + list(KEYWORD_ABILITIES)
    assert [w for w in words if w not in doc] == []


@pytest.mark.parametrize(
    "old, new, reason",
    [
        ("- manifest: you", "- add_counters: {card: Grizzly Bears, kind: loyalty}", "add_counters: kind"),
        ("- manifest: you", "- put_onto_battlefield: {cards: []}", "non-empty `cards`"),
        ("- manifest: you", "- choose_targets: {card: Grizzly Bears, targets: [Nobody]}", "targets"),
        ("- manifest: you", "- separate_into_piles: {player: nobody}", "player"),
        ("{face_down: true, power: 2}", "{counters_of: {loyalty: 1}}", "counters_of"),
        ("{face_down: true, power: 2}", "{counters_of: 2}", "must be a mapping"),
    ],
)
def test_new_actions_and_properties_are_checked_when_the_file_is_read(old: str, new: str, reason: str) -> None:
    checks, problems = parse(GOOD.replace(old, new))
    assert checks == [] and reason in problems[0].reason and problems[0].line is not None


def test_a_card_granting_an_unknown_keyword_ability_is_a_problem() -> None:
    text = GOOD.replace("checks:", """cards:
  - {name: Odd Djinn, types: [Creature], pt: 1/1, abilities: [{when: enters, effect: nothing, grants: [fading]}]}
checks:""", 1)
    _, problems = parse(text)
    assert any("can't grant 'fading'" in p.reason for p in problems)


def test_counters_of_reads_counters_by_kind() -> None:
    text = GOOD.replace("- manifest: you", "- manifest: you\n      - add_counters: {card: Grizzly Bears, kind: time, count: 2}")
    text = text.replace("{face_down: true, power: 2}", "{counters_of: {time: 2, +1/+1: 0}, power: 2}")
    checks, problems = parse(text)
    assert problems == [] and run_check(checks[0], CARDS) == []


@pytest.mark.parametrize(
    "zone_line, reason",
    [
        ("pack: [{card: Grizzly Bears, tapped: true}]", "only `as` and `face_up`"),
        ("pack: [{card: Grizzly Bears, face_up: true}]", "only a drafted card"),
    ],
)
def test_draft_setup_is_checked_when_the_file_is_read(zone_line: str, reason: str) -> None:
    checks, problems = parse(GOOD.replace("library: [Grizzly Bears]", zone_line))
    assert checks == [] and reason in problems[0].reason


def test_a_game_property_of_a_draft_card_is_a_problem() -> None:
    text = GOOD.replace("library: [Grizzly Bears]", "pack: [Grizzly Bears]").replace("- manifest: you", "- draft: Grizzly Bears")
    checks, problems = parse(text)
    assert checks == [] and "card of the draft" in problems[0].reason


# ---- tryout22 item 1: a card's colours come from its mana cost (202.2) ----------------------------


def _colour_check(card_keys: str, expect: str, *, face_down: str = "") -> list[str]:
    text = f"""
cards:
  - {{name: Colour Probe, types: [Creature], pt: 1/1, {card_keys}}}
checks:
  - name: colours
    ruling: x
    setup: {{you: {{battlefield: [{{card: Colour Probe{face_down}}}]}}}}
    expect: {{Colour Probe: {{colors: {expect}}}}}
"""
    checks, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    assert problems == [] and len(checks) == 1, problems
    return run_check(checks[0], CARDS)


@pytest.mark.parametrize(("card_keys", "colors"), [
    ("mana_cost: '{4}{W}{W}'", "[W]"),
    ("mana_cost: '{3}{R}'", "[R]"),
    ("mana_cost: '{1}{R}{G}'", "[R, G]"),
    ("mana_cost: '{R/W}{R/W}'", "[R, W]"),  # hybrid: both colours
    ("mana_cost: '{2/U}'", "[U]"),
    ("mana_cost: '{1}{W/P}'", "[W]"),  # phyrexian: its colour
    ("mana_cost: '{G/U/P}'", "[G, U]"),
    ("mana_cost: '{X}{C}{3}'", "[]"),  # generic, {X}, {C}: none
    ("mana_cost: '{S}'", "[]"),
    ("text: no mana cost", "[]"),
    ("mana_cost: '{2}{B}{B}', keywords: [devoid]", "[]"),  # 702.114a: colourless
    ("mana_cost: '{3}', colors: [W, U, B, R, G]", "[W, U, B, R, G]"),  # a colour indicator (204) wins
    ("mana_cost: '{U}', colors: []", "[]"),
])
def test_a_cards_colours_are_those_of_its_mana_cost_unless_given(card_keys: str, colors: str) -> None:
    assert _colour_check(card_keys, colors) == []


def test_a_face_down_card_stays_colourless() -> None:
    """708.2a: a face-down permanent has no colour, whatever its mana cost."""
    assert _colour_check("mana_cost: '{4}{W}{W}', morph: '{2}{W}{W}'", "[]", face_down=", face_down: morph") == []


def test_a_colour_that_is_no_colour_letter_is_a_problem() -> None:
    text = ("cards:\n  - {name: Red Probe, mana_cost: '{R}', types: [Creature], pt: 1/1, colors: [red]}\n"
            "checks:\n  - name: c\n    ruling: x\n    expect: {stack: 0}\n")
    _, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    assert [(p.line, p.reason) for p in problems] == [
        (2, "`colors` of 'Red Probe' are letters of W, U, B, R, G, not 'red'")]


# ---- tryout22 item 10: manifest dread is the player's choice (701.62a) ----------------------------


@pytest.mark.parametrize(("action", "expect"), [
    ("manifest_dread: you", "{Grizzly Bears: {zone: battlefield}}"),
    ("manifest_dread: you", "{legal: false}"),  # incomplete, not illegal: `legal: false` can't pass it
])
def test_manifest_dread_of_two_cards_without_a_choice_fails_naming_the_line(action: str, expect: str) -> None:
    checks, problems = parse(f"""
        checks:
          - name: dread
            ruling: x
            setup: {{you: {{library: [Grizzly Bears, Shock]}}}}
            actions:
              - {action}
                expect: {expect}
        """)
    assert problems == []
    assert run_check(checks[0], CARDS) == [
        "line 7 (manifest_dread): a choice is missing: manifest dread by you looks at Grizzly Bears and Shock; "
        "the player chooses the one to manifest (701.62a): name it"]


@pytest.mark.parametrize(("library", "action", "manifested"), [
    ("[Grizzly Bears, Shock]", "{manifest_dread: {choose: Shock}}", "Shock"),
    ("[Grizzly Bears]", "{manifest_dread: you}", "Grizzly Bears"),  # one card looked at: nothing to choose
])
def test_manifest_dread_manifests_the_chosen_card(library: str, action: str, manifested: str) -> None:
    checks, problems = parse(f"""
        checks:
          - name: dread
            ruling: x
            setup: {{you: {{library: {library}}}}}
            actions: [{action}]
            expect: {{{manifested}: {{zone: battlefield, face_down_by: manifest}}}}
        """)
    assert problems == [] and run_check(checks[0], CARDS) == []


# ---- session 37: every "look at ..., choose one of them" effect is the player's choice (608.2d) --------


CLONE_SHELL = """
    checks:
      - name: shell
        ruling: x
        setup: {{you: {{hand: [Clone Shell], library: {library}}}}}
        actions:
          - cast: Clone Shell
          - resolve: 1
          - {resolve}
            expect: {expect}
    """


@pytest.mark.parametrize("expect", ["{Grizzly Bears: {zone: exile}}", "{legal: false}"])
def test_clone_shell_without_a_choice_fails_naming_the_line(expect: str) -> None:
    """tryout22 item 10's leftover: Clone Shell exiled the top card when the check named none."""
    library = "[Shock, Divination, Forest, Grizzly Bears, Ornithopter]"
    checks, problems = parse(CLONE_SHELL.format(library=library, resolve="resolve: 1", expect=expect))
    assert problems == []
    assert run_check(checks[0], CARDS) == [
        "line 9 (resolve): a choice is missing: Clone Shell's ability looks at Shock, Divination, Forest and "
        "Grizzly Bears; the player chooses the one to exile face down (608.2d): name it"]


@pytest.mark.parametrize(("library", "resolve", "exiled"), [
    ("[Shock, Divination, Forest, Grizzly Bears, Ornithopter]", "resolve: {choice: Grizzly Bears}", "Grizzly Bears"),
    ("[Shock, Divination, Forest, Grizzly Bears, Ornithopter]", "resolve: {choice: [Forest]}", "Forest"),
    ("[Ornithopter]", "resolve: 1", "Ornithopter"),  # one card looked at: nothing to choose
])
def test_clone_shell_exiles_the_chosen_card(library: str, resolve: str, exiled: str) -> None:
    checks, problems = parse(CLONE_SHELL.format(library=library, resolve=resolve,
                                                expect=f"{{{exiled}: {{zone: exile, face_down: true}}}}"))
    assert problems == [] and run_check(checks[0], CARDS) == []


@pytest.mark.parametrize(("library", "resolve", "refusal"), [
    # the fifth card, not looked at
    ("[Shock, Divination, Forest, Grizzly Bears, Ornithopter]", "resolve: {choice: Ornithopter}",
     "Clone Shell's ability looks at Shock, Divination, Forest and Grizzly Bears, not Ornithopter"),
    ("[Ornithopter]", "resolve: {choice: Shock}", "Clone Shell's ability looks at Ornithopter, not Shock"),
    ("[Shock, Divination, Forest, Grizzly Bears]", "resolve: {choice: [Shock, Forest]}",
     "Clone Shell's ability looks at Shock, Divination, Forest and Grizzly Bears and chooses one of them to "
     "exile face down, not Shock and Forest"),
])
def test_clone_shell_refuses_a_choice_of_a_card_it_does_not_look_at(library: str, resolve: str, refusal: str) -> None:
    # refused, and the state is as it was: the ability still on the stack, every card in the library
    expect = "{stack: 1, you: {library: %d}}" % (library.count(",") + 1)
    checks, problems = parse(CLONE_SHELL.format(library=library, resolve=resolve, expect=expect))
    assert problems == []
    assert run_check(checks[0], CARDS) == [f"line 9 (resolve): refused: {refusal}"]
    checks, _ = parse(CLONE_SHELL.format(library=library, resolve=resolve, expect="{legal: false, " + expect[1:]))
    assert run_check(checks[0], CARDS) == []


@pytest.mark.parametrize(("setup", "action", "refusal"), [
    ("{you: {library: [Grizzly Bears]}, opponent: {library: [Shock]}}", "manifest_dread: {choose: Shock}",
     "line 7 (manifest_dread): refused: manifest dread by you looks at Grizzly Bears, not Shock"),
    ("{you: {library: [Grizzly Bears], hand: [Unwanted Remake], battlefield: [Ornithopter]}}",
     "cast: {card: Unwanted Remake, targets: [Ornithopter]}\n              - resolve: {choice: [Shock]}",
     "line 8 (resolve): refused: manifest dread by you looks at Grizzly Bears, not Shock"),
])
def test_manifest_dread_of_one_card_refuses_a_choice_naming_another(setup: str, action: str, refusal: str) -> None:
    """Review of session 36, left: with one card looked at, a choice naming another card was accepted."""
    checks, problems = parse(f"""
        checks:
          - name: dread
            ruling: x
            setup: {setup}
            actions:
              - {action}
                expect: {{Grizzly Bears: {{zone: library}}}}
        """)
    assert problems == []
    assert run_check(checks[0], CARDS) == [refusal]


def test_a_card_whose_owner_left_the_game_is_outside() -> None:
    """The zone value `outside` (800.4a), as docs/CHECKS.md lists it."""
    checks, problems = parse("""
        checks:
          - name: left
            ruling: x
            setup:
              players: [you, opponent, third]
              opponent: {battlefield: [Grizzly Bears]}
            actions: [{leave_game: opponent}]
            expect: {Grizzly Bears: {zone: outside}}
        """)
    assert problems == [] and run_check(checks[0], CARDS) == []


def test_playable_expectation_is_whether_the_permission_holds_now_607_2a() -> None:
    """`playable` reports whether an effect lets its player play the card now: a permission that lasts
    while its source stays on the battlefield (607.2a: Intet's "for as long as Intet remains on the
    battlefield") ends as that source leaves, though the card stays exiled and seen (406.3)."""
    checks, problems = parse("""
        checks:
          - name: intet-leaves
            ruling: "x"
            setup:
              you:
                battlefield: ["Intet, the Dreamer"]
                library: [Grizzly Bears]
            actions:
              - combat_damage: {card: "Intet, the Dreamer", to_player: true}
              - resolve: {choice: true}
                expect: {Grizzly Bears: {playable: true}}
              - destroy: "Intet, the Dreamer"
            expect:
              Grizzly Bears: {zone: exile, visible_to: [you], playable: false}
        """)
    assert problems == [] and run_check(checks[0], CARDS) == []
