"""`kb card NAME`: a card's Oracle text, its English/German/Spanish names and its rulings in the KB."""

from __future__ import annotations

from typing import Annotated, Optional

import typer


def card(
    name: Annotated[str, typer.Argument(help="Card name in English, German or Spanish (small typos are forgiven).")],
    lang: Annotated[Optional[str], typer.Option(help="Show the rulings in this language where the KB has it (en, de, es).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Show a card: Oracle text, type and mana cost, its names in en/de/es, and its rulings in the KB."""
    from cli import render

    from cli.common import command_note, console, data_home, open_kb, parse_lang, print_json, reference
    from kb import store
    from kb.views import card_view, find_card, no_text_note

    language = parse_lang(lang)

    # an unknown name is refused before any KB is built; a KB that exists knows the cards the judge's
    # own pages brought (newer than the bundled card data: `kb list --card` finds them there)
    kb = open_kb(quiet=as_json) if store.exists(data_home()) else None
    found = find_card(name, reference(), kb)
    command_note(found.closest_note(name), quiet=as_json)  # a judge who typed a name must see it was read as another
    kb = kb if kb is not None else open_kb(quiet=as_json)
    view = card_view(found, kb, language)
    if view.entries:  # no rulings to show in any language: nothing is shown in English instead (tryout49 D8)
        command_note(no_text_note(kb, language, filters=False), quiet=as_json)
    if as_json:
        print_json(view.to_json())
    else:
        render.card(console, view)
