"""Entry ids that stay put: derived from one anchor wording chosen so that new data rarely moves it.

A ruling entry's id is a hash of its *anchor*: among its wordings, a bundled one before a judge's
own, English before German or Spanish, the oldest date, then the wording itself. The bundled corpus
is always read, so ingesting more never moves a bundled entry's anchor, and the ids depend only on
the bundled corpus plus the library, never on the order of the ingest calls. When an anchor does
move (two entries merged, a source removed), the store's id history follows the old anchor wording
to the entry holding it, else to its edit in its own file, else to the entry that holds most of the
other wordings the old id held (`kb.store.KB.resolve`).

Rule entries (`kind: rule`) keep the ids their builder gave them (derived from the CR clause).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Callable, Sequence

from kb.model import Entry, Kind, Lang, Variant
from kb.normalize import exact_key, match_key


def wording_key(kind: Kind, text: str) -> str:
    """The key under which two wordings are the very same text (what id history follows)."""
    return f"{kind.value}:{match_key(text)}"


def _anchor_order(v: Variant, is_bundled: Callable[[str], bool]) -> tuple[bool, bool, str, str]:
    return (not is_bundled(v.source), v.lang is not Lang.EN, v.date or "9999-99-99", match_key(v.text))


def anchor_variant(entry: Entry, is_bundled: Callable[[str], bool] = lambda s: True) -> Variant:
    if len(entry.variants) == 1:  # nine entries in ten at 100k rulings: no order to take
        return entry.variants[0]
    return min(entry.variants, key=lambda v: _anchor_order(v, is_bundled))


def _is_corpus_path(source: str) -> bool:
    return source.startswith("corpus/")


def digest_id(kind: Kind, basis: str, used: set[str]) -> str:
    """`r-`/`c-` and 10 hex digits of the basis's SHA-1, the next window when one is taken."""
    prefix = "r" if kind is Kind.RULING else "c"
    digest = hashlib.sha1(basis.encode()).hexdigest()
    for start in range(len(digest) - 10):
        candidate = f"{prefix}-{digest[start:start + 10]}"
        if candidate not in used:
            used.add(candidate)
            return candidate
    raise AssertionError("sha1 ran out of ids")  # pragma: no cover


def _id_order(entry: Entry, is_bundled: Callable[[str], bool]) -> tuple[str, bool, str]:
    """Who gets an anchor key's id first: two entries whose anchors differ only in signs ("+1/+1",
    "-1/-1": one `match_key`, two rulings) share a key, and the bundled one keeps the first window,
    so a judge's page never moves a bundled id; then the signed wording itself (`exact_key`)."""
    anchor = anchor_variant(entry, is_bundled)
    return wording_key(entry.kind, anchor.text), not is_bundled(anchor.source), exact_key(anchor.text)


def assign_ids(entries: Sequence[Entry], is_bundled: Callable[[str], bool] = _is_corpus_path) -> list[Entry]:
    """Entries with ruling ids derived from their anchors (same input, same ids, in any order)."""
    used = {e.id for e in entries if e.kind is not Kind.RULING}
    anchored = sorted((_id_order(e, is_bundled), i) for i, e in enumerate(entries) if e.kind is Kind.RULING)
    new_ids = {i: digest_id(Kind.RULING, order[0], used) for order, i in anchored}
    # an entry whose id is the one it gets is handed back as it is (deduplication's own id for one anchored
    # wording is this one: nearly every entry), so a digest taken of it holds (`kb.store.digests`)
    return [e if i not in new_ids or e.id == new_ids[i] else replace(e, id=new_ids[i]) for i, e in enumerate(entries)]
