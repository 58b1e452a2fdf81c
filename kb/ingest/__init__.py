"""The ingest entry point: the one place that walks the file system and reads source files."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from kb.errors import InputError
from kb.model import CardName, ParseResult, Problem, Record
from kb.model import Format as Format  # re-exported: `kb.ingest.Format` names what `--format` takes
from kb.normalize import UNDECODABLE
from kb.ingest import html, mtgjson, notes, pages
from kb.paths import display_path

if TYPE_CHECKING:  # kb.cards reads MTGJSON with the parsers: no import cycle at run time
    from kb.cards import CardNames

MAX_FILE_BYTES = 20 * 1024 * 1024
SOURCE_SUFFIXES = frozenset({".txt", ".json", ".md", ".text", ".htm", ".html"})


@dataclass
class IngestResult:
    records: list[Record] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    card_names: list[CardName] = field(default_factory=list)

    def extend(self, source: str, result: ParseResult) -> None:
        self.files.append(source)
        self.records.extend(result.records)
        self.problems.extend(result.problems)
        self.card_names.extend(result.card_names)


def bundled_sources(corpus: Path) -> list[Path]:
    return sorted((corpus / "seeds").glob("*.txt")) + sorted((corpus / "mtgjson").rglob("*.json"))


def collect(paths: Iterable[Path]) -> tuple[list[Path], list[Problem]]:
    """Regular files named, and source files under folders named, in a stable order; each file once.

    What can't be read is a problem naming it (a FIFO or device, a broken link or a symlink loop,
    an unreadable folder), never silently left out and never opened (a FIFO would block).
    """
    files: list[Path] = []
    problems: list[Problem] = []
    seen: set[tuple[int, int]] = set()

    def add(path: Path, st: os.stat_result) -> None:
        key = (st.st_dev, st.st_ino)
        if key not in seen:  # the same file named twice (or by a link) is read once
            seen.add(key)
            files.append(path)

    for path in paths:
        try:
            st = path.stat()
        except OSError as e:
            problems.append(Problem(source_name(path), None, _os_reason(path, e)))
            continue
        if stat.S_ISDIR(st.st_mode):
            found, trouble = _walk(path)
            problems.extend(trouble)
            for file, file_st in found:
                add(file, file_st)
        elif stat.S_ISREG(st.st_mode):
            add(path, st)
        else:
            problems.append(Problem(source_name(path), None, f"not a regular file ({_kind(st)}); not read"))
    return files, problems


def _walk(folder: Path) -> tuple[list[tuple[Path, os.stat_result]], list[Problem]]:
    """Source files under `folder` (hidden names skipped), sorted; symlinked folders followed once."""
    found: list[tuple[Path, os.stat_result]] = []
    problems: list[Problem] = []
    visited: set[tuple[int, int]] = set()
    left_out: list[str] = []  # files of other kinds (a PDF, a .docx): not read, but named
    pending = [folder]
    while pending:
        current = pending.pop()
        try:
            st = current.stat()
            if (st.st_dev, st.st_ino) in visited:
                continue  # a symlink back to a folder already walked
            visited.add((st.st_dev, st.st_ino))
            with os.scandir(current) as it:
                children = sorted(it, key=lambda d: d.name)
        except OSError as e:
            problems.append(Problem(source_name(current), None, f"folder skipped: {_os_reason(current, e)}"))
            continue
        for child in children:
            if child.name.startswith("."):
                continue
            path = Path(child.path)
            try:
                child_st = path.stat()
            except OSError as e:
                if path.suffix.lower() in SOURCE_SUFFIXES or child.is_symlink():
                    problems.append(Problem(source_name(path), None, _os_reason(path, e)))
                continue
            if stat.S_ISDIR(child_st.st_mode):
                pending.append(path)
            elif path.suffix.lower() in SOURCE_SUFFIXES:
                if stat.S_ISREG(child_st.st_mode):
                    found.append((path, child_st))
                else:
                    problems.append(Problem(source_name(path), None,
                                            f"not a regular file ({_kind(child_st)}); not read"))
            elif stat.S_ISREG(child_st.st_mode):
                left_out.append(os.path.relpath(path, folder))
    found.sort(key=lambda item: item[0].parts)
    if left_out:
        left_out.sort()
        shown = ", ".join(left_out[:5]) + (f" and {len(left_out) - 5} more" if len(left_out) > 5 else "")
        problems.append(Problem(source_name(folder), None, f"{len(left_out)} file{'s' if len(left_out) > 1 else ''} "
                                f"in the folder not read, for their names don't end in "
                                f"{', '.join(sorted(SOURCE_SUFFIXES))}: {shown} (a text page saved under another "
                                "name is read when named on the command line)", ignored=True))
    return found, problems


def _kind(st: os.stat_result) -> str:
    mode = st.st_mode
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file or folder"


def _os_reason(path: Path, e: OSError) -> str:
    if e.errno == errno.ENOENT:
        return "broken link: its target does not exist" if path.is_symlink() else "no such file or folder"
    if e.errno == errno.ELOOP:
        return "symlink loop"
    return e.strerror or str(e)


def source_name(path: Path) -> str:
    """How a file is named in records and problems: display_path of its folder and its own name (a
    link is named as given, not as its target), with bytes of a file name that are not UTF-8 shown as
    escapes (\\xe9), so the name can be stored and printed."""
    try:
        name = str(Path(display_path(path.parent)) / path.name)
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop (Python < 3.13)
        name = str(path.absolute())
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        name = os.fsencode(name).decode("utf-8", "backslashreplace")
    return name


def decode(data: bytes) -> str:
    """Text of a source file: UTF-8 (with or without BOM), UTF-16 with a BOM (Notepad's "Unicode"),
    else line by line UTF-8 or cp1252, so one stray byte does not turn the whole file into mojibake;
    line ends made LF. A line in neither encoding, or a NUL, becomes UNDECODABLE for the parser to
    refuse that unit with its line."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            raise InputError("broken UTF-16 text") from None
    if b"\x00" in data[:8192]:
        raise InputError("binary file, not a text page or JSON")
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = "\n".join(_decode_line(line) for line in data.removeprefix(b"\xef\xbb\xbf").split(b"\n"))
    return text.replace("\x00", UNDECODABLE)


def _decode_line(line: bytes) -> str:
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        pass
    # A UTF-16 byte-order mark inside a line (files pasted together) is no text: read as cp1252 it
    # would end a ruling in "ÿþ" (tryout12)
    line = line.replace(b"\xff\xfe", b"").replace(b"\xfe\xff", b"")
    try:
        return line.decode("cp1252")
    except UnicodeDecodeError:
        return UNDECODABLE + line.decode("cp1252", "replace")


def detect_format(text: str) -> Format:
    if mtgjson.looks_like(text):
        return Format.MTGJSON
    if pages.is_search_page(text):
        return Format.SEARCH_PAGE
    if notes.is_release_notes(text):
        return Format.RELEASE_NOTES
    return Format.CARD_PAGE


def is_mtgjson(data: bytes, stored: str | None) -> bool:
    """Whether a library source is parsed as MTGJSON (an official source: its rulings are Wizards'):
    its stored format, else the one detected (a recovered library stores none)."""
    if stored:
        return stored == Format.MTGJSON.value
    try:
        return detect_format(decode(data)) is Format.MTGJSON
    except InputError:
        return False


# The lines a parser's reason names besides its own ("ruling skipped (line 9: ...)", "(lines 9-11: ...)",
# "...: impossible date ... on line 7", ": line 9 has ..."): of a web page, they are the HTML file's lines too.
# Only where the parsers put them, so a ruling's own words quoted in the reason are left as they are.
_LINE_REF = re.compile(r"(?:(?<=\()|(?<= on )|(?<=: ))(lines?) (\d+)(?:-(\d+))?(?=:|\)| has |$)")


def parse_text(text: str, source: str, *, names: CardNames, match_clause: pages.ClauseMatcher | None,
               fmt: Format | None = None) -> ParseResult:
    """Parse one source's text with the parser its format calls for (detected unless given). A web
    page saved as HTML is parsed as the text it shows; lines are still the HTML file's."""
    if html.looks_like_html(text):
        shown, line_of = html.to_text(text)
        found = parse_text(shown, source, names=names, match_clause=match_clause, fmt=fmt)

        def at(line: int | None) -> int | None:
            return line_of[line - 1] if line and 0 < line <= len(line_of) else line

        def lines_in(reason: str) -> str:
            def mapped(m: re.Match[str]) -> str:
                first, last = at(int(m.group(2))), at(int(m.group(3) or m.group(2)))
                return f"lines {first}-{last}" if last != first else f"line {first}"
            return _LINE_REF.sub(mapped, reason)

        return ParseResult(tuple(replace(r, line=at(r.line) or r.line) for r in found.records),
                           tuple(replace(p, line=at(p.line), reason=lines_in(p.reason)) for p in found.problems),
                           found.card_names)
    detected = detect_format(text)
    found = _parse_as(fmt or detected, text, source, names=names, match_clause=match_clause)
    if found.records:
        lost = lost_symbol_notes(found.records)
        return replace(found, problems=(*found.problems, *lost)) if lost else found
    hints: list[Problem] = []
    if fmt is not None and fmt is not detected:
        # the parser's own advice fits the format forced on it, not the file (a card page's "try
        # --format search-page" for an MTGJSON file): name the format the file looks like, if it reads so
        if _parse_as(detected, text, source, names=names, match_clause=match_clause).records:
            hints.append(Problem(source, None, f"nothing could be read as --format {fmt.value}; the file looks "
                                 f"like {detected.value}: ingest it again without --format (or with --format "
                                 f"{detected.value})", ignored=True))
        else:  # sending the judge back to the format that already failed would go round in circles
            hints.append(Problem(source, None, f"nothing could be read as --format {fmt.value}, nor as "
                                 f"{detected.value}, the format the file looks like", ignored=True))
    lines = [line for line in text.splitlines() if line.strip()]
    if detected is not Format.MTGJSON and _CHECK_FILE.search(text):
        hints.append(Problem(source, 1, "the file is a scenario check file (docs/CHECKS.md), not rulings: "
                             "`kb check FILE` runs it", ignored=True))
    table = _table_delimiter(lines) if detected is not Format.MTGJSON else None
    if table is not None:
        hints.append(Problem(source, 1, f"the file looks like a table ({table} columns, a header "
                             f"{lines[0].strip()[:60]!r}): judge-kb reads card pages, rules-search pages, release "
                             "notes and MTGJSON files, not spreadsheets. Save each card's rulings as a card page: "
                             "the card's name on a line, then one ruling a line after its date "
                             "(`2015-02-25<TAB>ruling text`)", ignored=True))
    if detected is not Format.MTGJSON and len(lines) == 1 and len(lines[0]) > _ONE_LINE_PAGE:
        hints.append(Problem(source, 1, f"the file is one line of {len(lines[0]):,} characters: a page copied "
                             "without its line breaks? Each ruling (and its date) needs a line of its own",
                             ignored=True))
    return replace(found, problems=(*found.problems, *hints)) if hints else found


_ONE_LINE_PAGE = 600  # longer than any one ruling with its date: a whole page run together

_CHECK_FILE = re.compile(r"^checks:\s*$", re.MULTILINE)  # a check file's top-level list (docs/CHECKS.md)
_DELIMITERS = {",": "comma-separated", ";": "semicolon-separated", "\t": "tab-separated"}
_HEADER_CELL = re.compile(r"[\w ./#()-]{1,30}")
_MIN_COLUMNS = 3  # card, date, text: a card's name with a comma ("Urza, Lord High Artificer") is two


def _table_delimiter(lines: Sequence[str]) -> str | None:
    """How a spreadsheet export's columns are separated ("comma-separated"), if `lines` read as one:
    a header of three or more short names ("card,date,text"), and every row after it with at least as
    many cells. A ruling's own commas never make a header of short names."""
    for delimiter, name in _DELIMITERS.items():
        header = [cell.strip().strip('"') for cell in lines[0].split(delimiter)] if lines else []
        if len(header) < _MIN_COLUMNS or not all(_HEADER_CELL.fullmatch(cell) for cell in header):
            continue
        rows = lines[1:11]
        if rows and all(row.count(delimiter) >= len(header) - 1 for row in rows):
            return name
    return None

# Where a page drew a mana symbol as an image, copying its text leaves a gap: "the cost to cast the
# spell is ." ({3} lost), "pay  to turn it face up". A space before a full stop or comma (not an
# ellipsis's ". . .") or two spaces after a cost word; no ruling of the bundled corpus, nor of the
# MTGJSON rulings in the reference data (9,069 texts), has either.
_LOST_SYMBOL = re.compile(r"(?<![.,;:\s])[ \t]+[.,;:](?=\s|$)(?!\s\.)"
                          r"|\b(?:pay|pays|paying|paid|add|adds|costs?|is|of|for|plus)[ \t]{2,}(?=\w)", re.IGNORECASE)


# A gap right after an e-mail address or a link is the address's end, not a lost symbol ("questions to
# moko@cranialinsertion.com , or by tweeting", "…/kaldheim-release-notes-2021-01-22 , posted", tryout29 D9);
# a gap anywhere else in a ruling's sentence may be one, whatever words the sentence has ("turn it face
# up for  , its morph cost": review40 #5)
# (the word is an e-mail address, an address written as one, a host of a site's domain or .info, or a path)
_ADDRESS = re.compile(rf"(?:\S+@\S+\.\w+|{pages.LINK_START}\S+|\S+\.(?:{pages.SITE_DOMAINS}|info)(?:/\S*)?"
                      r"|\S+/\S*[a-z]\S*-\S+)$", re.IGNORECASE)


def _after_address(text: str, gap: re.Match[str]) -> bool:
    """Whether the word right before a gap is an e-mail address or a link."""
    return _ADDRESS.search(text[:gap.start()].rstrip()) is not None


def lost_symbol_notes(records: Sequence[Record]) -> list[Problem]:
    """A note for each ruling whose words show the gap a mana symbol left when its page was copied
    as text (not the end of an address or a link): the ruling is kept as written, and the judge is
    told where to look."""
    gaps: list[Problem] = []
    for record in records:
        match = next((m for m in _LOST_SYMBOL.finditer(record.original) if not _after_address(record.original, m)), None)
        if match:
            start, end = max(0, match.start() - 30), min(len(record.original), match.end() + 10)
            gap = re.sub(r"[ \t]+", " _ ", match.group(0), count=1)  # the gap shown, not folded away
            around = " ".join((record.original[start:match.start()] + gap + record.original[match.end():end]).split())
            gaps.append(Problem(record.source, record.line, f"'…{around}…': a mana symbol lost in the copy? "
                                 "The ruling is kept as written; compare it with the card's page", ignored=True))
    return gaps


def _parse_as(fmt: Format, text: str, source: str, *, names: CardNames,
              match_clause: pages.ClauseMatcher | None) -> ParseResult:
    if fmt is Format.MTGJSON:
        return mtgjson.parse(text, source)
    if fmt is Format.SEARCH_PAGE:
        return pages.parse_search_page(text, source, match_clause, names.resolve, names.closest)
    if fmt is Format.RELEASE_NOTES:
        return notes.parse_release_notes(text, source, names.resolve, names.closest)
    return pages.parse_card_page(text, source, names.resolve, names.oracle_text, names.closest)


def read_source(path: Path) -> tuple[str, bytes | None, str, Problem | None]:
    """(name, bytes, text, problem) of one source file: the problem says why it can't be used."""
    source = source_name(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise InputError(f"file of {size:,} bytes is over the limit of {MAX_FILE_BYTES:,}: split it "
                             "(MTGJSON publishes one file per set)")
        data = path.read_bytes()
        text = decode(data)
    except (InputError, OSError) as e:
        reason = _os_reason(path, e) if isinstance(e, OSError) else str(e)
        return source, None, "", Problem(source, None, f"file skipped: {reason}")
    if not text.strip():
        return source, data, text, Problem(source, None, "file skipped: empty")
    return source, data, text, None


def ingest(paths: Sequence[Path], *, names: CardNames, match_clause: pages.ClauseMatcher | None,
           fmt: Format | None = None, on_file: Callable[[str], None] | None = None) -> IngestResult:
    """Read and parse every source under `paths`; problems never stop the other files. `on_file`
    hears each file once it is done with."""
    files, problems = collect(paths)
    result = IngestResult(problems=problems)
    for path in files:
        source, _, text, problem = read_source(path)
        if problem:
            result.files.append(source)
            result.problems.append(problem)
        else:
            result.extend(source, parse_text(text, source, names=names, match_clause=match_clause, fmt=fmt))
        if on_file:
            on_file(source)
    return result
