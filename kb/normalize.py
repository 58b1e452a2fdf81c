"""Text and date normalisation shared by all parsers."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime

# What kb.ingest.decode puts in place of a line's bytes that are no text (neither UTF-8 nor cp1252, or
# NUL): a parser skips the unit that holds it, with its line, instead of storing mojibake.
UNDECODABLE = "\ufffd"
UNDECODABLE_REASON = "bytes that are neither UTF-8 nor cp1252 text (or NUL)"


def is_undecodable(text: str) -> bool:
    """Whether `text` holds bytes that were no text (or a NUL, which JSON can smuggle in as \\u0000)."""
    return UNDECODABLE in text or "\x00" in text

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


# Month names and abbreviations of the languages the pages come in (English, German, Spanish).
_MONTH_NAMES = {
    1: "jan january januar jänner jaenner ene enero",
    2: "feb february februar febrero",
    3: "mar march märz maerz mär marzo",
    4: "apr april abr abril",
    5: "may mai mayo",
    6: "jun june juni junio",
    7: "jul july juli julio",
    8: "aug august ago agosto",
    9: "sep sept september sep septiembre setiembre",
    10: "oct october okt oktober octubre",
    11: "nov november noviembre",
    12: "dec december dez dezember dic diciembre",
}
_MONTHS = {name: month for month, names in _MONTH_NAMES.items() for name in names.split()}
# Skipped words: Spanish connectors ("13 de julio de 2018") and weekday names ("Friday, July 13, 2018").
_SKIPPED = frozenset(
    "de del mon tue wed thu fri sat sun monday tuesday wednesday thursday friday saturday sunday "
    "montag dienstag mittwoch donnerstag freitag samstag sonntag "
    "lunes martes miércoles miercoles jueves viernes sábado sabado domingo".split())
_NUMERIC = re.compile(r"^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{1,4})$")
_TOKEN = re.compile(r"(?P<num>\d{1,4})(?:st|nd|rd|th)?\.?|(?P<word>[^\W\d_]{2,12})\.?", re.IGNORECASE)


class DateFormatError(ValueError):
    """A date string in none of the known formats."""


def _tokens(raw: str) -> list[tuple[str, str]] | None:
    """("num" | "word", value) tokens of a written-out date, or None when it is not written like one."""
    out: list[tuple[str, str]] = []
    for part in re.split(r"[\s,]+", raw.strip()):
        if not part:
            continue
        m = _TOKEN.fullmatch(part)
        if not m:
            return None
        if m.group("num"):
            out.append(("num", m.group("num")))
        elif m.group("word").casefold() not in _SKIPPED:
            out.append(("word", m.group("word").casefold()))
    return out


def _shape(tokens: list[tuple[str, str]]) -> str:
    return "".join("N" if kind == "num" and len(v) <= 2 else "Y" if kind == "num" else "W" for kind, v in tokens)


def looks_like_date(raw: str) -> bool:
    """Whether a short line is written like a date (so it starts a ruling), known format or not.

    Numeric dates (`13/07/2018`), `Jul 13, 2018`, `July 13th, 2018`, `13 July 2018`, `13. Juli 2018`,
    `13 de julio de 2018`; also `Quarter 3 2018` (a word where the month goes), which parse_date
    then refuses, so an unknown format is a reported problem, never text glued to a ruling.
    """
    s = raw.strip()
    if _NUMERIC.match(s):
        return True
    tokens = _tokens(s)
    if not tokens:
        return False
    shape = _shape(tokens)
    if shape in ("WNY", "NWY"):
        return True
    return shape == "WY" and tokens[0][1] in _MONTHS  # "July 2018": a date without its day


def parse_date(raw: str, *, day_first: bool = True) -> str:
    """A ruling date as ISO 8601. Knows `Jul 13, 2018`, `July 13th, 2018`, `13 July 2018`,
    `13. Juli 2018`, `13 de julio de 2018`, `13/07/2018`, `24/11/14`, `2018-07-13`.

    `day_first` decides an ambiguous `03/04/2018` (European pages write day first).
    """
    s = raw.strip()
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
    tokens = _tokens(s) or []
    shape = _shape(tokens)
    if shape in ("WNY", "NWY"):
        named = _MONTHS.get(tokens[shape.index("W")][1])
        if named is None:
            raise DateFormatError(f"unknown month in date {raw!r}")
        return _iso(int(tokens[2][1]), named, int(tokens[shape.index("N")][1]), raw)
    if shape == "WY" and tokens[0][1] in _MONTHS:
        raise DateFormatError(f"date without a day {raw!r}")
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


_OPTION_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")


def date_option(raw: str, option: str, *, partial: bool = False) -> str:
    """A date a user typed for `option` as ISO 8601; with `partial`, also a year or year-month
    (`2018`, `2018-07`). Raises InputError for anything else, impossible dates included."""
    from kb.errors import InputError

    m = _OPTION_DATE.match(raw.strip())
    if m and (partial or m.group(3)):
        year, month, day = m.group(1), m.group(2), m.group(3)
        try:
            date(int(year), int(month or 1), int(day or 1))
        except ValueError:
            raise InputError(f"invalid {option} date {raw!r}: no such day") from None
        return "-".join([year] + [f"{int(part):02d}" for part in (month, day) if part])
    wanted = "2018, 2018-07 or 2018-07-13" if partial else "YYYY-MM-DD"
    raise InputError(f"invalid {option} date {raw!r}: write it as {wanted}")


_CLAUSE = re.compile(r"^\d{3}(?:\.\d{1,3}[a-z]?)?$")


def clause_number(raw: str, option: str | None = None) -> str:
    """A Comprehensive Rules number as typed (`708.8 `, `708,8` with a decimal comma, `708.8.`,
    `CR 708.2A`) in its canonical form (`708.8`, `708.2a`). Raises InputError for anything else."""
    from kb.errors import InputError

    s = re.sub(r"^(?:cr|rule|regel|regla)\s*", "", raw.strip().lower()).replace(",", ".").rstrip(".").strip()
    if not _CLAUSE.match(s):
        where = f"{option} " if option else ""
        raise InputError(f"{where}{raw!r} is not a rule number; write it like 708, 708.8 or 708.2a")
    return s
