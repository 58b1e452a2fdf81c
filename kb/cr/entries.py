"""The whole current Comprehensive Rules as KB entries of kind `rule`.

Every numbered clause of the newest complete CR (with its examples) and every CR glossary entry
becomes an entry, so `kb search` can answer with a rule where no ruling says it.

Ids are stable across CR versions: a clause's id is derived from its lineage's *earliest* identity
(the version date and number it had when first seen), not from its number now or its text, so 708.2a
keeps the id it got as 707.2a in 2014, and a reworded clause keeps its id. Glossary entries are keyed
by their term. Adding an older CR to the corpus changes the earliest identity of the clauses it has,
and so may a better tracing of the history (`kb.cr.lineage`): the store keeps each clause id beside
its number (`kb.store.CLAUSE_KEY`), so an id shown before still names its clause.

A rule entry that came from a rules-search page (`Entry.clause` set by `kb.corpus.Corpus.match_clause`) is the
same clause: it is merged into the CR entry (its variants, links and checks are kept), so a clause is
one entry however it reached the KB.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Sequence

from kb.cr import RulesCorpus, depth_of, sort_key
from kb.model import Entry, Kind, RuleLink

GLOSSARY_PREFIX = "glossary:"  # Entry.clause of a CR glossary entry: "glossary:Morph"


def clause_entry_id(rules: RulesCorpus, number: str) -> str:
    """The id of current clause `number`: from the date and number it had when first seen."""
    lid = rules.lineage[(rules.current.date, number)]
    date, first_number = rules.members[lid][0]
    return _id(f"rule:cr:{date}:{first_number}")


def glossary_entry_id(term: str) -> str:
    return _id(f"rule:glossary:{term.casefold()}")


def _id(basis: str) -> str:
    return "c-" + hashlib.sha1(basis.encode("utf-8")).hexdigest()[:10]


def rule_entries(rules: RulesCorpus) -> list[Entry]:
    """One entry per numbered clause (depth >= 1: `708`, `708.2`, `708.2a`) and glossary term of the
    current CR, in document order. Entries carry no variants: the CR text is the entry's text."""
    current = rules.current
    out: list[Entry] = []
    for number in current.numbers():
        if depth_of(number) < 1:
            continue  # "7. Additional Rules": a section title
        clause = current.clauses[number]
        lid = rules.lineage[(current.date, number)]
        first_date, first_number = rules.members[lid][0]
        # like a rules-search page's entry (kb.cr.links), a clause entry links to itself
        link = RuleLink(number, 1.0, first_number, "the entry is this clause's text")
        out.append(Entry(id=clause_entry_id(rules, number), kind=Kind.RULE, text=clause.full_text,
                         cards=(), first_date=first_date, last_date=current.date, variants=(),
                         rules=(link,), clause=number))
    for term, g in sorted(current.glossary.items(), key=lambda kv: kv[0].casefold()):
        link = RuleLink(GLOSSARY_PREFIX + term, 1.0, None, "the entry is this glossary entry's text")
        out.append(Entry(id=glossary_entry_id(term), kind=Kind.RULE, text=f"{term}: {g.text}",
                         cards=(), first_date=g.version, last_date=current.date, variants=(),
                         rules=(link,), clause=GLOSSARY_PREFIX + term))
    return out


def add_rule_entries(entries: Sequence[Entry], rules: RulesCorpus) -> list[Entry]:
    """`entries` plus the whole current CR; a page's rule entry and its CR clause become one entry.

    The merged entry has the CR entry's id and current text, and keeps the page entry's variants,
    rule links, checks and dates (the page text stays as its variant).
    """
    cr = rule_entries(rules)
    by_clause = {e.clause: i for i, e in enumerate(cr)}
    out: list[Entry] = []
    for e in entries:
        i = by_clause.get(e.clause) if e.kind is Kind.RULE and e.clause else None
        if i is None:
            out.append(e)
            continue
        c = cr[i]
        dates = sorted(d for d in (e.first_date, e.last_date, c.first_date, c.last_date) if d)
        # the clause's own link carries its number at its first date (707.2a for 708.2a); the page's
        # undated copy only knew today's number (tryout18), so the CR entry's link wins for its clause
        links = c.rules + tuple(link for link in e.rules if link.clause != c.clause)
        cr[i] = replace(c, variants=c.variants + e.variants, rules=links, checks=e.checks,
                        cards=e.cards, first_date=dates[0] if dates else None,
                        last_date=dates[-1] if dates else None)
    used = {e.id for e in out}
    clash = [c.id for c in cr if c.id in used]
    if clash:  # a sha1 prefix collision with a ruling id: vanishingly rare, but never two entries one id
        raise ValueError(f"rule entry id collides with an entry: {clash[0]}")
    return out + cr


def clause_order(entry: Entry) -> tuple[int, tuple[int, int, int, str], str]:
    """Sort key that lists rule entries in CR order (glossary after the numbered rules)."""
    if entry.clause and not entry.clause.startswith(GLOSSARY_PREFIX):
        return (0, sort_key(entry.clause), "")
    return (1, (0, 0, 0, ""), (entry.clause or entry.text).casefold())
