"""kb.current: the KB a command works on is built on first use and rebuilt, with a note, when it is
damaged or its search index is stale; the CLI only draws what these functions report."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb import store
from kb.current import open_current, open_for_search
from kb.errors import StoreError
from tests.test_coverage import entry
from kb.corpus import Corpus


@pytest.fixture(autouse=True)
def fast_build(small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    monkeypatch.setenv("KB_EMBEDDER", "fake")


@pytest.fixture()
def corpus(small_corpus: Path) -> Corpus:
    return Corpus(small_corpus)


def test_first_open_builds_the_kb_once_and_then_opens_it(kb_home: Path, corpus: Corpus) -> None:
    calls: list[str] = []
    first = open_current(kb_home, corpus, on_first_build=lambda: calls.append("build"), on_note=calls.append)
    assert calls == ["build"] and first.notes == [] and len(first.kb) > 0
    again = open_current(kb_home, corpus, on_first_build=lambda: calls.append("build"), on_note=calls.append)
    assert calls == ["build"] and again.kb.generation == first.kb.generation


def test_a_damaged_kb_is_rebuilt_with_a_note_said_before_the_rebuild(kb_home: Path, corpus: Corpus) -> None:
    open_current(kb_home, corpus)
    store.db_path(kb_home).write_bytes(b"not a database" * 100)
    said: list[str] = []
    stages: list[str] = []

    def on_progress(stage: str, done: int, total: int) -> None:
        stages.append(stage)
        assert said, "the note comes before the rebuild's progress"

    opened = open_current(kb_home, corpus, on_note=said.append, on_progress=on_progress)
    assert said and "rebuilt it from the bundled corpus" in said[0] and stages
    assert opened.notes and set(said) <= set(opened.notes) and len(opened.kb) > 0


def test_a_kb_without_a_search_index_is_rebuilt_once_for_search_then_the_error_stands(kb_home: Path,
                                                                                    corpus: Corpus) -> None:
    store.write(kb_home, [entry("r-a", "708.8")], report={}, meta={})  # no index written
    said: list[str] = []
    # the rebuild's index uses the fake build embedder, which the e5 query path refuses: no second try
    with pytest.raises(StoreError, match="unset KB_EMBEDDER and run `kb ingest`"):  # what the fix really is
        open_for_search(kb_home, corpus, on_note=said.append)
    assert len(said) == 1 and said[0].endswith("; rebuilding now") and "index" in said[0]
    assert len(store.load(kb_home)) > 1  # rebuilt: the bundled corpus, not the one entry written


def test_an_index_the_fake_build_embedder_made_is_refused_at_once_not_rebuilt_on_every_search(
        kb_home: Path, corpus: Corpus) -> None:
    """With KB_EMBEDDER=fake every rebuild makes the same index the e5 queries refuse: `kb search`
    rebuilt the whole KB on each call (seconds) before saying so."""
    store.write(kb_home, [entry("r-a", "708.8")], report={}, meta={})
    with pytest.raises(StoreError):  # the first search builds the missing index, then refuses it
        open_for_search(kb_home, corpus)
    generation = store.generation(kb_home)
    said: list[str] = []
    with pytest.raises(StoreError, match="unset KB_EMBEDDER and run `kb ingest`"):
        open_for_search(kb_home, corpus, on_note=said.append)
    assert said == [] and store.generation(kb_home) == generation  # nothing rebuilt


def test_a_kb_built_from_another_state_of_the_corpus_is_rebuilt_with_a_note(kb_home: Path, small_corpus: Path,
                                                                          tmp_path: Path) -> None:
    """A judge-kb update (or an edited check file) changes the bundled corpus: the KB built from the
    old one must not go on answering from it unnoticed."""
    import shutil

    folder = tmp_path / "corpus"
    shutil.copytree(small_corpus, folder)
    first = open_current(kb_home, Corpus(folder))
    said: list[str] = []
    same = open_current(kb_home, Corpus(folder), on_note=said.append)
    assert said == [] and same.kb.generation == first.kb.generation  # unchanged: opened as it is
    check = sorted((folder / "checks").glob("*.yaml"))[0]
    check.write_text(check.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    changed = open_current(kb_home, Corpus(folder), on_note=said.append)
    assert len(said) == 1 and "bundled corpus changed" in said[0]
    assert changed.kb.generation == first.kb.generation + 1
    again = open_current(kb_home, Corpus(folder), on_note=said.append)
    assert len(said) == 1 and again.kb.generation == changed.kb.generation
