"""`kb search`: a judge's question in English, German or Spanish → the rulings that answer it."""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING, Annotated, Optional, Sequence

import typer


if TYPE_CHECKING:
    from rich.console import Console

    from kb.search import Filters, Hit
    from kb.store import KB


def search(
    question: Annotated[str, typer.Argument(help="The question, in your own words (en, de or es).")],
    limit: Annotated[int, typer.Option("-k", "--limit", min=1, help="How many hits to show.")] = 5,
    card: Annotated[
        Optional[str], typer.Option("--card", help="Only entries for this card (any language).")
    ] = None,
    lang: Annotated[
        Optional[str],
        typer.Option("--lang", help="Only entries with text in en, de or es; answer in it."),
    ] = None,
    rule: Annotated[
        Optional[str], typer.Option("--rule", help="Only entries linked to this CR clause, e.g. 708.8.")
    ] = None,
    since: Annotated[
        Optional[str], typer.Option("--since", help="Only entries dated on or after (2018, 2018-07-13).")
    ] = None,
    until: Annotated[
        Optional[str], typer.Option("--until", help="Only entries first dated on or before this date.")
    ] = None,
    kind: Annotated[
        Optional[str], typer.Option("--kind", help="Only entries of this kind: ruling or rule.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the hits as JSON, best first.")
    ] = False,
) -> None:
    """Find the rulings that answer a question, shown in the question's language where the KB has it."""
    from cli.common import console, print_json

    hits, kb = run(question, limit=limit, card=card, lang=lang, rule=rule,
                         since=since, until=until, kind=kind, quiet=as_json)  # fmt: skip
    if as_json:
        print_json([h.to_json() for h in hits])
        return
    render_hits(console, question, hits, superseded=_superseded_texts(kb, [h.entry.id for h in hits]))


def _superseded_texts(kb: KB, ids: Sequence[str]) -> set[tuple[str, str]]:
    """(entry id, text) of the hits' variants `kb outdated` calls superseded, to flag them."""
    return {(row["entry"], row["variant"]["text"]) for entry_id in dict.fromkeys(ids)
            for row in kb.outdated_rows(entry_id)
            if any(r.get("kind") == "superseded" for r in row.get("reasons", []))}


def run(question: str, *, limit: int = 5, quiet: bool = False, **filters: Optional[str]) -> tuple[list[Hit], KB]:
    """Open the current KB and its index and search it. Returns (hits, kb)."""
    from cli.common import err_console, open_kb, rebuild, reference
    from rich.text import Text

    from kb.errors import StoreError
    from kb.search import Searcher

    valid = validate_filters(**filters)
    kb = open_kb(quiet=quiet)
    try:  # no entry is decoded but the hits (Searcher.for_kb)
        searcher = Searcher.for_kb(kb, reference=reference())
    except StoreError as e:  # stale (another version wrote it) or damaged: rebuild once, then search
        err_console.print(Text.assemble(("note:", "yellow"), f" {e}; rebuilding now"))
        kb = rebuild(quiet=quiet)
        searcher = Searcher.for_kb(kb, reference=reference())
    return searcher.search(question, limit=limit, filters=valid), kb


def validate_filters(*, card: Optional[str] = None, lang: Optional[str] = None, rule: Optional[str] = None,
                     since: Optional[str] = None, until: Optional[str] = None,
                     kind: Optional[str] = None) -> Filters:
    """The filters in canonical form, or InputError naming the bad one (before any KB is opened)."""
    from cli.common import card_name, parse_lang
    from kb.errors import InputError
    from kb.model import Kind
    from kb.normalize import clause_number, date_option
    from kb.search import Filters

    language = parse_lang(lang)
    try:
        kind_ = Kind(kind.strip().lower()) if kind is not None else None
    except ValueError:
        raise InputError(f"unknown kind {kind!r}; use ruling or rule") from None
    return Filters(
        card=card_name(card) if card is not None else None,
        lang=language,
        rule=clause_number(rule, "--rule") if rule is not None else None,
        since=date_option(since, "--since", partial=True) if since is not None else None,
        until=date_option(until, "--until", partial=True) if until is not None else None,
        kind=kind_,
    )


def render_hits(console: "Console", question: str, hits: Sequence["Hit"],
                superseded: Set[tuple[str, str]] = frozenset()) -> None:
    """One block per hit: the answer-language text, the English canonical text, cards, dates, rules."""
    from rich.panel import Panel
    from rich.text import Text

    from cli.render import cards, dates
    from kb.model import Lang

    if not hits:
        console.print("[yellow]No entry matches.[/] Try other words or fewer filters.")
        return
    for rank, hit in enumerate(hits, start=1):
        e = hit.entry
        body = Text()
        if hit.lang is not Lang.EN:
            body.append(hit.matched_text, style="bold")
            if (e.id, hit.matched_text) in superseded:
                body.append("\n(translates an older English wording, replaced since; current text below)",
                            style="yellow")
            if e.text != hit.matched_text:  # a ruling with no English wording is its own canonical text
                body.append("\n\n")
                body.append(e.text)
        else:
            body.append(e.text, style="bold")
        meta = Text()
        meta.append(f"\ncards: {cards(e, 5)}   dates: {dates(e)}", style="dim")
        if e.rules:
            top = sorted(e.rules, key=lambda r: -r.score)[:3]
            meta.append("\nrules: " + ", ".join(f"CR {r.clause}" for r in top), style="dim")
        if e.clause:
            label = e.clause.replace("glossary:", "glossary, ")
            meta.append(f"\nCR {label}", style="dim")
        langs = sorted({v.lang.value for v in e.variants}) or ["en"]  # a CR clause has no variants
        title = Text.assemble((f"{rank}.", "bold"), " ", (e.id, "cyan"))
        subtitle = f"{e.kind.value} · {hit.lang.value} · {'/'.join(langs)} · score {hit.score:.3f}"
        console.print(Panel(body + meta, title=title, subtitle=subtitle,
                            title_align="left", subtitle_align="right"))  # fmt: skip
