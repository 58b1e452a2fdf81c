"""`kb search`: a judge's question in English, German or Spanish → the rulings that answer it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional, Sequence

import typer


if TYPE_CHECKING:
    from rich.console import Console

    from kb.search import Hit


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


def _superseded_texts(kb, ids: Sequence[str]) -> set[tuple[str, str]]:
    """(entry id, text) of the hits' variants `kb outdated` calls superseded, to flag them."""
    return {(row["entry"], row["variant"]["text"]) for entry_id in dict.fromkeys(ids)
            for row in kb.outdated_rows(entry_id)
            if any(r.get("kind") == "superseded" for r in row.get("reasons", []))}


def run(question: str, *, limit: int = 5, quiet: bool = False, **filters: Optional[str]):
    """Open the current KB and its index and search it. Returns (hits, kb)."""
    from cli.common import err_console, open_kb, rebuild
    from rich.text import Text

    from kb.errors import StoreError
    from kb.search import Searcher

    filters = validate_filters(filters)
    kb = open_kb(quiet=quiet)
    try:  # no entry is decoded but the hits (Searcher.for_kb)
        searcher = Searcher.for_kb(kb)
    except StoreError as e:  # stale (another version wrote it) or damaged: rebuild once, then search
        err_console.print(Text.assemble(("note:", "yellow"), f" {e}; rebuilding now"))
        kb = rebuild(quiet=quiet)
        searcher = Searcher.for_kb(kb)
    return searcher.search(question, limit=limit, **filters), kb


def validate_filters(filters: dict[str, Optional[str]]) -> dict[str, Optional[str]]:
    """The filters in canonical form, or InputError naming the bad one (before any KB is opened)."""
    from cli.common import card_name, parse_lang
    from kb.errors import InputError
    from kb.model import Kind
    from kb.normalize import clause_number, date_option

    out = dict(filters)
    if out.get("lang") is not None:
        out["lang"] = parse_lang(out["lang"]).value  # type: ignore[union-attr]
    if out.get("kind") is not None:
        try:
            out["kind"] = Kind(out["kind"].strip().lower()).value  # type: ignore[union-attr]
        except ValueError:
            raise InputError(f"unknown kind {out['kind']!r}; use ruling or rule") from None
    if out.get("card") is not None:
        out["card"] = card_name(out["card"])  # type: ignore[arg-type]
    if out.get("rule") is not None:
        out["rule"] = clause_number(out["rule"], "--rule")  # type: ignore[arg-type]
    for option in ("since", "until"):
        if out.get(option) is not None:
            out[option] = date_option(out[option], f"--{option}", partial=True)  # type: ignore[arg-type]
    return out


def render_hits(console: "Console", question: str, hits: Sequence["Hit"],
                superseded: set[tuple[str, str]] = frozenset()) -> None:  # type: ignore[assignment]
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
        langs = sorted({v.lang.value for v in e.variants} | {"en"})
        title = Text.assemble((f"{rank}.", "bold"), " ", (e.id, "cyan"))
        subtitle = f"{e.kind.value} · {hit.lang.value} · {'/'.join(langs)} · score {hit.score:.3f}"
        console.print(Panel(body + meta, title=title, subtitle=subtitle,
                            title_align="left", subtitle_align="right"))  # fmt: skip
