"""`kb rule`: a Comprehensive Rules clause across versions, with the rulings linked to it."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.common import console, data_home, parse_lang, print_json, reference


def rule(
    number: Annotated[Optional[str], typer.Argument(
        help="Clause number in the current CR, e.g. 708.8; an older CR's number (707.2 in a 2018 ruling) gets a note "
             "naming the rule it was then.")] = None,
    at: Annotated[Optional[str], typer.Option(
        "--at", help="Also show the clause as it stood in the CR in force on this date (YYYY-MM-DD, 13.07.2018, 13 July 2018, 13. Juli 2018 or 13 de julio de 2018).")] = None,
    diff: Annotated[Optional[tuple[str, str]], typer.Option(
        "--diff", help="Compare two CR versions by date: --diff 2014-09-25 2026-01-16 (needs --section).")] = None,
    section: Annotated[Optional[str], typer.Option(
        "--section", help="With --diff: the section or rule to compare, numbered as in the later version.")] = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-n", min=0, help="Show at most this many linked rulings, best first (0: all).")] = 20,
    lang: Annotated[Optional[str], typer.Option(
        "--lang", help="Show the linked rulings in this language where the KB has it (en, de, es).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Show a CR clause (now or on a date), its number and wording in every version with word diffs,
    and the rulings linked to it; or, with --diff, what changed in a section between two versions."""
    from cli import render
    from kb.errors import InputError
    from kb.normalize import clause_number, date_option
    from kb.store import linked_rulings

    language = parse_lang(lang)  # a bad language is refused before anything is read
    number = clause_number(number) if number is not None else None
    section = clause_number(section, "--section") if section is not None else None
    at = date_option(at, "--at") if at is not None else None
    if diff is not None:
        if diff[1].startswith("--"):  # one date given: the option after it was taken as the second
            raise InputError(f"--diff takes two dates (the older CR and the newer), got {diff[0]!r} then "
                             f"{diff[1]!r}: write --diff 2014-09-25 2026-01-16")
        older, newer = (date_option(d, "--diff") for d in diff)
        if not section:
            raise InputError("--diff needs --section, e.g. --section 708")
        changes = reference().rules.diff(older, newer, section)
        if as_json:
            print_json(changes.to_json())
        else:
            render.section_diff(console, changes)
        return
    if not number:
        raise InputError("name a clause (e.g. `kb rule 708.8`) or use --diff DATE DATE --section N")
    report = reference().clause_report(number, at)
    linked = linked_rulings(data_home(), number, limit or None, language, reference().rules.subclauses(number))
    if as_json:
        print_json(report.to_json() | linked.to_json())
    else:
        render.clause(console, report, linked)
