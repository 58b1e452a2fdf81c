"""The ingest entry point: the one place that walks the file system and reads source files."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Iterable, Sequence

from kb.cards import CardNames
from kb.errors import InputError
from kb.model import CardName, ParseResult, Problem, Record
from kb.parsers import mtgjson, pages
from kb.paths import display_path

MAX_FILE_BYTES = 20 * 1024 * 1024
SOURCE_SUFFIXES = frozenset({".txt", ".json", ".md", ".text", ".htm", ".html"})


class Format(StrEnum):
    CARD_PAGE = "card-page"
    SEARCH_PAGE = "search-page"
    MTGJSON = "mtgjson"


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
    """Files named, and source files under folders named, in a stable order."""
    files: list[Path] = []
    problems: list[Problem] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES
                                and not any(part.startswith(".") for part in p.relative_to(path).parts)))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(Problem(str(path), None, "no such file or folder"))
    return files, problems


def decode(data: bytes) -> str:
    """Text of a source file: UTF-8 (with or without BOM), UTF-16 with a BOM (Notepad's "Unicode"),
    else cp1252; line ends made LF."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            return data.decode("utf-16").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            raise InputError("broken UTF-16 text") from None
    if b"\x00" in data[:8192]:
        raise InputError("binary file, not a text page or JSON")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise InputError("neither UTF-8 nor cp1252 text") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def detect_format(text: str) -> Format:
    if mtgjson.looks_like(text):
        return Format.MTGJSON
    if pages.is_search_page(text):
        return Format.SEARCH_PAGE
    return Format.CARD_PAGE


def parse_text(text: str, source: str, *, names: CardNames, match_clause: pages.ClauseMatcher | None,
               fmt: Format | None = None) -> ParseResult:
    """Parse one source's text with the parser its format calls for (detected unless given)."""
    fmt = fmt or detect_format(text)
    if fmt is Format.MTGJSON:
        return mtgjson.parse(text, source)
    if fmt is Format.SEARCH_PAGE:
        return pages.parse_search_page(text, source, match_clause)
    return pages.parse_card_page(text, source, names.resolve)


def ingest(paths: Sequence[Path], *, names: CardNames, match_clause: pages.ClauseMatcher | None,
           fmt: Format | None = None, on_file=None) -> IngestResult:
    """Read and parse every source under `paths`; problems never stop the other files."""
    files, problems = collect(paths)
    result = IngestResult(problems=problems)
    for path in files:
        source = display_path(path)
        if on_file:
            on_file(source)
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES:
                raise InputError(f"file of {size:,} bytes is over the limit of {MAX_FILE_BYTES:,}")
            text = decode(path.read_bytes())
        except (InputError, OSError) as e:
            result.files.append(source)
            result.problems.append(Problem(source, None, f"file skipped: {e}"))
            continue
        if not text.strip():
            result.files.append(source)
            result.problems.append(Problem(source, None, "file skipped: empty"))
            continue
        result.extend(source, parse_text(text, source, names=names, match_clause=match_clause, fmt=fmt))
    return result
