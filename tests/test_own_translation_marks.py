"""A judge's own translation of a ruling is marked as theirs where it is shown (tryout44 L2): a German
page translating an official English ruling joined that ruling's entry, and `kb card --lang de`,
`kb list --lang de` and `kb search` showed the judge's German words unmarked, as if Wizards' (the
mark followed the entry's canonical English text only); a translation of another own page's ruling
was credited to that page, not its own file. A hand-made KB: the store as a build leaves it."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from kb import store
from kb.corpus import Corpus
from kb.model import Entry, Format, Kind, Lang, Relation, Variant
from kb.search import Searcher, build_index
from kb.search.embed import FakeEmbedder
from kb.search.index import default_card_index
from kb.store import NewSource

runner = CliRunner()

ENGLISH = "If you don't play the card, it will remain exiled."
GERMAN = "Wenn du die Karte nicht spielst, bleibt sie im Exil."
MINE_EN = "The exiled card stays exiled until end of turn, then it is put into its owner's graveyard."
MINE_DE = "Die Karte bleibt bis zum Ende des Zuges im Exil und kommt dann auf den Friedhof."
PAGE_DE, PAGE_EN = "/judge/Zornschamanin.txt", "/judge/Ire Shaman.txt"


def _source(path: str) -> NewSource:
    data = path.encode()
    return NewSource(path, hashlib.sha256(data).hexdigest(), data, Format.CARD_PAGE.value, 1, 0)


def _variant(text: str, lang: Lang, source: str, relation: Relation) -> Variant:
    return Variant(text, text, lang, "2015-02-25", source, 1, relation, 1.0, "Ire Shaman")


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_HOME", str(tmp_path))
    official = Entry("r-official", Kind.RULING, ENGLISH, ("Ire Shaman",), "2015-02-25", "2015-02-25", (
        _variant(ENGLISH, Lang.EN, "corpus/mtgjson/DTK.json", Relation.CANONICAL),
        _variant(GERMAN, Lang.DE, PAGE_DE, Relation.TRANSLATION)))
    mine = Entry("r-mine", Kind.RULING, MINE_EN, ("Ire Shaman",), "2015-02-25", "2015-02-25", (
        _variant(MINE_EN, Lang.EN, PAGE_EN, Relation.CANONICAL),
        _variant(MINE_DE, Lang.DE, PAGE_DE, Relation.TRANSLATION)))
    write_kb(tmp_path, [official, mine], [PAGE_DE, PAGE_EN], monkeypatch)
    return tmp_path


def write_kb(home: Path, entries: list[Entry], pages: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`entries` written by the store with `pages` as the judge's own library files, a search index of
    the fake embedder beside them, and the CLI's searches querying it with that embedder."""
    corpus = Corpus.default()
    cards = default_card_index(entries, corpus)
    store.write(home, entries, report={}, meta={}, add=[_source(page) for page in pages],
                build_index=lambda folder: build_index(entries, folder, FakeEmbedder(), cards=cards, corpus=corpus))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    load = Searcher.load.__func__  # the index is the fake embedder's: query with it too
    monkeypatch.setattr(Searcher, "load", classmethod(
        lambda cls, index_dir, entries, **kw: load(cls, index_dir, entries, **(kw | {"query_embedder": FakeEmbedder()}))))


def _flat(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_own_texts_names_the_file_of_each_shown_text_no_official_source_gives(home: Path) -> None:
    with store.snapshot(home) as kb:
        found = kb.own_texts([("r-official", GERMAN), ("r-official", ENGLISH), ("r-mine", MINE_DE), ("r-mine", MINE_EN)])
    assert found == {("r-official", GERMAN): PAGE_DE, ("r-mine", MINE_DE): PAGE_DE, ("r-mine", MINE_EN): PAGE_EN}


def test_a_judges_translation_is_marked_with_its_own_file_in_list_and_card() -> None:
    listed = {e["id"]: e for e in json.loads(_flat("list", "--card", "Ire Shaman", "--lang", "de", "--json"))}
    assert (listed["r-official"]["official"], listed["r-official"]["shown_own_page"]) == (True, PAGE_DE)
    assert (listed["r-mine"]["own_page"], listed["r-mine"]["shown_own_page"]) == (PAGE_EN, PAGE_DE)
    for args in (["list", "--card", "Ire Shaman", "--lang", "de"], ["card", "Ire Shaman", "--lang", "de"]):
        shown = _flat(*args)
        assert shown.count(f"your page {PAGE_DE}, not official") == 2, args
        assert PAGE_EN not in shown, args  # the English page's text is not what is shown
    english = _flat("card", "Ire Shaman")
    assert english.count(f"your page {PAGE_EN}, not official") == 1 and PAGE_DE not in english


def test_a_judges_translation_is_marked_in_search_beside_its_official_english() -> None:
    hits = {h["id"]: h for h in json.loads(_flat("search", "Bleibt die Karte im Exil, wenn ich sie nicht spiele?",
                                                 "--lang", "de", "-k", "5", "--json"))}
    assert (hits["r-official"]["official"], hits["r-official"]["shown_own_page"]) == (True, PAGE_DE)
    assert (hits["r-mine"]["own_page"], hits["r-mine"]["shown_own_page"]) == (PAGE_EN, PAGE_DE)
    shown = _flat("search", "Bleibt die Karte im Exil, wenn ich sie nicht spiele?", "--lang", "de", "-k", "5")
    assert shown.count(f"de text: your page {PAGE_DE}, not official") == 2
    assert shown.count(f"your page {PAGE_EN}, not official") == 1  # r-mine's English text, shown below its German


def test_show_json_names_the_file_of_the_text_shown_as_list_and_search_do() -> None:
    """`kb show --json` lacked `shown_own_page` (session 44's note): with --lang de it is the German
    translation's file, also for an official ruling; without, the canonical text's own file or null."""
    official_de = json.loads(_flat("show", "r-official", "--lang", "de", "--json"))
    mine_de = json.loads(_flat("show", "r-mine", "--lang", "de", "--json"))
    assert (official_de["official"], official_de["shown_own_page"]) == (True, PAGE_DE)
    assert (mine_de["own_page"], mine_de["shown_own_page"]) == (PAGE_EN, PAGE_DE)
    official, mine = (json.loads(_flat("show", entry_id, "--json")) for entry_id in ("r-official", "r-mine"))
    assert (official["shown_own_page"], mine["shown_own_page"]) == (None, PAGE_EN)
