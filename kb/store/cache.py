"""A cache on disk for derived data that is slow to compute and fast to unpickle: the parsed and
aligned Comprehensive Rules (7 s to build, 0.1 s to load), and per-entry results such as rule links
(`memo_map`: a rebuild after adding one page links only the entries that changed).

An entry is keyed by the bytes of its inputs *and* of the code that derives it, so a new CR file or
a changed parser never reads a stale value. Files are written through a temp file and a rename; an
unreadable or truncated one is recomputed. It lives in `<data dir>/cache/` and may be deleted at any
time. Only judge-kb's own files are unpickled.

The data directory is the one the work in progress was given (`kept_in`: a build into `home` keeps
its caches in `home/cache`), else `kb.paths.home()`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import time
from contextvars import ContextVar
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar, cast

from kb.normalize import write_atomic

T = TypeVar("T")
K = TypeVar("K")
U = TypeVar("U")
V = TypeVar("V")


# The cache folder of the work in progress (`kept_in`); None: the data directory `kb.paths.home()` names.
_FOLDER: ContextVar[Path | None] = ContextVar("kb_cache_folder", default=None)


@contextlib.contextmanager
def kept_in(home: Path) -> Iterator[None]:
    """Inside this block, every cache (this module's and the embedding cache of `folder()`) is kept
    in the data directory `home`: a build given a data directory writes nothing into the one
    `$KB_HOME` names."""
    token = _FOLDER.set(home / "cache")
    try:
        yield
    finally:
        _FOLDER.reset(token)


def folder() -> Path:
    """The cache folder: the one of the data directory the work in progress was given (`kept_in`),
    else `<kb.paths.home()>/cache`."""
    from kb.paths import home

    return _FOLDER.get() or home() / "cache"


def module_files(*modules: ModuleType) -> list[Path]:
    """The source files of `modules`, as inputs of a cached value: a package's every module, a
    module's own file (so a change to the code that derives a value makes it stale)."""
    files: set[Path] = set()
    for module in modules:
        path = Path(str(module.__file__))
        files.update(path.parent.glob("*.py") if path.name == "__init__.py" else [path])
    return sorted(files)


def key_of(paths: Iterable[Path]) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def cached(name: str, inputs: Iterable[Path], compute: Callable[[], T]) -> T:
    """`compute()`, or its value from the cache when the inputs are unchanged."""
    try:
        path = _path(name, inputs)
    except OSError:
        return compute()
    try:
        with open(path, "rb") as f:
            return cast(T, pickle.load(f))  # noqa: S301 - our own file in the data directory
    except _UNREADABLE:
        pass
    value = compute()
    _write(name, path, value)
    return value


def _path(name: str, inputs: Iterable[Path]) -> Path:
    """The cache file of the value `name` derived from `inputs` (OSError: the data directory or an
    input can't be read)."""
    return folder() / f"{name}-{key_of(inputs)}.pickle"


# What reading a cache file may raise when it is damaged, truncated or written by other code: recomputed.
_UNREADABLE = (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, IndexError, TypeError,
               ValueError)


STALE_TEMP_SECONDS = 600  # a temp file of a table this old is a write that was killed, not one under way


def _write(name: str, path: Path, value: Any) -> None:
    """`value` pickled into `path` through a temp file, in place of the files kept under `name` for
    older inputs and of the temp files of writes that were killed (review43 #5: a build that fails
    stops the child writing its memo tables, and `kill -9` any write); a read-only or full data
    directory only costs speed."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for stale in path.parent.glob(f"{name}-*.pickle"):
            if stale != path:
                stale.unlink(missing_ok=True)
        for killed in path.parent.glob(f".{name}-*.pickle.*.tmp"):
            with contextlib.suppress(OSError):
                if time.time() - killed.stat().st_mtime > STALE_TEMP_SECONDS:
                    killed.unlink()
        write_atomic(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except OSError:
        pass


def cached_file(name: str, inputs: Iterable[Path], make: Callable[[Path], None], suffix: str) -> Path | None:
    """A file derived from `inputs` (a SQLite database a command queries a few rows of), made by
    `make(path)` into a temp file the first time and renamed into place; its path, or None when the
    data directory can't hold it (the caller then derives what it needs in memory)."""
    try:
        path = _path(name, inputs).with_suffix(suffix)
        if path.is_file():
            return path
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.unlink(missing_ok=True)
        try:
            make(tmp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
        for stale in path.parent.glob(f"{name}-*{suffix}"):
            if stale != path:
                stale.unlink(missing_ok=True)
        return path
    except OSError:
        return None


def memo_map(name: str, inputs: Iterable[Path], items: Sequence[U], key: Callable[[U], str],
             compute: Callable[[list[U]], list[V]]) -> list[V]:
    """`compute(items)`, item by item, remembering each item's value under `key(item)` for as long
    as `inputs` (the data and code the values derive from) are unchanged. Only the items whose key
    is new are computed; `compute` must treat items independently (one value per item, in order).

    The table is a `Log`: a build that computes a few new keys appends them, instead of writing
    every remembered value again (tens of MB at 100k rulings)."""
    inputs = list(inputs)
    log = Log.open(name, inputs)
    table: dict[str, V] = log.table
    keys = [key(item) for item in items]
    todo = [i for i, k in enumerate(keys) if k not in table]
    fresh = compute([items[i] for i in todo]) if todo else []
    for i, value in zip(todo, fresh):
        table[keys[i]] = value
    values = [table[k] for k in keys]
    if todo or len(table) != len(set(keys)):
        log.save({k: table[k] for k in keys})
    return values


class Log:
    """A table of values that never change for a key (a memo), kept as an append-only file: the
    whole table once, then one record per save of the keys added and removed since. A save whose
    changes are small appends them; one that changes much, or that follows many appends, writes
    the whole table anew (through a temp file). A record cut short (a killed build) is ignored with
    what follows it, and the next save writes the whole table: it is only a cache."""

    _MAX_RECORDS = 64  # appended records before the whole table is written again
    _REWRITE_SHARE = 0.25  # changed keys above this share of the table: write it whole

    def __init__(self, name: str, path: Path | None, table: dict[Any, Any], records: int, clean: bool) -> None:
        self.name, self.path = name, path
        self.table = table
        self._held = set(table)
        self._records = records
        self._clean = clean  # the file ends with a whole record: an append can follow

    @classmethod
    def open(cls, name: str, inputs: Iterable[Path]) -> Log:
        try:
            path = _path(name, inputs)
        except OSError:
            return cls(name, None, {}, 0, False)
        table: dict[Any, Any] = {}
        records, clean = 0, False
        try:
            with open(path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                while f.tell() < size:
                    record = pickle.load(f)  # noqa: S301 - our own file in the data directory
                    if records == 0 and isinstance(record, dict):
                        table = record
                    elif records > 0 and isinstance(record, tuple) and len(record) == 2:
                        added, removed = record
                        table.update(added)
                        for k in removed:
                            table.pop(k, None)
                    else:
                        raise ValueError("not a memo log")
                    records += 1
                clean = records > 0
        except _UNREADABLE:
            if records == 0:
                table = {}
        return cls(name, path, table, records, clean)

    def save(self, table: dict[Any, Any]) -> None:
        """Keep `table` (the same keys keep the same values) for the next `Log.open`."""
        if self.path is None:
            return
        added = {k: v for k, v in table.items() if k not in self._held}
        removed = [k for k in self._held if k not in table]
        if not added and not removed and self._clean:
            return
        small = len(added) + len(removed) <= self._REWRITE_SHARE * max(len(table), 1)
        if self._clean and small and self._records < self._MAX_RECORDS:
            try:
                with open(self.path, "ab") as f:
                    f.write(pickle.dumps((added, removed), protocol=pickle.HIGHEST_PROTOCOL))
            except OSError:  # a read-only or full data directory only costs speed
                return
            self._records += 1
        else:
            _write(self.name, self.path, table)
            self._records, self._clean = 1, True
        self._held = set(table)


def load_table(name: str, inputs: Iterable[Path]) -> dict[K, V]:
    """The table of remembered values `save_table` kept under `name` for these `inputs`; empty
    when there is none (or it is unreadable: it is only a cache)."""
    path = _path(name, inputs)
    try:
        with open(path, "rb") as f:
            table = pickle.load(f)  # noqa: S301 - our own file in the data directory
    except _UNREADABLE:
        return {}
    return cast("dict[K, V]", table) if isinstance(table, dict) else {}


def save_table(name: str, inputs: Iterable[Path], table: dict[K, V]) -> None:
    """Keep `table` for `load_table`, in place of any table kept under `name` for older inputs."""
    _write(name, _path(name, inputs), table)
