"""The CR versions bundled in `<corpus>/rules/`: full texts, plus face-down extracts for dates that
have no full text. `load_rules` parses and aligns them all (cached on disk);
`load_current` parses the newest full text alone."""

from __future__ import annotations

import pickle
import re
import sqlite3
from pathlib import Path
from typing import Any, Callable, Sequence

from kb.cr.lineage import align
from kb.cr.parse import RulesVersion, parse_rules
from kb.cr.query import ClauseReport, RulesCorpus, clause_report
from kb.errors import NotFoundError

_FILE = re.compile(r"^CR-(\d{4})(\d\d)(\d\d)(-facedown-extract)?\.txt$")
# The code the cached RulesCorpus derives from (its pickle names these modules' classes too), and
# the text module that normalises and tokenises its clauses.
_CODE = (*sorted(Path(__file__).parent.glob("*.py")), Path(__file__).parent.parent / "normalize.py")


def rules_dir(corpus_dir: Path) -> Path:
    return corpus_dir / "rules"


def rule_dates(corpus_dir: Path) -> list[str]:
    """The dates of the corpus's CR versions, oldest first (from the file names: nothing is parsed)."""
    return [date for date, _, _ in _rule_files(corpus_dir)]


def _rule_files(corpus_dir: Path) -> list[tuple[str, bool, Path]]:
    """(date, is_extract, path) for every CR file; an extract only where no full text exists."""
    folder = rules_dir(corpus_dir)
    if not folder.is_dir():
        raise NotFoundError(f"no rules folder at {folder}")
    found: dict[str, tuple[str, bool, Path]] = {}
    for path in sorted(folder.iterdir()):
        m = _FILE.match(path.name)
        if not m:
            continue
        date = f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
        extract = bool(m.group(4))
        if date not in found or (found[date][1] and not extract):
            found[date] = (date, extract, path)
    if not found:
        raise NotFoundError(f"no CR-YYYYMMDD.txt files in {folder}")
    return [found[d] for d in sorted(found)]


def load_current(corpus_dir: Path) -> RulesVersion:
    """The newest complete CR only (no alignment), from the disk cache when its text and this code are
    unchanged: unpickling it costs a tenth of parsing it (~0.8 s), which `kb show` did on every call."""
    from kb.store.cache import cached

    full = [f for f in _rule_files(corpus_dir) if not f[1]]
    if not full:
        raise NotFoundError("no complete CR text in the corpus")
    date, _, path = full[-1]
    return cached("currentrules", [path, *_CODE], lambda: parse_rules(path.read_text(encoding="utf-8"), date))


def load_rules(corpus_dir: Path) -> RulesCorpus:
    """Every CR version in `<corpus>/rules/`, aligned (from the disk cache when the CR texts and
    this code are unchanged: 0.1 s instead of seconds). `kb.corpus.Corpus.rules` keeps it per corpus."""
    from kb.store.cache import cached

    return cached("rules", cache_inputs(corpus_dir), lambda: _load_uncached(corpus_dir))


def stored_clause_report(corpus_dir: Path, number: str, rules: Callable[[], RulesCorpus]) -> ClauseReport | None:
    """`clause_report(rules, number)` (no date) of a clause of the current CR, read from a SQLite file
    in the data directory's cache that holds every current clause's report (made on first use from
    `rules()`, ~0.5 s): `kb rule` then reads one row instead of unpickling all the CR versions
    (~0.15 s a call). None for a number the current CR does not have (an older CR's number, an
    unknown one: the caller asks `clause_report`, which says what it is) or when no file can be kept."""
    rows = _stored_rows(corpus_dir, rules, "SELECT report FROM reports WHERE number = ?", (number,))
    if not rows:
        return None
    try:
        report = pickle.loads(rows[0][0])  # noqa: S301 - our own file in the data directory
    except (pickle.UnpicklingError, AttributeError, ImportError, EOFError, TypeError, ValueError):
        return None
    return report if isinstance(report, ClauseReport) else None


def stored_clause_texts(corpus_dir: Path, numbers: Sequence[str], rules: Callable[[], RulesCorpus]) -> dict[str, str] | None:
    """The current CR's text of each clause of `numbers` it has, from the same file as
    `stored_clause_report`: `kb show` quotes the clauses an entry links to without unpickling the
    whole current CR (~0.05 s a call). None when no file can be kept or read."""
    wanted = list(dict.fromkeys(numbers))
    marks = ", ".join("?" * len(wanted))
    rows = _stored_rows(corpus_dir, rules, f"SELECT number, text FROM texts WHERE number IN ({marks})", wanted)
    return None if rows is None else {number: text for number, text in rows}


def _stored_rows(corpus_dir: Path, rules: Callable[[], RulesCorpus], sql: str,
                 params: Sequence[str]) -> list[tuple[Any, ...]] | None:
    """Rows of the current CR's clause file (made on first use: each clause's report and text), or
    None when no file can be kept or it can't be read (the caller derives what it needs)."""
    from kb.store.cache import cached_file

    def make(out: Path) -> None:
        corpus = rules()
        conn = sqlite3.connect(out)
        try:
            with conn:
                conn.execute("CREATE TABLE reports (number TEXT PRIMARY KEY, report BLOB NOT NULL) WITHOUT ROWID")
                conn.executemany("INSERT INTO reports VALUES (?, ?)",
                                 [(n, pickle.dumps(clause_report(corpus, n), protocol=pickle.HIGHEST_PROTOCOL))
                                  for n in corpus.current.clauses])
                conn.execute("CREATE TABLE texts (number TEXT PRIMARY KEY, text TEXT NOT NULL) WITHOUT ROWID")
                conn.executemany("INSERT INTO texts VALUES (?, ?)",
                                 [(n, clause.text) for n, clause in corpus.current.clauses.items()])
        finally:
            conn.close()

    path = cached_file("clausereports", cache_inputs(corpus_dir), make, ".sqlite3")
    if path is None:
        return None
    conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.DatabaseError:  # a damaged file
        return None
    finally:
        conn.close()


def cache_inputs(corpus_dir: Path) -> list[Path]:
    """The files the disk cache of `load_rules` is keyed by: the CR texts and this package's and kb/normalize.py's code."""
    return [*(path for _, _, path in _rule_files(corpus_dir)), *_CODE]


def _load_uncached(folder: Path) -> RulesCorpus:
    files = _rule_files(folder)
    versions = [parse_rules(path.read_text(encoding="utf-8"), date) for date, _, path in files]
    for v, (_, extract, _) in zip(versions, files):
        v.complete = not extract
    lineage, members = align(versions)
    return RulesCorpus(versions, lineage, members)
