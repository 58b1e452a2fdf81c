"""Text and date normalisation shared by all parsers."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"', "´": "'"})
_SPACE = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w]+")


def normalize_text(text: str) -> str:
    """NFKC, plain quotes and apostrophes, single spaces, no surrounding space."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return _SPACE.sub(" ", text).strip()


def match_key(text: str) -> str:
    """A key under which two wordings count as the very same text: case, punctuation and spacing ignored."""
    return _NON_WORD.sub(" ", normalize_text(text).casefold()).strip()


def words(text: str) -> list[str]:
    return match_key(text).split()


_MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)}
_NAMED = re.compile(r"^([A-Za-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$")
_NUMERIC = re.compile(r"^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})$")


class DateFormatError(ValueError):
    """A date string in none of the known formats."""


def parse_date(raw: str, *, day_first: bool = True) -> str:
    """A ruling date as ISO 8601. Knows `Jul 13, 2018`, `13/07/2018`, `24/11/14`, `2018-07-13`.

    `day_first` decides an ambiguous `03/04/2018` (European pages write day first).
    """
    s = raw.strip()
    m = _NAMED.match(s)
    if m:
        month = _MONTHS.get(m.group(1).lower())
        if month is None:
            raise DateFormatError(f"unknown month in date {raw!r}")
        return _iso(int(m.group(3)), month, int(m.group(2)), raw)
    m = _NUMERIC.match(s)
    if m:
        a, b, c = m.groups()
        if len(a) == 4:  # 2018-07-13
            return _iso(int(a), int(b), int(c), raw)
        if len(c) not in (2, 4):
            raise DateFormatError(f"unknown date format {raw!r}")
        year = int(c) + (2000 if len(c) == 2 else 0)
        first, second = int(a), int(b)
        day, month = (first, second) if day_first else (second, first)
        if month > 12 and day <= 12:
            day, month = month, day
        return _iso(year, month, day, raw)
    raise DateFormatError(f"unknown date format {raw!r}")


def _iso(year: int, month: int, day: int, raw: str) -> str:
    if not 1993 <= year <= 2100:  # Magic was first published in 1993
        raise DateFormatError(f"implausible year in date {raw!r}")
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        raise DateFormatError(f"impossible date {raw!r}") from None


def is_iso_date(value: str) -> bool:
    try:
        datetime.strptime(value, "%Y-%m-%d")
    except ValueError:
        return False
    return True
