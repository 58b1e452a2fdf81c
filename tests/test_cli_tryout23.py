"""What a Spanish and a German judge preparing an MKM / DSK prerelease noticed (tryout23): each test
pins one defect of their ruling pages."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()

CRYPTIC_COAT = """Cryptic Coat / Kryptischer Mantel

02.02.2024

Cryptic Coat's last ability returns Cryptic Coat to its owner's hand. It's not a mana ability, so it uses the stack.

02.02.2024

Wenn eine getarnte Karte eine Spontanzauber- oder Hexereikarte ist, kann sie nicht aufgedeckt werden; sie bleibt verdeckt im Spiel.
"""


@pytest.fixture(autouse=True)
def fake_build_embedder(monkeypatch, small_corpus, kb_home):
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))


def test_the_translated_name_in_an_unknown_cards_title_finds_the_card(tmp_path):
    """tryout23 defect 9: "Cryptic Coat / Kryptischer Mantel" dropped the German half, so `kb card
    "Kryptischer Mantel"` said "unknown card"."""
    page = tmp_path / "cryptic-coat.txt"
    page.write_text(CRYPTIC_COAT, encoding="utf-8")
    ingested = runner.invoke(app, ["ingest", str(page)], env={"COLUMNS": "300"})
    assert ingested.exit_code == 0, ingested.output
    assert "'Kryptischer Mantel' is kept as its German name" in " ".join(ingested.output.split())
    shown = runner.invoke(app, ["card", "Kryptischer Mantel"], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    assert "de: Kryptischer Mantel" in shown.output and "en: Cryptic Coat" in shown.output
    assert "returns Cryptic Coat to its owner's hand" in shown.output
