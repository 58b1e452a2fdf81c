"""checks17: the open items of tryout16 (bench/results/tryout16.md). A check must be able to fail
when the model is wrong: `triggered` can name which ability of a card triggered."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from kb.checks import match_entries
from kb.checks.scenario import parse_checks
from kb.corpus import Corpus
from kb.game import Game, TurnUpWay
from kb.game.cards import TriggerEvent
from kb.model import Entry, Kind, Lang, Relation, Variant
from tests.scenario_helpers import run_check

CARDS = Corpus.default().cards

# Efreet Weaponmaster (KTK), Oracle text: "When this enters the battlefield or is turned face up, ...":
# one ability per event, as the format writes them.
EFREET = """
cards:
  - name: Efreet Weaponmaster
    mana_cost: '{3}{U}{R}{W}'
    colors: [U, R, W]
    types: [Creature]
    subtypes: [Efreet, Monk]
    pt: 4/3
    keywords: [first strike]
    morph: '{2}{U}{R}{W}'
    abilities:
      - {when: enters, effect: nothing, text: 'Efreet Weaponmaster: another target creature you control gets +3/+0'}
      - {when: turned_face_up, effect: nothing, text: 'Efreet Weaponmaster: another target creature you control gets +3/+0'}
    text: "First strike\\nWhen Efreet Weaponmaster enters the battlefield or is turned face up, another target creature you control gets +3/+0 until end of turn.\\nMorph {2}{U}{R}{W}"
"""

TURNED_UP = """
- name: efreet-turned-up-no-etb
  ruling: "turning a permanent face up doesn't cause any enters-the-battlefield abilities to trigger"
  setup: {{you: {{battlefield: [{{card: Efreet Weaponmaster, face_down: morph}}, Grizzly Bears]}}}}
  actions:
    - turn_face_up: {{card: Efreet Weaponmaster, by: morph}}
      expect: {{triggered: {triggered}}}
"""


def parse(checks: str, cards: str = EFREET) -> tuple[list[Any], list[Any]]:
    return parse_checks(cards + "checks:\n" + textwrap.indent(textwrap.dedent(checks), "  "), "my-checks.yaml", CARDS)


def failures(triggered: str) -> list[str]:
    checks, problems = parse(TURNED_UP.format(triggered=triggered))
    assert problems == [] and len(checks) == 1, problems
    return run_check(checks[0], CARDS)


@pytest.fixture
def etb_instead(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The model wrongly treats turning a permanent face up as its entering the battlefield (708.8
    says it doesn't): the enters ability triggers instead of the turned-face-up one."""
    emit = Game._emit

    def wrong(self: Game, event: TriggerEvent, obj: Any, **kw: Any) -> None:
        emit(self, TriggerEvent.ENTERS if event is TriggerEvent.TURNED_FACE_UP else event, obj, **kw)

    monkeypatch.setattr(Game, "_emit", wrong)
    yield


@pytest.fixture
def etb_as_well(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The model wrongly fires the enters ability too when a permanent is turned face up."""
    emit = Game._emit

    def wrong(self: Game, event: TriggerEvent, obj: Any, **kw: Any) -> None:
        emit(self, event, obj, **kw)
        if event is TriggerEvent.TURNED_FACE_UP:
            emit(self, TriggerEvent.ENTERS, obj, **kw)

    monkeypatch.setattr(Game, "_emit", wrong)
    yield


@pytest.mark.parametrize("triggered", [
    "['Efreet Weaponmaster: turned_face_up']",
    "['Efreet Weaponmaster: turned face up']",  # spaces for underscores
    "[Efreet Weaponmaster]",  # a bare label: any one ability of that source
])
def test_turning_the_efreet_face_up_triggers_only_its_turned_face_up_ability(triggered: str) -> None:
    assert failures(triggered) == []


def test_a_check_naming_the_event_fails_when_the_model_fires_the_etb_instead(etb_instead: None) -> None:
    """tryout16 open 1: with source labels only, `[Efreet Weaponmaster]` passed whichever ability
    fired; naming the event makes the check fail."""
    got = failures("['Efreet Weaponmaster: turned_face_up']")
    assert len(got) == 1 and "expected ['Efreet Weaponmaster: turned_face_up'], got ['Efreet Weaponmaster: enters']" in got[0]


def test_a_bare_label_counts_each_ability_so_it_fails_when_the_etb_fires_as_well(etb_as_well: None) -> None:
    """Lists of triggered abilities compare as multisets: a source whose two abilities trigger is
    there twice."""
    for triggered in ("[Efreet Weaponmaster]", "['Efreet Weaponmaster: turned_face_up']"):
        got = failures(triggered)
        assert len(got) == 1 and "got ['Efreet Weaponmaster: turned_face_up', 'Efreet Weaponmaster: enters']" in got[0]
    assert failures("['Efreet Weaponmaster: enters', Efreet Weaponmaster]") == []


def test_bare_and_event_items_mix_and_each_is_matched_once() -> None:
    text = """
    - name: enters-then-turned-up
      ruling: "turning a permanent face up doesn't cause any enters-the-battlefield abilities to trigger"
      setup: {you: {hand: [Efreet Weaponmaster], library: [Grizzly Bears]}}
      actions:
        - put_onto_battlefield: [Efreet Weaponmaster]
          expect: {triggered: ['Efreet Weaponmaster: enters']}
        - turn_face_down: Efreet Weaponmaster
        - turn_face_up: {card: Efreet Weaponmaster, by: morph}
          expect: {triggered: ['Efreet Weaponmaster: turned_face_up']}
      expect: {triggered: [Efreet Weaponmaster, 'Efreet Weaponmaster: enters']}
    """
    checks, problems = parse(text)
    assert problems == [], problems
    assert run_check(checks[0], CARDS) == []
    wrong = text.replace("[Efreet Weaponmaster, 'Efreet Weaponmaster: enters']",
                         "['Efreet Weaponmaster: enters', 'Efreet Weaponmaster: enters']")
    checks, _ = parse(wrong)
    assert len(run_check(checks[0], CARDS)) == 1


def test_a_misspelt_event_is_a_problem_naming_the_events() -> None:
    text = TURNED_UP.format(triggered="['Efreet Weaponmaster: turned face upp']")
    checks, problems = parse(text)
    assert checks == [] and len(problems) == 1, problems
    assert "'turned face upp' is no trigger event (did you mean 'turned_face_up'" in problems[0].reason


@pytest.mark.parametrize("label", ["Efreet Weaponmaster", "efreet weaponmaster"])
def test_a_misspelt_event_is_a_problem_whatever_the_label_s_case(label: str) -> None:
    """Review: `triggered` labels match case aside (a lowercase label with its event passes), so a
    misspelt event after a lowercase label was an item that could never match, not a problem."""
    assert failures(f"['{label}: turned_face_up']") == []
    checks, problems = parse(TURNED_UP.format(triggered=f"['{label}: turned face upp']"))
    assert checks == [] and len(problems) == 1, problems
    assert "'turned face upp' is no trigger event (did you mean 'turned_face_up'" in problems[0].reason


def test_the_model_records_what_each_trigger_triggered_on() -> None:
    checks, _ = parse(TURNED_UP.format(triggered="[]"))
    from kb.checks.scenario import build_game

    game = build_game(checks[0], {**CARDS, **checks[0].cards})
    game.turn_face_up("Efreet Weaponmaster", TurnUpWay.MORPH)
    assert [(label, event) for _, label, event in game.triggers] == [("Efreet Weaponmaster", TriggerEvent.TURNED_FACE_UP)]


# ---- a translated quote (tryout16 open 3): the matcher reads every wording, translations too ----


def _ruling(eid: str, english: str, german: str) -> Entry:
    variants = (
        Variant(english, english, Lang.EN, "2014-09-20", "corpus/seeds/x.txt", 1, Relation.CANONICAL, 1.0, "Efreet Weaponmaster"),
        Variant(german, german, Lang.DE, "2014-09-20", "corpus/seeds/x.de.txt", 1, Relation.TRANSLATION, 0.9, "Efreet Weaponmaster"),
    )
    return Entry(eid, Kind.RULING, english, ("Efreet Weaponmaster",), None, None, variants)


def test_a_quote_of_a_translation_attaches_to_the_entry_that_holds_it() -> None:
    """docs/CHECKS.md said "never a translation", but a German quote attached and passed: the docs now
    say what the matcher does (every wording of an entry, its translations included)."""
    entries = [
        _ruling("r-efreet", "Turning a permanent face up doesn't cause any enters-the-battlefield abilities to trigger.",
                "Durch das Aufdecken einer bleibenden Karte werden keine Fähigkeiten ausgelöst, die beim Ins-Spiel-Kommen triggern."),
        _ruling("r-other", "A face-down permanent has no name.", "Eine verdeckte bleibende Karte hat keinen Namen."),
    ]
    checks, _ = parse(TURNED_UP.format(triggered="[]"))
    german = replace(checks[0], ruling="werden keine Fähigkeiten ausgelöst")
    found, problems = match_entries(entries, [german])
    assert problems == [] and found == {german.id: "r-efreet"}
    docs = " ".join(Path("docs/CHECKS.md").read_text(encoding="utf-8").split())
    assert "never a translation" not in docs and "translations included" in docs


# ---- small ones ---------------------------------------------------------------------------------


def test_an_unknown_key_in_a_check_names_the_check_and_suggests_the_key() -> None:
    text = """
    - name: misspelt-ruling
      rulng: "turning a permanent face up doesn't cause any enters-the-battlefield abilities to trigger"
      setup: {you: {battlefield: [Grizzly Bears]}}
      expect: {Grizzly Bears: {face_down: false}}
    """
    checks, problems = parse(text)
    assert checks == [] and len(problems) == 1, problems
    assert "unknown key(s) in check 'misspelt-ruling': rulng (did you mean 'ruling'" in problems[0].reason


@pytest.mark.parametrize(("where", "reason"), [
    ("setup: {you: {battlefield: [{card: Grizzly Bears, face_down: true}]}}",
     "face_down: true says whether, not how: `face_down` says how it was turned face down, one of manifest, cloak,"),
    ("setup: {you: {battlefield: [{card: Grizzly Bears, face_down: manfest}]}}",
     "face_down: 'manfest' is not a manifest|cloak|"),
    ("setup: {you: {hand: [Efreet Weaponmaster]}}\n      actions: [{cast: {card: Efreet Weaponmaster, face_down: true}}]",
     "face_down: true says whether, not how: `face_down` says how it is cast face down, one of morph,"),
])
def test_a_yes_where_the_setup_wants_how_it_was_turned_face_down_says_so(where: str, reason: str) -> None:
    text = f"""
    - name: yes-not-how
      ruling: "turning a permanent face up doesn't cause any enters-the-battlefield abilities to trigger"
      {where}
      expect: {{stack: 0}}
    """
    checks, problems = parse(text)
    assert checks == [] and len(problems) == 1, problems
    assert reason in problems[0].reason and "True" not in problems[0].reason, problems[0].reason
    if "manfest" in where:
        assert "did you mean 'manifest'?" in problems[0].reason


def test_a_key_given_twice_in_a_bundled_card_file_is_reported_with_file_and_line(tmp_path: Path) -> None:
    """corpus/cards/*.yaml were read with yaml.safe_load, which keeps the last of two equal keys: a
    second `abilities:` would silently replace the first."""
    from kb.checks import load_cards
    from kb.errors import CheckError

    card = EFREET.replace("cards:\n", "").replace("    morph: '{2}{U}{R}{W}'\n", "    morph: '{2}{U}{R}{W}'\n    abilities: []\n")
    (tmp_path / "twice.yaml").write_text("cards:\n" + card, encoding="utf-8")
    second = next(i for i, ln in enumerate(("cards:\n" + card).splitlines(), 1) if ln.strip() == "abilities:")
    with pytest.raises(CheckError) as err:
        load_cards(tmp_path)
    assert f"twice.yaml:{second}: malformed YAML: the key 'abilities' is given twice in one mapping (first on line {second - 1})" \
        in str(err.value)
    (tmp_path / "twice.yaml").write_text(EFREET, encoding="utf-8")
    assert list(load_cards(tmp_path)) == ["Efreet Weaponmaster"]


def test_the_bundled_cards_read_the_same_with_the_duplicate_key_check() -> None:
    # Review: this compared load_cards with itself (CARDS is its result); compare with PyYAML's plain reading.
    from dataclasses import replace

    import yaml

    from kb.checks import load_cards
    from kb.game import card_from_data

    folder = Path(__file__).resolve().parents[1] / "corpus" / "cards"
    plain = {}
    for path in sorted(folder.glob("*.yaml")):
        for raw in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            card = card_from_data(raw, path.name)
            plain[card.name] = replace(card, source="")
    read = {name: replace(card, source="") for name, card in load_cards(folder).items()}
    assert read == plain and len(plain) > 20


def test_a_card_file_nested_too_deep_or_not_utf8_names_the_file(tmp_path: Path) -> None:
    # Review: load_cards caught only YAML errors; parse_checks names the file for these too.
    from kb.checks import load_cards
    from kb.errors import CheckError

    (tmp_path / "deep.yaml").write_text("cards: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(CheckError, match="deep.yaml"):
        load_cards(tmp_path)
    (tmp_path / "deep.yaml").unlink()
    (tmp_path / "latin1.yaml").write_bytes("cards:\n  - name: Gr\xfcn\n".encode("latin-1"))
    with pytest.raises(CheckError, match="latin1.yaml"):
        load_cards(tmp_path)


@pytest.mark.parametrize("item", ["Efreet Weaponmastr", "Efreet Weaponmastr: turned_face_up"])
def test_a_triggered_item_naming_no_card_of_the_setup_is_a_problem(item: str) -> None:
    """Review: a misspelt label in `triggered` failed every run ("expected ['Efreet Weaponmastr'], got
    ...") instead of being reported when the file is read, as a misspelt card elsewhere is."""
    checks, problems = parse(TURNED_UP.format(triggered=f"['{item}']"))
    assert checks == [] and len(problems) == 1, problems
    assert "names no card of the setup (did you mean 'Efreet Weaponmaster'?" in problems[0].reason
