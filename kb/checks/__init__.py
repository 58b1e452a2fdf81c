"""Scenario checks: load `corpus/checks/*.yaml` (and the cards in `corpus/cards/*.yaml`), attach
each check to the ruling entry it quotes, and run checks on the rules model.

This is the only module that reads check and card files; `kb.checks.scenario` and `kb.game` get text
and plain objects.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import yaml

from kb import paths
from kb.errors import CheckError, InputError, KBError, NotFoundError
from kb.game import CardDataError, CardDef, Rules, RulesDateError, card_from_data
from kb.model import Entry, Kind, Problem, RuleLink
from kb.normalize import normalize_text
from kb.checks.scenario import Check, check_verdict, load_yaml, parse_checks, yaml_problem

if TYPE_CHECKING:
    from kb.corpus import Corpus
    from kb.cr.query import RulesGap
    from kb.outdated import CheckRunner
    from kb.store import KB

__all__ = [
    "FACE_DOWN_CLAUSES",
    "face_down_links",
    "Check",
    "coverage",
    "is_face_down_entry",
    "CheckResult",
    "CheckRun",
    "CheckCoverage",
    "check_coverage",
    "check_targets",
    "entry_check_runner",
    "attach_checks",
    "load_cards",
    "load_checks",
    "match_entries",
    "normalise_quote",
    "run_checks",
    "run_entry_checks",
]


@dataclass(frozen=True, slots=True)
class CheckResult:
    id: str
    entry: str | None  # the entry id the check verifies; None when not attached
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    not_applicable: str | None = None  # why it does not apply under the run's rules (then not passed, not failed)
    # why the KB attaches it to no ruling (its quote picks none or several): then it did not pass,
    # even when the model agreed with it (None also when there is no KB to attach it to)
    unattached: str | None = None
    rules_gap: RulesGap | None = None  # its own `rules:` date is before every CR of the corpus

    @property
    def failed(self) -> bool:
        return not self.passed and self.not_applicable is None and not self.is_unattached

    @property
    def is_unattached(self) -> bool:
        """Ran without failures, but checks no ruling of the KB (neither passed nor failed)."""
        return self.unattached is not None and not self.failures and self.not_applicable is None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "entry": self.entry,
            "file": self.file,
            "passed": self.passed,
            "failures": list(self.failures),
            "not_applicable": self.not_applicable,
            "unattached": self.unattached,
            "rules_gap": self.rules_gap.to_json() if self.rules_gap else None,
        }


def normalise_quote(text: str) -> str:
    """Casefold, plain quotes, collapsed whitespace: how `ruling:` quotes are matched (dashes are
    kept: a check quotes the ruling as printed)."""
    return normalize_text(text).casefold()


def load_cards(directory: Path) -> dict[str, CardDef]:
    """All card definitions of `directory/*.yaml` by name (double-faced cards by their front face's name)."""
    cards: dict[str, CardDef] = {}
    for path in sorted(directory.glob("*.yaml")):
        where = paths.display_path(path)
        try:
            data = load_yaml(path.read_text(encoding="utf-8"))  # as check files: a key given twice is caught
        except yaml.YAMLError as exc:
            line, reason = yaml_problem(exc)
            raise CheckError(f"{where}{f':{line}' if line else ''}: malformed YAML: {reason}") from None
        except (ValueError, RecursionError) as exc:  # not UTF-8 text, or nested too deep (as parse_checks)
            raise CheckError(f"{where}: unreadable card file: {exc.__class__.__name__}: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
            raise CheckError(f"{where}: a card file needs a top-level `cards:` list")
        for i, raw in enumerate(data["cards"], 1):
            try:
                card = card_from_data(raw, f"{where} (card {i})")
            except (CardDataError, ValueError, TypeError) as exc:
                raise CheckError(str(exc)) from None
            if card.name in cards:
                raise CheckError(f"{where}: card {card.name!r} is defined twice")
            cards[card.name] = card
    return cards


def load_checks(files: Sequence[Path], cards: Mapping[str, CardDef]) -> tuple[list[Check], list[Problem]]:
    """Parse check files whose setups may name `cards`; bad checks become Problems."""
    checks: list[Check] = []
    problems: list[Problem] = []
    for path in files:
        where = paths.display_path(Path(path))
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            problems.append(Problem(where, None, f"cannot read: {exc.strerror or exc}"))
            continue
        except UnicodeDecodeError as exc:
            line = Path(path).read_bytes()[: exc.start].count(b"\n") + 1
            problems.append(Problem(where, line, "not UTF-8 text: check files are UTF-8 YAML"))
            continue
        found, bad = parse_checks(text, where, cards)
        checks.extend(found)
        problems.extend(bad)
    # an id is the file's stem and the check's name: two folders' files of one stem can clash
    first: dict[str, Check] = {}
    for check in checks:
        other = first.setdefault(check.id, check)
        if other is not check and other.file != check.file:
            problems.append(Problem(check.file, check.line, f"check id {check.id!r} is also the id of the check at "
                                    f"{other.file}:{other.line}: rename one file or check"))
    return checks, problems


def _entry_for(check: Check, rulings: _RulingTexts, written_against: Callable[[str], bool] | None = None) -> Entry:
    """The one ruling whose wordings contain the quote; among several, the one ruling a wording
    of which is the whole quote (a ruling that is the start of a longer one can be checked).

    `written_against` marks the sources the checks were written against (the bundled corpus, for
    its own checks): when several rulings contain the quote, those holding it in such a source's
    wording are the ones asked about. A judge's page that happens to repeat a bundled check's
    quote then does not take the check off its bundled ruling (tryout18)."""
    quote = normalise_quote(check.ruling)
    found = [(rulings.entries[i], rulings.texts[i]) for i in rulings.containing(quote)]
    if len(found) > 1 and written_against is not None:
        # texts[0] is the entry's own text, texts[k + 1] the wording of variants[k]
        theirs = [(e, texts) for e, texts in found
                  if any(written_against(v.source) and quote in t for v, t in zip(e.variants, texts[1:]))]
        found = theirs or found
    hits = [e for e, _ in found]
    whole = [e for e, texts in found if quote in texts]
    if len(hits) == 1:
        return hits[0]
    if len(whole) == 1:
        return whole[0]
    where = f"{check.file}:{check.line}"
    if not hits:
        raise CheckError(f"{where}: check {check.name!r} quotes no ruling: {check.ruling!r}")
    ids = ", ".join(e.id for e in hits[:5])
    raise CheckError(f"{where}: check {check.name!r} quotes {len(hits)} rulings ({ids}); quote more")


class _RulingTexts:
    """The ruling entries with their normalised wordings, searchable for a quote in one pass over
    one string (a KB of 100k rulings made 188 quotes a Python loop over every wording each).

    `normalised` may hold the normalised form of wordings (raw -> `normalise_quote`'s), as a cache
    keeps them between builds; `last` is the `memo()` of the last build's: a quote it looked for is
    then looked for only in the wordings that are new since, the rest of its answer is kept."""

    _SEP = "\x00"  # no normalised wording holds it, so no match spans two wordings

    def __init__(self, entries: list[Entry], normalised: Mapping[str, str] | None = None,
                 last: Mapping[str, Any] | None = None) -> None:
        known = normalised or {}

        def norm(text: str) -> str:
            found = known.get(text)
            return found if found is not None else normalise_quote(text)

        self.entries = [e for e in entries if e.kind is Kind.RULING]
        self.texts = [[norm(e.text)] + [norm(v.text) for v in e.variants] for e in self.entries]
        self._starts: list[int] = []
        parts: list[str] = []
        at = 0
        for texts in self.texts:
            self._starts.append(at)
            part = self._SEP.join(texts) + self._SEP
            parts.append(part)
            at += len(part)
        self._all = "".join(parts)
        self._last_texts: set[str] = set(last["texts"]) if last else set()
        self._last_hits: dict[str, frozenset[str]] = dict(last["hits"]) if last else {}
        self._hits: dict[str, frozenset[str]] = {}
        self._new_texts: str | None = None
        self._owners: dict[str, list[int]] | None = None  # wording -> the entries that hold it

    def containing(self, quote: str) -> list[int]:
        """Indexes of the entries one of whose wordings contains `quote`, in order."""
        if not quote or self._SEP in quote:
            return [i for i, texts in enumerate(self.texts) if any(quote in t for t in texts)]
        if quote in self._last_hits:
            return self._containing_since(quote)
        found: list[int] = []
        at = self._all.find(quote)
        while at != -1:
            i = bisect.bisect_right(self._starts, at) - 1
            found.append(i)
            # on to the next entry: one hit per entry is enough
            nxt = self._starts[i + 1] if i + 1 < len(self._starts) else len(self._all)
            at = self._all.find(quote, nxt)
        self._hits[quote] = frozenset(t for i in found for t in self.texts[i] if quote in t)
        return found

    def _containing_since(self, quote: str) -> list[int]:
        """`containing`, from the wordings the last build found `quote` in and the new ones."""
        if self._new_texts is None:
            fresh = {t for texts in self.texts for t in texts} - self._last_texts
            self._new_texts = self._SEP.join(sorted(fresh)) + self._SEP
        hits = set(self._last_hits[quote])
        at = self._new_texts.find(quote)
        while at != -1:
            end = self._new_texts.index(self._SEP, at)
            hits.add(self._new_texts[self._new_texts.rfind(self._SEP, 0, at) + 1:end])
            at = self._new_texts.find(quote, end)
        if self._owners is None:
            self._owners = {}
            for i, texts in enumerate(self.texts):
                for t in texts:
                    self._owners.setdefault(t, []).append(i)
        found = sorted({i for t in hits for i in self._owners.get(t, ())})
        self._hits[quote] = frozenset(t for i in found for t in self.texts[i] if quote in t)
        return found

    def memo(self) -> dict[str, Any]:
        """What the next build's `last` needs: every wording, and the wordings each quote was in."""
        return {"texts": frozenset(t for texts in self.texts for t in texts), "hits": dict(self._hits)}


def match_entries(entries: list[Entry], checks: list[Check], *, normalised: Mapping[str, str] | None = None,
                  last: Mapping[str, Any] | None = None, memo: dict[str, Any] | None = None,
                  written_against: Callable[[str], bool] | None = None,
                  ) -> tuple[dict[str, str], list[Problem]]:
    """Check id -> entry id of the one ruling each check quotes (any wording, after normalising);
    a check that quotes no ruling or several is a Problem with its file and line instead.
    `normalised` and `last` are `_RulingTexts`'s; when `memo` is given, it is filled with the
    `last` of the next build. `written_against`: see `_entry_for` (the bundled checks pass the
    bundled sources)."""
    rulings = _RulingTexts(entries, normalised, last)
    found: dict[str, str] = {}
    problems: list[Problem] = []
    for check in checks:
        try:
            found[check.id] = _entry_for(check, rulings, written_against).id
        except CheckError as exc:
            problems.append(Problem(check.file, check.line, str(exc).split(": ", 1)[-1]))
    if memo is not None:
        memo.update(rulings.memo())
    return found, problems


# Face-down clauses by their current numbers: 708 face-down spells and permanents, 702.37
# morph/megamorph, 701.40 manifest, 702.168 disguise, 701.58 cloak, 701.62 manifest dread,
# 712.15-16 double-faced cards face down; and face-down exile: 406.3 (cards "exiled face down",
# who may look at them, playing them), 702.75 hideaway and 702.143 foretell (the only keywords
# whose own rule exiles a card face down, CR 2026-01-16), 712.17 (a double-faced card exiled face
# down). Not 116.2h, foretell's special action: the linker gives it to any ruling that says
# "special action", and a foretell ruling has 702.143. Renumbered rules (hideaway was 702.74,
# 712.17 was 711.10-711.11) carry their current number as `clause` (kb/cr/lineage.py). By the
# numbers they had when older rulings were written, for rules no longer in the CR, which a link
# carries as `at_ruling_date` only: 707 face-down, 701.31/701.33/701.34 manifest, 903.13 (2014-15:
# a card exiled face down that a player may look at is looked at at once; a commander returns).
# An old number is not matched as a current one: 707 is copying today, 903.13 Commander Draft.
FACE_DOWN_CLAUSES = re.compile(
    r"^(?:708(?:\.|$)|702\.37(?:[a-z]|$)|701\.40|702\.168|701\.58|701\.62|712\.1[567]"
    r"|406\.3(?:[a-z]|$)|702\.75(?:[a-z]|$)|702\.143(?:[a-z]|$))")
OLD_FACE_DOWN_CLAUSES = re.compile(r"^(?:707(?:\.|$)|701\.31|701\.33|701\.34|903\.13$)")


def face_down_links(entry: Entry) -> list[RuleLink]:
    """The links that make a ruling entry a face-down ruling (by the clause's number now or then): its top link, or
    one that stands on evidence of its own (a cue, the ruling's mechanic, a shared rare phrase, a reviewed override:
    `links.stands_on_evidence`). A link kept on shared words alone beside a better one is no reason: "Room cards
    have two card faces ..." is not a face-down ruling for its third link 708.4 (try-out 27 D12). A link that stands
    on the ruling's face-down words alone (no confident rule link, links45) still says the ruling is about face-down
    play, and counts. A link that records no evidence (a store or an entry made without it) counts, as before."""
    from kb.cr.links import rests_on_face_down_words, stands_on_evidence

    if entry.kind is not Kind.RULING:
        return []
    # A link's `clause` is the current number (kb/cr/lineage.py follows it); an old number
    # alone (`at_ruling_date`) counts only where the link has no current clause.
    return [
        link for i, link in enumerate(entry.rules)
        if (FACE_DOWN_CLAUSES.match(link.clause) if link.clause
            else link.at_ruling_date and OLD_FACE_DOWN_CLAUSES.match(link.at_ruling_date))
        and (i == 0 or not link.evidence or stands_on_evidence(link.evidence)
             or rests_on_face_down_words(link.evidence))
    ]


def is_face_down_entry(entry: Entry) -> bool:
    """Whether a ruling entry is linked to a face-down clause (by its number now or then)."""
    return bool(face_down_links(entry))


def coverage(entries: Sequence[Entry]) -> tuple[int, int, list[Entry]]:
    """(covered, total, missing) over the ruling entries linked to a face-down clause: covered
    ones have at least one scenario check; `missing` lists the others."""
    face_down = [e for e in entries if is_face_down_entry(e)]
    missing = [e for e in face_down if not e.checks]
    return len(face_down) - len(missing), len(face_down), missing


def attach_checks(entries: list[Entry], check_ids: dict[str, str]) -> list[Entry]:
    """Entries with `checks` filled (sorted check ids) from `match_entries`'s check id -> entry id."""
    by_entry: dict[str, list[str]] = {}
    for check_id, entry_id in check_ids.items():
        by_entry.setdefault(entry_id, []).append(check_id)
    return [replace(e, checks=tuple(sorted(by_entry[e.id]))) if e.id in by_entry else e for e in entries]


def run_checks(
    checks: list[Check],
    rules_date: str | None = None,
    *,
    entries_by_check: Mapping[str, str] | None = None,
    unattached: Mapping[str, str] | None = None,
    cards: Mapping[str, CardDef],
) -> list[CheckResult]:
    """Run checks under `rules_date` (None: each check under its own `rules:` date, default the
    current rules). `entries_by_check` fills `CheckResult.entry`, `unattached` (check id -> why
    its quote picks no ruling) `CheckResult.unattached`."""
    if rules_date is not None:
        try:
            Rules.for_date(rules_date)
        except RulesDateError as exc:
            raise InputError(str(exc)) from None
    entries_by_check = entries_by_check or {}
    unattached = unattached or {}
    results = []
    for check in checks:
        verdict = check_verdict(check, cards, rules_date)
        why = unattached.get(check.id)
        results.append(
            CheckResult(
                id=check.id,
                entry=entries_by_check.get(check.id),
                file=check.file,
                passed=not verdict.failures and verdict.not_applicable is None and why is None,
                failures=verdict.failures,
                not_applicable=verdict.not_applicable,
                unattached=why,
            )
        )
    return results


def entry_check_runner(checks: Sequence[Check], cards: Mapping[str, CardDef]) -> CheckRunner:
    """`kb outdated`'s view of an entry's checks under a rules date (None: the current rules): each passed
    or not, and for one whose ruling a later rule contradicts, what `kb check` says of it."""
    from kb.game.rules import CURRENT
    from kb.outdated import CheckOutcome

    by_id = {c.id: c for c in checks}

    def run(entry: Entry, at: str | None) -> list[CheckOutcome]:
        mine = [by_id[c] for c in entry.checks if c in by_id]
        date = at or CURRENT
        results = run_checks(mine, rules_date=date, cards=cards)
        return [CheckOutcome(r.id, r.passed, c.ruling_no_longer_holds(date) if r.not_applicable else None)
                for c, r in zip(mine, results, strict=True)]

    return run


def run_entry_checks(entry: Entry, corpus: Corpus, rules_date: str | None = None) -> tuple[list[Check], list[CheckResult]]:
    """An entry's scenario checks and their results under `rules_date` (None: the current rules),
    as `kb show` runs them."""
    if not entry.checks:
        return [], []
    from kb.game.rules import CURRENT

    mine = set(entry.checks)
    checks = [c for c in corpus.checks[0] if c.id in mine]
    return checks, run_checks(checks, rules_date=rules_date or CURRENT, entries_by_check={c.id: entry.id for c in checks},
                              cards=corpus.cards)


# --- `kb check`, as data -------------------------------------------------------------------------

CHECK_FILE_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class CheckRun:
    """What a run of checks found: each check's result, and the problems met on the way (check files
    that do not parse, quotes that pick no ruling or several); `rules` is the date they ran under
    (None: each check under its own)."""

    results: list[CheckResult]
    problems: list[Problem] = field(default_factory=list)
    rules: str | None = None
    rules_gap: RulesGap | None = None  # `rules` long after the corpus's CR in force then (see RulesGap)

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self.results if r.failed]

    @property
    def not_applicable(self) -> list[CheckResult]:
        return [r for r in self.results if r.not_applicable]

    @property
    def unattached(self) -> list[CheckResult]:
        return [r for r in self.results if r.is_unattached]

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.results)

    @property
    def nothing_checked(self) -> bool:
        """Every check run was n/a under the run's rules: none verified anything (tryout53 D8)."""
        return bool(self.results) and len(self.not_applicable) == len(self.results)

    @property
    def ok(self) -> bool:
        """Nothing failed, nothing was in the way and something was verified: what a CI gate asks."""
        return not self.failed and not self.problems and not self.nothing_checked

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules,
            "rules_gap": self.rules_gap.to_json() if self.rules_gap else None,
            "checks": [r.to_json() for r in self.results],
            "summary": {"total": len(self.results), "passed": self.passed, "failed": len(self.failed),
                        "not_applicable": len(self.not_applicable), "unattached": len(self.unattached),
                        "nothing_checked": self.nothing_checked},
        }
        if self.problems:
            data["problems"] = [str(p) for p in self.problems]
        return data


def check_targets(targets: Sequence[str], rules_date: str | None = None, *, open_kb: Callable[[], KB],
                  home: Path, corpus: Corpus) -> CheckRun:
    """Run the checks `targets` name: check files (PATH.yaml) or folders of them, or entry ids (or unique prefixes) whose
    checks to run, or (none) every bundled check. Entry ids need the KB: `open_kb()` opens (or
    builds) it. Without them the checks' entries come from the KB in `home` if there is one (no KB
    is built for that). Raises NotFoundError for a missing file or an entry without checks, and
    CheckError for ids mixed with files or when there is nothing to check."""
    gap = None
    if rules_date is not None:
        # a date before every CR of the corpus is refused, as `kb rule --at`
        in_force = corpus.rules.in_force(rules_date).date
        gap = corpus.rules.gap(rules_date, in_force) or corpus.rules.after_newest(rules_date)
    files: list[Path] = []
    entry_ids: list[str] = []
    for t in targets:
        if t.endswith(CHECK_FILE_SUFFIXES):
            files.append(Path(t))
        elif Path(t).is_dir():  # a folder of check files, as `kb ingest` takes a folder of pages
            files.extend(_check_files_in(Path(t)))
        else:
            entry_ids.append(t)
    for f in files:
        if not f.is_file():
            raise NotFoundError(f"no check file {f}")
    for t in entry_ids:  # a file that is not YAML would otherwise be looked up as an entry id
        if Path(t).is_file():
            raise CheckError(f"{t} is not a check file: check files are YAML ({', '.join(CHECK_FILE_SUFFIXES)})")
    checks, problems = load_checks(files, corpus.cards) if files else corpus.checks
    checks, problems = list(checks), list(problems)  # the corpus's own lists stay as read
    if entry_ids and not files:  # a check id as `kb check` prints it, or its start (`face-down/`)
        picked = {t: [c for c in checks if c.id == t or c.id.startswith(t.rstrip("/") + "/")] for t in entry_ids}
        unknown = [t for t in entry_ids if "/" in t and not picked[t]]
        if unknown:
            raise NotFoundError(f"no check {unknown[0]!r}: `kb check` prints the check ids (FILE-STEM/NAME), "
                                "`kb list` the entry ids")
        if all(picked.values()):
            wanted_checks = {c.id for found in picked.values() for c in found}
            checks, entry_ids = [c for c in checks if c.id in wanted_checks], []
            problems = [p for p in problems if any(p.source == c.file for c in checks)]
    # the bundled checks find their rulings as the build attached them: in the bundled wordings first
    bundled = all(corpus.folder.resolve() in f.resolve().parents for f in files)
    written_against = corpus.source_labels.__contains__ if bundled else None
    if files and entry_ids:
        raise CheckError("give either entry ids or check files, not both")
    if entry_ids:
        kb = open_kb()
        try:
            wanted = {kb.get(i).id for i in entry_ids}
        except NotFoundError as exc:
            raise NotFoundError(f"{exc}; a check id (FILE-STEM/NAME, as `kb check` prints them) is taken too") from None
        by_check, unmatched = match_entries(kb.entries, checks, written_against=written_against)
        checks = [c for c in checks if by_check.get(c.id) in wanted]
        unchecked = wanted - {by_check[c.id] for c in checks}
        if unchecked:
            raise NotFoundError("no checks for entry " + ", ".join(sorted(unchecked)))
    else:
        by_check, unmatched = _entries_if_built(home, checks, written_against)
    problems.extend(unmatched)
    # a quote's problem is at its check's line: the check, though it runs, verifies no ruling
    at_line = {(p.source, p.line): p.reason for p in unmatched}
    unattached = {c.id: at_line[(c.file, c.line)] for c in checks if (c.file, c.line) in at_line}
    if not checks and not problems:  # a CI gate must not go green having checked nothing
        where = ", ".join(str(f) for f in files) if files else f"{corpus.folder / 'checks'}"
        raise CheckError(f"no checks found in {where}; nothing was checked")
    results = run_checks(checks, rules_date, entries_by_check=by_check, unattached=unattached, cards=corpus.cards)
    if rules_date is None:  # each check under its own date: one before every CR runs with a note
        early = {c.id: gap for c in checks if c.rules and (gap := corpus.rules.before_oldest(c.rules, ran_model=True))}
        results = [replace(r, rules_gap=early[r.id]) if r.id in early else r for r in results]
    return CheckRun(results, problems, rules_date, gap)


def _check_files_in(folder: Path) -> list[Path]:
    """The check files (.yaml, .yml) in a folder and its subfolders, hidden ones left out, in path
    order (`kb check my-checks/` as `kb ingest` takes a folder); CheckError when there is none."""
    found = sorted(p for p in folder.rglob("*") if p.name.endswith(CHECK_FILE_SUFFIXES) and p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    if not found:
        raise CheckError(f"no check files ({', '.join(CHECK_FILE_SUFFIXES)}) in the folder {folder}")
    return found


def _entries_if_built(home: Path, checks: list[Check], written_against: Callable[[str], bool] | None,
                      ) -> tuple[dict[str, str], list[Problem]]:
    """Check id -> entry id from the KB in `home`, and the checks whose `ruling:` quote matches no
    entry or several; empty when there is no readable KB."""
    from kb import store

    try:
        if not store.exists(home):
            return {}, []
        return match_entries(store.load(home).entries, checks, written_against=written_against)
    except KBError:
        return {}, []


@dataclass(frozen=True)
class CheckCoverage:
    """How many ruling entries linked to a face-down clause have a scenario check, and which do not."""

    covered: int
    total: int
    missing: list[Entry]

    def to_json(self) -> dict[str, Any]:
        return {"covered": self.covered, "total": self.total,
                "missing": [{"id": e.id, "cards": list(e.cards), "clauses": [r.clause for r in e.rules],
                             "text": e.text} for e in self.missing]}


def check_coverage(entries: Sequence[Entry]) -> CheckCoverage:
    """`coverage` as a report (`kb check --missing`)."""
    return CheckCoverage(*coverage(entries))
