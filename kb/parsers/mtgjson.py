"""MTGJSON card data: one card, a list of cards, a set file (v3/v4/v5) or the corpus extracts."""

from __future__ import annotations

import json
from typing import Any, Iterator

from kb.lang import detect
from kb.model import CardName, Kind, Lang, ParseResult, Problem, Record
from kb.normalize import DateFormatError, normalize_text, parse_date

FOREIGN_LANGS = {"German": Lang.DE, "Spanish": Lang.ES, "de": Lang.DE, "es": Lang.ES}


def looks_like(text: str) -> bool:
    return text.lstrip("\ufeff \t\r\n").startswith(("{", "["))


def load(text: str) -> Any:
    """The JSON document; raises ValueError with a line number when it is malformed."""
    try:
        return json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError as e:
        raise ValueError(f"malformed JSON at line {e.lineno} column {e.colno}: {e.msg}") from None


def iter_cards(doc: Any) -> Iterator[dict[str, Any]]:
    """Every card object in a document of any MTGJSON shape."""
    if isinstance(doc, list):
        for item in doc:
            yield from iter_cards(item)
    elif isinstance(doc, dict):
        if "name" in doc and ("rulings" in doc or "foreignData" in doc or "foreignNames" in doc):
            yield doc
        elif isinstance(doc.get("cards"), list):
            yield from iter_cards(doc["cards"])
        elif isinstance(doc.get("data"), (dict, list)):
            yield from iter_cards(doc["data"])
        else:  # AllPrintings: {"FRF": {"cards": [...]}, ...}
            for value in doc.values():
                if isinstance(value, dict) and isinstance(value.get("cards"), list):
                    yield from iter_cards(value["cards"])


def foreign_names(card: dict[str, Any]) -> dict[Lang, str]:
    names: dict[Lang, str] = {}
    for item in card.get("foreignData") or card.get("foreignNames") or []:
        lang = FOREIGN_LANGS.get(item.get("language", ""))
        if lang and item.get("name"):
            names.setdefault(lang, item["name"])
    for code, printing in (card.get("localized_printings") or {}).items():
        if code in ("de", "es") and printing.get("name"):
            names.setdefault(Lang(code), printing["name"])
    return names


def parse(text: str, source: str) -> ParseResult:
    """Rulings of every card in an MTGJSON document as records (English, dated)."""
    try:
        doc = load(text)
    except ValueError as e:
        return ParseResult((), (Problem(source, _error_line(str(e)), str(e)),))
    lines = _LineFinder(text)
    records: list[Record] = []
    problems: list[Problem] = []
    cards = list(iter_cards(doc))
    if not cards and not _is_set(doc):
        problems.append(Problem(source, None, "no MTGJSON cards found"))
    card_names: list[CardName] = []
    for card in cards:
        name = normalize_text(str(card["name"]))
        card_names.append(CardName(name, Lang.EN, name))
        card_names.extend(CardName(name, lang, normalize_text(local)) for lang, local in foreign_names(card).items())
        card_line = lines.find(json.dumps(card["name"], ensure_ascii=False))
        for ruling in card.get("rulings") or []:
            raw = ruling.get("text") if isinstance(ruling, dict) else None
            line = lines.find_text(raw) if isinstance(raw, str) else card_line
            if not isinstance(raw, str) or not raw.strip():
                problems.append(Problem(source, line, f"ruling of {name} has no text"))
                continue
            try:
                iso = parse_date(str(ruling.get("date", "")))
            except DateFormatError as e:
                problems.append(Problem(source, line, f"ruling of {name} skipped: {e}"))
                continue
            records.append(Record(
                text=normalize_text(raw), original=raw, lang=detect(raw), date=iso,
                source=source, line=line, kind=Kind.RULING, card=name,
            ))
    return ParseResult(tuple(records), tuple(problems), tuple(dict.fromkeys(card_names)))


def _is_set(doc: Any) -> bool:
    """A set file whose cards carry no rulings or foreign names: valid card data, nothing to ingest."""
    return isinstance(doc, dict) and isinstance(doc.get("cards"), list) and all(
        isinstance(c, dict) and "name" in c for c in doc["cards"])


def is_printed_set(doc: Any) -> bool:
    """A v3 set file of the cards as printed in another language (`XXX.de.json`): names, types and
    texts, no rulings. Its names join the English cards by multiverseid (see `printed_cards`)."""
    return (isinstance(doc, dict) and isinstance(doc.get("cards"), list)
            and str(doc.get("language", "English")) not in ("English", "en"))


def printed_cards(doc: Any) -> Iterator[tuple[Lang, int, dict[str, Any]]]:
    """(language, multiverseid, card) of each German or Spanish printed card in a printed set file."""
    lang = FOREIGN_LANGS.get(str(doc.get("language"))) if is_printed_set(doc) else None
    if lang is None:
        return
    for card in doc["cards"]:
        if isinstance(card, dict) and isinstance(card.get("multiverseid"), int) and card.get("name"):
            yield lang, card["multiverseid"], card


def _error_line(message: str) -> int | None:
    parts = message.split(" line ")
    return int(parts[1].split()[0]) if len(parts) > 1 else None


class _LineFinder:
    """Line numbers of strings in the raw JSON, found in document order."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def find(self, needle: str) -> int:
        at = self.text.find(needle, self.pos)
        if at < 0:
            at = self.text.find(needle)
        if at < 0:
            return 1
        self.pos = at + 1
        return self.text.count("\n", 0, at) + 1

    def find_text(self, raw: str) -> int:
        for encoded in (json.dumps(raw, ensure_ascii=False), json.dumps(raw)):
            at = self.text.find(encoded, self.pos)
            if at >= 0:
                self.pos = at + 1
                return self.text.count("\n", 0, at) + 1
        return self.find(raw[:40])
