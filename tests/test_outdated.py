"""Outdated variants of the bundled corpus, against expectations labelled by hand."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kb.build import compute_outdated, load_terminology
from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.normalize import match_key
from kb.outdated import Reason, find_outdated, substantive
from kb.paths import corpus_dir
from tests.test_dedup import LABELLED_SOURCES

# 2014 wordings that the 2018 rulings replaced, and translations of such wordings.
SUPERSEDED = [
    "ignoring any copy effects or type-changing effects",
    "unless an effect allows you to or instructs you to",
    "don't have names, they can't have the same name",
    "on the battlefield in order to confuse other players",
    "There are no cards in the Fate Reforged set",
    # ... and wordings the 2024 MKM/DSK reissues replaced (bundled since issue 11): this one gained
    # "unless the new characteristics of the object change the legality of those targets".
    "A permanent that turns face up or face down changes characteristics",
    "Some older Magic sets feature double-faced cards",
    "Du kannst eine verdeckte bleibende Karte",
    "Du musst sicherstellen, dass deine verdeckten",
]
# Wordings that still stand: identical re-issues, rulings never reworded, translations of those.
NOT_SUPERSEDED = [
    "If the enchanted creature is turned face up",
    "doesn't change whether that permanent is tapped or untapped",
    "If a manifested creature would have morph if it were face up",
    "Da sich die bleibende Karte sowohl vor als auch nach dem Aufdecken",
    "Eine bleibende Karte, die aufgedeckt oder verdeckt wird",
    "Falls eine manifestierte Kreatur Morph",
    "If an effect tries to return a face-down creature to the battlefield",
]


@pytest.fixture(scope="module")
def outdated(bundled_entries):
    entries, _ = bundled_entries
    return entries, compute_outdated(entries)


def reasons_for(outdated, quote):
    """Outdated items of the variants quoting `quote` in the sources the labels were made from."""
    entries, items = outdated
    key = match_key(quote)
    variants = [(e, i) for e in entries for i, v in enumerate(e.variants)
                if key in match_key(v.text) and v.source.startswith(LABELLED_SOURCES)]
    assert variants, f"no variant quotes {quote!r}"
    flagged = {(item.entry, item.variant_index): item for item in items}
    return [flagged.get((e.id, i)) for e, i in variants]


@pytest.mark.parametrize("quote", SUPERSEDED)
def test_replaced_wordings_are_superseded(outdated, quote):
    for item in reasons_for(outdated, quote):
        assert item is not None and Reason.SUPERSEDED in {r.kind for r in item.reasons}, quote


@pytest.mark.parametrize("quote", NOT_SUPERSEDED)
def test_standing_wordings_are_not_superseded(outdated, quote):
    for item in reasons_for(outdated, quote):
        assert item is None or Reason.SUPERSEDED not in {r.kind for r in item.reasons}, quote


def test_superseded_shows_a_word_diff_against_the_current_wording(outdated):
    # The 2014 wording; the current one (2024, DSK) says "(ignoring any copy effects or type-changing ...".
    (item, *_) = reasons_for(outdated, "(ignoring any type-changing effects that might be applying to it)")
    reason = next(r for r in item.reasons if r.kind is Reason.SUPERSEDED)
    entries, _ = outdated
    entry = next(e for e in entries if e.id == item.entry)
    assert "copy effects or" in entry.text
    assert any(op == "insert" and "copy effects or" in text for op, text in reason.diff), reason.diff
    assert entry.last_date in reason.detail


def test_converted_mana_cost_is_obsolete_terminology(outdated):
    items = reasons_for(outdated, "has a converted mana cost of 0")
    assert items and all(item is not None for item in items)
    for item in items:
        reason = next(r for r in item.reasons if r.kind is Reason.TERMINOLOGY)
        assert "mana value of 0" in reason.detail and "2021-04-22" in reason.detail


def test_mana_value_wording_has_no_terminology_reason(outdated):
    for item in reasons_for(outdated, "has a mana value of 0"):
        assert item is None or Reason.TERMINOLOGY not in {r.kind for r in item.reasons}


def test_rule_changed_cites_the_old_number_and_the_cr_dates(outdated):
    (item, *_) = [i for i in reasons_for(outdated, "don't have names, they can't have the same name") if i]
    entries, _ = outdated
    reason = next((r for r in item.reasons if r.kind is Reason.RULE_CHANGED), None)
    if reason is not None:  # depends on the best link; when present it must be well formed
        assert "was reworded after" in reason.detail and reason.diff


def test_editorial_changes_are_not_substantive():
    before = 'A player can take this action any time he or she has priority. See rule 707, "Face-Down".'
    after = 'A player can take this action any time they have priority. See rule 708, "Face-Down".'
    assert substantive(before) == substantive(after)
    assert substantive("reveal it") != substantive("reveal it to all players")


def _entry(variants, checks=()):
    return Entry(id="r-test", kind=Kind.RULING, text=variants[0].text, cards=("Lightform",),
                 first_date="2014-11-24", last_date="2018-07-13", variants=tuple(variants), checks=checks)


def _v(text, date, relation=Relation.CANONICAL, lang=Lang.EN):
    return Variant(text, text, lang, date, "page.txt", 1, relation, 1.0, "Lightform")


def test_check_that_passes_then_and_fails_now_is_reported():
    entry = _entry([_v("Now wording.", "2018-07-13"), _v("Old wording.", "2014-11-24", Relation.REVISION)],
                   checks=("forms/old-behaviour",))

    def runner(e, at):
        return [("forms/old-behaviour", at is not None and at < "2015-01-01")]

    items = find_outdated([entry], terminology=load_terminology(corpus_dir()), check_runner=runner)
    kinds = {(item.variant.date, r.kind) for item in items for r in item.reasons}
    assert ("2014-11-24", Reason.CHECK_FAILS) in kinds
    assert ("2018-07-13", Reason.CHECK_FAILS) not in kinds


def test_identical_reissue_is_not_superseded():
    entry = _entry([_v("Same words.", "2018-07-13"), _v("Same words.", "2014-11-24", Relation.DUPLICATE)])
    assert find_outdated([entry], terminology=load_terminology(corpus_dir())) == []


def test_cli_outdated_json_summary_and_fail_on(monkeypatch):
    from cli.main import app

    monkeypatch.setenv("KB_EMBEDDER", "fake")
    runner = CliRunner()
    result = runner.invoke(app, ["outdated", "--json"])
    assert result.exit_code == 0, result.output
    items = json.loads(result.stdout)
    assert items and set(items[0]) == {"entry", "variant", "reasons", "current_text"}
    assert {"text", "lang", "date", "source"} <= set(items[0]["variant"])
    summary = json.loads(runner.invoke(app, ["outdated", "--summary", "--json"]).stdout)
    assert summary["by_reason"]["superseded"] > 0 and summary["by_reason"]["terminology"] > 0
    assert runner.invoke(app, ["outdated", "--fail-on", "terminology"]).exit_code == 1
    only = json.loads(runner.invoke(app, ["outdated", "--kind", "terminology", "--json"]).stdout)
    assert only and all(any(r["kind"] == "terminology" for r in i["reasons"]) for i in only)
    assert runner.invoke(app, ["outdated", "--kind", "nonsense"]).exit_code == 1
