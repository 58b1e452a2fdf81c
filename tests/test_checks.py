"""Check files, attaching checks to entries, running them, and the rules-date differences."""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

import pytest
import yaml

from kb.checks import attach_checks, load_checks, match_entries, normalise_quote, run_checks
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.checks.scenario import Check, Verdict, check_verdict
from tests.scenario_helpers import run_check
from kb.corpus import Corpus

CORPUS = Corpus.default()

CARDS = CORPUS.cards
CHECKS, PROBLEMS = load_checks(CORPUS.check_files(), CORPUS.cards)


def test_bundled_checks_load_without_problems() -> None:
    assert PROBLEMS == [] and len(CHECKS) >= 20


def test_every_bundled_check_passes_under_its_own_rules() -> None:
    failed = {r.id: r.failures for r in run_checks(CHECKS, cards=CORPUS.cards) if not r.passed}
    assert failed == {}


def test_every_bundled_check_not_dated_earlier_passes_under_current_rules() -> None:
    current = [c for c in CHECKS if c.rules is None]
    assert all(r.passed for r in run_checks(current, "2026-01-16", cards=CORPUS.cards))


_THIEF_CHECK = """checks:
  - name: thief
    ruling: "Once a player is allowed to look at the exiled face-down cards, that player may continue to do so"
    {dates}
    setup:
      you: {{battlefield: [Grimoire Thief], hand: [Grizzly Bears]}}
    actions:
      - move: {{card: Grizzly Bears, to: exile, face_down: true, by: Grimoire Thief}}
      - destroy: Grimoire Thief
    expect: {{Grizzly Bears: {expect}}}
"""


def _thief(tmp_path: Any, dates: str, expect: str) -> Check:
    path = tmp_path / "dated.yaml"
    path.write_text(_THIEF_CHECK.format(dates=dates, expect=expect), encoding="utf-8")
    checks, problems = load_checks([path], CORPUS.cards)
    assert problems == []
    return checks[0]


def test_a_check_that_a_later_rule_contradicts_holds_until_it_and_does_not_apply_after(tmp_path: Any) -> None:
    """A ruling the current rules contradict (Shared Fate's of 2008: you can't look at the card once its
    Shared Fate left; 406.3 since 2013: you may): its check runs under its own date, and under a date
    from `holds_until` on it is expected to fail: not applicable, not a failure; one that passes there
    is a failure (the date is wrong)."""
    old = _thief(tmp_path, "rules: 2012-06-01\n    holds_until: 2013-01-24", "{visible_to: []}")
    assert check_verdict(old, CORPUS.cards) == Verdict([])
    now = check_verdict(old, CORPUS.cards, "2026-01-16")
    assert now.failures == [] and "holds_until" in (now.not_applicable or "")
    assert "the ruling no longer holds under the rules of 2026-01-16" in (now.not_applicable or "")  # tryout50 D7
    still = _thief(tmp_path, "rules: 2012-06-01\n    holds_until: 2013-01-24", "{zone: exile}")
    wrong = check_verdict(still, CORPUS.cards, "2026-01-16")
    assert wrong.not_applicable is None and "date is wrong" in wrong.failures[0]


def test_a_check_of_a_newer_rule_holds_since_it_and_does_not_apply_before(tmp_path: Any) -> None:
    new = _thief(tmp_path, "holds_since: 2013-01-24", "{visible_to: [you]}")
    assert check_verdict(new, CORPUS.cards) == Verdict([])
    before = check_verdict(new, CORPUS.cards, "2012-06-01")
    assert before.failures == [] and "holds_since" in (before.not_applicable or "")


def test_a_check_dated_outside_what_it_holds_under_is_a_problem(tmp_path: Any) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text(_THIEF_CHECK.format(dates="holds_until: 2013-01-24", expect="{visible_to: []}"), encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert problems and "holds_until" in str(problems[0])


def test_a_holds_since_check_leaves_its_ruling_checked_under_the_older_rules() -> None:
    """review49 M2: Clone Shell's "you won't be able to look" and "you must exile one" checks expected 406.3's
    look-then-exile of 2024-11-08 (`holds_since`), so the rulings, which held in 2011 as now, had no check that
    applied under any older rules date. A `holds_since` check pins what changed; its ruling has a check that
    applies and passes the day before, too."""
    dated = [c for c in CHECKS if c.holds_since is not None]
    assert dated
    for check in dated:
        before = (date.fromisoformat(check.holds_since or "") - timedelta(days=1)).isoformat()
        same = [c for c in CHECKS if normalise_quote(c.ruling) == normalise_quote(check.ruling)]
        assert any(r.passed for r in run_checks(same, before, cards=CARDS)), (check.id, before)
    ids = ["exile-face-down/clone-shell-new-controller-cannot-look", "exile-face-down/clone-shell-must-exile-one-even-no-creature"]
    older = run_checks([c for c in CHECKS if c.id in ids], "2014-11-24", cards=CARDS)
    assert [(r.id, r.passed) for r in older] == [(i, True) for i in ids]


@pytest.mark.parametrize(("visible_to", "failures"), [
    ("{opponent: false}", []),
    ("{you: true, opponent: false}", []),
    ("{opponent: true}", ["Grizzly Bears.visible_to: expected {opponent: true}, got {opponent: false}"]),
    ("[you]", []),
])
def test_visible_to_names_each_player_who_may_or_may_not_look(tmp_path: Any, visible_to: str, failures: list[str]) -> None:
    """`visible_to: {opponent: false}`: one player's sight, the others' left open (review49 M2)."""
    result = check_verdict(_thief(tmp_path, "", "{visible_to: %s}" % visible_to), CORPUS.cards)
    assert [f.split(": ", 1)[1] for f in result.failures] == failures


def test_visible_to_names_only_players_of_the_check(tmp_path: Any) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text(_THIEF_CHECK.format(dates="", expect="{visible_to: {third: false}}"), encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert problems and "third" in str(problems[0])


@pytest.mark.parametrize(("expect", "problem"), [
    ("{visible_to: {}}", "Grizzly Bears.visible_to is empty"),
    ("{visible_to: {opponent: 0}}", "Grizzly Bears.visible_to.opponent must be true or false, not 0"),
    ("{visible_to: {opponent: no way}}", "Grizzly Bears.visible_to.opponent must be true or false, not 'no way'"),
    ("{shares_name_with: {}}", "Grizzly Bears.shares_name_with is empty"),
    ("{counters_of: {time: '2'}}", "Grizzly Bears.counters_of.time must be a number, not '2'"),
    ("{turn_face_up_cost: {morph: 1G}}", "Grizzly Bears.turn_face_up_cost.morph must be a mana cost"),
])
def test_a_mapping_expectation_that_checks_nothing_or_holds_no_value_of_its_kind_is_a_problem(
        tmp_path: Any, expect: str, problem: str) -> None:
    """review50 L2: `visible_to: {}` compared {} with {} and passed on every run; `{opponent: 0}` passed as false
    (0 == False); `{opponent: no way}` failed on every run. Each is a problem when the file is read."""
    path = tmp_path / "mapping.yaml"
    path.write_text(_THIEF_CHECK.format(dates="", expect=expect), encoding="utf-8")
    checks, problems = load_checks([path], CORPUS.cards)
    assert checks == [] and len(problems) == 1 and problem in problems[0].reason and problems[0].line == 10


def test_a_check_plays_the_card_that_grants_a_permission_instead_of_staging_it() -> None:
    """rules49: a permission stated in the setup and read back by the expectation can fail only if the model's
    default changed, never because the card's effect is wrong. Colfenor's Plans (2 checks), Shared Fate's costs,
    Clone Shell's non-creature card, Gonti's leaving player and Uba Mask stated theirs (rules49b, rules50), Thief of
    Sanity's and XMage's Future Sight (rules51: "that player" of a combat damage trigger, the top of a library): every
    check now plays the card that gives it."""
    staged = {c.id for c in CHECKS if any(p.may_look or p.playable for p in c.placed)}
    assert staged == set()


@pytest.mark.parametrize("key", ["rules", "holds_since", "holds_until"])
def test_a_bad_rules_date_is_a_problem_naming_its_key_and_line(tmp_path: Any, key: str) -> None:
    """review49 L2: `holds_since: 31/12/2014` was "invalid rules date", on the check's line."""
    path = tmp_path / "dated.yaml"
    path.write_text(_THIEF_CHECK.format(dates=f"{key}: 31/12/2014", expect="{zone: exile}"), encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert [(p.line, p.reason.split(": slashed")[0]) for p in problems] == [
        (4, f"check 'thief': invalid {key} date '31/12/2014'")]


@pytest.mark.parametrize(("since", "order"), [("2014-01-01", "after"), ("2013-01-24", "the same date as")])
def test_holds_since_not_before_holds_until_is_a_problem_on_the_holds_since_line(tmp_path: Any, since: str,
                                                                                 order: str) -> None:
    """review50 L3: it was "its own rules date ... must be one it holds under", on the check's line."""
    path = tmp_path / "dated.yaml"
    dates = f"rules: 2012-06-01\n    holds_since: {since}\n    holds_until: 2013-01-24"
    path.write_text(_THIEF_CHECK.format(dates=dates, expect="{visible_to: []}"), encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert [(p.line, p.reason) for p in problems] == [
        (5, f"check 'thief': holds_since ({since}) is {order} holds_until (2013-01-24): no rules date is one it holds "
            "under")]


def test_a_check_refused_or_incomplete_is_a_failure_under_any_rules_date(tmp_path: Any) -> None:
    """review49 L3: under a date outside its holds_since/holds_until every failure was "not applicable",
    a refused setup, an unknown card and a missing choice too: only a failed expectation is the failure
    the dates foresee."""
    from kb.game import Zone
    from kb.checks.scenario import Placed

    check = _thief(tmp_path, "holds_since: 2013-01-24", "{visible_to: [you]}")
    assert check_verdict(check, CORPUS.cards, "2012-06-01").not_applicable  # its expectation fails then: n/a
    refused = replace(check, placed=check.placed + (
        Placed("Lightform", "Lightform", "you", Zone.BATTLEFIELD, 3, attached_to="Nobody"),))
    unknown = replace(check, placed=check.placed + (Placed("Grizly Bears", "Grizly Bears", "you", Zone.HAND, 3),))
    for broken, failure in [(refused, "setup refused: no card called 'Nobody'"), (unknown, "unknown card 'Grizly Bears'")]:
        for date in ("2012-06-01", None):
            verdict = check_verdict(broken, CORPUS.cards, date)
            assert verdict.not_applicable is None and len(verdict.failures) == 1 and failure in verdict.failures[0]
    path = tmp_path / "choice.yaml"
    path.write_text("""checks:
  - name: shell
    ruling: x
    holds_since: 2024-11-08
    setup: {you: {hand: [Clone Shell], library: [Shock, Grizzly Bears]}}
    actions:
      - cast: Clone Shell
      - resolve: 1
      - resolve: 1
    expect: {Grizzly Bears: {zone: exile, visible_to: [you]}}
""", encoding="utf-8")
    (shell,), problems = load_checks([path], CORPUS.cards)
    assert problems == []
    verdict = check_verdict(shell, CORPUS.cards, "2020-01-01")
    assert verdict.not_applicable is None and [f.split(": ", 1)[1][:21] for f in verdict.failures] == [
        "a choice is missing: ", "Grizzly Bears.zone: e"]


SHARED_FATE = "exile-face-down/shared-fate-play-only-what-you-exiled-only-while-it-stays"


def test_kb_check_and_kb_outdated_say_a_ruling_no_longer_holds_in_the_same_words_naming_the_part() -> None:
    """tryout50 D7: `kb outdated --kind check-fails` said Shared Fate's check "passes under the rules of 2008-08-01 but
    fails under current rules"; `kb check --rules 2026-01-16` said "n/a ... it holds only under rules before
    2013-01-24", 0 failed; neither said which half of the ruling no longer holds (looking; playing still does)."""
    from kb.checks import entry_check_runner
    from kb.game.rules import CURRENT
    from kb.outdated import Reason, find_outdated

    check = next(c for c in CHECKS if c.id == SHARED_FATE)
    said = (f"the ruling no longer holds under the rules of {CURRENT}: its check passes only under rules before "
            '2013-01-24 (holds_until); the part that no longer holds: "will not allow you to look at ... that card again"')
    (result,) = run_checks([check], CURRENT, cards=CARDS)
    assert result.not_applicable is not None and result.not_applicable.startswith(said)
    variant = Variant(check.ruling, check.ruling, Lang.EN, "2008-08-01", "page.txt", 1, Relation.CANONICAL, 1.0,
                      "Shared Fate")
    entry = Entry(id="r-test", kind=Kind.RULING, text=check.ruling, cards=("Shared Fate",), first_date="2008-08-01",
                  last_date="2008-08-01", variants=(variant,), checks=(SHARED_FATE,))
    items = find_outdated([entry], terminology=CORPUS.terminology, check_runner=entry_check_runner(CHECKS, CARDS))
    assert [(r.kind, r.detail) for i in items for r in i.reasons if r.kind is Reason.CHECK_FAILS] == [
        (Reason.CHECK_FAILS, f"{SHARED_FATE}: {said}")]


@pytest.mark.parametrize(("line", "problem"), [
    ('    holds_until: 2013-01-24\n    no_longer_holds: "continue ... do so"', None),
    ('    holds_until: 2013-01-24\n    no_longer_holds: "continue to look"', "'continue to look' is not in it"),
    ('    holds_until: 2013-01-24\n    no_longer_holds: "do so ... continue"', "'continue' is not in it"),  # in order
    ('    no_longer_holds: "continue to do so"', "it needs `holds_until`"),
    # review50 L1: "..." alone split into empty parts, which str.find found anywhere; a piece of a word passed
    ('    holds_until: 2013-01-24\n    no_longer_holds: "..."', "'...' has an empty part"),
    ('    holds_until: 2013-01-24\n    no_longer_holds: "continue ..."', "'continue ...' has an empty part"),
    ('    holds_until: 2013-01-24\n    no_longer_holds: "ontinue to d"', "'ontinue to d' cuts a word of it"),
    ('    holds_until: 2013-01-24\n    no_longer_holds: "continue ... o s"', "'o s' cuts a word of it"),
])
def test_no_longer_holds_quotes_the_part_of_its_ruling(tmp_path: Any, line: str, problem: str | None) -> None:
    path = tmp_path / "dated.yaml"
    path.write_text(_THIEF_CHECK.format(dates="rules: 2012-06-01\n" + line, expect="{visible_to: []}"), encoding="utf-8")
    checks, problems = load_checks([path], CORPUS.cards)
    if problem is None:
        assert problems == [] and checks[0].no_longer_holds == "continue ... do so"
    else:
        assert len(problems) == 1 and problem in problems[0].reason
        assert problems[0].line == line.count("\n") + 5  # the key's line


@pytest.mark.parametrize(("part", "problem"), [
    ("can", "'can' cuts a word of it"),  # review51 L5: the apostrophe is inside "can't"
    ("t play", "'t play' cuts a word of it"),
    ("can't play", None),
    ("from exile", None),
])
def test_no_longer_holds_takes_an_apostrophe_as_inside_a_word(part: str, problem: str | None) -> None:
    from kb.checks.scenario import _CheckSyntax, _no_longer_holds

    ruling = "You can't play the card from exile after Test Mask leaves."
    raw = {"no_longer_holds": part}
    if problem is None:
        assert _no_longer_holds(raw, ruling, "2013-01-24", "c", 1) == part
    else:
        with pytest.raises(_CheckSyntax, match=problem):
            _no_longer_holds(raw, ruling, "2013-01-24", "c", 1)


# ---- mutation: every expectation must be able to fail ------------------------------------------


def _mutations(value: Any) -> Iterator[Any]:
    """Changed copies of an expectation value, one leaf at a time."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int):
        yield value + 1
    elif value is None:
        yield "something"
    elif isinstance(value, str):
        yield {"battlefield": "graveyard"}.get(value, value + "-mutated")
    elif isinstance(value, list):
        yield value + ["mutated"]
        if value:
            yield value[1:]
    elif isinstance(value, dict):
        if not value:  # nothing to change: the unchanged copy, which survives, names it (review50 L2)
            yield {}
        for key, sub in value.items():
            for m in _mutations(sub):
                d = copy.copy(value)
                d[key] = m
                yield d


def _mutated_checks(check: Check) -> Iterator[tuple[str, Check]]:
    if check.expect:
        for m in _mutations(dict(check.expect)):
            yield "expect", replace(check, expect=m)
    for i, step in enumerate(check.steps):
        if step.expect:
            for m in _mutations(dict(step.expect)):
                steps = list(check.steps)
                steps[i] = replace(step, expect=m)
                yield f"step {i + 1}", replace(check, steps=tuple(steps))


def _survivors(check: Check) -> tuple[int, list[tuple[str, Any, list[Any]]]]:
    """How many mutants of the check's expectations there are, and those that still pass."""
    survived = []
    count = 0
    for where, mutant in _mutated_checks(check):
        count += 1
        if not run_check(mutant, CARDS):
            survived.append((where, mutant.expect, [s.expect for s in mutant.steps]))
    return count, survived


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.id)
def test_every_mutated_expectation_fails(check: Check) -> None:
    count, survived = _survivors(check)
    assert count > 0
    assert survived == []


@pytest.mark.parametrize(("visible_to", "survives"), [("{opponent: false}", False), ("{}", True)])
def test_the_mutation_test_mutates_each_player_of_a_visible_to_mapping_and_names_an_empty_one(
        tmp_path: Any, visible_to: str, survives: bool) -> None:
    """review50 L2: `_mutations` yielded nothing for `visible_to: {}`, so a bundled check with one (were the
    loader to let it through) would pass the mutation test; `{opponent: false}` is mutated to true, and fails."""
    check = _thief(tmp_path, "", "{zone: exile}")
    check = replace(check, expect={"Grizzly Bears": {"zone": "exile", "visible_to": yaml.safe_load(visible_to)}})
    count, survived = _survivors(check)
    assert count == 2 and bool(survived) is survives


# ---- rules dates --------------------------------------------------------------------------------


def _by_name(name: str) -> Check:
    return next(c for c in CHECKS if c.name == name)


def test_disguise_check_fails_under_2014_rules() -> None:
    check = _by_name("keep-face-down-objects-apart")
    assert run_checks([check], "2026-01-16", cards=CORPUS.cards)[0].passed
    assert not run_checks([check], "2014-11-24", cards=CORPUS.cards)[0].passed


@pytest.mark.parametrize(
    "name",
    [
        "turn-manifested-face-up-ignoring-copy-effects-2014",
        "turn-manifested-face-up-special-action",
        "no-same-name-2014",
        "no-same-name-no-shared-creature-types-2018",
    ],
)
@pytest.mark.parametrize("rules", ["2014-11-24", "2015-01-23", "2018-07-13", "2026-01-16"])
def test_2014_and_2018_wordings_hold_under_every_cr(name: str, rules: str) -> None:
    """The wordings differ, the CR didn't: 701.31b/701.33b/701.40b always look at the card, and
    face-down permanents had no subtypes in every CR since manifest (707.2a/708.2a)."""
    assert run_checks([_by_name(name)], rules, cards=CORPUS.cards)[0].passed


def test_invalid_rules_date_is_an_input_error() -> None:
    from kb.errors import InputError

    with pytest.raises(InputError):
        run_checks(CHECKS[:1], "2014/11/24", cards=CORPUS.cards)


# ---- attaching checks to entries ----------------------------------------------------------------


def _entry(eid: str, *texts: str, kind: Kind = Kind.RULING) -> Entry:
    variants = tuple(
        Variant(t, t, Lang.EN, "2018-07-13", "corpus/seeds/x.txt", i + 1, Relation.CANONICAL, 1.0, "Lightform")
        for i, t in enumerate(texts)
    )
    return Entry(eid, kind, texts[0], ("Lightform",), None, None, variants)


def _check(name: str, ruling: str) -> Check:
    return replace(CHECKS[0], id=f"t/{name}", name=name, ruling=ruling)


def _attach(entries: list[Entry], checks: list[Check]) -> tuple[list[Entry], list[str]]:
    """As the build attaches them: match each check's quote, attach, keep the problems."""
    found, problems = match_entries(entries, checks)
    return attach_checks(entries, found), [f"{p.source}:{p.line}: {p.reason}" for p in problems]


def test_attach_matches_any_variant_after_normalisation() -> None:
    entries = [
        _entry("e1", "Because face-down creatures don\u2019t have names, they can\u2019t have the same name."),
        _entry("e2", "Turning a permanent face up or face down doesn't change whether it's tapped."),
    ]
    checks = [_check("b", "DON'T HAVE  NAMES"), _check("a", "don't have names, they"), _check("c", "tapped.")]
    out, problems = _attach(entries, checks)
    assert out[0].checks == ("t/a", "t/b") and out[1].checks == ("t/c",) and problems == []


def test_attach_ignores_rule_entries() -> None:
    entries = [_entry("r", "don't have names", kind=Kind.RULE), _entry("e", "don't have names")]
    out, problems = _attach(entries, [_check("a", "have names")])
    assert out[0].checks == () and out[1].checks == ("t/a",) and problems == []


def test_attach_zero_matches_is_a_problem_naming_file_and_line() -> None:
    out, problems = _attach([_entry("e", "something else")], [_check("a", "not there")])
    assert out[0].checks == ()
    assert len(problems) == 1 and re.match(r"corpus/checks/.*\.yaml:\d+: .*quotes no ruling", problems[0])


def test_attach_several_matches_is_a_problem_and_attaches_nothing() -> None:
    entries = [_entry("e1", "face-down creature"), _entry("e2", "another face-down creature")]
    out, problems = _attach(entries, [_check("a", "face-down")])  # the whole of neither
    assert [e.checks for e in out] == [(), ()]
    assert len(problems) == 1 and "quotes 2 rulings" in problems[0]


def test_attach_a_quote_that_is_one_whole_ruling_picks_it_among_several() -> None:
    entries = [_entry("short", "Reveal it at the end."), _entry("long", "Reveal it at the end. Notably, no bluffing.")]
    out, problems = _attach(entries, [_check("a", "reveal it at the END.")])
    assert problems == [] and [e.checks for e in out] == [("t/a",), ()]


def test_normalise_quote() -> None:
    assert normalise_quote("It\u2019s  \u201cForm\u201d\n") == "it's \"form\""


def test_check_ids_are_stable_file_stem_and_name() -> None:
    assert all(c.id == f"{c.file.rsplit('/', 1)[-1][:-5]}/{c.name}" for c in CHECKS)


def test_check_result_json_shape() -> None:
    r = run_checks(CHECKS[:1], cards=CORPUS.cards)[0]
    assert set(r.to_json()) == {"id", "entry", "file", "passed", "failures", "not_applicable", "unattached", "rules_gap"}


@pytest.mark.parametrize(
    "ability",
    [
        "{when: enters, effect: gain_life, cout: 1}",  # misspelt `count`
        "{when: permanent_enters, effect: nothing, filter: {colour: [R]}}",  # misspelt filter key
        "{effect: destroy, target: creature, if_target: {max_mana_value: two}}",
        # face-down values have no name (708.2a)
        "{effect: put_onto_battlefield_face_down_as, target: creature, face_down_as: {name: Odd, pt: 3/3}}",
    ],
)
def test_a_card_ability_with_an_unknown_or_bad_key_is_a_problem(ability: str, tmp_path: Any) -> None:
    """A key the card format doesn't know would silently change what the card does: it is a
    problem naming the file, not ignored."""
    path = tmp_path / "odd.yaml"
    path.write_text(f"""cards:
  - {{name: Odd Djinn, types: [Creature], pt: 1/1, abilities: [{ability}]}}
checks: []
""", encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert problems and "odd.yaml" in str(problems[0])


@pytest.mark.parametrize(
    "static",
    [
        "{affects: creatures, kind: modify_pt, value: +1/+1, first_each_turn: true}",  # no cost modifier
        "{affects: you, kind: face_down_spell_cost, value: -3, first_each_turn: 1}",  # not true/false
    ],
)
def test_first_each_turn_only_on_a_spell_cost_modifier(static: str, tmp_path: Any) -> None:
    """"The first ... spell you cast each turn" limits a spell cost modifier; on any other static
    ability, or not written true/false, it is a problem naming the file, not ignored."""
    path = tmp_path / "odd.yaml"
    path.write_text(f"""cards:
  - {{name: Odd Djinn, types: [Creature], pt: 1/1, static: [{static}]}}
checks: []
""", encoding="utf-8")
    _, problems = load_checks([path], CORPUS.cards)
    assert problems and "odd.yaml" in str(problems[0]) and "first_each_turn" in str(problems[0])
