"""The KB on disk: built into a fresh folder, switched in atomically, validated on load.

Layout of the data directory (`kb.paths.home()`)::

    builds/<build-id>/kb.json     entries, ingest report, metadata, checksum
    builds/<build-id>/index/      the search index (kb.search)
    current -> builds/<build-id>  a symlink, replaced with os.replace: readers see the old
                                  build or the new one, never half of one
    ingest.lock                   held while a build runs

A `kb ingest` killed at any moment leaves `current` pointing at the previous complete build.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from kb.errors import NotFoundError, StoreError
from kb.model import Entry, Kind, Lang

SCHEMA_VERSION = 1
KB_FILE = "kb.json"
FIX = "run `kb ingest` to rebuild it"


@dataclass
class KB:
    """A loaded KB: its entries (in export order), the ingest report and build metadata."""

    entries: list[Entry]
    report: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None  # the build folder it was loaded from
    extras: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._by_id = {e.id: e for e in self.entries}

    def get(self, entry_id: str) -> Entry:
        """The entry with this id, or the only one whose id starts with it."""
        if entry_id in self._by_id:
            return self._by_id[entry_id]
        matches = [e for e in self.entries if e.id.startswith(entry_id)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            raise NotFoundError(f"entry id {entry_id!r} is ambiguous: " + ", ".join(e.id for e in matches[:5]))
        raise NotFoundError(f"no entry {entry_id!r}; `kb list` shows the ids")

    def select(self, *, card: str | None = None, lang: Lang | None = None, kind: Kind | None = None) -> list[Entry]:
        """Entries for a card (English name), having text in a language, of a kind."""
        out = []
        for e in self.entries:
            if card and card not in e.cards:
                continue
            if lang and not e.variants_in(lang):
                continue
            if kind and e.kind is not kind:
                continue
            out.append(e)
        return out

    def outdated(self) -> list:  # list[kb.outdated.OutdatedItem]
        """Outdated variants as computed at build time."""
        from kb.outdated import OutdatedItem

        return [OutdatedItem.from_store(d, self._by_id) for d in self.extras.get("outdated", [])]

    @property
    def index_dir(self) -> Path:
        if self.path is None:
            raise StoreError("this KB was not loaded from disk; it has no search index")
        return self.path / "index"


def current_dir(home: Path) -> Path:
    return home / "current"


def exists(home: Path) -> bool:
    return (current_dir(home) / KB_FILE).is_file()


def _checksum(payload: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def dump_entries(entries: list[Entry]) -> str:
    """The export: a JSON list of entries, deterministic for the same entries."""
    return json.dumps([e.to_json() for e in entries], ensure_ascii=False, indent=2) + "\n"


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def write_kb(build_dir: Path, entries: list[Entry], report: dict[str, Any], meta: dict[str, Any],
             extras: dict[str, Any] | None = None) -> None:
    """Write kb.json; `extras` are further computed results (e.g. outdated variants) kept beside the entries."""
    payload = {"schema": SCHEMA_VERSION, "meta": meta, "report": report,
               "entries": [e.to_store() for e in entries], "extras": extras or {}}
    payload["sha256"] = _checksum(payload)
    write_json_atomic(build_dir / KB_FILE, payload)


def load(home: Path) -> KB:
    """The current KB; StoreError when there is none or it fails validation."""
    folder = current_dir(home)
    path = folder / KB_FILE
    if not path.is_file():
        raise StoreError(f"no KB in {home}; {FIX}")
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise StoreError(f"the KB file {path} is unreadable or truncated ({e}); {FIX}") from None
    if not isinstance(payload, dict) or payload.get("schema") != SCHEMA_VERSION:
        raise StoreError(f"the KB file {path} has another schema version; {FIX}")
    stored = payload.pop("sha256", None)
    if stored != _checksum(payload):
        raise StoreError(f"the KB file {path} fails its checksum (corrupted); {FIX}")
    try:
        entries = [Entry.from_json(d) for d in payload["entries"]]
    except (KeyError, TypeError, ValueError) as e:
        raise StoreError(f"the KB file {path} holds a malformed entry ({e}); {FIX}") from None
    return KB(entries, payload.get("report", {}), payload.get("meta", {}), folder.resolve(),
              payload.get("extras", {}))


@contextlib.contextmanager
def ingest_lock(home: Path, *, wait: bool) -> Iterator[None]:
    """Hold the data directory's ingest lock. Without `wait`, a held lock is a StoreError."""
    home.mkdir(parents=True, exist_ok=True)
    lock_path = home / "ingest.lock"
    with open(lock_path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise StoreError(f"another `kb ingest` is running ({holder}); wait for it to finish and try again") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def new_build(home: Path) -> Iterator[Path]:
    """A fresh build folder; switched in as `current` only if the block completes."""
    builds = home / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    for stale in builds.glob(".tmp-*"):  # left by a killed ingest: callers hold the ingest lock
        shutil.rmtree(stale, ignore_errors=True)
    build_id = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    folder = builds / f".tmp-{build_id}"
    folder.mkdir()
    try:
        yield folder
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    final = builds / build_id
    os.replace(folder, final)
    link = home / f".current-{os.getpid()}"
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    link.symlink_to(Path("builds") / build_id)
    os.replace(link, current_dir(home))
    _prune(builds, keep={build_id})


def _prune(builds: Path, keep: set[str]) -> None:
    """Remove old builds, keeping the two newest (a reader may still be using the previous one)."""
    finished = sorted((p for p in builds.iterdir() if not p.name.startswith(".")), key=lambda p: p.name)
    for old in finished[:-2]:
        if old.name not in keep:
            shutil.rmtree(old, ignore_errors=True)
