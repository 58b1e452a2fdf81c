"""Deduplication's delta (kb.ingest.delta): records added page by page give, with the state the last call
left, the very entries one call over all the records gives, also where a global rule of the candidates or
the joins is touched (a 3-gram turning common, a row's top MAX_CANDIDATES, a card name, a group whose
records changed, a group gone); and those that need the full join take it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from kb.ingest.dedup import MAX_CANDIDATES, MAX_SHINGLE_DF, Clustering, Similarities, deduplicate
from kb.ingest.delta import with_digests
from kb.model import Kind, Lang, Record
from kb.store.digests import content_digest


def _record(text: str, source: str, line: int = 1, card: str | None = None, date: str | None = "2020-01-01",
            lang: Lang = Lang.EN) -> Record:
    return Record(text=text, original=text, lang=lang, date=date, source=source, line=line, kind=Kind.RULING,
                  card=card)


def _added_one_by_one(pages: list[list[Record]]) -> list[bool]:
    """Deduplicate the pages' records page by page with the clustering state, each result compared with
    one call over the same records; whether each call after the first took the delta."""
    return _added_with_digests(pages)[0]


def _added_with_digests(pages: list[list[Record]]) -> tuple[list[bool], list[dict[str, str | None]]]:
    """`_added_one_by_one`, each call's entries' known content digests checked against the entries (the state
    keeping the digests of the entries made, as the build's child does): the delta's flags, and each call's
    known digest by entry text."""
    clustering, similarity = Clustering(), Similarities()
    records: list[Record] = []
    took: list[bool] = []
    known: list[dict[str, str | None]] = []
    for k, page in enumerate(pages):
        records = records + page
        got = deduplicate(records, embedder=None, similarity=similarity, clustering=clustering)
        want = deduplicate(records, embedder=None)
        assert got == want, f"page {k}"
        assert len(clustering.known) == len(got)
        for entry, digest in zip(got, clustering.known):
            assert digest in (None, content_digest(entry)), f"page {k}: a stale digest for {entry.text!r}"
        known.append({e.text: digest for e, digest in zip(got, clustering.known)})
        clustering.state = with_digests(clustering.state, clustering.made)
        if k:
            took.append(clustering.delta)
    return took, known


BASE = ("when this creature enters the battlefield you may return target card from your graveyard to your "
        "hand and it deals damage equal to")


def test_a_new_group_that_pushes_a_revision_out_of_a_rows_candidates_parts_them() -> None:
    # the first wording's row: 31 wordings of another number share more 3-grams with it than its revision
    # (a word changed in the middle), which is its 32nd candidate until one more such wording comes
    first = _record(f"{BASE} 0.", "a.txt")
    revision = _record(f"{BASE.replace('may return', 'may send')} 0.", "b.txt")
    others = [_record(f"{BASE} {n}.", "c.txt", line=n) for n in range(10, 10 + MAX_CANDIDATES - 1)]
    took = _added_one_by_one([[first, revision, *others], [_record(f"{BASE} 99.", "d.txt")]])
    assert took == [True]
    before = deduplicate([first, revision, *others], embedder=None)
    assert any(len(e.variants) == 2 for e in before), "the revision joined while it was a candidate"


def test_a_3gram_turning_common_takes_the_full_join() -> None:
    # two revisions that share only 3-grams which, with the last page, more than MAX_SHINGLE_DF groups hold
    a, b = _record("p q r s t m", "a.txt"), _record("p q r s t n", "b.txt")
    others = [_record(f"p q r s t {' '.join(f'z{n}w{k}' for k in range(20))}", "c.txt", line=n)
              for n in range(MAX_SHINGLE_DF - 2)]
    took = _added_one_by_one([[a, b, *others], [_record("p q r s t zz " + "y " * 20, "d.txt")]])
    assert took == [False]


def test_a_card_name_that_comes_tells_apart_the_wordings_naming_it() -> None:
    a = _record("Zorblax Ring deals 2 damage to any target when it becomes tapped this turn.", "a.txt")
    b = _record("Zorblax Rune deals 2 damage to any target when it becomes tapped this turn.", "b.txt")
    card_page = [_record("Its ability triggers once each turn.", "card.txt", card="Zorblax Ring")]
    took = _added_one_by_one([[a, b], card_page])
    assert took == [True]
    assert any(len(e.variants) == 2 for e in deduplicate([a, b], embedder=None)), "one ruling while no card is named"


def test_a_wording_given_for_another_card_changes_its_groups_joins() -> None:
    a = _record("Tapping this creature for mana doesn't cause it to become untapped later.", "a.txt", card="One")
    b = _record("Tapping this creature for mana does not cause it to become untapped later.", "b.txt", card="Two")
    again = [_record(b.text, "c.txt", card="One", date="2021-01-01")]  # b's words, now for card One too
    took = _added_one_by_one([[a, b], again])
    assert took == [True]
    assert len(deduplicate([a, b], embedder=None)) == 2, "one card's wording each: two rulings"


def test_a_group_gone_takes_the_full_join() -> None:
    a = _record("The copy keeps its counters when it phases out.", "a.txt")
    b = _record("The copy keeps all its counters when it phases out.", "b.txt")
    clustering = Clustering()
    deduplicate([a, b], embedder=None, clustering=clustering)
    assert deduplicate([a], embedder=None, clustering=clustering) == deduplicate([a], embedder=None)
    assert clustering.delta is False


_WORDS = ("creature spell ability counter target player card battlefield graveyard exile hand library turn "
          "damage token copy face down up mana cost control owner tapped untapped attack block").split()


def test_pages_added_one_by_one_give_one_calls_entries() -> None:
    rng = random.Random(45)
    rulings = [" ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 14))) for _ in range(40)]
    cards = ["Ash", "Birch", "Cedar", "Dusk Oak", None]
    pages = []
    for p in range(30):
        page = []
        for line in range(rng.randint(1, 5)):
            text = rng.choice(rulings)
            if rng.random() < 0.5:  # a reworded copy: a word swapped, dropped or a number added
                words = text.split()
                at = rng.randrange(len(words))
                words[at] = rng.choice([rng.choice(_WORDS), "", str(rng.randint(1, 3)), "Dusk Oak"])
                text = " ".join(w for w in words if w)
            page.append(_record(text.capitalize() + ".", f"p{p}.txt", line=line + 1, card=rng.choice(cards),
                                date=f"20{rng.randint(10, 24)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"))
        pages.append(page)
    took, known = _added_with_digests(pages)
    assert took.count(True) >= len(took) // 2, took
    assert sum(d is not None for call in known for d in call.values()) > 100, "the kept clusters' digests are known"


def test_a_build_adding_a_page_takes_the_delta_and_writes_the_kb_one_build_writes(
        kb_home: Path, small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb import store
    from kb.build import build
    from kb.ingest import delta
    from kb.search.embed import FakeEmbedder
    from tests.test_store import card_file

    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    first = card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])
    second = card_file(tmp_path / "b.json", "Icefeather Aven",
                       [("2014-09-20", "If a face-down creature is turned face up, it remains tapped.")])
    took: list[bool] = []
    real = delta.delta_roots
    monkeypatch.setattr(delta, "delta_roots", lambda *a, **k: took.append((found := real(*a, **k)) is not None) or found)
    made = []
    for on, steps in (("1", [[first], [second]]), ("0", [[first, second]])):
        monkeypatch.setenv("KB_DELTA_DEDUP", on)
        home = kb_home / f"delta-{on}"
        for paths in steps:
            build(paths, home=home, embedder=FakeEmbedder())
        kb = store.load(home)
        try:
            made.append(store.dump_entries(kb.entries))
        finally:
            kb.close()
    assert took == [True], "the second build took the delta, from the state the first one saved"
    assert made[0] == made[1]


@pytest.mark.parametrize(("value", "on"), [(None, True), ("1", True), ("0", False)])
def test_the_delta_is_on_unless_turned_off(value: str | None, on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.build import delta_dedup

    if value is None:
        monkeypatch.delenv("KB_DELTA_DEDUP", raising=False)
    else:
        monkeypatch.setenv("KB_DELTA_DEDUP", value)
    assert delta_dedup() is on


def test_a_cluster_joined_again_forgets_its_gap_key_a_kept_one_keeps_it() -> None:
    """The state keeps each cluster's `gap_key` (what a text of no card must share with its English
    evidence); the delta keeps it for a cluster it keeps, and forgets it for a cluster it joins again,
    whose newest wording may be another now."""
    import numpy as np

    first = _record(f"{BASE} 0.", "a.txt")
    other = _record("a face-down spell or permanent has no name, mana cost, color or subtypes", "b.txt")
    clustering = Clustering()
    deduplicate([first, other], embedder=None, clustering=clustering)
    keys = [(frozenset(), frozenset({str(n)}), frozenset(), False) for n in range(2)]
    clustering.state = {**clustering.state, "gap_keys": keys, "gap_key": np.arange(2, dtype=np.int64)}
    texts = [mark[0] for mark in clustering.state["marks"]]  # each group's first text
    revision = _record(f"{BASE.replace('may return', 'may send')} 0.", "c.txt", date="2021-01-01")
    got = deduplicate([first, other, revision], embedder=None, clustering=clustering)
    assert clustering.delta and len(got) == 2
    state = clustering.state
    known = {mark[0]: state["gap_keys"][k] if k >= 0 else None
             for mark, k in zip(state["marks"], state["gap_key"].tolist())}
    assert known[first.text] is None and known[revision.text] is None
    assert known[other.text] == keys[texts.index(other.text)]


def test_a_kept_clusters_entry_keeps_the_last_builds_content_digest() -> None:
    """The delta keeps the content digest of a kept cluster's entry (the later stages take it instead of
    digesting the entry again); the new page's entry has none yet, and has it in the call after."""
    first = _record(f"{BASE} 0.", "a.txt")
    other = _record("A face-down spell or permanent has no name, mana cost, color or subtypes.", "b.txt")
    new = _record("The exiled card remains face down; you may look at it at any time.", "c.txt")
    more = _record("Turning a face-down creature face up doesn't use the stack.", "d.txt")
    took, known = _added_with_digests([[first, other], [new], [more]])
    assert took == [True, True]
    assert known[0] == {first.text: None, other.text: None}, "a full join knows no digest"
    entries = deduplicate([first, other], embedder=None)
    assert known[1] == {**{e.text: content_digest(e) for e in entries}, new.text: None}
    assert known[2][new.text] is not None and known[2][more.text] is None


def test_a_cluster_joined_again_is_digested_anew() -> None:
    first = _record(f"{BASE} 0.", "a.txt")
    other = _record("A face-down spell or permanent has no name, mana cost, color or subtypes.", "b.txt")
    revision = _record(f"{BASE.replace('may return', 'may send')} 0.", "c.txt", date="2021-01-01")
    took, known = _added_with_digests([[first, other], [other], [revision]])
    assert took == [True, True]
    assert known[2][other.text] is not None
    assert known[2] == {revision.text: None, other.text: known[2][other.text]}, "one entry of first and its revision"


@pytest.mark.parametrize("moved", ["line", "original", "another copy's text"])
def test_a_group_whose_records_moved_is_digested_anew(moved: str) -> None:
    """A page saved again with its rulings on other lines (or as written otherwise) gives the same groups, cards,
    pages and dates: the delta keeps their clusters, but their entries' variants differ, so no digest holds."""
    from dataclasses import replace

    first = _record("A face-down spell or permanent has no name, mana cost, color or subtypes.", "a.txt")
    other = _record("The exiled card remains face down; you may look at it at any time.", "b.txt")
    twin = _record(first.text, "c.txt")
    changed = {"line": replace(first, line=7), "original": replace(first, original=first.text + " "),
               "another copy's text": replace(twin, text=first.text.upper())}[moved]
    before = [first, other, twin]
    after = [changed if r is (twin if moved == "another copy's text" else first) else r for r in before]
    clustering, similarity = Clustering(), Similarities()
    deduplicate(before, embedder=None, similarity=similarity, clustering=clustering)
    clustering.state = with_digests(clustering.state, clustering.made)
    got = deduplicate(after, embedder=None, similarity=similarity, clustering=clustering)
    assert got == deduplicate(after, embedder=None) and clustering.delta
    known = {e.text: digest for e, digest in zip(got, clustering.known)}
    assert known[first.text] is None and known[other.text] is not None


def test_a_build_adding_a_page_is_told_the_kept_entries_digests(
        kb_home: Path, small_corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second build is told the content digest of the ruling entries of the clusters the delta kept, from the
    state the first build saved (linking, the outdated finder and the rows key on it without digesting those
    entries again), each the digest of the entry it is told for; not the new page's entry, nor one a translation
    joins, nor one of a cluster joined again."""
    from kb.build import build
    from kb.search.embed import FakeEmbedder
    from kb.store import digests as digests_module
    from tests.test_store import card_file

    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    first = card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])
    new = "If a face-down creature is turned face up, it remains tapped."
    second = card_file(tmp_path / "b.json", "Icefeather Aven", [("2014-09-20", new)])
    home = kb_home / "told"
    build([first], home=home, embedder=FakeEmbedder())
    told: list[str] = []
    real = digests_module.Digests.know

    def know(self: digests_module.Digests, entry: Any, digest: str) -> None:
        assert digest == content_digest(entry), entry.text
        told.append(entry.text)
        real(self, entry, digest)

    monkeypatch.setattr(digests_module.Digests, "know", know)
    build([second], home=home, embedder=FakeEmbedder())
    assert len(told) > 10 and new not in told
