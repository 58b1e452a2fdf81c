"""`kb check`: run scenario checks on the rules model, for entries, files, or everything."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.console import Console
from rich.markup import escape

from cli.common import console, err_console, errors, print_json, reference


def check(
    targets: Annotated[Optional[list[str]], typer.Argument(
        help="Entry ids (or unique prefixes) or check files (PATH.yaml); default: every check.")] = None,
    rules: Annotated[Optional[str], typer.Option(
        "--rules", help="Run under the Comprehensive Rules of this date (YYYY-MM-DD) instead of "
                        "each check's own date.")] = None,
    missing: Annotated[bool, typer.Option(
        "--missing", help="List the ruling entries linked to a face-down clause that have no check "
                          "(exit 1 if any), instead of running checks.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Run scenario checks against the rules model. Exit code 1 when any check fails."""
    from kb.checks import load_checks, match_entries, run_checks
    from kb.errors import CheckError, NotFoundError

    from kb.normalize import date_option

    if missing:
        _missing(as_json)
        return
    with errors():
        rules = date_option(rules, "rules") if rules is not None else None
        targets = targets or []
        files = [Path(t) for t in targets if t.endswith((".yaml", ".yml"))]
        entry_ids = [t for t in targets if not t.endswith((".yaml", ".yml"))]
        for f in files:
            if not f.is_file():
                raise NotFoundError(f"no check file {f}")
        ref = reference()
        checks, problems = load_checks(files, ref.cards) if files else ref.checks
        checks, problems = list(checks), list(problems)  # the corpus's own lists stay as read
        if files and entry_ids:
            raise CheckError("give either entry ids or check files, not both")
        by_check: dict[str, str] = {}
        if entry_ids:
            from cli.common import open_kb

            kb = open_kb(quiet=as_json)
            wanted = {kb.get(i).id for i in entry_ids}
            by_check, unmatched = match_entries(kb.entries, checks)
            problems.extend(unmatched)
            checks = [c for c in checks if by_check.get(c.id) in wanted]
            unchecked = wanted - {by_check[c.id] for c in checks}
            if unchecked:
                raise NotFoundError("no checks for entry " + ", ".join(sorted(unchecked)))
        else:
            by_check, unmatched = _entries_if_built(checks)
            problems.extend(unmatched)
        if not checks and not problems:  # a CI gate must not go green having checked nothing
            where = ", ".join(str(f) for f in files) if files else f"{ref.folder / 'checks'}"
            raise CheckError(f"no checks found in {where}; nothing was checked")
        results = run_checks(checks, rules, entries_by_check=by_check, cards=ref.cards)
    failed = [r for r in results if r.failed]
    not_applicable = [r for r in results if r.not_applicable]
    passed = len(results) - len(failed) - len(not_applicable)
    if as_json:
        data: dict[str, Any] = {
            "checks": [r.to_json() for r in results],
            "summary": {"total": len(results), "passed": passed, "failed": len(failed),
                        "not_applicable": len(not_applicable)},
        }
        if problems:
            data["problems"] = [str(p) for p in problems]
        print_json(data)
    else:
        for p in problems:
            err_console.print(f"[yellow]problem:[/] {escape(str(p))}", soft_wrap=True)
        render_check_results(console, results)
        console.print(f"{len(results)} checks: {passed} passed, {len(failed)} failed"
                      + (f", {len(not_applicable)} not applicable" if not_applicable else "")
                      + (f" (rules of {rules})" if rules else ""))
    if failed or problems:
        raise typer.Exit(1)


def _entries_if_built(checks: list[Any]) -> tuple[dict[str, str], list[Any]]:
    """Check id -> entry id from an existing KB, and the checks whose `ruling:` quote matches no
    entry or several; empty when no KB is built (never builds one)."""
    from kb import paths, store
    from kb.checks import match_entries
    from kb.errors import KBError

    try:
        if not store.exists(paths.home()):
            return {}, []
        return match_entries(store.load(paths.home()).entries, checks)
    except KBError:
        return {}, []


def _missing(as_json: bool) -> None:
    """`kb check --missing`: face-down ruling entries without a check, and the coverage."""
    from cli.common import open_kb
    from kb.checks import coverage

    with errors():
        kb = open_kb(quiet=as_json)
        covered, total, without = coverage(kb.entries)
    if as_json:
        print_json({
            "covered": covered, "total": total,
            "missing": [{"id": e.id, "cards": list(e.cards), "clauses": [r.clause for r in e.rules],
                         "text": e.text} for e in without],
        })
    else:
        for e in without:
            clauses = ", ".join(r.clause for r in e.rules[:3])
            console.print(f"[bold]{e.id}[/]  [dim]{escape(clauses)}[/]  {escape(e.text[:100])}",
                          soft_wrap=True, highlight=False)
        share = f" ({covered / total:.0%})" if total else ""
        console.print(f"face-down ruling entries with a check: {covered} of {total}{share}; "
                      f"{len(without)} without")
    if without:
        raise typer.Exit(1)


def render_check_results(console: Console, results: list[Any]) -> None:
    """One line per check (status, id, entry), each failure indented underneath."""
    if not results:
        console.print("[dim]no checks[/]")
        return
    for r in results:
        status = "[green]pass[/]" if r.passed else "[yellow]n/a [/]" if r.not_applicable else "[bold red]FAIL[/]"
        entry = f"  [dim]{r.entry}[/]" if r.entry else ""
        console.print(f"{status}  {escape(r.id)}{entry}", soft_wrap=True)
        if r.not_applicable:
            console.print(f"      [yellow]{escape(r.not_applicable)}[/]", soft_wrap=True, highlight=False)
        for f in r.failures:
            console.print(f"      [red]{escape(f)}[/]", soft_wrap=True, highlight=False)
