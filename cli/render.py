"""Rich rendering of entries, lists, stats and ingest reports. No logic beyond presentation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kb.model import Entry, Lang, Relation, Variant

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kb.checks import CheckResult
    from kb.scenario import Check

RELATION_STYLE = {
    Relation.CANONICAL: "bold green",
    Relation.DUPLICATE: "dim",
    Relation.REVISION: "yellow",
    Relation.TRANSLATION: "cyan",
}


def diff_text(runs: Iterable[Sequence[str]]) -> Text:
    """Word diff runs as Text: deletions red struck through, insertions green.

    Without colour (a pipe, NO_COLOR) the runs are marked the wdiff way: [-old-] {+new+}.
    """
    from cli.common import console

    plain = console.no_color or console.color_system is None
    out = Text()
    for op, words in runs:
        if out:
            out.append(" ")
        if plain and op != "equal":
            words = f"[-{words}-]" if op == "delete" else f"{{+{words}+}}"
        out.append(words, style={"delete": "red strike", "insert": "green"}.get(op, ""))
    return out


def clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def dates(entry: Entry) -> str:
    if not entry.first_date:
        return "undated"
    if entry.first_date == entry.last_date:
        return entry.first_date
    return f"{entry.first_date} → {entry.last_date}"


def cards(entry: Entry, limit: int = 4) -> str:
    if not entry.cards:
        return "—"
    shown = ", ".join(entry.cards[:limit])
    return shown + (f" +{len(entry.cards) - limit} more" if len(entry.cards) > limit else "")


def short_source(source: str) -> str:
    return source.removeprefix("corpus/")


def entry_list(console: Console, entries: Sequence[Entry], lang: Lang | None = None) -> None:
    """One row per entry; with `lang`, its text in that language where it has one."""
    table = Table(expand=True, box=None, pad_edge=False)
    table.add_column("id", style="bold", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("dates", no_wrap=True)
    table.add_column("langs", no_wrap=True)
    table.add_column("text", ratio=1)
    for e in entries:
        langs = ",".join(sorted({v.lang.value for v in e.variants}))
        label = "rule " + e.clause if e.clause else e.kind.value
        text = Text(clip((e.text_in(lang) if lang else None) or e.text, 140))
        if e.cards:
            text.append(f"\n{cards(e, 3)}", style="dim")
        table.add_row(Text(e.id), Text(label), Text(dates(e)), Text(langs), text)
    console.print(table)
    console.print(f"[dim]{len(entries)} entries[/]")


def _wordings(variants: Sequence[Variant]) -> list[list[Variant]]:
    """Variants grouped by wording (same text and language), in entry order."""
    groups: dict[tuple[str, str], list[Variant]] = {}
    for v in variants:
        groups.setdefault((v.lang.value, v.text), []).append(v)
    return list(groups.values())


def _variant_block(group: list[Variant], marks: list[str]) -> Text:
    first = group[0]
    relations = sorted({v.relation for v in group}, key=list(Relation).index)
    head = Text()
    for i, relation in enumerate(relations):
        head.append(("/" if i else "") + relation.value, style=RELATION_STYLE[relation])
    days = sorted({v.date or "undated" for v in group})
    head.append(f"  {first.lang.value}  {', '.join(days)}  similarity {first.similarity:.2f}")
    if marks:
        head.append("  OUTDATED: " + "; ".join(marks), style="bold red")
    where = [f"{short_source(v.source)}:{v.line}" + (f" ({v.card})" if v.card else "") for v in group]
    more = f" … and {len(where) - 3} more" if len(where) > 3 else ""
    head.append("\n  " + "; ".join(where[:3]) + more, style="dim")
    head.append("\n  " + first.text)
    return head


def entry_detail(console: Console, entry: Entry, *, lang: Lang | None = None,
                 clause_texts: dict[str, str] | None = None,
                 outdated: dict[int, list[str]] | None = None, collapse: bool = True) -> None:
    """An entry: canonical text (and the asked-for language), links, variants by wording."""
    body: list[RenderableType] = []
    if lang and lang is not Lang.EN:
        local = entry.text_in(lang)
        if local:
            body.append(Text(local, style="bold"))
            index = next(i for i, v in enumerate(entry.variants) if v.text == local)
            if "superseded" in (outdated or {}).get(index, []):
                body.append(Text("(this translation is of an older English wording: see below)", style="yellow"))
            body.append(Text(""))
        else:
            body.append(Text(f"(no {lang.value} text for this entry; English below)", style="dim italic"))
    body.append(Text(entry.text))
    header = Text.assemble((entry.id, "bold"), f"  {entry.kind.value}"
                           + (f" · CR {entry.clause}" if entry.clause else ""))
    console.print(Panel(Group(*body), title=header, title_align="left"))
    n_wordings = len(_wordings(entry.variants))
    console.print(Text.assemble(("cards", "bold"), f" {', '.join(entry.cards) or '—'}   ", ("dates", "bold"),
                                f" {dates(entry)}   ", ("wordings", "bold"),
                                f" {n_wordings} in {len(entry.variants)} source copies"))

    if entry.link_note:
        console.print("\n[bold]Comprehensive Rules[/]")
        console.print(Text("  " + entry.link_note, style="yellow"))
    if entry.rules:
        console.print("\n[bold]Comprehensive Rules[/]")
        for link in entry.rules:
            line = Text(f"  {link.clause}", style="bold")
            if link.at_ruling_date and link.at_ruling_date != link.clause:
                line.append(f" (then {link.at_ruling_date})", style="yellow")
            line.append(f"  score {link.score:.2f}", style="dim")
            text = (clause_texts or {}).get(link.clause)
            if text:
                line.append("\n    " + clip(text, 300))
            if link.evidence:
                line.append("\n    " + link.evidence, style="dim")
            console.print(line)

    index_of = {id(v): i for i, v in enumerate(entry.variants)}
    groups = _wordings(entry.variants) if collapse else [[v] for v in entry.variants]
    console.print(f"\n[bold]Variants[/] ({len(groups)} wordings)" if collapse else "\n[bold]Variants[/]")
    for group in groups:
        marks = sorted({m for v in group for m in (outdated or {}).get(index_of[id(v)], [])})
        console.print(_variant_block(group, marks))


def stats(console: Console, data: dict[str, Any]) -> None:
    table = Table(title="judge-kb", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        table.add_row(Text(key.replace("_", " ")), Text(str(value)))
    console.print(table)


def sources(console: Console, rows: list[dict[str, Any]]) -> None:
    """The judge's library, one row per source."""
    if not rows:
        console.print("[dim]no sources of your own yet: the KB is the bundled corpus. `kb ingest FILE` adds one.[/]")
        return
    table = Table(title="your sources", title_justify="left")
    table.add_column("path", overflow="fold")  # the whole path: `kb remove PATH` takes it
    table.add_column("format", no_wrap=True)
    table.add_column("sha256", no_wrap=True)  # 12 digits; `kb remove` takes 6 or more
    table.add_column("added (UTC)", no_wrap=True)
    table.add_column("units", justify="right", no_wrap=True)
    table.add_column("skipped", justify="right", no_wrap=True)
    for row in rows:
        added = row["added"].replace("T", " ")[:16]  # 2026-12-01T17:05:09Z -> 2026-12-01 17:05
        table.add_row(Text(row["path"]), row["format"] or "", row["sha256"][:12], added,
                      str(row["units"]), str(row["skipped"]))
    console.print(table)


def ingest_report(console: Console, report: dict[str, Any]) -> None:
    table = Table(show_header=False, title="ingest", title_justify="left")
    table.add_column("what")
    table.add_column("value", justify="right")
    for key, label in (("added", "added to your library"), ("replaced", "replaced (changed file, same path)"),
                       ("unchanged", "already in the KB (no change)"), ("removed", "removed from your library")):
        if report.get(key):
            table.add_row(label, f"{len(report[key])} file" + ("s" if len(report[key]) > 1 else ""))
    table.add_row("files read", str(len(report["files"])))
    table.add_row("rulings and rules parsed", str(report["parsed"]))
    table.add_row("stored as variants", str(report["stored"]))
    table.add_row("canonical entries", str(report["entries"]))
    errors = [p for p in report["skipped"] if not p["ignored"]]
    ignored = [p for p in report["skipped"] if p["ignored"]]
    table.add_row("skipped (could not be used)", str(len(errors)))
    table.add_row("ignored (not rulings)", str(len(ignored)))
    table.add_row("seconds", f"{report['seconds']:.1f}")
    console.print(table)
    for p in report["skipped"]:
        where = f"{p['source']}:{p['line']}" if p["line"] else p["source"]
        style = "dim" if p["ignored"] else "red"
        label = "ignored" if p["ignored"] else "skipped"
        console.print(Text(f"{label}: {where}: {p['reason']}", style=style))


def _compact(value: object) -> str:
    """A YAML-ish one-line rendering of a scenario value."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_compact(v)}" if not isinstance(v, dict) else f"{k} ({_compact(v)})"
                         for k, v in value.items())
    if isinstance(value, list):
        return "[" + ", ".join(_compact(v) for v in value) + "]"
    return "—" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def check_blocks(console: Console, checks: Sequence[Check], results: Sequence[CheckResult]) -> None:
    """Each check in readable form: its scenario (setup, actions, expectations) and pass/fail."""
    console.print(f"\n[bold]Checks[/] ({len(results)})" if results else "\n[bold]Checks[/] none")
    by_id = {c.id: c for c in checks}
    for r in results:
        check = by_id[r.id]
        status = Text("pass", style="green") if r.passed else Text("FAIL", style="bold red")
        line = status + Text(f"  {r.id}", style="bold")
        if check.rules:
            line.append(f"  (written for the rules of {check.rules})", style="dim")
        console.print(line)
        if check.description:
            console.print(Text("    " + check.description, style="italic"))
        console.print(Text("    setup: " + _compact(dict(check.setup))))
        for step in check.steps:
            action = Text(f"    → {step.action} {_compact(step.arg) if step.arg is not None else ''}".rstrip())
            if step.expect:
                action.append(f"   expect: {_compact(dict(step.expect))}", style="cyan")
            console.print(action)
        if check.expect:
            console.print(Text("    expect: " + _compact(dict(check.expect)), style="cyan"))
        for failure in r.failures:
            console.print(Text("    ✗ " + failure, style="red"))
