"""MTGJSON card data: one card, a list of cards, a set file (v3/v4/v5) or the corpus extracts."""

from __future__ import annotations

import bisect
import json
import re
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


# keys of an MTGJSON card object (v3 to v5) besides its name: an object with none of them is no card
CARD_KEYS = frozenset({"type", "types", "text", "manaCost", "number", "layout", "uuid", "identifiers", "setCode",
                       "colors", "rarity", "power", "toughness", "printings", "legalities", "multiverseid"})


def iter_cards(doc: Any, nameless: bool = False) -> Iterator[dict[str, Any]]:
    """Every card object in a document of any MTGJSON shape (a card, a list of cards, a set file,
    AllPrintings, AtomicCards), in document order: the objects of a `cards` list, and any object
    with a name and rulings or foreign names; with `nameless`, also the objects of a `cards` list and
    the objects with a list of rulings that have no name (cards the ingest must report).

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
            elif nameless and "name" not in item and (in_cards or isinstance(item.get("rulings"), list)):
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
    cards = list(iter_cards(doc, nameless=True))
    where = _Places(text, doc)
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
    if cards and not any("name" in card or CARD_KEYS & card.keys() for card in cards):
        # JSON of another shape (names under "english", a comparison of snapshots): one line for the file,
        # not "card skipped: no name" for each object with a `cards` list or rulings (tryout45 defect 7)
        unread = sum(len(r) for card in cards if isinstance(r := card.get("rulings"), list))
        read = f" (its {unread} ruling{'s are' if unread != 1 else ' is'} not read)" if unread else ""
        problems.append(Problem(source, where.of(cards[0]), "not MTGJSON card data: no object with a card's keys "
                                f"(name, type, text, ...){read}; kb ingest reads MTGJSON card, set and AtomicCards "
                                "files, and card pages"))
        cards = []
    for card in cards:
        if "name" not in card:
            rulings = card.get("rulings")
            n = len(rulings) if isinstance(rulings, list) else 0
            lost = f", so its {n} ruling{'s are' if n > 1 else ' is'} not read" if n else ""
            problems.append(Problem(source, where.of(card), f"card skipped: no name{lost}"))
            continue
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
            problems.append(Problem(source, where.of(card, "rulings", card_line),
                                    f"rulings of {name} skipped: not a list but {_show(rulings)}"))
            continue
        for ruling in rulings:
            raw = ruling.get("text") if isinstance(ruling, dict) else None
            line = lines.find_text(raw) if isinstance(raw, str) else card_line
            if not isinstance(raw, str) or not raw.strip():
                at = (where.of(ruling, "text", where.of(ruling, None, line)) if isinstance(ruling, dict)
                      else where.of(card, "rulings", line))
                problems.append(Problem(source, at, f"ruling of {name} has no text"))
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
                problems.append(Problem(source, where.of(ruling, "date", line), f"ruling of {name} skipped: {e}"))
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


# A JSON object's opening brace, and a string (a key when a colon follows it)
_TOKEN = re.compile(r'[{\[]|"(?:[^"\\]|\\.)*"(\s*:)?')


class _Places:
    """Lines of the objects of a parsed JSON document and of their keys, for problems about a value
    that is no string to search the text for (`"text": 12345`, a card with no name), or about a key
    other than the one searched (a ruling's bad date is on its `date` line, not its text's).

    The parsed document, walked in order, meets its objects and keys in the order the text gives
    their braces and keys; worked out on first use, and given up (callers' fallback lines) when the
    two disagree, as a key given twice in one object makes them."""

    def __init__(self, text: str, doc: Any) -> None:
        self.text, self.doc = text, doc
        self.lines: dict[tuple[int, str | None], int] | None = None

    def of(self, obj: dict[str, Any], key: str | None = None, fallback: int | None = None) -> int | None:
        """The line of `obj`'s key `key`, or of the object's opening brace (key None)."""
        if self.lines is None:
            self.lines = self._walk()
        return self.lines.get((id(obj), key), fallback)

    def _walk(self) -> dict[tuple[int, str | None], int]:
        breaks = [m.start() for m in re.finditer("\n", self.text)]
        tokens = (m for m in _TOKEN.finditer(self.text) if m.group(0)[0] != '"' or m.group(1))
        found: dict[tuple[int, str | None], int] = {}
        stack: list[tuple[Any, tuple[int, str] | None]] = [(self.doc, None)]
        try:
            while stack:
                item, key = stack.pop()
                if key is None and not isinstance(item, (dict, list)):
                    continue
                token = next(tokens)
                opened = token.group(0)[0]
                line = bisect.bisect_right(breaks, token.start()) + 1
                if key is not None:
                    raw = self.text[token.start():token.end(1) if token.group(1) else token.end()]
                    raw = raw[:raw.rindex('"') + 1]
                    if opened != '"' or (raw[1:-1] if "\\" not in raw else json.loads(raw)) != key[1]:
                        return {}
                    found[key] = line
                elif isinstance(item, dict):
                    if opened != "{":
                        return {}
                    found[(id(item), None)] = line
                    for k, v in reversed(item.items()):
                        stack.append((v, None))
                        stack.append((None, (id(item), k)))
                else:
                    if opened != "[":
                        return {}
                    stack.extend((v, None) for v in reversed(item))
        except StopIteration:
            return {}
        return found
