"""One ruling the release notes say again for each face-down mechanic takes one place in `kb search`
(tryout33 defect 9): the best-ranked wording is shown, the others folded under it (`Hit.also`), and a
question naming a mechanic sees that mechanic's wording. Hand-made entries, deterministic fake embedder."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kb.model import Entry, Kind, Lang, Relation, Variant
from kb.search import Searcher
from kb.search.fold import fold_mechanics, mechanic_words, same_ruling
from kb.search.text import tokenize
from tests.entries import CORPUS, fake_searcher

WORDS = mechanic_words(CORPUS.glossary)


def _ruling(eid: str, text: str, cards: tuple[str, ...]) -> Entry:
    variants = tuple(Variant(text, text, Lang.EN, "2024-02-02", "seed", 1, Relation.CANONICAL, 1.0, c) for c in cards)
    return Entry(eid, Kind.RULING, text, cards, "2024-02-02", "2024-02-02", variants)


def _searcher(tmp_path: Path, entries: list[Entry], **weights: object) -> Searcher:
    from kb.search.cardnames import CardIndex, CardMatcher
    from kb.search.rank import Weights

    return fake_searcher(entries, tmp_path / "index", cards=CardIndex(CardMatcher({}), {}),
                         weights=dataclasses.replace(Weights(), **weights))


def test_mechanic_words_are_what_every_term_of_the_mechanic_holds() -> None:
    assert WORDS["morph"] == {"morph"} and WORDS["disguise"] == set(tokenize("disguise"))
    assert WORDS["manifest_dread"] == set(tokenize("manifest dread"))
    assert "face_down" not in WORDS and "turn_face_up" not in WORDS  # every mechanic's, no mechanic of its own


@pytest.mark.parametrize("a, b, same", [
    # the mechanic's word changed, in any form
    ("Pay its morph cost to turn the face-down creature face up; this doesn't use the stack.",
     "Pay its disguise cost to turn the face-down creature face up; this doesn't use the stack.", True),
    ("A cloaked permanent that is turned face up keeps its counters.",
     "A manifested permanent that is turned face up keeps its counters.", True),
    # one names no mechanic, the other adds a few words and its mechanics
    ("Keep your face-down permanents in a clear order so that opponents can tell them apart at all times. "
     "Shuffling them around to mislead anyone is not allowed.",
     "Keep your face-down permanents in a clear order so that opponents can tell them apart at all times. "
     "Shuffling them around to mislead anyone is not allowed, manifested ones included.", True),
    # the same words for two cards, no mechanic named: not this (apart_copies moves such a copy down)
    ("Hooded Mirror doesn't let your opponents look at face-down creatures you control.",
     "Veiled Lantern doesn't let your opponents look at face-down creatures you control.", False),
    # the same mechanics named: a ruling and its reworded revision are not folded here
    ("Pay its morph cost to turn it face up.", "You pay its morph cost to turn it face up.", False),
    # another mechanic, another ruling
    ("Pay its morph cost to turn the face-down creature face up; this doesn't use the stack.",
     "A disguised creature spell has ward {2} while it is on the stack.", False),
])
def test_one_ruling_for_other_mechanics_is_its_words_less_the_mechanics_words(a: str, b: str, same: bool) -> None:
    assert same_ruling(tokenize(a), tokenize(b), WORDS) is same


# The same face-down ruling as three mechanics' release notes give it, for the cards of each; each
# card's other ruling names its mechanic alone, which tells what mechanic its cards have.
APART_MORPH = ("Keep your face-down permanents in a clear order so that opponents can tell them apart "
               "at all times; shuffling them around to mislead anyone is not allowed.")
APART_MANIFEST = ("Keep your face-down permanents in a clear order so that opponents can tell them apart "
                  "at all times; shuffling them around to mislead anyone is not allowed, manifested ones included.")
APART_DISGUISE = ("Keep your face-down permanents in a clear order so that opponents can tell them apart "
                  "at all times; shuffling them around to mislead anyone is not allowed, disguised or cloaked ones included.")
MORPH_CARDS, MANIFEST_CARDS, DISGUISE_CARDS = ("Glade Skulker", "Moss Lurker"), ("Hollow Rite",), ("Masked Visitor",)
ENTRIES = [
    _ruling("r-apart-morph", APART_MORPH, MORPH_CARDS),
    _ruling("r-apart-manifest", APART_MANIFEST, MANIFEST_CARDS),
    _ruling("r-apart-disguise", APART_DISGUISE, DISGUISE_CARDS),
    _ruling("r-morph-cost", "You can turn it face up any time you have priority by paying its morph cost.", MORPH_CARDS),
    _ruling("r-manifest-up", "A manifested creature card can be turned face up for its mana cost.", MANIFEST_CARDS),
    _ruling("r-disguise-ward", "While it's face down, a disguised permanent has ward {2}.", DISGUISE_CARDS),
    _ruling("r-tapped", "Turning a face-down permanent face up doesn't untap it.", ("Glade Skulker", "Hollow Rite")),
    _ruling("r-colorless", "A face-down permanent is colorless and has no name.", ("Moss Lurker",)),
]
APART = {"r-apart-morph", "r-apart-manifest", "r-apart-disguise"}


def test_the_wordings_of_one_ruling_for_three_mechanics_take_one_place(tmp_path: Path) -> None:
    question = "May I shuffle my face-down creatures around on the table so my opponent loses track of which one is which?"
    apart = _searcher(tmp_path / "a", ENTRIES, fold_mechanics=False).search(question, limit=5)
    assert len(APART & {h.entry.id for h in apart}) >= 2  # the defect: one answer in several places
    hits = _searcher(tmp_path / "b", ENTRIES).search(question, limit=5)
    ids = [h.entry.id for h in hits]
    assert ids[0] == apart[0].entry.id and not APART & set(ids[1:]) and len(ids) == 5
    assert {a.entry.id for a in hits[0].also} == APART - {ids[0]}
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    # the folded wordings are named with the mechanics their cards have, in --json too
    said = {a.entry.id: a.mechanics for a in hits[0].also}
    assert said.get("r-apart-manifest", ("manifest",)) == ("manifest",)
    assert said.get("r-apart-morph", ("morph",)) == ("morph",)
    assert said.get("r-apart-disguise", ("disguise",)) == ("disguise",)
    doc = hits[0].to_json()["also_for"]
    assert {d["id"] for d in doc} == APART - {ids[0]} and all(d["mechanics"] and d["cards"] for d in doc)
    assert all(h.to_json()["also_for"] == [] for h in hits[1:])


@pytest.mark.parametrize("question, shown", [
    ("Am I allowed to mix up my morphs so the other player can't follow them?", "r-apart-morph"),
    # "included" is said by the other two wordings only: one of them ranks first
    ("Are my morphs included when it says face-down cards can't be mixed up to mislead anyone?", "r-apart-morph"),
    ("Am I allowed to mix up my manifested cards so the other player can't follow them?", "r-apart-manifest"),
    ("Am I allowed to mix up my disguised cards so the other player can't follow them?", "r-apart-disguise"),
    ("Darf ich meine manifestierten Karten vertauschen, damit mein Gegner sie nicht auseinanderhalten kann?",
     "r-apart-manifest"),
])
def test_a_question_naming_a_mechanic_sees_that_mechanics_wording(tmp_path: Path, question: str, shown: str) -> None:
    """The morph wording names no mechanic: its cards' other rulings tell it is morph's."""
    hits = _searcher(tmp_path, ENTRIES).search(question, limit=3)
    first = next(h for h in hits if h.entry.id in APART)
    assert first.entry.id == shown
    assert {a.entry.id for a in first.also} == APART - {shown}
    assert not APART & {h.entry.id for h in hits if h is not first}


def test_folding_keeps_the_best_wording_when_the_question_names_no_mechanic() -> None:
    entries = [ENTRIES[1], ENTRIES[6], ENTRIES[0], ENTRIES[2]]  # manifest's wording ranked first
    assert fold_mechanics(entries, WORDS) == [(0, (2, 3)), (1, ())]
    # naming morph: its wording (by the text's words here, no card data given) is shown in the group's place
    assert fold_mechanics(entries, WORDS, frozenset({"disguise"})) == [(3, (0, 2)), (1, ())]


def test_the_ablations_rank_as_they_score(tmp_path: Path) -> None:
    question = "May I shuffle my face-down creatures around so my opponent loses track of them?"
    searcher = _searcher(tmp_path, ENTRIES)
    for mode in ("dense", "lexical"):
        assert all(not h.also for h in searcher.search(question, limit=5, mode=mode))


def test_a_wording_is_said_for_the_mechanic_its_cards_other_rulings_name_alone(tmp_path: Path) -> None:
    """The morph wording names no mechanic and the disguise one names three; their cards' rulings that
    name one mechanic alone tell what each is said for, and a question about morph sees its wording
    though another ranks first."""
    searcher = _searcher(tmp_path, ENTRIES)
    row = {e.id: k for k, e in enumerate(searcher.entries)}
    said = {e.id: searcher._mechanics_of(row[e.id], e) for e in ENTRIES[:3]}
    assert said == {"r-apart-morph": {"morph"}, "r-apart-manifest": {"manifest"}, "r-apart-disguise": {"disguise"}}
    ranked = [ENTRIES[1], ENTRIES[2], ENTRIES[0]]  # manifest's wording best, morph's last
    assert fold_mechanics(ranked, WORDS, frozenset({"morph"}), lambda k: said[ranked[k].id]) == [(2, (0, 1))]
    assert fold_mechanics(ranked, WORDS, frozenset({"morph"})) == [(0, (1, 2))]  # its text names none


def test_the_plain_output_names_the_folded_wordings_under_the_hit(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from cli import render

    question = "May I shuffle my face-down creatures around on the table so my opponent loses track of which one is which?"
    hits = _searcher(tmp_path, ENTRIES).search(question, limit=3)
    out = io.StringIO()
    render.hits(Console(file=out, width=200), hits)
    shown = out.getvalue()
    folded = "; ".join(f"{', '.join(a.mechanics)}: {a.entry.id}" for a in hits[0].also)
    assert f"also for {folded}" in shown and shown.count("also for") == 1
