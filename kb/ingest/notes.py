"""Release notes (the set FAQ documents most rulings come from), saved or copied as text.

A release-notes document has a title naming it (`Fate Reforged Release Notes`, or before 2013
`Shadowmoor Frequently Asked Questions`), a date it was last
modified, sections of general notes about the set's mechanics, and card blocks: the card's name,
its mana cost, type line and rules text, then its rulings as bullets (`* ...`, `• ...`). Each bullet
is a ruling dated with the document: of the card whose block it follows, or of no card when it is
a general note. Everything else (the introduction, card texts, quoted rules) is prose, counted once.
"""

from __future__ import annotations

import re

from kb.ingest.pages import BULLET as _BULLET, MAX_RULING_CHARS, NameResolver, NearResolver, file_unknown_name
from kb.lang import detect
from kb.model import Kind, ParseResult, Problem, Record
from kb.normalize import UNDECODABLE_REASON, DateFormatError, is_undecodable, normalize_text, parse_date

# Set FAQs were called "Frequently Asked Questions" before they were renamed release notes (2013).
# Wizards' Spanish release notes are "Notas de la colección de Kaldheim".
_TITLE = re.compile(r"release[\s-]*notes|versionshinweise"
                    r"|notas\s+de(?:\s+la)?\s+(?:versi[oó]n|publicaci[oó]n|lanzamiento|colecci[oó]n)"
                    r"|frequently\s+asked\s+questions|\bFAQs?\b|preguntas\s+frecuentes|h[äa]ufig\s+gestellte\s+fragen",
                    re.IGNORECASE)
_HEADING = re.compile(r"^\s*(?:#+\s*|[-=]{3,}\s*$)")
_GENERAL = re.compile(r"general|allgemein", re.IGNORECASE)
_CARD_NOTES = re.compile(r"card[\s-]*specific|kartenspezifisch|de\s+cartas|espec[ií]fic", re.IGNORECASE)
_UNDERLINE = re.compile(r"^\s*[-=]{3,}\s*$")
# A date written out in the header: "November 24, 2014", "24. November 2014", "24 de noviembre de 2014", "2014-11-24".
_DATE = re.compile(r"\b(?:[A-Za-zäéíóú]{3,10}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\.?\s+(?:de\s+)?[A-Za-zäéíóú]{3,10}"
                   r"\.?\s+(?:de\s+)?\d{4}|\d{4}-\d{2}-\d{2})\b")
_MODIFIED = re.compile(r"modified|updated|aktualisiert|geändert|actualizad|modificad", re.IGNORECASE)
_POSTED = re.compile(r"posted|published|veröffentlicht|publicad", re.IGNORECASE)
_PUBLISHED = re.compile(r"publish|posted", re.IGNORECASE)  # a front matter's key ("publish_date")
_HEADER_LINES = 30
# A mana cost line as release notes print it: "3G", "{3}{G}{G}", "XUU", "{2}{W/U}".
_MANA_COST = re.compile(r"^\s*(?:\{[0-9WUBRGCXSP/]+\}|[0-9]{1,2}|[WUBRGCX]){1,12}\s*$")
# One-line card blocks: "Arashin War Beast -- 5GG -- Creature — Beast 6/6".
_INLINE_CARD = re.compile(r"^\s*(?P<name>[^*•·#\s][^—–]{1,60}?)\s+(?:--|—|–)\s+\S")


def is_release_notes(text: str) -> bool:
    """A document whose first lines name it release notes and that states rulings as bullets. The
    first lines are those after a front matter (`---` lines around a saved page's metadata)."""
    lines = _after_front_matter(text.lstrip("\ufeff").splitlines())
    head = [line for line in lines[:5] if line.strip()][:3]
    return any(_TITLE.search(line) for line in head) and any(_BULLET.match(line) for line in text.splitlines())


_MD_LINK = re.compile(r"\[([^\[\]]+)\]\((?:https?://|/)[^()\s]*\)")
_MD_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# emphasis holds a word: "*/*" (a power and toughness) is none
_MD_EMPHASIS = re.compile(r"(?<![\w*/])\*(?=[^\s*/])([^*]*?[^\W\d_][^*]*?)(?<=[^\s*/])\*(?![\w*/])")


def plain_markdown(text: str) -> str:
    """A ruling as its Markdown copy reads on screen: a link's words without its address
    (`[Clone](http://…)` → Clone), no emphasis marks (`*Legions*`, `**Magic**`)."""
    kept = text.replace("\\*", "\0")  # an escaped asterisk is an asterisk ("\\*/\\*"), never emphasis
    plain = _MD_EMPHASIS.sub(r"\1", _MD_STRONG.sub(r"\1", _MD_LINK.sub(r"\1", kept)))
    return plain.replace("\0", "*")


def _after_front_matter(lines: list[str]) -> list[str]:
    """The lines after a front matter block: a `---` line, the page's metadata and a `---` line,
    opening the document (blank lines before it ignored); all lines when there is none."""
    start = next((i for i, line in enumerate(lines) if line.strip()), len(lines))
    if start < len(lines) and lines[start].strip() == "---":
        end = next((i for i in range(start + 1, min(len(lines), start + 40)) if lines[i].strip() == "---"), None)
        if end is not None:
            return lines[end + 1:]
    return lines


def document_date(lines: list[str]) -> tuple[str | None, int | None]:
    """(ISO date, line number) the header gives: the date on a "last modified" line (the date the
    rulings carry), else on a "posted" line (or the line after "Posted in …", or a front matter's
    publish date), else the first date written out in the header; (None, None) when there is none.
    A "last modified" or "posted" line counts anywhere before the first bullet (a saved web page's
    header runs long: site metadata, byline, links), another date only in the first lines after the
    front matter, whose other dates (a web archive's capture date) date nothing."""
    skip = len(lines) - len(_after_front_matter(lines))
    found: list[tuple[int, int, str]] = []
    previous = ""
    for number, line in enumerate(lines, start=1):
        if _BULLET.match(line):
            break
        in_front = number <= skip
        if in_front and not _PUBLISHED.search(line):
            continue
        for match in _DATE.finditer(line):
            try:
                iso = parse_date(match.group(0))
            except DateFormatError:
                continue
            rank = 0 if _MODIFIED.search(line) else 1 if in_front or _POSTED.search(line) or (
                _POSTED.search(previous) and not _DATE.search(previous)) else 2
            if rank < 2 or number - skip <= _HEADER_LINES:
                found.append((rank, number, iso))
        if line.strip():
            previous = line
    if not found:
        return None, None
    _, number, iso = min(found)
    return iso, number


def parse_release_notes(text: str, source: str, resolve_card: NameResolver | None = None,
                        closest_card: NearResolver | None = None) -> ParseResult:
    """Records of a release-notes document: one ruling per bullet, dated with the document. A card
    block naming no known card that is a typo away from one (`closest_card`) is read as a card page's
    title is (`pages.file_unknown_name`)."""
    lines = [line.rstrip("\r") for line in text.lstrip("\ufeff").split("\n")]
    date, _ = document_date(lines)
    records: list[Record] = []
    problems: list[Problem] = []
    card: str | None = None
    general = False
    after_bullets = False
    prose = 0
    bullet: list[tuple[int, str]] = []
    unknown: dict[str, int] = {}  # a card block's name no name table knows, and its line

    def flush() -> None:
        if not bullet:
            return
        first = bullet[0][0]
        original = "\n".join(t for _, t in bullet)
        bullet.clear()
        if is_undecodable(original):
            problems.append(Problem(source, first, f"ruling skipped: {UNDECODABLE_REASON}"))
        elif len(original) > MAX_RULING_CHARS:
            problems.append(Problem(source, first, f"ruling skipped: {len(original)} characters, "
                                    f"over the limit of {MAX_RULING_CHARS}"))
        else:
            clean = normalize_text(plain_markdown(original))
            records.append(Record(text=clean, original=original, lang=detect(clean), date=date, source=source,
                                  line=first, kind=Kind.RULING, card=None if general else card))

    for number, line in enumerate(lines, start=1):
        if number == 1 or not line.strip():
            flush()
            continue
        item = _BULLET.match(line)
        if item:
            flush()
            bullet.append((number, item.group("text").strip()))
            after_bullets = True
            continue
        if bullet and not _HEADING.match(line) and _goes_on(bullet[-1][1], line.strip()):  # a wrapped bullet
            bullet.append((number, line.strip()))
            continue
        flush()
        if _UNDERLINE.match(line):  # underlines the heading above it
            continue
        if _is_heading(line):
            card, general, after_bullets = None, _in_general_notes(line, general), False
            continue
        named = _card_heading(lines, number - 1, resolve_card)
        if named or after_bullets:
            # The first line after a card's bullets starts the next block: a card this parser can't
            # name gets no card rather than the one before. In a general section an example card's
            # bullets are still general notes (`general` stays).
            card = named
        if named and resolve_card and resolve_card(named) is None:
            unknown.setdefault(named, number)
        if not named:
            prose += 1
        after_bullets = False
    flush()
    for name, number in unknown.items():
        near = closest_card(name) if closest_card else None
        if near is not None and any(r.card == name for r in records):
            # only a near name is worth a note: a new set's release notes name many cards no table knows yet
            records, said = file_unknown_name(records, name, near, f"the card block {name!r}")
            problems.append(Problem(source, number, said, ignored=True))
    if not records:
        problems.append(Problem(source, None, "release notes with no bulleted rulings"))
    elif date is None:
        problems.append(Problem(source, 1, "release notes with no date in their first lines: their rulings are "
                                "kept undated", ignored=True))
    if prose:
        problems.append(Problem(source, None, f"{prose} lines of introduction, card text and quoted rules are not "
                                "rulings (release notes state rulings as bullets)", ignored=True))
    return ParseResult(tuple(records), tuple(problems))


def _in_general_notes(heading: str, general: bool) -> bool:
    """Whether the bullets under `heading` are general notes (`general`: those above it were). A
    section heading (in capitals: GENERAL NOTES, CARD-SPECIFIC NOTES) says so itself; a sub-heading
    ("New Keyword: Foretell", "Release Dates") is part of the section it is in, unless it names one."""
    heading = _HEADING.sub("", heading)
    if _CARD_NOTES.search(heading):
        return False
    if _GENERAL.search(heading):
        return True
    return general and not heading.isupper()


def _is_heading(line: str) -> bool:
    """A section heading: marked up (`## ...`, a rule of dashes) or a short line in capitals
    (`CARD-SPECIFIC NOTES`), not a mana cost (`XUU`)."""
    if _HEADING.match(line):
        return True
    return (line.isupper() and len(line.split()) <= 8 and not _MANA_COST.match(line)
            and any(len(word) >= 4 and word.isalpha() for word in re.split(r"[\s\-–—:]+", line)))


def _goes_on(previous: str, line: str) -> bool:
    """Whether a line continues the bullet above it (a wrapped line, not the next card's name)."""
    return not previous.rstrip().endswith((".", "!", "?", '"', "”", ")")) or line[:1].islower()


def _card_heading(lines: list[str], i: int, resolve_card: NameResolver | None) -> str | None:
    """The card a card block's first line names: a known card followed by its mana cost or type line,
    or any short name line followed by a mana cost (a card newer than the names the KB knows)."""
    line = normalize_text(lines[i])
    if not line or len(line) > 80 or line.endswith((".", ":", "?", "!")):
        return None  # a sentence of prose or rules text, not a name
    after = next((normalize_text(x) for x in lines[i + 1:i + 3] if x.strip()), "")
    known = resolve_card(line) if resolve_card else None
    if known and (_MANA_COST.match(after) or "—" in after or " - " in after or after.istitle()):
        return known
    if _MANA_COST.match(after) and len(line.split()) <= 7:
        return known or line
    inline = _INLINE_CARD.match(line)
    if inline:  # "Name -- cost -- type": a card the names don't know still has its mana cost there
        found = resolve_card(inline.group("name")) if resolve_card else None
        cost = re.split(r"\s+(?:--|—|–)\s+", line)[1]
        return found or (inline.group("name") if _MANA_COST.match(cost) else None)
    return None
