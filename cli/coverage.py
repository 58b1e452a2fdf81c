"""`kb coverage`: which rulings lack a German or Spanish text, and which foreign rulings lack English."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.table import Table

from cli.common import console, errors, open_kb, parse_lang, print_json
from cli.render import clip


def coverage(
    lang: Annotated[Optional[str], typer.Option(help="Only this language (de or es); both by default.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Translation coverage both ways: English rulings without a German/Spanish text, and German/Spanish
    rulings that no English entry holds."""
    from kb.dedup import translation_coverage
    from kb.errors import InputError
    from kb.model import Lang

    with errors():
        chosen = parse_lang(lang)
        if chosen is Lang.EN:
            raise InputError("--lang takes de or es: coverage is of translations of the English rulings")
        kb = open_kb(quiet=as_json)
        report = translation_coverage(kb.entries, (chosen,) if chosen else (Lang.DE, Lang.ES))
    if as_json:
        print_json(report)
        return
    for code, part in report["languages"].items():
        console.print(f"[bold]{code}[/]: {part['translated']} of {report['english_entries']} English ruling entries "
                      f"have a {code} text; {len(part['untranslated'])} lack one; "
                      f"{len(part['without_english'])} {code} rulings have no English counterpart")
        if part["without_english"]:
            table = Table(box=None, pad_edge=False, title=f"{code} rulings without English", title_justify="left")
            table.add_column("id", no_wrap=True)
            table.add_column("cards")
            table.add_column("text")
            for row in part["without_english"]:
                table.add_row(row["id"], ", ".join(row["cards"][:4]), clip(row["text"], 100))
            console.print(table)
