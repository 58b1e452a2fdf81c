"""A judge's dated remark is no ruling, but nothing is dropped on a word list (tryout23 #6, tryout24):
it is kept as a ruling, the ingest notes it, the commands mark it and search lists it after the other
hits it found. Only a judge's own entries are judged so. One KB of the small corpus (fake embedder)
with one page of the judge's own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.gamewords import REMARK_NOTE, speaks_of_the_game
from kb.model import Lang
from tests.test_cli_tryout23_marks import build_with_page, flat, kb_json, use_home

REMARK = "Quelle: Notizen vom Prerelease-Briefing, bitte nicht weitergeben."
RULING = "Lightform's face-down creature is a 2/2 creature with no name and no abilities."


@pytest.mark.parametrize("remark", [
    REMARK,
    "Nota para el equipo: imprimir esta hoja para la mesa de jueces del presentación.",
    "Esto lo tengo que preguntar al juez principal mañana.",
    "Remember to print this sheet for the judge station tomorrow.",
])
def test_a_remark_speaks_of_nothing_of_the_game(remark: str) -> None:
    assert not speaks_of_the_game(remark)


@pytest.mark.parametrize("short", ["It can't be countered.", "A ruling.", "First ruling.", "Sí, {2} también.",
                                   "It can't be regenerated.", "Both halves are sorceries.", "It is indestructible.",
                                   "Die verdeckte Kreatur ist eine 2/2-Kreatur.", "Nein, nur einmal pro Zug.",
                                   "Conspiracies aren't legal for any sanctioned Constructed format."])
def test_a_short_ruling_speaks_of_the_game(short: str) -> None:
    assert speaks_of_the_game(short)


def test_a_text_naming_its_card_speaks_of_the_game() -> None:
    assert speaks_of_the_game("Yes, Lightform does that.", ["Lightform"])
    assert not speaks_of_the_game("Yes, it does that.", ["Lightform"])


@pytest.fixture(scope="module")
def remark_home(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> tuple[Path, Any]:
    """A KB of the small corpus and a judge's page giving a dated remark and a ruling; the build report."""
    return build_with_page(tmp_path_factory, small_corpus, "lightform-notizen.txt",
                           f"Lightform\n\n2024-02-02\n\n{REMARK}\n\n2024-02-02\n\n{RULING}\n")


@pytest.fixture()
def kb_env(remark_home: tuple[Path, Any], small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The module's KB for this test; the build's report."""
    home, report = remark_home
    use_home(home, small_corpus, monkeypatch)
    return report


def test_a_dated_remark_is_kept_as_a_ruling_and_the_ingest_notes_it(kb_env: Any) -> None:
    report = kb_env
    assert not report.errors, report.errors  # a note, not a skipped unit: the exit code stays 0
    label = report.added[0]
    notes = [p for p in report.problems if REMARK_NOTE in p.reason]
    assert [(p.source, p.line, p.ignored) for p in notes] == [(label, 5, True)]
    assert notes[0].reason.startswith(f"'{REMARK}' {REMARK_NOTE} Kept as a ruling")
    texts = [e["text"] for e in kb_json("list", "--card", "Lightform")]
    assert REMARK in texts and RULING in texts  # nothing lost


def test_a_remark_is_marked_wherever_it_is_shown(kb_env: Any) -> None:
    listed = {e["text"]: e for e in kb_json("list", "--card", "Lightform")}
    remark, ruling = listed[REMARK], listed[RULING]
    assert (remark["remark"], remark["official"]) == (True, False)
    assert (ruling["remark"], ruling["official"]) == (False, False)
    assert not any(e["remark"] for t, e in listed.items() if t != REMARK)
    assert kb_json("show", remark["id"])["remark"] is True
    assert {e["id"]: e["remark"] for e in kb_json("card", "Lightform")["entries"]
            if e["id"] in (remark["id"], ruling["id"])} == {remark["id"]: True, ruling["id"]: False}
    for args in (["list", "--card", "Lightform"], ["card", "Lightform"], ["show", remark["id"]]):
        assert flat(*args).count(REMARK_NOTE) == 1, args
    assert REMARK_NOTE not in flat("show", ruling["id"])


def test_search_ranks_a_remark_after_the_hits_that_speak_of_the_game(kb_env: Any) -> None:
    """The remark's own words asked: it matches best, and still comes after the rulings."""
    hits = kb_json("search", "Notizen vom Prerelease-Briefing zu Lightform", "-k", "5")
    texts = [h["text"] for h in hits]
    assert REMARK in texts and texts.index(REMARK) == len(texts) - 1, texts
    assert [h["remark"] for h in hits] == [False] * (len(hits) - 1) + [True]
    assert hits[-1]["score"] <= hits[0]["score"]


def _hit(entry_id: str, text: str, score: float, cards: tuple[str, ...] = ()) -> Any:
    from kb.model import Entry, Kind
    from kb.search.rank import Hit

    entry = Entry(entry_id, Kind.RULING, text, cards, None, None, ())
    return Hit(entry, score, Lang.EN, text)


def test_only_a_judges_own_remark_moves_down_and_no_hit_is_dropped() -> None:
    """review38: search once demoted every hit with no game word before cutting the list to -k, so an
    official CR clause that uses none (319 of them) could vanish from it."""
    from kb.views import remarks_last

    hits = [_hit("r-remark", REMARK, 0.9), _hit("r-clause", "Multiple instances of it are redundant.", 0.8),
            _hit("r-card", "Lightform does that as well.", 0.7, ("Lightform",)), _hit("r-ruling", RULING, 0.6)]
    own = {"r-remark": "notes.txt", "r-card": "notes.txt", "r-ruling": "notes.txt"}  # r-clause is official
    moved = remarks_last(hits, own)
    assert [h.entry.id for h in moved] == ["r-clause", "r-card", "r-ruling", "r-remark"]
    assert [h.score for h in moved] == [0.9, 0.8, 0.7, 0.6]  # the places keep their scores
    assert [h.entry.id for h in remarks_last(hits, {})] == [h.entry.id for h in hits]  # all official
