"""What a rules manager and a German- and Spanish-speaking judge noticed trying the CLI (tryout14):
each test pins one defect found that way."""

from __future__ import annotations

from kb.corpus import Corpus
from kb.ingest import parse_text

CORPUS = Corpus.default()

MEGAMORPH = ("Megamorph ist eine Variante der Morph-Fähigkeit. Weitere Informationen zu Morph findest du auf "
             "Karten mit Morph aus dem Set Khans von Tarkir.")

# Qarsi Deceiver's German page as Gatherer shows it: the card's printed German text above the rulings
# (DTK.de.json's originalType and originalText), then `25.02.2015` date lines
GERMAN_PAGE = f"""Qarsi-Täuscherin

Kreatur — Naga, Zauberer
{{T}}: Erhöhe deinen Manavorrat um {{1}}. Verwende dieses Mana nur, um einen Kreaturenzauber verdeckt zu wirken, \
Manakosten für das Aufdecken einer manifestierten Kreatur zu bezahlen oder Morph-Kosten zu bezahlen. \
(Megamorph-Kosten sind Morph-Kosten.)

Anmerkungen und Regeln

25.02.2015

{MEGAMORPH}
"""

SPANISH_PAGE = """Impostora de Qarsi

Criatura — Hechicero naga
{T}: Agrega {1} a tu reserva de maná. Usa este maná solo para lanzar un hechizo de criatura boca abajo, pagar \
un coste de maná para poner una criatura manifestada boca arriba o pagar un coste de metamorfosis. (Un coste de \
megametamorfosis es un coste de metamorfosis.)

25/02/2015

La megametamorfosis es una variante de la habilidad de metamorfosis.
"""


def test_a_german_or_spanish_card_page_with_the_printed_text_above_the_rulings_loses_no_ruling():
    # the card's printed German (Spanish) text above the rulings was "text before the first date line
    # skipped" (exit 1): only the English Oracle text was compared with it
    for text, lang in [(GERMAN_PAGE, "de"), (SPANISH_PAGE, "es")]:
        result = parse_text(text, f"qarsi.{lang}.txt", names=CORPUS.names, match_clause=None)
        assert [(r.card, r.date, r.lang.value) for r in result.records] == [("Qarsi Deceiver", "2015-02-25", lang)]
        assert [(p.line, p.ignored) for p in result.problems] == [(3, True)], result.problems
        assert result.problems[0].reason.startswith("page text before the first ruling date")


def test_a_ruling_that_lost_its_date_above_a_german_page_is_still_a_skipped_unit():
    lost = GERMAN_PAGE.replace("(Megamorph-Kosten sind Morph-Kosten.)",
                               "(Megamorph-Kosten sind Morph-Kosten.)\nDu kannst das Mana nicht für Manifestieren "
                               "ausgeben.")
    result = parse_text(lost, "qarsi.de.txt", names=CORPUS.names, match_clause=None)
    assert [(p.line, p.ignored) for p in result.problems] == [(3, False)]
