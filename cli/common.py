"""What every command shares: consoles, error handling, opening the KB, JSON output."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text
from typer.core import TyperGroup

from kb.errors import InputError, KBError
from kb.model import Lang

if TYPE_CHECKING:  # not at run time: `kb --help` stays instant
    from kb.corpus import Corpus
    from pathlib import Path

    from kb.build import OnProgress
    from kb.store import KB

console = Console(highlight=False)
# Notes of automatic rebuilds in this process: printed on stderr, and added to --json output.
NOTES: list[str] = []
err_console = Console(stderr=True, highlight=False)


@contextlib.contextmanager
def errors() -> Iterator[None]:
    """Kept for the commands' readability: library errors raised inside reach KBGroup.main, the one
    place that turns every error into the error contract."""
    yield


class KBGroup(TyperGroup):
    """The `kb` command group, with the one error handler of the CLI.

    Every error of every command ends the same way: one line `error: ...` on stderr, exit code 1 for
    bad input (a KBError, a fault of the environment such as an unreadable KB_HOME) and 2 for usage
    (an unknown option, a missing argument); with `--json` also `{"error": {"kind", "message",
    "source", "line"}}` on stdout. Anything else is an internal error (exit 2), with a traceback
    only when KB_DEBUG is set to a true value.
    """

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        as_json = "--json" in (args[: args.index("--")] if "--" in args else args)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False,
                                windows_expand_args=windows_expand_args, **extra)
            code = code if isinstance(code, int) else 0
        except typer.TyperException as e:  # click's errors (typer vendors click)
            if type(e).__name__ == "NoArgsIsHelpError":  # `kb` alone: the help is already printed
                code = e.exit_code
            else:
                ctx = getattr(e, "ctx", None)
                hint = f" (see `{ctx.command_path if ctx is not None else 'kb'} --help`)"
                kind = "usage" if e.exit_code == 2 else "input"
                code = report_error(kind, e.format_message().rstrip(".") + hint, as_json=as_json, code=e.exit_code)
        except typer.Abort:
            code = report_error("aborted", "aborted", as_json=as_json, code=1)
        except KBError as e:
            code = report_error(e.kind, str(e), source=e.source, line=e.line, as_json=as_json)
        except OSError as e:
            code = report_error("environment", os_message(e), source=e.filename and str(e.filename),
                                as_json=as_json)
        except Exception as e:  # noqa: BLE001 - the last line of defence of a CLI
            if debug():
                raise
            code = report_error("internal", f"internal error: {type(e).__name__}: {e} "
                                "(set KB_DEBUG=1 for details)", as_json=as_json, code=2)
        if standalone_mode:
            sys.exit(code)
        return code


def debug() -> bool:
    """Whether KB_DEBUG asks for tracebacks (KB_DEBUG=0, false, no or empty do not)."""
    return os.environ.get("KB_DEBUG", "").strip().lower() not in ("", "0", "false", "no", "off")


def os_message(e: OSError) -> str:
    """An OSError as `PATH: what is wrong`, e.g. `/data/kb/builds: Not a directory`."""
    what = e.strerror or str(e)
    if e.filename is None:
        return what
    names = str(e.filename) + (f" -> {e.filename2}" if e.filename2 else "")
    return f"{names}: {what}"


def report_error(kind: str, message: str, *, source: str | None = None, line: int | None = None,
                 as_json: bool = False, code: int = 1) -> int:
    """Print an error the contract's way (see KBGroup) and return its exit code."""
    err_console.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)
    if as_json:
        print_json({"error": {"kind": kind, "message": message, "source": source, "line": line}})
    return code


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
        return Lang(value.strip().lower())
    except ValueError:
        raise InputError(f"unknown language {value!r}; use one of: en, de, es") from None


_REFERENCE: Corpus | None = None


def reference() -> Corpus:
    """The bundled reference data (`kb.corpus.Corpus`), read once per command: the one this process
    opened, unless `$KB_CORPUS` now names another folder."""
    global _REFERENCE
    from kb import paths
    from kb.corpus import Corpus

    folder = paths.corpus_dir()
    if _REFERENCE is None or _REFERENCE.folder != folder:
        _REFERENCE = Corpus(folder)
    return _REFERENCE


def card_name(name: str, kb: Any = None) -> str:
    """The English name of a card named in English, German or Spanish (the KB's names, which include
    the judge's own sources, else the bundled table); NotFoundError otherwise."""
    from kb.errors import NotFoundError

    english = kb.card(name) if kb is not None else None
    english = english or reference().names.resolve(name)
    if english is None:
        raise NotFoundError(f"unknown card {name!r} (English, German or Spanish names are known)")
    return english


def data_home() -> Path:
    """The data directory (kb.paths.home()), refused with a clear line when it can't be one."""
    from kb import paths

    home = paths.home()
    if home.exists() and not home.is_dir():
        raise InputError(f"the data directory {home} (KB_HOME) is a file, not a folder; "
                         "point KB_HOME at a folder", source=str(home))
    return home


def open_kb(quiet: bool = False) -> KB:
    """The current KB; built from the bundled corpus first (with a progress bar) if there is none.
    A damaged, stale or old-layout KB is rebuilt from the bundled corpus plus the stored sources,
    with a note (also in --json output)."""
    from kb import store

    home = data_home()
    if store.exists(home) and not store.legacy_layout(home):
        try:
            return store.load(home)
        except KBError as e:
            return rebuild(quiet=quiet, note=f"{e}; rebuilt it from the bundled corpus and your stored sources")
    if store.legacy_layout(home):
        return rebuild(quiet=quiet, note="the KB was in the old kb.json layout; rebuilt as a SQLite store")
    if not quiet:
        err_console.print(f"[dim]First use: building the KB from the bundled corpus into {escape(str(home))} …[/]")
    from kb.build import load_or_build

    with progress_bar(quiet) as on_progress:
        return load_or_build(home=home, on_progress=on_progress, corpus=reference())


def rebuild(quiet: bool = False, note: str | None = None) -> KB:
    """Rebuild the KB from the bundled corpus plus the judge's library, saying why."""
    from kb import store
    from kb.build import rebuild as rebuild_kb

    home = data_home()
    if note:
        err_console.print(f"[yellow]note:[/] {escape(note)}", soft_wrap=True)
    with progress_bar(quiet) as on_progress:
        report = rebuild_kb(home=home, on_progress=on_progress, note=note, corpus=reference())
    for extra in report.notes:
        if extra != note:
            err_console.print(f"[yellow]note:[/] {escape(extra)}", soft_wrap=True)
    NOTES.extend(n for n in report.notes if n not in NOTES)
    return store.load(home)


@contextlib.contextmanager
def progress_bar(quiet: bool = False) -> Iterator[OnProgress]:
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


def _plain_progress(quiet: bool) -> OnProgress:
    """Without a terminal: one line per stage, so logs still show where a build is."""
    seen: set[str] = set()

    def on_progress(stage: str, done: int, total: int) -> None:
        if not quiet and stage not in seen:
            seen.add(stage)
            err_console.print(f"[dim]… {escape(stage)}[/]")

    return on_progress
