"""`kb`: the judge-kb command line. Each command parses options, calls the library, renders."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli import card as card_cmd
from cli import check as check_cmd
from cli import outdated as outdated_cmd
from cli import rule as rule_cmd
from cli import search as search_cmd
from cli.common import card_name, console, err_console, errors, open_kb, parse_lang, print_json, progress_bar

app = typer.Typer(
    name="kb",
    help="judge-kb: Magic: The Gathering rulings, deduplicated, linked to the Comprehensive Rules, "
         "searchable in English, German and Spanish, and checked against a rules model.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]


def ingest(
    paths: Annotated[Optional[list[Path]], typer.Argument(
        help="Extra ruling pages, MTGJSON files or folders to ingest with the bundled corpus.")] = None,
    fmt: Annotated[Optional[str], typer.Option(
        "--format", help="Force a parser instead of detecting it: card-page, search-page or mtgjson.")] = None,
    strict: Annotated[bool, typer.Option(help="Write nothing if any unit can't be ingested.")] = False,
    wait: Annotated[bool, typer.Option(help="Wait for another running ingest instead of stopping.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild the KB from the bundled corpus plus the given files or folders.

    Every unit that can't be used is listed with file, line and reason; the rest is still ingested.
    Exit code 1 when anything was skipped (with --strict, nothing is written then).
    """
    from kb import paths as kb_paths
    from kb.build import build
    from kb.ingest import Format

    with errors():
        try:
            forced = Format(fmt) if fmt else None
        except ValueError:
            raise typer.BadParameter(f"unknown format {fmt!r}; use card-page, search-page or mtgjson") from None
        with progress_bar(quiet=as_json) as on_progress:
            report = build(list(paths or []), home=kb_paths.home(), fmt=forced, on_progress=on_progress,
                           wait=wait, strict=strict)
    data = report.to_json() | {"written": report.written}
    if as_json:
        print_json(data)
    else:
        from cli import render

        render.ingest_report(console, data)
        if not report.written:
            err_console.print(f"[bold red]error:[/] {len(report.errors)} units could not be ingested; "
                              "nothing written (--strict)")
    if report.errors:
        raise typer.Exit(1)


def list_entries(
    card: Annotated[Optional[str], typer.Option(help="Only entries for this card (name in any language).")] = None,
    lang: Annotated[Optional[str], typer.Option(help="Only entries with text in this language (en, de, es).")] = None,
    kind: Annotated[Optional[str], typer.Option(help="ruling or rule.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """List canonical entries."""
    from kb.model import Kind

    with errors():
        kb = open_kb(quiet=as_json)
        english = card_name(card) if card else None
        try:
            kind_ = Kind(kind) if kind else None
        except ValueError:
            raise typer.BadParameter(f"unknown kind {kind!r}; use ruling or rule") from None
        entries = kb.select(card=english, lang=parse_lang(lang), kind=kind_)
    if as_json:
        print_json([{"id": e.id, "kind": e.kind.value, "text": e.text, "cards": list(e.cards),
                     "first_date": e.first_date, "last_date": e.last_date,
                     "langs": sorted({v.lang.value for v in e.variants}), "variants": len(e.variants)}
                    for e in entries])
    else:
        from cli import render

        render.entry_list(console, entries)


def show(
    entry_id: Annotated[str, typer.Argument(help="Entry id (or a unique prefix of it).")],
    lang: Annotated[Optional[str], typer.Option(help="Show the text in this language first (en, de, es).")] = None,
    all_variants: Annotated[bool, typer.Option("--all", help="List every variant, not one line per wording.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show one entry: canonical text, rule links, checks (run now), and every variant with its relation.

    Outdated variants are marked with their reasons (see `kb outdated`).
    """
    with errors():
        kb = open_kb(quiet=as_json)
        entry = kb.get(entry_id)
        language = parse_lang(lang)
        outdated = [item for item in kb.outdated() if item.entry == entry.id]
        checks, results = _run_entry_checks(entry)
    if as_json:
        print_json(entry.to_json() | {
            "outdated": [item.to_json() for item in outdated],
            "check_results": [r.to_json() for r in results],
        })
        return
    from cli import render

    marks = {item.variant_index: item.kinds for item in outdated}
    render.entry_detail(console, entry, lang=language, clause_texts=_clause_texts(entry),
                        outdated=marks, collapse=not all_variants)
    render.check_blocks(console, checks, results)


def _run_entry_checks(entry):
    """The entry's checks and their results under the current rules."""
    if not entry.checks:
        return [], []
    from kb.checks import load_checks, run_checks
    from kb.game.rules import CURRENT

    checks = [c for c in load_checks()[0] if c.id in set(entry.checks)]
    results = run_checks(checks, rules_date=CURRENT, entries_by_check={c.id: entry.id for c in checks})
    return checks, results


def stats(as_json: JsonOpt = False) -> None:
    """Counts: entries, variants by relation and language, sources, skipped units."""
    from collections import Counter

    with errors():
        kb = open_kb(quiet=as_json)
    variants = [v for e in kb.entries for v in e.variants]
    data = {
        "entries": len(kb.entries),
        "entries_by_kind": dict(sorted(Counter(e.kind.value for e in kb.entries).items())),
        "variants": len(variants),
        "variants_by_relation": dict(sorted(Counter(v.relation.value for v in variants).items())),
        "variants_by_language": dict(sorted(Counter(v.lang.value for v in variants).items())),
        "cards": len({c for e in kb.entries for c in e.cards}),
        "source_files": len(kb.report.get("files", [])),
        "parsed": kb.report.get("parsed"),
        "stored": kb.report.get("stored"),
        "skipped": sum(1 for p in kb.report.get("skipped", []) if not p.get("ignored")),
        "ignored": sum(1 for p in kb.report.get("skipped", []) if p.get("ignored")),
        "built_at": kb.meta.get("built_at"),
        "data_dir": str(kb.path),
    }
    if as_json:
        print_json(data)
    else:
        from cli import render

        render.stats(console, data)


def export(
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Export every entry as JSON (the contract other tools read).

    The JSON is a list of {id, kind, text, cards, first_date, last_date, variants, rules, checks};
    the same corpus always gives byte-identical output.
    """
    from kb.store import dump_entries

    with errors():
        kb = open_kb(quiet=True)
    text = dump_entries(kb.entries)
    if output:
        tmp = output.with_name(f".{output.name}.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, output)
        err_console.print(f"wrote {len(kb.entries)} entries to {output}")
    else:
        sys.stdout.write(text)


def _clause_texts(entry) -> dict[str, str]:
    if not entry.rules:
        return {}
    from kb.cr import load_current

    current = load_current()
    return {link.clause: current.clauses[link.clause].text for link in entry.rules if link.clause in current.clauses}


# Registration order is the order `kb --help` lists them: the everyday commands first.
app.command()(search_cmd.search)
app.command()(show)
app.command("list")(list_entries)
app.command()(rule_cmd.rule)
app.command()(card_cmd.card)
app.command()(check_cmd.check)
app.command()(outdated_cmd.outdated)
app.command()(ingest)
app.command()(stats)
app.command()(export)


def main() -> None:
    """Console entry point: no traceback ever reaches a judge."""
    try:
        app()
    except KeyboardInterrupt:
        err_console.print("interrupted")
        sys.exit(130)
    except Exception as e:  # noqa: BLE001 - the last line of defence of a CLI
        if os.environ.get("KB_DEBUG"):
            raise
        err_console.print(f"[bold red]internal error:[/] {type(e).__name__}: {e} (set KB_DEBUG=1 for details)")
        sys.exit(2)


if __name__ == "__main__":
    main()
