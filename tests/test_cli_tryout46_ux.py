"""What try-out 46 (and 45) found the commands did not say: which entries an ingest or a removal
brought, changed or took out (D8), a number's older rule said plainly (D10), one note style (D11),
and a gone id quoted in the language asked for (tryout45 #9)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from cli.main import app


def _kb(*args: str):
    return CliRunner().invoke(app, list(args))


# --- D8: `kb ingest FILE` and `kb remove SOURCE` say what they did to the entries -------------------

GERMAN_PAGE = """Lichtform

13.07.2018

Die Lichtform kann nicht gewirkt werden, solange ihr Beherrscher keine Karte in der Hand hat.

13.07.2018

Wird die manifestierte Karte der Lichtform von einem Zauberspruch eines Gegners aufgedeckt, bleibt sie getappt.
"""

# try-out 46's page: a card no bundled ruling is about, its German name known from the Oracle cards only
REST_IN_PEACE_PAGE = """In Frieden ruhen

01.10.2012

Solange In Frieden ruhen im Spiel ist, werden Fähigkeiten, die ausgelöst werden, wenn eine Kreatur stirbt, nicht \
ausgelöst, weil Karten und Spielsteine nie auf den Friedhof eines Spielers gelegt werden.

01.10.2012

Falls eine Karte abgeworfen wird, während In Frieden ruhen im Spiel ist, funktionieren Fähigkeiten, die beim \
Abwerfen einer Karte wirken (wie Wahnsinn), trotzdem, obwohl die Karte nie auf einen Friedhof gelangt.
"""

# a ruling the bundled seed page of Lightform gives, word for word: it joins that ruling's entry
REPEATED = ("Because the permanent is on the battlefield both before and after it's turned face up, turning a "
            "permanent face up doesn't cause any enters-the-battlefield abilities to trigger.")
ENGLISH_PAGE = f"""Lightform

2018-07-13

{REPEATED}
"""


def test_ingest_and_remove_say_which_cards_and_entries_a_file_brought_changed_or_took_out(
        tmp_path, monkeypatch, small_corpus):
    """Try-out 46 D8: the table said only "1 file" and the KB's new totals, not under which card the
    page's rulings went nor which entries it added (2) or a removal took out (2)."""
    from kb.build import build

    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    build()  # the KB before the judge's pages: the ruling the English page repeats is in it already
    german, english, other = (tmp_path / n for n in ("lichtform.txt", "lightform.txt", "in-frieden-ruhen.txt"))
    german.write_text(GERMAN_PAGE, encoding="utf-8")
    english.write_text(ENGLISH_PAGE, encoding="utf-8")
    other.write_text(REST_IN_PEACE_PAGE, encoding="utf-8")
    held = next(e["id"] for e in json.loads(_kb("export").stdout) if any(v["text"] == REPEATED for v in e["variants"]))

    added = _kb("ingest", str(german), str(english), str(other), "--json")
    assert added.exit_code == 0, added.output
    changes = {c["source"]: c for c in json.loads(added.stdout)["changes"]}
    de, en = changes[str(german)], changes[str(english)]
    assert de["cards"] == [{"card": "Lightform", "names": ["Lichtform"]}] and de["wordings"] == 2
    assert len(de["new_entries"]) == 2 and de["changed_entries"] == de["removed_entries"] == []
    assert en["cards"] == [{"card": "Lightform", "names": []}] and en["wordings"] == 1
    assert en["changed_entries"] == [held] and en["new_entries"] == en["removed_entries"] == []

    rip = changes[str(other)]
    assert rip["cards"] == [{"card": "Rest in Peace", "names": ["In Frieden ruhen"]}] and len(rip["new_entries"]) == 2

    removed = _kb("remove", str(other))
    assert removed.exit_code == 0, removed.output
    flat = " ".join(removed.stdout.split())
    ids = ", ".join(sorted(rip["new_entries"]))
    assert f"in-frieden-ruhen.txt: 2 rulings of Rest in Peace (In Frieden ruhen): 2 entries taken out: {ids}" in flat


def test_a_file_of_many_entries_names_five_ids_and_how_many_more():
    from io import StringIO

    from rich.console import Console

    from cli.render import entry_changes
    from kb.build import SourceChange

    out = StringIO()
    ids = tuple(f"r-{i:010d}" for i in range(7))
    cards = tuple((f"Card {c}", ()) for c in "ABCDE")
    entry_changes(Console(file=out, width=400), [SourceChange("set.json", 9, cards, new=ids, changed=ids[:1])])
    assert out.getvalue().strip() == (
        "set.json: 9 rulings of Card A, Card B, Card C and 2 more cards: 7 new entries: r-0000000000, r-0000000001, "
        "r-0000000002, r-0000000003, r-0000000004 and 2 more; 1 entry changed: r-0000000000")


# --- D10: a number that named another rule in older CRs, said plainly ------------------------------

def test_kb_rule_says_in_one_plain_sentence_which_rule_an_old_number_was_and_that_it_was_removed(built_home,
                                                                                                monkeypatch):
    """Try-out 46 D10: "in the CRs of 2014-09-25 to 2015-01-23, 708.5 was a rule no longer in the rules;
    last seen in the CR of 2015-01-23, not in that of 2018-07-13: the KB has no CR between" was hard to
    read; said as the judge expected, with the section the rule was in."""
    monkeypatch.setenv("KB_HOME", str(built_home))
    result = _kb("rule", "708.5", "--limit", "1")
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert ("in the CRs of 2014-09-25 to 2015-01-23 the number 708.5 was another rule (in section 708, "
            "Split Cards), since removed: after the CR of 2015-01-23, by that of 2018-07-13 (the KB has no CR "
            "between).") in flat
    former = json.loads(_kb("rule", "708.5", "--limit", "1", "--json").stdout)["other_rules"]
    assert [(f["section"], f["heading"]) for f in former] == [("708", "Split Cards")]


def test_kb_rule_at_a_date_names_the_removed_rule_in_the_same_words(built_home, monkeypatch):
    """With --at, the note said only "708.5 numbered another rule (no longer in the rules)": the same
    rule, said as `kb rule 708.5` says it (the section it was in, since removed)."""
    monkeypatch.setenv("KB_HOME", str(built_home))
    result = _kb("rule", "708.5", "--at", "2014-10-01", "--limit", "1")
    assert result.exit_code == 0, result.output
    assert ("note: in the CR of 2014-09-25, 708.5 numbered another rule (in section 708, Split Cards), since "
            "removed.") in " ".join(result.output.split())


# --- D11: every note in one style: "note: " and a text in lower case --------------------------------

import ast  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

SOURCES = sorted((Path(__file__).resolve().parents[1]).glob("kb/**/*.py")) + \
    sorted((Path(__file__).resolve().parents[1]).glob("cli/*.py"))


def _first_literal(node: ast.AST) -> str | None:
    """The text a string or f-string starts with ("" when it starts with a placeholder); None for any other node."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ""
    return None


def _branches(node: ast.AST) -> list[ast.AST]:
    return [*_branches(node.body), *_branches(node.orelse)] if isinstance(node, ast.IfExp) else [node]


def note_texts() -> list[tuple[str, int, str]]:
    """(file, line, start) of every note text the sources compose: what a function or property named
    `note` or `..._note` returns, what is passed to `note(...)`/`command_note(...)`, given as a `...note=`
    argument, assigned to a `...note` name, or appended to a `notes` list."""
    found = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            values: list[ast.AST] = []
            if isinstance(node, ast.FunctionDef) and node.name.endswith("note"):
                values = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
            elif isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if name in ("note", "command_note") and node.args:
                    values = [node.args[-1]]
                elif name in ("append", "extend") and isinstance(func, ast.Attribute) and node.args and \
                        (ast.unparse(func.value).endswith("notes")):
                    values = [node.args[0]]
            elif isinstance(node, ast.keyword) and node.arg and node.arg.endswith("note"):
                values = [node.value]
            elif isinstance(node, ast.Assign) and any(ast.unparse(t).endswith("note") for t in node.targets):
                values = [node.value]
            for value in values:
                for branch in _branches(value):
                    start = _first_literal(branch)
                    if start:
                        found.append((str(path), branch.lineno, start))
    return found


def test_every_note_the_sources_compose_starts_in_lower_case_after_a_lower_case_label():
    """Try-out 46 D11: "note: The KB holds no es text ..." beside "note: no card is named ...", and `kb rule`'s
    "Note: ..." lines. A note is "note: " then a text whose first word is lower case, unless it is a name, a
    number or an option, which a note starts with as a placeholder ({card}, {number}) or as `--rule`."""
    texts = note_texts()
    assert len(texts) > 10  # the scan finds the notes (RulesGap.note, no_text_note, closest_note, ...)
    assert [t for t in texts if t[2][:1].isupper()] == []
    labels = [(str(path), node.lineno) for path in SOURCES if path.parts[-2] == "cli"
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Constant) and isinstance(node.value, str)
              and re.search(r"\b(Note|NOTE|Warning|WARNING):", node.value)]
    assert labels == []


def test_kb_card_notes_are_in_one_style(built_home, monkeypatch):
    monkeypatch.setenv("KB_HOME", str(built_home))
    result = _kb("card", "Protectora de la guardia", "--lang", "es")
    assert result.exit_code == 0, result.output
    notes = [line for line in result.stderr.splitlines() if line.startswith("note:")]
    assert any(n.startswith("note: no card is named") for n in notes), result.stderr
    assert any(n.startswith("note: the KB holds no es text") for n in notes), result.stderr


# --- tryout45 #9: `kb show OLD_ID --lang de` of a removed page quotes its German wording ------------

OWN_ENGLISH = ("If the creature Lightform manifests is turned face up while you have no cards in hand, it stays "
               "tapped.")
OWN_GERMAN = ("Falls die Kreatur, die die Lichtform manifestiert, aufgedeckt wird, während du keine Karten auf der "
              "Hand hast, bleibt sie getappt.")
BOTH_PAGE = f"""Lightform

2018-07-13

{OWN_ENGLISH}

13.07.2018

{OWN_GERMAN}
"""


def test_a_gone_id_is_quoted_in_the_language_asked_for_when_its_page_gave_a_wording_in_it(
        tmp_path, monkeypatch, small_corpus, kb_home):
    """Try-out 45 #9: after `kb remove` of a page that gave a ruling in English and German, `kb show ID
    --lang de` said the id is gone quoting only the English wording, though the id's history holds both."""
    import pytest

    from kb import store
    from kb.build import build, remove
    from kb.corpus import Corpus
    from kb.errors import NotFoundError
    from kb.model import Lang
    from kb.search.embed import FakeEmbedder
    from kb.views import entry_view

    class Translating(FakeEmbedder):
        """The fake embedder, reading the German wording as the English one (as e5 finds them alike)."""

        def _embed(self, texts):
            return super()._embed([OWN_ENGLISH if t == OWN_GERMAN else t for t in texts])

    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    page = tmp_path / "lightform-own.txt"
    page.write_text(BOTH_PAGE, encoding="utf-8")
    build([page], home=kb_home, embedder=Translating())
    kb = store.load(kb_home)
    try:
        entry = next(e for e in kb.select(card="Lightform") if any(v.text == OWN_ENGLISH for v in e.variants))
        assert OWN_GERMAN in {v.text for v in entry.variants}  # one entry: the German joined as a translation
    finally:
        kb.close()
    remove(str(page), home=kb_home, embedder=Translating())
    corpus = Corpus.default()
    kb = store.load(kb_home)
    try:
        with pytest.raises(NotFoundError) as german:
            entry_view(kb, entry.id, corpus, lang=Lang.DE)
        with pytest.raises(NotFoundError) as plain:
            entry_view(kb, entry.id, corpus)
    finally:
        kb.close()
    assert f'It read "{OWN_GERMAN}" (its German wording; in English: "{OWN_ENGLISH}")' in str(german.value)
    assert f'It read "{OWN_ENGLISH}":' in str(plain.value) and OWN_GERMAN not in str(plain.value)
