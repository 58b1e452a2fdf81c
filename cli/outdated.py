"""`kb outdated`: wordings that no longer hold as written, one item per wording, with reasons and diffs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Optional, Sequence

import typer
from rich.text import Text

from cli.common import card_name, console, errors, open_kb, parse_lang, print_json
from cli.render import diff_text

if TYPE_CHECKING:
    from kb.outdated import OutdatedWording


def outdated(
    card: Annotated[Optional[str], typer.Option(
        help="Only wordings given for this card (any language), not those of other cards sharing the ruling.")] = None,
    lang: Annotated[Optional[str], typer.Option(help="Only wordings in this language (en, de, es).")] = None,
    since: Annotated[Optional[str], typer.Option(help="Only copies dated on or after this date (YYYY-MM-DD).")] = None,
    kind: Annotated[Optional[str], typer.Option(
        help="Only this reason: superseded, terminology, check-fails or rule-changed.")] = None,
    review: Annotated[bool, typer.Option(
        "--review", help="Show the review list instead: rulings whose rule changed in words they use.")] = False,
    show_all: Annotated[bool, typer.Option("--all", help="Show both lists: outdated and review.")] = False,
    summary: Annotated[bool, typer.Option(help="Counts of wordings per level, reason and card instead of the items.")] = False,
    fail_on: Annotated[Optional[list[str]], typer.Option(
        "--fail-on", help="Exit 1 when any listed wording has this reason (repeatable), e.g. for a rules manager's CI.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (with every source copy) instead of tables.")] = False,
) -> None:
    """Report outdated wordings: superseded, obsolete terms, failing checks (and, with --review, changed rules).

    The default list is what a judge should no longer quote. `--review` lists rulings whose rule
    was reworded after them in words they use; they probably still hold. A report: exit code 0
    unless --fail-on names a reason that occurs.
    """
    from kb.errors import InputError
    from kb.normalize import is_iso_date
    from kb.outdated import Level, Reason, filter_items, group_wordings, summarize_copies

    with errors():
        try:
            reason = Reason(kind) if kind else None
            fail_reasons = {Reason(k) for k in (fail_on or [])}
        except ValueError:
            raise InputError("unknown reason; use superseded, terminology, check-fails or rule-changed") from None
        if since and not is_iso_date(since):
            raise InputError(f"--since {since!r} is not a date (YYYY-MM-DD)")
        if show_all or (reason is not None and reason.level is Level.REVIEW and not review):
            levels = {Level.OUTDATED, Level.REVIEW}
        else:
            levels = {Level.REVIEW} if review else {Level.OUTDATED}
        kb = open_kb(quiet=as_json)
        english = card_name(card, kb) if card else None
        if summary:  # counted from the rows' columns: no item is decoded (fast at 100k rulings)
            data = summarize_copies(kb.outdated_copies(card=english, lang=parse_lang(lang), since=since,
                                                       reason=reason), levels)
        else:
            items = filter_items(kb.outdated(), card=english, lang=parse_lang(lang), since=since, reason=reason)
            # a wording is outdated when any of its (selected) copies is; review when all are review only
            wordings = [w for w in group_wordings(items) if w.level in levels]

    if summary:
        if as_json:
            print_json(data)
        else:
            _render_summary(data)
    elif as_json:
        print_json([w.to_json() for w in wordings])
    else:
        _render(wordings)
    found = set(data["by_reason"]) if summary else {r.kind.value for w in wordings for r in w.reasons}
    if any(r.value in found for r in fail_reasons):
        raise typer.Exit(1)


SUMMARY_ROWS = 25  # rows of each summary table in the text output


def _render_summary(data: dict[str, Any]) -> None:
    from rich.table import Table

    console.print(f"[bold]{data['wordings']}[/] wordings ({data['variants']} source copies)")
    for title, counts in (("level", data["by_level"]), ("reason", data["by_reason"]), ("card", data["by_card"])):
        table = Table(title=f"by {title}", title_justify="left")
        table.add_column(title)
        table.add_column("wordings", justify="right")
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        for key, n in ranked[:SUMMARY_ROWS]:
            table.add_row(key, str(n))
        console.print(table)
        if len(ranked) > SUMMARY_ROWS:  # thousands of cards at 100k rulings: the most affected first
            console.print(f"[dim]… and {len(ranked) - SUMMARY_ROWS} more {title}s; --json lists them all[/]")


def _render(wordings: Sequence[OutdatedWording]) -> None:
    if not wordings:
        console.print("no outdated wordings")
        return
    for w in wordings:
        head = Text(f"{w.entry}", style="bold")
        head.append(f"  {w.level.value}  {w.lang.value}  {', '.join(w.dates) or 'undated'}", style="dim")
        console.print(head)
        console.print(Text("  " + w.text))
        for reason in w.reasons:
            style = "bold red" if reason.kind.level.value == "outdated" else "bold yellow"
            console.print(Text(f"  {reason.kind.value}: ", style=style) + Text(reason.detail))
            if reason.diff:
                console.print(Text("    ") + diff_text(reason.diff))
        cards = ", ".join(w.cards[:6]) + (f" and {len(w.cards) - 6} more" if len(w.cards) > 6 else "")
        first = w.items[0].variant
        where = f"{first.source.removeprefix('corpus/')}:{first.line}"
        more = f" and {len(w.items) - 1} more copies" if len(w.items) > 1 else ""
        console.print(Text(f"  appears: {cards or 'no card'}; {where}{more}", style="dim"))
        console.print()
    console.print(f"[dim]{len(wordings)} wordings ({sum(len(w.items) for w in wordings)} source copies)[/]")
