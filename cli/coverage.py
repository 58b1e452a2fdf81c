"""`kb coverage`: which rulings lack a German or Spanish text, and which foreign rulings lack English."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from cli.common import console, open_kb, parse_lang, print_json


def coverage(
    lang: Annotated[Optional[str], typer.Option(help="Only this language (de or es); both by default.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
) -> None:
    """Translation coverage both ways: English rulings without a German/Spanish text, and German/Spanish
    rulings that no English entry holds."""
    from cli import render
    from kb.build import embedder_from_env
    from kb.corpus import Corpus
    from kb.ingest.dedup import translation_coverage
    from kb.ingest.translations import explainer
    from kb.errors import InputError
    from kb.model import Lang

    chosen = parse_lang(lang)
    if chosen is Lang.EN:
        raise InputError("--lang takes de or es: coverage is of translations of the English rulings")
    kb = open_kb(quiet=as_json)
    langs = (chosen,) if chosen else (Lang.DE, Lang.ES)
    report = translation_coverage(kb.entries, langs, explainer(kb, Corpus.default(), embedder_from_env()))
    if as_json:
        print_json(report)
    else:
        render.translation_coverage(console, report)
