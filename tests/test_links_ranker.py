"""The learned links ranker: corpus/links-ranker.json orders a ruling's candidate clauses in the build, and
bench/links_ranker_fit.py refits exactly the shipped weights from the dev labels."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from kb import build
from kb.corpus import Corpus
from kb.cr import links
from kb.errors import InputError
from tests.entries import ruling_entry

CORPUS = Corpus.default()
ROOT = Path(__file__).resolve().parent.parent

# A ruling with a pointed cue ("tapped or untapped" -> 110.5) and several clauses that share its words.
TEXT = "The token enters tapped or untapped, as its controller chooses, and it can't attack or block that turn."


def reversed_ranker() -> links.Ranker:
    """A ranker that puts the hand-set order's last candidate first (it weighs only the reciprocal rank, negatively)."""
    weights = tuple(-50.0 if name == "reciprocal_rank" else 0.0 for name in links.FEATURES)
    return links.Ranker(links.FEATURES, weights, threshold=0.0)


def first_links(ranker: links.Ranker | None) -> list[str]:
    [linked] = links.link_entries([ruling_entry("r1", TEXT, "Test Card")], CORPUS.rules, [], {}, ranker)
    return [r.clause for r in linked.rules]


def test_the_ranker_orders_the_candidates_it_is_given():
    """The hand-set order links 110.5 first; a ranker that reverses the order links the pool's last candidate."""
    hand = links.ruling_candidates(ruling_entry("r1", TEXT, "Test Card"), CORPUS.rules, {})
    assert first_links(None)[0] == "110.5"
    assert first_links(reversed_ranker())[0] == hand[:links.RANKER_POOL][-1].clause != "110.5"


def test_the_build_links_with_the_corpus_ranker(monkeypatch: pytest.MonkeyPatch):
    """`build.link_rules` passes the corpus's ranker to the linker (not None, not a ranker of its own)."""
    corpus = Corpus(CORPUS.folder)
    monkeypatch.setitem(corpus.__dict__, "links_ranker", reversed_ranker())  # the cached property, read by the build
    [linked] = build.link_rules([ruling_entry("r1", TEXT, "Test Card")], corpus)
    assert linked.rules[0].clause == first_links(reversed_ranker())[0] != "110.5"
    assert linked.rules[0].evidence.startswith("ranker ")


def test_the_shipped_weights_file_is_the_corpus_ranker(tmp_path: Path):
    """`Corpus.links_ranker` is read from links-ranker.json (none without it); the build's links derive from it."""
    shipped = CORPUS.folder / "links-ranker.json"
    ranker = CORPUS.links_ranker
    assert ranker is not None and ranker.to_json() == shipped.read_text(encoding="utf-8")
    assert shipped in build.link_inputs(CORPUS)
    (tmp_path / "links-ranker.json").write_text(reversed_ranker().to_json(), encoding="utf-8")
    assert Corpus(tmp_path).links_ranker == reversed_ranker()
    assert Corpus(tmp_path / "none").links_ranker is None


def test_the_shipped_ranker_scores_the_build_links():
    """Links made with the shipped weights carry the model's share of the first clause; a changed weight moves it."""
    ranker = CORPUS.links_ranker
    assert ranker is not None
    [linked] = links.link_entries([ruling_entry("r1", TEXT, "Test Card")], CORPUS.rules, [], {}, ranker)
    first = linked.rules[0]
    assert first.evidence.startswith(f"ranker {first.score:.2f}")
    shifted = dataclasses.replace(ranker, weights=tuple(w + (1.0 if n == "bm25" else 0.0)
                                                        for n, w in zip(ranker.features, ranker.weights)))
    [moved] = links.link_entries([ruling_entry("r1", TEXT, "Test Card")], CORPUS.rules, [], {}, shifted)
    assert moved.rules[0].score != first.score


def test_a_ranker_file_for_other_features_is_refused():
    text = reversed_ranker().to_json().replace('"bm25"', '"bm25_old"')
    with pytest.raises(InputError, match="refit it"):
        links.Ranker.from_json(text)
    with pytest.raises(InputError, match="not a links ranker"):
        links.Ranker.from_json("{}")


def test_an_unsure_ranker_keeps_the_evidence_rule_for_abstaining():
    """A ruling no cue or rare word points at abstains with the shipped ranker as without it."""
    entry = ruling_entry("r1", "Zzz qqq.", "Test Card")
    [linked] = links.link_entries([entry], CORPUS.rules, [], {}, CORPUS.links_ranker)
    assert linked.rules == () and linked.link_note.startswith("no confident link")


def test_the_fit_script_reproduces_the_shipped_weights():
    """bench/links_ranker_fit.py, run on the dev labels, gives corpus/links-ranker.json byte for byte."""
    sys.path.insert(0, str(ROOT / "bench"))
    import links_ranker_fit

    assert links_ranker_fit.main(["--check"]) == 0
