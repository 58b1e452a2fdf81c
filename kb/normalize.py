"""The one text module: normalise, fold, tokenise, stem, stopwords, dates, word diff, atomic write.

Every other module imports these; none keeps its own copy. Where two callers need different
behaviour (rule comparison keeps `+1/+1` and `{2}` as words, search folds accents and stems hard),
there are two clearly named functions here, each saying why.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path

# What kb.ingest.decode puts in place of a line's bytes that are no text (neither UTF-8 nor cp1252, or
# NUL): a parser skips the unit that holds it, with its line, instead of storing mojibake.
UNDECODABLE = "\ufffd"
UNDECODABLE_REASON = "bytes that are neither UTF-8 nor cp1252 text (or NUL)"


def is_undecodable(text: str) -> bool:
    """Whether `text` holds bytes that were no text (or a NUL, which JSON can smuggle in as \\u0000)."""
    return UNDECODABLE in text or "\x00" in text


# ---------------------------------------------------------------------------------------------
# Normalise

_QUOTES = {"‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"', "´": "'"}
_PLAIN_QUOTES = str.maketrans(_QUOTES)
_PLAIN_QUOTES_AND_DASHES = str.maketrans({**_QUOTES, "\u2014": "-", "\u2013": "-", "\u2212": "-"})
_SPACE = re.compile(r"\s+")
_WORD_RUN = re.compile(r"\w+")


def normalize_text(text: str, *, plain_dashes: bool = False) -> str:
    """NFKC, plain quotes and apostrophes, single spaces, no surrounding space.

    `plain_dashes` also turns em dash, en dash and minus sign into `-`: how rule texts are compared
    (kb.cr, kb.cr.links), where `—` and `-` must meet. Ruling texts keep their dashes (the export shows them).
    """
    text = unicodedata.normalize("NFKC", text).translate(_PLAIN_QUOTES_AND_DASHES if plain_dashes else _PLAIN_QUOTES)
    return _SPACE.sub(" ", text).strip()


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"(])")


def sentences(text: str) -> list[str]:
    """`text` cut into sentences: after a final stop followed by a sentence that starts with a
    capital, a quote or a bracket, so "e.g. the creature" stays one sentence."""
    return _SENTENCE_END.split(text)


@functools.lru_cache(maxsize=1 << 17)  # a build keys each wording in several stages (dedup, ids, the store)
def match_key(text: str) -> str:
    """A key under which two wordings count as the very same text: case, punctuation and spacing
    ignored. The words (runs of `\\w`) of the NFKC, case-folded text, one space apart: what
    `normalize_text` changes besides NFKC (quotes, spaces) is no word character, so it is skipped
    (2.5 times faster; a build keys ~100k texts at 100k rulings). An ASCII text (98 in 100 at 100k
    rulings), which NFKC leaves as it is, has its words split by a byte table (`_ASCII_WORDS`): the same
    key, 2.4 times faster again."""
    if text.isascii():
        return b" ".join(text.encode("ascii").translate(_ASCII_WORDS).split()).decode("ascii")
    return " ".join(_WORD_RUN.findall(unicodedata.normalize("NFKC", text).casefold()))


# An ASCII byte as `match_key` reads it: a word character (`\w` in ASCII: letters, digits, "_")
# case-folded (lower case), any other a space, which `bytes.split` drops
_ASCII_WORDS = bytes((ord(chr(c).lower()) if chr(c).isalnum() or chr(c) == "_" else 32) if c < 128 else c
                     for c in range(256))


def match_words(text: str, cased: bool = False) -> tuple[str, list[re.Match[str]]]:
    """`text` NFKC-normalised and case-folded (`cased`: as written), with the words `match_key` joins as
    matches in it: for a caller that blanks some words (a card's name) and reads the rest of the text."""
    folded = unicodedata.normalize("NFKC", text)
    folded = folded if cased else folded.casefold()
    return folded, list(_WORD_RUN.finditer(folded))


# A sign glued to a number or X ("+1/+1", "-X/-0", "−2"): the one mark `match_key` drops that
# changes what a ruling says ("gets +1/+1" and "gets -1/-1" of one card are two rulings). Only where
# no letter or digit precedes it, so a hyphen inside "X-1" or "2-3" is no sign.
# The sign is matched first and what precedes it looked at after (`(?<!\w.)`: the character before the
# sign): a pattern that opens with its sign is tried only where a sign is, 4 times faster than one that
# opens with the look-behind (`(?<!\w)[+-]...`), which is tried at every character.
_SIGNED = re.compile(r"([+\-\u2212\u2013\u2012])(?<!\w.)(\d+|x\b)", re.IGNORECASE)


def signed_numbers(text: str) -> tuple[str, ...]:
    """The signed numbers of a text in order, each sign as `+` or `-` ("gets +1/-1" -> ("+1", "-1"))."""
    return tuple(("+" if sign == "+" else "-") + number.lower()
                 for sign, number in _SIGNED.findall(unicodedata.normalize("NFKC", text)))


@functools.lru_cache(maxsize=1 << 17)  # dedup groups, ids and sentences key each wording again
def exact_key(text: str) -> str:
    """`match_key` with the text's signed numbers after it: the key under which two wordings are one
    text in dedup (a comma or a capital makes no other ruling, a sign does). Equal to `match_key` for
    a text with no signed number, so ids, which hash `match_key`, are unchanged by it."""
    signs = signed_numbers(text)
    return match_key(text) + ("\x1f" + " ".join(signs) if signs else "")


def words(text: str) -> list[str]:
    """The words of `match_key`: every run of letters and digits, punctuation dropped."""
    return match_key(text).split()


# ---------------------------------------------------------------------------------------------
# Fold and tokenise. Two tokenisers besides `words`, for two jobs:
# - `rule_tokens` compares rule and ruling wordings: lower case, accents kept, `+1/+1`, `{2}{u}` and
#   `it's` stay one token (the wording is the point; kb.cr lineage, kb.cr.links).
# - `tokenize` is for lexical retrieval in three languages: accents folded, apostrophes dropped,
#   stopwords removed, stemmed (kb.search, kb.outdated's touched words, card-name spotting).

_RULE_WORD = re.compile(r"[a-z0-9{}/+\-']+")


def rule_tokens(text: str) -> list[str]:
    """Lower-case word tokens of a rule text (quotes and dashes normalised, outer `'`/`-` dropped)."""
    return [w.strip("'-") for w in _RULE_WORD.findall(normalize_text(text, plain_dashes=True).lower()) if w.strip("'-")]


_SEARCH_WORD = re.compile(r"[a-z0-9]+(?:/[a-z0-9]+)?")
_APOSTROPHE = re.compile(r"['’`´]")
_PUNCT = str.maketrans({"\u2014": " ", "\u2013": " ", "\u2022": " ", "\u2212": "-", "\u00a0": " ",
                        "\u2026": " ", "\u201c": '"', "\u201d": '"', "\u2019": "", "\u2018": ""})


def fold(text: str) -> str:
    """Casefolded, diacritics removed, `ß` → `ss`, apostrophes dropped: a judge may type `uber` for
    `über` or `doesnt` for `doesn't`, and query and documents both go through this."""
    text = text.casefold().translate(_PUNCT)
    if not text.isascii():  # the per-character pass only where there is something to fold
        text = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _APOSTROPHE.sub("", text)


def _name_fold_table() -> dict[int, str]:
    table = {ord("ß"): "ss", ord("æ"): "ae", ord("œ"): "oe", ord("ø"): "o", ord("’"): "", ord("'"): ""}
    for cp in range(0xC0, 0x250):
        base = "".join(c for c in unicodedata.normalize("NFKD", chr(cp)) if not unicodedata.combining(c))
        if base != chr(cp) and cp not in table:
            table[cp] = base
    return table


_NAME_FOLD = _name_fold_table()
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


# The lower-case words between the capitalised words of a card's name, by language ("Hide in Plain
# Sight", "Sword of Fire and Ice", "Vidente del Caos", "Hüter von ..."): where a card page's line or
# title is a name (kb.ingest.pages) and where a question writes one (kb.search.cardnames).
NAME_JOINERS_BY_LANG = {
    "en": frozenset("of the to a an and in on for from with at by".split()),
    "es": frozenset("de del la el los las y".split()),
    "de": frozenset("der die das und von zu".split()),
}
NAME_JOINERS = frozenset({"//"}).union(*NAME_JOINERS_BY_LANG.values())  # "//" joins a split card's halves


def name_key(name: str) -> str:
    """How card names are compared: case, accents, apostrophes and punctuation ignored
    (`Lähmungsnadel` = `lahmungsnadel`, `Jace's` = `jaces`). Unlike `fold` it also spells out
    `æ`, `œ`, `ø` and turns punctuation into spaces, and it is a translate table, not NFKD per
    character: 50,000 names are keyed in ~40 ms."""
    return _NON_ALNUM.sub(" ", name.casefold().translate(_NAME_FOLD)).strip()


# German leaves out what two compounds share and writes the first as its prefix and a hyphen: "Auf-
# oder Zudecken" is "Aufdecken oder Zudecken" (tryout24: the "Zudecken" of a translation met its
# glossary term, its "Auf-" none). Read back where both start with a verb prefix, the one place the
# shared part can be told (the rest of the second word) without a dictionary; folded, longest first.
# "be" and "er" are left out: as the second word's start they are mostly no prefix ("Um- und
# Erweiterungsbauten" is no "Umweiterungsbauten", review38)
_DE_VERB_PREFIXES = sorted("ab an auf aus durch ein ent her hin mit nach uber um unter ver vor weg wieder zer zu "
                           "zuruck".split(), key=lambda p: (-len(p), p))
_DE_PREFIX_ALT = "|".join(_DE_VERB_PREFIXES)
_DE_ELIDED = re.compile(rf"\b({_DE_PREFIX_ALT})-\s+(und|oder|bzw\.?|sowie)\s+({_DE_PREFIX_ALT})([a-z]{{3,}})")


def unelide(folded: str) -> str:
    """A `fold`ed text with German elided compounds written out ("auf- oder zudecken" -> "aufdecken
    oder zudecken", "ein- und ausgezahlt" -> "eingezahlt und ausgezahlt")."""
    if "- " not in folded:
        return folded
    return _DE_ELIDED.sub(lambda m: f"{m[1]}{m[4]} {m[2]} {m[3]}{m[4]}", folded)


def search_words(text: str, *, keep_stopwords: bool = False, lang: str | None = None) -> list[str]:
    """The folded words of `text` without its stop words (`stopwords(lang)`: `lang` the text's language code
    where it is known), unstemmed: what `tokenize` stems, and what kb.ingest.dedup reduces by each language's
    inflection rules instead. German elided compounds are written out (`unelide`)."""
    found = _SEARCH_WORD.findall(unelide(fold(text)).replace("-", " "))
    if keep_stopwords:
        return found
    stop = stopwords(lang)
    return [w for w in found if w not in stop]


def tokenize(text: str, *, keep_stopwords: bool = False, lang: str | None = None) -> list[str]:
    """Lexical tokens of `text` for retrieval: folded, stemmed (`stem`), without its stop words
    (`stopwords(lang)`)."""
    return [stem(w) for w in search_words(text, keep_stopwords=keep_stopwords, lang=lang)]


def stopwords(lang: str | None = None) -> frozenset[str]:
    """The stop words of a text in language `lang` (a code, "en"): `STOPWORDS` less the other languages'
    function words that are words of its own (`CONTENT_WORDS`); all of `STOPWORDS` when the language is not
    known."""
    return _STOPWORDS_BY_LANG.get(lang or "", STOPWORDS)


# ---------------------------------------------------------------------------------------------
# Stopwords. Two lists because their tokens differ: `STOPWORDS` are folded words of three
# languages (`doesnt`, `fur`), `RULE_STOPWORDS` English `rule_tokens` with apostrophes (`doesn't`)
# plus words every rule says (`rule`, `see`), which kb.cr.links must not count as shared content.
# (kb.lang's function words are not stopwords: they tell languages apart.)

STOPWORDS = frozenset(
    # English
    "a an the and or of to in on at by for from with as is are was were be been being it its "
    "this that these those if then than so do does did can could would will shall should may "
    "might must i you he she we they me my your his her our their them what which who whom how "
    "when where why there here not no any some all also only just into onto about after before "
    "while out over such other even still yet get got has have had doesnt dont isnt cant wont "
    "whats thats its im ive youre"
    # German
    " der die das den dem des ein eine einer eines einem einen und oder aber ist sind war waren "
    "wird werden wurde wurden sein bin bist hat habe hast haben zu im in am an auf aus bei mit "
    "von vom zum zur fur uber unter nach vor es sie er ich du wir ihr mich dich mir dir sich "
    "wenn falls ob dass als wie was wer wo warum noch auch nur schon dann denn doch ja nein "
    "nicht kein keine keinen kann kannst konnen muss musst mussen darf darfst soll sollte "
    "man mein meine dein deine sein seine ihre ihren diese dieser dieses jene jener"
    # Spanish
    " el la los las lo un una unos unas y o u de del al en por para con sin que se su sus "
    "es son era fue ser esta estan este esto esa ese eso como cuando si no mi mis tu tus yo "
    "me te le les nos puedo puede pueden hay qué que cual cuál quien pero mas muy ya tambien "
    "todavia sigue siguen"
    .split()
)

# A language's words that are another's function words: German "die" (the) is the English verb ("does it
# die?", search50c: f4-en-01 lost it), so an English text keeps it where its language is known (an indexed
# text's, a question's as detected); a text of unknown language drops every language's function words.
CONTENT_WORDS = {"en": frozenset({"die"})}
_STOPWORDS_BY_LANG = {lang: STOPWORDS - words for lang, words in CONTENT_WORDS.items()}

RULE_STOPWORDS = frozenset(
    "a an the of to and or in on at by for is it its it's be are was were that this these those as "
    "with from if then than can can't doesn't don't won't isn't any all each other another such "
    "you your you'll you're they their them there which who what when while would will may must "
    "not no so but also only even just still one two has have had been being do does did into "
    "onto up down see rule rules".split()
)


# ---------------------------------------------------------------------------------------------
# Stem. One suffix stripper, two suffix lists: retrieval stems three languages hard so that
# `verdeckt`/`verdeckte`/`verdeckten` meet; rule comparison (English only) strips just -ing, -ed,
# -es, -s, so `reveals`/`revealed`/`revealing` meet while `player` or `hidden` keep their endings.

# Longest first; a suffix is only stripped when at least four letters remain.
_SEARCH_SUFFIXES = (
    "ungen", "ation", "ingen", "ing", "ern", "ung", "en", "er", "es", "ed", "em", "as", "os",
    "e", "s", "n", "a", "o",
)
_RULE_SUFFIXES = ("ing", "ed", "es", "s")


def _strip_suffix(word: str, suffixes: tuple[str, ...], *, undouble: bool) -> str:
    for suffix in suffixes:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4:
            word = word[: -len(suffix)]
            # English doubles a final consonant before -ed/-ing: tapped, untapping → tap, untap
            if undouble and suffix in ("ed", "ing") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                word = word[:-1]
            return word
    return word


@functools.lru_cache(maxsize=65536)  # a vocabulary is small; 20,000 Oracle texts repeat it
def stem(word: str) -> str:
    """A folded word of any of the three languages stemmed for retrieval (see `tokenize`)."""
    return _strip_suffix(word, _SEARCH_SUFFIXES, undouble=True)


def rule_stem(word: str) -> str:
    """A `rule_tokens` token without its English -ing, -ed, -es or -s (no undoubling)."""
    return _strip_suffix(word, _RULE_SUFFIXES, undouble=False)


# ---------------------------------------------------------------------------------------------
# Word diff


def close_matches(word: str, known: Iterable[str], n: int = 2) -> list[str]:
    """The `known` names closest to a misspelt `word` (case aside), best first: the "did you mean"
    of every unknown key, action or card."""
    by_fold = {str(k).casefold(): str(k) for k in known}
    return [by_fold[c] for c in difflib.get_close_matches(str(word).casefold(), list(by_fold), n=n, cutoff=0.6)]


def word_diff(a: str, b: str) -> list[tuple[str, str]]:
    """(op, text) runs turning `a` into `b` word by word; op is "equal", "delete" or "insert"."""
    wa, wb = a.split(), b.split()
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(("equal", " ".join(wa[i1:i2])))
        else:
            if i2 > i1:
                out.append(("delete", " ".join(wa[i1:i2])))
            if j2 > j1:
                out.append(("insert", " ".join(wb[j1:j2])))
    return out


# ---------------------------------------------------------------------------------------------
# Atomic write


def write_atomic(path: Path, data: str | bytes, *, mode: int | None = None) -> None:
    """Write a regular file through a temp file beside it and a rename: readers see the old or the
    new file, never a part. `str` is written as UTF-8; `mode` sets the permission bits."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------------
# Dates


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
    9: "sep sept september septiembre setiembre set",
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
    """Whether `value` is a real day written year-month-day: `2018-07-13` (also `2018-7-3`)."""
    try:
        datetime.strptime(value, "%Y-%m-%d")
    except ValueError:
        return False
    return True


_OPTION_DATE = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")
# day.month.year, as German judges write it; a two-digit year is this century's, as pages read it (13.07.18)
_DOTTED_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$")
_SLASHED_DATE = re.compile(r"^\d{1,2}[/-]\d{1,2}[/-]\d{2,4}$")


def date_option(raw: str, option: str, *, partial: bool = False) -> str:
    """A date a user typed for `option` as ISO 8601; with `partial`, also a year or year-month
    (`2018`, `2018-07`, `July 2018`). A day written with dots is day.month.year (`13.07.2018`): dots
    are never month first. A month written out is read as on a page (`23. August 2019`, `July 13,
    2018`, `13 de julio de 2018`): the word says which number is the month. Raises InputError for
    anything else, impossible dates included."""
    from kb.errors import InputError

    dotted = _DOTTED_DATE.match(raw.strip())
    if dotted:
        year = dotted.group(3) if len(dotted.group(3)) == 4 else f"20{dotted.group(3)}"
        m = _OPTION_DATE.match(f"{year}-{dotted.group(2)}-{dotted.group(1)}")
    else:
        m = _OPTION_DATE.match(raw.strip())
    if m and (partial or m.group(3)):
        year, month, day = m.group(1), m.group(2), m.group(3)
        try:
            date(int(year), int(month or 1), int(day or 1))
        except ValueError:
            raise InputError(f"invalid {option} date {raw!r}: no such day") from None
        return "-".join([year] + [f"{int(part):02d}" for part in (month, day) if part])
    tokens = _tokens(raw) or []
    shape = _shape(tokens)
    if shape in ("WNY", "NWY") and tokens[shape.index("W")][1] in _MONTHS:
        try:
            return parse_date(raw)
        except DateFormatError:
            raise InputError(f"invalid {option} date {raw!r}: no such day") from None
    if partial and shape == "WY" and tokens[0][1] in _MONTHS:
        return f"{tokens[1][1]}-{_MONTHS[tokens[0][1]]:02d}"
    wanted = ("2018, 2018-07, 2018-07-13, 13.07.2018 (dots are day first) or 13 July 2018" if partial
              else "2018-07-13, 13.07.2018 (dots are day first) or 13 July 2018")
    # 13/07/2018 has one reading, but 11/8/2024 two: no slashed date is guessed, whatever its numbers
    why = ("slashed dates are refused, since 11/8/2024 could be day or month first; " if _SLASHED_DATE.match(raw.strip())
           else "")
    raise InputError(f"invalid {option} date {raw!r}: {why}write it as {wanted}")


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
