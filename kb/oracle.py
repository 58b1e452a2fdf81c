"""Oracle cards: what every card does (2018 Oracle text, type, mana cost) and its EN/DE/ES names.

`corpus/oracle/mtgjson3-2018-oracle-cards.json.gz` holds 19,032 cards (provenance in SOURCES.md).
A question names cards the KB has no ruling for; their Oracle text says which rules the question is
about (an artifact that stops activated abilities → activated abilities, special actions).

Measured: reading and parsing the file takes ~0.1 s, so it is loaded once, on first use.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from kb.errors import InputError, NotFoundError
from kb.model import Lang
from kb.normalize import name_key as name_key  # kb.search.cardnames imports it from here

ORACLE_FILE = Path("oracle") / "mtgjson3-2018-oracle-cards.json.gz"


@dataclass(frozen=True, slots=True)
class OracleCard:
    name: str  # English Oracle name
    mana_cost: str | None
    type: str
    text: str
    names: dict[Lang, str]  # every language with a printed name, English included
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    layout: str = "normal"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mana_cost": self.mana_cost, "type": self.type, "text": self.text,
                "names": {lang.value: n for lang, n in self.names.items()}, "power": self.power,
                "toughness": self.toughness, "loyalty": self.loyalty, "layout": self.layout}


@dataclass
class Oracle:
    """Cards by English name, and a look-up from any EN/DE/ES name to the card."""

    cards: dict[str, OracleCard] = field(default_factory=dict)
    _index: dict[str, str] = field(default_factory=dict, repr=False)  # name_key(name) -> English

    @classmethod
    def from_json(cls, doc: Any) -> Oracle:
        """From the bundled file's structure: {"meta": ..., "cards": [{name, manaCost, type, text,
        power, toughness, loyalty, layout, names: {de, es}}, ...]}."""
        if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
            raise InputError("oracle file: expected an object with a `cards` list")
        oracle = cls()
        for n, row in enumerate(doc["cards"], start=1):
            if not isinstance(row, dict) or not row.get("name"):
                raise InputError(f"oracle file: card #{n} has no name")
            names = {Lang.EN: row["name"]}
            for code, local in (row.get("names") or {}).items():
                if code in ("de", "es") and local:
                    names[Lang(code)] = local
            oracle.add(OracleCard(name=row["name"], mana_cost=row.get("manaCost"), type=row.get("type") or "",
                                  text=row.get("text") or "", names=names, power=row.get("power"),
                                  toughness=row.get("toughness"), loyalty=row.get("loyalty"),
                                  layout=row.get("layout") or "normal"))
        return oracle

    @classmethod
    def from_bytes(cls, data: bytes) -> Oracle:
        """From the file's bytes, gzip-compressed or not."""
        try:
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            return cls.from_json(json.loads(data.decode("utf-8")))
        except (OSError, EOFError, UnicodeDecodeError, ValueError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(f"oracle file unreadable: {exc}") from None

    def add(self, card: OracleCard) -> None:
        self.cards.setdefault(card.name, card)
        for local in card.names.values():
            if name_key(local):  # "_____" (Unhinged) has no letters to look it up by
                self._index.setdefault(name_key(local), card.name)

    def __len__(self) -> int:
        return len(self.cards)

    def __iter__(self) -> Iterator[OracleCard]:
        return iter(self.cards.values())

    def get(self, name: str) -> OracleCard | None:
        """The card called `name` in English, German or Spanish (case and accents ignored)."""
        key = name_key(name)
        english = self._index.get(key) if key else None  # "[/]" is no name
        return self.cards.get(english) if english else None

    def card(self, name: str) -> OracleCard:
        found = self.get(name)
        if found is None:
            raise NotFoundError(f"no card called {name!r} in the Oracle cards")
        return found

    def names(self) -> Iterator[tuple[str, str]]:
        """(name in some language, English name) for every name of every card."""
        for card in self.cards.values():
            for local in card.names.values():
                yield local, card.name


def cards_from_mtgjson(doc: Any) -> list[OracleCard]:
    """The cards of an MTGJSON document (any shape `kb.ingest.mtgjson.iter_cards` reads) that have
    a type line, as Oracle cards: cost, type, text, P/T, and the German and Spanish names of their
    foreign data (`kb.ingest.mtgjson.foreign_names`)."""
    from kb.ingest import mtgjson

    out = []
    for card in mtgjson.iter_cards(doc):
        name, type_ = card.get("name"), card.get("type")
        if not isinstance(name, str) or not name or not isinstance(type_, str):
            continue
        names = {Lang.EN: name, **mtgjson.foreign_names(card)}
        out.append(OracleCard(name=name, mana_cost=card.get("manaCost"), type=type_, text=card.get("text") or "",
                              names=names, power=card.get("power"), toughness=card.get("toughness"),
                              loyalty=card.get("loyalty"), layout=card.get("layout") or "normal"))
    return out


def oracle_path(corpus: Path) -> Path:
    return corpus / ORACLE_FILE


def load_oracle(corpus: Path) -> Oracle:
    """The bundled Oracle cards of `corpus` (an empty Oracle when the corpus has none)."""
    try:
        data = oracle_path(corpus).read_bytes()
    except FileNotFoundError:
        return Oracle()
    return Oracle.from_bytes(data)
