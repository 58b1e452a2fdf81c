"""MTGJSON card data: one card, a list of cards, a set file (v3/v4/v5) or the corpus extracts."""

from __future__ import annotations

import json
from typing import Any, Iterator

from kb.lang import detect
from kb.model import CardName, Kind, Lang, ParseResult, Problem, Record
from kb.normalize import UNDECODABLE_REASON, DateFormatError, is_undecodable, normalize_text, parse_date
from kb.ingest.pages import MAX_RULING_CHARS

FOREIGN_LANGS = {"German": Lang.DE, "Spanish": Lang.ES, "de": Lang.DE, "es": Lang.ES}


def looks_like(text: str) -> bool:
    """Whether the text is JSON: an object, or a list of objects (a page titled "[Foo]" is not)."""
    head = text.lstrip("\ufeff \t\r\n")
    if head.startswith("{"):
        return True
    return head.startswith("[") and head[1:].lstrip(" \t\r\n")[:1] in ("{", "[", "]", '"')


def load(text: str) -> Any:
    """The JSON document; raises ValueError with a line number when it is malformed."""
    doc = text.lstrip("\ufeff")
    try:
        return json.loads(doc)
    except json.JSONDecodeError as e:
        # json's "Unterminated string starting at" names where the cut-off string began; both it and
        # an error at the very end mean the file stops before the JSON does (a download cut short)
        cut = e.msg.startswith("Unterminated string") or e.pos >= len(doc.rstrip())
        why = "the file ends before the JSON does (cut off?)" if cut else e.msg
        raise ValueError(f"malformed JSON at line {e.lineno} column {e.colno}: {why}") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply to be MTGJSON card data") from None


def iter_cards(doc: Any) -> Iterator[dict[str, Any]]:
    """Every card object in a document of any MTGJSON shape (a card, a list of cards, a set file,
    AllPrintings, AtomicCards), in document order: the objects of a `cards` list, and any object
    with a name and rulings or foreign names.

    Walked with an explicit stack, so a deeply nested document is no RecursionError.
    """
    stack: list[tuple[Any, bool]] = [(doc, False)]
    while stack:
        item, in_cards = stack.pop()
        if isinstance(item, list):
            stack.extend((x, in_cards) for x in reversed(item))
        elif isinstance(item, dict):
            if "name" in item and (in_cards or "rulings" in item or "foreignData" in item or "foreignNames" in item):
                yield item
            elif isinstance(item.get("cards"), list):
                stack.append((item["cards"], True))
            elif isinstance(item.get("data"), (dict, list)):
                stack.append((item["data"], False))
            else:  # AllPrintings: {"FRF": {"cards": [...]}, ...}; AtomicCards: {"Hooded Hydra": [face, ...], ...}
                for v in reversed(list(item.values())):
                    if isinstance(v, dict) and isinstance(v.get("cards"), list):
                        stack.append((v["cards"], True))
                    elif isinstance(v, list):
                        stack.append((v, False))


def foreign_names(card: dict[str, Any]) -> dict[Lang, str]:
    names: dict[Lang, str] = {}
    items = card.get("foreignData") or card.get("foreignNames") or []
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        lang = FOREIGN_LANGS.get(str(item.get("language", "")))
        if lang and isinstance(item.get("name"), str) and item["name"]:
            names.setdefault(lang, item["name"])
    printings = card.get("localized_printings")
    for code, printing in (printings.items() if isinstance(printings, dict) else ()):
        if code in ("de", "es") and isinstance(printing, dict) and isinstance(printing.get("name"), str) \
                and printing["name"]:
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
    if not cards and _is_scryfall_rulings(doc):
        problems.append(Problem(source, None, "Scryfall rulings name no card (only its oracle_id): save the "
                                "card's rulings as MTGJSON (AtomicCards.json holds every card's) or as a card page"))
    elif not cards and not _is_set(doc):
        problems.append(Problem(source, None, "no MTGJSON cards found"))
    # a printed German/Spanish set file names its cards sometimes in English, sometimes not: its names
    # come from the English file's foreign names instead (kb.cards joins them by multiverseid)
    printed = is_printed_set(doc)
    card_names: list[CardName] = []
    # MTGJSON repeats a card's rulings on each of its faces (a split or double-faced card is one object
    # per face, each named "Fire // Ice"): a ruling is taken from the first face that gives it
    by_face: dict[tuple[str, str, str], str] = {}
    for card in cards:
        raw_name = card["name"]
        card_line = lines.find(json.dumps(raw_name, ensure_ascii=False) if isinstance(raw_name, str) else '"name"')
        if not isinstance(raw_name, str) or not normalize_text(raw_name) or is_undecodable(raw_name):
            problems.append(Problem(source, card_line, f"card skipped: its name is not a card name: {_show(raw_name)}"))
            continue
        name = normalize_text(raw_name)
        if not printed:
            card_names.append(CardName(name, Lang.EN, name))
            card_names.extend(CardName(name, lang, normalize_text(local)) for lang, local in foreign_names(card).items())
        rulings = card.get("rulings")
        if rulings is None:
            continue
        if not isinstance(rulings, list):
            problems.append(Problem(source, card_line, f"rulings of {name} skipped: not a list but {_show(rulings)}"))
            continue
        for ruling in rulings:
            raw = ruling.get("text") if isinstance(ruling, dict) else None
            line = lines.find_text(raw) if isinstance(raw, str) else card_line
            if not isinstance(raw, str) or not raw.strip():
                problems.append(Problem(source, line, f"ruling of {name} has no text"))
                continue
            if is_undecodable(raw):
                problems.append(Problem(source, line, f"ruling of {name} skipped: {UNDECODABLE_REASON}"))
                continue
            if len(raw) > MAX_RULING_CHARS:
                problems.append(Problem(source, line, f"ruling of {name} skipped: {len(raw)} characters, "
                                        f"over the limit of {MAX_RULING_CHARS}"))
                continue
            face = card.get("faceName")
            if isinstance(face, str):
                key = (name, str(ruling.get("date", "")), raw)
                if by_face.setdefault(key, face) != face:
                    continue  # the same ruling on the card's other face
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


def _is_scryfall_rulings(doc: Any) -> bool:
    """Scryfall's rulings list: {"object": "list", "data": [{"object": "ruling", "comment": ...}]}."""
    data = doc.get("data") if isinstance(doc, dict) else doc
    return isinstance(data, list) and any(isinstance(x, dict) and x.get("object") == "ruling" for x in data)


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


def _show(value: Any) -> str:
    """A short rendering of a JSON value in a message."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, (dict, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:39] + "…"


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
