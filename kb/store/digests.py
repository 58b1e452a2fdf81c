"""Digests of entries: the keys under which a build remembers per-entry work (rule links, outdated
items) and by which the store tells which rows changed.

Each stage once serialised every entry to JSON for its own key: three passes over all entries,
~4 s of adding one page at 100k rulings. `Digests` takes an entry's content digest once per build
and the later keys are made from it and the few fields the later stages add.
"""

from __future__ import annotations

import hashlib
from typing import Any

from kb.model import Entry


def content_digest(entry: Entry) -> str:
    """SHA-1 of what `entry` says: its kind, text, cards, dates, clause and every field of every
    variant (every digit of the similarities, the original texts). Not its id, links, checks or
    link note: the stages after deduplication add those."""
    what = (entry.kind.value, entry.text, entry.cards, entry.first_date, entry.last_date, entry.clause,
            [(v.text, v.original, v.lang.value, v.date, v.source, v.line, v.relation.value, v.similarity, v.card)
             for v in entry.variants])
    return hashlib.sha1(repr(what).encode("utf-8", "surrogatepass")).hexdigest()


class Digests:
    """`content_digest` per entry, taken once per build: linking keys its memo on it, and the
    outdated finder's memo and the store's row digests on `whole`. An entry is known by its id; one
    whose content is not what the held digest was taken of (another variants tuple, text, cards,
    dates or clause) is digested again, so a stage that changes an entry can't reuse a stale key."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[tuple[Any, ...], str]] = {}
        self._whole: dict[str, tuple[tuple[Any, ...], str]] = {}

    def content(self, entry: Entry) -> str:
        fields = (entry.variants, entry.kind, entry.text, entry.cards, entry.first_date, entry.last_date,
                  entry.clause)
        held = self._held.get(entry.id)
        if held is not None and held[0] == fields:  # the same objects: compared by identity, item by item
            return held[1]
        digest = content_digest(entry)
        self._held[entry.id] = (fields, digest)
        return digest

    def know(self, entry: Entry, digest: str) -> None:
        """Take `digest` as `entry`'s content digest: deduplication's delta knows it for a kept cluster's entry
        (`kb.ingest.dedup.Clustering.known`), which says what the last build's said."""
        self._held[entry.id] = ((entry.variants, entry.kind, entry.text, entry.cards, entry.first_date,
                                 entry.last_date, entry.clause), digest)

    def whole(self, entry: Entry) -> str:
        """SHA-1 of everything `entry` holds: its content, id, links (every digit of their scores),
        checks and link note."""
        fields = (entry.rules, entry.checks, entry.link_note)
        content = self.content(entry)
        held = self._whole.get(entry.id)
        if held is not None and held[0] == (content, *fields):
            return held[1]
        links = [(r.clause, r.score, r.at_ruling_date, r.evidence) for r in entry.rules]
        parts = f"{content}\0{entry.id}\0{links!r}\0{entry.checks!r}\0{entry.link_note}"
        digest = hashlib.sha1(parts.encode("utf-8", "surrogatepass")).hexdigest()
        self._whole[entry.id] = ((content, *fields), digest)
        return digest
