"""`kb search`: a judge's question in English, German or Spanish → the rulings that answer it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:
    from kb.model import Lang
    from kb.search import Filters


def search(
    question: Annotated[list[str], typer.Argument(
        help="The question, in your own words (en, de or es); quotes optional: the words are read as one question.",
        show_default=False)],
    limit: Annotated[int, typer.Option("-k", "--limit", min=1, help="How many hits to show.")] = 5,
    card: Annotated[
        Optional[str], typer.Option("--card", help="Only entries for this card (any language).")
    ] = None,
    lang: Annotated[
        Optional[str],
        typer.Option("--lang", help="Only entries with text in en, de or es, shown in it (a question in any "
                                    "language is already answered in its language where a translation exists)."),
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
    from cli.common import numpy_without_blas_threads

    numpy_without_blas_threads()
    from kb.search.index import gc_paused

    # One question, then the process ends: what it reads (the card names, the glossary, the index)
    # lives to the end, so the collector's passes over it find nothing (~15 ms of a cold search)
    with gc_paused():  # a question typed without quotes comes as words: one question (tryout32 #10)
        answer(" ".join(question), limit=limit, card=card, lang=lang, rule=rule, since=since, until=until, kind=kind,
               as_json=as_json)


def answer(question: str, *, limit: int, card: Optional[str], lang: Optional[str], rule: Optional[str],
           since: Optional[str], until: Optional[str], kind: Optional[str], as_json: bool) -> None:
    """`kb search`'s work: the hits for `question` printed (as `search` describes)."""
    from dataclasses import replace

    from cli import render
    from cli.common import card_option, command_note, console, data_home, open_kb, open_searcher, print_json, reference
    from kb import store
    from kb.model import source_fields
    from kb.search.rule_meaning import search_rule_meanings
    from kb.views import no_text_note, question_card_notes, remarks_last

    # a card only the judge's own pages name is known to the KB, not to the bundled names: looked up
    # in the KB (every other filter is still refused before any KB is opened or built)
    mine = card is not None and reference().names.resolve(card) is None and store.exists(data_home())
    filters = validate_filters(card=None if mine else card, lang=lang, rule=rule, since=since, until=until, kind=kind,
                               quiet=as_json)
    refuse_a_bare_rule_number(question)
    if mine and card is not None:  # before the search index is opened: an unknown card is refused first
        filters = replace(filters, card=card_option(card, open_kb(quiet=as_json), quiet=as_json))
    kb, searcher = open_searcher(quiet=as_json)
    # --rule 707.5 may mean the rule it numbered in older CRs: the meaning whose rulings answer best (tryout31 #8)
    read = search_rule_meanings(searcher, reference().rules if filters.rule is not None else None, question,
                                limit=limit, filters=filters)  # the CRs only for --rule: a cold search reads none
    if filters.rule is not None and read.former is None:
        note_an_older_meaning(filters.rule, quiet=as_json)
    if filters.since and filters.until and filters.since > filters.until and not filters.since.startswith(filters.until):
        note_swapped_dates(filters.since, filters.until, quiet=as_json)
    hits = read.hits
    named = searcher.named_cards(question)
    for card_read in named:
        if card_read.distance:
            also = f" (as close: {', '.join(card_read.also)})" if card_read.also else ""
            command_note(f"no card is named {card_read.said!r}; read as the closest, {card_read.name}{also}",
                         quiet=as_json)
    for written, term in searcher.respelt(question)[1] if searcher.weights.respell else ():
        command_note(f"no rules term is spelt {written!r}; read as the closest, {term}", quiet=as_json)
    for text in question_card_notes(kb, reference(), named, searcher.unknown_cards(question),
                                    searcher.one_word_cards(question)):
        command_note(text, quiet=as_json)
    kept = kb.entries_in(filters.lang) if filters.lang is not None and filters.lang.value != "en" else 0
    nothing_in = no_text_note(kb, filters.lang)
    if as_json:  # the text output says it where "No entry matches" would leave a judge rewording
        command_note(nothing_in, quiet=True)
    if filters.lang is not None and kept:
        narrowed(filters.lang, kept, kb.stats()["entries"], quiet=as_json)
    own = kb.own_pages([h.entry.id for h in hits])  # a judge's own rulings are marked as such (tryout23)
    hits = remarks_last(hits, own)  # ... and their dated remarks shown after the other hits
    # the shown wordings `kb outdated` lists (a replaced wording's translation, an obsolete term, an old
    # rule number), marked in the hits as `kb show` and `kb rule` mark them (tryout32 #11)
    flagged = kb.outdated_texts([h.entry.id for h in hits])
    # a translation shown from a judge's own page, under an official English ruling or another page's (tryout44 L2)
    translated = kb.own_texts([(h.entry.id, h.matched_text) for h in hits if h.matched_text != h.entry.text])
    if as_json:
        command_note(read.note, quiet=True)
        print_json([h.to_json() | source_fields(own.get(h.entry.id), h.entry.text, h.entry.cards)
                    | {"outdated_reasons": list(flagged.get((h.entry.id, h.matched_text), ())),
                       "shown_own_page": translated.get((h.entry.id, h.matched_text)) if h.matched_text != h.entry.text
                       else own.get(h.entry.id)}
                    for h in hits])
    else:
        if read.note:  # on stdout, above the hits it explains: they are another clause's than the one typed
            render.rule_read(console, read.note)
        empty = None
        if not hits and nothing_in:
            empty = (f"{nothing_in}. Search without --lang: every ruling is found from a question in any "
                     f"language, and shown in yours where a translation exists.")
        elif not hits and filters.card is not None and not kb.count(card=filters.card):
            # --card naming a card with no entry: said as the question's own card notes say it (tryout54 D5)
            said = f" ({card})" if card is not None and card.casefold() != filters.card.casefold() else ""
            empty = (f"{filters.card}{said} has no ruling in the KB: search without --card, or `kb card "
                     f"\"{filters.card}\"` shows its text.")
        render.hits(console, hits, outdated=flagged, empty=empty, card=filters.card, own_pages=own, own_texts=translated)


def narrowed(lang: Lang, kept: int, total: int, *, quiet: bool = False) -> None:
    """`--lang de` searches only the entries with German text, often a few: a judge who read it as
    "answer in German" gets unrelated rulings (tryout17). Say how few, and what answers in German."""
    from cli.common import keep_notes, note

    text = (f"--lang {lang.value} searches only entries with {lang.value} text ({kept:,} of the KB's {total:,}); "
            f"without --lang every entry is searched, and shown in {lang.value} where it has {lang.value} text")
    if not quiet:
        note(text)
    keep_notes([text])


def note_swapped_dates(since: str, until: str, *, quiet: bool = False) -> None:
    """`--since 2024 --until 2019` is a real filter (rulings given by 2019 and again from 2024 on),
    but far more often two dates typed the wrong way round (tryout18): say what it keeps."""
    from cli.common import keep_notes, note

    text = (f"--since {since} is later than --until {until}: only entries first dated by {until} that have a "
            f"copy dated {since} or later are kept (swap the two dates for the entries in between)")
    if not quiet:
        note(text)
    keep_notes([text])


def note_an_older_meaning(number: str, *, quiet: bool = False) -> None:
    """`--rule 707.2` filters by today's 707.2 (copying); a judge reading a 2018 ruling that cites
    707.2 means the face-down rule, today's 708.2: say so, as `kb rule 707.2` does (with `quiet`,
    only in the --json output's notes)."""
    from cli.common import keep_notes, note, reference

    for former in reference().rules.other_rules(number):
        then = f": search with --rule {former.now} for its rulings" if former.now else ""
        text = f"--rule {number} is today's {number}; in {former.span}, {number} was {former.what}{then}"
        if not quiet:
            note(text)
        keep_notes([text])


def refuse_a_bare_rule_number(question: str) -> None:
    """A question that is only a rule number ("708.8") has no words to search by (its hits would
    share a digit with it at best): say which commands take a rule number."""
    from kb.errors import InputError
    from kb.normalize import clause_number

    try:
        number = clause_number(question)
    except InputError:
        return
    raise InputError(f"{question.strip()!r} is a rule number, not a question: `kb rule {number}` shows the clause "
                     f"and the rulings linked to it; `kb search QUESTION --rule {number}` searches those rulings")


def validate_filters(*, card: Optional[str] = None, lang: Optional[str] = None, rule: Optional[str] = None,
                     since: Optional[str] = None, until: Optional[str] = None,
                     kind: Optional[str] = None, quiet: bool = False) -> Filters:
    """The filters in canonical form, or InputError naming the bad one (before any KB is opened); a
    card's name is found as `kb card` finds it (a typo noted, unless `quiet`)."""
    from cli.common import card_option, parse_kind, parse_lang, reference
    from kb.errors import InputError
    from kb.normalize import clause_number, date_option
    from kb.search import Filters

    language, kind_ = parse_lang(lang), parse_kind(kind)
    number = clause_number(rule, "--rule") if rule is not None else None
    if number is not None and number not in reference().rules.current:
        # else an unknown clause filters everything out and reads as "nothing answers the question"
        raise InputError(f"--rule: {reference().rules.missing_clause(number)}")
    return Filters(
        card=card_option(card, quiet=quiet) if card is not None else None,
        lang=language,
        rule=number,
        since=date_option(since, "--since", partial=True) if since is not None else None,
        until=date_option(until, "--until", partial=True) if until is not None else None,
        kind=kind_,
    )
