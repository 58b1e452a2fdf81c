"""`kb check`: run scenario checks on the rules model, for entries, files, or everything."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.common import console, err_console, open_kb, print_json, reference


def check(
    targets: Annotated[Optional[list[str]], typer.Argument(
        help="Entry ids (or unique prefixes), check ids as `kb check` prints them (or a bundled file's "
             "`STEM/`), check files (PATH.yaml) or folders of them; default: every check.")] = None,
    rules: Annotated[Optional[str], typer.Option(
        "--rules", help="Run under the Comprehensive Rules of this date (YYYY-MM-DD, 13.07.2018, 13 July "
                        "2018, 13. Juli 2018 or 13 de julio de 2018) instead of each check's own date.")] = None,
    missing: Annotated[bool, typer.Option(
        "--missing", help="List the ruling entries linked to a face-down clause (by their top link or a "
                          "confident one) that have no check (exit 1 if any), instead of running checks.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Run scenario checks against the rules model. Exit code 1 when any check fails."""
    from cli import render
    from kb import paths
    from kb.checks import check_coverage, check_targets
    from kb.normalize import date_option

    if missing:
        covered = check_coverage(open_kb(quiet=as_json).entries)
        if as_json:
            print_json(covered.to_json())
        else:
            render.check_coverage(console, covered)
        if covered.missing:
            raise typer.Exit(1)
        return
    rules = date_option(rules, "--rules") if rules is not None else None
    run = check_targets(targets or [], rules, open_kb=lambda: open_kb(quiet=as_json), home=paths.home(),
                        corpus=reference())
    if as_json:
        print_json(run.to_json())
    else:
        render.check_run(console, err_console, run)
    if not run.ok:
        raise typer.Exit(1)
