"""What every command shares: consoles, error handling, opening the KB, JSON output."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Annotated, Any, Iterator, Sequence

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperGroup

from kb.errors import InputError, KBError
from kb.model import Kind, Lang

if TYPE_CHECKING:  # not at run time: `kb --help` stays instant
    from pathlib import Path

    from kb.corpus import Corpus
    from kb.search import Searcher
    from kb.store import KB

console = Console(highlight=False)
# Notes of automatic rebuilds in this process: printed on stderr, and added to --json output.
NOTES: list[str] = []
err_console = Console(stderr=True, highlight=False)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


class KBGroup(TyperGroup):
    """The `kb` command group, with the one error handler of the CLI.

    Every error of every command ends the same way: one line `error: ...` on stderr, exit code 1 for
    bad input (a KBError, a fault of the environment such as an unreadable KB_HOME) and 2 for usage
    (an unknown option, a missing argument); with `--json` instead `{"error": {"kind", "message",
    "source", "line"}}` on stdout, and no line on stderr (tryout52 D7: a script read it twice). Anything else is an internal error (exit 2), with a traceback
    only when KB_DEBUG is set to a true value.
    """

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        args = list(sys.argv[1:] if args is None else args)
        for command in self.commands.values():
            command.help = reflow(command.help)
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
        finally:
            NOTES.clear()  # a rebuild's notes belong to its call (several calls share a process in tests and scripts)
        if standalone_mode:
            sys.exit(code)
        return code


def reflow(help_text: str | None) -> str | None:
    """A docstring's paragraphs as one line each: in rich markup mode typer keeps a docstring's line
    breaks, which then break `--help` lines in the middle wherever the terminal is wider or narrower."""
    if help_text is None:
        return None
    return "\n\n".join(" ".join(line.strip() for line in para.splitlines())
                       for para in inspect.cleandoc(help_text).split("\n\n"))


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
    if as_json:
        print_json({"error": {"kind": kind, "message": message, "source": source, "line": line}})
    else:
        err_console.print(Text.assemble(("error:", "bold red"), " ", message), soft_wrap=True)
    return code


def print_json(data: Any) -> None:
    """JSON on stdout. Notes of an automatic rebuild in this call (a damaged or stale KB) go with it:
    under "notes" in an object, or as a {"notes": [...]} line on stderr beside a list."""
    if NOTES and isinstance(data, dict):  # after the command's own notes (`kb ingest` has some)
        data = data | {"notes": list(dict.fromkeys([*data.get("notes", []), *NOTES]))}
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


def parse_kind(value: str | None) -> Kind | None:
    if value is None:
        return None
    try:
        return Kind(value.strip().lower())
    except ValueError:
        raise InputError(f"unknown kind {value!r}; use ruling or rule") from None


def data_home() -> Path:
    """The data directory (kb.paths.home()), refused with a clear line when it can't be one."""
    from kb import paths

    home = paths.home()
    if home.exists() and not home.is_dir():
        raise InputError(f"the data directory {home} (KB_HOME) is a file, not a folder; "
                         "point KB_HOME at a folder", source=str(home))
    return home


def numpy_without_blas_threads() -> None:
    """Import numpy with OpenBLAS on one thread (unless numpy is imported already or the environment
    says how many). A search calls no BLAS routine (its cosines are einsum's own loop), but OpenBLAS
    starts a thread per core when it is loaded, and spins them: ~25 ms of a cold `kb search`'s ~0.3 s
    of cpu on two cores. The variable is taken out again, so a child process (the build's embedder)
    starts as it would have."""
    if "numpy" in sys.modules or "OPENBLAS_NUM_THREADS" in os.environ:
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


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


def card_option(name: str, kb: KB | None = None, *, quiet: bool = False) -> str:
    """The English name of the card `name` names (a `--card` option), found as `kb card` finds it:
    a small typo is forgiven with `kb card`'s note (unless `quiet`, only in the --json notes); a name
    nothing is close to is refused with the names that contain it (NotFoundError)."""
    from kb.views import find_card

    found = find_card(name, reference(), kb)
    command_note(found.closest_note(name), quiet=quiet)
    return found.name


def open_kb(quiet: bool = False) -> KB:
    """The current KB (kb.current.open_current: built on first use, rebuilt when damaged or stale),
    with its progress bar and notes; the notes also go into --json output."""
    from cli import render
    from kb.current import open_current

    home = data_home()
    started = time.monotonic()
    with render.progress_bar(err_console, quiet) as on_progress:
        opened = open_current(home, reference(), on_progress=on_progress, on_note=note,
                              on_first_build=None if quiet else lambda: render.first_use(err_console, home))
    if opened.built and not quiet:
        render.built(err_console, opened.kb, time.monotonic() - started)
    keep_notes(opened.notes)
    return opened.kb


def open_searcher(quiet: bool = False) -> tuple[KB, Searcher]:
    """The current KB (as `open_kb`) and its searcher, its index rebuilt first when stale or damaged."""
    from cli import render
    from kb.current import open_for_search

    home = data_home()
    started = time.monotonic()
    with render.progress_bar(err_console, quiet) as on_progress:
        opened, searcher = open_for_search(home, reference(), on_progress=on_progress, on_note=note,
                                           on_first_build=None if quiet else lambda: render.first_use(err_console, home))
    if opened.built and not quiet:
        render.built(err_console, opened.kb, time.monotonic() - started)
    keep_notes(opened.notes)
    return opened.kb, searcher


@contextlib.contextmanager
def interrupted_says(home: Path, undone: str) -> Iterator[None]:
    """Ctrl-C in the block (`kb ingest`, `kb remove`) ends with one line saying whether the KB changed,
    as the generation committed before and after it tell (`undone`: "nothing was added"), and exit
    code 130. A build commits its whole change in one transaction, so the KB is either as before or
    the new one, complete; or, when it was rebuilding a damaged or missing database, still without a
    build, which the next command makes."""
    from kb import store

    before = store.generation(home)
    try:
        yield
    except KeyboardInterrupt:
        after = store.generation(home)
        if after is None:  # a damaged or missing database was being rebuilt: nothing is committed yet
            err_console.print(f"interrupted: {undone}; the KB holds no finished build, and the next command "
                              "rebuilds it from the bundled corpus and your library (`kb sources` lists it)")
        elif after == before:
            err_console.print(f"interrupted: {undone}, the KB is as before")
        else:
            err_console.print("interrupted after the new KB was written: the change is complete "
                              "(`kb sources` lists the library)")
        raise typer.Exit(130) from None


def note(text: str) -> None:
    """A note of the library (why the KB is rebuilt) on stderr, whatever the output format."""
    from cli import render

    render.note(err_console, text)


def command_note(text: str | None, *, quiet: bool = False) -> None:
    """A note of the command's own, if any: on stderr (unless `quiet`, for --json) and in the --json
    output's notes."""
    if text is None:
        return
    if not quiet:
        note(text)
    keep_notes([text])


def keep_notes(notes: list[str]) -> None:
    """Remember a rebuild's notes for the --json output of this call (see print_json)."""
    NOTES.extend(n for n in notes if n not in NOTES)
