"""The CR versions bundled in `<corpus>/rules/`: full texts, plus face-down extracts for dates that
have no full text. `load_rules` parses and aligns them all (cached on disk and per corpus folder);
`load_current` parses the newest full text alone."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from kb.cr.lineage import align
from kb.cr.parse import RulesVersion, parse_rules
from kb.cr.query import RulesCorpus
from kb.errors import NotFoundError

_FILE = re.compile(r"^CR-(\d{4})(\d\d)(\d\d)(-facedown-extract)?\.txt$")
# The code the cached RulesCorpus derives from (its pickle names these modules' classes too), and
# the text module that normalises and tokenises its clauses.
_CODE = (*sorted(Path(__file__).parent.glob("*.py")), Path(__file__).parent.parent / "normalize.py")


def rules_dir(corpus_dir: Path | None = None) -> Path:
    from kb.paths import corpus_dir as default_corpus

    return (corpus_dir or default_corpus()) / "rules"


def _rule_files(corpus_dir: Path | None) -> list[tuple[str, bool, Path]]:
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


def load_current(corpus_dir: Path | None = None) -> RulesVersion:
    """The newest complete CR only (fast: no alignment)."""
    full = [f for f in _rule_files(corpus_dir) if not f[1]]
    if not full:
        raise NotFoundError("no complete CR text in the corpus")
    date, _, path = full[-1]
    return parse_rules(path.read_text(encoding="utf-8"), date)


def load_rules(corpus_dir: Path | None = None) -> RulesCorpus:
    """Every CR version in `<corpus>/rules/`, aligned (cached per corpus folder: the default folder
    is resolved first, so a changed KB_CORPUS is a different key, never the old corpus)."""
    return _load_cached(str(rules_dir(corpus_dir).parent))


def cache_inputs(corpus_dir: Path | None = None) -> list[Path]:
    """The files the disk cache of `load_rules` is keyed by: the CR texts and this package's and kb/normalize.py's code."""
    return [*(path for _, _, path in _rule_files(corpus_dir)), *_CODE]


@functools.lru_cache(maxsize=4)
def _load_cached(corpus_dir: str) -> RulesCorpus:
    from kb.disk_cache import cached

    folder = Path(corpus_dir)
    return cached("rules", cache_inputs(folder), lambda: _load_uncached(folder))


def _load_uncached(folder: Path | None) -> RulesCorpus:
    files = _rule_files(folder)
    versions = [parse_rules(path.read_text(encoding="utf-8"), date) for date, _, path in files]
    for v, (_, extract, _) in zip(versions, files):
        v.complete = not extract
    lineage, members = align(versions)
    return RulesCorpus(versions, lineage, members)
