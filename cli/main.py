"""`kb`: the judge-kb command line. Each command parses options, calls the library, renders."""

from __future__ import annotations

import atexit
import gc
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.text import Text

from cli import card as card_cmd
from cli import check as check_cmd
from cli import coverage as coverage_cmd
from cli import outdated as outdated_cmd
from cli import rule as rule_cmd
from cli import search as search_cmd
from cli.common import (JsonOpt, KBGroup, card_option, command_note, console, data_home, err_console, interrupted_says,
                        keep_notes, open_kb, parse_kind, parse_lang, print_json, reference)

app = typer.Typer(
    name="kb",
    help="judge-kb: Magic: The Gathering rulings, deduplicated, linked to the Comprehensive Rules, "
         "searchable in English, German and Spanish, and checked against a rules model.",
    no_args_is_help=True,
    add_completion=False,
    cls=KBGroup,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

def ingest(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Extra ruling pages, MTGJSON files or folders to ingest with the bundled corpus.")] = None,
    fmt: Annotated[Optional[str], typer.Option(
        "--format", help="Force a parser instead of detecting it: card-page, search-page, release-notes or mtgjson "
                         "(a card page's layout: the README, \"Writing a card page of your own\").")] = None,
    strict: Annotated[bool, typer.Option(help="Write nothing if any unit can't be ingested.")] = False,
    wait: Annotated[bool, typer.Option(help="Wait for another running ingest instead of stopping.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Add ruling pages, MTGJSON files or folders to the KB (it keeps them), and rebuild it.

    Ingest adds: the KB is always the bundled corpus plus every source you ingested (`kb sources`
    lists them, `kb remove` takes one out). The same file again changes nothing (answered at once,
    even while another ingest runs); a changed file at the same path replaces its older version. Every unit that can't be used is listed with file,
    line and reason; the rest is still ingested. Exit code 1 when a unit of a file named could not
    be used (with --strict, nothing is added then), 130 on Ctrl-C, else 0. Without paths, the KB is
    rebuilt: units the last build skipped the same way are summed up, and only a new one exits 1.
    """
    from cli import render
    from kb.build import build
    from kb.errors import InputError
    from kb.ingest import Format

    try:
        forced = Format(fmt.strip().lower()) if fmt else None
    except ValueError:
        raise InputError(f"unknown format {fmt!r}; use card-page, search-page, release-notes or mtgjson") from None
    home = data_home()
    with interrupted_says(home, "nothing was added"), render.progress_bar(err_console, quiet=as_json) as on_progress:
        report = build(list(paths or []), home=home, fmt=forced, on_progress=on_progress,
                       wait=wait, strict=strict, corpus=reference())
    if as_json:
        print_json(report.to_output())
    else:
        render.ingest_report(console, err_console, report, strict=strict)
    if report.errors:
        raise typer.Exit(1)


def list_entries(
    card: Annotated[Optional[str], typer.Option(help="Only entries for this card (name in any language).")] = None,
    lang: Annotated[Optional[str], typer.Option(help="Only entries with text in this language (en, de, es).")] = None,
    kind: Annotated[Optional[str], typer.Option(
        help="ruling (the default) or rule (the CR clauses, which are left out without --kind).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List canonical entries: the rulings, or with --kind rule the CR clauses."""
    from cli import render
    from kb.views import EntryList, no_text_note

    language, kind_ = parse_lang(lang), parse_kind(kind or None)
    kb = open_kb(quiet=as_json)
    command_note(no_text_note(kb, language), quiet=as_json)
    english = card_option(card, kb, quiet=as_json) if card else None
    found = EntryList.select(kb, card=english, lang=language, kind=kind_)
    if as_json:
        if found.note:
            keep_notes([found.note])  # a list is printed as it is: the note goes to stderr
        print_json(found.to_json())
    else:
        render.entry_list(console, found.entries, lang=language, for_card=bool(card), card=english, note=found.note,
                          superseded=found.superseded, own_page=found.own_page)


def show(
    entry_id: Annotated[str, typer.Argument(help="Entry id (or a unique prefix of it).")],
    lang: Annotated[Optional[str], typer.Option(help="Show the text in this language first (en, de, es).")] = None,
    all_variants: Annotated[bool, typer.Option("--all", help="List every variant, not one line per wording.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show one entry: canonical text, rule links, checks (run now), and every variant with its relation.

    Outdated variants are marked with their reasons (see `kb outdated`).
    """
    from cli import render
    from kb.views import entry_view

    language = parse_lang(lang)
    view = entry_view(open_kb(quiet=as_json), entry_id, reference(), clause_texts=not as_json, lang=language)
    if as_json:
        print_json(view.to_json(language))
    else:
        render.entry_view(console, err_console, view, lang=language, collapse=not all_variants)


def stats(as_json: JsonOpt = False) -> None:
    """Counts: entries, variants by relation and language, sources, skipped units."""
    from cli import render

    data = open_kb(quiet=as_json).stats()
    if as_json:
        print_json(data)
    else:
        render.stats(console, data)


def sources(as_json: JsonOpt = False) -> None:
    """The files you ingested, kept in the KB: path, format, hash, when added, units and skipped."""
    from cli import render

    rows = [s.to_json() for s in open_kb(quiet=as_json).sources()]
    if as_json:
        print_json(rows)
    else:
        render.sources(console, rows)


def remove(
    source: Annotated[str, typer.Argument(help="A library source's path as `kb sources` shows it, its file name if no other source has it, or its hash (6+ digits).")],
    wait: Annotated[bool, typer.Option(help="Wait for another running ingest instead of stopping.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Take one ingested source out of the KB and rebuild it without that source's rulings."""
    from cli import render
    from kb import paths as kb_paths
    from kb.build import remove as remove_source

    with interrupted_says(data_home(), "nothing was removed"), \
            render.progress_bar(err_console, quiet=as_json) as on_progress:
        report = remove_source(source, home=kb_paths.home(), on_progress=on_progress, wait=wait,
                               corpus=reference())
    if as_json:
        print_json(report.to_output())
    else:
        render.removed(console, report)


def export(
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Export every entry as JSON (the contract other tools read).

    The JSON is a list of {id, kind, text, cards, first_date, last_date, variants, rules, checks};
    the same corpus always gives byte-identical output.
    """
    from kb.store import dump_entries

    kb = open_kb(quiet=True)
    text = dump_entries(kb.entries)
    if output:
        write_output(output, text)
        err_console.print(Text(f"wrote {len(kb.entries)} entries to {output}"))
    else:
        sys.stdout.write(text)


def write_output(path: Path, text: str) -> None:
    """Write `text` to the file at `path`: a regular file (or a link to one) is replaced atomically
    (temp file and rename beside the real file, so a link stays a link); a FIFO or device is
    written through; a folder is refused."""
    import stat

    from kb.errors import InputError
    from kb.normalize import write_atomic

    target = path
    try:
        target = path.resolve(strict=True)
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None  # a new file (or a link to one not there yet)
        if path.is_symlink():
            target = path.resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop (Python < 3.13)
        raise InputError(f"cannot write to {path}: {getattr(e, 'strerror', None) or e}", source=str(path)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise InputError(f"cannot write to {path}: it is a folder; name a file", source=str(path))
    try:
        if mode is not None and not stat.S_ISREG(mode):
            with open(target, "w", encoding="utf-8") as f:  # FIFO, /dev/stdout, a terminal...
                f.write(text)
            return
        write_atomic(target, text, mode=_new_file_mode() if mode is None else stat.S_IMODE(mode))
    except OSError as e:
        raise InputError(f"cannot write to {path}: {e.strerror or e}", source=str(path)) from None


def _new_file_mode() -> int:
    """The permission bits a new file gets from `open()` under the process's umask (a temp file is
    created 0600 and would keep them)."""
    import os

    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# Registration order is the order `kb --help` lists them: the everyday commands first.
app.command()(search_cmd.search)
app.command()(show)
app.command("list")(list_entries)
app.command()(rule_cmd.rule)
app.command()(card_cmd.card)
app.command()(check_cmd.check)
app.command()(outdated_cmd.outdated)
app.command()(ingest)
app.command()(sources)
app.command()(remove)
app.command()(stats)
app.command()(export)
app.command()(coverage_cmd.coverage)


def main() -> None:
    """Console entry point: no traceback ever reaches a judge (errors: cli.common.KBGroup)."""
    # The process ends after the command: what is left is freed by reference counting as the
    # interpreter shuts down, but its last full collections first walk every object (~25 ms of a cold
    # `kb search`'s ~0.3 s cpu, bench/results/command_speed.md). Frozen, they are not walked. Frozen at
    # exit, not when main returns: a caller that runs main in its own process (a test, a script) keeps a
    # collector that still frees its reference cycles (review42).
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    try:
        app()
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
