"""Building the index again after a change reuses the last build's work (hubness through its memo,
each text's tokens) and writes what a build from nothing writes."""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest

from kb.search.index import HubMemo, hub_pool, hubness, hubness_remembered


def _corpus(n: int, seed: int, dim: int = 32) -> tuple[np.ndarray, np.ndarray, list[str]]:
    rng = np.random.default_rng(seed)
    common = rng.normal(size=dim)
    vectors = (0.5 * common + rng.normal(size=(n, dim))).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    owner = np.arange(n) // 2  # two texts per entry: each other's copy never counts
    keys = [f"e{o}\0t{i}" for i, o in enumerate(owner)]
    return vectors, owner, keys


def _change(vectors: np.ndarray, owner: np.ndarray, keys: list[str], seed: int,
            ) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Another build: three texts gone, five new ones (one of them in an entry that was there),
    one text moved to another entry, the documents in another order."""
    rng = np.random.default_rng(seed)
    keep = np.array([i for i in range(len(keys)) if i not in (3, 40, 77)])
    new = rng.normal(size=(5, vectors.shape[1])).astype(np.float32)
    new /= np.linalg.norm(new, axis=1, keepdims=True)
    v = np.concatenate([vectors[keep], new])
    o = np.concatenate([owner[keep], [10, 900, 901, 901, 902]])
    k = [keys[i] for i in keep] + [f"e{e}\0new{j}" for j, e in enumerate([10, 900, 901, 901, 902])]
    o[20] = 903  # moved: its key names its entry
    k[20] = f"e903\0{k[20].split(chr(0))[1]}"
    order = rng.permutation(len(k))
    return v[order], o[order], [k[i] for i in order]


def test_without_a_memo_it_is_hubness_over_the_hashed_sample() -> None:
    vectors, owner, keys = _corpus(300, 1)
    hub, memo = hubness_remembered(vectors, owner, keys, "m", None, k=5, sample=120)
    assert np.array_equal(hub, hubness(vectors, owner, k=5, sample=120, keys=keys))
    assert memo.keys == keys and len(memo.pool) == 120


@pytest.mark.parametrize("sample", [1000, 120])  # every text in the sample; a sample that changes
def test_a_changed_corpus_through_the_memo_gets_the_fresh_hubness(sample: int) -> None:
    vectors, owner, keys = _corpus(300, 2)
    _, memo = hubness_remembered(vectors, owner, keys, "m", None, k=5, sample=sample)
    v2, o2, k2 = _change(vectors, owner, keys, 3)
    hub, memo2 = hubness_remembered(v2, o2, k2, "m", memo, k=5, sample=sample)
    fresh, fresh_memo = hubness_remembered(v2, o2, k2, "m", None, k=5, sample=sample)
    np.testing.assert_allclose(hub, fresh, atol=1e-6)
    assert memo2.pool == fresh_memo.pool
    np.testing.assert_allclose(np.sort(memo2.near, axis=1), np.sort(fresh_memo.near, axis=1), atol=1e-6)


def test_the_memo_is_used_for_the_texts_it_holds() -> None:
    """A value planted in the memo shows in the result for a text the change left alone, and not
    for a new text: the memo is read, not recomputed behind its back."""
    vectors, owner, keys = _corpus(300, 4)
    _, memo = hubness_remembered(vectors, owner, keys, "m", None, k=5, sample=1000)
    planted = HubMemo(memo.model, memo.k, memo.keys, memo.pool, memo.near.copy(), memo.at)
    planted.near[0] = 0.99
    v2, o2, k2 = _change(vectors, owner, keys, 5)
    hub, _ = hubness_remembered(v2, o2, k2, "m", planted, k=5, sample=1000)
    assert hub[k2.index(keys[0])] >= 0.99 - 1e-6
    other_model, _ = hubness_remembered(v2, o2, k2, "another", planted, k=5, sample=1000)
    assert other_model[k2.index(keys[0])] < 0.9  # a memo of another model is not used


def test_the_hashed_sample_moves_little_when_a_text_is_added() -> None:
    keys = [f"e{i}\0t{i}" for i in range(2000)]
    before = {keys[i] for i in hub_pool(keys, 500)}
    after = {(keys + ["e9999\0new"])[i] for i in hub_pool(keys + ["e9999\0new"], 500)}
    assert len(before - after) <= 1 and len(after - before) <= 1
    assert list(hub_pool(keys, 5000)) == list(range(2000))


def test_an_index_built_again_after_a_change_is_the_index_built_from_nothing(tmp_path, monkeypatch) -> None:
    """Same files (but meta.json's build time) whether the memos of an earlier build were used or not."""
    from kb.corpus import Corpus
    from kb.model import Entry, Kind, Lang, Relation, Variant
    from kb.search.cardnames import CardIndex, CardMatcher
    from kb.search.embed import FakeEmbedder
    from kb.search.index import build_index

    corpus = Corpus.default()

    def entry(i: int, text: str) -> Entry:
        v = Variant(text, text, Lang.EN, "2018-07-13", "seed", i, Relation.CANONICAL, 1.0, "Lightform")
        return Entry(f"r-{i:04d}", Kind.RULING, text, ("Lightform",), "2018-07-13", "2018-07-13", (v,))

    words = "face down morph manifest turn up cost creature spell library exile reveal".split()
    rng = np.random.default_rng(9)
    texts = [" ".join(rng.choice(words, size=12)) + f" number {i}." for i in range(60)]
    before = [entry(i, t) for i, t in enumerate(texts)]
    after = before[:10] + before[12:] + [entry(100, "A morph creature turned face up keeps its counters.")]
    cards = CardIndex(CardMatcher({}), {})

    def build(entries: list[Entry], home: str, out: str) -> dict[str, bytes]:
        monkeypatch.setenv("KB_HOME", str(tmp_path / home))
        build_index(entries, tmp_path / out, FakeEmbedder(), cards=cards, corpus=corpus)
        return {p.name: p.read_bytes() for p in (tmp_path / out).iterdir() if p.name != "meta.json"}

    build(before, "home", "first")
    again = build(after, "home", "second")  # the memos of the first build are read
    fresh = build(after, "other-home", "fresh")
    cache = tmp_path / "home" / "cache"
    assert any(cache.glob("doctokens-*")) and any(cache.glob("hubmemo-*")) and any(cache.glob("samewords-*"))
    assert again.keys() == fresh.keys()
    for name in fresh:
        if name != "docs.json":
            assert again[name] == fresh[name], name
    # hubness found through the memo may differ from a fresh pass in the last bits of a float32
    rows, fresh_rows = json.loads(again["docs.json"]), json.loads(fresh["docs.json"])
    assert rows["entry"] == fresh_rows["entry"] and rows["lang"] == fresh_rows["lang"]
    hub, fresh_hub = (np.frombuffer(base64.b64decode(r["hub"]), dtype="<f4") for r in (rows, fresh_rows))
    np.testing.assert_allclose(hub, fresh_hub, atol=1e-6)
    assert hub.max() > 0.1


def test_a_text_s_tokens_are_found_again_when_the_glossary_changed(tmp_path, monkeypatch) -> None:
    """The tokens remembered for a text hold for one glossary: with another (a new term), the
    index is the one a build from nothing makes with it."""
    from kb.corpus import Corpus
    from kb.model import Entry, Kind, Lang, Relation, Variant
    from kb.search.cardnames import CardIndex, CardMatcher
    from kb.search.embed import FakeEmbedder
    from kb.search.glossary import Concept, Glossary
    from kb.search.index import build_index

    corpus = Corpus.default()
    text = "The zorblax of a face-down creature is copiable."
    v = Variant(text, text, Lang.EN, "2018-07-13", "seed", 1, Relation.CANONICAL, 1.0, "Lightform")
    entries = [Entry("r-1", Kind.RULING, text, ("Lightform",), "2018-07-13", "2018-07-13", (v,))]
    more = corpus.glossary.merged(Glossary([Concept("zorblax", {Lang.EN: ("zorblax",)})], "new-term"))
    cards = CardIndex(CardMatcher({}), {})
    for home, glossaries in (("home", (corpus.glossary, more)), ("fresh", (more,))):
        monkeypatch.setenv("KB_HOME", str(tmp_path / home))
        for n, glossary in enumerate(glossaries):
            build_index(entries, tmp_path / f"{home}{n}", FakeEmbedder(), cards=cards, corpus=corpus, glossary=glossary)
    assert (tmp_path / "home1" / "bm25.npz").read_bytes() == (tmp_path / "fresh0" / "bm25.npz").read_bytes()
    assert (tmp_path / "home0" / "bm25.npz").read_bytes() != (tmp_path / "fresh0" / "bm25.npz").read_bytes()


def test_the_card_index_compiled_through_the_remembered_words_is_the_one_compiled_afresh(tmp_path, monkeypatch) -> None:
    """The rulings' lower-case words (not card names where a ruling writes them so) are remembered
    per wording; a build with other wordings gets the card index a build from nothing gets."""
    from kb.corpus import Corpus
    from kb.model import Entry, Kind, Lang, Relation, Variant
    from kb.search.index import default_card_index

    corpus = Corpus.default()

    def entry(i: int, text: str) -> Entry:
        v = Variant(text, text, Lang.ES, "2018-07-13", "seed", i, Relation.TRANSLATION, 1.0, "Lightform")
        return Entry(f"r-{i}", Kind.RULING, "Some English text.", ("Lightform",), "2018-07-13", "2018-07-13", (v,))

    first = [entry(1, "Si la criatura boca abajo es una tierra, vuelve a la mano."), entry(2, "Un pantano no es.")]
    second = [first[0], entry(3, "Una isla y un bosque boca abajo.")]
    monkeypatch.setenv("KB_HOME", str(tmp_path / "home"))
    default_card_index(first, corpus)
    again = default_card_index(second, corpus).to_json()
    monkeypatch.setenv("KB_HOME", str(tmp_path / "fresh"))
    fresh = default_card_index(second, corpus).to_json()
    assert any((tmp_path / "home" / "cache").glob("lowerwords-*"))
    from kb.search.cardnames import ASSOCIATIONS_FILE, compile_card_index

    plain = compile_card_index(second, corpus.oracle, corpus.names,
                               (corpus.folder / ASSOCIATIONS_FILE).read_text(encoding="utf-8"), corpus.glossary)
    assert again == fresh == plain.to_json()  # as compiled with nothing remembered
    assert fresh != default_card_index(first, corpus).to_json()  # the wordings matter
