"""The KB a command works on, and the rebuild policy: opened as it is; built from the bundled corpus
on first use; rebuilt from the bundled corpus plus the judge's stored sources when it is damaged,
stale or in an old layout, with a note saying why. The CLI only draws the progress and the notes.

`kb.build` (slow to import) is imported only when a build is needed, so opening stays instant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from kb import store
from kb.errors import IndexModelError, KBError, StoreError

if TYPE_CHECKING:
    from kb.build import OnProgress
    from kb.corpus import Corpus
    from kb.search import Searcher

# Called with a note a judge should see (why the KB is rebuilt) when it happens, before the work.
OnNote = Callable[[str], None]


@dataclass
class Opened:
    """A KB opened for a command, and the notes of any rebuild that opening it took (for --json);
    `built` when opening it built it (first use, or a rebuild)."""

    kb: store.KB
    notes: list[str] = field(default_factory=list)
    built: bool = False


def open_current(home: Path, corpus: Corpus, *, on_progress: OnProgress | None = None,
                 on_note: OnNote | None = None, on_first_build: Callable[[], None] | None = None) -> Opened:
    """The KB in `home`, built from the bundled corpus first if there is none (`on_first_build` is
    called before that build). A damaged, stale or old-layout KB is rebuilt, with a note; so is one
    built from another state of the bundled corpus."""
    if store.exists(home) and not store.legacy_layout(home):
        try:
            kb = store.load(home)
        except store.DamagedStore as e:  # the rebuild sets it aside and says so, with what it kept
            return rebuild_and_open(home, corpus, on_progress=on_progress, on_note=on_note, damaged=e)
        except KBError as e:
            return rebuild_and_open(home, corpus, on_progress=on_progress, on_note=on_note,
                                    note=f"{e}; rebuilt it from the bundled corpus and your stored sources")
        if corpus.same_as_built(kb.meta):
            return Opened(kb)
        kb.close()
        return rebuild_and_open(home, corpus, on_progress=on_progress, on_note=on_note,
                                note="the bundled corpus changed since the KB was built (a new judge-kb, an edited "
                                     "check or rule file); rebuilt it from the corpus and your stored sources")
    if store.legacy_layout(home):
        return rebuild_and_open(home, corpus, on_progress=on_progress, on_note=on_note,
                                note="the KB was in the old kb.json layout; rebuilt as a SQLite store")
    from kb.build import load_or_build

    notes: list[str] = []
    built = False

    def note(said: str) -> None:
        notes.append(said)
        if on_note:
            on_note(said)

    def on_build() -> None:  # not called when another process built it while this one waited
        nonlocal built
        built = True
        if on_first_build:
            on_first_build()

    kb = load_or_build(home=home, on_progress=on_progress, on_build=on_build, corpus=corpus, on_note=note)
    return Opened(kb, notes, built)


def rebuild_and_open(home: Path, corpus: Corpus, *, on_progress: OnProgress | None = None,
                     on_note: OnNote | None = None, note: str | None = None,
                     damaged: store.DamagedStore | None = None) -> Opened:
    """Rebuild the KB in `home` from the bundled corpus plus the judge's library and open it, saying
    why: `note` first, then each further note the rebuild makes."""
    from kb.build import rebuild

    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        if on_note:
            on_note(text)

    if note:
        say(note)
    report = rebuild(home=home, on_progress=on_progress, note=note, corpus=corpus, on_note=say, damaged=damaged)
    for extra in report.notes:
        if extra not in said:
            say(extra)
    return Opened(store.load(home), report.notes, built=True)


def open_for_search(home: Path, corpus: Corpus, *, on_progress: OnProgress | None = None,
                    on_note: OnNote | None = None,
                    on_first_build: Callable[[], None] | None = None) -> tuple[Opened, Searcher]:
    """The KB (as `open_current` opens it) and its searcher; a search index that another version
    wrote, or a damaged one, is rebuilt once (with a note) before searching."""
    from kb.search import Searcher

    opened = open_current(home, corpus, on_progress=on_progress, on_note=on_note, on_first_build=on_first_build)
    try:  # no entry is decoded but the hits (Searcher.for_kb)
        searcher = Searcher.for_kb(opened.kb, reference=corpus)
        searcher.read_stored()
        return opened, searcher
    except StoreError as e:
        if isinstance(e, IndexModelError) and e.rebuilt_same:  # a rebuild makes the same index: say why at once
            raise
        if on_note:
            on_note(f"{e}; rebuilding now")
        again = rebuild_and_open(home, corpus, on_progress=on_progress, on_note=on_note)
        return Opened(again.kb, opened.notes + again.notes, built=True), Searcher.for_kb(again.kb, reference=corpus)
