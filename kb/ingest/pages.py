"""Ruling pages saved as text: card ruling pages and rules-search result pages.

A card page starts with the card's name in the page's language (or a title naming it: "Notes and
Rules Information for Hooded Hydra:"), may have a type line, then units of a date line
(`• WotCJul 13, 2018`, `13/07/2018`, `24/11/14`) followed by the ruling, or of a line that starts
with the date and goes on with the ruling, as rulings are copied from tables and card sites
(`9/20/2014<TAB>The ruling`, `(2014-09-20) The ruling`, `Sep 20, 2014: The ruling`).
A search page starts with `Search` and holds blank-line separated paragraphs: Comprehensive
Rules texts without their numbers, undated rulings, and "See rule 708 ..." stubs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import groupby
from typing import AbstractSet, Callable, Sequence

from kb.lang import LANGUAGE_NAMES, detect
from kb.model import CardName, Kind, Lang, ParseResult, Problem, Record
from kb.normalize import (NAME_JOINERS, UNDECODABLE_REASON, DateFormatError, is_undecodable, looks_like_date,
                          match_key, normalize_text, parse_date)

# What a rules text matcher returns: the clause number and a score, or None for "not a rule".
ClauseMatcher = Callable[[str], "tuple[str, float] | None"]
NameResolver = Callable[[str], "str | None"]
NearResolver = Callable[[str], "tuple[str, str] | None"]  # (the known name nearest, its English name)

SEARCH_TITLES = frozenset({"search", "suche", "buscar", "búsqueda"})
MAX_RULING_CHARS = 5000
# A list item's bullet, as pages copy it (`•`, `*`, `·`), and one that may be a dash too (`- 2024-09-20`)
_MARKS = "•*·"
# `+ ` is a Markdown list's bullet too, with its space or alone on its line (its item's text on the lines
# below, as `•` alone: review48 L3): `+1: ...` is a planeswalker's ability, `+1/+1` a bonus
_MARK = rf"(?:[{_MARKS}]|\+(?=\s|$))"
_MARK_OR_DASH = rf"(?:[{_MARKS}\-]|\+(?=\s))"
# A bulleted line, as release notes state rulings ("\* text": the bullet as Markdown escapes it)
BULLET = re.compile(rf"^\s*(?:\\(?=\*))?{_MARK}\s+(?P<text>\S.*)$")
UNKNOWN_NAME = "names no card the KB knows"
CODE_LINE = "a line of code"
UNKNOWN_TITLE = f"the title {UNKNOWN_NAME}"  # how that note starts: `kb remove` looks for new ones

# what may stand before a date on its line: a bullet or dash, and who gave the ruling (`• WotCJul 13, 2018`)
_LEAD = rf"(?:{_MARK_OR_DASH}\s*)?(?:WotC\s*)?"
_DATE_LEAD = re.compile(rf"^{_LEAD}")
_BULLET = re.compile(rf"^\s*{_LEAD}(?P<date>.*?)\s*$")
_STUB = re.compile(r"^See rules? \d{3}(?:\.\d+[a-z]?)?,? .*for more information\b.*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    text: str


_LONE_BULLET = re.compile(rf"^\s*{_MARK}\s*$")
_LEADING_BULLET = re.compile(rf"^{_MARK_OR_DASH}\s+(?=\S)")  # `- text` too: a Markdown list item
_QUOTE_MARKS = re.compile(r"^\s*>(?!=)(?:\s*>)*\s?")  # `> `, `>> `, `> > `: a post's or a mail's quote
_COMPARISON = re.compile(r"\s*(?:\d|[<=≤≥]|[+\-−]\d)")  # what `>` before it makes a comparison: `> 5`, `> -1`
# A line comment's marks in code (`// `, `/// `; `# ` in Python, YAML, shell): an engine's card file
# keeps its rulings in comments (tryout29 D8)
_COMMENT_MARKS = re.compile(r"^\s*(?://+|#+)(?=\s|$)\s?")


def _lines(text: str) -> list[_Line]:
    """The page's lines, each without the quote marks a forum post, chat or e-mail puts before the
    lines it quotes (`> Feb 25, 2015: The ruling.`, `>> more of it`): the quoted line is read as
    written; a line holding only a list bullet (a list item whose text is on the lines below it, as
    a list item of paragraphs is copied or saved) or only a quote mark reads as blank, never as a date."""
    raw = _uncommented([line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")])
    marks = [_QUOTE_MARKS.match(line) for line in raw]
    lines: list[_Line] = []
    for number, (line, mark, quote) in enumerate(zip(raw, marks, _quoted(raw, marks)), start=1):
        if _LONE_BULLET.match(line) or (mark and not line[mark.end():].strip()):
            line = ""
        elif mark and quote:
            line = line[mark.end():]
        lines.append(_Line(number, line))
    return lines


def _quoted(lines: Sequence[str], marks: Sequence[re.Match[str] | None]) -> list[bool]:
    """Which lines open with a quote's marks: each line of a run of lines opening with `>` (a line of
    the mark alone included) when one line of the run reads as quoted: marks nested (`>>`), or text
    after the mark that is a date or no comparison. `> 5 or more creatures: ...` alone is a ruling
    about more than 5 creatures (review38), not a quote of "5 or more creatures"."""
    def reads_quoted(line: str, mark: re.Match[str]) -> bool:
        rest = line[mark.end():]
        return bool(rest.strip()) and (mark.group().count(">") > 1 or not _COMPARISON.match(rest)
                                       or _dated(rest)[0] is not None)

    quoted: list[bool] = []
    for marked, run in groupby(zip(lines, marks), key=lambda pair: pair[1] is not None):
        pairs = list(run)
        quote = marked and any(reads_quoted(line, mark) for line, mark in pairs if mark)
        quoted.extend([quote] * len(pairs))
    return quoted


def _uncommented(lines: list[str]) -> list[str]:
    """The lines without the line comment's marks (`_COMMENT_MARKS`) of each run of commented lines
    that gives a ruling's date (`//   [2021-02-05] The ruling.`): rulings kept in code comments are
    read as written, as a quote's are. A run giving no date is left as it is (a Markdown heading, `#`,
    is no comment; a page's other code comments hold no ruling)."""
    marks = [_COMMENT_MARKS.match(line) for line in lines]
    read: list[str] = []
    for marked, run in groupby(zip(lines, marks), key=lambda pair: pair[1] is not None):
        pairs = list(run)
        if marked and any(_dated(line[mark.end():])[0] is not None for line, mark in pairs if mark):
            read.extend(line[mark.end():] if mark else line for line, mark in pairs)
        else:
            read.extend(line for line, _ in pairs)
    return read


_CELL_EDGES = re.compile(r"^\s*\|\s*|\s*\|\s*$")


def _uncelled(text: str) -> str:
    """A table row's text without the cell separators at its ends: a rulings table copied from a
    browser or a markdown view gives `9/20/2014 |` and `The ruling. |`, or `| 9/20/2014 | The ruling. |`."""
    return _CELL_EDGES.sub("", text) if "|" in text else text


def _paragraphs(lines: list[_Line]) -> list[list[_Line]]:
    paras: list[list[_Line]] = []
    current: list[_Line] = []
    for line in lines:
        if line.text.strip():
            current.append(line)
        elif current:
            paras.append(current)
            current = []
    if current:
        paras.append(current)
    return paras


def _blocks(lines: Sequence[_Line]) -> list[list[_Line]]:
    """Lines without their blank ones, in paragraphs: cut where a blank line was (a gap in the numbers)."""
    blocks: list[list[_Line]] = []
    for line in lines:
        if blocks and line.number == blocks[-1][-1].number + 1:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    return blocks


_HEADING_MARKS = re.compile(r"^\s*#{1,6}\s+|\s+#+\s*$")  # `# Title`, `## Title ##`


def _unmarked(text: str) -> str:
    """A line without its Markdown heading marks: they are no part of a title or a card's name."""
    return _HEADING_MARKS.sub("", text)


# A mana cost's symbols as Scryfall and most card sites print them after the name: generic and
# coloured mana, X, snow, colourless, half mana, hybrid (`{W/U}`, `{2/W}`) and Phyrexian (`{G/P}`, `{W/U/P}`)
_MANA = r"\{(?:\d{1,2}|[WUBRGCXYZS½∞]|H[WUBRG]|[WUBRGC2](?:/[WUBRGCP]){1,2})\}"
# a name's mana cost and all after it on the title line (a type line, a set, a site's name): no card's
# name holds a brace (review39 #6: "Expose the Culprit {1}{R} - Gatherer")
_TRAILING_COST = re.compile(rf"(?:\s*{_MANA})+(?:\s.*)?$")


def _uncosted(title: str) -> str:
    """A title line without the mana cost printed after the card's name, nor what follows it
    (`Expose the Culprit {1}{R} - Gatherer` → `Expose the Culprit`): the cost is no part of the name
    (tryout27 D3)."""
    return _TRAILING_COST.sub("", title) or title


def title_of(text: str) -> str:
    for line in text.lstrip("\ufeff").splitlines():
        if line.strip():
            return normalize_text(line)
    return ""


def is_search_page(text: str) -> bool:
    return title_of(text).casefold() in SEARCH_TITLES


def _date_part(line: str) -> str | None:
    """The date text of a date line (`• WotCJul 13, 2018` → `Jul 13, 2018`), or None for other lines."""
    stripped = _uncelled(line.strip())
    if not stripped or len(stripped) > 40:
        return None
    m = _BULLET.match(stripped)
    candidate = m.group("date") if m else stripped
    if looks_like_date(candidate):
        return candidate
    if stripped[0] in "([" and stripped[-1] in ")]" and looks_like_date(stripped[1:-1].strip()):
        return stripped[1:-1].strip()  # `(2024-02-02)` under its ruling, as card sites print it
    if (sourced := _SOURCED_DATE.match(stripped)) and looks_like_date(sourced.group("date")):
        return sourced.group("date")  # `(wotc • 2023-10-13)`: who gave the ruling, and when (mtgcircle)
    if candidate.startswith("#"):
        return None  # a collector number (`• #671`, mtgcircle's `• #671Rulings`): no date has one
    emphasis = _EMPHASIS.match(stripped)
    if emphasis:  # `**107.3g**`, `***Returning Mechanic***`: a heading in bold, not a bullet
        inner = stripped.strip(emphasis.group(1)[0]).strip()
        return inner if looks_like_date(inner) else None
    if ("WotC" in stripped or (re.match(_MARK, stripped) and (not candidate or any(ch.isdigit() for ch in candidate))
                               and not _CR_NUMBER.match(candidate))) \
            and _date_head(stripped) is None:
        # a bullet line whose date we may not know: let parse_date say why. Every date has its year's
        # digits: a list item of words ("* Khans of Tarkir", a set under "Other printings") is no date
        return candidate
    return None


_EMPHASIS = re.compile(r"^(\*{1,3}|_{1,3})\S.*\S\1$")
# A Comprehensive Rules number opening a list item (`• 502.74. Hideaway`, a wiki quoting the CR): no date
_CR_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]?\.?(?:\s|$)")
# A ruling's source and date in brackets, as card sites print them under the ruling: `(wotc • 2023-10-13)`,
# `(Wizards of the Coast - 2024-02-02)`, `[Scryfall, 2024-02-02]`: a source of a few words without digits
_SOURCED = r"[(\[]\s*[^\W\d][^\d()\[\]•·|:,\-–—]{0,30}?\s*[•·|:,\-–—]\s*(?P<date>[^()\[\]]{6,32}?)\s*[)\]]"
_SOURCED_DATE = re.compile(rf"^{_SOURCED}$")


# The word a note or a card file puts before a ruling's bracketed date: `Ruling (2024-09-20): text` (tryout29 D8)
_RULING_LABEL = re.compile(r"^(?:ruling|regelung|entscheidung|aclaraci[oó]n|resoluci[oó]n)\s*(?=[(\[])", re.IGNORECASE)
_HEAD_BRACKETED = re.compile(r"^[(\[](?P<date>[^()\[\]]{6,32})[)\]]\s*(?:[:|\-–—]\s*)?(?P<rest>\S.*)$")
# the same before its ruling: `Ruling (see Kaldheim release notes, 2021-01-22): text` (review41 #9)
_HEAD_SOURCED = re.compile(rf"^{_SOURCED}\s*(?:[:|\-–—]\s*)?(?P<rest>\S.*)$")
_HEAD_SEPARATED = re.compile(r"^(?P<date>[^\t:|–—]{6,32}?)\s*(?:\t+|[:|–—]|\s-\s)\s*(?P<rest>\S.*)$")
_MAX_DATE_WORDS = 6  # "Friday, 13 de julio de 2018"
_MIN_RULING_WORDS = 3  # the shortest real rulings: "It can't be countered."


def _date_head(line: str) -> tuple[str, str] | None:
    """(date text, ruling text) of a line that starts with a date and goes on with the ruling
    (`9/20/2014<TAB>Text`, `(2014-09-20) Text`, `(WotC, 2014-09-20) Text`, `Sep 20, 2014: Text`,
    `• 20.09.2014 Text`), or that
    ends with its date (`_date_tail`), else None.

    The date must be written like one (`looks_like_date`) and the rest must read like a sentence
    (`_MIN_RULING_WORDS` words or more: `2018.07.13 (WotC)` is a date line, not a ruling); without a
    tab, bracket or separator, the longest run of leading words that is a date is taken.
    """
    line = _uncelled(line.strip())
    stripped = _DATE_LEAD.sub("", line)
    stripped = _RULING_LABEL.sub("", stripped)  # `- Ruling (2024-09-20): text` reads as `(2024-09-20) text`
    for pattern in (_HEAD_BRACKETED, _HEAD_SOURCED, _HEAD_SEPARATED):
        found = pattern.match(stripped)
        if found and looks_like_date(found.group("date")):
            rest = found.group("rest").strip()
            return (found.group("date").strip(), rest) if len(rest.split()) >= _MIN_RULING_WORDS else None
    words = stripped.split()
    for n in range(min(_MAX_DATE_WORDS, len(words) - _MIN_RULING_WORDS), 0, -1):
        head = " ".join(words[:n])
        if looks_like_date(head.rstrip(":,;")):
            return head.rstrip(":,;"), " ".join(words[n:])
    return _date_tail(words)


def _dated(line: str) -> tuple[str | None, str | None]:
    """(date text, ruling text on the same line) of a line: (date, None) for a date line, (date,
    ruling) for a line that starts or ends with its date, (None, None) for any other line."""
    raw = _date_part(line)
    if raw is None and (head := _date_head(line)) is not None:
        return head
    return raw, None


_SOURCE_JOINERS = frozenset("of the de la del der".split())


def _date_tail(words: list[str]) -> tuple[str, str] | None:
    """(date text, ruling text) of a ruling whose date ends its line, after its last sentence and
    perhaps its source, as card sites list them (`The ruling. Wizards of the Coast 2014-09-20`,
    `The ruling. (9/20/2014)`); None unless the text before reads as whole sentences."""
    for n in range(min(_MAX_DATE_WORDS, len(words) - _MIN_RULING_WORDS), 0, -1):
        tail = " ".join(words[-n:]).strip("()[]").strip()
        if not looks_like_date(tail) or tail.endswith("."):
            continue
        before = words[:-n]
        while before and before[-1] in ("-", "–", "—", ":", "|"):
            before = before[:-1]
        # "Wizards of the Coast", "WotC", "Scryfall": who gave the ruling, not the ruling; in the date's
        # brackets too, as a rulings summary credits each ruling (`... mana ability. [D'Angelo 2007/11/09]`)
        bracketed = words[-1][-1:] in ")]" and not words[-n].startswith(("(", "["))
        source = 0
        while before and source < 5 and not _ends_sentence(before[-1]):
            word = before[-1]
            opens = bracketed and word[:1] == ("[" if words[-1].endswith("]") else "(")
            name = word[1:] if opens else word
            if not (name[:1].isupper() or name in _SOURCE_JOINERS):
                break
            before, source = before[:-1], source + 1
            if opens:
                break
        if len(before) >= _MIN_RULING_WORDS and _ends_sentence(before[-1]):
            return tail, " ".join(before)
        return None
    return None


_SHORT_NUMERIC = re.compile(r"^(\d{1,2})([/.\-])(\d{1,2})[/.\-]\d{2,4}$")


def _starts_dated(content: list[_Line]) -> bool:
    """Whether a page's first line is already one of its dated rulings (rows copied without the page's
    title), not a title: it is a date and more dates follow (a blog post under its date has one)."""
    def dated(line: _Line) -> bool:
        return _dated(line.text)[0] is not None

    return dated(content[0]) and any(dated(line) for line in content[1:])


def _order(raw: str) -> str | None:
    """How a numeric date (`13/07/2018`, `11/8/2024`) gives its day and month: "day" or "month" when
    only that one comes first (13 is no month), "either" when both readings are dates that differ
    (`11/8/2024`), None for any other date (a named month, ISO, `02/02/2024`)."""
    m = _SHORT_NUMERIC.match(raw)
    if not m:
        return None
    if int(m.group(1)) > 12:
        return "day"
    if int(m.group(3)) > 12:
        return "month"
    return "either" if int(m.group(1)) != int(m.group(3)) else None


def _day_first(date_texts: list[str], sample: str) -> tuple[bool, bool]:
    """(whether a page writes numeric dates day first, whether that was a guess): judged from the
    unambiguous ones (`13/07/2018`); when every one is ambiguous (`11/8/2024`), dotted dates are day
    first (`08.11.2024`), and slashed ones month first on an English page (Gatherer, the English
    source of numeric dates, writes 9/20/2014) and day first on a German or Spanish one."""
    ambiguous = []
    for raw in date_texts:
        order = _order(raw)
        if order in ("day", "month"):
            return order == "day", False
        if order == "either":
            ambiguous.append("." if "." in raw else "/")
    if not ambiguous or "." in ambiguous:
        return True, False
    return detect(sample) is not Lang.EN, True


def _ambiguous_dates_note(source: str, units: list["_Unit"], day_first: bool, guessed: bool) -> Problem | None:
    """One note naming every date of a page that could be day or month first (`11/8/2024`) and how it
    was read, with why (the page's unambiguous date, or its language), or None when there is none.
    A dotted date read day first is not one: dots are written day first (`08.11.2024`)."""
    read: list[tuple[int, str, str]] = []
    for line, raw, _ in units:
        if raw and _order(raw) == "either" and not (day_first and "." in raw):
            try:
                read.append((line.number, raw, parse_date(raw, day_first=day_first)))
            except DateFormatError:  # an impossible date is reported with its ruling
                continue
    if not read:
        return None
    order = "day first" if day_first else "month first"
    if guessed:
        why = f"as {'German and Spanish' if day_first else 'English'} pages write them"
        head = f"every numeric date on the page could be day or month first: read {order}, {why}"
    else:
        # the order was told by an unambiguous date, or else by a dotted one (dots are day first)
        at, sure = next((line.number, raw) for line, raw, _ in units
                        if raw and (_order(raw) in ("day", "month") or (day_first and "." in raw)))
        head = (f"{'a numeric date' if len(read) == 1 else 'numeric dates'} that could be day or month first "
                f"{'was' if len(read) == 1 else 'were'} read {order}, as the page's {sure!r} on line {at} is written")
    shown = "; ".join(f"line {n} {raw!r} as {iso}" for n, raw, iso in read[:5])
    more = f"; and {len(read) - 5} more on lines " + ", ".join(str(n) for n, _, _ in read[5:]) if len(read) > 5 else ""
    return Problem(source, read[0][0], f"{head}: {shown}{more}", ignored=True)


_Unit = tuple[_Line, "str | None", "str | None"]  # a line, its date text, the ruling text on the date's line


def _under_their_rulings(units: list[_Unit], alone: list[int]) -> bool:
    """Whether every date line of its own is printed as card sites print a ruling's date: on the line
    right under the ruling's last line, with a blank line (or the page's end) under it."""
    def blank(i: int) -> bool:
        return i >= len(units) or not units[i][0].text.strip()

    return all(i > 0 and not blank(i - 1) and blank(i + 1) for i in alone)


def _dates_before_their_rulings(units: list[_Unit], cards: Sequence[str | None],
                                oracle: str | None = None) -> list[_Unit]:
    """The page's lines with each date line moved before its ruling when the page prints every date
    on the line after its ruling (Scryfall and its clones: the ruling, then `(2024-02-02)`): every
    date line follows a sentence, and either nothing after the last one may be a ruling (a site's
    footer, "Scryfall is not produced by ...", is no sentence about the game) or every date sits on
    the line right under its ruling with a blank line under it. Other pages are returned as they are
    (a date line heads the ruling below it)."""
    alone = [i for i, (line, date, rest) in enumerate(units) if date is not None and rest is None]
    if not alone:
        return units
    for i in alone:
        before = next((u for u in reversed(units[:i]) if u[0].text.strip()), None)
        if before is None or before[1] is not None or not _ends_sentence(before[0].text):
            return units
    after = [u for u in units[alone[-1] + 1:] if u[0].text.strip()]
    if any(u[1] is not None for u in after):
        return units  # the last date has a ruling dated on its own line after it
    if after and _not_rulings([u[0] for u in after], cards, None)[1]:
        # the last date has a ruling after it: dates head their rulings, unless every date sits right
        # under its ruling and what is right above the first date is a ruling too, not the page's own
        # text (the card's printed text above a date that heads the ruling below it: review38)
        above: list[_Line] = []
        for unit in reversed(units[:alone[0]]):
            if not unit[0].text.strip():
                break
            above.insert(0, unit[0])
        if not (_under_their_rulings(units, alone) and _not_rulings(above, cards, oracle)[1]):
            return units
    # every ruling after the first is one line (the text between two dates): so is the first, and the
    # lines above it with no blank line or heading between are the page's own (the card's printed text)
    one_line = len(alone) >= 3 and all(
        len([u for u in units[a + 1:b] if u[0].text.strip() and not _is_rulings_heading(u[0].text)]) == 1
        for a, b in zip(alone, alone[1:]))
    ordered: list[_Unit] = []
    start = 0  # where the paragraph being read began in `ordered`
    after_blank = False
    for unit in units:
        if unit[1] is not None and unit[2] is None:
            # a blank line may stand between a ruling and its date (a saved page's paragraphs): the date
            # still belongs to the paragraph above it, so only a new ruling's text starts a paragraph
            if one_line and unit is units[alone[0]]:
                start = max(start, max(i for i, u in enumerate(ordered) if u[0].text.strip()))
            ordered.insert(start, unit)
            start, after_blank = len(ordered), False
        elif not unit[0].text.strip():
            ordered.append(unit)
            after_blank = True
        else:
            if after_blank:
                start, after_blank = len(ordered), False
            ordered.append(unit)
            if _is_rulings_heading(unit[0].text):
                # the heading over the rulings (`Rulings`, mtgcircle's `• #671Rulings`) starts them, as a
                # blank line would: the card's printed text above it is no part of the first ruling (tryout27 D1)
                start = len(ordered)
    return ordered


def parse_card_page(text: str, source: str, resolve_card: NameResolver | None = None,
                    card_text: NameResolver | None = None, closest_card: NearResolver | None = None) -> ParseResult:
    """Records of a card ruling page, and a problem for each unit that can't be used. `card_text`
    gives a card's Oracle text (English name -> text): a card site prints it above the rulings.
    `closest_card` gives the known name nearest to a misspelt title, and its card's English name: the
    rulings go to that card when they name it themselves, else the note asks "did you mean"."""
    lines = _lines(text)
    content = [line for line in lines if line.text.strip()]
    if not content:
        return ParseResult((), (Problem(source, None, "empty page: no title and no rulings"),))
    if is_undecodable(content[0].text):
        return ParseResult((), (Problem(source, content[0].number,
                                        f"page skipped: its title line has {UNDECODABLE_REASON}"),))
    records: list[Record] = []
    problems: list[Problem] = []
    card: str | None
    unknown_title = False
    no_name: str | None = None  # what the first line is when it can be no card's name (a site's address)
    translation: str | None = None  # an unknown card's other name in its title ("Cryptic Coat / Kryptischer Mantel")
    if _starts_dated(content):
        # copied from the rulings table down: no title, so no card (a date is no card's name)
        card, body = None, lines
        problems.append(Problem(source, content[0].number, "page has no title line naming its card (its first "
                                "line is a ruling's date): its rulings are kept without a card", ignored=True))
    else:
        title = _uncosted(normalize_text(_unmarked(content[0].text)))
        known = _card_in_title(title, resolve_card) if resolve_card else None
        card = known or _title_as_card(title)
        unknown_title = bool(resolve_card) and not known
        if not known and (no_name := _names_no_card(title, content[1].text if len(content) > 1 else "")):
            # a card's name on a line of its own before the first dates may still name their card
            card = None
        elif unknown_title and (pair := _name_and_translation(title)) is not None:
            card, translation = pair
        body = [line for line in lines if line.number > content[0].number]
    title_card = card  # a card's name heading later rulings changes `card`
    # each line's date read once; an article's date under its author's name dates no ruling
    dated = [(line, *_dated(line.text)) for line in body]
    bylines = _byline_dates(dated)
    units = _dates_before_their_rulings([(unit[0], None, None) if unit[0].number in bylines else unit
                                         for unit in dated], (title_card, translation),
                                        card_text(title_card) if card_text and title_card else None)
    named_by = "the title"  # what names the card of the page's rulings, as the unknown name's note says
    if no_name == CODE_LINE and (fields := _name_fields(body, units, resolve_card)):
        # a card's file in code names its card in a field (`name: "Saw It Coming",`), wherever it stands
        field_line, name = fields[0]
        others = [f"{other!r} on line {number}" for number, other in fields[1:] if other != name]
        known = resolve_card(name) if resolve_card else None
        card = title_card = known or name
        unknown_title = bool(resolve_card) and not known
        named_by = f"the name field on line {field_line} (the first line is {no_name})"
        if not unknown_title:  # else the unknown name's note says where they went
            problems.append(Problem(source, content[0].number, f"page has no title line naming its card (its "
                                    f"first line {title!r} is {no_name}): its rulings are filed under "
                                    f"{title_card!r}, which its name field on line {field_line} names"
                                    + (f" (the page's other name fields name "
                                       f"{', '.join(others)})" if others else ""), ignored=True))
    elif no_name:
        most_named = _most_named(units, resolve_card)
        card = title_card = _card_of_untitled(units, most_named, card_text)
        unknown_title = title_card is None  # else the first card's name above the first dates may name their card
        problems.append(Problem(source, content[0].number, f"page has no title line naming its card (its first "
                                f"line {title!r} is {no_name}): " + _untitled_said(most_named, title_card),
                                ignored=True))
    date_texts = [d for _, d, _ in units if d]
    day_first, guessed = _day_first(date_texts, "\n".join(line.text for line in body[:400]))
    if (ambiguous := _ambiguous_dates_note(source, units, day_first, guessed)) is not None:
        problems.append(ambiguous)

    def cards() -> tuple[str | None, ...]:
        return title_card, card, translation

    seen_date = False
    date: str | None = None
    date_error: str | None = None
    date_line = 0
    chunk: list[_Line] = []

    def flush() -> None:
        if not chunk:
            if seen_date and date_line:
                problems.append(Problem(source, date_line, "date line with no ruling after it"))
            return
        if not seen_date:
            original, first = _unit_text(chunk), chunk[0].number
            if len(chunk) == 1 and (_is_label(original) or original.endswith(":")):
                return  # the type line alone ("Enchantment", "Verzauberung"): page structure, not even a note
            if not date_texts and (inside := _date_inside([line for line in chunk if line.number not in bylines])):
                # a date where a card page reads none ("Posted Feb 25, 2015 by …"): not undated, and the
                # search-page format would drop its date and keep the lines around it as rulings
                at, said = inside
                bullets = ("; if it is a set FAQ or an article that states its rulings as bullets, --format "
                           "release-notes reads each bullet as a ruling dated with the page"
                           if any(BULLET.match(line.text) for line in chunk) else "")
                problems.append(Problem(source, first, f"no line of this page gives a ruling's date where a "
                                        f"card page reads one (on a line of its own, or opening or ending the "
                                        f"ruling's line: `Jul 13, 2018: ...`), though line {at} holds the date "
                                        f"{said!r}{bullets}: skipped the text from here: {clip(original)}"))
                return
            if not date_texts:  # not one date on the page: its rulings, not some preamble, are lost
                byline = "".join(f" (line {n}'s {said!r}, by its author's name, dates the article, not a ruling)"
                                 for n, said in list(bylines.items())[:1])
                problems.append(Problem(source, first, f"no ruling on this page has a date{byline}, and a card page's "
                                        "rulings are read after their dates (`Jul 13, 2018`, `9/20/2014<TAB>...`): "
                                        "skipped the text from here; if it is rulings without dates, --format search-page "
                                        "reads one per paragraph (every paragraph, so cut what is no ruling first), or "
                                        "one per line when no blank line separates them and every line ends a sentence "
                                        "(those under a `Rulings` heading, if the page has one), filed under the card "
                                        "the title names: "
                                        f"{clip(original)}"))
                return
            # above the heading that opens the rulings ("Notes and Rules Information for X:", "Rulings") is
            # the card as the site prints it. A known card's Oracle text tells its lines from a lost ruling;
            # a card the KB does not know (newer than the bundled names) has only this position to tell
            # them by (tryout27 D4)
            heading = max((i for i, line in enumerate(chunk) if _is_rulings_heading(line.text)),
                          default=-1) if unknown_title else -1
            own, lost = _not_rulings(chunk[heading + 1:], cards(),
                                     card_text(title_card) if card_text and title_card else None)
            own = [*chunk[:heading + 1], *own]
            for run in lost:  # quoted from its own first line, not from the headings above it
                problems.append(Problem(source, run[0].number, f"text before the first date line skipped{_lines_of(run)}: "
                                        f"{clip(_unit_text(run))}"))
            if own:  # said, as a note: nothing a judge would quote, and no ruling lost
                problems.append(Problem(source, own[0].number, "page text before the first ruling date (a subtitle, "
                                        "headings, a site's links, the card's own text), not read as rulings: "
                                        f"{clip(_unit_text(own))}", ignored=True))
            return
        parts = _by_language(chunk)
        for above, part in zip([None, *parts], parts):
            if above is not None and part[0].number == above[-1].number + 1:
                # a line right under a ruling, in another language: a remark or a translation, never
                # more of that ruling (tryout23: a German remark was glued to an English ruling)
                said = LANGUAGE_NAMES[_language(part).value]
                problems.append(Problem(source, part[0].number, f"line {part[0].number} is in {said}, the "
                                        f"ruling above it (line {above[0].number}) in "
                                        f"{LANGUAGE_NAMES[_language(above).value]}: read apart, not as more of "
                                        f"that ruling: {clip(_unit_text(part))}", ignored=True))
            ruling(part)

    def ruling(part: list[_Line]) -> None:
        original, first = _unit_text(part), part[0].number
        # A ruling of several lines or paragraphs is lost whole: say which lines, and what it began with.
        last = part[-1].number
        skipped = (f"ruling skipped (line {first}: {clip(original)})" if last == first
                   else f"ruling skipped (lines {first}-{last}: {clip(original)})")
        if date_error:
            on = f" on line {date_line}" if date_line != first else ""
            problems.append(Problem(source, first, f"{skipped}: {date_error}{on}"))
            return
        bad = _undecodable(part)
        if bad:
            problems.append(Problem(source, bad, f"{skipped}: line {bad} has {UNDECODABLE_REASON}"))
            return
        if len(original) > MAX_RULING_CHARS:
            problems.append(Problem(source, first, f"{skipped}: {len(original)} characters, "
                                    f"over the limit of {MAX_RULING_CHARS}"))
            return
        clean = normalize_text(original)
        records.append(Record(text=clean, original=original, lang=detect(clean), date=date,
                              source=source, line=first, kind=Kind.RULING, card=card))

    # A ruling ends at the next date, and earlier where the page shows it has ended: a ruling that
    # starts on its date's line ends at the first blank line, any ruling at a heading-like line after
    # its last sentence (the next card's name on a page of several cards, a footer). Text after it and
    # before the next date is reported, never glued to the ruling; a card's name heading the next
    # dated rulings makes them that card's.
    inline = closed = barred = False
    stray: list[_Line] = []
    # heading-like lines right under a ruling's last line on a page whose title names a known card: a label
    # of that ruling's paragraph ("Respuesta", "Warning": each a card's name too), not the next card's name
    # when text runs on under it (review48 M5)
    glued: set[int] = set()

    def report_remark() -> None:
        """A remark under a ruling (`_is_note_label`), its lines up to the first blank one: a note, as the page's
        own text is; what follows it is stray text as any other (smoke51 M2: it was "skipped", exit 1)."""
        if stray and _is_note_label(stray[0].text):
            remark = _blocks(stray)[0]
            problems.append(Problem(source, stray[0].number, "a remark under a ruling, not read as a ruling: "
                                    f"{clip(' '.join(line.text.strip() for line in remark))}", ignored=True))
            del stray[:len(remark)]

    def report_stray() -> None:
        report_remark()
        if all(_is_rulings_heading(line.text) for line in stray):
            stray.clear()  # the heading over the rulings again (a site printing its rulings twice): page structure
        if stray:
            problems.append(Problem(source, stray[0].number, "text after a ruling and under no date skipped: "
                                    f"{clip(' '.join(line.text.strip() for line in stray))}"))
            stray.clear()

    def report_printed(printed: list[_Line]) -> None:
        """The lines between a card's name and its first ruling, read as those under the page's title are."""
        if len(printed) == 1 and _is_label(printed[0].text.strip()):
            return  # the card's section heading ("Rulings"), as the first card's is read
        own, lost = _not_rulings(printed, cards(), card_text(card) if card_text and card else None)
        for run in lost:
            problems.append(Problem(source, run[0].number, f"text between a card's name and its first ruling "
                                    f"skipped{_lines_of(run)}: {clip(_unit_text(run))}"))
        if own:
            problems.append(Problem(source, own[0].number, "page text between a card's name and its first ruling "
                                    "(its cost, headings, its own text), not read as rulings: "
                                    f"{clip(_unit_text(own))}", ignored=True))

    def report_trailer() -> None:
        """The text after the page's last ruling: a ruling that lost its date is skipped, the page's own
        text (a footer, links, a notice) is said as a note naming what marks it (`_PageText`)."""
        report_remark()
        own, lost = _not_rulings(stray, cards(), None)
        for run in lost:
            problems.append(Problem(source, run[0].number, "text after a ruling and under no date skipped: "
                                    f"{clip(_unit_text(run))}"))
        if own:
            found = dict.fromkeys(_PageText.CODE if all(_is_code(line.text) for line in para)
                                  else _page_text(para) or _PageText.NO_GAME for para in _blocks(own))
            problems.append(Problem(source, own[0].number, "text after a ruling and under no date, not read as "
                                    f"rulings ({', '.join(found)}): {clip(_unit_text(own))}", ignored=True))
        stray.clear()

    last_date = max((i for i, (_, raw_date, _) in enumerate(units) if raw_date is not None), default=-1)
    for i, (line, raw_date, rest) in enumerate(units):
        if raw_date == "" and next((bool(d) for below, d, _ in units[i + 1:] if below.text.strip()), False):
            continue  # a bullet and its author (`• WotC`) on a line of their own, the date on the next line
        if raw_date is None:
            if not line.text.strip():
                if inline and chunk:
                    flush()
                    chunk, date_line, closed = [], 0, True
            elif closed:
                stray.append(line)
            elif seen_date and chunk and _ends_sentence(chunk[-1].text) \
                    and (_is_heading(line.text) or (unknown_title and _is_card_label(line.text, resolve_card))):
                if title_card is not None and not unknown_title and line.number == chunk[-1].number + 1:
                    glued.add(line.number)
                flush()
                chunk, date_line, closed = [], 0, True
                stray.append(line)
            elif seen_date and chunk and _ends_sentence(chunk[-1].text) and _is_note_label(line.text):
                # a line opening with a remark's label ("Nota de la tienda (Guadalajara): ...", "Judge's note:
                # ...") is someone's remark on the ruling above, not more of it, set apart or on the next line
                # (tryout52 D5, smoke51 M1: it was glued to the ruling, which then matched no English ruling,
                # without a word); it is said as a note (`report_remark`)
                flush()
                chunk, date_line, closed = [], 0, True
                stray.append(line)
            elif seen_date and chunk and i > last_date and line.number > chunk[-1].number + 1 \
                    and _is_footer(footer := _paragraph_at(units, i), cards()) \
                    and (_ends_sentence(chunk[-1].text) or _page_text(footer) is not _PageText.NO_SENTENCE_END
                         or len(_blocks(chunk)) > 1) \
                    and not _not_rulings([u[0] for u in units[i:]], cards(), None)[1]:
                # past a blank line under the last ruling, the rest of the page is no sentence about the
                # game and this paragraph reads as a site's footer ("Scryfall is not produced by ..."): not
                # more of that ruling. Any other paragraph is, as under an earlier ruling (review38, review39
                # #7). A line with no stop goes on a sentence the ruling left open, unless that is a second
                # paragraph of its own (a judge's note without a stop)
                flush()
                chunk, date_line, closed = [], 0, True
                stray.append(line)
            elif seen_date and not chunk and i > last_date and _is_heading(line.text) \
                    and not _wraps_on(line, units[i + 1:]):
                # a heading-like line where the last date's ruling should start: that date's row or
                # bullet is empty, and what follows is the page's footer, as it is after a ruling
                flush()
                chunk, date_line, closed = [], 0, True
                stray.append(line)
            else:
                if (inline and chunk and _ends_sentence(chunk[-1].text) and not _EXAMPLE.match(line.text)
                        and not _switches_language(chunk, line)):  # that line is read apart, with its own note
                    # a ruling given on its date's line goes on with a new sentence on the next: kept (a page
                    # wrapped at its width, a second paragraph), but said, since a judge's comment under a
                    # ruling row reads the same (tryout19: one was glued to the ruling without a word)
                    problems.append(Problem(source, line.number, f"line {line.number} has no date and starts a "
                                            f"new sentence: read as more of the ruling on line {chunk[0].number}; "
                                            "if it is not, give it its date or a blank line above it: "
                                            f"{clip(line.text.strip())}", ignored=True))
                chunk.append(_Line(line.number, _uncelled(line.text)) if barred else line)
            continue
        if not seen_date and resolve_card and unknown_title and chunk:
            # a title naming no card over a page that names its cards on lines of their own: the first
            # card's name heads the first dates as the next cards' names head theirs (tryout24 D2)
            heading = _blocks(chunk)[-1][0]  # the last paragraph's first line
            if (named := resolve_card(normalize_text(_unmarked(heading.text)))):
                card = named
                chunk.remove(heading)
        flush()
        if (at := _next_card(stray, resolve_card)) is not None and not _is_ruling_label(stray, at[0], glued):
            # the next card's name heads its rulings: the text above it is the last card's stray text,
            # the text under it that card's own (its cost, price and printed text), as under the title
            card, printed = at[1], stray[at[0] + 1:]
            del stray[at[0]:]
            report_stray()
            report_printed(printed)
        report_stray()
        chunk = [_Line(line.number, rest)] if rest else []
        inline, closed = bool(rest), False
        barred = "|" in line.text  # a table's row: its ruling's cell ends with a bar too
        seen_date, date_line = True, line.number
        try:
            date, date_error = parse_date(raw_date, day_first=day_first), None
        except DateFormatError as e:
            date, date_error = None, str(e)
    flush()
    report_trailer()
    names: tuple[CardName, ...] = ()
    if unknown_title and title_card and any(r.card == title_card for r in records):
        kept = ""
        if translation and (lang := _translation_language(translation, records)) is not None:
            names = (CardName(title_card, lang, translation),)
            kept = f"; {translation!r} is kept as its {LANGUAGE_NAMES[lang.value]} name"
        near = closest_card(title_card) if closest_card and not translation else None
        records, said = file_unknown_name(records, title_card, near, named_by, kept)
        problems.append(Problem(source, content[0].number, said, ignored=True))
    if not records and not problems:
        problems.append(Problem(source, None, "page has a title but no rulings"))
    return ParseResult(tuple(records), tuple(problems), names)


_EXAMPLE = re.compile(r"\s*(?:Example|Beispiel|Ejemplo)s?\s*:", re.IGNORECASE)  # more of the ruling above
# a remark's label opening its paragraph: up to five words, one of them a remark's noun, and a place or name in
# parentheses, then a colon ("Nota de la tienda (Guadalajara):", "Judge's note:", "Anmerkung der Turnierleitung:")
_NOTE_LABEL = re.compile(r"\s*([^\W\d_][\w'’.-]*(?: [\w'’.-]+){0,4})(?: \([^()]{1,40}\))?:\s+\S")
_REMARK_NOUNS = frozenset({
    "note", "notes", "remark", "remarks", "comment", "comments", "nota", "notas", "comentario", "comentarios",
    "observación", "observacion", "anmerkung", "anmerkungen", "kommentar", "hinweis",
})


def _is_note_label(text: str) -> bool:
    """Whether a line opens with a remark's label (`Note:`, `Anmerkung der Turnierleitung (Wien):`), which no
    ruling's own paragraph does; any other label ("For example:", "Reason:", a card's name) opens more of the
    ruling (review51 M1)."""
    label = _NOTE_LABEL.match(text)
    return label is not None and any(w.strip("'’.-") in _REMARK_NOUNS for w in label.group(1).casefold().split())


def _lines_of(run: Sequence[_Line]) -> str:
    return f" (lines {run[0].number}-{run[-1].number})" if len(run) > 1 else ""


def _unit_text(lines: Sequence[_Line]) -> str:
    """A unit's lines as one text; a ruling printed as a list item before its date (`* The ruling.`,
    then `(2024-09-20)`) is the ruling without its bullet."""
    return _LEADING_BULLET.sub("", "\n".join(line.text.strip() for line in lines))


def _is_label(text: str) -> bool:
    """A short line that is no sentence under a card's name: its type line or a section heading."""
    return len(text) <= 40 and not text.endswith(".")


def _wraps_on(line: _Line, after: Sequence[_Unit]) -> bool:
    """Whether the line right below `line` carries on its sentence (a ruling wrapped after a few words:
    `If a creature with a survival ability` / `isn't tapped ...`, `The face-down creature is a` /
    `2/2 creature with no name.`): it starts in lower case, or it is no heading-like line itself (a
    footer is lines of links and names: `Terms of Use` / `Privacy Policy`)."""
    below = after[0][0] if after and after[0][1] is None else None
    if below is None or below.number != line.number + 1 or not below.text.strip():
        return False
    return below.text.strip()[:1].islower() or not _is_heading(below.text)


def _ends_sentence(text: str) -> bool:
    return text.rstrip().endswith((".", "!", "?", '"', "”", "“", "»", ")"))


def _is_heading(text: str) -> bool:
    """A short line that is no sentence: a card's name, a section heading, a footer link. A closing
    parenthesis ends no sentence when it only qualifies the words before it ("Nota de la tienda (Córdoba)",
    "Jeskai Spy (KTK)"); one after a stop ends one ("(See rule 702.)"). An example ("Example: turn it face up")
    is more of the ruling, stop or none."""
    stripped = text.strip()
    return (len(stripped.split()) <= 8 and not _ends_sentence(_unqualified(stripped))
            and not stripped.endswith((",", ";", ":")) and not stripped[:1].islower() and not _EXAMPLE.match(stripped))


_QUALIFIER = re.compile(r"\s*\(([^()]*)\)$")  # a line's closing parenthetical: "(Córdoba)", "(See rule 702.)"


def _unqualified(text: str) -> str:
    """`text` without a closing parenthetical that ends no sentence inside, when words stand before it."""
    qualifier = _QUALIFIER.search(text)
    if qualifier is None or not qualifier.start() or _ends_sentence(qualifier.group(1)):
        return text
    return text[:qualifier.start()]


def _is_card_label(text: str, resolve_card: NameResolver | None) -> bool:
    """Whether a line is a known card's name and a colon, alone: a rulings list's entry for the next card
    (`Dauntless Dourbark:` above its rulings, Crystal Keep's summaries), not a ruling's label ("Example:").
    Read so only on a page whose title names no card (a summary of many cards): a page titled with its card
    says "Respuesta:", "Warning:", "Reason:" under a ruling, each also a card's name (review48)."""
    stripped = text.strip()
    return (resolve_card is not None and stripped.endswith(":") and len(stripped.split()) <= 8
            and resolve_card(normalize_text(stripped[:-1]).strip()) is not None)


def _is_ruling_label(stray: Sequence[_Line], i: int, glued: AbstractSet[int]) -> bool:
    """Whether `stray[i]`, a line naming a card, is a label in the paragraph of the ruling above it (in
    `glued`: right under its last line, on a page titled with a known card) over more text right under it
    ("Respuesta" / "Si se pone boca arriba, ..."), not the next card's name; a Markdown heading is a heading."""
    line = stray[i]
    return (line.number in glued and not _HEADING_MARKS.match(line.text) and i + 1 < len(stray)
            and stray[i + 1].number == line.number + 1)


def _paragraph_at(units: Sequence[_Unit], i: int) -> list[_Line]:
    """The lines of the paragraph that starts at `units[i]`, down to the next blank line."""
    lines: list[_Line] = []
    for line, _, _ in units[i:]:
        if not line.text.strip():
            break
        lines.append(line)
    return lines


# The card sites pages are saved from: a page title naming one names no card, a footer naming one is the site's
_SITE_NAMES = (r"gatherer|scryfall|mtg\s*wiki|mtg\.wtf|cardmarket|tcgplayer|edhrec|mtggoldfish|moxfield|archidekt"
               r"|card\s*kingdom|mtgtop8")
# What a site's footer says and a ruling never does (English, German, Spanish): a copyright and the
# site's notices ...
_NOTICE = re.compile(
    r"©|\(c\)\s*(?:19|20)\d\d|\bcopyright\b|\ball rights reserved\b|\balle rechte vorbehalten\b"
    r"|\bderechos reservados\b"
    r"|\bnot (?:produced|endorsed|approved|affiliated)\b|\bfan content\b|\btrademarks?\b"
    r"|\blast (?:updated|modified|edited)\b|\bzuletzt (?:geändert|aktualisiert|bearbeitet)\b"
    r"|\búltima (?:actualización|modificación)\b",
    re.IGNORECASE)
# ... and the words of its links ("Terms of Use", "Report card issue", "Back to top", "Impressum")
_SITE_LINKS = re.compile(
    r"\bterms of (?:use|service)\b|\bprivacy\b|\bcookies?\b|\bimpressum\b|\bdatenschutz|\bnutzungsbedingungen\b"
    r"|\baviso legal\b|\bprivacidad\b|\bcondiciones de uso\b|\breport (?:a |this )?(?:card )?(?:issue|error|bug)\b"
    r"|\bview all rulings\b|\bback to top\b",
    re.IGNORECASE)
# A web address's parts, the one definition of each: its scheme, the `www.` of a host, and the top-level
# domains of the sites judges copy from (a host's name ending in one: `mtgjudge.com`, `miraclegames.de`)
SCHEME = r"https?://"
WWW = r"www\."
LINK_START = rf"(?:{SCHEME}|{WWW})"  # an address written as one: `https://…`, `www.…`
SITE_DOMAINS = "com|org|net|io|de|es"
# A link's address or a card site's name (and the card site mtg.wtf's domain). A judge's note may name one
# ("see mtgjudge.com for the thread"): only a paragraph that is mostly links reads as the site's
_LINK = re.compile(rf"\b{LINK_START}|(?-i:\b[a-z0-9-]+\.(?:{SITE_DOMAINS}|wtf)\b)|\b(?:{_SITE_NAMES})\b",
                   re.IGNORECASE)


class _PageText(StrEnum):
    """What marks undated text after the last ruling as the page's own, as its note says."""
    NOTICE = "a site's notice"
    LINKS = "a site's links"
    NO_SENTENCE_END = "no sentence end"
    NO_GAME = "no sentence about the game"  # said only of what `_not_rulings` found no such sentence in
    CODE = "lines of code"  # an engine's card file (tryout29 D8)


def _page_text(lines: Sequence[_Line]) -> _PageText | None:
    """What marks a paragraph as a site's rather than a ruling's: a notice (`_NOTICE`), a link's words
    (`_SITE_LINKS`) or mostly links (`_mostly_links`), or no final stop; None if it ends a sentence."""
    text = " ".join(line.text.strip() for line in lines)
    if _NOTICE.search(text):
        return _PageText.NOTICE
    if _SITE_LINKS.search(text) or _mostly_links(text):
        return _PageText.LINKS
    return None if _ends_sentence(_unqualified(text)) else _PageText.NO_SENTENCE_END


_FEW_WORDS = 4  # besides a link: "Data provided by Scryfall.", "Source: the Scryfall rulings list."
_LINK_SEPARATOR = re.compile(r"\s+[|·•]\s+")  # `Cards · Decks · Sets`, `Search Cards | Advanced Search`


def _mostly_links(text: str) -> bool:
    """Whether a text is links or a site's names (`_LINK`) and at most a few other words (four, or as many
    as its links): "Data provided by Scryfall.", not a judge's "... (see mtgjudge.com for the thread)."."""
    words = text.split()
    linked = sum(1 for word in words if _LINK.search(word))
    return linked > 0 and len(words) - linked <= max(_FEW_WORDS, linked)


def _is_footer(lines: Sequence[_Line], cards: Sequence[str | None]) -> bool:
    """Whether a paragraph past the last ruling reads as a site's footer, not as more of that ruling: a
    notice or links (`_page_text`), or no final stop where no note about the game has one either: no
    game word in it, or every line a line of links (`_is_link_line`). A judge's note without a stop
    ("Example: you manifest a Forest with it ...") is more of the ruling."""
    found = _page_text(lines)
    if found is not _PageText.NO_SENTENCE_END:
        return found is not None
    text = normalize_text(" ".join(line.text.strip() for line in lines))
    return not _speaks_of_the_game(text, cards) or all(_is_link_line(line.text) for line in lines)


def _is_link_line(text: str) -> bool:
    """Whether a line reads as a site's link or links: a short line that is no sentence (`_is_heading`),
    or such lines between bars or dots (`Search Cards | Advanced Search | Sets | Deck Builder | ...`)."""
    items = _LINK_SEPARATOR.split(text.strip())
    return all(_is_heading(item) for item in items)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


# The words rulings use for what they are about, in English, German and Spanish (word starts, with
# endings where a web page's words share the start: "copyright", "PayPal", "landing", "página"). Only
# undated text outside the rulings is judged by them (a subtitle, a site's header or footer): a sentence
# with one of them may be a ruling that lost its date, and is reported as skipped, never as a note.
_GAME_WORDS = re.compile(r"\b(?:"
    # English
    r"cards?\b|creature|spells?\b|abilit|permanent|battlefield|players?\b|opponent|controls?\b|controll"
    r"|owns?\b|owner|target|counters?\b|damage|mana\b|costs?\b|pay(?:s|ing)?\b|paid\b|cast(?:s|ing)?\b"
    r"|turn(?:s|ed|ing)?\b|(?:un)?tap(?:s|ped|ping)?\b|librar|graveyard|hands?\b|exile|stack\b|trigger|resolv"
    r"|effects?\b|tokens?\b|cop(?:y|ies|ied)\b|attack|block(?:s|ed|ing|ers?)?\b|combat|life\b|draws?\b"
    r"|discard|sacrific|destroy|dies\b|enters?\b|leaves?\b|zone|face\b|face-|morph|megamorph|manifest|disguise"
    r"|cloak|reveal|choose|chose|priority|legendary|lands?\b|artifact|enchant|aura\b|planeswalker"
    r"|power\b|toughness|keyword|games?\b|deck|shuffle|instant|sorcery|upkeep|equip|mulligan"
    # German
    r"|karte|kreatur|zauber|fähigkeit|bleibend|gegner|kontroll|besitzer|ziel|marke|schaden|manakost"
    r"|bezahl|getappt|tappt?\b|enttapp|bibliothek|friedhof|exil|stapel|auslös|effekt|spielstein|kopie"
    r"|angreif|angriff|blockt|blocken|kampf|lebenspunkt|abwerf|opfer|zerstör|verdeckt|aufdeck|aufgedeckt"
    r"|manifestier|verkleid|getarnt|priorität|artefakt|verzauber|widerstand|hexerei|spontanzauber"
    # Spanish
    r"|cartas?\b|criatura|hechizo|habilidad|permanente|campo de batalla|jugador|oponente|propietari"
    r"|objetivo|contador|daño|maná|coste|costo|paga(?:r|s)?\b|lanz|turno|girad|endere|biblioteca|cementerio"
    r"|mano\b|exili|pila\b|dispar|resuelv|efecto|ficha|copia|atac|bloque|combate|roba|descart"
    r"|destru|muere|boca (?:arriba|abajo)|manifiest|metamorf|disfraz|encubr|revel|prioridad|tierras?\b"
    r"|artefacto|encantamiento|resistencia|instantáneo|conjuro"
    r")", re.IGNORECASE)
_GAME_SIGNS = re.compile(r"\{[^{}]+\}|[+-]?\d+/[+-]?\d+\b|\b\d{3}\.\d+[a-z]?\b")  # {3}, 2/2, +1/+1, 702.37c
_A_SENTENCE = re.compile(r"[.!?][\"”“»')\]]*$")  # "(megametamorfosis)" ends no sentence, "...cost.)" does


def _tells_of_the_game(text: str, cards: Sequence[str | None]) -> bool:
    """Whether an undated text holds a sentence that reads like a ruling: a whole sentence of a few
    words that speaks of the game (`_speaks_of_the_game`)."""
    return any(_A_SENTENCE.search(sentence) and len(sentence.split()) >= _MIN_RULING_WORDS
               and _speaks_of_the_game(sentence, cards) for sentence in _SENTENCE_END.split(normalize_text(text)))


def _speaks_of_the_game(text: str, cards: Sequence[str | None]) -> bool:
    """Whether a text has a game word, a mana symbol, a P/T or counter, a rule's number or the page's card in it."""
    if _GAME_WORDS.search(text) or _GAME_SIGNS.search(text):
        return True
    said = f" {match_key(text)} "
    return any(f" {key} " in said for key in (match_key(card) for card in cards if card) if key)


def _sentences_of(lines: Sequence[_Line]) -> list[list[_Line]]:
    """Undated lines cut where a sentence or a heading ends: a blank line (a gap in the line numbers),
    a line ending a sentence or introducing what follows (`Rulings:`), a heading-like line unless the
    line under it goes on in lower case (a sentence wrapped after a few words)."""
    runs: list[list[_Line]] = []
    for line in lines:
        if runs and line.number == runs[-1][-1].number + 1 and _goes_on(runs[-1][-1].text, line.text):
            runs[-1].append(line)
        else:
            runs.append([line])
    return runs


def _goes_on(text: str, below: str) -> bool:
    text = text.strip()
    if _A_SENTENCE.search(text) or text.endswith(":"):
        return False
    return below.strip()[:1].islower() or not _is_heading(text)


# The heading a card page puts over a card's rulings, without the card's name: "Rulings", "Card Rulings",
# "Notes and Rules Information" (English, German, Spanish)
_RULINGS_LABEL = re.compile(r"(?:card\s+)?(?:rulings?|notes\s+and\s+rules\s+information|regelungen|fallbeispiele"
                            r"|reglas|aclaraciones|notas)", re.IGNORECASE)
_COLLECTOR_NUMBER = re.compile(rf"^(?:{_MARK_OR_DASH}\s*)?(?:#\d+[a-z]?(?![a-z])\s*)?")  # `• #671` before a glued heading


def _is_rulings_heading(text: str) -> bool:
    """Whether a line is the heading a card page puts over the card's rulings: `Rulings`, `Notes and Rules
    Information for Expose the Culprit:`, `Regelungen zu Kapuzenhydra`, also with the list bullet and the
    collector number a card site glues before it (mtgcircle: `• #671Rulings`). A sentence is none."""
    heading = _COLLECTOR_NUMBER.sub("", normalize_text(text)).strip()
    if _RULINGS_LABEL.fullmatch(heading.rstrip(":").rstrip()):
        return True
    named = _RULINGS_HEADING.match(heading)  # the label, then the card: `Rulings for Dog Walker`
    return (named is not None and len(heading.split()) <= 12 and (heading.endswith(":") or not _ends_sentence(heading))
            and _RULINGS_LABEL.fullmatch(heading[:named.end()].strip().rsplit(None, 1)[0]) is not None)


def _not_rulings(lines: Sequence[_Line], cards: Sequence[str | None],
                 oracle: str | None) -> tuple[list[_Line], list[list[_Line]]]:
    """(the page's own text, the runs that may be rulings) of undated text before a page's first ruling
    or after its last: the card's printed text (`_card_paragraph`), headings, a subtitle, a site's links
    and notices are the page's own; a run holding a sentence about the game may be a ruling that lost
    its date."""
    oracle_key = match_key(oracle) if oracle else ""
    own: list[_Line] = []
    lost: list[list[_Line]] = []
    for run in _sentences_of([line for line in lines if line.text.strip()]):
        printed = [line for line in run if _card_paragraph(line.text.strip(), oracle_key) or _is_code(line.text)]
        rest = [line for line in run if line not in printed]
        if rest and _tells_of_the_game(_unit_text(rest), cards):
            own.extend(printed)
            lost.append(rest)
        else:
            own.extend(run)
    return sorted(own, key=lambda line: line.number), lost


# An HTML tag a page copied as text keeps (Gatherer's `<i>(They're 2/2 creatures.)</i>`): no word of the card's
_MARKUP = re.compile(r"</?[a-z][a-z0-9]*(?:\s[^<>]*)?/?>", re.IGNORECASE)


def _card_paragraph(line: str, oracle_key: str) -> bool:
    """Whether a line is the card's printed text: the Oracle text's own words, or (a web page prints
    the card in one paragraph: "Creature — Human Warrior. Lifelink. Megamorph {2}{W}. When Hidden
    Dragonslayer is turned face up, destroy ...", tryout18) sentences that are either short labels
    (its type line, its keywords: every word capitalised) or sentences of the Oracle text, at least
    one of them the latter. A short sentence in lower case ("It has no name.") may be a lost ruling.
    Markup tags around a part of it (`<i>` around reminder text) are no part of the text."""
    if not oracle_key:
        return False
    sentences = _SENTENCE_END.split(_MARKUP.sub("", line))
    in_oracle = [bool(key := match_key(s)) and key in oracle_key for s in sentences]
    return any(in_oracle) and all(found or (_is_label(s.rstrip(".")) and all(not w[:1].islower() for w in s.split()))
                                  for s, found in zip(sentences, in_oracle))


# A Saga's chapter numbers, before their text or on a line of their own (`I, II —`, `III`), as a card page
# prints the card: no card's name is Roman numerals alone
_CHAPTER = re.compile(r"^[IVX]+(?:\s*,\s*[IVX]+)*(?:\s*[—–].*|\s+-(?:\s.*)?)?$")  # not `X-Men`


def _next_card(stray: Sequence[_Line], resolve_card: NameResolver | None) -> tuple[int, str] | None:
    """(index, card) of the line of text under no date that names the next card: its first line or a
    line starting a paragraph (a section's heading and prose may stand between the last ruling and the
    next card's name: "## Turning steals into value" above "### Satoru, the Infiltrator"). Of several,
    the last Markdown heading (a section's "## Deck Notes" may read as a name too), else the first (the
    card's printed text under its name may hold a line that reads as one: "Menace")."""
    named = [(i, card) for i, line in enumerate(stray) if i == 0 or line.number > stray[i - 1].number + 1
             if (card := _card_heading(line.text, resolve_card))]
    marked = [(i, card) for i, card in named if _HEADING_MARKS.match(stray[i].text)]
    return marked[-1] if marked else named[0] if named else None


def _card_heading(text: str, resolve_card: NameResolver | None) -> str | None:
    """The card a heading line names: a card the names know, else a short line written like a card's
    name (every word capitalised but joiners: `Beanstalk Giant`, `There // They're // Their`), not a
    Saga's chapter numbers (`I, II`); of a rulings heading, the card after it (`Rulings for Dog Walker`),
    and none of the heading alone (`Rulings`, `• #671Rulings`). A Markdown heading's marks and a mana cost
    after the name are no part of it (`### They Came from the Pipes {4}{U}`)."""
    name = _uncosted(normalize_text(_unmarked(text))).rstrip(" -–—|·•")
    if _is_rulings_heading(name) and not (name := _after_heading(name) or ""):
        return None
    found = resolve_card(name) if resolve_card and name else None
    if found:
        return found
    words = name.split()
    if not 1 <= len(words) <= 6 or any(ch.isdigit() for ch in name) or ":" in name or _CHAPTER.match(name):
        return None
    return name if _written_as_name(words) else None


def _written_as_name(words: Sequence[str]) -> bool:
    """Every word capitalised but a name's small joining words (`Beanstalk Giant`, `Death in Heaven`)."""
    return all(w[:1].isupper() or w.casefold() in NAME_JOINERS for w in words)


# A card site's page title: the card's name, perhaps its set in brackets, and the site's name, its
# set and number or a heading as parts between spaced dashes, bars or dots, before or after the name
# (`Dog Walker (Murders at Karlov Manor) - Gatherer`, `Gatherer - Dog Walker`, `MTG Wiki | Dog Walker`,
# `Dog Walker · Murders at Karlov Manor (MKM) #197 · Scryfall`, `Regelungen - Entlarvung des Schuldigen`)
_TITLE_SEPARATOR = re.compile(r"\s+[-–—|·•/]\s+")  # " / ": the name and its translation
_NOT_A_NAME = re.compile(
    rf"(?:the\s+)?(?:{_SITE_NAMES}|magic:?\s+the\s+gathering|wizards\s+of\s+the\s+coast)"  # a site, whole,
    r"(?:\s+(?:magic:?|the|gathering|search|cards?|rulings?|wiki|database|deutsch|español|english))*"
    r"|(?:card\s+)?rulings?|regelungen|fallbeispiele|reglas|aclaraciones|oracle(?:\s+text)?"  # a heading
    r"|.*#\d+|\([A-Z0-9]{3,5}\)",  # a set and its number (`Murders at Karlov Manor (MKM) #197`), a set code
    re.IGNORECASE)
_SET_IN_BRACKETS = re.compile(r"\s*\([^()]*\)(?:\s*#\d+)?$|\s+#\d+$")  # `(MKM)`, `(MKM) #197`


# A whole line that is a site's address, whatever its domain (`miraclegames.de`, `https://mtg.fandom.com/wiki/X`)
_ADDRESS = re.compile(rf"(?:{SCHEME})?(?:{WWW})?(?:[a-z0-9-]+\.)+[a-z]{{2,6}}(?:/\S*)?", re.IGNORECASE)
_LABEL = re.compile(r"[^\W\d_]+(?: [^\W\d_]+){0,3}:")  # a form's label: `Card Name:`, `Mana Cost:`


# A line of code (an engine's card file, tryout29 D8): a statement (`import { x } from "y";`, `export
# default f({`), a line that opens a block (`{`, `(`, `[`), ends a string's statement (`"y";`), closes a
# block (`});`), or an object's field, its key in lower case or quoted (`name: "Saw It Coming",`,
# `"types": ["instant"],`; not a sentence's "Example: 2 creatures,"). A card's name may hold quotes
# (`Kongming, "Sleeping Dragon"`) and a cost's braces (`{1}{U}`), and a wrapped sentence may end in a
# semicolon (`(Lightform);`), so none of these alone is code. A statement word starts prose too ("using its
# morph ability (see rule 702.37), even if…", "let it resolve (…)": a wrapped sentence, review41 #8), so it
# counts with code's own signs only: the line ends as a statement or block does, it declares a name
# (`const x =`), it is Python's `def f(x):`; an arrow (`=>`, in forum posts too: "Clone => Copy?") counts
# only as a function's (`(game) => {`, `c => c.tap()`). Python's first line is `from engine import x` (#7)
_CODE = re.compile(
    r"^\s*(?:import\b.*\bfrom\b|from\s+[\w.]+\s+import\s"
    r"|(?:import|export|const|let|var|function|def|class|package|using)\s.*[;{(\[=]\s*$"
    r"|(?:export\s+)?(?:const|let|var)\s+(?:[\w$]+|[{\[][^}\]]*[}\]])\s*=(?![=>])"
    r"|(?:def|class)\s+\w+\s*(?:\(.*\))?\s*:\s*$)"
    r"|(?:\([\w$,\s]*\)|\b[a-z_$][\w$]*)\s*=>\s*(?:[{(]|[\w$.]+\()"
    r"""|[{(\[]\s*$|["'`]\s*;\s*$|^\s*[})\]]"""
    r"""|^\s*(?:["'][\w$ -]+["']|[a-z_$][\w$]*)\s*:\s*(?:["'\[{\d-]|true\b|false\b|null\b).*,\s*$""")
# An object's name field in code (`name: "Saw It Coming",`, `"name": "…"`, `name = "…"`)
_NAME_FIELD = re.compile(r"""^\s*["']?(?:card_?)?name["']?\s*[:=]\s*(?P<q>["'])(?P<name>[^"'{}]{1,141})(?P=q)\s*[,;]?\s*$""",
                         re.IGNORECASE)


def _is_code(text: str) -> bool:
    """Whether a line is a line of code (`_CODE`), never a card's name nor a ruling."""
    return _CODE.search(text) is not None


def _name_fields(lines: Sequence[_Line], units: Sequence[_Unit],
                 resolve_card: NameResolver | None) -> list[tuple[int, str]]:
    """(line number, name) of each name field of a page of code (`name: "Saw It Coming",`), the card's
    first: a file may define a token before its card (`token({ name: "Shapeshifter" })`, review41 #6), so
    the field whose name the page's rulings name most comes first, then one that names a known card, then
    one at the object's top level (the least indented), then the first."""
    fields = [(line.number, normalize_text(m.group("name")), len(m.group(0)) - len(m.group(0).lstrip()))
              for line in lines if (m := _NAME_FIELD.match(line.text))]
    rulings = " ".join(rest or line.text for line, date, rest in units if date is not None or rest)

    def said(name: str) -> int:
        return len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", rulings, re.IGNORECASE))

    known = {name for _, name, _ in fields if resolve_card is not None and resolve_card(name) is not None}

    def rank(field: tuple[int, str, int]) -> tuple[int, bool, int, int]:
        number, name, indent = field
        return -said(name), name not in known, indent, number
    return [(number, name) for number, name, _ in sorted(fields, key=rank)]


def _names_no_card(title: str, below: str) -> str | None:
    """What a page's first line is when it can be no card's name, else None: a site's address
    (`miraclegames.de`, tryout29 D3), a line of code (`import { defineCard } from "../define.js";`, an
    engine's card file, tryout29 D8), or a form's label with no value, over another label (Gatherer's
    `Card Name:` over `Mana Cost:`, the name lost in the copy, tryout29 D4)."""
    if _ADDRESS.fullmatch(title):
        return "a site's address"
    if _is_code(title):
        return CODE_LINE
    if _LABEL.fullmatch(title) and _after_heading(title) is None and _LABEL.match(normalize_text(below)):
        return "a label with no value"
    return None


_CAPITALISED = re.compile(r"[^\W\d_a-z][\w'’-]*(?:,?\s+(?:[^\W\d_a-z][\w'’-]*|of|the|to|in|de|del|la|von|der|zu))*")


def _cards_named(text: str, resolve_card: NameResolver) -> set[str]:
    """The known cards a text names: each run of capitalised words, or a part of it, that is a card's name."""
    found: set[str] = set()
    for run in _CAPITALISED.finditer(text):
        words = run.group().replace(",", "").split()
        for n in range(min(len(words), _MAX_NAME_WORDS), 0, -1):
            for i in range(len(words) - n + 1):
                if (english := resolve_card(" ".join(words[i:i + n]))) is not None:
                    found.add(english)
    return found


def _most_named(units: Sequence[_Unit], resolve_card: NameResolver | None) -> tuple[str, int, int] | None:
    """(card, how many rulings name it, how many rulings) of the known card that at least half the
    lines after the page's first date name, the most of any card; None when no card is."""
    first = next((i for i, (_, date, _) in enumerate(units) if date is not None), len(units))
    texts = [rest or line.text for line, date, rest in units[first:] if (rest or (date is None and line.text.strip()))]
    if resolve_card is None or not texts:
        return None
    counts: dict[str, int] = {}
    for text in texts:
        for english in _cards_named(text, resolve_card):
            counts[english] = counts.get(english, 0) + 1
    best = max(counts.items(), key=lambda item: item[1], default=None)
    if best is None or 2 * best[1] < len(texts) or list(counts.values()).count(best[1]) > 1:
        return None
    return best[0], best[1], len(texts)


def _card_of_untitled(units: Sequence[_Unit], named: tuple[str, int, int] | None,
                      card_text: NameResolver | None) -> str | None:
    """The card of a page whose first line names none: the known card its rulings name (`_most_named`),
    when the page prints that card's Oracle text above its first date (a Gatherer page copied without
    the name under `Card Name:`, tryout29 D4), else None."""
    oracle = card_text(named[0]) if named and card_text else None
    if not named or not oracle:
        return None
    first = next((i for i, (_, date, _) in enumerate(units) if date is not None), len(units))
    oracle_key = match_key(oracle)
    return named[0] if any(_card_paragraph(line.text.strip(), oracle_key) for line, _, _ in units[:first]
                           if line.text.strip()) else None


def _untitled_said(named: tuple[str, int, int] | None, card: str | None) -> str:
    """What a note says of the card of a page whose first line names none (`named`: `_most_named`'s)."""
    if card is not None and named:
        return (f"its rulings name {card!r} ({named[1]} of {named[2]}), whose Oracle text the page prints above "
                f"them: they are filed under {card!r}")
    said = "its rulings are kept without a card, unless a card's name heads them"
    if named:
        said += (f"; they name {named[0]!r} ({named[1]} of {named[2]}): if they are its rulings, put its name on "
                 "the page's first line")
    return said


def _title_as_card(title: str) -> str:
    """The card of a title no known card matches (a card newer than the bundled names): a heading that
    introduces the rulings (`Notes and Rules Information for Wanted Griffin:`, `Rulings for Dog Walker`)
    gives the words after it (`_after_heading`), else, ending with a colon, the words after its last
    lower-case word; a card site's title, its first part that names no site, set or heading, without a
    set in brackets (`Dog Walker (Murders at Karlov Manor) - Gatherer`, `Gatherer - Dog Walker`); any
    other title is the card's name whole (`Entlarvung des Schuldigen`, `Death in Heaven`)."""
    if not title.rstrip().endswith(":"):
        name = title
        parts = [part for part in _TITLE_SEPARATOR.split(title.strip()) if part]
        if len(parts) >= 2 and all(map(_balanced, parts)):  # a separator inside brackets parts no names
            names = [name for name in (_SET_IN_BRACKETS.sub("", part) or part for part in parts)
                     if not _NOT_A_NAME.fullmatch(name)]
            name = names[0] if names else title
        return _after_heading(name) or name
    if (named := _after_heading(title)) is not None:
        return named
    words = title.rstrip().rstrip(":").split()
    last = max((i for i, w in enumerate(words) if w[:1].islower()), default=-1)
    return " ".join(words[last + 1:]) or title


def file_unknown_name(records: Sequence[Record], written: str, near: tuple[str, str] | None, what: str,
                      kept: str = "") -> tuple[list[Record], str]:
    """The rulings filed under a name no name table knows (`what`: a card page's title, a release-notes
    card block) and the note saying where they went. A misspelt name ("Chillador de Bosque Espectrales",
    "Lense of Clarity") would file them under a card of its own, apart from the real card's rulings and
    translations: when they name `near` ((the known name nearest to `written`, its English name))
    themselves, they are that card's (tryout23, tryout24); otherwise they stay under the name as written
    (a card newer than the known names is kept the same) and the note asks "did you mean"."""
    if near is not None and _names_card(records, written, near):
        return ([replace(r, card=near[1]) if r.card == written else r for r in records],
                f"{what} {UNKNOWN_NAME} in English, German or Spanish, but its rulings name {near[0]!r} "
                f"({near[1]}), the known card nearest to {written!r}: its rulings are filed under {near[1]!r}")
    guess = f"; did you mean {near[0]!r} ({near[1]})?" if near else ""
    return list(records), (f"{what} {UNKNOWN_NAME} in English, German or Spanish: its rulings are filed under "
                           f"{written!r} as written{kept}{guess} (check its spelling if the card is not new)")


def _names_card(records: Sequence[Record], title_card: str | None, near: tuple[str, str]) -> bool:
    """Whether a ruling filed under the page's title names the known card `near` ((its name nearest to
    the title, its English name)) itself: evidence the title is that card's name misspelt."""
    keys = {match_key(name) for name in near}
    return any(key in f" {match_key(r.text)} " for r in records if r.card == title_card
               for key in (f" {k} " for k in keys if k))


def _told_language(name: str) -> Lang | None:
    """The language a name's own letters or words tell (`Verstörende Zwillinge`: German), else None."""
    found = detect(name, Lang.EN)
    return found if all(detect(name, lang) is found for lang in Lang) else None


def _name_and_translation(title: str) -> tuple[str, str] | None:
    """(the card's name, its translation) of a title that gives both ("Cryptic Coat / Kryptischer
    Mantel"): the English name first, unless only the second name reads as English; None for a title
    of one name."""
    parts = [_SET_IN_BRACKETS.sub("", part).strip() for part in re.split(r"\s+/\s+", title.strip())]
    if len(parts) != 2 or not all(map(_could_be_name, parts)):
        return None
    first, second = parts
    told = _told_language(first), _told_language(second)
    if told[0] not in (None, Lang.EN) and told[1] in (None, Lang.EN):
        return second, first
    return first, second


_MAX_NAME_WORDS = 8  # the longest German and Spanish card names have 6 and 7 words


def _could_be_name(part: str) -> bool:
    """Whether a part of a title could be a card's name: a few words, no site or heading, its brackets
    closed ("Morph-Rulings auf Deutsch (Khans von Tarkir / Drachen von Tarkir)" is split inside them)."""
    return (bool(part) and len(part.split()) <= _MAX_NAME_WORDS and _balanced(part)
            and not _NOT_A_NAME.fullmatch(part))


def _balanced(text: str) -> bool:
    """Whether every bracket the text opens is closed in it, and none closed that it did not open."""
    depth = 0
    for ch in text:
        depth += (ch in "([{") - (ch in ")]}")
        if depth < 0:
            return False
    return depth == 0


def _translation_language(name: str, records: Sequence[Record]) -> Lang | None:
    """The language of a card's translated name in a page's title: what its letters or words tell, else
    the page's one language besides English (a page giving English rulings and their German
    translations); None when neither tells."""
    told = _told_language(name)
    if told is not None:
        return told if told is not Lang.EN else None
    others = {r.lang for r in records} - {Lang.EN}
    return others.pop() if len(others) == 1 else None


_MANA_COST = re.compile(r"(?=\w)(?:\d{1,2}|X)?(?:[WUBRGC]|White|Blue|Black|Red|Green|Colorless)*")
_TITLE_PARTS = re.compile(r"\s*(?:[:|–—·•(){}\[\]]|\s-\s|\s/\s)\s*")  # " / ": a name and its translation


# A heading that introduces one card's rulings, up to the word that joins it to the card's name
# (`Notes and Rules Information for`, `View all rulings for`, `Regelungen zu`, `Aclaraciones sobre`): the
# earliest heading word followed by such a word, so the name after it is read whole.
_RULINGS_HEADING = re.compile(
    r"^(?:.*?\s)?(?:rulings?|rules|notes|information|faq|regelungen|regeln|fallbeispiele|reglas|aclaraciones"
    r"|notas)\s+(?:for|on|about|of|zu|zum|zur|für|über|von|de|del|sobre|para)\s+(?=\S)", re.IGNORECASE)


def _after_heading(title: str) -> str | None:
    """The card's name after a heading that introduces its rulings (`Notes and Rules Information for
    Hooded Hydra:` → `Hooded Hydra`), or None for a title with no such heading."""
    found = _RULINGS_HEADING.match(title)
    return (title[found.end():].strip().rstrip(":").rstrip() or None) if found else None


def _card_in_title(title: str, resolve_card: NameResolver) -> str | None:
    """The English name of the card a page's title names: the whole title, else a part of it between
    separators (`Hooded Hydra - Gatherer`), else the words after a heading that introduces the rulings
    (`Notes and Rules Information for Hooded Hydra:`, `Regelungen zu Kapuzenhydra`), else the words
    before a mana cost, the longest part that is a card. Never the last words of a name: a card newer
    than the known names may end in an older card's name ("Death in Heaven": Heaven, "Force of Vigor":
    Vigor), and its rulings are not that card's (tryout27)."""
    found = resolve_card(title)
    if found or len(title.split()) > 16:
        return found
    parts = [p for p in _TITLE_PARTS.split(title) if p]
    for part in sorted(parts, key=len, reverse=True):
        words = part.split()
        # a card site's heading: the name, then the mana cost its symbols' alt texts spell (`1Blue`, `3GG`)
        costless = [" ".join(words[:-1])] if len(words) > 1 and _MANA_COST.fullmatch(words[-1]) else []
        for candidate in [part, _after_heading(part), *costless]:
            if candidate and (found := resolve_card(candidate)):
                return found
    # A title written as a sentence (a word that is no name's, in lower case: "Judge questions about Hooded
    # Hydra") is no card's name: the capitalised words after its last such word may be one (review39 #4).
    # A name's own small words ("Death in Heaven", "Force of Vigor") make no sentence.
    words = title.split()
    lower = [i for i, w in enumerate(words) if w[:1].islower() and w.casefold() not in NAME_JOINERS]
    if lower and lower[-1] < len(words) - 1:
        tail = words[lower[-1] + 1:]
        if _written_as_name(tail) and tail[0][:1].isupper():
            return resolve_card(" ".join(tail))
    return None


# A wiki's section heading as its page is copied as text: the heading, then its edit links (MediaWiki:
# `Rulings[edit | edit source]`, `Regeln[Bearbeiten | Quelltext bearbeiten]`, `Reglas[editar]`)
_EDIT_LINKS = re.compile(r"\s*\[\s*(?:edit|bearbeiten|editar)\b[^\[\]]*\]\s*$", re.IGNORECASE)
# older MediaWiki skins put the link before the heading (`[edit] Rulings`, MTG Salvation's wiki)
_EDIT_LINK_BEFORE = re.compile(r"^\s*\[\s*(?:edit|bearbeiten|editar)\s*\]\s*", re.IGNORECASE)


def _wiki_heading(text: str) -> str | None:
    """The heading of a wiki's section heading line, without its edit links (`Rulings[edit | edit
    source]`, `[edit] Rulings` → `Rulings`); None for any other line, and for an edit link beside what
    reads as no heading (`_is_heading`): a forum post's "[Edit] A face-down creature is a 2/2 ..." is
    a ruling its author edited (review48 M4)."""
    if found := _EDIT_LINKS.search(text):
        heading = text[:found.start()].strip()
    elif found := _EDIT_LINK_BEFORE.match(text):
        heading = text[found.end():].strip()
    else:
        return None
    return heading if heading and _is_heading(heading) else None


_CHROME_WORDS = 12  # a byline, a post's date, a heading: a short line
_INNER_SENTENCE_END = re.compile(r"[.!?][\"”“»')\]]*\s+(?=[^\W\d_])")  # "for you. Alt", not "Nov. 23"
_TIME = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?\s?[Mm]\b\.?)?")  # `08:39:08 AM`, `21:30`


def _is_chrome(text: str, cards: Sequence[str | None]) -> bool:
    """Whether a search page's unit is its site's chrome, not a ruling nor a rule: a few words that end no
    sentence, hold none and speak not of the game (`_speaks_of_the_game`): a forum post's byline ("Originally
    posted by Loïc Hervier:", "Europe - North"), a heading, a line cut off; or a date and time alone (a
    post's: "Sept. 17, 2014 08:39:08 AM", "14/03/2015 09:30", whose `14/03` is no P/T)."""
    if _TIME.search(text) and _is_real_date(_TIME.sub("", text).strip(" ,;-–()[]")):
        return True
    return (len(text.split()) <= _CHROME_WORDS and not _A_SENTENCE.search(text)
            and not _INNER_SENTENCE_END.search(text) and not _speaks_of_the_game(text, cards)
            and not _A_CLAUSE.search(text))


# A clause's subject and verb ("Only you can look at it", "The answer is no: it has no name"): an answer
# in a forum thread, often with no final stop (review40 #7), which a byline or a heading never says
_A_CLAUSE = re.compile(r"\b(?:you|it|they|he|she|we|i|this|that|there|answer)\s+(?:\w+\s+)?"
                       r"(?:can(?:'t|not)?|could|is(?:n't)?|are(?:n't)?|was(?:n't)?|were(?:n't)?|does(?:n't)?|do(?:n't)?|"
                       r"did(?:n't)?|will|won't|would(?:n't)?|must|may|might|should|has(?:n't)?|have(?:n't)?|had)\b"
                       r"|\b(?:kann|kannst|ist|sind|darf|darfst|muss|musst|wird|puede|puedes|es|son|debe|debes)\b",
                       re.IGNORECASE)


_LIST_ITEM = re.compile(rf"^\s*{_MARK_OR_DASH}\s+\S")  # `• text`, `- text`, `* text`, `+ text`


def parse_search_page(text: str, source: str, match_clause: ClauseMatcher | None = None,
                      resolve_card: NameResolver | None = None,
                      closest_card: NearResolver | None = None) -> ParseResult:
    """Records of a rules-search page: `rule` units (matched to a CR clause) and undated rulings, one a
    paragraph after the title. A page of a card's undated rulings copied from a card site (tryout27 D6)
    reads as one too: its rulings under its `Rulings` heading (the card's text above it is the page's
    own), one a line when no blank line separates them and each line ends a sentence; its title names
    their card as a card page's does (a "Search" title names none)."""
    lines = _lines(text)
    content = [line for line in lines if line.text.strip()]
    records: list[Record] = []
    problems: list[Problem] = []
    if not content:
        return ParseResult((), (Problem(source, None, "search page with no results"),))
    title = _uncosted(normalize_text(_unmarked(content[0].text)))
    body = [line for line in lines if line.number > content[0].number]
    # the heading over a card's rulings (`Rulings`: the first, a site may print them twice), with rulings
    # under it and no dated line above it: the card's text and the site's links above it are the page's own
    heading = next((i for i, line in enumerate(body) if _is_rulings_heading(_wiki_heading(line.text) or line.text)
                    and any(below.text.strip() for below in body[i + 1:])), -1)
    if heading >= 0 and any(_dated(line.text)[0] for line in body[:heading]):
        heading = -1
    if heading >= 0:
        if above := [line for line in body[:heading + 1] if line.text.strip()]:
            problems.append(Problem(source, above[0].number, "page text above the rulings heading (the card's "
                                    f"own text, a site's links), not read as rulings: {clip(_unit_text(above))}",
                                    ignored=True))
        paras = _paragraphs(body[heading + 1:])
    else:
        paras = _paragraphs(lines)
        # the title's paragraph is the title (and its subtitle), unless the page has no blank line at all
        paras = [content[1:]] if len(paras) == 1 and len(content) > 1 else paras[1:]
    per_line = len(paras) == 1 and len(paras[0]) > 1 and all(_A_SENTENCE.search(line.text.strip()) for line in paras[0])
    if per_line:  # rulings one a line, with no blank line between them: each line is one
        paras = [[line] for line in paras[0]]
    elif len(paras) == 1 and len(paras[0]) > 1 and heading < 0 and content[1].number == content[0].number + 1:
        # the title glued to lines that are no sentences each: not units a search page can tell apart
        odd = next(line for line in paras[0] if not _A_SENTENCE.search(line.text.strip()))
        return ParseResult((), (Problem(source, content[0].number, "search page with no results: --format "
                                        "search-page reads one ruling per paragraph after the title (a blank line "
                                        "between them), or one per line when no blank line separates them and every "
                                        f"line ends a sentence (. ! ?); line {odd.number} does not: "
                                        f"{clip(odd.text)}"),))
    # a list's items are one unit each, as the items of a card page's bulleted rulings are: a paragraph whose
    # every line is a bulleted item (none wraps onto a line of its own) is split at each (ingest47 p02)
    items: list[list[_Line]] = []
    for para in paras:
        if len(para) > 1 and all(_LIST_ITEM.match(line.text) for line in para):
            items.extend([line] for line in para)
        else:
            items.append(para)
    paras = items
    card: str | None = None
    unknown_title = False
    if title.casefold() not in SEARCH_TITLES and resolve_card is not None and (per_line or heading >= 0):
        # shaped as a card's rulings page, not as paragraphs of results: its title names their card
        card = _card_in_title(title, resolve_card)
        if card is None:  # a card the KB does not know: filed as written, with a note, as a card page does
            card, unknown_title = _title_as_card(title), True
            if _LINK.search(card):  # a site's name ("From MTG Wiki": a wiki page's tagline) is no card's
                problems.append(Problem(source, content[0].number, f"the title {clip(title)!r} names a site, not "
                                        "a card: the rulings under its heading are filed under no card", ignored=True))
                card, unknown_title = None, False
    for para in paras:
        if headings := [line for line in para if _wiki_heading(line.text)]:  # a wiki's sections: the page's own
            problems.extend(Problem(source, line.number, f"a wiki's section heading, page text, not a ruling: "
                                    f"{clip(line.text)}", ignored=True) for line in headings)
            if not (para := [line for line in para if line not in headings]):
                continue
        original = _unit_text(para)  # a list item's bullet is no part of its ruling, as on a card page
        clean = normalize_text(original)
        first = para[0].number
        if _STUB.match(clean):
            problems.append(Problem(source, first, f"cross-reference stub, not a ruling: {clip(clean)}",
                                    ignored=True))
            continue
        bad = _undecodable(para)
        if bad:
            problems.append(Problem(source, bad, f"unit skipped: line {bad} has {UNDECODABLE_REASON}"))
            continue
        dated = next(((line.number, d) for line in para if (d := _dated(line.text)[0]) and looks_like_date(d)), None)
        if dated is not None:
            # a card page's dated rulings (`Feb 25, 2015: ...`, a post quoting them): read here, they would
            # lose their dates and the rulings of one paragraph would be glued into one
            lines_said = f"line {first}" if len(para) == 1 else f"lines {first}-{para[-1].number}"
            problems.append(Problem(source, first, f"unit skipped ({lines_said}): line {dated[0]} gives a ruling's "
                                    f"date ({dated[1]!r}), which a search page does not read; without --format "
                                    f"search-page, a card page keeps each dated ruling with its date: {clip(clean)}"))
            continue
        if _is_chrome(clean, [card]):
            problems.append(Problem(source, first, "page text, not a ruling: a few words that end no sentence and "
                                    "name no game word (a post's date, a byline, a heading, a line cut off): "
                                    f"{clip(clean)}", ignored=True))
            continue
        if len(clean) > MAX_RULING_CHARS:
            problems.append(Problem(source, first, f"unit skipped: {len(clean)} characters, "
                                    f"over the limit of {MAX_RULING_CHARS}"))
            continue
        match = match_clause(clean) if match_clause else None
        kind, clause = (Kind.RULE, match[0]) if match else (Kind.RULING, None)
        records.append(Record(text=clean, original=original, lang=detect(clean, Lang.EN), date=None,
                              source=source, line=first, kind=kind, card=card if kind is Kind.RULING else None,
                              clause=clause))
    if not paras:
        problems.append(Problem(source, None, "search page with no results"))
    if unknown_title and card and any(r.card == card for r in records):
        near = closest_card(card) if closest_card else None
        records, said = file_unknown_name(records, card, near, "the title")
        problems.append(Problem(source, content[0].number, said, ignored=True))
    return ParseResult(tuple(records), tuple(problems))


def _language(lines: Sequence[_Line], default: Lang = Lang.EN) -> Lang:
    return detect(normalize_text(" ".join(line.text for line in lines)), default)


def _switches_language(above: Sequence[_Line], line: _Line) -> bool:
    """Whether `line`, right under the lines `above`, starts a new sentence in another language."""
    return _ends_sentence(above[-1].text) and _language([line], lang := _language(above)) is not lang


def _by_language(chunk: list[_Line]) -> list[list[_Line]]:
    """A dated unit's paragraphs, split where the language changes: a ruling never switches language
    midway, so an English ruling with its German translation under it in the next paragraph (a judge's
    page mixing the two under one date) is two rulings, each its own language; so is a line that starts
    a new sentence in another language right under a ruling (a remark or a translation without a blank
    line above it). Paragraphs of one language stay one ruling (a ruling's "Example:" paragraph). A
    chunk holds no blank line: a gap in its line numbers is where one was."""
    paragraphs: list[list[_Line]] = []
    for line in chunk:
        if paragraphs and line.number == paragraphs[-1][-1].number + 1 and not _switches_language(paragraphs[-1], line):
            paragraphs[-1].append(line)
        else:
            paragraphs.append([line])
    if len(paragraphs) < 2:
        return [chunk]
    langs = [_language(p) for p in paragraphs]
    if len(set(langs)) == 1:
        return [chunk]
    parts: list[list[_Line]] = []
    for i, paragraph in enumerate(paragraphs):
        if i and langs[i] is langs[i - 1]:
            parts[-1].extend(paragraph)
        else:
            parts.append(list(paragraph))
    return parts


# An article's author under its title: "von Callum Milne", "by Callum Milne", "Posted by …", "Autor: …"
_BYLINE = re.compile(r"(?:(?:written|posted|geschrieben|verfasst|escrito|publicado)\s+)?(?:by|von|por)\s+"
                     r"|(?:author|autor|autorin|verfasser)\s*:\s*", re.IGNORECASE)
_PERSON = re.compile(r"[^\W\d_][\w'.-]*(?:\s+(?:[^\W\d_][\w'.-]*)){0,4}")


def _byline_dates(units: Sequence[_Unit]) -> dict[int, str]:
    """(line number → date text) of each date line right above or under an author's line ("von Callum
    Milne" / "15.09.2014"): the date an article or post was published, not a ruling's (tryout29 D3: a
    German rules column became one ruling of the whole article at its byline's date)."""
    lines = [line for line, _, _ in units]
    found: dict[int, str] = {}
    for above, (line, date, rest), below in zip([None, *lines], units, [*lines[1:], None]):
        if date is None or rest is not None:
            continue
        for near in (above, below):
            if near is not None and abs(near.number - line.number) == 1 and _is_byline(near.text):
                found[line.number] = date
    return found


def _is_byline(text: str) -> bool:
    """Whether a line gives only an author's name ("von Callum Milne", "By Eli Shiffrin", "Autor: X")."""
    text = normalize_text(text)
    head = _BYLINE.match(text)
    if head is None:
        return False
    name = text[head.end():]
    return bool(_PERSON.fullmatch(name)) and name[:1].isupper() and _written_as_name(name.split())


def _date_inside(lines: Sequence[_Line]) -> tuple[int, str] | None:
    """(line number, date text) of the first real date written inside a line's text (`Posted Feb 25,
    2015 by …`), for a page where no line gives a ruling's date where one is read; None when none does."""
    for line in lines:
        words = line.text.split()
        for start in range(len(words)):
            for n in range(min(_MAX_DATE_WORDS, len(words) - start), 0, -1):
                said = " ".join(words[start:start + n]).strip("()[]:,;.")
                if looks_like_date(said) and _is_real_date(said):
                    return line.number, said
    return None


def _is_real_date(said: str) -> bool:
    """Whether a date text is a date in either order of day and month (`2/25/2015`, `25/02/2015`)."""
    for day_first in (True, False):
        try:
            parse_date(said, day_first=day_first)
        except DateFormatError:
            continue
        return True
    return False


def _undecodable(lines: list[_Line]) -> int | None:
    """The number of the first line holding bytes that were no text, if any."""
    return next((line.number for line in lines if is_undecodable(line.text)), None)


def clip(text: str, width: int = 60) -> str:
    """`text` as a problem quotes it: normalised, cut to `width` characters with an ellipsis."""
    text = normalize_text(text)
    return text if len(text) <= width else text[: width - 1] + "…"
