"""The KB on disk: one SQLite database, its search index beside it, written atomically.

Layout of the data directory (`kb.paths.home()`)::

    kb.sqlite3            the KB (schema below, documented in docs/STORE.md)
    index/<generation>/   the search index of that build (kb.search); meta `generation` names the live one
    library/<sha256>      a copy of each source of the library (+ .json: its path and format), from
                          which a database SQLite can no longer read is rebuilt
    library/ids.jsonl     every id shown (the id history's rows), appended after each build, so that
                          ids keep resolving in a database rebuilt after damage
    ingest.lock           held while a build runs

A build writes its index folder first, then replaces the derived rows of every entry that changed
(`entries.digest`) in ONE transaction that also records the new generation; the judge's library
(`sources`) changes in that same transaction.
A `kb ingest` killed at any moment therefore leaves the previous KB, library and index in force.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import hashlib
import json
import os
import re
import shutil
import sqlite3
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from kb.forked import not_inherited
from kb.errors import InputError, NotFoundError, StoreError
from kb.lang import LANGUAGE_NAMES, detect
from kb.model import Entry, EntrySummary, Format, Kind, Lang, lang_fields, wording_langs
from kb.normalize import clause_number, write_atomic
from kb.store.digests import Digests

if TYPE_CHECKING:
    from kb.oracle import OracleCard
    from kb.outdated import CopyRow, Level, OutdatedItem, Reason

DB_FILE = "kb.sqlite3"
INDEX_DIR = "index"
LIBRARY_DIR = "library"  # a second copy of each library file, so even a damaged database loses none
ID_LOG = "ids.jsonl"  # in LIBRARY_DIR: the id history's rows, then a mark {"logged": generation, "rows": n}
FIX = "run `kb ingest` to rebuild it"

# Each migration takes the database from version i to i + 1 (PRAGMA user_version).
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE sources (
        sha256 TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, format TEXT, added TEXT NOT NULL,
        units INTEGER NOT NULL, skipped INTEGER NOT NULL, bytes BLOB NOT NULL);
    CREATE TABLE entries (
        id TEXT PRIMARY KEY, ord INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
        first_date TEXT, last_date TEXT, clause TEXT, data TEXT NOT NULL);
    CREATE INDEX entries_ord ON entries(ord);
    CREATE TABLE variants (
        entry_id TEXT NOT NULL REFERENCES entries(id), ord INTEGER NOT NULL, text TEXT NOT NULL,
        wkey TEXT NOT NULL, lang TEXT NOT NULL, date TEXT, source TEXT NOT NULL, line INTEGER,
        relation TEXT NOT NULL, similarity REAL, card TEXT, PRIMARY KEY (entry_id, ord));
    CREATE INDEX variants_wkey ON variants(wkey);
    CREATE INDEX variants_card ON variants(card);
    CREATE TABLE entry_cards (card TEXT NOT NULL, entry_id TEXT NOT NULL REFERENCES entries(id),
        PRIMARY KEY (card, entry_id));
    CREATE TABLE links (entry_id TEXT NOT NULL REFERENCES entries(id), rank INTEGER NOT NULL,
        clause TEXT NOT NULL, score REAL NOT NULL, PRIMARY KEY (entry_id, rank));
    CREATE INDEX links_clause ON links(clause);  -- schema 6 replaces it by links_clause_rows
    CREATE TABLE checks (entry_id TEXT NOT NULL REFERENCES entries(id), check_id TEXT NOT NULL,
        PRIMARY KEY (entry_id, check_id));
    CREATE TABLE outdated (entry_id TEXT NOT NULL REFERENCES entries(id), ord INTEGER NOT NULL,
        data TEXT NOT NULL, PRIMARY KEY (entry_id, ord));
    CREATE TABLE card_names (folded TEXT NOT NULL, name TEXT NOT NULL, lang TEXT NOT NULL,
        card TEXT NOT NULL, PRIMARY KEY (folded, card));
    CREATE TABLE id_history (id TEXT NOT NULL, wkey TEXT NOT NULL, first_generation INTEGER NOT NULL,
        PRIMARY KEY (id, wkey));
    CREATE TABLE problems (ord INTEGER PRIMARY KEY, source TEXT NOT NULL, line INTEGER,
        reason TEXT NOT NULL, ignored INTEGER NOT NULL, kind TEXT NOT NULL);
    """,
    # 2: what `kb rule` lists of a linked entry without decoding it (cards in their order, the link's
    # number at the ruling's date and evidence), and what `kb outdated --summary` counts of an outdated
    # copy without decoding its JSON. Rows of an older build lack them: rebuild.
    """
    ALTER TABLE entries ADD COLUMN cards TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE links ADD COLUMN at_ruling_date TEXT;
    ALTER TABLE links ADD COLUMN evidence TEXT NOT NULL DEFAULT '';
    ALTER TABLE outdated ADD COLUMN text TEXT NOT NULL DEFAULT '';
    ALTER TABLE outdated ADD COLUMN lang TEXT NOT NULL DEFAULT '';
    ALTER TABLE outdated ADD COLUMN card TEXT;
    ALTER TABLE outdated ADD COLUMN date TEXT;
    ALTER TABLE outdated ADD COLUMN kinds TEXT NOT NULL DEFAULT '';
    INSERT OR REPLACE INTO meta VALUES ('stale', '"written by an older judge-kb (schema 1)"');
    """,
    # 3: a digest of everything a build writes for an entry (its row, variants, links, checks,
    # outdated items), so a build rewrites only the entries that changed. Older rows have none and
    # are rewritten by the next build; until then they read as before.
    """
    ALTER TABLE entries ADD COLUMN digest TEXT NOT NULL DEFAULT '';
    """,
    # 4: a wording's text as written beside its key, so an id whose every wording has left the KB
    # says what it read in the page's words, not the folded key. Older rows have none (the key is
    # shown) until a build writes the wording again.
    """
    ALTER TABLE id_history ADD COLUMN text TEXT;
    """,
    # 5: the card data (cost, type, Oracle text, names) of the MTGJSON files in the library, so `kb card`
    # shows a card newer than the bundled data once a judge ingests its set's file. Empty until a build:
    # a KB whose library holds an MTGJSON file is marked stale, so it is rebuilt before it is read.
    """
    CREATE TABLE source_cards (card TEXT PRIMARY KEY, source TEXT NOT NULL, data TEXT NOT NULL);
    INSERT OR REPLACE INTO meta SELECT 'stale', '"written by an older judge-kb (schema 4)"'
        WHERE EXISTS (SELECT 1 FROM sources WHERE format = 'mtgjson');
    """,
    # 6: `kb rule` reads a clause's link rows from the index alone (~4,400 rows for 708.2a at 100k
    # rulings: 20 ms of row lookups warm, more from a cold disk, against 2 ms). Rows are unchanged.
    """
    CREATE INDEX IF NOT EXISTS links_clause_rows ON links(clause, entry_id, rank, score);
    DROP INDEX IF EXISTS links_clause;
    """,
    # 7: the source file a wording came from beside it, so an id whose wording was edited in its file
    # (a judge fixing a phrase and ingesting the page again) follows the revised wording of that file
    # instead of being "gone". NULL in older rows until the wording is written again.
    """
    ALTER TABLE id_history ADD COLUMN source TEXT;
    """,
    # 8: a CR clause's entry id beside its clause number (key "clause:508.2"), so the id still names
    # the clause should a later judge-kb trace the clause's history otherwise (the id comes from the
    # number the clause had when first seen): the rows of the clauses this KB has shown so far.
    """
    INSERT OR IGNORE INTO id_history SELECT id, 'clause:' || clause, 0, text, NULL FROM entries
        WHERE kind = 'rule' AND clause GLOB '[0-9]*';
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
DERIVED_TABLES = ("variants", "entry_cards", "links", "checks", "outdated", "card_names", "problems", "entries")

CLAUSE_KEY = "clause:"  # id_history's key of a CR clause's entry: "clause:508.2"
_HEX = re.compile(r"[0-9a-f]+")  # an entry id's digest part (r-617b992fa5 without its r-)


@dataclass(frozen=True)
class Source:
    """A file of the judge's library: its bytes are kept, so the KB can always be rebuilt."""

    sha256: str
    path: str
    format: str | None
    added: str
    units: int
    skipped: int

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "sha256": self.sha256, "added": self.added,
                "units": self.units, "skipped": self.skipped}


@dataclass(frozen=True)
class NewSource:
    """A library file about to be added (or to replace the file at the same path)."""

    path: str
    sha256: str
    data: bytes
    format: str | None
    units: int
    skipped: int


@dataclass(frozen=True)
class LinkedEntry:
    """An entry as `kb rule` lists it under a clause: its link to that clause, the entry undecoded."""

    id: str
    kind: Kind
    text: str
    cards: tuple[str, ...]
    first_date: str | None
    score: float
    rank: int  # 1 = the entry's first (best) link
    at_ruling_date: str | None
    evidence: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind.value, "text": self.text, "cards": list(self.cards),
                "first_date": self.first_date, "score": self.score, "rank": self.rank,
                "at_ruling_date": self.at_ruling_date, "evidence": self.evidence}


@dataclass(frozen=True)
class CardEntry:
    """An entry as `kb card` lists it under a card, read from columns (a shared ruling's entry holds
    thousands of copies at 100k rulings: decoding them cost ~0.2 s a card)."""

    id: str
    kind: Kind
    text: str
    first_date: str | None
    langs: tuple[str, ...]  # the languages of its wordings, sorted
    card_dates: tuple[str, ...]  # the dates this card's own copies carry, sorted


@dataclass(frozen=True)
class Resolved:
    """An entry found by id, with a note when the id was an older one that moved."""

    entry: Entry
    moved_from: str | None = None
    why: str = "new data joined or re-anchored its ruling"  # why it moved, for the note


# --- opening -----------------------------------------------------------------------------------

def db_path(home: Path) -> Path:
    return home / DB_FILE


def connect(home: Path, *, create: bool = False) -> sqlite3.Connection:
    """A connection to the KB database, migrated to the current schema (StoreError if it can't be)."""
    path = db_path(home)
    if not create and not path.is_file():
        raise StoreError(f"no KB in {home}; {FIX}")
    if create:
        home.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        raise DamagedStore(f"the KB database {path} can't be read ({e})") from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreError(f"the KB database {path} has schema {version}, newer than this judge-kb "
                         f"understands ({SCHEMA_VERSION}); upgrade judge-kb (`pip install -e .` in a newer clone)")
    if version < SCHEMA_VERSION:
        _migrate(conn, version)
    return conn


class DamagedStore(StoreError):
    """The database file itself can't be read; `set_aside` keeps it and lets a rebuild start afresh."""


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    with transaction(conn):
        # another process may have migrated between our first look and this write lock
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        for step in MIGRATIONS[version:]:
            for statement in step.split(";"):
                if statement.strip():
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def set_aside(home: Path) -> Path:
    """Move an unreadable database out of the way (kept for inspection); returns where it went."""
    path = db_path(home)
    target = path.with_name(f"{DB_FILE}.damaged-{time.strftime('%Y%m%dT%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(f"{path}{suffix}", f"{target}{suffix}")
    return target


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def exists(home: Path) -> bool:
    """True when the data directory holds a built KB (a generation has been committed)."""
    try:
        return _committed(home) is not None
    except sqlite3.DatabaseError:
        return True  # it exists but is damaged: `load` says so and the CLI rebuilds


def generation(home: Path) -> int | None:
    """The generation last committed in the data directory, or None when there is none or the
    database can't be read: two equal answers around a build mean it wrote nothing."""
    try:
        return _committed(home)
    except sqlite3.DatabaseError:
        return None


def _committed(home: Path) -> int | None:
    """The committed generation, None when there is none; sqlite3.DatabaseError for a damaged file."""
    if not db_path(home).is_file():
        return None
    conn = sqlite3.connect(f"file:{db_path(home)}?mode=ro", uri=True, timeout=30)
    try:
        # a database another process has only just created has no tables yet: not built, not damaged
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").fetchone() is None:
            return None
        row = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    finally:
        conn.close()
    return None if row is None else int(json.loads(row[0]))


# Meta values of many kilobytes at 100k rulings, which only some commands read: the KB reads them on use.
LARGE_META = ("report", "outdated_summaries")


def get_meta(conn: sqlite3.Connection, leave_out: Sequence[str] = ()) -> dict[str, Any]:
    """The meta table decoded, but for the keys `leave_out`."""
    marks = ",".join("?" * len(leave_out))
    return {key: json.loads(value) for key, value in conn.execute(
        f"SELECT key, value FROM meta WHERE key NOT IN ({marks})", tuple(leave_out))}


# Ids a query names with `IN (?, ...)` go in chunks of this many, below SQLite's variable limit.
_IN_CHUNK = 500
# A gone id follows a wording its own file now gives in its place (`KB._revised`) when that keeps more
# than this share of its words, aligned ("most of the old words"), and this much more than any other
# wording of the file (tryout19: "tu oponente no puede mirarlo" -> "tus oponentes no pueden mirarlo, pero
# tú sí puedes"; tryout21: "The number of creatures you control is counted when ..." -> "Mastery of the
# Unseen's first ability counts the creatures you control as ...", 9 of 17 words)
EDITED_KEPT = 0.5
EDITED_MARGIN = 0.2


def _is_digest_of(entry_id: str, wkey: str, digest_id: Any) -> bool:
    """`entry_id` is the id of the wording `wkey` anchors (its digest's first window: `kb.ingest.ids.digest_id`)."""
    kind = wkey.split(":", 1)[0]
    try:
        return bool(digest_id(Kind(kind), wkey, set()) == entry_id)
    except ValueError:
        return False


def _in_chunks(ids: Sequence[str]) -> Iterator[tuple[Sequence[str], str]]:
    """The ids in chunks of `_IN_CHUNK`, each with its `?,?,...` placeholders."""
    for start in range(0, len(ids), _IN_CHUNK):
        chunk = ids[start:start + _IN_CHUNK]
        yield chunk, ",".join("?" * len(chunk))


def _meta_value(conn: sqlite3.Connection, key: str) -> Any:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return json.loads(row[0]) if row else None


def stale_reason(meta: dict[str, Any]) -> str | None:
    """Why the derived rows must be rebuilt from the sources (a migration added columns that only a
    build fills), or None when they are current."""
    if "generation" not in meta or "stale" not in meta:
        return None
    return str(meta["stale"])


# --- the library of the judge's sources --------------------------------------------------------

def library(conn: sqlite3.Connection) -> list[Source]:
    rows = conn.execute("SELECT sha256, path, format, added, units, skipped FROM sources ORDER BY path")
    return [Source(*row) for row in rows]


def library_bytes(conn: sqlite3.Connection) -> list[tuple[str, bytes]]:
    """(path, bytes) of every library source, in path order (the build's input order)."""
    return [(p, bytes(b)) for p, b in conn.execute("SELECT path, bytes FROM sources ORDER BY path")]


@dataclass(frozen=True)
class SourceEntries:
    """The entries of the KB that hold wordings of some sources, as a build left them: what `kb ingest`
    and `kb remove` compare before and after to say which entries a file brought, changed or took out."""

    ids: frozenset[str]  # every entry id of the KB
    # source -> entry id -> the (text, lang, card) of each wording of that source the entry holds
    wordings: dict[str, dict[str, frozenset[tuple[str, str, str | None]]]]
    names: dict[str, dict[str, str]]  # card (English) -> lang -> its name, for the cards of those wordings


def source_entries(home: Path, sources: Sequence[str]) -> SourceEntries:
    """`SourceEntries` of `sources` in the KB of `home` (empty when it has no database yet)."""
    if not sources or not db_path(home).is_file():
        return SourceEntries(frozenset(), {s: {} for s in sources}, {})
    conn = connect(home)
    try:
        ids = frozenset(r[0] for r in conn.execute("SELECT id FROM entries"))
        wordings: dict[str, dict[str, set[tuple[str, str, str | None]]]] = {s: {} for s in sources}
        for chunk, marks in _in_chunks(list(dict.fromkeys(sources))):
            for entry_id, source, text, lang, card in conn.execute(
                    f"SELECT entry_id, source, text, lang, card FROM variants WHERE source IN ({marks})", chunk):
                wordings[source].setdefault(entry_id, set()).add((text, lang, card))
        cards = sorted({card for held in wordings.values() for said in held.values() for _, _, card in said if card})
        names: dict[str, dict[str, str]] = {}
        for chunk, marks in _in_chunks(cards):
            for card, lang, name in conn.execute(f"SELECT card, lang, name FROM card_names WHERE card IN ({marks}) "
                                                 "ORDER BY card, lang, name", chunk):
                names.setdefault(card, {}).setdefault(lang, name)
    finally:
        conn.close()
    return SourceEntries(ids, {s: {e: frozenset(w) for e, w in held.items()} for s, held in wordings.items()}, names)


# --- writing a build ---------------------------------------------------------------------------

def write(home: Path, entries: Sequence[Entry], *, report: dict[str, Any], meta: dict[str, Any],
          outdated: Sequence[dict[str, Any]] = (), card_names: Iterable[tuple[str, str, str]] = (),
          source_cards: Iterable[tuple[str, OracleCard]] = (),
          problems: Sequence[Any] = (), check_problems: Sequence[Any] = (),
          add: Sequence[NewSource] = (), remove: Sequence[str] = (),
          build_index: Any = None, digests: Digests | None = None) -> int:
    """Replace the KB with a new build in one transaction; returns the new generation.

    `build_index(folder)` writes the search index into the (empty) folder once the rows are written,
    before the transaction commits; `add`/`remove`
    change the library in the same transaction; `digests` are the build's (`kb.store.digests`).
    `source_cards` are (library source, card) of the library's MTGJSON files, the first of each
    card name kept. Every id shown is kept in the id history with the
    wordings it held, so it resolves later. Anything that fails leaves the old KB in force.
    """
    conn = connect(home, create=True)
    try:
        generation = int(get_meta(conn, leave_out=LARGE_META).get("generation", 0)) + 1
        index_root = home / INDEX_DIR
        folder = index_root / str(generation)
        if folder.exists():  # left by a killed build that never committed (callers hold the lock)
            shutil.rmtree(folder)
        meta = dict(meta, index_corpus_hash=None)
        added = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        for s in add:  # before the transaction: bytes nobody lists yet are harmless (`_keep_copy`)
            _keep_copy(home, s, None)
        by_entry: dict[str, list[dict[str, Any]]] = {}
        for item in outdated:
            by_entry.setdefault(item["entry"], []).append(item)
        digests = digests if digests is not None else Digests()
        code = _row_code()
        rows = [_EntryRows(e, by_entry.get(e.id, []), digests, code) for e in entries]
        with transaction(conn):
            for sha in remove:
                conn.execute("DELETE FROM sources WHERE sha256 = ?", (sha,))
            for s in add:
                conn.execute("DELETE FROM sources WHERE path = ? OR sha256 = ?", (s.path, s.sha256))
                conn.execute("INSERT INTO sources VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (s.sha256, s.path, s.format, added, s.units, s.skipped, s.data))
            fresh = _clear_changed(conn, rows)
            for ord_, row in enumerate(rows):
                if row.entry.id in fresh:
                    _insert_entry(conn, row, ord_, generation)
            conn.executemany("UPDATE entries SET ord = ? WHERE id = ? AND ord != ?",
                             [(ord_, row.entry.id, ord_) for ord_, row in enumerate(rows)
                              if row.entry.id not in fresh])
            for table in ("card_names", "problems", "source_cards"):
                conn.execute(f"DELETE FROM {table}")
            conn.executemany("INSERT OR IGNORE INTO card_names VALUES (?, ?, ?, ?)",
                             [(name.casefold(), name, lang, card) for name, lang, card in card_names])
            conn.executemany("INSERT OR IGNORE INTO source_cards VALUES (?, ?, ?)",
                             [(card.name, source, json.dumps(card.to_json(), ensure_ascii=False, sort_keys=True))
                              for source, card in source_cards])
            conn.executemany("INSERT INTO problems VALUES (?, ?, ?, ?, ?, ?)",
                             [(i, p.source, p.line, p.reason, int(p.ignored), kind)
                              for i, (p, kind) in enumerate([(p, "ingest") for p in problems]
                                                            + [(p, "check") for p in check_problems])])
            # The index last, in the transaction: a build that makes it beside the rows (`kb.build`,
            # a forked child) waits for it only now; nothing commits until it is in place.
            if build_index is not None:
                tmp = index_root / f".tmp-{generation}-{os.getpid()}"
                shutil.rmtree(tmp, ignore_errors=True)
                tmp.mkdir(parents=True)
                try:
                    build_index(tmp)
                except BaseException:
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
                os.replace(tmp, folder)
                meta = dict(meta, index_corpus_hash=_index_corpus_hash(folder))
            conn.execute("DELETE FROM meta WHERE key = 'stale'")
            values = dict(meta, generation=generation, report=report,
                          counts=_counts(entries, problems, check_problems, report))
            # the digest is kept inside the summaries' value: a writer that replaces them without
            # one (an older judge-kb on the same data directory) can't leave a digest they don't match
            digest = _outdated_digest(rows)
            if digest != _recorded_outdated_digest(conn):  # else the stored ones hold
                values["outdated_summaries"] = dict(_outdated_summaries(conn), digest=digest)
            conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                             [(k, json.dumps(v, ensure_ascii=False)) for k, v in values.items()])
        _prune_index(index_root, keep={generation, generation - 1})
        _sync_library(home, conn, generation)
        return generation
    finally:
        conn.close()


def _outdated_digest(rows: Sequence[_EntryRows]) -> str:
    """SHA-1 of every outdated row a build writes (entry ids and items): when it is the one the
    recorded outdated summaries hold, so are they, and reading every outdated row again is skipped.
    The code that summarises them is part of it."""
    from kb import outdated
    from kb.store.cache import key_of, module_files

    h = hashlib.sha1(key_of([*module_files(outdated), Path(__file__)]).encode())
    for row in rows:
        for item in row.outdated_json:
            h.update(f"{row.entry.id}\0{item}\0".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _recorded_outdated_digest(conn: sqlite3.Connection) -> str | None:
    """The `_outdated_digest` the recorded outdated summaries were made for (None: unknown)."""
    row = conn.execute("SELECT json_extract(value, '$.digest') FROM meta WHERE key = 'outdated_summaries'").fetchone()
    return row[0] if row and isinstance(row[0], str) else None


def _outdated_summaries(conn: sqlite3.Connection) -> dict[str, Any]:
    """`kb outdated --summary` without a filter, for each choice of levels (`summary_key`), from the
    outdated rows just written: ~9,000 copies at 100k rulings, grouped on every call, took ~0.2 s."""
    from kb.outdated import Level, summarize_copies

    copies = _outdated_copies(conn)
    return {summary_key(levels): summarize_copies(copies, levels)
            for levels in ({Level.OUTDATED}, {Level.REVIEW}, {Level.OUTDATED, Level.REVIEW})}


def summary_key(levels: Iterable[Level]) -> str:
    """The key of a recorded outdated summary: its levels, sorted, joined by "+"."""
    return "+".join(sorted(level.value for level in levels))


def _outdated_copies(conn: sqlite3.Connection, *, card: str | None = None, lang: Lang | None = None,
                     since: str | None = None, reason: Reason | None = None, undated: bool = False) -> list[CopyRow]:
    """The outdated copies matching every filter (as `kb.outdated.filter_items`), for counting:
    read from columns, no JSON decoded. `card` is the card the copy was given for; `undated`: only
    the copies with no date."""
    from kb.outdated import CopyRow, Reason

    where: list[str] = ["1"]
    params: list[str] = []
    for column, value in (("card", card), ("lang", lang.value if lang else None)):
        if value is not None:
            where.append(f"{column} = ?")
            params.append(value)
    if since:
        where.append("coalesce(date, '') >= ?")
        params.append(since)
    if undated:
        where.append("date IS NULL")
    rows = conn.execute(f"SELECT entry_id, text, card, kinds FROM outdated WHERE {' AND '.join(where)}", params)
    copies = [CopyRow(entry, text, c, tuple(Reason(k) for k in kinds.split(",") if k))
              for entry, text, c, kinds in rows]
    return [c for c in copies if reason is None or reason in c.kinds]


def _counts(entries: Sequence[Entry], problems: Sequence[Any], check_problems: Sequence[Any],
            report: dict[str, Any]) -> dict[str, Any]:
    """What `KB.stats` reports of the rows this build writes, counted while they are in memory: the
    same aggregates in SQL scan every variant row (~0.4 s at 100k rulings, on every `kb stats`), and
    the build report's figures (its JSON is ~3 MB at 100k rulings: every skipped stub)."""
    by_kind: Counter[str] = Counter(e.kind.value for e in entries)
    relations: Counter[str] = Counter()
    langs: Counter[str] = Counter()
    for e in entries:
        relations.update(v.relation.value for v in e.variants)
        langs.update(v.lang.value for v in e.variants)
    return {
        "entries": len(entries),
        "entries_by_kind": dict(sorted(by_kind.items())),
        "variants": sum(relations.values()),
        "variants_by_relation": dict(sorted(relations.items())),
        "variants_by_lang": dict(sorted(langs.items())),
        "cards": len({c for e in entries for c in e.cards}),
        "skipped": sum(1 for p in problems if not p.ignored),
        "ignored": sum(1 for p in problems if p.ignored),
        "check_problems": len(check_problems),
        "source_files": len(report.get("files", [])),
        "parsed": report.get("parsed"),
        "stored": report.get("stored"),
    }


class _EntryRows:
    """The rows a build writes for one entry, and their digest: whether the stored rows differ.

    The digest is `Digests.whole` (everything the entry holds, every digit of its link scores and
    variant similarities) with its outdated items and `_row_code` (the code that turns an entry
    into rows: its JSON, its wording keys), so equal digests mean equal rows. The JSON, the wording
    keys and the row tuples are made only for the entries written: adding one page writes a few."""

    def __init__(self, entry: Entry, outdated: list[dict[str, Any]], digests: Digests, code: str) -> None:
        self.entry = entry
        self._outdated = outdated
        self.outdated_json = [json.dumps(item, ensure_ascii=False) for item in outdated]
        h = hashlib.sha1()
        for part in (code, digests.whole(entry), *self.outdated_json):
            h.update(part.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
        self.digest = h.hexdigest()

    @cached_property
    def data(self) -> str:
        return json.dumps(self.entry.to_store(), ensure_ascii=False)

    @cached_property
    def cards(self) -> str:
        return json.dumps(list(self.entry.cards), ensure_ascii=False)

    @cached_property
    def keys(self) -> list[str]:
        from kb.ingest.ids import wording_key

        return [wording_key(self.entry.kind, v.text) for v in self.entry.variants]

    @property
    def variants(self) -> list[tuple[Any, ...]]:
        e = self.entry
        return [(e.id, i, v.text, key, v.lang.value, v.date, v.source, v.line, v.relation.value, v.similarity, v.card)
                for i, (v, key) in enumerate(zip(e.variants, self.keys))]

    @property
    def links(self) -> list[tuple[Any, ...]]:
        e = self.entry
        return [(e.id, i, r.clause, r.score, r.at_ruling_date, r.evidence) for i, r in enumerate(e.rules)]

    @property
    def outdated(self) -> list[tuple[Any, ...]]:
        return [(self.entry.id, n, text, item["variant"]["text"], item["variant"]["lang"], item["variant"]["card"],
                 item["variant"]["date"], ",".join(r["kind"] for r in item["reasons"]))
                for n, (item, text) in enumerate(zip(self._outdated, self.outdated_json))]


def _row_code() -> str:
    """A digest of the code that turns an entry into its rows (its JSON, its wording keys, the row
    tuples): a row digest changes with it, so rows written by other code are written again."""
    from kb import model, normalize
    from kb.ingest import ids
    from kb.store.cache import key_of, module_files

    return key_of([*module_files(model, normalize, ids), Path(__file__)])


# Above this share of changed entries, clearing the derived tables and writing every row is cheaper.
_REWRITE_ALL = 0.25


def _clear_changed(conn: sqlite3.Connection, rows: Sequence[_EntryRows]) -> set[str]:
    """Delete the stored rows of entries that are gone or whose digest changed; the ids to insert.

    Adding one page to a large KB thus writes the few entries it touched, not every row again
    (the ids history is never deleted: an id once shown keeps resolving)."""
    stored = dict(conn.execute("SELECT id, digest FROM entries"))
    changed = {row.entry.id for row in rows if stored.get(row.entry.id) != row.digest}
    gone = stored.keys() - {row.entry.id for row in rows}
    if len(changed) + len(gone) > _REWRITE_ALL * max(len(stored), 1):
        for table in DERIVED_TABLES:
            if table not in ("card_names", "problems"):
                conn.execute(f"DELETE FROM {table}")
        return {row.entry.id for row in rows}
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS stale (id TEXT PRIMARY KEY)")
    conn.execute("DELETE FROM temp.stale")
    conn.executemany("INSERT INTO temp.stale VALUES (?)", [(i,) for i in changed | gone])
    for table in DERIVED_TABLES:
        if table == "entries":
            conn.execute("DELETE FROM entries WHERE id IN (SELECT id FROM temp.stale)")
        elif table not in ("card_names", "problems"):
            conn.execute(f"DELETE FROM {table} WHERE entry_id IN (SELECT id FROM temp.stale)")
    conn.execute("DELETE FROM temp.stale")
    return changed


def _insert_entry(conn: sqlite3.Connection, row: _EntryRows, ord_: int, generation: int) -> None:
    from kb.ingest.ids import digest_id

    e = row.entry
    conn.execute("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                 (e.id, ord_, e.kind.value, e.text, e.first_date, e.last_date, e.clause, row.data, row.cards,
                  row.digest))
    conn.executemany("INSERT INTO variants VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row.variants)
    # Every id that any of its wordings would be named by (ids are digests of an anchor
    # wording): ids shown by an earlier judge-kb, whose entries anchored elsewhere or
    # were built before this store kept a history, resolve to the entry holding it now.
    said = {key: (v.text, v.source) for key, v in reversed(list(zip(row.keys, e.variants)))}  # a key's first wording
    history: list[tuple[str, str, int, str | None, str | None]] = [
        (id_, key, generation, text, source) for key, (text, source) in sorted(said.items())
        for id_ in dict.fromkeys((e.id, digest_id(e.kind, key, set())))]
    if e.kind is Kind.RULE and e.clause and e.clause[:1].isdigit():
        # a clause's id follows its identity across CRs (`kb.cr.entries`); should a later judge-kb
        # trace that identity anew, the id shown for the clause still names it (`KB._moved`)
        history.append((e.id, CLAUSE_KEY + e.clause, generation, e.text, None))
    conn.executemany("INSERT INTO id_history VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET text = "
                     "coalesce(id_history.text, excluded.text), source = coalesce(id_history.source, excluded.source)",
                     history)
    conn.executemany("INSERT OR IGNORE INTO entry_cards VALUES (?, ?)", [(c, e.id) for c in e.cards])
    conn.executemany("INSERT INTO links VALUES (?, ?, ?, ?, ?, ?)", row.links)
    conn.executemany("INSERT INTO checks VALUES (?, ?)", [(e.id, c) for c in e.checks])
    conn.executemany("INSERT INTO outdated VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row.outdated)


def _index_corpus_hash(folder: Path) -> str | None:
    """The corpus hash the search index in `folder` records (its meta.json), kept in the KB's meta so a
    reader can tell that an index folder is this generation's without hashing every entry."""
    try:
        value = json.loads((folder / "meta.json").read_text(encoding="utf-8")).get("corpus_hash")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, str) else None


def _keep_copy(home: Path, source: NewSource, added: str | None) -> None:
    """A library copy of a source: its bytes, and with `added` its `.json` (the `sources` row without the
    bytes). A build writes the bytes before its transaction and the `.json` after the commit
    (`_sync_library`), so a copy a killed build leaves has no `.json` and no recovery adopts it."""
    folder = home / LIBRARY_DIR
    folder.mkdir(parents=True, exist_ok=True)
    if added is None or not (folder / source.sha256).is_file():
        write_atomic(folder / source.sha256, source.data)
    if added is not None:
        write_json_atomic(folder / f"{source.sha256}.json",
                          {"path": source.path, "format": source.format, "added": added,
                           "units": source.units, "skipped": source.skipped})


def _prune_library(home: Path, keep: set[str]) -> None:
    folder = home / LIBRARY_DIR
    if folder.is_dir():
        for item in folder.iterdir():
            if item.name != ID_LOG and item.name.split(".")[0] not in keep:
                item.unlink(missing_ok=True)


def _sync_library(home: Path, conn: sqlite3.Connection, generation: int) -> None:
    """After a build commits, make `library/` what the database holds: a copy of every source (a judge
    who deleted the folder gets it back) and the id history in `ids.jsonl`. Run after the commit, so a
    build killed here loses nothing: the next build writes what is missing."""
    folder = home / LIBRARY_DIR
    held = {sha for (sha,) in conn.execute("SELECT sha256 FROM sources")}
    _prune_library(home, held)
    present = {p.name for p in folder.iterdir()} if folder.is_dir() else set()
    for sha in sorted(held):
        if sha not in present or f"{sha}.json" not in present:
            path, format_, added, units, skipped, data = conn.execute(
                "SELECT path, format, added, units, skipped, bytes FROM sources WHERE sha256 = ?", (sha,)).fetchone()
            _keep_copy(home, NewSource(path=path, format=format_, sha256=sha, data=data, units=units,
                                       skipped=skipped), added)
    _log_ids(folder / ID_LOG, conn, generation)


def _log_ids(path: Path, conn: sqlite3.Connection, generation: int) -> None:
    """Append the id history rows first written since the log's last mark, and a new mark; rewrite
    the whole log (atomically) when it is missing or does not add up to the table (a database rebuilt
    after damage starts its generations again)."""
    rows = int(conn.execute("SELECT count(*) FROM id_history").fetchone()[0])
    mark = _last_mark(path)
    if mark is not None and mark == (generation, rows):
        return
    query = "SELECT id, wkey, first_generation, text, source FROM id_history"
    if mark is not None and mark[0] < generation:
        new = conn.execute(f"{query} WHERE first_generation > ? ORDER BY first_generation, id, wkey",
                           (mark[0],)).fetchall()
        if mark[1] + len(new) == rows:
            with open(path, "a", encoding="utf-8") as out:
                out.writelines(json.dumps(list(r), ensure_ascii=False) + "\n" for r in new)
                out.write(json.dumps({"logged": generation, "rows": rows}) + "\n")
                out.flush()
                os.fsync(out.fileno())
            return
    lines = [json.dumps(list(r), ensure_ascii=False) + "\n"
             for r in conn.execute(f"{query} ORDER BY first_generation, id, wkey")]
    lines.append(json.dumps({"logged": generation, "rows": rows}) + "\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, "".join(lines).encode("utf-8"))


def _last_mark(path: Path) -> tuple[int, int] | None:
    """(generation, rows) of the log's last line when it is a mark: None for a missing log or one
    whose last append was cut off (it is then rewritten whole)."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 4096))
            tail = f.read()
    except OSError:
        return None
    if not tail.endswith(b"\n"):
        return None
    try:
        mark = json.loads(tail.rstrip(b"\n").rsplit(b"\n", 1)[-1])
        return int(mark["logged"]), int(mark["rows"])
    except (ValueError, TypeError, KeyError):
        return None


def needs_recovery(home: Path, conn: sqlite3.Connection) -> bool:
    """Whether a database holds no committed build and no source while `library/` holds copies: a new
    database (the old one damaged or deleted), or one whose recovery or first build was killed."""
    if not (home / LIBRARY_DIR).is_dir():
        return False
    return (conn.execute("SELECT 1 FROM meta WHERE key = 'generation'").fetchone() is None
            and conn.execute("SELECT 1 FROM sources LIMIT 1").fetchone() is None)


def recover(home: Path, conn: sqlite3.Connection) -> tuple[list[str], int]:
    """Put the kept copies of library files into a (new, empty) database's `sources`, and the logged id
    history into its `id_history`, in one transaction (a kill leaves the database empty, to be
    recovered again); (the sources' paths, how many ids)."""
    with transaction(conn):
        return _recover_sources(home, conn), _recover_ids(home, conn)


def _recover_ids(home: Path, conn: sqlite3.Connection) -> int:
    """The logged id history into `id_history`, so the ids shown before the damage still resolve once
    the rebuild has written its entries; how many ids. The logged generations are moved below the new
    database's first (0 for the latest), keeping their order."""
    try:
        lines = (home / LIBRARY_DIR / ID_LOG).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 0
    rows = []
    for line in lines:
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line cut off by a killed append
        if isinstance(row, list) and len(row) == 5 and isinstance(row[2], int):
            rows.append(row)
    if not rows:
        return 0
    last = max(r[2] for r in rows)
    conn.executemany("INSERT OR IGNORE INTO id_history VALUES (?, ?, ?, ?, ?)",
                     [(id_, wkey, generation - last, text, source) for id_, wkey, generation, text, source in rows])
    return len({r[0] for r in rows})


def _recover_sources(home: Path, conn: sqlite3.Connection) -> list[str]:
    """The kept copies of library files into `sources` (a copy whose bytes no longer match its name,
    or without its `.json`, which is written only once its source is committed, is left out); their paths."""
    folder = home / LIBRARY_DIR
    recovered: list[str] = []
    if not folder.is_dir():
        return recovered
    for info in sorted(folder.glob("*.json")):
        sha = info.name[: -len(".json")]
        try:
            data = (folder / sha).read_bytes()
            about = json.loads(info.read_text(encoding="utf-8"))
            if hashlib.sha256(data).hexdigest() != sha:
                continue
            conn.execute("INSERT OR REPLACE INTO sources VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (sha, about["path"], about.get("format"), about.get("added", ""),
                          int(about.get("units", 0)), int(about.get("skipped", 0)), data))
            recovered.append(about["path"])
        except (OSError, ValueError, KeyError, TypeError, sqlite3.IntegrityError):
            continue
    return recovered


def _prune_index(root: Path, keep: set[int]) -> None:
    """Index folders of older generations go; the previous one stays for readers still using it."""
    if not root.is_dir():
        return
    for folder in root.iterdir():
        if folder.name.isdigit() and int(folder.name) in keep:
            continue
        if folder.name.startswith(".tmp-") or folder.name.isdigit():
            shutil.rmtree(folder, ignore_errors=True)


# --- reading -----------------------------------------------------------------------------------

def _wording_in(history: Sequence[tuple[str, str | None, str | None]], lang: Lang) -> str | None:
    """The first wording of an id's `history` (its (key, text, source) rows) written in `lang`, if any."""
    return next((text for _, text, _ in history if text and detect(text) is lang), None)


class KB:
    """An open KB. Each method reads only the rows it needs; `entries` loads them all (search, export)."""

    def __init__(self, conn: sqlite3.Connection, home: Path) -> None:
        self.conn = conn
        self.home = home
        # every meta value but the large ones: the build report, which only `kb ingest` and an older
        # KB's `kb stats` read (~3 MB of JSON at 100k rulings: decoding it cost every command ~50 ms)
        self.meta = get_meta(conn, leave_out=LARGE_META)
        if "generation" not in self.meta:
            raise StoreError(f"no KB in {home}; {FIX}")
        stale = stale_reason(self.meta)
        if stale:
            raise StoreError(f"the KB in {home} was {stale}; {FIX}")

    @cached_property
    def report(self) -> dict[str, Any]:
        """The last build's report (`BuildReport.to_json`), read on first use."""
        value = _meta_value(self.conn, "report")
        return value if isinstance(value, dict) else {}

    @property
    def path(self) -> Path:
        return self.home

    @property
    def generation(self) -> int:
        return int(self.meta["generation"])

    @property
    def index_dir(self) -> Path:
        return self.home / INDEX_DIR / str(self.generation)

    @property
    def index_corpus_hash(self) -> str | None:
        """The corpus hash of the search index written with this generation (None: no index, or a KB
        written before it was recorded); `kb.search.Searcher.for_kb` refuses an index without it."""
        value = self.meta.get("index_corpus_hash")
        return value if isinstance(value, str) else None

    def close(self) -> None:
        self.conn.close()

    def _entries(self, sql: str, params: Sequence[Any] = ()) -> list[Entry]:
        try:
            return [Entry.from_json(json.loads(data)) for (data,) in self.conn.execute(sql, params)]
        except (KeyError, TypeError, ValueError) as e:
            raise StoreError(f"the KB database {db_path(self.home)} holds a malformed entry ({e}); {FIX}") from None

    @cached_property
    def entries(self) -> list[Entry]:
        return self._entries("SELECT data FROM entries ORDER BY ord")

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM entries").fetchone()[0])

    def resolve(self, entry_id: str, lang: Lang | None = None) -> Resolved:
        """The entry with this id, the only one whose id starts with it, or the one an older id moved to.
        An id that is gone is quoted in `lang` too when one of its wordings was in it (`kb show ID --lang de`)."""
        found = self._entries("SELECT data FROM entries WHERE id = ?", (entry_id,))
        if found:
            return Resolved(found[0])
        history = self.conn.execute("SELECT wkey, text, source FROM id_history WHERE id = ? "
                                    "ORDER BY first_generation, wkey", (entry_id,)).fetchall()
        if history:
            return self._moved(entry_id, history, lang)
        pattern = entry_id.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        matches = self._entries("SELECT data FROM entries WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 6",
                                (pattern,))
        if len(matches) == 1:
            return Resolved(matches[0])
        if matches:
            # the entry is there, the id given can't tell which: bad input, not a missing entry (smoke53 L6)
            raise InputError(f"entry id {entry_id!r} is ambiguous: " + ", ".join(e.id for e in matches[:5]))
        former = [r[0] for r in self.conn.execute(
            "SELECT DISTINCT id FROM id_history WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT 2", (pattern,))]
        if len(former) == 1 and len(entry_id) >= 4:  # the prefix of an id shown before
            return self.resolve(former[0], lang)
        if len(entry_id) >= 4 and _HEX.fullmatch(entry_id):  # an id typed without its r- or c- (tryout32 #10)
            kinds = []
            for kind in ("r-", "c-"):
                try:
                    kinds.append(self.resolve(kind + entry_id, lang))
                except NotFoundError:  # an ambiguous prefix (InputError) is said as it is
                    pass
            if len(kinds) == 1:
                return kinds[0]
        try:  # a CR number typed where an entry id goes: `kb rule` shows clauses
            clause = clause_number(entry_id)
        except InputError:
            raise NotFoundError(f"no entry {entry_id!r}; `kb list` shows the ids") from None
        raise NotFoundError(f"no entry {entry_id!r}: entry ids look like r-617b992fa5 (rulings) or c-… (rules); "
                            f"for the Comprehensive Rules clause {clause}, use `kb rule {clause}`")

    def _moved(self, entry_id: str, history: Sequence[tuple[str, str | None, str | None]],
               lang: Lang | None = None) -> Resolved:
        """Where an id no entry has now went (`history`: its wordings, as (key, text, source)).

        The id is the digest of one wording, its anchor (`kb.ingest.ids`). While the anchor is in the
        KB, the id goes with it (new data re-anchored its entry). When the anchor left, it follows the
        anchor's edit in the anchor's file (`_revised`: a judge reworded the ruling), else the entry that
        holds most of its other wordings (a translation, an older copy), saying what became of the
        anchor; with none of them left, the id is gone (NotFoundError, quoting the anchor)."""
        from kb.ingest.ids import digest_id

        clause = next((row[0][len(CLAUSE_KEY):] for row in history if row[0].startswith(CLAUSE_KEY)), None)
        if clause is not None:  # the entry of a CR clause whose identity was traced anew
            now = self._entries("SELECT data FROM entries WHERE clause = ? AND kind = 'rule'", (clause,))
            if not now:
                raise NotFoundError(f"entry {entry_id!r} was CR {clause}, which the current CR has no more: "
                                    f"`kb rule {clause}` shows its history")
            return Resolved(now[0], moved_from=entry_id,
                            why=f"a clause's id comes from the number it had when first seen, and this judge-kb "
                                f"traces the history of CR {clause} otherwise")
        holders: Counter[str] = Counter()
        anchor_holders: Counter[str] = Counter()
        anchor = next((row for row in history if _is_digest_of(entry_id, row[0], digest_id)), None)
        held: set[str] = set()
        for wkey, holder, n in self.conn.execute(
                "SELECT h.wkey, v.entry_id, count(*) FROM id_history h JOIN variants v ON v.wkey = h.wkey "
                "WHERE h.id = ? GROUP BY h.wkey, v.entry_id", (entry_id,)):
            held.add(wkey)
            holders[holder] += n
            if anchor is not None and wkey == anchor[0]:
                anchor_holders[holder] += n
        if anchor_holders or (anchor is None and holders):
            return Resolved(self._holding(anchor_holders or holders), moved_from=entry_id)
        lost = [anchor] if anchor is not None else [row for row in history if row[0] not in held]
        revised = self._revised(entry_id, lost)
        if revised is not None:
            entry, edited_in = revised
            return Resolved(entry, moved_from=entry_id, why=f"its wording was changed in {edited_in}")
        wkey, text, source = lost[0]
        if holders:
            return Resolved(self._holding(holders), moved_from=entry_id, why=self._left(source, joined=True))
        said = f'"{text or wkey.split(":", 1)[-1]}"'
        anchor_lang = detect(text or "")
        local = _wording_in(history, lang) if lang is not None and lang is not anchor_lang else None
        if local is not None and lang is not None:  # tryout45 #9: a removed page's German wording (`--lang de`)
            said = f'"{local}" (its {LANGUAGE_NAMES[lang.value]} wording; in {LANGUAGE_NAMES[anchor_lang.value]}: {said})'
        raise NotFoundError(f"entry {entry_id!r} is gone: no wording of it is in the KB any more "
                            f"({self._left(source, joined=False)}). It read {said}: `kb search` finds what "
                            "says it now", source=source)

    def _holding(self, holders: Counter[str]) -> Entry:
        """The entry of `holders` (entry id -> wordings of an old id it holds) holding most, the smallest id on a tie."""
        best = min(holders, key=lambda h: (-holders[h], h))
        return self._entries("SELECT data FROM entries WHERE id = ?", (best,))[0]

    def _left(self, source: str | None, *, joined: bool) -> str:
        """What became of an id's anchor wording that no entry holds: its file was removed, or the
        version of it in the library no longer gives it. `joined`: said of an id that went to the
        entry holding its other wordings."""
        if source is None:  # a row of a KB older than schema 7
            return ("its wording left the KB, and the entry holding its other wordings has another id" if joined
                    else "the file it came from was removed, or replaced by a changed version; `kb sources` lists "
                         "the library")
        in_library = self.conn.execute("SELECT 1 FROM sources WHERE path = ?", (source,)).fetchone() is not None
        if in_library:
            why = (f"{source}, still in the library, no longer gives its wording: the ruling was deleted from the "
                   "file, or reworded past recognition")
        elif source.startswith("corpus/"):
            why = f"the bundled {source} no longer gives its wording"
        else:
            why = f"{source}, which gave its wording, was removed from the library"
        return why + ("; the entry holding its other wordings has it now" if joined else "")

    def _revised(self, entry_id: str, lost: Sequence[tuple[str, str | None, str | None]]) -> tuple[Entry, str] | None:
        """The entry holding the edited wording of a gone id's wording in the file that gave that wording
        (a judge edited the page and ingested it again), and the file; None when no wording of that
        file is one. An edit is what dedup calls a revision (`kb.ingest.dedup.is_revision`), or, looser
        since the judge changed this very file, the file's one wording that keeps most of the old words,
        aligned (more than `EDITED_KEPT` of them, by `EDITED_MARGIN` over any other wording of the file)."""
        from kb.ingest.dedup import is_negated, is_revision, wording_similarity
        from kb.normalize import match_key

        def born(entry: str) -> int:  # the generation an entry's id was first shown in
            return int(self.conn.execute("SELECT coalesce(min(first_generation), 0) FROM id_history WHERE id = ?",
                                         (entry,)).fetchone()[0])

        # (ratio, a revision, share of the old words kept, a looser edit, holder, source)
        scored: list[tuple[float, bool, float, bool, str, str]] = []
        in_file: dict[str, list[tuple[str, list[str], bool, Lang]]] = {}  # source -> its wordings now
        for _, text, source in lost:
            if text is None or source is None:
                continue
            if source not in in_file:
                in_file[source] = [(holder, match_key(now).split(), is_negated(now, Lang(lang)), Lang(lang))
                                   for holder, now, lang in self.conn.execute(
                                       "SELECT entry_id, text, lang FROM variants WHERE source = ?", (source,))]
            old = match_key(text).split()
            for holder, words, negated, lang in in_file[source]:
                ratio, contained = wording_similarity(old, words)
                kept = contained * min(len(old), len(words)) / max(1, len(old))
                # a looser edit is a wording that came after this id (not a ruling beside it, left when the
                # judge deleted this one) and negates where it did (second review: "you don't create ...")
                looser = born(holder) > born(entry_id) and negated == is_negated(text, lang)
                scored.append((ratio, is_revision(ratio, contained), kept, looser, holder, source))
        revisions = [(-ratio, holder, source) for ratio, revision, _, _, holder, source in scored if revision]
        if revisions:
            _, holder, source = min(revisions)
        else:
            ranked = sorted(((-kept, holder, source) for _, _, kept, looser, holder, source in scored if looser))
            if not ranked or -ranked[0][0] <= EDITED_KEPT:
                return None
            _, holder, source = ranked[0]
            runner_up = max((kept for _, _, kept, _, other, _ in scored if other != holder), default=0.0)
            if -ranked[0][0] - runner_up < EDITED_MARGIN:
                return None  # a looser edit must be the file's one clear match
        return self._entries("SELECT data FROM entries WHERE id = ?", (holder,))[0], source

    def get(self, entry_id: str) -> Entry:
        return self.resolve(entry_id).entry

    def rule_texts(self, clauses: Sequence[str]) -> dict[str, str]:
        """The current CR's wording of each of `clauses` the KB holds, by clause."""
        marks = ",".join("?" * len(clauses))
        found = self._entries(f"SELECT data FROM entries WHERE kind = 'rule' AND clause IN ({marks})", tuple(clauses))
        return {e.clause: e.text for e in found if e.clause}

    def select(self, *, card: str | None = None, lang: Lang | None = None, kind: Kind | None = None) -> list[Entry]:
        """Entries for a card (English name), having text in a language (in English: a CR clause's
        entry too, which has no variants), of a kind, in export order."""
        where, params = self._filter(card, lang, kind)
        return self._entries(f"SELECT data FROM entries{where} ORDER BY ord", params)

    def summaries(self, *, card: str | None = None, lang: Lang | None = None,
                  kind: Kind | None = None) -> list[EntrySummary]:
        """`select`'s entries as `kb list` shows them (`EntrySummary.of(entry, lang)` of each), read
        from columns and the variant rows (the text in `lang` as `texts_in` gives it): no entry is decoded."""
        where, params = self._filter(card, lang, kind)
        rows = self.conn.execute(f"SELECT id, kind, text, cards, first_date, last_date, clause FROM entries{where} "
                                 "ORDER BY ord", params).fetchall()
        langs: dict[str, set[str]] = {}
        counts: dict[str, int] = {}
        ids = [row[0] for row in rows]
        for chunk, marks in _in_chunks(ids):
            for entry_id, lang_, n in self.conn.execute(f"SELECT entry_id, lang, count(*) FROM variants "
                                                        f"WHERE entry_id IN ({marks}) GROUP BY entry_id, lang", chunk):
                langs.setdefault(entry_id, set()).add(lang_)
                counts[entry_id] = counts.get(entry_id, 0) + n
        texts = self.texts_in(ids, lang) if lang is not None else {}
        out: list[EntrySummary] = []
        for id_, kind_, text, cards, first, last, clause in rows:
            out.append(EntrySummary(id_, Kind(kind_), text, tuple(json.loads(cards)), first, last, clause,
                                    wording_langs(langs.get(id_, ())), counts.get(id_, 0), lang, texts.get(id_)))
        return out

    def count(self, *, card: str | None = None, lang: Lang | None = None, kind: Kind | None = None) -> int:
        """How many entries `summaries` would give with the same filters."""
        where, params = self._filter(card, lang, kind)
        return int(self.conn.execute(f"SELECT count(*) FROM entries{where}", params).fetchone()[0])

    @staticmethod
    def _filter(card: str | None, lang: Lang | None, kind: Kind | None) -> tuple[str, list[str]]:
        """The WHERE clause (" WHERE ...", or "") of `select`'s filters on the entries table, and its parameters."""
        where, params = [], []
        if card:
            where.append("id IN (SELECT entry_id FROM entry_cards WHERE card = ?)")
            params.append(card)
        if lang:
            has = "id IN (SELECT entry_id FROM variants WHERE lang = ?)"
            if lang is Lang.EN:  # a CR clause's entry has no variants: its text is the English CR's
                has = f"({has} OR NOT EXISTS (SELECT 1 FROM variants v WHERE v.entry_id = entries.id))"
            where.append(has)
            params.append(lang.value)
        if kind:
            where.append("kind = ?")
            params.append(kind.value)
        return (" WHERE " + " AND ".join(where) if where else ""), params

    def card_entries(self, card: str) -> list[CardEntry]:
        """The entries of a card (English name), in export order, with the dates of the card's own copies."""
        rows = self.conn.execute("SELECT id, kind, text, first_date FROM entries WHERE id IN "
                                 "(SELECT entry_id FROM entry_cards WHERE card = ?) ORDER BY ord", (card,)).fetchall()
        langs: dict[str, set[str]] = {}
        dates: dict[str, set[str]] = {}
        for chunk, marks in _in_chunks([row[0] for row in rows]):
            for entry_id, lang in self.conn.execute(f"SELECT DISTINCT entry_id, lang FROM variants "
                                                    f"WHERE entry_id IN ({marks})", chunk):
                langs.setdefault(entry_id, set()).add(lang)
            for entry_id, date in self.conn.execute(f"SELECT entry_id, date FROM variants WHERE card = ? "
                                                    f"AND date IS NOT NULL AND entry_id IN ({marks})", (card, *chunk)):
                dates.setdefault(entry_id, set()).add(date)
        return [CardEntry(id_, Kind(kind), text, first, tuple(sorted(langs.get(id_, ()))),
                          tuple(sorted(dates.get(id_, ())))) for id_, kind, text, first in rows]

    def card_texts(self, card: str, ids: Sequence[str], lang: Lang) -> dict[str, str]:
        """Entry id -> the newest wording in `lang` that `card`'s own copies of it carry (a ruling
        shared by many cards may have been reworded on other cards' pages since), for the entries of
        `ids` that have one."""
        found: dict[str, str] = {}
        for chunk, marks in _in_chunks(list(dict.fromkeys(ids))):
            # the newest last; on one date the entry's own wording (canonical, duplicate) before a
            # revision (MTGJSON keeps a ruling's date when it rewords it: the old and the new share it)
            for entry_id, text in self.conn.execute(
                    f"SELECT entry_id, text FROM variants WHERE card = ? AND lang = ? AND entry_id IN ({marks}) "
                    f"ORDER BY entry_id, COALESCE(date, ''), relation IN ('canonical', 'duplicate'), ord DESC",
                    (card, lang.value, *chunk)):
                found[entry_id] = text
        return found

    def texts_in(self, ids: Sequence[str], lang: Lang) -> dict[str, str]:
        """Entry id -> its text in `lang` (as `kb show --lang` gives it: the newest German or Spanish
        wording; the canonical text for English) for the entries of `ids` that have one, from the
        variant rows alone (no entry is decoded)."""
        found: dict[str, str] = {}
        for chunk, marks in _in_chunks(list(dict.fromkeys(ids))):
            if lang is Lang.EN:  # the canonical text, unless it is a German or Spanish one (no English wording):
                # the language of its first wording, as `model.text_lang` (a German wording may read alike)
                sql = (f"SELECT e.id, e.text FROM entries e WHERE e.id IN ({marks}) AND coalesce((SELECT v.lang "
                       f"FROM variants v WHERE v.entry_id = e.id AND v.text = e.text ORDER BY v.ord LIMIT 1), 'en') = 'en'")
                found.update(self.conn.execute(sql, chunk))
                continue
            for entry_id, text in self.conn.execute(
                    f"SELECT entry_id, text FROM variants WHERE lang = ? AND entry_id IN ({marks}) "
                    f"ORDER BY entry_id, COALESCE(date, ''), ord", (lang.value, *chunk)):
                found[entry_id] = text  # the newest last, as `Entry.text_in` picks it
        return found

    def rulings_per_clause(self, clauses: Sequence[str]) -> tuple[dict[str, int], int]:
        """How many ruling entries link to each of `clauses` (most first, those with none left out),
        and how many distinct ones link to any of them."""
        per: dict[str, int] = {}
        ids: set[str] = set()
        for chunk, marks in _in_chunks(list(clauses)):
            for clause, entry_id in self.conn.execute(
                    "SELECT DISTINCT l.clause, l.entry_id FROM links l JOIN entries e ON e.id = l.entry_id "
                    f"WHERE l.clause IN ({marks}) AND e.kind = 'ruling'", tuple(chunk)):
                per[clause] = per.get(clause, 0) + 1
                ids.add(entry_id)
        order = list(clauses)
        return dict(sorted(per.items(), key=lambda kv: (-kv[1], order.index(kv[0])))), len(ids)

    def linked(self, clause: str, limit: int | None = None) -> tuple[list[LinkedEntry], int]:
        """The entries linked to one clause (the first `limit`, None: all), each with its first link to
        it, best rank first, and how many there are in all; the clause's own rule entry is left out.

        One read of the clause's link rows picks them (~4,400 for 708.2a at 100k rulings: a join
        per row with a correlated minimum took 4-5 times as long); only the entries listed are read,
        and only the columns `kb rule` shows (no entry is decoded)."""
        best: dict[str, tuple[int, float]] = {}  # entry -> (its first rank linking the clause, that link's score)
        for entry_id, rank, score in self.conn.execute("SELECT entry_id, rank, score FROM links WHERE clause = ?",
                                                       (clause,)):
            if entry_id not in best or rank < best[entry_id][0]:
                best[entry_id] = (rank, score)
        rule_ids = [i for i in best if not i.startswith("r-")]  # only a rule entry can be the clause itself
        for chunk, marks in _in_chunks(rule_ids):
            for (own,) in self.conn.execute(f"SELECT id FROM entries WHERE id IN ({marks}) AND kind = 'rule' "
                                            "AND clause = ?", (*chunk, clause)):
                del best[own]
        order = sorted(best, key=lambda i: (best[i][0], -best[i][1], i))
        shown = order if limit is None else order[:limit]
        details = {}
        for chunk, marks in _in_chunks(shown):
            for row in self.conn.execute(
                    "SELECT e.id, e.kind, e.text, e.cards, e.first_date, l.rank, l.at_ruling_date, l.evidence "
                    f"FROM entries e JOIN links l ON l.entry_id = e.id WHERE e.id IN ({marks}) AND l.clause = ?",
                    (*chunk, clause)):
                if row[5] == best[row[0]][0]:
                    details[row[0]] = row
        rows = []
        for entry_id in shown:
            id_, kind, text, cards, first, rank, at, evidence = details[entry_id]
            rows.append(LinkedEntry(id_, Kind(kind), text, tuple(json.loads(cards)), first, best[entry_id][1],
                                    rank + 1, at, evidence))
        return rows, len(order)

    def outdated_rows(self, entry_id: str | None = None) -> list[dict[str, Any]]:
        """Stored outdated items (kb.outdated's `to_store` form), of one entry or all."""
        if entry_id is None:
            rows = self.conn.execute("SELECT o.data FROM outdated o JOIN entries e ON e.id = o.entry_id "
                                     "ORDER BY e.ord, o.ord")
        else:
            rows = self.conn.execute("SELECT data FROM outdated WHERE entry_id = ? ORDER BY ord", (entry_id,))
        return [json.loads(d) for (d,) in rows]

    def own_pages(self, entry_ids: Sequence[str]) -> dict[str, str]:
        """Entry id -> the judge's own file its canonical text comes from, for the entries of `ids` no
        official source gives (official: the bundled corpus and MTGJSON files, as the build's
        `is_official`; the build makes an official wording canonical wherever there is one, so an
        entry whose canonical copy is a judge's has none). A judge at the table must tell their own
        notes from Wizards' rulings (tryout23)."""
        found: dict[str, str] = {}
        own = self._own_sources
        if not own:
            return found
        for chunk, marks in _in_chunks(list(dict.fromkeys(entry_ids))):
            for entry_id, source in self.conn.execute(
                    f"SELECT entry_id, source FROM variants WHERE relation = 'canonical' AND entry_id IN ({marks})",
                    chunk):
                if source in own:
                    found[entry_id] = source
        return found

    def own_texts(self, shown: Sequence[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """(entry id, text) -> the judge's own file that text comes from, for the shown texts of `shown`
        no official source gives. A translation is shown in its reader's language under an English
        ruling: a judge's own German wording of an official ruling read as official (tryout44 L2), and
        one whose English came from another own page was credited to that page."""
        found: dict[tuple[str, str], str] = {}
        own = self._own_sources
        wanted = set(shown)
        if not own or not wanted:
            return found
        given: dict[tuple[str, str], list[str]] = defaultdict(list)
        for chunk, marks in _in_chunks(list(dict.fromkeys(entry_id for entry_id, _ in shown))):
            for entry_id, text, source in self.conn.execute(
                    f"SELECT entry_id, text, source FROM variants WHERE entry_id IN ({marks}) ORDER BY entry_id, ord",
                    chunk):
                if (entry_id, text) in wanted:
                    given[entry_id, text].append(source)
        for key, sources in given.items():
            if all(source in own for source in sources):
                found[key] = sources[0]
        return found

    @cached_property
    def _own_sources(self) -> set[str]:
        """The paths of the library's sources that are a judge's own pages, not MTGJSON files; read once
        (`kb search` asks for the entries' own pages and then for their shown texts')."""
        # the bytes only of a source stored with no format (a recovered library): read to detect it
        sources = list(self.conn.execute("SELECT path, format, CASE WHEN format IS NULL THEN bytes END FROM sources"))
        if any(stored is None for _, stored, _ in sources):
            from kb.ingest import is_mtgjson  # the parsers: ~50 ms of a cold `kb search`, only when needed

            return {path for path, stored, data in sources if not is_mtgjson(bytes(data or b""), stored)}
        return {path for path, stored, _ in sources if stored != Format.MTGJSON}

    def superseded_texts(self, entry_ids: Sequence[str]) -> set[tuple[str, str]]:
        """(entry id, text) of the wordings of these entries that `kb outdated` calls superseded
        (a translation of an older English wording), so that a hit can flag them."""
        return {key for key, kinds in self.outdated_texts(entry_ids).items() if "superseded" in kinds}

    def outdated_texts(self, entry_ids: Sequence[str]) -> dict[tuple[str, str], tuple[str, ...]]:
        """(entry id, text) of the wordings of these entries `kb outdated` lists at its outdated level,
        with the kinds of its reasons (superseded, terminology, rule-number ...), so a listing can mark them
        (a superseded wording's reason is always of that level: `Reason.level`)."""
        found: dict[tuple[str, str], tuple[str, ...]] = {}
        for entry_id in dict.fromkeys(entry_ids):
            for row in self.outdated_rows(entry_id):
                kinds = tuple(r.get("kind", "") for r in row.get("reasons", []) if r.get("level") == "outdated")
                if kinds:
                    key = (row["entry"], row["variant"]["text"])
                    found[key] = tuple(dict.fromkeys(found.get(key, ()) + kinds))
        return found

    def outdated_copies(self, *, card: str | None = None, lang: Lang | None = None, since: str | None = None,
                        reason: Reason | None = None, undated: bool = False) -> list[CopyRow]:
        """The outdated copies matching every filter (as `kb.outdated.filter_items`), for counting:
        read from columns, no JSON decoded. `card` is the card the copy was given for; `undated`:
        only the copies with no date."""
        return _outdated_copies(self.conn, card=card, lang=lang, since=since, reason=reason, undated=undated)

    def wordings_dated_before(self, date: str, *, card: str | None = None, lang: Lang | None = None,
                              since: str | None = None) -> int:
        """How many ruling wordings (entry and text) have a copy dated before `date` (and on or
        after `since`; given for `card`, in `lang`)."""
        where, params = ["v.date < ?", "e.kind = 'ruling'"], [date]
        if since:
            where.append("v.date >= ?")
            params.append(since)
        for column, value in (("v.card", card), ("v.lang", lang.value if lang else None)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        row = self.conn.execute("SELECT COUNT(*) FROM (SELECT DISTINCT v.entry_id, v.text FROM variants v "
                                f"JOIN entries e ON e.id = v.entry_id WHERE {' AND '.join(where)})", params).fetchone()
        return int(row[0])

    def undated_outdated(self, levels: Iterable[Level], since: str, *, card: str | None = None,
                         lang: Lang | None = None, reason: Reason | None = None) -> int:
        """How many wordings of `levels` a `since` filter leaves out for having no date to compare:
        those with no copy dated on or after it and an undated one."""
        from kb.outdated import summarize_copies

        kept = {(c.entry, c.text) for c in self.outdated_copies(card=card, lang=lang, since=since, reason=reason)}
        left = [c for c in self.outdated_copies(card=card, lang=lang, reason=reason, undated=True)
                if (c.entry, c.text) not in kept]
        return int(summarize_copies(left, levels)["wordings"])

    def outdated_summary(self, levels: Iterable[Level], *, card: str | None = None, lang: Lang | None = None,
                         since: str | None = None, reason: Reason | None = None) -> dict[str, Any]:
        """`kb.outdated.summarize_copies` of the copies matching every filter, keeping the wordings
        whose level is in `levels`; without a filter, the summary the build recorded."""
        from kb.outdated import summarize_copies

        levels = set(levels)
        if card is None and lang is None and not since and reason is None:
            recorded = _meta_value(self.conn, "outdated_summaries")
            if isinstance(recorded, dict) and summary_key(levels) in recorded:
                return dict(recorded[summary_key(levels)])
        return summarize_copies(self.outdated_copies(card=card, lang=lang, since=since, reason=reason), levels)

    def outdated(self, entry_id: str | None = None) -> list[OutdatedItem]:
        """Outdated variants as computed at build time (only the entries they concern are read)."""
        from kb.outdated import OutdatedItem

        return [OutdatedItem.from_store(d) for d in self.outdated_rows(entry_id)]

    def entries_by_id(self, ids: Sequence[str]) -> list[Entry]:
        """The entries with these ids (one query per 500 ids), in no particular order; unknown ids are
        left out. Search fetches its k hits with it instead of decoding every entry."""
        return self._entries_by_ids(ids)

    def _entries_by_ids(self, ids: Sequence[str]) -> list[Entry]:
        out: list[Entry] = []
        for chunk, marks in _in_chunks(ids):
            out += self._entries(f"SELECT data FROM entries WHERE id IN ({marks})", chunk)
        return out

    def card(self, name: str) -> str | None:
        """The English name of a card of the KB named in English, German or Spanish (any case)."""
        row = self.conn.execute("SELECT card FROM card_names WHERE folded = ? ORDER BY lang = 'en' DESC, card LIMIT 1",
                                (name.strip().casefold(),)).fetchone()
        if row is None:  # every card an entry names is known by its English name
            row = self.conn.execute("SELECT card FROM entry_cards WHERE card = ? COLLATE NOCASE LIMIT 1",
                                    (name.strip(),)).fetchone()
        return row[0] if row else None

    def names_of(self, card: str) -> dict[Lang, str]:
        """The names by language the KB's sources give a card (its English name), e.g. an MTGJSON file's
        foreignData for a card newer than the bundled data."""
        rows = self.conn.execute("SELECT lang, name FROM card_names WHERE card = ? ORDER BY lang, name", (card,))
        found: dict[Lang, str] = {}
        for lang, name in rows:
            found.setdefault(Lang(lang), name)
        return found

    def source_card(self, card: str) -> OracleCard | None:
        """The card data the library's MTGJSON files give a card (its English name): cost, type, text
        and names of a card newer than the bundled data; None when no such file describes it."""
        from kb.oracle import OracleCard

        row = self.conn.execute("SELECT data FROM source_cards WHERE card = ?", (card,)).fetchone()
        return OracleCard.from_json(json.loads(row[0])) if row else None

    def cards(self) -> list[str]:
        """The English name of every card an entry names (a page's title gives no other name)."""
        return [r[0] for r in self.conn.execute("SELECT DISTINCT card FROM entry_cards ORDER BY card")]

    def card_names(self) -> list[tuple[str, str, str]]:
        """(name, lang, English name) of every card the KB knows."""
        return [tuple(r) for r in self.conn.execute("SELECT name, lang, card FROM card_names ORDER BY card, lang, name")]

    def sources(self) -> list[Source]:
        return library(self.conn)

    def problems(self) -> list[dict[str, Any]]:
        return [{"source": s, "line": l, "reason": r, "ignored": bool(i), "kind": k}
                for s, l, r, i, k in self.conn.execute("SELECT source, line, reason, ignored, kind FROM problems "
                                                       "ORDER BY ord")]

    def entries_in(self, lang: Lang) -> int:
        """How many entries have a wording in `lang`."""
        return int(self.conn.execute("SELECT count(DISTINCT entry_id) FROM variants WHERE lang = ?",
                                     (lang.value,)).fetchone()[0])

    def variant_count(self, lang: Lang) -> int:
        """How many wordings the KB holds in `lang`."""
        return int(self.conn.execute("SELECT count(*) FROM variants WHERE lang = ?", (lang.value,)).fetchone()[0])

    def stats(self) -> dict[str, Any]:
        """Counts: those the build recorded (`_counts`), or SQL aggregates for a KB written before it
        recorded them (no entry is loaded either way)."""
        q = self.conn.execute
        counts = self.meta.get("counts")
        counted = counts if isinstance(counts, dict) else self._count()
        return {
            **{k: counted[k] for k in ("entries", "entries_by_kind", "variants", "variants_by_relation",
                                       "variants_by_lang", "cards")},
            "source_files": self._recorded(counted, "source_files"),
            "library_sources": q("SELECT count(*) FROM sources").fetchone()[0],
            "parsed": self._recorded(counted, "parsed"),
            "stored": self._recorded(counted, "stored"),
            **{k: counted[k] for k in ("skipped", "ignored", "check_problems")},
            "checks_on_face_down_rulings": self.meta.get("check_coverage"),
            "generation": self.generation,
            "built_at": self.meta.get("built_at"),
            "data_dir": str(self.home),
        }

    def _recorded(self, counted: dict[str, Any], key: str) -> Any:
        """A figure the build recorded in its counts, or (a KB built before it did) in its report."""
        if key in counted:
            return counted[key]
        return len(self.report.get("files", [])) if key == "source_files" else self.report.get(key)

    def _count(self) -> dict[str, Any]:
        """`_counts` by SQL aggregates over the stored rows."""
        q = self.conn.execute
        return {
            "entries": q("SELECT count(*) FROM entries").fetchone()[0],
            "entries_by_kind": dict(q("SELECT kind, count(*) FROM entries GROUP BY kind ORDER BY kind").fetchall()),
            "variants": q("SELECT count(*) FROM variants").fetchone()[0],
            "variants_by_relation": dict(q("SELECT relation, count(*) FROM variants GROUP BY relation "
                                           "ORDER BY relation").fetchall()),
            "variants_by_lang": dict(q("SELECT lang, count(*) FROM variants GROUP BY lang ORDER BY lang").fetchall()),
            "cards": q("SELECT count(DISTINCT card) FROM entry_cards").fetchone()[0],
            "skipped": q("SELECT count(*) FROM problems WHERE ignored = 0 AND kind = 'ingest'").fetchone()[0],
            "ignored": q("SELECT count(*) FROM problems WHERE ignored = 1 AND kind = 'ingest'").fetchone()[0],
            "check_problems": q("SELECT count(*) FROM problems WHERE kind = 'check'").fetchone()[0],
        }


def load(home: Path) -> KB:
    """The current KB; StoreError when there is none or it can't be read."""
    conn = connect(home)
    try:
        return KB(conn, home)
    except sqlite3.DatabaseError as e:
        conn.close()
        raise DamagedStore(f"the KB database {db_path(home)} can't be read ({e})") from None
    except BaseException:
        conn.close()
        raise


@contextlib.contextmanager
def snapshot(home: Path) -> Iterator[KB]:
    """The current KB opened read-only, all its reads in one SQLite read transaction: a build that
    commits meanwhile is seen whole or not at all, and nothing is written (no migration, no journal
    mode set), so no ingest lock is needed. StoreError when there is no current KB or it needs a
    migration or rebuild; DamagedStore when SQLite can't read it."""
    path = db_path(home)
    if not path.is_file():
        raise StoreError(f"no KB in {home}; {FIX}")
    conn = None
    try:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=30, isolation_level=None)
        conn.execute("BEGIN")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version != SCHEMA_VERSION:
            raise StoreError(f"the KB database {path} has schema {version}, not {SCHEMA_VERSION}; {FIX}")
        yield KB(conn, home)
    except sqlite3.DatabaseError as e:
        raise DamagedStore(f"the KB database {path} can't be read ({e})") from None
    finally:
        if conn is not None:
            conn.close()


@dataclass(frozen=True)
class LinkedRulings:
    """The entries of the current KB linked to one clause (the first few, best link first), how many
    there are in all, and, when there is no readable KB, `rows` None and a note saying what to do."""

    rows: list[LinkedEntry] | None
    total: int
    note: str | None = None
    lang: Lang | None = None  # `kb rule --lang`: the language asked for, and the rows' texts in it
    texts: dict[str, str] = field(default_factory=dict)
    # none linked to a clause that has subclauses (708, a section heading): the rulings linked to
    # each subclause (most first) and to any of them, so "no rulings" does not hide a hundred
    in_subclauses: dict[str, int] | None = None
    in_subclauses_total: int = 0
    # (entry id, text) of the texts shown that `kb outdated` lists, with its reasons' kinds
    outdated: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)

    def text(self, row: LinkedEntry) -> str:
        """The row's text in the language asked for where it has one, else its canonical text."""
        return self.texts.get(row.id) or row.text

    def to_json(self) -> dict[str, Any]:
        return {"rulings": None if self.rows is None else [row.to_json() | lang_fields(self.lang, self.texts.get(row.id))
                                                           for row in self.rows],
                "rulings_total": self.total, "rulings_note": self.note,
                "rulings_in_subclauses": None if self.in_subclauses is None else {
                    "total": self.in_subclauses_total,
                    "clauses": [{"clause": c, "rulings": n} for c, n in self.in_subclauses.items()]}}


def linked_rulings(home: Path, clause: str, limit: int | None = None, lang: Lang | None = None,
                   subclauses: Sequence[str] = ()) -> LinkedRulings:
    """The first `limit` (None: all) entries of the KB in `home` linked to `clause`, with their texts
    in `lang` when given, and, when none is and it has `subclauses`, how many rulings link to those;
    never builds a KB."""
    if not exists(home):
        return LinkedRulings(None, 0, f"no KB in {home} yet; run `kb ingest` to see the rulings linked to this clause")
    try:
        kb = load(home)
    except StoreError as e:
        return LinkedRulings(None, 0, f"{e} and see the rulings linked to this clause")
    try:
        rows, total = kb.linked(clause, limit)
        texts = kb.texts_in([row.id for row in rows], lang) if lang is not None else {}
        below, below_total = kb.rulings_per_clause(subclauses) if subclauses and not total else (None, 0)
        flagged = kb.outdated_texts([row.id for row in rows])
        return LinkedRulings(rows, total, lang=lang, texts=texts, in_subclauses=below, in_subclauses_total=below_total,
                             outdated=flagged)
    finally:
        kb.close()


def dump_entries(entries: list[Entry]) -> str:
    """The export: a JSON list of entries, deterministic for the same entries."""
    return json.dumps([e.to_json() for e in entries], ensure_ascii=False, indent=2) + "\n"


def write_json_atomic(path: Path, data: Any) -> None:
    write_atomic(path, json.dumps(data, ensure_ascii=False))


@contextlib.contextmanager
def ingest_lock(home: Path, *, wait: bool) -> Iterator[None]:
    """Hold the data directory's ingest lock. Without `wait`, a held lock is a StoreError."""
    home.mkdir(parents=True, exist_ok=True)
    lock_path = home / "ingest.lock"
    with open(lock_path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except OSError as e:
            if e.errno not in (errno.EAGAIN, errno.EACCES):
                raise
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            raise StoreError(f"another `kb ingest` is running ({holder}); wait for it to finish and try "
                             "again, or add --wait to wait for it") from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}")
        handle.flush()
        try:
            with not_inherited(handle.fileno()):  # a build's forked children don't keep the lock
                yield
        finally:
            handle.seek(0)
            handle.truncate()
            fcntl.flock(handle, fcntl.LOCK_UN)


def legacy_layout(home: Path) -> bool:
    """True for a data directory of judge-kb before the SQLite store (builds/ + current -> kb.json)."""
    return (home / "builds").is_dir() or (home / "current").exists() or (home / "current").is_symlink()


def remove_legacy(home: Path) -> None:
    """Drop the pre-SQLite builds (they held no library: everything came from the bundled corpus)."""
    shutil.rmtree(home / "builds", ignore_errors=True)
    current = home / "current"
    if current.is_symlink() or current.is_file():
        current.unlink()
    elif current.is_dir():
        shutil.rmtree(current, ignore_errors=True)
