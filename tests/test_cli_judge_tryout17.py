"""What a judge trying the CLI as a new user noticed (tryout17): each test pins one defect found that way."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from kb import store
from kb.model import Entry, Kind, Lang, Relation, Variant

OLD = "At any time, you can look at a face-down permanent you control."
NEW = "At any time, you can look at a face-down spell or permanent you control."


def _shared_ruling(home: Path) -> None:
    """One ruling on two cards' pages: Lightform's says it the 2014 way, Rageform's was reworded in 2018."""
    variants = (
        Variant(NEW, NEW, Lang.EN, "2018-07-13", "rageform.txt", 3, Relation.CANONICAL, 1.0, "Rageform"),
        Variant(OLD, OLD, Lang.EN, "2014-11-24", "lightform.txt", 3, Relation.REVISION, 0.9, "Lightform"),
        Variant(OLD, OLD, Lang.EN, "2014-11-24", "rageform.txt", 5, Relation.REVISION, 0.9, "Rageform"),
    )
    store.write(home, [Entry("r-look", Kind.RULING, NEW, ("Lightform", "Rageform"), "2014-11-24", "2018-07-13",
                             variants)], report={}, meta={})


def test_kb_card_shows_the_cards_own_wording_and_says_when_others_reworded_it(kb_home: Path) -> None:
    """`kb card Lightform` printed a wording Lightform's page never had under Lightform's dates."""
    from cli import render
    from kb.corpus import Corpus
    from kb.views import card_view, find_card

    _shared_ruling(kb_home)
    kb = store.load(kb_home)
    view = card_view(find_card("Lightform", Corpus.default(), kb), kb)
    console = Console(width=200, record=True)
    render.card(console, view)
    out = console.export_text()
    assert OLD in out and NEW not in out
    assert "reworded since on other cards' pages: kb show r-look" in out
    entry = view.to_json()["entries"][0]
    assert entry["card_text"] == OLD and entry["text"] == NEW
    # the card whose page has the newest wording shows it, with no mark
    rage = card_view(find_card("Rageform", Corpus.default(), kb), kb)
    console = Console(width=200, record=True)
    render.card(console, rage)
    assert NEW in console.export_text() and "reworded" not in console.export_text()
