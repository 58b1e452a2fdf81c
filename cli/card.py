"""`kb card NAME`: a card's Oracle text, its English/German/Spanish names and its rulings in the KB."""

from __future__ import annotations

from typing import Annotated, Any

import typer


def card(
    name: Annotated[str, typer.Argument(help="Card name in English, German or Spanish (small typos are forgiven).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Show a card: Oracle text, type and mana cost, its names in en/de/es, and its rulings in the KB."""
    from cli.common import console, errors, open_kb, print_json
    from cli.common import reference
    from kb.errors import NotFoundError
    from kb.model import Entry, Kind, Lang
    from kb.oracle import load_oracle
    from kb.search.cardnames import CardMatcher

    with errors():
        oracle = reference().oracle
        kb_names = reference().names
        english = None
        found = oracle.get(name)
        if found is not None:
            english = found.name
        if english is None:
            english = kb_names.resolve(name)
        if english is None:
            matcher = CardMatcher.from_names(list(oracle.names()) + [
                (local, en) for en, by_lang in kb_names.names.items() for local in by_lang.values()])
            english = matcher.closest(name)
        if english is None:
            raise NotFoundError(f"unknown card {name!r} (English, German or Spanish names are known)")
        oc = oracle.get(english)
        names = dict(kb_names.names.get(english, {}))
        if oc is not None:
            names = {**oc.names, **names}
        kb = open_kb(quiet=as_json)
        entries = kb.select(card=english)  # its rows only, not every entry of the KB

    def card_dates(e: Entry) -> list[str]:
        """The dates this card's own copies of the ruling carry (a shared ruling's first date may be
        another card's); the entry's dates when none of its copies names the card."""
        mine = sorted({v.date for v in e.variants if v.card == english and v.date})
        return mine or [d for d in (e.first_date,) if d]

    entries.sort(key=lambda e: (e.kind is not Kind.RULING, (card_dates(e) or [""])[0], e.id))
    shown_names = {lang.value: n for lang, n in sorted(names.items())} or {"en": english}
    data: dict[str, Any] = {
        "name": english,
        "names": shown_names,
        "oracle": oc.to_json() if oc else None,
        "entries": [{"id": e.id, "kind": e.kind.value, "text": e.text, "first_date": e.first_date,
                     "card_dates": card_dates(e),
                     "langs": sorted({v.lang.value for v in e.variants}) or [Lang.EN.value]} for e in entries],
    }
    if as_json:
        print_json(data)
        return
    from rich.text import Text

    head = Text(english, style="bold")
    if oc is not None:
        head.append(f"   {oc.mana_cost or ''}", style="cyan")
        head.append(f"\n{oc.type}", style="dim")
    console.print(head)
    console.print(" · ".join(f"{k}: {v}" for k, v in shown_names.items()), style="dim")
    if oc is not None:
        body = oc.text
        if oc.power is not None:
            body += f"\n{oc.power}/{oc.toughness}"
        console.print(Text(body))
    else:
        console.print("[dim](not among the 2018 Oracle cards)[/]")
    console.print(f"\n[bold]{len(entries)} KB entries[/]")
    for e in entries:
        console.print(Text.assemble((e.id, "cyan"), f"  {', '.join(card_dates(e))}  ", (e.text, "")))
