"""`kb coverage` and `kb list --card` on a KB built once from the bundled corpus (fake embedder)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


@pytest.fixture(scope="module")
def built_home(tmp_path_factory):
    from kb.build import build
    from kb.search.embed import FakeEmbedder

    home = tmp_path_factory.mktemp("kb-home")
    build(home=home, embedder=FakeEmbedder())
    return home


@pytest.fixture(autouse=True)
def use_built(built_home, monkeypatch):
    monkeypatch.setenv("KB_HOME", str(built_home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")


def kb(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("name", ["Monastery Flock", "Klosterschwarm", "Parvada del monasterio", "parvada DEL monasterio"])
def test_list_by_card_takes_any_language_name_of_an_ingested_card(name):
    result = kb("list", "--card", name, "--json")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.stdout)
    assert entries and all("Monastery Flock" in e["cards"] for e in entries)
    assert any("Monastery Flock" in e["text"] for e in entries)


def test_every_card_of_the_kb_is_listed_by_its_german_and_spanish_names(built_home):
    from kb.cards import load_names
    from kb.paths import corpus_dir
    from kb.store import load

    names = load_names(corpus_dir())
    cards = sorted({c for e in load(built_home).entries for c in e.cards})
    unknown = [c for c in cards if names.resolve(c) != c]
    assert not unknown, unknown[:10]
    for card in cards[::25]:  # a sample through the CLI; the table check above covers every card
        for lang in ("de", "es"):
            local = names.names[card].get(lang)
            if local:
                shown = json.loads(kb("list", "--card", local, "--json").stdout)
                assert shown and all(card in e["cards"] for e in shown), (card, local)


def test_coverage_json_reports_both_ways():
    result = kb("coverage", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    de, es = report["languages"]["de"], report["languages"]["es"]
    # The bundled German rulings are the Lichtform page's; the corpus has no Spanish ruling text.
    assert de["translated"] + len(de["untranslated"]) == report["english_entries"]
    assert es["translated"] == 0 and len(es["untranslated"]) == report["english_entries"]
    assert all(row["id"].startswith("r-") for row in de["untranslated"] + de["without_english"])


def test_coverage_one_language_human_and_bad_language():
    result = kb("coverage", "--lang", "de")
    assert result.exit_code == 0, result.output
    assert "de:" in result.output and "es:" not in result.output
    bad = kb("coverage", "--lang", "en")
    assert bad.exit_code == 1 and "de or es" in bad.output and "Traceback" not in bad.output
