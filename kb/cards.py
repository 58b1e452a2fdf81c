"""Card identity across languages: the EN/DE/ES names table derived from MTGJSON data."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from kb.model import Lang
from kb.normalize import match_key, normalize_text
from kb.ingest import mtgjson

NAMES_FILE = "card-names.json"


@dataclass
class CardNames:
    """English card name for any known name in English, German or Spanish."""

    names: dict[str, dict[Lang, str]] = field(default_factory=dict)  # English → lang → name
    _index: dict[str, str] = field(default_factory=dict, repr=False)

    # Other names of a card in a language (printings differ: Vidente profundizador / profundizadora).
    aliases: dict[str, dict[Lang, list[str]]] = field(default_factory=dict)
    # Where `resolve` looks when the table does not know a name (the Oracle cards' EN/DE/ES names):
    # a judge's page for a card with no bundled ruling still gets its English name. Not in to_json.
    fallback: Callable[[str], str | None] | None = field(default=None, repr=False, compare=False)
    # A card's Oracle text by its English name (None: not known): a card page's parser tells the card's
    # printed text above the rulings from a ruling that lost its date by it. Not in to_json.
    oracle_text: Callable[[str], str | None] | None = field(default=None, repr=False, compare=False)
    # (the known name closest to a misspelt one, its card's English name), or None when none is close:
    # a card page's title one letter off a card's name gets a "did you mean". Not in to_json.
    closest: Callable[[str], tuple[str, str] | None] | None = field(default=None, repr=False, compare=False)

    def add(self, english: str, lang: Lang, name: str) -> None:
        english, name = normalize_text(english), normalize_text(name)
        first = self.names.setdefault(english, {Lang.EN: english}).setdefault(lang, name)
        if match_key(first) != match_key(name):
            others = self.aliases.setdefault(english, {}).setdefault(lang, [])
            if all(match_key(o) != match_key(name) for o in others):
                others.append(name)
        self._index.setdefault(match_key(name), english)
        self._index.setdefault(match_key(english), english)

    def copy(self) -> CardNames:
        """A copy to add names to, leaving this table as it is."""
        return CardNames({en: dict(by_lang) for en, by_lang in self.names.items()}, dict(self._index),
                         {en: {lang: list(n) for lang, n in by_lang.items()} for en, by_lang in self.aliases.items()},
                         self.fallback, self.oracle_text, self.closest)

    def names_of(self, english: str) -> list[str]:
        """Every name the table knows for the card `english` (its name first), in any language."""
        by_lang = self.names.get(english, {})
        others = [n for names in self.aliases.get(english, {}).values() for n in names]
        return list(dict.fromkeys([english, *by_lang.values(), *others]))

    def every_name(self) -> Iterator[tuple[str, str]]:
        """(English name, a name of that card) for every name known, in any language."""
        for english, by_lang in self.names.items():
            for local in by_lang.values():
                yield english, local
            for others in self.aliases.get(english, {}).values():
                for local in others:
                    yield english, local

    def resolve(self, name: str) -> str | None:
        """The English name of the card called `name` in any known language, or None."""
        found = self._index.get(match_key(name))
        if found is None and self.fallback is not None:
            found = self.fallback(name)
        return found

    def to_json(self) -> dict[str, Any]:
        return {
            "description": "English, German and Spanish card names, derived from the MTGJSON files in corpus/mtgjson/ "
                           "(foreignData / foreignNames / localized_printings; the printed German and Spanish set files give the same names by multiverseid). Regenerate with: python -m kb.cards",
            "cards": [self._row(english, by_lang) for english, by_lang in sorted(self.names.items())],
        }

    def _row(self, english: str, by_lang: dict[Lang, str]) -> dict[str, Any]:
        row: dict[str, Any] = {lang.value: local for lang, local in sorted(by_lang.items())}
        also = self.aliases.get(english)
        if also:
            row["also"] = {lang.value: sorted(names) for lang, names in sorted(also.items())}
        return row

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> CardNames:
        table = cls()
        for row in doc["cards"]:
            for code, name in row.items():
                if code != "also":
                    table.add(row["en"], Lang(code), name)
            for code, names in (row.get("also") or {}).items():
                for name in names:
                    table.add(row["en"], Lang(code), name)
        return table

    @classmethod
    def from_mtgjson(cls, texts: Iterable[str]) -> CardNames:
        table = cls()
        for text in texts:
            for name in mtgjson.parse(text, "").card_names:
                table.add(name.english, name.lang, name.name)
        return table


@dataclass(frozen=True, slots=True)
class ParallelText:
    """One printing's English text and its German or Spanish printed text (for the glossary)."""

    card: str
    lang: Lang
    english: str
    foreign: str


def parallel_texts(texts: Iterable[str]) -> list[ParallelText]:
    """English and German/Spanish printed texts of the same printings, from MTGJSON documents: v5
    `foreignData` texts, and v3 printed set files (`XXX.de.json`) joined to the English set file's
    `foreignNames` by multiverseid."""
    out: list[ParallelText] = []
    english_of: dict[int, dict[str, Any]] = {}
    printed: list[tuple[Lang, int, dict[str, Any]]] = []
    for text in texts:
        doc = mtgjson.load(text)
        if mtgjson.is_printed_set(doc):
            printed.extend(mtgjson.printed_cards(doc))
            continue
        for card in mtgjson.iter_cards(doc):
            for item in card.get("foreignNames") or card.get("foreignData") or []:
                lang = mtgjson.FOREIGN_LANGS.get(str(item.get("language")))
                mvid = item.get("multiverseid") or item.get("multiverseId")
                if isinstance(mvid, int):
                    english_of[mvid] = card
                if lang and item.get("text") and card.get("text"):
                    out.append(ParallelText(card["name"], lang, card["text"], item["text"]))
    for lang, mvid, card in printed:
        english = english_of.get(mvid)
        if english is None:
            continue
        printed_english = english.get("originalText") or english.get("text")
        if printed_english and card.get("originalText"):
            out.append(ParallelText(english["name"], lang, printed_english, card["originalText"]))
    return out


# A keyword line of a printed text: keywords apart by commas ("Flying, first strike"), each with its
# parameter (a cost, a number, "—Discard a card") and the line's reminder text in parentheses.
_REMINDER = re.compile(r"\s*\([^)]*\)?")
_KEYWORD_TAIL = re.compile(r"\s*(?:—|\{|\d|X\b|:).*$")
MAX_PRINTED_WORDS = 3  # "Daña dos veces" (double strike); a longer "name" is a sentence, not a keyword


def printed_keywords(pairs: Iterable[ParallelText], keywords: Iterable[str]) -> dict[str, dict[Lang, set[str]]]:
    """The German and Spanish names the printed texts give each of `keywords` (the CR's keyword names,
    lowercase): a line of the English text that is keywords only ("Hideaway (This land enters tapped ...)",
    "Flying, first strike") and the line at the same place of the foreign text, keyword by keyword
    ("Refugium (Dieses Land ...)", "Esconder. (Esta tierra ...)"). Lines that do not pair up are skipped."""
    known = frozenset(k.lower() for k in keywords)
    found: dict[str, dict[Lang, set[str]]] = {}
    for pair in pairs:
        english, foreign = pair.english.split("\n"), pair.foreign.split("\n")
        if len(english) != len(foreign):
            continue
        for en_line, foreign_line in zip(english, foreign):
            en_items, foreign_items = _keyword_items(en_line), _keyword_items(foreign_line)
            if len(en_items) != len(foreign_items):
                continue
            for en_item, foreign_item in zip(en_items, foreign_items):
                keyword = _KEYWORD_TAIL.sub("", en_item).strip().lower()
                name = _KEYWORD_TAIL.sub("", foreign_item).strip().rstrip(".").strip()
                if keyword in known and name and len(name.split()) <= MAX_PRINTED_WORDS:
                    found.setdefault(keyword, {}).setdefault(pair.lang, set()).add(name)
    return found


def _keyword_items(line: str) -> list[str]:
    return [item.strip() for item in re.split(r"[,;]\s*", _REMINDER.sub("", line).strip().rstrip("."))]


def load_names(corpus: Path) -> CardNames:
    return CardNames.from_json(json.loads((corpus / NAMES_FILE).read_text(encoding="utf-8")))


def derive_names(corpus: Path) -> CardNames:
    return CardNames.from_mtgjson(p.read_text(encoding="utf-8") for p in sorted((corpus / "mtgjson").rglob("*.json")))


if __name__ == "__main__":  # regenerate corpus/card-names.json
    import sys

    from kb.paths import corpus_dir

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else corpus_dir()
    out = folder / NAMES_FILE
    out.write_text(json.dumps(derive_names(folder).to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")
