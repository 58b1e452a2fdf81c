"""`kb rule`: a Comprehensive Rules clause across versions, with the rulings linked to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from cli.common import console, errors, print_json, reference

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from kb.cr import Clause, ClauseHistory, RulesCorpus, SectionDiff


def rule(
    number: Annotated[Optional[str], typer.Argument(help="Clause number in the current CR, e.g. 708.8.")] = None,
    at: Annotated[Optional[str], typer.Option(
        "--at", help="Also show the clause as it stood in the CR in force on this date (YYYY-MM-DD).")] = None,
    diff: Annotated[Optional[tuple[str, str]], typer.Option(
        "--diff", help="Compare two CR versions by date: --diff 2014-09-25 2026-01-16 (needs --section).")] = None,
    section: Annotated[Optional[str], typer.Option(
        "--section", help="With --diff: the section or rule to compare, numbered as in the later version.")] = None,
    limit: Annotated[int, typer.Option(
        "--limit", "-n", min=0, help="Show at most this many linked rulings, best first (0: all).")] = 20,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Show a CR clause (now or on a date), its number and wording in every version with word diffs,
    and the rulings linked to it; or, with --diff, what changed in a section between two versions."""
    from kb.errors import InputError
    from kb.normalize import clause_number

    with errors():
        number = clause_number(number) if number is not None else None
        section = clause_number(section, "--section") if section is not None else None
        if diff is not None:
            if not section:
                raise InputError("--diff needs --section, e.g. --section 708")
            rules = reference().rules
            data = diff_json(rules.diff(diff[0], diff[1], section))
            if as_json:
                print_json(data)
            else:
                render_diff(console, data)
            return
        if not number:
            raise InputError("name a clause (e.g. `kb rule 708.8`) or use --diff DATE DATE --section N")
        rules = reference().rules
        data = clause_json(rules, number, at)
        data["rulings"], data["rulings_total"], data["rulings_note"] = linked_rulings(number, limit or None)
    if as_json:
        print_json(data)
    else:
        render_clause(console, data)


# --------------------------------------------------------------------------------------------
# Data (the JSON output; the text output renders the same dicts)


def clause_json(rules: RulesCorpus, number: str, at: str | None) -> dict[str, Any]:
    from kb.errors import NotFoundError
    from kb.normalize import word_diff

    clause = rules.clause(number)
    history = rules.history(number)
    data: dict[str, Any] = {
        "clause": number,
        "version": rules.current.date,
        "text": clause.text,
        "examples": list(clause.examples),
        "first_seen": history.first_seen,
        "first_seen_note": _first_seen_note(rules, history),
        "numbers": history.numbers(),
        "at": None,
        "history": [],
    }
    if at:
        rules.in_force(at)  # a bad date, or one before the oldest CR, is an error, not "not in the rules yet"
        try:
            then: Clause | None = rules.clause(number, at=at)
        except NotFoundError:  # the clause did not exist then
            then = None
        data["at"] = {
            "date": at,
            "version": rules.in_force(at, complete=True).date if then is None else then.version,
            "number": then.number if then else None,
            "text": then.text if then else None,
            "diff_to_current": word_diff(then.text, clause.text) if then and then.text != clause.text else None,
        }
    previous: str | None = None
    previous_date: str | None = None
    for step in history.steps:
        data["history"].append({
            "date": step.date,
            "number": step.number,
            "change": step.change,
            # the change happened after the previous CR the corpus has, on or before this one
            "after": previous_date if step.change not in ("added", "unchanged") else None,
            "text": step.text,
            "diff": word_diff(previous, step.text) if previous is not None and "reworded" in step.change else None,
        })
        previous, previous_date = step.text, step.date
    return data


def _first_seen_note(rules: RulesCorpus, history: ClauseHistory) -> str:
    if history.first_seen == rules.versions[0].date:
        return f"already in the oldest CR in the corpus ({history.first_seen})"
    return f"first in the CR of {history.first_seen}"


def linked_rulings(number: str, limit: int | None) -> tuple[list[dict[str, Any]] | None, int, str | None]:
    """The first `limit` entries of the current KB linked to `number`, best link first, and how many
    there are in all; None (and why) without a KB."""
    from cli.common import data_home
    from kb import store
    from kb.errors import StoreError

    home = data_home()
    if not store.exists(home):
        return None, 0, f"no KB in {home} yet; run `kb ingest` to see the rulings linked to this clause"
    try:
        kb = store.load(home)
    except StoreError as e:
        return None, 0, f"{e} and see the rulings linked to this clause"
    try:
        return [row.to_json() for row in kb.linked_rows(number, limit)], kb.linked_count(number), None
    finally:
        kb.close()


def diff_json(diff: SectionDiff) -> dict[str, Any]:
    from kb.normalize import word_diff

    changes: list[dict[str, Any]] = []
    for c in diff.changes:
        changes.append({
            "change": c.kind,
            "before": c.before.number if c.before else None,
            "after": c.after.number if c.after else None,
            "text_before": c.before.text if c.before else None,
            "text_after": c.after.text if c.after else None,
            "diff": word_diff(c.before.text, c.after.text) if c.before and c.after and "reworded" in c.kind else None,
        })
    counts: dict[str, int] = {}
    for row in changes:
        counts[row["change"]] = counts.get(row["change"], 0) + 1
    return {"from": diff.date_a, "to": diff.date_b, "section": diff.section_b, "section_before": diff.section_a,
            "summary": counts, "changes": changes}


# --------------------------------------------------------------------------------------------
# Text rendering


def diff_text(runs: list[list[str]] | list[tuple[str, str]]) -> Text:
    from cli.render import diff_text as _diff_text

    return _diff_text(runs)


def render_clause(out: Console, data: dict[str, Any]) -> None:
    from rich.text import Text

    out.print(Text.assemble((data["clause"], "bold"), f"  (CR of {data['version']})"))
    out.print(Text(data["text"]))
    for example in data["examples"]:
        out.print(Text(f"Example: {example}", style="italic"))
    if data["at"]:
        at = data["at"]
        out.print()
        if at["number"] is None:
            out.print(f"On {at['date']} (CR of {at['version']}): not in the rules yet.")
        else:
            out.print(Text.assemble(f"On {at['date']} (CR of {at['version']}): ", (at["number"], "bold")))
            out.print(Text(at["text"]))
            if at["diff_to_current"]:
                out.print(Text("Changed since:", style="dim"))
                out.print(diff_text(at["diff_to_current"]))
    out.print()
    out.print(Text(f"History ({' → '.join(data['numbers'])}; {data['first_seen_note']})", style="bold"))
    for step in data["history"]:
        line = Text.assemble((step["date"], "cyan"), "  ", (step["number"], "bold"), f"  {step['change']}")
        if step["after"]:
            line.append(f" (since {step['after']}, the corpus's previous CR)", style="dim")
        out.print(line)
        if step["diff"]:
            out.print(diff_text(step["diff"]))
        elif step["change"] == "added":
            out.print(Text(step["text"], style="dim"))
    out.print()
    if data["rulings"] is None:
        out.print(Text(data["rulings_note"], style="yellow"))
    elif not data["rulings"]:
        out.print("No rulings linked to this clause.")
    else:
        out.print(Text(f"Rulings linked to {data['clause']} ({data['rulings_total']})", style="bold"))
        for r in data["rulings"]:
            then = f", then {r['at_ruling_date']}" if r["at_ruling_date"] and r["at_ruling_date"] != data["clause"] else ""
            out.print(Text.assemble((r["id"], "cyan"), f"  #{r['rank']} score {r['score']:.2f}{then}  ",
                                    (", ".join(r["cards"]) or r["kind"], "dim")))
            out.print(Text(f"  {r['text']}"))
        if data["rulings_total"] > len(data["rulings"]):
            out.print(Text(f"… and {data['rulings_total'] - len(data['rulings'])} more; --limit 0 lists them all",
                           style="dim"))


def render_diff(out: Console, data: dict[str, Any]) -> None:
    from rich.text import Text

    before = data["section_before"] or "—"
    out.print(Text.assemble(("Section ", "bold"), (f"{before} ({data['from']}) → {data['section']} ({data['to']})", "bold")))
    out.print(", ".join(f"{k}: {v}" for k, v in sorted(data["summary"].items())))
    for c in data["changes"]:
        if c["change"] == "unchanged":
            continue
        label = f"{c['before'] or '—'} → {c['after'] or '—'}"
        out.print()
        out.print(Text.assemble((label, "bold"), f"  {c['change']}"))
        if c["diff"]:
            out.print(diff_text(c["diff"]))
        elif c["change"] == "added":
            out.print(Text(c["text_after"], style="green"))
        elif c["change"] == "removed":
            out.print(Text(c["text_before"], style="red strike"))
