"""The on-disk cache of derived data: reused while its inputs are unchanged, never stale, never fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.store.cache import cached


def test_value_is_reused_until_an_input_changes(tmp_path: Path, kb_home: Path) -> None:
    source = tmp_path / "rules.txt"
    source.write_text("one")
    calls: list[str] = []

    def compute() -> str:
        calls.append(source.read_text())
        return source.read_text().upper()

    assert cached("t", [source], compute) == "ONE"
    assert cached("t", [source], compute) == "ONE"
    assert calls == ["one"]
    source.write_text("two")
    assert cached("t", [source], compute) == "TWO"
    assert calls == ["one", "two"]
    assert len(list((kb_home / "cache").glob("t-*.pickle"))) == 1, "the stale value is dropped"


def test_a_damaged_cache_file_is_recomputed(tmp_path: Path, kb_home: Path) -> None:
    source = tmp_path / "rules.txt"
    source.write_text("one")
    cached("t", [source], lambda: "value")
    (file,) = (kb_home / "cache").glob("t-*.pickle")
    file.write_bytes(file.read_bytes()[:5])
    assert cached("t", [source], lambda: "recomputed") == "recomputed"


def test_an_unwritable_data_directory_only_costs_speed(tmp_path: Path, kb_home: Path) -> None:
    kb_home.parent.mkdir(parents=True, exist_ok=True)
    kb_home.write_text("a file where the data directory should be")
    source = tmp_path / "rules.txt"
    source.write_text("one")
    assert cached("t", [source], lambda: 42) == 42


def test_the_parse_memo_is_keyed_by_every_kb_module_the_parsers_import() -> None:
    """A remembered parse is stale when any code it ran changed: every `kb` module the parsers
    import (the text module's date formats, the card names table ...) is an input of the memo."""
    import ast

    import kb
    from kb.build import parse_inputs
    from kb.corpus import Corpus

    root = Path(kb.__file__).parent
    inputs = {p.resolve() for p in parse_inputs(Corpus.default())}
    imported: set[Path] = set()
    for source in (root / "ingest" / f"{name}.py" for name in ("__init__", "pages", "mtgjson", "notes", "html")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                if name.startswith("kb.") and not name.startswith("kb.ingest"):
                    module = root.joinpath(*name.split(".")[1:])
                    imported.add((module / "__init__.py" if module.is_dir() else module.with_suffix(".py")).resolve())
    assert imported and imported <= inputs, sorted(str(p) for p in imported - inputs)
    assert (Corpus.default().folder / "oracle").resolve() in {p.parent for p in inputs}  # titles resolve through it


def test_a_corpus_checks_are_remembered_until_a_check_file_changes(tmp_path: Path, kb_home: Path) -> None:
    import shutil

    from kb.corpus import Corpus

    bundled = Corpus.default().folder
    for part in ("checks", "cards"):
        shutil.copytree(bundled / part, tmp_path / part)
    first, _ = Corpus(tmp_path).checks
    assert list((kb_home / "cache").glob("checkset-*.pickle"))
    again, _ = Corpus(tmp_path).checks
    assert [c.id for c in again] == [c.id for c in first]
    morph = tmp_path / "checks" / "morph.yaml"
    morph.write_text(morph.read_text(encoding="utf-8").replace("\n  - name: ", "\n  - name: renamed-", 1), encoding="utf-8")
    changed, _ = Corpus(tmp_path).checks
    assert len(changed) == len(first) and any(c.id.startswith("morph/renamed-") for c in changed)


def test_the_scenario_cards_are_read_from_the_cache_until_a_card_file_changes(tmp_path: Path, kb_home: Path,
                                                                              monkeypatch) -> None:
    """`kb show` of an entry with checks parsed ~100 card YAML files on every call (~0.07 s)."""
    import shutil

    import kb.checks
    from kb.corpus import Corpus

    shutil.copytree(Corpus.default().folder / "cards", tmp_path / "cards")
    first = Corpus(tmp_path).cards
    real, calls = kb.checks.load_cards, []
    monkeypatch.setattr(kb.checks, "load_cards", lambda *a: calls.append(1) or real(*a))
    assert Corpus(tmp_path).cards == first and calls == []
    some = sorted((tmp_path / "cards").glob("*.yaml"))[0]
    name = next(iter(real(tmp_path / "cards")))
    some.write_text(some.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # a changed file is read again
    assert Corpus(tmp_path).cards[name] == first[name] and calls == [1]


def test_the_bundled_sources_are_parsed_once_while_nothing_they_derive_from_changes(kb_home: Path,
                                                                                    monkeypatch) -> None:
    import kb.build
    from kb.corpus import Corpus

    corpus = Corpus.default()
    calls: list[int] = []
    real = kb.build.ingest
    monkeypatch.setattr(kb.build, "ingest", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = kb.build.parse_bundled(corpus, corpus.sources(), corpus.names.copy())
    again = kb.build.parse_bundled(corpus, corpus.sources(), corpus.names.copy())
    assert calls == [1] and again.records == first.records and again.files == first.files


def test_the_links_memo_is_keyed_by_every_kb_module_the_linker_imports() -> None:
    """Links are remembered per entry: a change to any code the linker runs (its BM25, the Oracle
    and MTGJSON card texts it reads) must make them stale."""
    import ast

    import kb
    from kb.build import link_inputs
    from kb.corpus import Corpus

    root = Path(kb.__file__).parent
    inputs = {p.resolve() for p in link_inputs(Corpus.default())}
    imported: set[Path] = set()
    for node in ast.walk(ast.parse((root / "cr" / "links.py").read_text(encoding="utf-8"))):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
            [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom):  # `from kb.ingest import mtgjson` is the module mtgjson
            names = [f"{node.module}.{a.name}" if root.joinpath(*f"{node.module}.{a.name}".split(".")[1:])
                     .with_suffix(".py").is_file() else node.module or "" for a in node.names]
        for name in names:
            if name.startswith("kb."):
                module = root.joinpath(*name.split(".")[1:])
                imported.add((module / "__init__.py" if module.is_dir() else module.with_suffix(".py")).resolve())
    assert len(imported) >= 5 and imported <= inputs, sorted(str(p) for p in imported - inputs)



def test_a_change_to_dedup_leaves_the_links_memo_standing() -> None:
    """The linker reads a German or Spanish ruling's glossary concepts with dedup's word forms, from
    a module of their own: a change to dedup alone does not relink every entry (minutes at 100k)."""
    from kb import concepts
    from kb.build import link_inputs
    from kb.corpus import Corpus
    from kb.ingest import dedup

    inputs = {p.resolve() for p in link_inputs(Corpus.default())}
    assert Path(dedup.__file__).resolve() not in inputs
    assert Path(concepts.__file__).resolve() in inputs

class _Memo:
    """`memo_map` over keys whose value is the key in capitals, remembered under one input file,
    with the keys it computed (`calls`) and its file in the cache."""

    def __init__(self, source: Path, cache: Path) -> None:
        self.source, self.cache = source, cache
        self.calls: list[str] = []
        source.write_text("v1")

    def __call__(self, keys: list[str]) -> list[str]:
        from kb.store.cache import memo_map

        def compute(todo: list[str]) -> list[str]:
            self.calls.extend(todo)
            return [k.upper() for k in todo]

        return memo_map("m", [self.source], keys, lambda k: k, compute)

    @property
    def file(self) -> Path:
        (file,) = self.cache.glob("m-*.pickle")
        return file


@pytest.fixture()
def memo(tmp_path: Path, kb_home: Path) -> _Memo:
    return _Memo(tmp_path / "code.py", kb_home / "cache")


def test_a_memo_that_learns_a_few_keys_appends_them_instead_of_writing_the_table_again(memo: _Memo) -> None:
    """Adding one page to a large KB computes a few new values: the memo's file keeps its bytes
    and grows by those values (at 100k rulings the tables are tens of MB each)."""
    many = [f"k{i}" for i in range(100)]
    assert memo(many) == [k.upper() for k in many]
    first = memo.file.read_bytes()
    assert memo([*many, "new"])[-1] == "NEW"
    grown = memo.file.read_bytes()
    assert grown.startswith(first) and len(grown) - len(first) < len(first) / 4, "appended, not rewritten"
    memo.calls.clear()
    assert memo([*many, "new"]) == [k.upper() for k in [*many, "new"]]
    assert memo.calls == [], "every value, appended or not, is read back"


def test_a_memo_forgets_the_keys_a_build_no_longer_asks_for(memo: _Memo) -> None:
    many = [f"k{i}" for i in range(100)]
    memo(many)
    memo(many[1:])  # a removed source: k0 is no longer asked for
    memo.calls.clear()
    assert memo(many)[0] == "K0"
    assert memo.calls == ["k0"], "a key dropped from the table is computed again"


def test_a_memo_record_cut_short_by_a_killed_build_costs_only_its_values(memo: _Memo) -> None:
    many = [f"k{i}" for i in range(100)]
    memo(many)
    whole = len(memo.file.read_bytes())
    memo([*many, "new1", "new2"])
    memo.file.write_bytes(memo.file.read_bytes()[:whole + 8])  # the appended record, cut short
    memo.calls.clear()
    assert memo([*many, "new1", "new2"])[-2:] == ["NEW1", "NEW2"]
    assert memo.calls == ["new1", "new2"]
    memo.calls.clear()  # the table was written whole again: nothing after the cut is lost any more
    assert memo([*many, "new1", "new2", "new3"])[-1] == "NEW3"
    memo.calls.clear()
    memo([*many, "new1", "new2", "new3"])
    assert memo.calls == []


def test_a_memo_log_is_written_whole_again_after_many_appends(memo: _Memo) -> None:
    from kb.store.cache import Log

    many = [f"k{i}" for i in range(1000)]
    memo(many)
    sizes = []
    for n in range(Log._MAX_RECORDS + 1):
        many.append(f"n{n}")
        memo(many)
        sizes.append(len(memo.file.read_bytes()))
    assert any(b < a for a, b in zip(sizes, sizes[1:])), "the appended records were folded into one table"
    memo.calls.clear()
    assert memo(many) == [k.upper() for k in many] and memo.calls == []



def test_a_build_into_a_data_directory_keeps_its_caches_there_whatever_kb_home_says(
        tmp_path: Path, kb_home: Path, small_corpus: Path, monkeypatch) -> None:
    """A library caller's `build(home=B)` writes nothing into `$KB_HOME`'s folder: its disk cache
    and its embedding cache are B's (a cache keyed by the environment mixes two data directories).
    `rebuild`, `remove` and `load_or_build` given B do their work with B's cache folder too."""
    import kb.build
    from kb.corpus import Corpus
    from kb.store.cache import folder

    monkeypatch.setenv("KB_EMBEDDER", "fake-cached")  # the fake model behind the real embedding cache
    page = Path(__file__).parent / "data" / "pages" / "discord-megamorph-post.txt"
    elsewhere = tmp_path / "elsewhere"
    report = kb.build.build([page], home=elsewhere, corpus=Corpus(small_corpus))
    assert report.added
    assert not kb_home.exists(), sorted(str(p.relative_to(kb_home)) for p in kb_home.rglob("*"))
    cache = elsewhere / "cache"
    assert list(cache.glob("links-*.pickle")) and list(cache.glob("rules-*.pickle"))
    assert any((cache / "embeddings").iterdir())

    class Stop(Exception):
        pass

    folders: list[Path] = []

    def build_entries(*args: object, **kwargs: object) -> None:
        folders.append(folder())
        raise Stop

    monkeypatch.setattr(kb.build, "build_entries", build_entries)
    other = tmp_path / "other"
    for call in (lambda: kb.build.rebuild(home=elsewhere, corpus=Corpus(small_corpus)),
                 lambda: kb.build.remove(report.added[0], home=elsewhere, corpus=Corpus(small_corpus)),
                 lambda: kb.build.load_or_build(home=other, corpus=Corpus(small_corpus))):
        with pytest.raises(Stop):
            call()
    assert folders == [cache, cache, other / "cache"]
    assert not kb_home.exists()


def test_a_killed_writes_temp_file_is_removed_by_the_next_write_of_its_table(kb_home: Path) -> None:
    """review43 #5: a build that fails stops the child writing deduplication's memo tables mid-write,
    and each such stop left a temp file of a few hundred MB in the cache folder for ever."""
    import os
    import time

    from kb.store.cache import STALE_TEMP_SECONDS, folder, load_table, save_table

    inputs = [Path(__file__)]
    save_table("signatures", inputs, {"a": 1})
    killed = folder() / ".signatures-0123.pickle.abcd1234.tmp"
    killed.write_bytes(b"half a pickle")
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(killed, (old, old))
    under_way = folder() / ".signatures-0123.pickle.efgh5678.tmp"  # another write, just begun
    under_way.write_bytes(b"being written")
    other = folder() / ".evidence-0123.pickle.abcd1234.tmp"  # another table's
    other.write_bytes(b"x")
    os.utime(other, (old, old))
    save_table("signatures", inputs, {"a": 2})
    assert not killed.exists() and under_way.exists() and other.exists()
    assert load_table("signatures", inputs) == {"a": 2}
