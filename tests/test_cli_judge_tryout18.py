"""What a trilingual judge trying the CLI as a new user noticed (tryout18): each test pins one defect."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from kb import store
from kb.corpus import Corpus
from kb.model import Entry, Kind, Lang, Relation, Variant

CORPUS = Corpus.default()

OLD = "At any time, you can look at a face-down permanent you control."
NEW = "At any time, you can look at a face-down spell or permanent you control."
OLD_DE = "Du kannst eine verdeckte bleibende Karte, die du kontrollierst, jederzeit anschauen."


def _kb(home: Path, *, german: bool = True) -> store.KB:
    """One ruling on two cards' pages: Lightform's says it the 2014 way (and, with `german`, its German
    page translates that 2014 wording), Rageform's was reworded in 2018. Its outdated items are the
    build's (`find_outdated`)."""
    from kb.outdated import find_outdated

    variants = (
        Variant(NEW, NEW, Lang.EN, "2018-07-13", "rageform.txt", 3, Relation.CANONICAL, 1.0, "Rageform"),
        Variant(OLD, OLD, Lang.EN, "2014-11-24", "lightform.txt", 3, Relation.REVISION, 0.9, "Lightform"),
        Variant(OLD, OLD, Lang.EN, "2014-11-24", "rageform.txt", 5, Relation.REVISION, 0.9, "Rageform"),
    ) + ((Variant(OLD_DE, OLD_DE, Lang.DE, "2014-11-24", "lichtform.txt", 3, Relation.TRANSLATION, 0.9,
                  "Lightform"),) if german else ())
    entries = [Entry("r-look", Kind.RULING, NEW, ("Lightform", "Rageform"), "2014-11-24", "2018-07-13", variants)]
    items = find_outdated(entries, terminology=CORPUS.terminology)
    store.write(home, entries, report={}, meta={}, outdated=[item.to_store() for item in items])
    return store.load(home)


def _card_text(view) -> str:
    from cli import render

    console = Console(width=200, record=True)
    render.card(console, view)
    return " ".join(console.export_text().split())


def test_kb_card_in_a_language_the_entry_lacks_shows_what_it_shows_without_lang(kb_home: Path) -> None:
    """`kb card Lightform --lang de` fell back to the canonical wording (another card's newer page)
    under Lightform's dates, without the "reworded since" note, and `card_text` was null."""
    from kb.views import card_view, find_card

    kb = _kb(kb_home, german=False)
    card = find_card("Lightform", CORPUS, kb)
    plain, german = card_view(card, kb), card_view(card, kb, Lang.DE)
    assert _card_text(german) == _card_text(plain)
    assert OLD in _card_text(german) and NEW not in _card_text(german)
    assert "reworded since on other cards' pages: kb show r-look" in _card_text(german)
    entry = german.to_json()["entries"][0]
    assert entry["card_text"] == OLD and entry["lang_text"] is None
