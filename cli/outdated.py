"""`kb outdated`: variants that no longer hold as written, with the reasons and word diffs."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Optional

import typer
from rich.text import Text

from cli.common import card_name, console, errors, open_kb, parse_lang, print_json
from cli.render import diff_text


def outdated(
    card: Annotated[Optional[str], typer.Option(help="Only variants of entries for this card (any language).")] = None,
    lang: Annotated[Optional[str], typer.Option(help="Only variants in this language (en, de, es).")] = None,
    since: Annotated[Optional[str], typer.Option(help="Only variants dated on or after this date (YYYY-MM-DD).")] = None,
    kind: Annotated[Optional[str], typer.Option(
        help="Only this reason: superseded, terminology, rule-changed or check-fails.")] = None,
    summary: Annotated[bool, typer.Option(help="Counts per card and per reason instead of the items.")] = False,
    fail_on: Annotated[Optional[list[str]], typer.Option(
        "--fail-on", help="Exit 1 when any item has this reason (repeatable), e.g. for a rules manager's CI.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Report outdated variants: superseded wordings, obsolete terms, changed rules, failing checks.

    A report: exit code 0 unless --fail-on names a reason that occurs.
    """
    from kb.errors import InputError
    from kb.normalize import is_iso_date
    from kb.outdated import Reason, filter_items

    with errors():
        try:
            reason = Reason(kind) if kind else None
            fail_reasons = {Reason(k) for k in (fail_on or [])}
        except ValueError:
            raise InputError("unknown reason; use superseded, terminology, rule-changed or check-fails") from None
        if since and not is_iso_date(since):
            raise InputError(f"--since {since!r} is not a date (YYYY-MM-DD)")
        kb = open_kb(quiet=as_json)
        english = card_name(card) if card else None
        by_id = {e.id: e for e in kb.entries}
        items = filter_items(kb.outdated(), by_id, card=english, lang=parse_lang(lang), since=since, reason=reason)

    if summary:
        per_reason = Counter(r.kind.value for item in items for r in item.reasons)
        per_card = Counter(card for item in items for card in (by_id[item.entry].cards or ("(no card)",)))
        data = {"items": len(items), "by_reason": dict(sorted(per_reason.items())),
                "by_card": dict(sorted(per_card.items()))}
        if as_json:
            print_json(data)
        else:
            from rich.table import Table

            console.print(f"[bold]{len(items)}[/] outdated variants")
            for title, counts in (("reason", per_reason), ("card", per_card)):
                table = Table(title=f"by {title}", title_justify="left")
                table.add_column(title)
                table.add_column("variants", justify="right")
                for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
                    table.add_row(key, str(n))
                console.print(table)
    elif as_json:
        print_json([item.to_json() for item in items])
    else:
        _render(items)
    if fail_reasons and any(r.kind in fail_reasons for item in items for r in item.reasons):
        raise typer.Exit(1)


def _render(items) -> None:
    if not items:
        console.print("no outdated variants")
        return
    shown: set[tuple[str, str, tuple[str, ...]]] = set()
    repeats = 0
    for item in items:
        v = item.variant
        key = (item.entry, v.text, tuple(item.kinds))
        if key in shown:  # the same wording on another card or snapshot: one block says it
            repeats += 1
            continue
        shown.add(key)
        head = Text(f"{item.entry}", style="bold")
        head.append(f"  {v.lang.value}  {v.date or 'undated'}  {v.source.removeprefix('corpus/')}:{v.line}", style="dim")
        console.print(head)
        console.print(Text("  " + v.text))
        for reason in item.reasons:
            console.print(Text(f"  {reason.kind.value}: ", style="bold red") + Text(reason.detail))
            if reason.diff:
                console.print(Text("    ") + diff_text(reason.diff))
        console.print()
    console.print(f"[dim]{len(items)} outdated variants"
                  + (f"; {repeats} copies of the same wordings folded" if repeats else "") + "[/]")
