"""`kb card NAME`: a card's Oracle text, its English/German/Spanish names and its rulings in the KB."""

from __future__ import annotations

from typing import Annotated

import typer


def card(
    name: Annotated[str, typer.Argument(help="Card name in English, German or Spanish (small typos are forgiven).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Show a card: Oracle text, type and mana cost, its names in en/de/es, and its rulings in the KB."""
    from cli import render
    from rich.text import Text

    from cli.common import console, data_home, err_console, open_kb, print_json, reference
    from kb import store
    from kb.errors import NotFoundError
    from kb.views import CardInfo, card_view, find_card

    try:
        found = find_card(name, reference())  # an unknown name is refused before any KB is built
    except NotFoundError:
        # a card newer than the bundled card data is known to a KB built from a page of it (`kb list
        # --card` finds it there): look it up in a KB that exists, without building one
        english = open_kb(quiet=as_json).card(name) if store.exists(data_home()) else None
        if english is None:
            raise
        found = CardInfo(english, None, {})
    if found.guessed:  # say so: a judge who typed a name must see it was read as another
        err_console.print(Text(f"note: no card is named {name!r}; showing the closest, {found.name}"))
    view = card_view(found, open_kb(quiet=as_json))
    if as_json:
        print_json(view.to_json())
    else:
        render.card(console, view)
