"""What every command shares: consoles, error handling, opening the KB, JSON output."""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any, Iterator

import typer
from rich.console import Console
from rich.markup import escape

from kb.errors import KBError
from kb.model import Lang

console = Console(highlight=False)
# Notes of automatic rebuilds in this process: printed on stderr, and added to --json output.
NOTES: list[str] = []
err_console = Console(stderr=True, highlight=False)


@contextlib.contextmanager
def errors() -> Iterator[None]:
    """Turn library errors into one line on stderr and exit code 1."""
    try:
        yield
    except KBError as e:
        err_console.print(f"[bold red]error:[/] {e}", markup=True, soft_wrap=True)
        raise typer.Exit(1) from None


def print_json(data: Any) -> None:
    """JSON on stdout. Notes of an automatic rebuild in this call (a damaged or stale KB) go with it:
    under "notes" in an object, or as a {"notes": [...]} line on stderr beside a list."""
    if NOTES and isinstance(data, dict):
        data = data | {"notes": list(NOTES)}
    elif NOTES:
        sys.stderr.write(json.dumps({"notes": list(NOTES)}, ensure_ascii=False) + "\n")
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def parse_lang(value: str | None) -> Lang | None:
    if value is None:
        return None
    try:
        return Lang(value.lower())
    except ValueError:
        raise typer.BadParameter(f"unknown language {value!r}; use one of: en, de, es") from None


def card_name(name: str, kb: Any = None) -> str:
    """The English name of a card named in English, German or Spanish (the KB's names, which include
    the judge's own sources, else the bundled table); NotFoundError otherwise."""
    from kb import paths
    from kb.cards import load_names
    from kb.errors import NotFoundError

    english = kb.card(name) if kb is not None else None
    english = english or load_names(paths.corpus_dir()).resolve(name)
    if english is None:
        raise NotFoundError(f"unknown card {name!r} (English, German or Spanish names are known)")
    return english


def open_kb(quiet: bool = False):  # -> kb.store.KB
    """The current KB; built from the bundled corpus first (with a progress bar) if there is none."""
    from kb import paths, store

    home = paths.home()
    if store.exists(home) and not store.legacy_layout(home):
        try:
            return store.load(home)
        except KBError as e:
            return rebuild(quiet=quiet, note=f"{e}; rebuilt it from the bundled corpus and your stored sources")
    if store.legacy_layout(home):
        return rebuild(quiet=quiet, note="the KB was in the old kb.json layout; rebuilt as a SQLite store")
    if not quiet:
        err_console.print(f"[dim]First use: building the KB from the bundled corpus into {home} …[/]")
    from kb.build import load_or_build

    with progress_bar(quiet) as on_progress:
        return load_or_build(home=home, on_progress=on_progress)


def rebuild(quiet: bool = False, note: str | None = None):
    """Rebuild the KB from the bundled corpus plus the judge's library, saying why."""
    from kb import paths, store
    from kb.build import rebuild as rebuild_kb

    if note:
        err_console.print(f"[yellow]note:[/] {escape(note)}", soft_wrap=True)
    with progress_bar(quiet) as on_progress:
        report = rebuild_kb(home=paths.home(), on_progress=on_progress, note=note)
    for extra in report.notes:
        if extra != note:
            err_console.print(f"[yellow]note:[/] {escape(extra)}", soft_wrap=True)
    NOTES.extend(n for n in report.notes if n not in NOTES)
    return store.load(paths.home())


@contextlib.contextmanager
def progress_bar(quiet: bool = False) -> Iterator[Any]:
    """A rich progress bar on stderr fed by the library's (stage, done, total) callbacks."""
    if quiet or not err_console.is_terminal and not _force_progress():
        yield _plain_progress(quiet)
        return
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from kb.build import STAGES

    with Progress(TextColumn("{task.description:<14}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err_console, transient=False) as progress:
        task = progress.add_task("parse", total=len(STAGES))

        def on_progress(stage: str, done: int, total: int) -> None:
            index = STAGES.index(stage) if stage in STAGES else 0
            fraction = done / total if total else 0
            progress.update(task, description=stage, completed=index + min(fraction, 1.0))

        yield on_progress
        progress.update(task, description="done", completed=len(STAGES))


def _force_progress() -> bool:
    import os

    return bool(os.environ.get("KB_PROGRESS"))


def _plain_progress(quiet: bool):
    """Without a terminal: one line per stage, so logs still show where a build is."""
    seen: set[str] = set()

    def on_progress(stage: str, done: int, total: int) -> None:
        if not quiet and stage not in seen:
            seen.add(stage)
            err_console.print(f"[dim]… {stage}[/]")

    return on_progress
