"""Search filters: `--card`, `--lang`, `--rule`, `--since`, `--until`, `--kind`, checked and parsed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kb.errors import InputError
from kb.normalize import date_option
from kb.model import Entry, Kind, Lang

# 2: BM25 precomputed in bm25.npz, docs.json without tokens; 3: cards.json; 4: entries.npz,
# docs.json as arrays, no dense.faiss (nothing read it); 5: entries.npz's names_card, bm25.npz
# with an idf per kind

@dataclass(frozen=True)
class Filters:
    card: str | None = None
    lang: Lang | None = None
    rule: str | None = None
    since: str | None = None
    until: str | None = None
    kind: Kind | None = None


def parse_filters(filters: Filters | None, kw: dict[str, Any]) -> Filters:
    if filters is not None and kw:
        raise TypeError("pass either filters= or keyword filters, not both")
    if filters is not None:
        return filters
    unknown = set(kw) - set(Filters.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown filter(s): {', '.join(sorted(unknown))}")
    lang, kind = kw.get("lang"), kw.get("kind")
    try:
        kw["lang"] = Lang(lang) if lang is not None else None
    except ValueError:
        raise InputError(f"unknown language {lang!r} (use en, de or es)") from None
    try:
        kw["kind"] = Kind(kind) if kind is not None else None
    except ValueError:
        raise InputError(f"unknown kind {kind!r} (use ruling or rule)") from None
    return Filters(**kw)


def date_arg(value: str, what: str) -> str:
    """A --since/--until date as ISO (a year, year-month or day); InputError otherwise."""
    return date_option(value, f"--{what}", partial=True)


def clause_under(number: str, clause: str) -> bool:
    """Whether CR number `number` is `clause` or one of its subrules (708 → 708.2a)."""
    clause = clause.strip().rstrip(".")
    return number == clause or number.startswith(clause + ".") or (
        number.startswith(clause) and number[len(clause):].isalpha())


class ClauseTree:
    """Which numbers of a clause vocabulary are a clause or under it (`clause_under`), one lookup a clause:
    the search asked it of every number in Python per rule, on the query path. Every clause a number is
    under is a beginning of that number, so the tree is each number filed under its own beginnings."""

    def __init__(self, numbers: Sequence[str]) -> None:
        self._size = len(numbers)
        rows: dict[str, list[int]] = {}
        self._row: dict[str, list[int]] = {}
        for i, number in enumerate(numbers):
            self._row.setdefault(number, []).append(i)
            # `clause_under`'s three ways, each a beginning of `number` (its length distinct): the number
            # itself, one only letters follow (702.37 of 702.37c), one a "." follows (702 and 702.37 of 702.37c)
            end = len(number)
            while end and number[end - 1].isalpha():
                end -= 1
            heads = [number[:k] for k in range(end, len(number))]
            heads.append(number)
            k = number.find(".")
            while k >= 0:
                heads.append(number[:k])
                k = number.find(".", k + 1)
            for head in heads:
                if head == head.strip().rstrip("."):  # as `clause_under` reads the clause asked for
                    rows.setdefault(head, []).append(i)
        self._rows = rows

    def mask(self, clause: str, *, below: bool = False) -> np.ndarray:
        """Per number: `clause_under(number, clause)`; `below`: and the number is not `clause` itself."""
        out = np.zeros(self._size, dtype=bool)
        rows = self._rows.get(clause.strip().rstrip("."))
        if rows is not None:
            out[rows] = True
        if below:
            out[self._row.get(clause, [])] = False
        return out


def _links_clause(entry: Entry, clause: str) -> bool:
    """Whether `entry` is linked to `clause` or to one of its subrules (708 → 708.2a)."""
    numbers = [r.clause for r in entry.rules]
    if entry.clause:
        numbers.append(entry.clause)
    return any(clause_under(c, clause) for c in numbers)
