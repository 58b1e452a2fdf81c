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


SHRIEKER_TYPO = """Chillador de Bosque Espectrales

Para manifestar miedo, mira las dos primeras cartas de tu biblioteca. Manifiesta una y pon la otra en tu cementerio.
(2024-09-20)

La última habilidad del Chillador de Bosques Espectrales solo tiene en cuenta las características de la carta impresa.
(2024-09-20)
"""


def test_a_title_one_letter_off_a_card_its_rulings_name_is_filed_under_that_card(tmp_path):
    """tryout23 defect 4: "Chillador de Bosque Espectrales" (…Bosques…) made a phantom card, though the
    page's second ruling names the card rightly."""
    page = tmp_path / "chillador.txt"
    page.write_text(SHRIEKER_TYPO, encoding="utf-8")
    ingested = runner.invoke(app, ["ingest", str(page)], env={"COLUMNS": "400"})
    assert ingested.exit_code == 0, ingested.output
    assert ("its rulings name 'Chillador de Bosques Espectrales' (Hauntwoods Shrieker), the known card nearest "
            "to 'Chillador de Bosque Espectrales': its rulings are filed under 'Hauntwoods Shrieker'"
            in " ".join(ingested.output.split()))
    listed = runner.invoke(app, ["list", "--card", "Hauntwoods Shrieker"], env={"COLUMNS": "300"})
    assert listed.exit_code == 0, listed.output
    assert "Para manifestar miedo" in listed.output and "La última habilidad" in listed.output


def test_a_misspelt_title_whose_rulings_do_not_name_the_card_asks_did_you_mean(tmp_path):
    """tryout23 defect 4: the note said only "check its spelling", although `kb card` finds the near
    name at once; and `kb card` called the page's Spanish name English."""
    page = tmp_path / "chillador.txt"
    page.write_text(SHRIEKER_TYPO.replace("del Chillador de Bosques Espectrales", "de esta carta"), encoding="utf-8")
    ingested = runner.invoke(app, ["ingest", str(page)], env={"COLUMNS": "400"})
    assert ingested.exit_code == 0, ingested.output
    assert ("filed under 'Chillador de Bosque Espectrales' as written; did you mean "
            "'Chillador de Bosques Espectrales' (Hauntwoods Shrieker)?" in " ".join(ingested.output.split()))
    shown = runner.invoke(app, ["card", "Chillador de Bosque Espectrales"], env={"COLUMNS": "300"})
    assert shown.exit_code == 0, shown.output
    assert "name as written: Chillador de Bosque Espectrales" in shown.output
    assert not [line for line in shown.output.splitlines() if "en: Chillador" in line.replace("written: ", "")]
