"""All rich rendering of the CLI (tables, panels, colours, word diffs), one function per thing shown.

The commands hand over the library's result objects (or their JSON); nothing here decides, reads
files or opens the KB. `--json` output never passes through here.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from collections import Counter
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Iterator, Mapping, Sequence

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kb.model import Entry, EntrySummary, Kind, Lang, Relation, Variant, text_lang
from kb.lang import LANGUAGE_NAMES

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kb.build import BuildReport, OnProgress, SourceChange
    from kb.checks import CheckCoverage, CheckResult, CheckRun
    from kb.cr.query import ChangeKind, ClauseReport, SectionDiff
    from kb.store import KB, LinkedRulings
    from kb.outdated import OutdatedWording
    from kb.oracle import OracleCard
    from kb.checks.scenario import Check
    from kb.search import Hit
    from kb.search.fold import AlsoSaid
    from kb.views import CardView, EntryView

# The mark of a translation `kb outdated` calls superseded, wherever one is shown (search, card, list).
OLDER_WORDING = "translates an older English wording, replaced since"


def listed_outdated(kinds: Sequence[str]) -> str:
    """The mark of a shown wording `kb outdated` lists for these reasons' kinds (search, rule)."""
    return f"`kb outdated` lists this wording: {', '.join(kinds)}"


RELATION_STYLE = {
    Relation.CANONICAL: "bold green",
    Relation.DUPLICATE: "dim",
    Relation.REVISION: "yellow",
    Relation.TRANSLATION: "cyan",
}


def count(n: int, one: str, many: str | None = None) -> str:
    """`n` with the noun it counts, singular for one: "1 check", "2 checks", "1 source copy"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


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


def dates(entry: Entry | EntrySummary) -> str:
    if not entry.first_date:
        return "undated"
    if entry.first_date == entry.last_date:
        return entry.first_date
    return f"{entry.first_date} → {entry.last_date}"


def cards(entry: Entry, limit: int = 4, first: str | None = None) -> str:
    """The entry's cards, the first `limit` of them; the card asked about (`first`) leads, so a
    filter's card is never among the "+N more" a ruling of 60 cards hides."""
    return card_names(entry.cards, limit, first)


def card_names(names: Sequence[str], limit: int = 4, first: str | None = None) -> str:
    """The first `limit` of `names` and how many more ("—" for none); `first` leads when present."""
    if not names:
        return "—"
    ordered = sorted(names, key=lambda name: name != first) if first else list(names)
    shown = ", ".join(ordered[:limit])
    return shown + (f" +{len(names) - limit} more" if len(names) > limit else "")


def short_source(source: str) -> str:
    return source.removeprefix("corpus/")


def own_mark(source: str, text: str, cards: Sequence[str] = ()) -> str:
    """How an entry no official source gives is marked wherever it is shown (tryout23: a judge could
    not tell their own notes from Wizards' rulings), and one whose `text` speaks of none of its
    `cards` and nothing of the game flagged as the remark it may be (tryout23 #6)."""
    from kb.gamewords import REMARK_NOTE, is_remark

    remark = f"; {REMARK_NOTE}" if is_remark(text, source, cards) else ""
    return f"your page {source}, not official{remark}"


def entry_list(console: Console, entries: Sequence[EntrySummary], lang: Lang | None = None, *,
               for_card: bool = False, card: str | None = None, note: str | None = None,
               superseded: AbstractSet[tuple[str, str]] = frozenset(),
               own_page: Callable[[EntrySummary], str | None] | None = None) -> None:
    """One row per entry, those whose shown text only a judge's own page gives marked (`own_page`: the
    file of the text shown, a translation's own where one is shown: tryout44 L2);
    with `lang`, its text in that language where it has one (flagged when it translates a replaced
    English wording: (entry id, text) in `superseded`), and a hint when no entry (of a card:
    `for_card`) has one. The card asked about (`card`, its English name) leads each row's cards.
    `note`: what was left out, last."""
    table = Table(expand=True, box=None, pad_edge=False)
    # ids never shrink to "…"; a long label (`rule glossary:Active Player, Nonactive Player Order`) folds
    table.add_column("id", style="bold", no_wrap=True, min_width=max((len(e.id) for e in entries), default=2))
    table.add_column("kind", max_width=18, overflow="fold")
    table.add_column("dates", no_wrap=True)
    table.add_column("langs", no_wrap=True)
    table.add_column("text", ratio=1)
    # At 80 columns "2014-09-20 → 2024-09-20" left the text 23 columns: a date under the other there.
    narrow = console.width < 110
    for e in entries:
        langs = ",".join(e.langs)
        label = "rule " + e.clause if e.clause else e.kind.value
        text = Text(clip(e.lang_text or e.text, 140))
        if (e.id, e.lang_text) in superseded:
            text.append(f"\n({OLDER_WORDING}; kb show {e.id})", style="yellow")
        if own_page and (page := own_page(e)):
            text.append(f"\n({own_mark(page, e.lang_text or e.text, e.cards)})", style="yellow")
        if e.cards:
            text.append(f"\n{card_names(e.cards, 3, first=card)}", style="dim")
        when = dates(e).replace(" → ", "\n→ ") if narrow else dates(e)
        table.add_row(Text(e.id), Text(label), Text(when), Text(langs), text)
    console.print(table)
    console.print(f"[dim]{count(len(entries), 'entry', 'entries')}[/]")
    if not entries and lang:
        console.print(f"[yellow]No entry{' of this card' if for_card else ''} has a wording in {lang.value}.[/] "
                      "Drop --lang to list them in English; `kb coverage` lists what lacks a translation.")
    if note:
        console.print(Text(note + ".", style="dim"))


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
                 outdated: dict[int, list[str]] | None = None, collapse: bool = True,
                 cr_versions: Sequence[tuple[str, str]] = (), own_page: str | None = None,
                 cr_rewordings: Sequence[tuple[str, str, ChangeKind]] = (), own_texts: Mapping[str, str] | None = None) -> None:
    """An entry: canonical text (and the asked-for language), whose each is when only a judge's own
    page gives it (`own_page`; `own_texts`, text -> file), links, variants by wording. A CR
    clause's entry names the CR versions that hold it (`cr_versions`: (date, number)); its wordings
    are shown only when a page quoted it (else "0 wordings" read as "this rule has no text")."""
    body: list[RenderableType] = []
    if lang and lang is not Lang.EN:
        local = entry.text_in(lang)
        if local:
            body.append(Text(local, style="bold"))
            index = next(i for i, v in enumerate(entry.variants) if v.text == local)
            if "superseded" in (outdated or {}).get(index, []):
                body.append(Text("(this translation is of an older English wording: see below)", style="yellow"))
            if local != entry.text:  # else it is the canonical text (no English wording): shown once
                body += [Text(""), Text(entry.text)]
        else:
            shown = text_lang(entry, entry.text)
            below = "English" if shown is Lang.EN else f"its {shown.value} text"  # a ruling with no English wording
            body += [Text(f"(no {lang.value} text for this entry; {below} below)", style="dim italic"),
                     Text(entry.text)]
    else:
        body.append(Text(entry.text))
    header = Text.assemble((entry.id, "bold"), f"  {entry.kind.value}"
                           + (f" · CR {entry.clause}" if entry.clause else ""))
    console.print(Panel(Group(*body), title=header, title_align="left"))
    if own_page:
        console.print(Text(own_mark(own_page, entry.text, entry.cards), style="bold yellow"))
    if lang and lang is not Lang.EN and (local := entry.text_in(lang)) and (translated := (own_texts or {}).get(local)):
        # the text shown first is a judge's own translation (tryout44 L2, as `kb search` marks it; review44 #3)
        console.print(Text(f"{lang.value} text: your page {translated}, not official", style="bold yellow"))
    n_wordings = len(_wordings(entry.variants))
    wordings = Text.assemble(("wordings", "bold"),
                             f" {n_wordings} in {count(len(entry.variants), 'source copy', 'source copies')}")
    if entry.kind is Kind.RULE and not entry.variants:
        wordings = Text()
    console.print(Text.assemble(("cards", "bold"), f" {', '.join(entry.cards) or '—'}   ", ("dates", "bold"),
                                f" {dates(entry)}" + ("   " if wordings else ""), wordings))
    if cr_versions:
        console.print(Text.assemble(("in the CR", "bold"), " " + cr_spans(cr_versions)))
    if cr_rewordings and entry.clause:  # the older wordings are the CR's, not variants: say where they are
        # a change of the numbers it cites alone is said as such (tryout48 D7), beside a rewording too
        reworded = any(how.reworded for _, _, how in cr_rewordings)
        changes = ", ".join(f"{date} ({number}{'' if how.reworded or not reworded else ': references renumbered'})"
                            for date, number, how in cr_rewordings)
        crs = "CR" if len(cr_rewordings) == 1 else "CRs"  # "by": the change came after the CR before, which the KB may lack
        console.print(Text.assemble(("reworded" if reworded else "references renumbered", "bold"),
                                    f" by the {crs} of {changes}: `kb rule {entry.clause}` shows every wording, "
                                    "with word diffs"))

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
            if text and link.clause != entry.clause:  # a clause's own entry: its text is the panel above
                line.append("\n    " + clip(text, 300))
            if link.evidence:
                line.append("\n    " + link.evidence, style="dim")
            console.print(line)

    index_of = {id(v): i for i, v in enumerate(entry.variants)}
    groups = _wordings(entry.variants) if collapse else [[v] for v in entry.variants]
    if lang is not None:  # the asker's language first; otherwise the entry's order
        groups.sort(key=lambda group: group[0].lang is not lang)
    if not groups:  # a CR clause no page quoted: its text is the panel above
        return
    console.print(f"\n[bold]Variants[/] ({count(len(groups), 'wording')})" if collapse else "\n[bold]Variants[/]")
    for group in groups:
        marks = sorted({m for v in group for m in (outdated or {}).get(index_of[id(v)], [])})
        console.print(_variant_block(group, marks))


def cr_spans(versions: Sequence[tuple[str, str]]) -> str:
    """The CR versions holding a clause, by the number it had: "707.10 in 3 versions (2014-09-25 to
    2018-07-13); 708.10 in 4 versions (2024-02-02 to 2026-01-16)"."""
    spans: list[tuple[str, list[str]]] = []
    for date, number in versions:
        if not spans or spans[-1][0] != number:
            spans.append((number, []))
        spans[-1][1].append(date)
    return "; ".join(f"{number} in {count(len(days), 'version')} ("
                     + (days[0] if len(days) == 1 else f"{days[0]} to {days[-1]}") + ")" for number, days in spans)


def entry_view(console: Console, err_console: Console, view: EntryView, *, lang: Lang | None = None,
               collapse: bool = True) -> None:
    """`kb show`: a note on stderr when the id moved, the entry, then its checks."""
    if view.moved_from:
        err_console.print(f"[yellow]note:[/] {view.moved_from} now belongs to {view.entry.id} ({view.moved_why})",
                          soft_wrap=True)
    entry_detail(console, view.entry, lang=lang, clause_texts=view.clause_texts, outdated=view.marks(),
                 collapse=collapse, cr_versions=view.cr_versions, own_page=view.own_page,
                 cr_rewordings=view.cr_rewordings, own_texts=view.own_texts)
    check_blocks(console, view.checks, view.results)


def stats(console: Console, data: dict[str, Any]) -> None:
    table = Table(title="judge-kb", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for key, value in data.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items())
        table.add_row(Text(key.replace("_", " ")), Text(str(value)))
    console.print(table)


def sources(console: Console, rows: list[dict[str, Any]]) -> None:
    """The judge's library, one row per source."""
    if not rows:
        console.print("[dim]no sources of your own yet: the KB is the bundled corpus. `kb ingest FILE` adds one.[/]")
        return
    # One source per two lines, the path alone on the second and never folded: a table column
    # squeezed the path to 8 characters a line at 80 columns, and `kb remove PATH` needs it whole.
    console.print("[bold]your sources[/]  [dim](sha256, format, added UTC)[/]")
    for row in rows:
        added = row["added"].replace("T", " ")[:16]  # 2026-12-01T17:05:09Z -> 2026-12-01 17:05
        console.print(Text.assemble((row["sha256"][:12], "cyan"), f"  {row['format'] or '?'}  {added}  "
                                    f"{count(row['units'], 'unit')}, {row['skipped']} skipped"))
        console.print(Text("  " + row["path"]), soft_wrap=True)


def ingest_report(console: Console, err_console: Console, build: BuildReport, *, strict: bool = False) -> None:
    """What an ingest did (a table, then each unit skipped), and on stderr why nothing was added. A
    call that took in no file at all shows only why: the table would describe the KB as it was."""
    report = build.to_json()
    if build.written or build.added or build.replaced or build.unchanged or build.removed:
        ingest_table(console, report, build.changes)
    else:
        skipped_lines(console, report)
    if not build.written and strict and build.errors:
        err_console.print(f"[bold red]error:[/] {count(len(build.errors), 'unit')} could not be ingested; "
                          "nothing added (--strict)")
    elif not build.written and build.unchanged and not build.errors:
        err_console.print("nothing changed: the KB already holds these sources")
        if report["skipped_when_added"]:
            err_console.print(f"{count(len(report['skipped_when_added']), 'unit')} of them could not be used when "
                              "they were added, and still can't:")
            for p in report["skipped_when_added"]:
                err_console.print(_unit_line(p))
    elif not build.written:
        err_console.print("nothing added")
    elif report["skipped_when_added"]:  # a rebuild: skips its files had when they were added, summed up
        err_console.print(f"{count(len(report['skipped_when_added']), 'unit')} skipped in files already in the "
                          "library, as by the last build (`kb sources` counts them per file; `kb ingest FILE` "
                          "lists a file's again)")


def removed(console: Console, build: BuildReport) -> None:
    """What `kb remove` did, and its notes (a page whose title no longer names a known card)."""
    console.print(f"removed {build.removed[0]}; the KB now has {build.entries} entries")
    entry_changes(console, build.changes)
    for text in build.notes:
        console.print(note_line(text), soft_wrap=True)


def ingest_table(console: Console, report: dict[str, Any], changes: Sequence[SourceChange] = ()) -> None:
    table = Table(show_header=False, title="ingest", title_justify="left")
    table.add_column("what")
    table.add_column("value", justify="right")
    for key, label in (("added", "added to your library"), ("replaced", "replaced (changed file, same path)"),
                       ("unchanged", "already in the KB (no change)"), ("removed", "removed from your library")):
        if report.get(key):
            table.add_row(label, f"{len(report[key])} file" + ("s" if len(report[key]) > 1 else ""))
    # every file the KB is built from (bundled and yours), not only those this command named
    table.add_row("files in the KB (bundled + yours)", str(len(report["files"])))
    table.add_row("rulings and rules parsed", str(report["parsed"]))
    table.add_row("stored as variants", str(report["stored"]))
    # the CR's clauses are entries too (kind rule): a judge reads "entries" as rulings (tryout21)
    table.add_row("entries: rulings", str(report["rulings"]))
    table.add_row("entries: CR clauses and glossary", str(report["entries"] - report["rulings"]))
    errors = [p for p in report["skipped"] if not p["ignored"]]
    ignored = [p for p in report["skipped"] if p["ignored"]]
    before = len(report.get("skipped_when_added", []))  # a file ingested again, unchanged
    table.add_row("skipped (could not be used)", str(len(errors)) + (f" ({before} when added)" if before else ""))
    # "ignored" units lose nothing: text that is not a ruling, or rulings kept with a caveat (no card,
    # a guessed date order), so they are notes, not a second kind of skip
    table.add_row("notes (kept, or not rulings)", str(len(ignored)))
    table.add_row("seconds", f"{report['seconds']:.1f}")
    console.print(table)
    entry_changes(console, changes)
    skipped_lines(console, report)


# Entry ids shown per line of what a file did to the entries, and cards named, before "and N more"
IDS_SHOWN = 5
CARDS_SHOWN = 3


def entry_changes(console: Console, changes: Sequence[SourceChange]) -> None:
    """One line per file a call added, replaced or took out: its wordings, the cards they are under, and
    the entries it brought, changed and took out, each with the first `IDS_SHOWN` ids (tryout46 D8)."""
    for change in changes:
        cards = [card + (f" ({', '.join(names)})" if names else "") for card, names in change.cards]
        more = f" and {count(len(cards) - CARDS_SHOWN, 'more card')}" if len(cards) > CARDS_SHOWN else ""
        under = f" of {', '.join(cards[:CARDS_SHOWN])}{more}" if cards else ""
        said = [f"{count(len(ids), what, plural)}: {_ids(ids)}" for ids, what, plural in (
                    (change.new, "new entry", "new entries"), (change.changed, "entry changed", "entries changed"),
                    (change.gone, "entry taken out", "entries taken out")) if ids]
        console.print(Text(f"{short_source(change.source)}: {count(change.wordings, 'ruling')}{under}: "
                           + ("; ".join(said) or "no entry changed")), soft_wrap=True)


def _ids(ids: Sequence[str]) -> str:
    """The first `IDS_SHOWN` ids, and how many more."""
    more = f" and {len(ids) - IDS_SHOWN} more" if len(ids) > IDS_SHOWN else ""
    return ", ".join(ids[:IDS_SHOWN]) + more


# Notes (units kept with a caveat, or not rulings) shown in the terminal; every skipped unit is shown.
NOTES_SHOWN = 20
# A kind of note given more often than this is one line: how many, and what they say (141 copies of
# bundled files were 20 lines and "121 more", tryout17)
FOLD_AT = 3


def skipped_lines(console: Console, report: dict[str, Any]) -> None:
    """Each unit of an ingest report that was skipped (red, every one: nothing is lost silently), then
    the notes on units kept with a caveat (dim): a kind of note given more than `FOLD_AT` times as one
    line, the others one by one up to `NOTES_SHOWN`, and how many more and of what kind, since a
    rebuild of a large library would print one for every page (`--json` has them all)."""
    errors = [p for p in report["skipped"] if not p["ignored"]]
    notes = [p for p in report["skipped"] if p["ignored"]]
    for p in errors:
        console.print(_unit_line(p))
    kind_of = [_note_kind(p["reason"]) for p in notes]
    kinds: dict[str, list[dict[str, Any]]] = {}
    for p, kind in zip(notes, kind_of):
        kinds.setdefault(kind, []).append(p)
    rest: list[dict[str, Any]] = []
    shown = 0
    for p, kind in zip(notes, kind_of):
        alike = kinds[kind]
        if len(alike) > FOLD_AT:
            if p is alike[0]:
                console.print(_folded_line(kind, alike))
        elif shown < NOTES_SHOWN:
            console.print(_unit_line(p))
            shown += 1
        else:
            rest.append(p)
    if rest:
        counted = Counter(_note_kind(p["reason"]) for p in rest)
        most = "; ".join(f'{n} like "{kind} ..."' for kind, n in counted.most_common(3))
        others = sum(counted.values()) - sum(n for _, n in counted.most_common(3))
        console.print(Text(f"... and {count(len(rest), 'more note')} ({most}{f'; {others} other' if others else ''}); "
                           "`kb ingest --json` lists every one", style="dim"))


def _unit_line(p: dict[str, Any]) -> Text:
    """One unit of an ingest report: "skipped: FILE:LINE: why" (red), or "note: ..." (dim) for one kept
    with a caveat (`ignored`)."""
    where = f"{p['source']}:{p['line']}" if p["line"] else p["source"]
    label, style = ("note", "dim") if p.get("ignored") else ("skipped", "red")
    return Text(f"{label}: {where}: {p['reason']}", style=style)


# A file's path in a note ("the same bytes as the bundled corpus/mtgjson/C15.json: nothing added"): at
# least one separator and a file name with an extension (not "2/2", "+1/+1", "9/20/2014")
_PATH = re.compile(r"[^\s'\"]*[/\\][^\s:'\"/\\]*\.[A-Za-z][A-Za-z0-9]{0,4}\b")


def _note_kind(reason: str) -> str:
    """A note's reason without what names its unit: its first words, up to a colon or a quote, with
    file paths left out."""
    head = re.split(r"[:'\"(]", _PATH.sub("…", reason), maxsplit=1)[0].strip()
    return " ".join(head.split()[:8])


def _folded_line(kind: str, alike: Sequence[dict[str, Any]]) -> Text:
    """One line for the notes of one kind: how many files (or units) and what they were told, whole
    when only their paths differ."""
    said = {_PATH.sub("…", p["reason"]) for p in alike}
    files = all(p["line"] is None for p in alike) and len({p["source"] for p in alike}) == len(alike)
    what = next(iter(said)) if len(said) == 1 else f"{kind} …"
    return Text(f"note: {count(len(alike), 'file' if files else 'note')}: {what} (`kb ingest --json` names each)",
                style="dim")


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
        line = check_status(r) + Text(f"  {r.id}", style="bold")
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
        if r.not_applicable:  # a check of rules that changed, outside its holds_since/holds_until (review49)
            console.print(Text("    " + r.not_applicable, style="yellow"))
        for failure in r.failures:
            console.print(Text("    ✗ " + failure, style="red"))


def check_status(r: CheckResult) -> Text:
    """A check's status word: pass, n/a (not applicable under the run's rules), ???? (its quote picks no
    ruling) or FAIL."""
    if r.passed:
        return Text("pass", style="green")
    if r.not_applicable:
        return Text("n/a ", style="yellow")
    return Text("????", style="yellow") if r.is_unattached else Text("FAIL", style="bold red")


# --- kb rule ------------------------------------------------------------------------------------

SUBCLAUSES_SHOWN = 5  # `kb rule 708`: the subclauses with most rulings named


def clause(out: Console, report: ClauseReport, linked: LinkedRulings) -> None:
    """A clause now (and on a date), its wording history with word diffs, and its linked rulings."""
    out.print(Text.assemble((report.clause, "bold"), f"  (CR of {report.version})"))
    at = report.at
    # first thing shown: a judge who types the number an old ruling cites needs to know it was another rule;
    # with --at, only what it numbered on that date (not in CRs in force before or after: tryout18)
    if at and at.other_rule:
        # the command shows that rule as it stood then: what an auditor of a ruling of that date reads
        if at.other_rule_now:
            what = f"another rule (now {at.other_rule_now}: `kb rule {at.other_rule_now} --at {at.date}`)"
        else:  # in the words `kb rule` without --at uses (tryout46 D10): where it was, since removed
            what = next((f.what for f in report.other_rules if not f.now and f.first <= at.version <= f.last),
                        "another rule (no longer in the rules)")
        out.print(note_line(f"in the CR of {at.version}, {report.clause} numbered {what}."))
        if gap := at.other_rule_gap:  # the CR read is long before the date: the number may have moved by then
            out.print(Text(f"But the KB has no CR between {gap.used} and {gap.next}, which gives that rule another "
                           f"number: which rule {report.clause} numbered on {at.date}, it can't tell.", style="yellow"))
    elif not at:  # a rule renumbered since: first (tryout9); one no longer in the rules: after the text (tryout44 L1)
        for former in report.other_rules:
            if former.now:
                out.print(note_line(f"{former.said(report.clause)}."))
    out.print(Text(report.text))
    for example in report.examples:
        out.print(Text(f"Example: {example}", style="italic"))
    if not at:
        for former in report.other_rules:
            if not former.now:
                out.print(note_line(f"{former.said(report.clause)}."))
    if at:
        out.print()
        if at.absent:
            out.print(at.absent)
        else:
            out.print(Text.assemble(f"On {at.date} (CR of {at.version}): ", (at.number or "", "bold")))
        if at.gap and not at.unknown:  # an unknown answer already says which CRs the KB lacks
            out.print(note_line(at.gap.note))
        if at.number is not None:
            if at.in_force:
                out.print(Text(f"(the CR in force then, of {at.in_force}, is in the corpus only as an extract of the "
                               f"face-down rules without this clause: this is the CR of {at.version}'s wording and "
                               f"number, which may have changed by {at.date})", style="yellow"))
            out.print(Text(at.text or ""))
            if at.diff_to_current:
                out.print(Text("Changed since:", style="dim"))
                out.print(diff_text(at.diff_to_current))
    out.print()
    out.print(Text(f"History ({' → '.join(report.numbers)}; {report.first_seen_note})", style="bold"))
    for i, step in enumerate(report.history):
        change = ("as in the oldest CR in the corpus" if i == 0 and report.in_oldest
                  else "first seen" if step.change == "added" else step.change)
        line = Text.assemble((step.date, "cyan"), "  ", (step.number, "bold"), f"  {change}")
        if step.after and step.change == "added":
            line.append(f" (not in the CR of {step.after}, the corpus's last CR before it to show it absent)", style="dim")
        elif step.after:
            line.append(f" (since {step.after}, the corpus's previous CR)", style="dim")
        out.print(line)
        if step.diff:
            out.print(diff_text(step.diff))
        elif step.change == "added":
            out.print(Text(step.text, style="dim"))
    out.print()
    if linked.rows is None:
        out.print(Text(linked.note or "", style="yellow"))
    elif not linked.rows and linked.in_subclauses:
        most = list(linked.in_subclauses.items())
        shown = ", ".join(f"{c} ({n})" for c, n in most[:SUBCLAUSES_SHOWN])
        more = f" and {len(most) - SUBCLAUSES_SHOWN} more" if len(most) > SUBCLAUSES_SHOWN else ""
        out.print(Text(f"No rulings linked to {report.clause} itself; {count(linked.in_subclauses_total, 'ruling')} "
                       f"linked to its subclauses: {shown}{more}. `kb rule {most[0][0]}` lists the rulings of one."))
    elif not linked.rows:
        out.print("No rulings linked to this clause.")
    else:
        out.print(Text(f"Rulings linked to {report.clause} ({linked.total})", style="bold"))
        further = False
        for r in linked.rows:
            if r.rank > 1 and not further:  # the rulings this clause is no first link of: weaker evidence (tryout31 #1)
                further = True
                out.print(Text(f"  Rulings that link {report.clause} only after another clause (#2 or lower): "
                               "more likely about that one", style="dim"))
            then = f", then {r.at_ruling_date}" if r.at_ruling_date and r.at_ruling_date != report.clause else ""
            out.print(Text.assemble((r.id, "cyan"), f"  #{r.rank} score {r.score:.2f}{then}  ",
                                    (card_names(r.cards, 6) if r.cards else r.kind.value, "dim")))
            out.print(Text(f"  {linked.text(r)}"))
            if kinds := linked.outdated.get((r.id, linked.text(r))):  # tryout31 #5: as `kb card` and `kb search` mark them
                said = (f"{OLDER_WORDING}; `kb show {r.id}` has the current text" if kinds == ("superseded",)
                        else listed_outdated(kinds))
                out.print(Text(f"  ({said})", style="yellow"))
        if linked.total > len(linked.rows):
            out.print(Text(f"… and {linked.total - len(linked.rows)} more; --limit 0 lists them all", style="dim"))


def section_diff(out: Console, diff: SectionDiff) -> None:
    """What changed in a section between two CR versions: counts, then each change with its word diff."""
    data = diff.to_json()
    before = data["section_before"] or "—"
    out.print(Text.assemble(("Section ", "bold"), (f"{before} ({data['from']}) → {data['section']} ({data['to']})", "bold")))
    for gap in diff.gaps:
        out.print(note_line(gap.note))
    if diff.same_version:
        out.print(f"Both dates fall under the CR of {diff.date_a}: nothing to compare.")
        return
    if diff.changes_note:
        out.print(note_line(diff.changes_note))
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


# --- kb check -----------------------------------------------------------------------------------

def check_run(console: Console, err_console: Console, run: CheckRun) -> None:
    """The problems met (on stderr), one line per check (status, id, entry) with each failure
    indented underneath, then the counts."""
    for p in run.problems:
        err_console.print(f"[yellow]problem:[/] {escape(str(p))}", soft_wrap=True)
    if run.rules_gap:
        console.print(note_line(run.rules_gap.note))
    check_results(console, run.results)
    # the problems make the exit code 1 even when every check ran passes: the summary says so
    console.print(f"{count(len(run.results), 'check')}: {run.passed} passed, {len(run.failed)} failed"
                  + (f", {len(run.not_applicable)} not applicable" if run.not_applicable else "")
                  + (f", {len(run.unattached)} attached to no ruling" if run.unattached else "")
                  + (f" (rules of {run.rules})" if run.rules else "")
                  + (f"; {count(len(run.problems), 'problem')} in the way (listed first, on stderr)"
                     if run.problems else ""))
    if run.nothing_checked:
        err_console.print(Text.assemble(("error:", "bold red"), " nothing checked: every check is n/a under the rules of "
                                        + (run.rules or "each check's date")), soft_wrap=True)


def check_results(console: Console, results: Sequence[CheckResult]) -> None:
    """One line per check (status, id, entry), each failure indented underneath."""
    if not results:
        console.print("[dim]no checks[/]")
        return
    for r in results:
        status = check_status(r).markup
        entry = (f"  [dim]{r.entry}[/]" if r.entry
                 else "  [yellow](attached to no ruling: its quote picks none or several; not passed)[/]" if r.unattached
                 else "")
        console.print(f"{status}  {escape(r.id)}{entry}", soft_wrap=True)
        if r.rules_gap:
            console.print(Text.assemble("      ", note_line(r.rules_gap.note)), soft_wrap=True)
        if r.not_applicable:
            console.print(f"      [yellow]{escape(r.not_applicable)}[/]", soft_wrap=True, highlight=False)
        for f in r.failures:
            console.print(f"      [red]{escape(f)}[/]", soft_wrap=True, highlight=False)


def check_coverage(console: Console, coverage: CheckCoverage) -> None:
    """`kb check --missing`: the face-down ruling entries without a check, then the coverage."""
    from kb.checks import face_down_links

    for e in coverage.missing:
        # the face-down clauses that make it count (its first links may be others: 707.5 is copying today)
        clauses = ", ".join(r.clause or f"{r.at_ruling_date} then" for r in face_down_links(e))
        console.print(f"[bold]{e.id}[/]  [dim]{escape(clauses)}[/]  {escape(e.text[:100])}",
                      soft_wrap=True, highlight=False)
    covered, total = coverage.covered, coverage.total
    share = f" ({covered / total:.0%})" if total else ""
    console.print(f"face-down ruling entries with a check: {covered} of {total}{share}; "
                  f"{len(coverage.missing)} without")


# --- kb search ----------------------------------------------------------------------------------

def rule_read(console: Console, said: str) -> None:
    """`kb search --rule`: the line saying the number was read as the rule it numbered in older CRs."""
    console.print(note_line(said))


def also_said(folded: Sequence[AlsoSaid]) -> str:
    """The line naming the same ruling's wordings for other face-down mechanics folded under a hit:
    "also for manifest: r-3190e0d0df; manifest dread, disguise: r-76566771f5"."""
    parts = [f"{', '.join(a.mechanics) or 'other cards'}: {a.entry.id}" for a in folded]
    return "also for " + "; ".join(parts)


def hits(console: Console, found: Sequence[Hit], outdated: Mapping[tuple[str, str], tuple[str, ...]] | None = None,
         empty: str | None = None, card: str | None = None, own_pages: Mapping[str, str] | None = None,
         own_texts: Mapping[tuple[str, str], str] | None = None) -> None:
    """One block per hit: the answer-language text, the English canonical text, whose each is when only
    a judge's own page gives it (`own_pages`, entry id -> file; `own_texts`, (entry id, text) -> file), cards, dates, rules;
    a shown wording `kb outdated` lists ((entry id, text) in `outdated`, with its reasons' kinds) is
    flagged: a translation of a replaced English wording as such, any other by its reasons' kinds.
    `empty` says why nothing was found, when the caller knows; `card` (the --card filter's English
    name) leads each hit's cards."""
    if not found:
        # `empty` is a note's text, lower case after "note:"; here it is a sentence after a full stop (tryout48 D5)
        said = empty[:1].upper() + empty[1:] if empty else "Try other words or fewer filters."
        console.print(f"[yellow]No entry matches.[/] {escape(said)}")
        return
    for rank, hit in enumerate(found, start=1):
        e = hit.entry
        body = Text()
        kinds = (outdated or {}).get((e.id, hit.matched_text), ())
        listed = [k for k in kinds if k != "superseded"]
        if hit.lang is not Lang.EN:
            body.append(hit.matched_text, style="bold")
            if "superseded" in kinds:
                body.append(f"\n({OLDER_WORDING}; current text below)", style="yellow")
            if listed:
                body.append(f"\n({listed_outdated(listed)})", style="yellow")
            if e.text != hit.matched_text:  # a ruling with no English wording is its own canonical text
                body.append("\n\n")
                body.append(e.text)
        else:
            body.append(e.text, style="bold")
            if kinds:  # the current English wording itself: an obsolete term, an old rule number
                body.append(f"\n({listed_outdated(kinds)})", style="yellow")
        meta = Text()
        if own_page := (own_pages or {}).get(e.id):
            meta.append(f"\n{own_mark(own_page, e.text, e.cards)}", style="bold yellow")
        if (translated := (own_texts or {}).get((e.id, hit.matched_text))) and hit.matched_text != e.text:
            # a judge's own translation of the ruling, official or not in English (tryout44 L2)
            meta.append(f"\n{hit.lang.value} text: your page {translated}, not official", style="bold yellow")
        if e.clause:  # a CR clause: its number, not "cards: —" and a link to itself
            label = e.clause.replace("glossary:", "glossary, ")
            meta.append(f"\nCR {label}   dates: {dates(e)}", style="dim")
        else:
            meta.append(f"\ncards: {cards(e, 5, first=card)}   dates: {dates(e)}", style="dim")
        others = [r for r in e.rules if r.clause != e.clause]
        if others:
            top = sorted(others, key=lambda r: -r.score)[:3]
            meta.append("\nrules: " + ", ".join(f"CR {r.clause}" for r in top), style="dim")
        if hit.also:
            meta.append(f"\n{also_said(hit.also)}")
        langs = sorted({v.lang.value for v in e.variants}) or ["en"]  # a CR clause has no variants
        title = Text.assemble((f"{rank}.", "bold"), " ", (e.id, "cyan"))
        subtitle = f"{e.kind.value} · shown in {hit.lang.value} · texts in {'/'.join(langs)} · score {hit.score:.3f}"
        console.print(Panel(body + meta, title=title, subtitle=subtitle,
                            title_align="left", subtitle_align="right"))  # fmt: skip


# --- kb card ------------------------------------------------------------------------------------

def _card_body(oc: OracleCard) -> str:
    """A card's Oracle text, and its power/toughness where it has one."""
    return oc.text + (f"\n{oc.power}/{oc.toughness}" if oc.power is not None else "")


def card(console: Console, view: CardView) -> None:
    """A card's name, cost, type, its names by language, Oracle text (each half's, for a two-part
    card), then its KB entries with dates."""
    oc = view.card.oracle
    head = Text(view.card.name, style="bold")
    if view.card.halves:
        head.append(f"   (with {', '.join(h.name for h in view.card.halves[1:])})" if len(view.card.halves) > 1
                    and view.card.name == view.card.halves[0].name else "", style="dim")
    elif oc is not None:
        head.append(f"   {oc.mana_cost or ''}", style="cyan")
        head.append(f"\n{oc.type}", style="dim")
    console.print(head)
    # a name no card data gives (a judge's page titled it so) is in no language the KB can tell
    names = view.names if view.card.names else {"name as written": view.card.name}
    console.print(" · ".join(f"{k}: {v}" for k, v in names.items()), style="dim")
    if view.card.halves:  # a two-part card: each half's cost, type and text (Fire and Ice)
        layout = view.card.halves[0].layout
        console.print(f"[dim]{layout} card:[/]")
        for half in view.card.halves:
            console.print(Text.assemble((half.name, "bold"), (f"   {half.mana_cost or ''}", "cyan"),
                                        (f"\n{half.type}", "dim")))
            console.print(Text(_card_body(half)))
    elif oc is not None:
        console.print(Text(_card_body(oc)))
    else:
        console.print("[dim](not among the 2018 Oracle cards)[/]")
    console.print(f"\n[bold]{count(len(view.entries), 'KB entry', 'KB entries')}[/]")
    for e, card_dates in view.entries:
        console.print(Text.assemble((e.id, "cyan"), f"  {', '.join(card_dates)}  ", (view.text(e), "")))
        if own_page := view.own_page(e):  # the file of the text shown, a translation's own (tryout44 L2)
            console.print(Text(f"    {own_mark(own_page, view.text(e), (view.card.name,))}", style="yellow"))
        if view.replaced(e):
            console.print(Text(f"    {OLDER_WORDING}; current text: kb show {e.id}", style="yellow"))
        if view.newer(e):
            console.print(Text(f"    reworded since on other cards' pages: kb show {e.id}", style="dim"))


# --- kb outdated --------------------------------------------------------------------------------

SUMMARY_ROWS = 25  # rows of each summary table in the text output


def nothing_listed(levels: Collection[str]) -> str:
    """What an empty `kb outdated` report says, naming the list that was asked for."""
    if set(levels) == {"review"}:
        return "no wordings to review"
    return "no outdated or review wordings" if "review" in levels else "no outdated wordings"


def outdated_summary(console: Console, data: dict[str, Any], levels: Collection[str] = ("outdated",)) -> None:
    """Counts of wordings by level, reason and card: the most affected first."""
    if not data["wordings"]:  # three empty tables say less than one line
        console.print(nothing_listed(levels))
        return
    console.print(f"[bold]{data['wordings']}[/] {'wording' if data['wordings'] == 1 else 'wordings'} "
                  f"({count(data['variants'], 'source copy', 'source copies')})")
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


def outdated(console: Console, wordings: Sequence[OutdatedWording], levels: Collection[str] = ("outdated",),
             entry_texts: Mapping[str, str] | None = None) -> None:
    """Each outdated wording: its reasons with word diffs, the entry's own text where other cards'
    pages reworded it since the wording that replaces this one, and where it appears."""
    if not wordings:
        console.print(nothing_listed(levels))
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
        if w.suggested:  # once for every reason's replacement (tryout30: five reasons each repeated it)
            from kb import normalize

            console.print(Text("  suggested: ", style="bold") + diff_text(normalize.word_diff(w.text, w.suggested)))
        newest = (entry_texts or {}).get(w.entry)
        if newest is not None and newest not in (w.current_text, w.text):
            # as a diff from this wording too: the newest may undo a change the replacing wording made (tryout47
            # D10: 2018 dropped "copy effects or", the newest says it again; the first diff alone read as "gone")
            from kb import normalize

            console.print(Text("  reworded again since on other cards' pages, from this wording: ", style="yellow")
                          + diff_text(normalize.word_diff(w.text, newest)))
        shown = ", ".join(w.cards[:6]) + (f" and {len(w.cards) - 6} more" if len(w.cards) > 6 else "")
        first = w.items[0].variant
        where = f"{first.source.removeprefix('corpus/')}:{first.line}"
        more = f" and {count(len(w.items) - 1, 'more copy', 'more copies')}" if len(w.items) > 1 else ""
        console.print(Text(f"  appears: {shown or 'no card'}; {where}{more}", style="dim"))
        console.print()
    console.print(f"[dim]{count(len(wordings), 'wording')} "
                  f"({count(sum(len(w.items) for w in wordings), 'source copy', 'source copies')})[/]")


# --- kb coverage --------------------------------------------------------------------------------



COVERAGE_ROWS = 15  # English rulings without a translation listed per language (all in --json)


def translation_coverage(console: Console, report: dict[str, Any]) -> None:
    """Per language: how many English rulings have a text in it, and its rulings without English."""
    for code, part in report["languages"].items():
        language = LANGUAGE_NAMES.get(code, code)
        console.print(f"[bold]{code}[/]: {part['translated']} of {report['english_entries']} English ruling entries "
                      f"have a {language} text; {len(part['untranslated'])} lack one; "
                      f"{count(len(part['without_english']), f'{language} ruling has', f'{language} rulings have')} "
                      "no English counterpart")
        if part["untranslated"]:  # those on most cards' pages first: the translations most asked for
            table = Table(box=None, pad_edge=False, title=f"English rulings without a {language} text, on most "
                          "cards first", title_justify="left")
            table.add_column("id", no_wrap=True)
            table.add_column("cards", justify="right")
            table.add_column("text")
            ranked = sorted(part["untranslated"], key=lambda row: (-len(row["cards"]), row["id"]))
            for row in ranked[:COVERAGE_ROWS]:
                table.add_row(row["id"], str(len(row["cards"])), clip(row["text"], 100))
            console.print(table)
            if len(ranked) > COVERAGE_ROWS:
                console.print(f"[dim]… and {len(ranked) - COVERAGE_ROWS} more; --json lists them all[/]")
        if part["without_english"]:
            table = Table(box=None, pad_edge=False, title=f"{code} rulings without English", title_justify="left")
            table.add_column("id", no_wrap=True)
            table.add_column("cards")
            table.add_column("text")
            for row in part["without_english"]:
                table.add_row(row["id"], ", ".join(row["cards"][:4]), clip(row["text"], 100))
                near = row.get("nearest_english")
                if near:  # why it joined no English entry
                    table.add_row("", "", f"[dim]nearest English ruling of its card: {near['id']} "
                                          f"({escape(clip(near['text'], 60))}); not joined: {escape('; '.join(near['reasons']))}[/]")
                elif "nearest_english" in row:
                    table.add_row("", "", "[dim]no English ruling of its card in the KB to compare with[/]")
            console.print(table)


# --- notes and progress (stderr) ----------------------------------------------------------------

def note_line(text: str) -> Text:
    """A note as every command shows one (tryout46 D11): "note:" in yellow, then the text, which starts
    in lower case unless its first word is a name, a number or an option (tests/test_cli_tryout46_ux.py
    scans the sources for the note texts)."""
    return Text.assemble(("note:", "yellow"), " ", text)


def note(err_console: Console, text: str) -> None:
    err_console.print(note_line(text), soft_wrap=True)


def first_use(err_console: Console, home: Path) -> None:
    err_console.print(f"[dim]First use: building the KB from the bundled corpus into {escape(str(home))} …[/]")


@contextlib.contextmanager
def progress_bar(err_console: Console, quiet: bool = False) -> Iterator[OnProgress]:
    """A rich progress bar on `err_console` fed by the library's (stage, done, total) callbacks; it
    appears with the first callback, so opening a KB that needs no build draws nothing. Without a
    terminal (and without KB_PROGRESS), a few lines per stage instead."""
    if quiet or not err_console.is_terminal and not os.environ.get("KB_PROGRESS"):
        yield _plain_progress(err_console, quiet)
        return
    from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

    with contextlib.ExitStack() as stack:
        bar: tuple[Progress, TaskID, Sequence[str]] | None = None

        def on_progress(stage: str, done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                from kb.build import STAGES  # only now: the build module takes a moment to import
                from kb.forked import fork_safe

                before = set(threading.enumerate())
                progress = stack.enter_context(Progress(
                    TextColumn("{task.description:<36}"), BarColumn(),
                    TextColumn("stage {task.fields[step]}/{task.total:.0f}"),
                    TimeElapsedColumn(), console=err_console, transient=False))
                for thread in set(threading.enumerate()) - before:  # the bar's refresh: the build may still fork
                    fork_safe(thread)
                bar = progress, progress.add_task("parse", total=len(STAGES), step=1), STAGES
            progress, task, stages = bar
            index = stages.index(stage) if stage in stages else 0
            fraction = done / total if total else 0
            progress.update(task, description=_stage_label(stage, done, total), step=index + 1,
                            completed=index + min(fraction, 1.0))

        yield on_progress
        if bar is not None:
            bar[0].update(bar[1], description="done", step=len(bar[2]), completed=len(bar[2]))


def _stage_label(stage: str, done: int, total: int) -> str:
    """A stage's name, and how far it has got when it counts something ("index 1,200/5,388 texts
    embedded"; `kb.build.STAGE_COUNTS` says what each stage counts)."""
    return _count_label(stage, done, total) if total > 1 and 0 < done < total else stage


def _count_label(stage: str, done: int, total: int) -> str:
    from kb.build import STAGE_COUNTS  # a build is running: the module is imported

    return f"{stage} {done:,}/{total:,} {STAGE_COUNTS.get(stage, '')}".rstrip()


PLAIN_EVERY = 15.0  # seconds between two lines of one stage's progress without a terminal


def _plain_progress(err_console: Console, quiet: bool, every: float = PLAIN_EVERY,
                    clock: Callable[[], float] | None = None) -> OnProgress:
    """Without a terminal: a line when a stage starts, one every `every` seconds while a long stage
    counts (a first build embeds for minutes), with the time left at its pace so far, and one when
    its count reaches its total; so a log shows where a build is, in a few dozen lines."""
    import time

    now_is = clock or time.monotonic
    started: dict[str, float] = {}  # stage -> when it started
    last: dict[str, float] = {}  # stage -> when it last printed
    finished: set[str] = set()

    def on_progress(stage: str, done: int, total: int) -> None:
        if quiet:
            return
        now = now_is()
        if stage not in started:
            started[stage] = last[stage] = now
            err_console.print(f"[dim]… {escape(stage)}[/]")
        if total <= 1 or done <= 0 or stage in finished:
            return
        if done >= total:
            finished.add(stage)
            err_console.print(f"[dim]… {escape(_count_label(stage, total, total))}[/]")
        elif now - last[stage] >= every:
            last[stage] = now
            left = (now - started[stage]) * (total - done) / done
            err_console.print(f"[dim]… {escape(_count_label(stage, done, total))}, about {duration(left)} left[/]")

    return on_progress


def duration(seconds: float) -> str:
    """A span as a judge reads it: "42 s", "7 min 12 s", "1 h 3 min"."""
    whole = max(0, round(seconds))
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


def built(err_console: Console, kb: KB, seconds: float) -> None:
    """The line that closes a build made by opening the KB (first use, a rebuild): what it holds and
    how long it took, on stderr like the progress, so the answer on stdout stays clean."""
    report = kb.report
    err_console.print(f"[dim]KB built: {report.get('entries', 0):,} entries ({report.get('rulings', 0):,} rulings, "
                      f"the others CR clauses and glossary entries) in {duration(seconds)}, in {escape(str(kb.home))}; "
                      "later commands open it at once[/]", soft_wrap=True)
