"""What a Spanish and a German judge preparing an MKM / DSK prerelease noticed (tryout23): each test
pins one defect. One KB of the small corpus (fake embedder) with one page of the judge's own serves them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import common
from cli.main import app

runner = CliRunner()

# wrong on purpose, as the judge's page had it: the KB must not present it as Wizards' ruling
MINE = "A copy of a face-down Lightform is a face-down 2/2 creature that can't be turned face up."
# an official Lightform ruling (corpus/seeds) that the judge's page copies: official all the same
OFFICIAL = ("A permanent that turns face up or face down changes characteristics but is otherwise the same "
            "permanent. Spells and abilities that were targeting that permanent, as well as Auras and Equipment "
            "that were attached to the permanent, aren't affected.")


def build_with_page(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path, name: str,
                    text: str) -> tuple[Path, Any]:
    """A KB of the small corpus (fake embedder) and one page of the judge's own, `name` holding
    `text`; the build's report."""
    from kb.build import build

    home = tmp_path_factory.mktemp("page-home")
    page = tmp_path_factory.mktemp("pages") / name
    page.write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KB_HOME", str(home))
        mp.setenv("KB_EMBEDDER", "fake")
        mp.setenv("KB_CORPUS", str(small_corpus))
        return home, build([page], home=home)


@pytest.fixture(scope="module")
def own_home(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> tuple[Path, str]:
    """A KB of the small corpus and the judge's page (its path as `kb sources` names it)."""
    home, report = build_with_page(tmp_path_factory, small_corpus, "lightform-notes.txt",
                                   f"Lightform\n\n2024-02-02\n\n{MINE}\n\n2024-02-02\n\n{OFFICIAL}\n")
    assert not report.errors, report.errors
    return home, next(p for p in report.added)


def use_home(home: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point the CLI at `home`, a KB of the small corpus built with the fake embedder, and query it so."""
    from kb.search import Searcher
    from kb.search.embed import FakeEmbedder

    monkeypatch.setenv("KB_HOME", str(home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    monkeypatch.setattr(common, "NOTES", [])
    load = Searcher.load.__func__  # the index is the fake embedder's: query with it too
    monkeypatch.setattr(Searcher, "load", classmethod(
        lambda cls, index_dir, entries, **kw: load(cls, index_dir, entries, **(kw | {"query_embedder": FakeEmbedder()}))))


@pytest.fixture()
def kb_env(own_home: tuple[Path, str], small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The module's KB for this test; the page's label."""
    home, label = own_home
    use_home(home, small_corpus, monkeypatch)
    return label


def kb_json(*args: str) -> Any:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def flat(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_a_ruling_only_the_judges_page_gives_is_marked_as_theirs_not_official(kb_env: str) -> None:
    """tryout23: the judge's own (wrong) ruling looked exactly like Wizards' in `kb search`, `show`,
    `card` and `list`. A ruling an official source gives stays official, though the page copies it."""
    listed = kb_json("list", "--card", "Lightform")
    mine = next(e for e in listed if e["text"] == MINE)
    # the entry that holds the page's copy of the official ruling (its canonical text may be a newer wording)
    official = next(e for e in listed if e is not mine and any(
        v["source"] == kb_env and v["text"] == OFFICIAL for v in kb_json("show", e["id"])["variants"]))
    assert (mine["official"], mine["own_page"]) == (False, kb_env)
    assert (official["official"], official["own_page"]) == (True, None)
    assert [(e["official"], e["own_page"]) for e in listed if e is not mine] == [(True, None)] * (len(listed) - 1)
    assert {e["id"]: (e["official"], e["own_page"]) for e in kb_json("card", "Lightform")["entries"]
            if e["id"] in (mine["id"], official["id"])} == {mine["id"]: (False, kb_env), official["id"]: (True, None)}
    shown = kb_json("show", mine["id"])
    assert (shown["official"], shown["own_page"]) == (False, kb_env)
    hits = {h["id"]: h for h in kb_json("search", MINE, "-k", "20")}
    assert (hits[mine["id"]]["official"], hits[mine["id"]]["own_page"]) == (False, kb_env)
    assert all(h["official"] for i, h in hits.items() if i != mine["id"])

    mark = f"your page {kb_env}, not official"
    for args in (["list", "--card", "Lightform"], ["card", "Lightform"], ["show", mine["id"]], ["search", MINE, "-k", "20"]):
        assert flat(*args).count(mark) == 1, args
    assert mark not in flat("show", official["id"])


@pytest.mark.parametrize("args", [
    ["list", "--card", "Gemelas inquietante"],
    ["search", "¿Puedo mirar la criatura boca abajo?", "--card", "Gemelas inquietante"],
    ["outdated", "--all", "--card", "Verstörnde Zwillinge"],
])
def test_a_card_option_forgives_a_typo_as_kb_card_does_and_says_so(kb_env: str, args: list[str]) -> None:
    """tryout23: `kb card "Gemelas inquietante"` showed Unsettling Twins with a note; `list`,
    `search` and `outdated --card` refused the same name with "did you mean 'Unsettling Twins'?"."""
    typed = args[-1]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    note = f"no card is named {typed!r}; showing the closest, Unsettling Twins"
    assert note in " ".join(result.stderr.split())
    card = runner.invoke(app, ["card", typed], env={"COLUMNS": "300"})
    assert card.exit_code == 0 and note in " ".join(card.stderr.split())
    as_json = runner.invoke(app, [*args, "--json"])
    assert as_json.exit_code == 0 and note in as_json.stderr
    exact = runner.invoke(app, [*args[:-1], "Unsettling Twins"])
    assert exact.exit_code == 0 and "closest" not in exact.stderr


@pytest.mark.parametrize("command", [["list"], ["search", "face-down"], ["outdated"], ["card"]])
def test_a_name_nothing_is_close_to_is_still_refused_with_the_names_that_contain_it(kb_env: str,
                                                                                     command: list[str]) -> None:
    args = [*command, "Ugin"] if command == ["card"] else [*command, "--card", "Ugin"]
    result = runner.invoke(app, args, env={"COLUMNS": "300"})
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "unknown card 'Ugin'; did you mean 'Ugin, the Spirit Dragon'" in said, said
