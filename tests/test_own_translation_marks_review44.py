"""review44 #2: `shown_own_page` of `kb search --json` names the judge's file of the text shown, as `kb list` and
`kb card` do: an official translation shown under a judge's own English ruling is not the judge's (null), though
the hit's `own_page` names the English page. A hand-made KB: the store as a build leaves it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from kb.model import Entry, Kind, Lang, Relation, Variant
from tests.test_own_translation_marks import write_kb

runner = CliRunner()

MINE_EN = "The exiled card stays exiled until end of turn, then it is put into its owner's graveyard."
OFFICIAL_DE = "Die Karte bleibt bis zum Ende des Zuges im Exil und kommt dann auf den Friedhof."
PAGE_EN = "/judge/Ire Shaman.txt"
ENGLISH = "If you don't play the card, it will remain exiled."
MINE_DE = "Wenn du die Karte nicht spielst, bleibt sie im Exil."
PAGE_DE = "/judge/Zornschamanin.txt"
OFFICIAL = "corpus/mtgjson/DTK.json"


def _variant(text: str, lang: Lang, source: str, relation: Relation) -> Variant:
    return Variant(text, text, lang, "2015-02-25", source, 1, relation, 1.0, "Ire Shaman")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_HOME", str(tmp_path))
    entries = [Entry("r-mine", Kind.RULING, MINE_EN, ("Ire Shaman",), "2015-02-25", "2015-02-25", (
        _variant(MINE_EN, Lang.EN, PAGE_EN, Relation.CANONICAL),
        _variant(OFFICIAL_DE, Lang.DE, OFFICIAL, Relation.TRANSLATION))),
               Entry("r-official", Kind.RULING, ENGLISH, ("Ire Shaman",), "2015-02-25", "2015-02-25", (
        _variant(ENGLISH, Lang.EN, OFFICIAL, Relation.CANONICAL),
        _variant(MINE_DE, Lang.DE, PAGE_DE, Relation.TRANSLATION)))]
    write_kb(tmp_path, entries, [PAGE_EN, PAGE_DE], monkeypatch)
    return tmp_path


def _json(*args: str) -> list[dict[str, object]]:
    result = runner.invoke(app, [*args, "--json"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    found: list[dict[str, object]] = json.loads(result.stdout)
    return found


def test_an_official_translation_shown_under_a_judges_ruling_is_no_judges_text_in_every_command() -> None:
    listed = {e["id"]: e for e in _json("list", "--card", "Ire Shaman", "--lang", "de")}["r-mine"]
    hit = {h["id"]: h for h in _json("search", "Bleibt die Karte im Exil?", "--lang", "de", "-k", "5")}["r-mine"]
    assert hit["matched_text"] == listed["lang_text"] == OFFICIAL_DE
    assert listed["own_page"] == hit["own_page"] == PAGE_EN  # the English canonical text is the judge's
    assert listed["shown_own_page"] is None  # ... the German shown is not
    assert hit["shown_own_page"] is None, hit


def test_kb_show_marks_a_judges_translation_it_shows_review44() -> None:
    """`kb show --lang de` shows the German text first: a judge's own German wording of an official ruling is
    theirs there too, as `kb card`, `list` and `search` now say (tryout44 L2 left `show` out)."""
    result = runner.invoke(app, ["show", "r-official", "--lang", "de"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    shown = " ".join(result.stdout.split())
    assert MINE_DE in shown
    # the variants list names every file; the mark under the text shown is what a judge reads at the table
    assert f"your page {PAGE_DE}, not official" in shown, shown
