"""Malformed check files (issue 15 item 9): each fault is one problem naming the file and line,
the rest of the file still parses and runs, and running a check never raises."""

from __future__ import annotations

import textwrap

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.checks.scenario import Check, parse_checks
from tests.scenario_helpers import run_check
from kb.corpus import Corpus

CORPUS = Corpus.default()

CARDS = CORPUS.cards

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
        # the date's own line (review49 L2), not the check's
        ("- name: bad-date\n  rules: 2018-13-45\n  ruling: x\n  expect: {stack: 0}\n", "invalid rules date", 3),
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
        # issue 16: everything a run needs is checked when the file is read
        ("- name: too-new\n  ruling: x\n  rules: 2014-11-24\n  setup: {you: {battlefield: [{card: Dog Walker, face_down: disguise}]}}\n"
         "  expect: {stack: 0}\n", "disguise does not exist in the rules of 2014-11-24", 5),
        ("- name: morph-in-command\n  ruling: x\n  setup: {you: {command: [{card: Abzan Guide, face_down: morph}]}}\n"
         "  expect: {stack: 0}\n", "hidden_agenda", 4),
        ("- name: agenda-on-battlefield\n  ruling: x\n  setup: {you: {battlefield: [{card: Abzan Guide, face_down: hidden_agenda}]}}\n"
         "  expect: {stack: 0}\n", "hidden_agenda", 4),
        ("- name: attached-to-itself\n  ruling: x\n  setup: {you: {battlefield: [{card: Lightform, attached_to: Lightform}]}}\n"
         "  expect: {stack: 0}\n", "itself", 4),
        ("- name: legal-outside-a-step\n  ruling: x\n  expect: {legal: true}\n", "only makes sense in an action", 4),
        ("- name: player-prop\n  ruling: x\n  expect: {you: {lives: 3}}\n", "unknown player property 'lives'", 4),
        ("- name: stack-text\n  ruling: x\n  expect: {stack: two}\n", "`stack` is a number", 4),
        ("- name: triggered-scalar\n  ruling: x\n  expect: {triggered: 3}\n", "`triggered` lists card names", 4),
        ("- name: turn-up-way\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {can_turn_face_up: {sideways: true}}}\n", "can_turn_face_up: 'sideways'", 5),
        ("- name: cost-plain\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {turn_face_up_cost: '{2}'}}\n", "turn_face_up_cost must be a mapping", 5),
        ("- name: pairwise-nobody\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {shares_name_with: {Nobody: false}}}\n", "shares_name_with: 'Nobody' is not a CARD", 5),
        ("- name: has-scalar\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {has: flying}}\n", "has must be a list", 5),
        ("- name: resolve-twice\n  ruling: x\n  actions: [{resolve: 2}]\n  expect: {stack: 0}\n", "not a 1|all", 4),
        ("- name: cast-manifest\n  ruling: x\n  setup: {you: {hand: [Grizzly Bears]}}\n"
         "  actions: [{cast: {card: Grizzly Bears, face_down: manifest}}]\n  expect: {stack: 0}\n", "face_down: 'manifest'", 5),
        ("- name: turn-up-sideways\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  actions: [{turn_face_up: {card: Grizzly Bears, by: sideways}}]\n  expect: {stack: 0}\n", "by: 'sideways'", 5),
        ("- name: pt-words\n  ruling: x\n  setup: {you: {hand: [Grizzly Bears]}}\n"
         "  actions: [{put_face_down_as: {card: Grizzly Bears, pt: big, types: [Creature]}}]\n  expect: {stack: 0}\n",
         "pt: 'big' is not a P/T", 5),
        ("- name: keywords-number\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  actions: [{grant: {card: Grizzly Bears, keywords: 5}}]\n  expect: {stack: 0}\n", "keywords: 5", 5),
        # tryout22 item 3: a misspelt keyword is no keyword: granted, it would do nothing; `lacks` it, pass on every run
        ("- name: grant-typo\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  actions: [{grant: {card: Grizzly Bears, keywords: [flyng]}}]\n  expect: {stack: 0}\n",
         "grant: add_keywords: unknown keyword 'flyng' (did you mean 'flying'", 5),
        ("- name: effect-keyword-typo\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  actions: [{effect: {card: Grizzly Bears, kind: remove_keywords, value: [vigilence]}}]\n  expect: {stack: 0}\n",
         "unknown keyword 'vigilence' (did you mean 'vigilance'", 5),
        ("- name: lacks-typo\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {lacks: [flyng]}}\n", "Grizzly Bears.lacks: unknown keyword 'flyng'", 5),
        ("- name: has-typo\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  expect: {Grizzly Bears: {has: [trampel]}}\n", "unknown keyword 'trampel' (did you mean 'trample'", 5),
        # tryout22 item 2: `copy_of` with no card that may enter as a copy would be ignored
        ("- name: copy-without-clone\n  ruling: x\n  setup: {you: {hand: [Runeclaw Bear], battlefield: [Grizzly Bears]}}\n"
         "  actions: [{cast: Runeclaw Bear}, {resolve: {copy_of: Grizzly Bears}}]\n  expect: {stack: 0}\n",
         "resolve: `copy_of` is the choice of a card that may enter as a copy, and no card of the setup can", 5),
        ("- name: effect-value\n  ruling: x\n  setup: {you: {battlefield: [Grizzly Bears]}}\n"
         "  actions: [{effect: {card: Grizzly Bears, kind: set_pt, value: huge}}]\n  expect: {stack: 0}\n",
         "power/toughness", 5),
        ("- name: other-to\n  ruling: x\n  setup: {you: {library: [Grizzly Bears, Shock]}}\n"
         "  actions: [{manifest_one_of_top_two: {choose: Shock, other_to: middle}}]\n  expect: {stack: 0}\n",
         "other_to: 'middle'", 5),
    ],
)
def test_one_problem_with_file_and_line_and_the_rest_still_runs(bad: str, reason: str, line: int) -> None:
    checks, problems = parse(bad)
    assert len(problems) == 1, problems
    assert problems[0].source == "corpus/checks/t.yaml" and problems[0].line == line
    assert reason in problems[0].reason
    assert [c.name for c in checks] == ["good"] and run_check(checks[0], CARDS) == []


@pytest.mark.parametrize(("card_keys", "reason"), [
    ("keywords: [flyng, lifelink]", "`keywords` of 'Probe': unknown keyword 'flyng' (did you mean 'flying' or"),
    ("keywords: [morph]", "morph is the card's `morph:` key with its cost"),
    ("enchanted_has: [hast]", "`enchanted_has` of 'Probe': unknown keyword 'hast' (did you mean 'haste'"),
    ("static: [{affects: creatures_you_control, kind: add_keywords, value: [reech]}]", "unknown keyword 'reech'"),
])
def test_an_unknown_keyword_of_a_card_is_a_problem_at_its_line(card_keys: str, reason: str) -> None:
    """tryout22 item 3: `flyng` would be an ability that does nothing, the card silently lacking flying."""
    text = (f"cards:\n  - name: Other\n    types: [Creature]\n  - {{name: Probe, types: [Creature], pt: 1/1, {card_keys}}}\n"
            "checks:\n  - name: c\n    ruling: x\n    setup: {you: {battlefield: [Probe]}}\n    expect: {stack: 0}\n")
    checks, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    assert checks == [] and [p.line for p in problems] == [4, 8], problems
    assert reason in problems[0].reason and "card 'Probe' is left out" in problems[1].reason


@pytest.mark.parametrize("card", [
    # smoke51 L4: the problem was reported at the card's first line, eight lines above the keys that said it
    """    abilities:
      - when: combat_damage_to_player
        effect: exile_card_face_down
        from: library
        that_player: true
        target: opponent  # <-
""",
    """    abilities:
      - when: enters
        effect: destroy
        filter:
          types: [Creature]
          face_down: maybe  # <-
""",
    """    static:
      - affects: creatures_you_control
        kind: pump_everything  # <-
""",
    """    keywords: [flying]
    pt: big  # <-
""",
])
def test_a_card_problem_is_at_the_line_of_the_key_that_says_it(card: str) -> None:
    text = ("cards:\n  - name: Probe\n    types: [Creature]\n" + card
            + "checks:\n  - name: c\n    ruling: x\n    setup: {you: {battlefield: [Probe]}}\n    expect: {stack: 0}\n")
    checks, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row.endswith("# <-"))
    assert checks == [] and problems[0].line == line, problems


def test_real_keywords_with_their_parameters_are_accepted() -> None:
    keywords = ["flying", "Lifelink", "ward {2}", "protection from red", "crew 1", "forestwalk", "enchant creature",
                "can't be countered", "hexproof from blue", "first strike", "prowess", "vanishing 3"]
    text = (f"cards:\n  - {{name: Probe, types: [Creature], pt: 1/1, keywords: {keywords!r}}}\n"
            "checks:\n  - name: c\n    ruling: x\n    setup: {you: {battlefield: [Probe]}}\n"
            "    expect: {Probe: {has: [flying, 'ward {2}', protection from red]}}\n")
    checks, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    assert problems == [] and run_check(checks[0], CARDS) == []


@pytest.mark.parametrize("keyword", ["Ward—Pay 3 life", "cumulative upkeep—pay 1 life", "swampcycling {2}",
                                     "basic landcycling {1}{B}", "bands with other Legends", "warp {1}{R}",
                                     "start your engines!", "station"])
def test_keywords_with_a_dashed_cost_typecycling_and_new_sets_are_accepted(keyword: str) -> None:
    """Review of session 36: the keyword list (CR of 2024-11-08) refused keywords of the corpus's current
    CR (Warp, Station...), typecycling and a cost after a dash, and a refused keyword drops its card."""
    from kb.game.cards import keyword_problem

    assert keyword_problem(keyword) is None


def test_every_keyword_heading_of_the_current_cr_is_a_keyword() -> None:
    """A CR update that adds keywords (702.x headings) fails here until KEYWORDS learns them."""
    import re

    from kb.game.cards import keyword_problem

    current = max(p for p in CORPUS.folder.glob("rules/CR-*.txt") if "extract" not in p.name)
    text = current.read_text(encoding="utf-8")
    headings = [h for n, h in re.findall(r"^702\.(\d+)\. (.+?)\s*$", text, re.M) if n != "1"]
    assert len(headings) > 150
    refused = [h for h in headings if keyword_problem(h.replace(" (Infinity)", "")) is not None]
    assert refused == ["Morph", "Disguise"]  # the card's `morph:` and `disguise:` keys


def test_copy_of_on_a_spell_that_cant_enter_as_a_copy_is_refused_with_the_reason() -> None:
    """tryout22 item 2: a Clone is in the setup, but the spell resolving is a Bear: the choice can't
    apply, so the action is refused (not ignored, the Bear entering as itself)."""
    checks, problems = parse_checks(
        "checks:\n  - name: c\n    ruling: x\n"
        "    setup: {you: {hand: [Runeclaw Bear, Clone], battlefield: [Grizzly Bears]}}\n"
        "    actions:\n      - cast: Runeclaw Bear\n      - resolve: {copy_of: Grizzly Bears}\n"
        "    expect: {Runeclaw Bear: {zone: battlefield}}\n", "corpus/checks/t.yaml", CARDS)
    assert problems == []
    assert run_check(checks[0], CARDS) == [
        "line 7 (resolve): refused: Runeclaw Bear can't enter as a copy of Grizzly Bears: it has no \"enter as a copy\" "
        "ability (a Clone's `enters_as_copy: true`; a face-down spell has none, 708.2a)",
        "line 8: Runeclaw Bear.zone: expected 'battlefield', got 'stack'",
    ]


def test_deep_nesting_outside_a_check_is_one_problem() -> None:
    checks, problems = parse_checks("checks: " + "[" * 500 + "]" * 500, "t.yaml", CARDS)
    assert checks == [] and len(problems) == 1 and "nested deeper" in problems[0].reason


def test_running_a_check_never_raises() -> None:
    """A fault the parser did not foresee (here: a setup changed after parsing) is a failure."""
    from dataclasses import replace

    from kb.game import Zone
    from kb.checks.scenario import Placed

    checks, _ = parse("")
    broken = replace(checks[0], placed=(Placed("Lightform", "Lightform", "you", Zone.BATTLEFIELD, 3, attached_to="Nobody"),))
    failures = run_check(broken, CARDS)
    assert failures == ["corpus/checks/t.yaml:3: setup refused: no card called 'Nobody'"]


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
    assert [p.line for p in problems] == [8] and "already defined in corpus/cards" in problems[0].reason
    assert run_check(checks[0], CARDS) == []
    assert "Test Morph" not in CARDS


# ---- fuzzing: any text, any structure --------------------------------------------------------


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.text(max_size=12),
                     st.sampled_from(["Grizzly Bears", "Abzan Guide", "you", "opponent", "morph", "all", "1",
                                      "battlefield", "exile", "2018-13-45", "5/1"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["card", "as", "face_down", "player", "to", "by", "choice", "targets", "kind", "value", "library",
         "hand", "battlefield", "exile", "command", "zone", "power", "visible_to", "legal", "you"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=_VALUES, actions=st.lists(st.dictionaries(st.sampled_from(
    ["cast", "resolve", "turn_face_up", "manifest", "exile", "effect", "attack", "block", "counter",
     "manifest_dread", "put_face_down_as", "move", "activate", "expect"]), _VALUES, min_size=1, max_size=2),
    max_size=4), expect=_VALUES)
def test_any_check_structure_is_a_problem_or_a_result_never_an_exception(setup, actions, expect) -> None:
    text = yaml.safe_dump({"checks": [{"name": "fuzz", "ruling": "x", "setup": setup, "actions": actions,
                                       "expect": expect}]})
    checks, problems = parse_checks(text, "fuzz.yaml", CARDS)
    assert all(p.source == "fuzz.yaml" for p in problems)
    for check in checks:
        # a check that parsed runs to a verdict: no fault the parser let through (issue 16)
        assert [f for f in run_check(check, CARDS) if "could not run" in f] == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_a_problem_or_checks_never_an_exception(text: str) -> None:
    checks, problems = parse_checks(text, "fuzz.yaml", CARDS)
    assert checks == [] or problems is not None


def test_a_setup_the_rules_date_rules_out_is_a_failed_check_not_an_error() -> None:
    """A check written for today's rules, run under 2014's: disguise doesn't exist yet, so the
    setup is refused, and that is the check's failure (issue 16)."""
    checks, problems = parse_checks(
        "checks:\n  - name: disguised\n    ruling: x\n"
        "    setup: {you: {battlefield: [{card: Dog Walker, face_down: disguise}]}}\n"
        "    expect: {Dog Walker: {face_down: true}}\n",
        "corpus/checks/t.yaml",
        CARDS,
    )
    assert problems == [] and run_check(checks[0], CARDS) == []
    assert run_check(checks[0], CARDS, "2014-11-24") == [
        "corpus/checks/t.yaml:2: setup refused: disguise does not exist in the rules of 2014-11-24"
    ]


def _one_check(body: str) -> Check:
    checks, problems = parse_checks("checks:\n  - name: c\n    ruling: x\n" + body, "corpus/checks/t.yaml", CARDS)
    assert problems == [], problems
    return checks[0]


@pytest.mark.parametrize("body, mechanic", [
    ("    setup: {you: {battlefield: [{card: Dog Walker, face_down: disguise}]}}\n"
     "    expect: {Dog Walker: {face_down: true}}\n", "disguise"),
    ("    setup: {you: {library: [Grizzly Bears]}}\n    actions:\n      - cloak: you\n    expect: {stack: 0}\n", "cloak"),
    ("    setup: {you: {battlefield: [{card: Stratus Dancer, face_down: morph}]}}\n"
     "    expect: {Stratus Dancer: {can_turn_face_up: {morph: true, megamorph: true}}}\n", "megamorph"),
])
def test_a_check_about_a_mechanic_the_rules_of_the_date_lack_does_not_apply(body: str, mechanic: str) -> None:
    """A judge's report: `kb check --rules 2014-11-24` failed 25 checks about megamorph, disguise
    and cloak; under rules that lack a mechanic a check about it is not applicable, not failed."""
    from kb.checks.scenario import check_verdict

    check = _one_check(body)
    assert check_verdict(check, CARDS).failures == [] and check_verdict(check, CARDS).not_applicable is None
    verdict = check_verdict(check, CARDS, "2014-11-24")
    assert verdict.failures == [] and verdict.not_applicable == f"{mechanic} does not exist in the rules of 2014-11-24"


def test_an_effect_on_no_card_is_a_parse_problem_not_a_fault() -> None:
    """Found by the fuzz test: `effect: {kind: …, cards: []}` parsed, then the run failed with
    "check could not run: KeyError: 'card'"."""
    _, problems = parse_checks("checks:\n  - name: c\n    ruling: x\n    setup: {you: {battlefield: [Grizzly Bears]}}\n"
                               "    actions:\n      - effect: {kind: pt_face_down_creatures, cards: []}\n"
                               "    expect: {stack: 0}\n", "corpus/checks/t.yaml", CARDS)
    assert [(p.line, p.reason) for p in problems] == [(6, "check 'c': effect: needs `card` or a non-empty `cards`")]


def test_a_check_that_fails_under_old_rules_still_fails() -> None:
    """Not applicable is only for a missing mechanic: morph existed in 2014, so a wrong expectation fails."""
    from kb.checks.scenario import check_verdict

    check = _one_check("    setup: {you: {battlefield: [{card: Stratus Dancer, face_down: morph}]}}\n"
                       "    expect: {Stratus Dancer: {power: 3}}\n")
    verdict = check_verdict(check, CARDS, "2014-11-24")
    assert verdict.not_applicable is None and verdict.failures


# ---- fuzzing well-formed checks: the table's own argument types ---------------------------------


_SETUP = {
    "you": {
        "library": ["Grizzly Bears", "Abzan Guide", "Shock", "Delver of Secrets"],
        "hand": ["Icefeather Aven", "Ixidron", "Clone", "Lightform"],
        "battlefield": [{"card": "Dog Walker", "face_down": "disguise"}, "Soul Warden", "Primordial Mist",
                        {"card": "Runeclaw Bear", "face_down": "manifest"}],
        "exile": [{"card": "Divination", "face_down": "effect", "may_look": ["you"], "playable": True}],
        "command": [{"card": "Brago's Favor", "face_down": "hidden_agenda", "named": "Shock"}],
    },
    "opponent": {"battlefield": [{"card": "Stratus Dancer", "face_down": "megamorph"}, "Willbender"],
                 "hand": ["Ethereal Ambush"]},
}
_LABELS = ["Grizzly Bears", "Abzan Guide", "Shock", "Delver of Secrets", "Icefeather Aven", "Ixidron", "Clone",
           "Lightform", "Dog Walker", "Soul Warden", "Primordial Mist", "Runeclaw Bear", "Divination",
           "Brago's Favor", "Stratus Dancer", "Willbender", "Ethereal Ambush"]


def _arg_values(kind):
    from kb.game import ContinuousKind, CounterKind, FaceDownWay, TurnUpWay, Zone
    from kb.game.state import CAST_FACE_DOWN
    from kb.checks.scenario import Arg

    label = st.sampled_from(_LABELS)
    player = st.sampled_from(["you", "opponent"])
    return {
        Arg.CARD: label, Arg.CARDS: st.lists(label, max_size=2), Arg.PLAYER: player,
        Arg.PLAYERS: st.lists(player, max_size=2), Arg.ZONE: st.sampled_from([z.value for z in Zone]),
        Arg.INT: st.integers(0, 3), Arg.BOOL: st.booleans(),
        Arg.CAST_WAY: st.sampled_from([w.value for w in CAST_FACE_DOWN]),
        Arg.FACE_DOWN_WAY: st.sampled_from([w.value for w in FaceDownWay]),
        Arg.TURN_UP_WAY: st.sampled_from([w.value for w in TurnUpWay]),
        Arg.KIND: st.sampled_from([k.value for k in ContinuousKind]),
        Arg.COUNTER_KIND: st.sampled_from([k.value for k in CounterKind]),
        Arg.NAMES: st.sampled_from(["Creature", ["Artifact", "Creature"], "flying"]),
        Arg.PT: st.sampled_from(["5/5", "0/1"]), Arg.TIMES: st.sampled_from([1, "all"]),
        Arg.TOP_OR_BOTTOM: st.sampled_from(["top", "bottom"]),
        Arg.ANY: st.one_of(label, st.sampled_from([None, "face down", "1/5", 2, "2/2", [1, 1]])),
        Arg.TEXT: st.sampled_from(["x", "1"]),
        Arg.TARGETS: st.lists(st.one_of(label, player), max_size=2),
        Arg.INTS: st.one_of(st.integers(0, 3), st.lists(st.integers(0, 3), max_size=2)),
        Arg.CAST: st.fixed_dictionaries({}, optional={"targets": st.lists(st.one_of(label, player), max_size=2),
                                                     "x": st.integers(0, 3), "mode": st.integers(1, 3)}),
    }[kind]


@st.composite
def _steps(draw):
    from kb.checks.scenario import ACTIONS

    name = draw(st.sampled_from(sorted(ACTIONS)))
    schema = ACTIONS[name].args
    keys = draw(st.lists(st.sampled_from(list(schema) or ["-"]), unique=True, max_size=3)) if schema else []
    args = {k: draw(_arg_values(schema[k])) for k in {*keys, *ACTIONS[name].required}}
    step = {name: args or None}
    if draw(st.booleans()):
        prop = draw(st.sampled_from(["zone", "face_down", "power", "can_turn_face_up", "visible_to",
                                     "shares_name_with", "turn_face_up_cost", "has"]))
        value = {"shares_name_with": {"Grizzly Bears": True}, "turn_face_up_cost": {"morph": None},
                 "can_turn_face_up": {"mana": True, "disguise": False}, "has": ["flying"]}.get(prop, True)
        step["expect"] = {draw(st.sampled_from(_LABELS)): {prop: value}, "stack": 0, "triggered": [],
                          "you": {"life": 20, "top_card": None}}
    return step


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(_steps(), min_size=1, max_size=6), rules=st.sampled_from([None, "2014-11-24", "2018-07-13"]))
def test_any_well_typed_check_runs_to_a_verdict(steps, rules) -> None:
    """Checks built from the action table's own argument types, on a setup with every kind of
    face-down card: each one parses or is a problem, and running one never hits a fault the
    parser let through, under any rules date (issue 16: `kb check` exited 2 on IllegalAction)."""
    text = yaml.safe_dump({"checks": [{"name": "fuzz", "ruling": "x", "setup": _SETUP, "actions": steps,
                                       "expect": {"stack": 0}}]})
    checks, problems = parse_checks(text, "fuzz.yaml", CARDS)
    for check in checks:
        failures = run_check(check, CARDS, rules)
        assert [f for f in failures if "could not run" in f] == []


def test_a_failed_expectation_names_its_own_line_not_the_check_s() -> None:
    """tryout11: `kb check` said "line 2" (where the check starts) for an expectation on line 10."""
    text = textwrap.dedent("""\
        checks:
          - name: wrong power
            ruling: "x"
            setup:
              you:
                library: [Grizzly Bears]
            actions:
              - manifest: you
                expect:
                  Grizzly Bears: {face_down: true, power: 3}
            expect:
              stack: 0
              you: {life: 20}
              Grizzly Bears:
                power: 5
        """)
    checks, problems = parse_checks(text, "corpus/checks/t.yaml", CARDS)
    assert problems == []
    failures = run_check(checks[0], CARDS)
    assert failures == ["line 10 (manifest): Grizzly Bears.power: expected 3, got 2",
                        "line 15: Grizzly Bears.power: expected 5, got 2"]


def test_failure_messages_show_values_as_the_check_file_writes_them() -> None:
    """Try-out 22: failures read `expected False, got True` and `expected None` (Python), not YAML."""
    text = textwrap.dedent("""\
        checks:
          - name: wrong on purpose
            ruling: "x"
            setup:
              you:
                battlefield: [Grizzly Bears]
            expect:
              Grizzly Bears: {face_down: true, name: null, keywords: [flying], zone: graveyard}
        """)
    checks, problems = parse_checks(text, "t.yaml", CARDS)
    assert problems == []
    assert sorted(run_check(checks[0], CARDS)) == [
        "line 8: Grizzly Bears.face_down: expected true, got false",
        "line 8: Grizzly Bears.keywords: expected [flying], got []",
        "line 8: Grizzly Bears.name: expected null, got 'Grizzly Bears'",
        "line 8: Grizzly Bears.zone: expected 'graveyard', got 'battlefield'"]


def test_an_unknown_card_key_gets_a_did_you_mean() -> None:
    text = textwrap.dedent("""\
        cards:
          - {name: Typo Card, types: [Creature], pt: 2/2, disgiuse: '{1}{W}'}
        checks: []
        """)
    _, problems = parse_checks(text, "t.yaml", CARDS)
    assert any("unknown key(s) disgiuse in card 'Typo Card' ('disgiuse': did you mean 'disguise'?)" in str(p)
               for p in problems), problems
