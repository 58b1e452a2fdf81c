"""Oracle cards: what every card does (2018 Oracle text, type, mana cost) and its EN/DE/ES names.

`corpus/oracle/mtgjson3-2018-oracle-cards.json.gz` holds 19,032 cards (provenance in SOURCES.md).
A question names cards the KB has no ruling for; their Oracle text says which rules the question is
about (an artifact that stops activated abilities → activated abilities, special actions).

Reading and parsing the file takes 0.4-2 s (2 cores): a build parses it once per file (`Corpus.oracle`
keeps the cards in the data directory's cache); a command that looks up one card asks `CardLookup`,
a SQLite copy in the data directory's cache made on first use.
"""

from __future__ import annotations

import gzip
import json
import re
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from kb.errors import InputError, NotFoundError
from kb.model import Lang
from kb.normalize import name_key as name_key  # kb.search.cardnames imports it from here

ORACLE_FILE = Path("oracle") / "mtgjson3-2018-oracle-cards.json.gz"


# --- misspelt names: what `CardMatcher` and `CardLookup` forgive ---------------------------------

def max_edits(n: int) -> int:
    """The edits forgiven in a name key of `n` letters."""
    return 0 if n < 5 else 1 if n < 12 else 2


def within(a: str, b: str, k: int) -> int | None:
    """Edit distance of `a` and `b` (a swap of two neighbouring letters is one edit) when it is at
    most `k`, else None."""
    if abs(len(a) - len(b)) > k:
        return None
    if a == b:
        return 0
    # strip the common prefix and suffix: most pairs differ in one place
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    j = 0
    while j < len(a) - i and j < len(b) - i and a[-1 - j] == b[-1 - j]:
        j += 1
    a, b = a[i:len(a) - j], b[i:len(b) - j]
    if not a or not b:
        d = max(len(a), len(b))
        return d if d <= k else None
    if len(a) == len(b) == 2 and a == b[::-1]:
        return 1
    if k == 1:
        return 1 if len(a) <= 1 and len(b) <= 1 else None
    rows = [list(range(len(b) + 1))]
    for x in range(1, len(a) + 1):
        cur = [x] + [0] * len(b)
        for y in range(1, len(b) + 1):
            cost = a[x - 1] != b[y - 1]
            v = min(rows[-1][y] + 1, cur[y - 1] + 1, rows[-1][y - 1] + cost)
            if x > 1 and y > 1 and a[x - 1] == b[y - 2] and a[x - 2] == b[y - 1]:
                v = min(v, rows[-2][y - 2] + 1)
            cur[y] = v
        if min(cur) > k:
            return None
        rows.append(cur)
    d = rows[-1][-1]
    return d if d <= k else None


Window = Callable[[str, str], list[str]]  # (low, high) → sorted name keys in that half-open range
# a name key → it is only the start of a longer name of the same card: a legend's short name, `ixidor`
# of "Ixidor, Reality Sculptor"
Partial = Callable[[str], bool]


def closest_keys(k: str, starting: Window, ending: Window, partial: Partial) -> tuple[list[str], int] | None:
    """(name keys, edit distance) of the keys closest to a misspelt key `k` within its limit, in name
    order; None when none is.

    `starting(low, high)` gives the keys from low up to high, `ending(low, high)` the keys whose
    reversed form is, both sorted by key. The keys sharing `k`'s first two letters are compared first
    (~100 names); only when none is close, those sharing its last three letters (two in a key of five,
    where swapping its 2nd and 3rd letters changes the third last): a slip in the first letters,
    `Hdden Dragonslayer`, `Froma de ira`. Of keys as close, a whole name beats a `partial` one:
    `Ixidorn` is Ixidron (two letters swapped), not Ixidor, Reality Sculptor (one letter added to its
    short name). Several keys left are as close as each other: the caller takes the first or asks."""
    if not max_edits(len(k)):
        return None
    for window, part in ((starting, k[:2]), (ending, k[::-1][:2 if len(k) < 6 else 3])):
        keys = window(part, part[:-1] + chr(ord(part[-1]) + 1))
        found = nearest(k, keys)
        if found:
            best = [keys[pos] for pos in found[0]]
            return [key for key in best if not partial(key)] or best, found[1]
    return None


def nearest(k: str, candidates: Sequence[str]) -> tuple[list[int], int] | None:
    """(positions, edit distance) of the `candidates` closest to `k` within its limit, in their
    order; None when none is."""
    limit, n = max_edits(len(k)), len(k)
    best: list[int] = []
    for pos, cand in enumerate(candidates):
        if abs(len(cand) - n) > limit:
            continue
        d = within(k, cand, limit)
        if d is None:
            continue
        if d < limit or not best:
            best, limit = [], d
        best.append(pos)
    return (best, limit) if best else None


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
    sets: tuple[str, ...] = ()  # the sets that printed it (a two-part card's halves share them)
    # a half of a two-part card: the English names of its other halves, where the card data tells them
    # (`pair_halves`); () for a one-part card, or where the data doesn't say which card it is a half of
    other_halves: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "mana_cost": self.mana_cost, "type": self.type, "text": self.text,
                "names": {lang.value: n for lang, n in self.names.items()}, "power": self.power,
                "toughness": self.toughness, "loyalty": self.loyalty, "layout": self.layout,
                "sets": list(self.sets), "other_halves": list(self.other_halves)}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OracleCard:
        """The card `to_json` gave."""
        return cls(name=doc["name"], mana_cost=doc["mana_cost"], type=doc["type"], text=doc["text"],
                   names={Lang(code): n for code, n in doc["names"].items()}, power=doc["power"],
                   toughness=doc["toughness"], loyalty=doc["loyalty"], layout=doc["layout"],
                   sets=tuple(doc.get("sets") or ()), other_halves=tuple(doc.get("other_halves") or ()))


# --- two-part cards: split, aftermath, flip, double-faced -----------------------------------------
# The 2018 Oracle file (MTGJSON v3) has one card per half, each with its own name, layout and sets, and
# no word of which card it is a half of. Meld is left out: its halves are two cards of their own.
TWO_PART_LAYOUTS = ("split", "aftermath", "flip", "double-faced")
_HALVES = re.compile(r"\s*/{1,2}\s*")  # "Fire // Ice", "Fire/Ice", "Feuer // Eis"
# a printed name that names its card too: "Muerte (Muerte/Vida)", the Spanish half of Life // Death
_NAMED_CARD = re.compile(r"\s*\([^()]*/[^()]*\)$")


def printed_half(name: str) -> str:
    """A half's printed name without the card's name some printings add ("Muerte (Muerte/Vida)": Muerte)."""
    return _NAMED_CARD.sub("", name)


_FLIPS = re.compile(r"\bflip", re.IGNORECASE)  # a flip card's unflipped half says when it flips; its flipped half never


def own_names(card: OracleCard, halves: Sequence[OracleCard] = ()) -> dict[Lang, str]:
    """`card`'s names by language, but for the German and Spanish names the 2018 card data gives a split or
    flip half that are not its own (smoke53 L3): its English name where the printed one is missing (90 of the
    184 German and Spanish names of split halves, 32 of the 80 of flip halves, 272 of 28,101 of one-part
    cards: `Fire`, `Akki Lavarunner`), another of its `halves`' English name (Tok-Tok, Volcano Born's
    "Akki Lavarunner"), and a flipped half's name that is its unflipped half's (Jaraku the Interloper's
    "Unerfahrener Jushi" is Callow Jushi's). None is better than a wrong one; a flipped half's own
    ("Erayos Substanz", Erayo's Essence) is kept."""
    if card.layout not in ("split", "flip"):
        return dict(card.names)
    others = [h for h in halves if h.name != card.name]
    english = {name_key(card.name), *(name_key(h.name) for h in others)}
    flipped = card.layout == "flip" and not _FLIPS.search(card.text)
    return {lang: name for lang, name in card.names.items()
            if lang is Lang.EN or not (name_key(name) in english or flipped and any(
                h.names.get(lang) == name for h in others))}


def half_names(name: str) -> list[str]:
    """The halves `name` writes as one card's ("Fire // Ice", "Fire/Ice": ["Fire", "Ice"]); [] when it
    writes no two."""
    parts = _HALVES.split(name.strip())
    return parts if len(parts) > 1 and all(name_key(p) for p in parts) else []


def may_be_one_card(halves: Sequence[OracleCard]) -> bool:
    """Whether `halves` may be the halves of one card: of one two-part layout, printed in the same
    sets, and none a half of another card the data names (Fire and Ice; not Fire and Turn). Halves
    printed in the same sets as others of their layout (Dragon's Maze's split cards) are taken as
    written: the data doesn't say which go together."""
    first = halves[0]
    names = {h.name for h in halves}
    return (len(names) == len(halves) and first.layout in TWO_PART_LAYOUTS
            and all(h.layout == first.layout and h.sets == first.sets for h in halves)
            and all(not h.other_halves or set(h.other_halves) == names - {h.name} for h in halves))


def pair_halves(cards: Sequence[OracleCard]) -> dict[str, tuple[str, ...]]:
    """English name → its other half's, for the two-part cards whose halves the card data tells apart:
    the only two cards of a split or double-faced layout printed in exactly the same sets (a
    double-faced card's back has no mana cost, its front has); flip halves by their printed names,
    which MTGJSON v3 gives the flipped half from its unflipped one (Kenzo the Hardhearted's German
    name is Bushi Tenderfoot's), or gives both alike. The size of a group alone does not pair flip
    halves: two flipped halves of different cards share their sets (Jaraku the Interloper, Scarmaker)."""
    groups: dict[tuple[str, tuple[str, ...]], list[OracleCard]] = {}
    for c in cards:
        if c.layout in TWO_PART_LAYOUTS and c.sets:
            # a flip half's sets as a set: the data lists BOK twice for Jaraku the Interloper, once for Callow Jushi
            groups.setdefault((c.layout, tuple(sorted(set(c.sets))) if c.layout == "flip" else c.sets), []).append(c)
    out: dict[str, tuple[str, ...]] = {}

    def pair(a: OracleCard, b: OracleCard) -> None:
        if a.name not in out and b.name not in out:
            out[a.name], out[b.name] = (b.name,), (a.name,)

    for (layout, _), group in sorted(groups.items()):
        if layout == "split" and len(group) == 2:
            pair(*group)
        elif layout == "double-faced" and len(group) == 2 and sum(c.mana_cost is None for c in group) == 1:
            pair(*group)
        elif layout == "flip":
            for a in group:
                for b in group:
                    printed_a = {n for lang, n in a.names.items() if lang is not Lang.EN}
                    printed_b = {n for lang, n in b.names.items() if lang is not Lang.EN}
                    if a.name < b.name and (b.name in printed_a or a.name in printed_b
                                            or (printed_a and printed_a == printed_b)):
                        pair(a, b)
    return out


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
                                  layout=row.get("layout") or "normal", sets=tuple(row.get("sets") or ())))
        for name, others in pair_halves(list(oracle.cards.values())).items():
            oracle.cards[name] = replace(oracle.cards[name], other_halves=others)
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
            if printed_half(local) != local:  # "Muerte (Muerte/Vida)" is Muerte too
                self._index.setdefault(name_key(printed_half(local)), card.name)

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


def names_containing(name: str, found: Iterable[tuple[str, str]], limit: int) -> list[str]:
    """The English names of the first `limit` cards among `found` ((name key, English name) pairs of
    names that contain `name`'s words: "Ugin" in "Ugin, the Spirit Dragon"), best first: a name
    that starts with the words typed (the legend itself before "Ugin's ..."), then one with a word
    that starts with them, then the rest, shorter first."""
    typed = name_key(name)
    first = typed.split()[0] if typed else ""

    def rank(pair: tuple[str, str]) -> tuple[int, int, str]:
        key = pair[0]
        if key == typed or (key.startswith(typed + " ") and not key.startswith(typed + " s ")):
            at = 0
        else:
            at = 1 if key.startswith(typed) else 2 if any(w.startswith(first) for w in key.split()) else 3
        return at, len(key), key

    out: list[str] = []
    for _key, english in sorted(set(found), key=rank):
        if english not in out:
            out.append(english)
    return out[:limit]


class CardLookup:
    """Oracle cards by any EN/DE/ES name, and the names closest to a misspelt one, answered from a
    SQLite file: `Oracle.get` over the Oracle's name index, and `CardMatcher.near` over the names it
    was made with, each reading a few rows (a cold `kb card` otherwise parses 19,032 cards).
    `CardLookup.memory` answers the same from the loaded Oracle, where no file can be kept."""

    def __init__(self, get: Callable[[str], OracleCard | None], near: Callable[[str], list[str]],
                 keys_containing: Callable[[str], list[tuple[str, str]]]) -> None:
        self.get, self.near, self._keys_containing = get, near, keys_containing

    def closest(self, name: str) -> str | None:
        """The English name of the card `name` names, allowing a small misspelling (of names as
        close, the first of `near`); None when nothing is close."""
        found = self.near(name)
        return found[0] if found else None

    def containing(self, name: str) -> list[tuple[str, str]]:
        """(name key, English name) of every name, in any language, that contains each word of `name`
        (unranked: see `names_containing`)."""
        words = name_key(name).split()
        return [(k, en) for k, en in self._keys_containing(words[0]) if all(w in k for w in words)] if words else []

    @classmethod
    def memory(cls, oracle: Oracle, names: Iterable[tuple[str, str]]) -> CardLookup:
        from kb.search.cardnames import CardMatcher

        matcher = CardMatcher.from_names(names)
        return cls(oracle.get, matcher.near, lambda word: [(k, en) for k, en in matcher.items() if word in k])

    @classmethod
    def open(cls, path: Path) -> CardLookup:
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False)

        def get(name: str) -> OracleCard | None:
            key = name_key(name)
            row = conn.execute("SELECT doc FROM keys JOIN cards USING (name) WHERE key = ?", (key,)).fetchone()
            return OracleCard.from_json(json.loads(row[0])) if key and row else None

        def english(key: str) -> str | None:
            row = conn.execute("SELECT name FROM fuzzy WHERE key = ?", (key,)).fetchone()
            return row[0] if row else None

        def near(name: str) -> list[str]:
            k = name_key(name)
            exact = english(k)
            if exact is not None:
                return [exact]
            found = closest_keys(k, starting, ending, partial)
            return list(dict.fromkeys(en for key in (found[0] if found else ()) if (en := english(key))))

        def starting(low: str, high: str) -> list[str]:
            return [key for key, in conn.execute(
                "SELECT key FROM fuzzy WHERE key >= ? AND key < ? ORDER BY key", (low, high))]

        def ending(low: str, high: str) -> list[str]:
            return [key for key, in conn.execute(
                "SELECT key FROM fuzzy WHERE rkey >= ? AND rkey < ? ORDER BY key", (low, high))]

        def partial(key: str) -> bool:
            # a name of the same card that goes on after `key`'s words (" " sorts before "!")
            return conn.execute("SELECT 1 FROM fuzzy WHERE key >= ? AND key < ? AND name = ? LIMIT 1",
                                (key + " ", key + "!", english(key))).fetchone() is not None

        def keys_containing(word: str) -> list[tuple[str, str]]:
            # a name key is only letters, digits and spaces: no LIKE wildcard to escape
            return conn.execute("SELECT key, name FROM fuzzy WHERE key LIKE ?", (f"%{word}%",)).fetchall()

        return cls(get, near, keys_containing)

    @staticmethod
    def write(path: Path, oracle: Oracle, names: Iterable[tuple[str, str]]) -> None:
        """The SQLite file `open` reads: the cards, the Oracle's name index and the names `near`
        compares (`CardMatcher.from_names(names)`: short forms of legendary names included)."""
        from kb.search.cardnames import CardMatcher

        conn = sqlite3.connect(path)
        try:
            with conn:
                conn.executescript("""
                    CREATE TABLE cards (name TEXT PRIMARY KEY, doc TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE keys (key TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
                    CREATE TABLE fuzzy (key TEXT PRIMARY KEY, name TEXT NOT NULL, rkey TEXT NOT NULL) WITHOUT ROWID;
                    CREATE INDEX fuzzy_rkey ON fuzzy (rkey);""")
                conn.executemany("INSERT INTO cards VALUES (?, ?)",
                                 [(c.name, json.dumps(c.to_json(), ensure_ascii=False)) for c in oracle])
                conn.executemany("INSERT INTO keys VALUES (?, ?)", oracle._index.items())
                conn.executemany("INSERT INTO fuzzy VALUES (?, ?, ?)",
                                 [(k, en, k[::-1]) for k, en in CardMatcher.from_names(names).items()])
        finally:
            conn.close()
