"""The bundled reference data, loaded once from one folder and handed to every stage.

A `Corpus` is the one reader of `corpus/`: the Comprehensive Rules, the card names table,
terminology, glossary, link overrides, Oracle texts, and the scenario cards and checks. Each part is
read on first use and kept for the life of the object; nothing is cached per module, so two corpora
(a test's own folder, a changed `$KB_CORPUS`) never see each other's data. The build, the CLI and
the benchmarks make one and pass it down; library functions take what they need as arguments.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:  # the parts are imported when first read: `kb rule` needs no card table
    from kb.cards import CardNames
    from kb.checks import Check
    from kb.cr import ClauseMatcher, RulesCorpus, RulesVersion
    from kb.cr.query import ClauseReport
    from kb.game.cards import CardDef
    from kb.cr.links import Override
    from kb.model import Problem
    from kb.oracle import CardLookup, Oracle
    from kb.search.glossary import Glossary, MechanicHistory
    from kb.terminology import Terminology


@dataclass(eq=False)
class Corpus:
    """The reference data in `folder` (`corpus/` of the repository, or `$KB_CORPUS`)."""

    folder: Path

    @classmethod
    def default(cls) -> Corpus:
        """The corpus `kb.paths.corpus_dir()` names now (read anew: a changed `$KB_CORPUS` counts)."""
        from kb import paths

        return cls(paths.corpus_dir())

    def _files(self) -> list[Path]:
        return sorted(p for p in self.folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)

    def stat_key(self) -> str:
        """A cheap key of every file's path, size and modification time (~1 ms): when it matches the
        one a build recorded, the corpus is the one the KB was built from."""
        h = hashlib.sha256()
        for path in self._files():
            st = path.stat()
            h.update(f"{path.relative_to(self.folder).as_posix()}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
        return h.hexdigest()

    def fingerprint(self) -> str:
        """SHA-256 over every file's path and bytes (~30 ms): what a KB is built from, so a changed
        corpus (a new judge-kb, an edited check) is noticed even when file times lie."""
        h = hashlib.sha256()
        for path in self._files():
            h.update(path.relative_to(self.folder).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
        return h.hexdigest()

    def same_as_built(self, meta: Mapping[str, Any]) -> bool:
        """Whether this corpus is the one a KB with this `meta` was built from (True for a KB that did
        not record it)."""
        if "corpus_fingerprint" not in meta or meta.get("corpus_stat") == self.stat_key():
            return True
        return bool(meta["corpus_fingerprint"] == self.fingerprint())

    def sources(self) -> list[Path]:
        """The bundled ruling sources: the seed pages and the MTGJSON files."""
        from kb.ingest import bundled_sources

        return bundled_sources(self.folder)

    @cached_property
    def source_labels(self) -> frozenset[str]:
        """How records and problems name the bundled sources (`kb.ingest.source_name`)."""
        from kb.ingest import source_name

        return frozenset(source_name(p) for p in self.sources())

    def match_clause(self, text: str) -> tuple[str, float] | None:
        """The current clause number and a similarity in (0, 1] when `text` is a copy of a clause of
        the current CR (quotes, spaces and case may differ), else None (e.g. for a ruling)."""
        return self.clause_matcher.match(text)

    @cached_property
    def clause_matcher(self) -> ClauseMatcher:
        from kb.cr import ClauseMatcher

        return ClauseMatcher(self.current_rules)

    @cached_property
    def current_rules(self) -> RulesVersion:
        """The newest complete CR (alone, when `rules` was not read: nothing to align)."""
        from kb.cr import load_current

        if "rules" in self.__dict__:  # cached_property keeps what it read in the instance dict
            return self.rules.current
        return load_current(self.folder)

    def clause_texts(self, numbers: Sequence[str]) -> dict[str, str]:
        """The current CR's text of each clause of `numbers` it has (read from the disk cache's clause
        file: `kb show` then unpickles no CR version)."""
        from kb.cr.load import stored_clause_texts

        stored = stored_clause_texts(self.folder, numbers, lambda: self.rules)
        if stored is not None:
            return stored
        current = self.current_rules
        return {n: current.clauses[n].text for n in numbers if n in current.clauses}

    def clause_report(self, number: str, at: str | None = None) -> ClauseReport:
        """`kb.cr.query.clause_report` of the rules: without `at`, a current clause's report is read
        from the disk cache (`kb rule` then reads no CR version)."""
        from kb.cr.load import stored_clause_report
        from kb.cr.query import clause_report

        if at is None:
            stored = stored_clause_report(self.folder, number, lambda: self.rules)
            if stored is not None:
                return stored
        return clause_report(self.rules, number, at)

    @cached_property
    def rules(self) -> RulesCorpus:
        """Every CR version of `rules/`, aligned (from the disk cache when its inputs are unchanged)."""
        from kb.cr import load_rules

        return load_rules(self.folder)

    @cached_property
    def names(self) -> CardNames:
        """The EN/DE/ES card names table, falling back on the Oracle cards' names (read on the first
        name the table does not know). Callers that add names work on a `copy()`."""
        from kb.cards import load_names

        names = load_names(self.folder)
        names.fallback, names.oracle_text, names.closest = self._oracle_name, self._oracle_text, self._closest_name
        return names

    def _closest_name(self, name: str) -> tuple[str, str] | None:
        """(the known name closest to `name`, its card's English name), as `kb card` forgives a typo
        (`CardLookup.closest`: the Oracle's names and the bundled names table), or None."""
        from kb.normalize import name_key
        from kb.oracle import within

        english = self.card_lookup.closest(name)
        if english is None:
            return None
        card = self.card_lookup.get(english)
        known = list(dict.fromkeys([*self.names.names_of(english), *(card.names.values() if card else ())]))
        key = name_key(name)
        # the name of that card nearest to the one written: the Spanish name for a misspelt Spanish title
        nearest = min(known, key=lambda local: within(key, k := name_key(local), max(len(key), len(k))) or 0)
        return nearest, english

    def _oracle_text(self, name: str) -> str | None:
        """A card's Oracle text: the 2018 Oracle's, else the bundled MTGJSON files' (MKM's, DSK's); then,
        a line each, the texts printed on its cards in English, German and Spanish (a German or
        Spanish card page shows the printed German or Spanish text above the rulings)."""
        card = self.card_lookup.get(name) or self.newer_cards.get(name)
        texts = ([card.text] if card is not None and card.text else []) + self.printed_texts.get(name, [])
        return "\n".join(texts) if texts else None

    @cached_property
    def printed_texts(self) -> dict[str, list[str]]:
        """English card name → the texts printed on its cards, English, German and Spanish, as the
        bundled MTGJSON files give them (`foreignData`, the printed `XXX.de.json` set files)."""
        from kb.cards import parallel_texts

        texts: list[str] = []
        for path in sorted((self.folder / "mtgjson").rglob("*.json")):
            try:
                texts.append(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):  # the build reports a bad bundled file
                continue
        try:
            pairs = parallel_texts(texts)
        except ValueError:
            return {}
        found: dict[str, list[str]] = {}
        for pair in pairs:
            known = found.setdefault(pair.card, [])
            known.extend(t for t in (pair.english, pair.foreign) if t not in known)
        return found

    def _oracle_name(self, name: str) -> str | None:
        card = self.card_lookup.get(name)
        return card.name if card is not None else None

    @cached_property
    def terminology(self) -> Terminology:
        from kb.terminology import Terminology

        return Terminology.from_yaml((self.folder / "terminology.yaml").read_text(encoding="utf-8"))

    @cached_property
    def glossary(self) -> Glossary:
        """The multilingual glossary with the search lexicon merged in."""
        from kb.search.glossary import Glossary

        return Glossary.load_corpus(self.folder)

    @cached_property
    def mechanic_history(self) -> MechanicHistory:
        """When the glossary's mechanics joined the bundled CRs: which of them a ruling's words can
        mean, by the date they were written ("to disguise" in 2014 is the verb). A pure function of
        the CR texts and the glossary, remembered in the cache as dedup's rule words are (~0.3 s of
        parsing every CR version and the glossary per build otherwise)."""
        from kb.cr.load import cache_inputs
        from kb.ingest import dedup
        from kb.search import glossary
        from kb.store.cache import cached, module_files

        def compute() -> MechanicHistory:
            return glossary.MechanicHistory.from_rules(self.glossary, self.rules.versions,
                                                       lambda v: dedup.keywords_from_rules([v]))

        files = [self.folder / name for name in glossary.CORPUS_FILES]
        inputs = [*cache_inputs(self.folder), *[f for f in files if f.is_file()], *module_files(glossary, dedup)]
        return cached("mechanichistory", sorted(set(inputs)), compute)

    @cached_property
    def base_glossary(self) -> Glossary:
        """`glossary.yaml` alone, without the search lexicon: the concepts dedup tells translations by."""
        from kb.search.glossary import GLOSSARY_FILE, Glossary

        return Glossary.read(self.folder / GLOSSARY_FILE)

    @cached_property
    def glossary_digest(self) -> str:
        """The digest `glossary` carries, without parsing YAML (what a search index is checked by)."""
        from kb.search.glossary import corpus_digest

        return corpus_digest(self.folder)

    @cached_property
    def overrides(self) -> list[Override]:
        """Reviewed corrections of rule links (`links-overrides.yaml`; none when it is absent)."""
        from kb.cr.links import parse_overrides

        path = self.folder / "links-overrides.yaml"
        return parse_overrides(path.read_text(encoding="utf-8"), path.name) if path.is_file() else []

    @cached_property
    def oracle(self) -> Oracle:
        """The 2018 Oracle cards (text, type, EN/DE/ES names), remembered in the cache while the
        Oracle file and the code that reads it are unchanged (parsing its JSON cost each build ~0.4 s
        at 100k rulings, unpickling ~0.1 s)."""
        from kb import model, normalize, oracle as oracle_module
        from kb.oracle import load_oracle, oracle_path
        from kb.store.cache import cached, module_files

        inputs = [p for p in (oracle_path(self.folder),) if p.is_file()]
        return cached("oracle", inputs + module_files(oracle_module, model, normalize), lambda: load_oracle(self.folder))

    @cached_property
    def card_lookup(self) -> CardLookup:
        """The Oracle cards by any EN/DE/ES name, and the card name closest to a misspelt one (among
        the Oracle's names and the bundled names table), without parsing the Oracle file: a SQLite
        copy in the data directory's cache, made on first use (in memory where none can be kept)."""
        from kb import cards, normalize, oracle as oracle_module
        from kb.cards import NAMES_FILE
        from kb.oracle import CardLookup, oracle_path
        from kb.store.cache import cached_file, module_files

        def names() -> list[tuple[str, str]]:
            table = self.names.names
            return list(self.oracle.names()) + [(local, en) for en, by_lang in table.items() for local in by_lang.values()]

        inputs = [p for p in (oracle_path(self.folder), self.folder / NAMES_FILE) if p.is_file()]
        code = module_files(oracle_module, normalize, cards)  # and CardMatcher's, without importing kb.search:
        inputs += code + [code[0].parent / "search" / "cardnames.py"]
        path = cached_file("cardlookup", inputs, lambda out: CardLookup.write(out, self.oracle, names()), ".sqlite3")
        return CardLookup.open(path) if path is not None else CardLookup.memory(self.oracle, names())

    @cached_property
    def newer_cards(self) -> Oracle:
        """The cards of the bundled MTGJSON files (the 2018 Oracle doesn't have MKM's or DSK's), the
        newest file's first: what `kb card` shows of a card the Oracle cards lack."""
        from kb.ingest import mtgjson
        from kb.oracle import Oracle, cards_from_mtgjson

        found = Oracle()
        for path in sorted((self.folder / "mtgjson").glob("*.json"), reverse=True):
            try:
                cards = cards_from_mtgjson(mtgjson.load(path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError, ValueError):  # the build reports a bad bundled file
                continue
            for card in cards:
                found.add(card)
        return found

    @cached_property
    def set_names(self) -> frozenset[str]:
        """The names of the sets of the bundled MTGJSON set files, in any language, and the part after
        a set name's colon ("House of Horror" of "Duskmourn: House of Horror"): the sets of the cards
        with face-down play and of the newer extracts, not every set (the 2018 Oracle cards give only
        set codes). `kb search` reads a set's name in a question as no card's. Remembered in the cache
        (~0.15 s to parse the files)."""
        from kb.store.cache import cached

        paths = sorted((self.folder / "mtgjson").rglob("*.json"))

        def compute() -> frozenset[str]:
            import json

            found: set[str] = set()
            for path in paths:
                try:
                    doc = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, UnicodeDecodeError, ValueError):  # the build reports a bad bundled file
                    continue
                doc = doc.get("data", doc) if isinstance(doc, dict) else None  # MTGJSON v5: {"meta", "data"}
                if isinstance(doc, dict) and isinstance(doc.get("name"), str) and isinstance(doc.get("cards"), list):
                    name = doc["name"].strip()
                    found.update(n for n in (name, name.partition(":")[2].strip()) if n)
            return frozenset(found)

        return cached("setnames", [*paths, Path(__file__)], compute)

    @cached_property
    def card_texts(self) -> dict[str, str]:
        """English card name → Oracle text: the Oracle cards, then the newer MTGJSON files."""
        from kb.cr.links import card_texts

        return card_texts(self.oracle, self.folder / "mtgjson")

    @cached_property
    def cards(self) -> dict[str, CardDef]:
        """The scenario cards of `cards/*.yaml`, by name (remembered in the cache while the card files
        and the code that reads them are unchanged: parsing ~100 YAML files cost `kb show` ~0.07 s)."""
        from kb import checks, game, model, normalize
        from kb.checks import load_cards
        from kb.store.cache import cached, module_files

        inputs = [*sorted((self.folder / "cards").glob("*.yaml")), *module_files(checks, game, model, normalize)]
        return cached("scenariocards", inputs, lambda: load_cards(self.folder / "cards"))

    @cached_property
    def checks(self) -> tuple[list[Check], list[Problem]]:
        """The scenario checks of `checks/*.yaml`, and the problems of those that can't be used
        (remembered in the cache while the check and card files and the rules model are unchanged)."""
        from kb import checks, game, model, normalize
        from kb.checks import load_checks
        from kb.store.cache import cached, module_files

        code = module_files(checks, game, model, normalize)
        inputs = [*self.check_files(), *sorted((self.folder / "cards").glob("*.yaml")), *code]
        return cached("checkset", inputs, lambda: load_checks(self.check_files(), self.cards))

    def check_files(self) -> list[Path]:
        return sorted((self.folder / "checks").glob("*.yaml"))
