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
    # skipped at its own line, quoting it; the card's printed text above it stays a note (tryout24)
    assert [(p.line, p.ignored) for p in result.problems] == [(5, False), (3, True)]
    assert result.problems[0].reason.endswith("Du kannst das Mana nicht für Manifestieren ausgeben.")


def _spanish_ruling(text: str) -> "Entry":
    from kb.model import Entry, Kind, Lang, Relation, Variant

    v = Variant(text, text, Lang.ES, "2006-09-25", "ixidron.es.txt", 11, Relation.CANONICAL, 1.0, "Ixidron")
    return Entry("r-es", Kind.RULING, text, ("Ixidron",), "2006-09-25", "2006-09-25", (v,))


def test_a_spanish_ruling_of_its_own_is_linked_to_its_face_down_clause_like_a_german_one():
    # a Spanish ruling with no English counterpart got no CR link at all ("no cue, mechanic or keyword of
    # the ruling points at a clause"): the linker's cues and mechanics read English and German only, so
    # `kb rule 708.5` never listed it and `kb check --missing` never counted it
    from kb.cr import links

    cases = [
        ("El controlador de una criatura boca abajo puede mirarla en cualquier momento, incluso si no tiene "
         "metamorfosis. Los demás jugadores no pueden.", "708.5"),
        ("Poner boca arriba o boca abajo un permanente no cambia si ese permanente está girado o enderezado.",
         "110.5"),
        ("Si un permanente boca abajo que controlas deja el campo de batalla, debes revelarlo.", "708.9"),
    ]
    for text, clause in cases:
        [linked] = links.link_entries([_spanish_ruling(text)], CORPUS.rules, [], CORPUS.card_texts)
        assert [r.clause for r in linked.rules][:1] == [clause], (text, linked.rules, linked.link_note)


def test_a_check_files_rules_date_is_written_as_the_rules_option_takes_it():
    # `kb check --rules 13.07.2018` worked, but `rules: 13.07.2018` in a check file was a problem:
    # "invalid rules date: '13.07.2018' (expected YYYY-MM-DD)"
    from kb.checks.scenario import parse_checks

    def check_file(date: str) -> str:
        return ("checks:\n  - name: tapped\n    ruling: \"doesn't change whether that permanent is tapped\"\n"
                f"    rules: {date}\n    setup:\n      you:\n"
                "        battlefield: [{card: Grizzly Bears, face_down: manifest, tapped: true}]\n"
                "    actions:\n      - turn_face_up: Grizzly Bears\n"
                "    expect:\n      Grizzly Bears: {face_down: false, tapped: true}\n")

    for written in ["13.07.2018", "2018-07-13", "13 de julio de 2018", "13. Juli 2018"]:
        checks, problems = parse_checks(check_file(written), "mine.yaml", CORPUS.cards)
        assert not problems, (written, problems)
        assert [c.rules for c in checks] == ["2018-07-13"]
    checks, problems = parse_checks(check_file("13/07/2018"), "mine.yaml", CORPUS.cards)
    assert not checks and ["invalid rules date" in p.reason for p in problems] == [True]
    checks, problems = parse_checks(check_file("31.02.2018"), "mine.yaml", CORPUS.cards)
    assert not checks and ["no such day" in p.reason for p in problems] == [True]


def test_an_empty_outdated_report_names_the_list_asked_for_and_prints_no_empty_tables():
    # `kb outdated --review` with nothing to review said "no outdated wordings" (a rules manager reads:
    # nothing is outdated), and `kb outdated --since 2019 --summary` printed three empty tables
    import io

    from rich.console import Console

    from cli import render

    def shown(draw) -> str:
        out = io.StringIO()
        draw(Console(file=out, width=100))
        return out.getvalue().strip()

    assert shown(lambda c: render.outdated(c, [], {"review"})) == "no wordings to review"
    assert shown(lambda c: render.outdated(c, [], {"outdated", "review"})) == "no outdated or review wordings"
    assert shown(lambda c: render.outdated(c, [], {"outdated"})) == "no outdated wordings"
    empty = {"wordings": 0, "variants": 0, "by_level": {}, "by_reason": {}, "by_card": {}}
    assert shown(lambda c: render.outdated_summary(c, empty, {"outdated"})) == "no outdated wordings"


IRE_SHAMAN = """Ire Shaman

Creature — Orc Shaman

• WotCFeb 25, 2015

  If a face-down Ire Shaman attacks and is blocked by one creature, turning it face up won't cause it to become unblocked.

  Falls eine verdeckte Zornschamanin angreift und von einer Kreatur geblockt wird, wird sie durch das Aufdecken nicht ungeblockt.

• WotCFeb 25, 2015

  The card exiled with Ire Shaman's last ability is exiled face up.

  Example: You play it later that turn.
"""


def test_an_english_ruling_with_its_german_translation_under_the_same_date_is_two_rulings():
    # an English page with a German paragraph mixed in under the English ruling's date gave one
    # ruling of both paragraphs, detected as German: it matched neither the English entry nor, as a
    # translation, anything
    result = parse_text(IRE_SHAMAN, "ire.en.txt", names=CORPUS.names, match_clause=None)
    assert [(r.line, r.lang.value, r.text.split()[0]) for r in result.records] == [
        (7, "en", "If"), (9, "de", "Falls"), (13, "en", "The")]
    # paragraphs of one language stay one ruling
    assert result.records[-1].text.endswith("face up. Example: You play it later that turn.")
    assert not [p for p in result.problems if not p.ignored]


def test_kb_check_runs_a_folder_of_check_files(tmp_path):
    # `kb check my-checks/` said "no entry 'my-checks'; `kb list` shows the ids": a folder was looked
    # up as an entry id, though `kb ingest` takes folders
    import json

    from typer.testing import CliRunner

    from cli.main import app

    mine = tmp_path / "my-checks"
    (mine / "more").mkdir(parents=True)
    (mine / ".hidden").mkdir()
    body = ("checks:\n  - name: {name}\n    ruling: y\n"
            "    setup: {{you: {{battlefield: [{{card: Stratus Dancer, face_down: morph}}]}}}}\n"
            "    expect: {{Stratus Dancer: {{power: {power}}}}}\n")
    (mine / "a.yaml").write_text(body.format(name="two-two", power=2))
    (mine / "more" / "b.yml").write_text(body.format(name="three-three", power=3))  # fails: a 2/2
    (mine / ".hidden" / "c.yaml").write_text(body.format(name="hidden", power=3))
    (mine / "notes.txt").write_text("not a check")
    result = CliRunner().invoke(app, ["check", "--json", str(mine)])
    data = json.loads(result.output)
    assert result.exit_code == 1
    assert [(c["id"], c["passed"]) for c in data["checks"]] == [("a/two-two", True), ("b/three-three", False)]
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(app, ["check", str(empty)])
    assert result.exit_code == 1 and "no check files (.yaml, .yml) in the folder" in result.output
