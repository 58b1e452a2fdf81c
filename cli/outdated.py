"""`kb outdated`: wordings that no longer hold as written, one item per wording, with reasons and diffs."""

from __future__ import annotations

from typing import Annotated, Any, Optional

import typer

from cli.common import card_option, command_note, console, open_kb, parse_lang, print_json


def outdated(
    card: Annotated[Optional[str], typer.Option(
        help="Only wordings given for this card (any language), not those of other cards sharing the ruling.")] = None,
    lang: Annotated[Optional[str], typer.Option(help="Only wordings in this language (en, de, es).")] = None,
    since: Annotated[Optional[str], typer.Option(help="Only copies dated on or after this date (2018, 2018-07 or 2018-07-13).")] = None,
    kind: Annotated[Optional[str], typer.Option(
        help="Only this reason: superseded, terminology, rule-number, check-fails, rule-changed or "
             "rule-number-unchecked.")] = None,
    review: Annotated[bool, typer.Option(
        "--review", help="Show the review list instead: rulings whose rule changed in words they use.")] = False,
    show_all: Annotated[bool, typer.Option("--all", help="Show both lists: outdated and review.")] = False,
    summary: Annotated[bool, typer.Option(help="Counts of wordings per level, reason and card instead of the items.")] = False,
    fail_on: Annotated[Optional[list[str]], typer.Option(
        "--fail-on", help="Exit 1 when any listed wording has this reason (repeatable), e.g. for a rules manager's CI.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (with every source copy) instead of tables.")] = False,
) -> None:
    """Report outdated wordings: superseded, obsolete terms, failing checks (and, with --review, changed rules).

    The default list is what a judge should no longer quote. `--review` lists rulings whose rule
    was reworded after them in words they use; they probably still hold. A report: exit code 0
    unless --fail-on names a reason that occurs.
    """
    from cli import render
    from kb.errors import InputError
    from kb.model import Lang
    from kb.normalize import date_option
    from kb.outdated import Level, Reason, filter_items, group_wordings, levels_shown
    from kb.views import no_text_note

    for option, value in [*([("--kind", kind)] if kind else []), *(("--fail-on", k) for k in fail_on or [])]:
        if value not in {r.value for r in Reason}:
            raise InputError(f"{option}: unknown reason {value!r}; use "
                             + ", ".join(r.value for r in Reason))
    reason = Reason(kind) if kind else None
    fail_reasons = {Reason(k) for k in (fail_on or [])}
    if since:
        since = date_option(since, "--since", partial=True)
    levels = levels_shown(reason, review=review, both=show_all)
    kb = open_kb(quiet=as_json)
    english = card_option(card, kb, quiet=as_json) if card else None
    command_note(no_text_note(kb, parse_lang(lang)), quiet=as_json)  # else "no outdated wordings" reads as "all current"
    if Level.REVIEW in levels and (reason is None or reason.level is Level.REVIEW):
        # an empty review list must not read as "no rule changed under them"
        command_note(_before_the_oldest_cr(kb, english, parse_lang(lang), since), quiet=as_json)
    if since and (undated := kb.undated_outdated(levels, since, card=english, lang=parse_lang(lang), reason=reason)):
        command_note(f"--since {since} leaves out {undated} undated wording{'s' if undated > 1 else ''} "
                     "(no date to compare with); without --since they are listed", quiet=as_json)
    if summary:  # counted from the rows' columns: no item is decoded (fast at 100k rulings)
        data = kb.outdated_summary(levels, card=english, lang=parse_lang(lang), since=since, reason=reason)
        if as_json:
            print_json(data)
        else:
            render.outdated_summary(console, data, {level.value for level in levels})
        found = set(data["by_reason"])
    else:
        items = filter_items(kb.outdated(), card=english, lang=parse_lang(lang), since=since, reason=reason)
        # a wording is outdated when any of its (selected) copies is; review when all are review only
        wordings = [w for w in group_wordings(items) if w.level in levels]
        # the entry's own text: other cards' pages may have reworded it after the wording that replaces
        # this one on its card (tryout20: "instructs you to" for Lightform, "instructs or allows" since)
        entry_texts = kb.texts_in([w.entry for w in wordings], Lang.EN)
        if as_json:
            print_json([{**w.to_json(), "entry_text": entry_texts.get(w.entry)} for w in wordings])
        else:
            render.outdated(console, wordings, {level.value for level in levels}, entry_texts)
        found = {r.kind.value for w in wordings for r in w.reasons}
    if any(r.value in found for r in fail_reasons):
        raise typer.Exit(1)


def _before_the_oldest_cr(kb: Any, card: str | None, lang: Any, since: str | None) -> str | None:
    """A note on the wordings older than the oldest CR the KB holds (and not before `since`, the
    --since filter): what changed in the rules before it can't be seen, so the review list can't name
    them (tryout30 D6)."""
    from cli.common import reference
    from kb.cr.load import rule_dates

    oldest = rule_dates(reference().folder)[0]
    if since and since >= oldest:
        return None
    older = kb.wordings_dated_before(oldest, card=card, lang=lang, since=since)
    if not older:
        return None
    return (f"{older} ruling wording{'s are' if older > 1 else ' is'} dated before the oldest CR the KB holds "
            f"({oldest}): a rule change before it is not checked, so the review list can't name "
            f"{'them' if older > 1 else 'it'}")
