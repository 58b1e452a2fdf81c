"""Finding the cards a question names: English, German or Spanish names, with small misspellings.

Exact names are phrase look-ups over the question's words (longest first). A span that is no exact
name is compared with names of about its length that begin with the same two letters, else (a slip
in the first letters) that end with the same three, by an edit distance (1 edit below 12 letters, 2
from 12; swapped neighbours are one edit): `Lightfrom` → Lightform, `Pithing Needel` → Pithing
Needle, `Hdden Dragonslayer` → Hidden Dragonslayer. Only spans that look like names are tried: starting
with a capital letter and not a rules word, so everyday words are not read as misspelled names; not
across a sentence's end, and not from a short word that opens a sentence (`Assume` is no Assure).
A single word of a capitalised phrase that is no card ("Hide in Plain Sight", a card newer than the
names; "[[Guardian Project]]") is not read as a misspelt one-word name (`Plain` is no Plains).
Typed in lower case, as judges type at a table, a misspelled name is read where no word could be
meant (`_lower_slip`): `whisperwod elemental`, `lightfrom`, but not `disappears` (Disappear).

A one-word name that is also an everyday word (a rules word, a word the rulings write in lower case, a
split card's half: `Failure`, `tierra`) is the card only where it is written as a name: capitalised,
not at a sentence's start, not in a title where every word is capitalised.

A legendary card is often called by the part of its name before the comma (`Linvala`); that short
form is known when it belongs to one card only, and is read only when capitalised (`their strategy`).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Protocol, Sequence

from kb.normalize import NAME_JOINERS, NAME_JOINERS_BY_LANG
from kb.oracle import closest_keys, name_key, within
from kb.search.text import STOPWORDS

if TYPE_CHECKING:
    from kb.model import Entry, Lang
    from kb.oracle import Oracle
    from kb.search.glossary import Glossary

MAX_WORDS = 6
LONG_WORD = 8  # a word this long opening a sentence may still be a misspelled name (`Lichtfrom ist ...`)
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s?$")
_POSSESSIVE_S = re.compile(r"['’][sS]$")


def _possessive(word: str) -> bool:
    """`word` ends in a possessive's 's (`Ixidron's`, `Lightform’s`), which a card's name key
    (`name_key`) keeps as a last letter s."""
    return _POSSESSIVE_S.search(word) is not None
_BRACKETED = re.compile(r"\[\[?[^\[\]\n]+\]\]?")  # a name written as one: [Name], as forums and chat bots take it
_DOUBLED = re.compile(r"\[\[[^\[\]\n]+\]\]")  # [[Name]], as card sites and chat bots take a card's name
# lower-case words between the capitalised words of a name (Hide in Plain Sight, Sword of Fire and Ice):
# but German's, as German capitalises every noun ("Gegner die Kreatur" is no name; review39 #2)
NAME_JOINS = NAME_JOINERS - NAME_JOINERS_BY_LANG["de"]
# of them, the words that as often stand between two names ("Lightfrom with Shock", "Lightfrom y
# Rageform"): a phrase they join is still noted whole, but its words may be misspelt names
_BETWEEN_NAMES = frozenset({"and", "y", "with", "a", "by"})
# of them, by the language of the text, those a place or an event's name follows: in German the English ones that
# are German words too, "Freitagsturnier in Graz" is two nouns and a preposition (tryout50 D8); in English "in",
# "Grand Prix in Las Vegas"; in Spanish "de", "Torneo de Córdoba" (smoke53 L1). A phrase they alone join is a name
# only when a capitalised word after the joining word is a word of a card's name (an English one, but in
# Spanish, whose own names join with "de": "Forma de Ira"): so are 31 of the 35 Oracle names "in" and "an" join
# ("Barter in Blood", "Nature Demands an Offering"; each read against the other names' words: not Drown in
# Shapelessness, Reduce in Stature, Repay in Kind, Slice in Twain), and no place a judge names after "in",
# though the words before it may be an English name's ("Grand Prix in Las Vegas", "Magic in Berlin": review50 L4).
_PLACE_JOINS = {"de": frozenset({"in", "an"}), "en": frozenset({"in"}), "es": frozenset({"de", "del"})}
# of them, those after which a name goes on, not an article or a word between two names: "Hide in Plain Sight",
# "Call to Arms", "Forma de ira" (the Oracle names that begin with a one-word card's name go on with of, the, to,
# from, in, for); "Clone la Thalia" is a card and another's name, "Clone the Thalia" too
_NAME_GOES_ON = frozenset({"of", "to", "in", "from", "for", "de", "del"})


_READS_KEPT = 8  # texts whose reading `CardMatcher` remembers

# a span of the text read as a name: (its words, the English names it is as close to, edit distance)
Hit = tuple[int, list[str], int]


@dataclass(frozen=True, slots=True)
class NamedCard:
    name: str  # English name
    said: str  # the words of the question that name it
    distance: int  # 0 for an exact name
    also: tuple[str, ...] = ()  # other cards whose names are as close to a misspelt one (`name` is the first)


def _swapped(a: str, b: str) -> bool:
    """`b` is `a` with two neighbouring letters swapped (`lightfrom`, `lightform`)."""
    if len(a) != len(b):
        return False
    diff = [k for k in range(len(a)) if a[k] != b[k]]
    return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]


def _slip_in_a_word(typed: str, name: str) -> bool:
    """A one-word name one slip from the word `typed` is read as misspelt there when the slip is past
    its first two letters, or is two swapped letters (`Rgaeform`): a word one letter off at its
    start is usually another word (`Engel`, `Grave`, `Fright`, `Oscar` are no Angel, Ghave, Fight, Scar)."""
    return typed[:2] == name[:2] or _swapped(typed, name)


def _is_capitalised(word: str) -> bool:
    return word[:1].isupper() and not word.isupper()


def _title_words(raw: list[str], starts: set[int]) -> set[int]:
    """The words of the sentences written in title case: most of their longer words capitalised."""
    out: set[int] = set()
    bounds = sorted(starts | {0}) + [len(raw)]
    for a, b in zip(bounds, bounds[1:]):
        longer = [w for w in raw[a:b] if len(w) > 3]
        if len(longer) >= 3 and sum(_is_capitalised(w) for w in longer) >= 0.8 * len(longer):
            out.update(range(a, b))
    return out


def _sentence_starts(text: str, found: list[re.Match[str]]) -> tuple[set[int], set[int]]:
    """(the words capitalised because they start a sentence or stand in a title, the words after a
    sentence's end) of the words `found` in `text`."""
    # a word right after . ! ? : (or the first) is capitalised because it starts a sentence
    starts = {i for i, m in enumerate(found)
              if i == 0 or text[found[i - 1].end():m.start()].strip()[-1:] in (".", "!", "?", ":", "¿", "¡", '"')}
    # a name does not run on over a sentence's end ("... the face down Firecat. Will I ...")
    breaks = {i for i in starts if i}
    # In a title ("Does Turning a Creature Face Up Count as Entering the Battlefield?") every word
    # is capitalised, so a capital says no more than at a sentence's start (but ends no sentence).
    return starts | _title_words([m.group() for m in found], starts), breaks


class CardMatcher:
    """Names (any language) → English names, and the cards a text names.

    Names are kept as two sorted lists (keys, English names), not a dict: a query reads 48,000
    names from the index with two `str.split`s, and looks keys up by bisection."""

    def __init__(self, keys: dict[str, str], common: frozenset[str] = frozenset()) -> None:
        order = sorted(keys)
        self._init(order, [keys[k] for k in order], common)

    def _init(self, keys: list[str], values: list[str], common: frozenset[str], longest: int | None = None) -> None:
        self._keys = keys
        self._values = values
        self._reversed: tuple[list[str], list[int]] | None = None  # reversed keys, sorted; their positions
        # the texts read last (`_read_text`): `kb search` asks the cards of one question several times
        # (the search, its asking sentences, the notes), ~16 ms each for a long story
        self._reads: dict[str, tuple[list[re.Match[str]], list[tuple[NamedCard, range]], set[int]]] = {}
        self.common = common  # words too ordinary to be a one-word name unless written as one
        self._words: frozenset[str] | None = None  # every word of every name (`says_word`), made when first asked
        self._english_words: frozenset[str] | None = None  # every word of every English name (`_says_english_word`)
        # words in the longest name (stored in the index: counting them costs 20 ms of a cold query)
        self.longest = longest if longest is not None else max((k.count(" ") + 1 for k in keys), default=1)

    @classmethod
    def from_sorted(cls, keys: list[str], values: list[str], common: frozenset[str],
                    longest: int | None = None) -> CardMatcher:
        matcher = cls.__new__(cls)
        matcher._init(keys, values, common, longest)
        return matcher

    def get(self, key: str) -> str | None:
        """The English name for an exact name key (see `kb.oracle.name_key`)."""
        i = bisect.bisect_left(self._keys, key)
        if i < len(self._keys) and self._keys[i] == key:
            return self._values[i]
        return None

    def says_word(self, word: str) -> bool:
        """Whether some card's name, in any language, has the word `word` (case and accents aside)."""
        if self._words is None:  # ~50 ms for 48,000 names: only when a question has a word no ruling has
            self._words = frozenset(w for k in self._keys for w in k.split())
        return name_key(word) in self._words

    def _says_english_word(self, word: str) -> bool:
        """Whether some card's English name has the word `word` (case and accents aside)."""
        if self._english_words is None:  # only for a phrase `_PLACE_JOINS` join
            self._english_words = frozenset(w for v in set(self._values) for w in name_key(v).split())
        return name_key(word) in self._english_words

    def items(self) -> Iterator[tuple[str, str]]:
        return zip(self._keys, self._values)

    @classmethod
    def from_names(cls, names: Iterable[tuple[str, str]], common: Iterable[str] = ()) -> CardMatcher:
        """From (name in any language, English name) pairs."""
        keys: dict[str, str] = {}
        short: dict[str, set[str]] = {}
        # each pair once, first seen first: the KB's rulings name their cards again and again
        # (~150,000 pairs, ~1 s of name keys at 100k rulings), and a repeat changes nothing
        for local, english in dict.fromkeys(names):
            k = name_key(local)
            if k:
                keys.setdefault(k, english)
            if "," in local:
                head = name_key(local.split(",")[0])
                if len(head) >= 5:
                    short.setdefault(head, set()).add(english)
        for head, owners in short.items():
            if len(owners) == 1 and head not in keys:
                keys[head] = next(iter(owners))
        return cls(keys, frozenset(common))

    def closest(self, name: str) -> str | None:
        """The English name for `name`, allowing small misspellings; None when nothing is close."""
        found = self.near(name)
        return found[0] if found else None

    def near(self, name: str) -> list[str]:
        """The English names of the cards `name` names: its own, else those of the names closest to
        it (`kb.oracle.closest_keys`; more than one when as close as each other); [] when none is."""
        k = name_key(name)
        found = self.get(k)
        if found is not None:
            return [found]
        best = self._fuzzy(k)
        return self._names(best[0]) if best else []

    def _names(self, positions: list[int]) -> list[str]:
        """The English names at `positions`, each once."""
        return list(dict.fromkeys(self._values[p] for p in positions))

    def _fuzzy(self, k: str) -> tuple[list[int], int] | None:
        """(positions, distance) of the names closest to `k` within the limit (`kb.oracle.closest_keys`)."""
        found = closest_keys(k, self._starting, self._ending, self._partial)
        return ([bisect.bisect_left(self._keys, key) for key in found[0]], found[1]) if found else None

    def _partial(self, key: str) -> bool:
        """`key` is only the start of a longer name of its card (a legend's short name)."""
        english = self.get(key)
        at = bisect.bisect_left(self._keys, key + " ")
        while at < len(self._keys) and self._keys[at].startswith(key + " "):
            if self._values[at] == english:
                return True
            at += 1
        return False

    def _starting(self, low: str, high: str) -> list[str]:
        return self._keys[bisect.bisect_left(self._keys, low):bisect.bisect_left(self._keys, high)]

    def _ending(self, low: str, high: str) -> list[str]:
        if self._reversed is None:  # made when first needed: 20 ms for 48,000 names
            flipped = [k[::-1] for k in self._keys]
            order = sorted(range(len(flipped)), key=flipped.__getitem__)
            self._reversed = ([flipped[i] for i in order], order)
        flipped, order = self._reversed
        found = order[bisect.bisect_left(flipped, low):bisect.bisect_left(flipped, high)]
        return [self._keys[i] for i in sorted(found)]

    def find(self, text: str) -> list[NamedCard]:
        """The cards `text` names, in order of mention, each once."""
        out: dict[str, NamedCard] = {}
        for card, _ in self._read_text(text)[1]:
            out.setdefault(card.name, card)
        return list(out.values())

    def _read_text(self, text: str) -> tuple[list[re.Match[str]], list[tuple[NamedCard, range]], set[int]]:
        """(the words of `text`, then `_read`'s answer), remembered for the last few texts."""
        if text not in self._reads:
            if len(self._reads) >= _READS_KEPT:
                self._reads.pop(next(iter(self._reads)))
            found = list(_WORD.finditer(text))
            self._reads[text] = (found, *self._read(text, found))
        return self._reads[text]

    def _read(self, text: str, found: list[re.Match[str]]) -> tuple[list[tuple[NamedCard, range]], set[int]]:
        """(every card named in `text` and the words of `found` naming it, in order; the words that
        start a sentence or stand in a title)."""
        raw = [m.group() for m in found]
        starts, breaks = _sentence_starts(text, found)
        words = [name_key(w) for w in raw]
        # a phrase of capitalised words alone is as often a German noun after a misspelt name ("Lichtfrom
        # Kreaturen", review39 #2): only one with an English joining word or in brackets is a name
        joins = NAME_JOINS - _BETWEEN_NAMES
        spans = self._phrases(text, found, starts, joins)
        phrases = {j for first, end, bracketed in spans
                   if bracketed or any(raw[k] in joins for k in range(max(first - 1, 0), end))
                   for j in range(first, end)}
        # an everyday word capitalised as the first word of a longer name ("Hide in Plain Sight", a card newer
        # than the names) owes its capital to that name, not to the card it also is (Hide // Seek: smoke51 L1)
        opening = {first for first, end, bracketed in spans
                   if not bracketed and end - first > 2 and raw[first + 1] in _NAME_GOES_ON}
        doubled = self._doubled(text, found)
        out: list[tuple[NamedCard, range]] = []
        halves = self._halves(text, found, words)
        i = 0
        n = len(words)
        while i < n:
            if i in halves:  # "Fire // Ice": the card its halves name, each half's name
                parts = halves[i]
                said = " ".join(text[found[parts[0].start].start():found[parts[-1].stop - 1].end()].split())
                for part in parts:
                    english = self.get(" ".join(words[part.start:part.stop]))
                    if english is not None:
                        out.append((NamedCard(english, said, 0), part))
                i = parts[-1].stop
                continue
            hit: Hit | None = None
            if i in doubled:  # "[[Hide in Plain Sight]]" is one name: the whole, or no card at all
                end = doubled[i]
                hit = self._whole(words[i:end])
                if hit is None:
                    i = end
                    continue
            for size in range(min(self.longest, MAX_WORDS, n - i), 0, -1) if hit is None else ():
                key = " ".join(words[i:i + size])
                english = self.get(key)
                if english is None and _possessive(raw[i + size - 1]) and not (
                        i + size < n and i + size not in breaks and _is_capitalised(raw[i + size])):
                    # "Ixidron's", "Lightform’s": the card's name in the possessive, exactly (its key "ixidrons" is a
                    # word of the CR's, "due to Ixidron's effect", and one letter off it no misspelling: smoke53 M2);
                    # not before a capitalised word, as the possessive is a longer name's ("Urza's Saga" is no Urza)
                    key = key[:-1]
                    english = self.get(key)
                if english is not None:
                    if size == 1 and (key in STOPWORDS or (key in self.common or len(key) < 4) and (
                            i in starts or not _is_capitalised(raw[i]) or i in opening)):
                        continue  # `manifest`, `What`, `fog`: the word, unless written as a name
                    if size == 1 and "," in english and not _is_capitalised(raw[i]):
                        continue  # `their strategy` is no Strategy, Schmategy: a short name is written as one
                    hit = (size, [english], 0)
                    break
            if hit is not None and i not in doubled and self._may_start_name(raw[i], words[i]):
                # An inflected longer name beats the exact shorter one it starts with: German
                # "Zauberbuch-Diebe" (plural) is Zauberbuch-Dieb (Grimoire Thief), not Zauberbuch.
                hit = self._longer(words, i, hit, breaks) or hit
            if hit is None and self._may_start_name(raw[i], words[i]):
                for size in range(min(3, n - i), 0, -1):
                    if any(i < b < i + size for b in breaks):
                        continue
                    if size == 1 and i in starts and len(words[i]) < LONG_WORD:
                        continue  # `Assume` opening a sentence is the word, not a slip for Assure
                    if size == 1 and i in phrases:
                        continue  # `Plain` of "Hide in Plain Sight" (a card newer than the names) is no Plains
                    key = " ".join(words[i:i + size])
                    if len(key) < 5:
                        continue
                    fuzzy = self._fuzzy(key)
                    at = [p for p in fuzzy[0] if size > 1 or _slip_in_a_word(key, self._keys[p])] if fuzzy else []
                    if fuzzy and at:
                        hit = (size, self._names(at), fuzzy[1])
                        break
            if hit is None:
                hit = self._lower_slip(words, raw, i, breaks)
            if hit is None:
                i += 1
                continue
            size, names, distance = hit
            out.append((NamedCard(names[0], " ".join(raw[i:i + size]), distance, tuple(names[1:])), range(i, i + size)))
            i += size
        return out, starts

    def _whole(self, words: list[str]) -> Hit | None:
        """The name `words` (name keys) are as a whole, exactly or misspelt (as `near` reads it); None when
        they are no card's."""
        key = " ".join(words)
        english = self.get(key)
        if english is not None:
            return (len(words), [english], 0)
        fuzzy = self._fuzzy(key) if len(key) >= 5 else None
        return (len(words), self._names(fuzzy[0]), fuzzy[1]) if fuzzy else None

    @staticmethod
    def _doubled(text: str, found: list[re.Match[str]]) -> dict[int, int]:
        """{first word: end} of the names `text` writes in double brackets ("[[Hide in Plain Sight]]")."""
        out: dict[int, int] = {}
        for bracket in _DOUBLED.finditer(text):
            inside = [j for j, m in enumerate(found) if bracket.start() < m.start() < bracket.end()]
            if inside:
                out[inside[0]] = inside[-1] + 1
        return out

    def _halves(self, text: str, found: list[re.Match[str]], words: list[str]) -> dict[int, list[range]]:
        """First word → the word spans of the names a slash joins as a card's halves ("Fire // Ice",
        "Fire/Ice", "Delver of Secrets // Insectile Aberration"): each side the whole name of a card
        (the longest that reaches the slash), the first side's first word capitalised or the slash
        doubled, as a card's halves are written. Each half is read as a card, however everyday a word
        it is and wherever in a sentence it stands (`Wear // Tear` opening one)."""
        out: dict[int, list[range]] = {}

        def slash_after(k: int) -> bool:  # a slash between word k and the next
            return k < len(found) - 1 and text[found[k].end():found[k + 1].start()].strip() in ("/", "//")

        def name_at(spans: Iterable[range]) -> range | None:  # the first of `spans` that is a card's whole name
            return next((r for r in spans if self.get(" ".join(words[r.start:r.stop])) is not None), None)

        j = 0
        while j < len(found) - 1:
            if not slash_after(j):
                j += 1
                continue
            longest = min(self.longest, MAX_WORDS)
            left = name_at(range(j + 1 - size, j + 1) for size in range(min(longest, j + 1), 0, -1))
            spans = [left] if left is not None else []
            while spans and slash_after(j):
                right = name_at(range(j + 1, j + 1 + size) for size in range(min(longest, len(found) - j - 1), 0, -1))
                if right is None:
                    break
                spans.append(right)
                j = right.stop - 1
            doubled = any("//" in text[found[a.stop - 1].end():found[b.start].start()]
                          for a, b in zip(spans, spans[1:]))
            if len(spans) > 1 and (doubled or _is_capitalised(found[spans[0].start].group())) and (
                    not out or spans[0].start >= max(s.stop for v in out.values() for s in v)):
                out[spans[0].start] = spans
            j += 1
        return out

    def _phrases(self, text: str, found: list[re.Match[str]], starts: set[int],
                 joins: frozenset[str] = NAME_JOINS) -> list[tuple[int, int, bool]]:
        """(first word, end, bracketed) of the capitalised phrases: two or more capitalised words not
        opening a sentence, with nothing but a space or a word that joins a name's words (`joins`)
        between them ("Hide in Plain Sight"), and the bracketed names of two words or more ("[[Guardian
        Project]]") or in double brackets ("[[Ephemerate]]"). Such a phrase that is no card is a name the KB doesn't know (a newer card's), a
        set's or a place's: its single words are no misspelt names. German capitalises every noun,
        but its nouns seldom follow each other or a name, and never across an English or Spanish joining word."""
        out: list[tuple[int, int, bool]] = []
        run: list[int] = []  # the capitalised words of the phrase so far

        def end_run() -> None:
            if len(run) > 1:
                out.append((run[0], run[-1] + 1, False))
            run.clear()

        for j, m in enumerate(found):
            if run and text[found[j - 1].end():m.start()].strip():
                end_run()
            if _is_capitalised(m.group()) and j not in starts:
                run.append(j)
            elif not (run and j - run[-1] == 1 and m.group() in joins):
                end_run()
        end_run()
        for bracket in _BRACKETED.finditer(text):
            inside = [j for j, m in enumerate(found) if bracket.start() < m.start() < bracket.end()]
            if len(inside) > 1 or inside and _DOUBLED.fullmatch(bracket.group()):
                out.append((inside[0], inside[-1] + 1, True))
        return out

    def one_word_names(self, text: str, lang: Lang | None = None) -> list[str]:
        """The English names of the cards `text` names by one word written as only a name is (tryout46 D9:
        "cast Murder on my creature", "Humility and Opalescence"): the card's exact name, capitalised, not
        opening a sentence nor in a title, no function word, and an everyday word (`common`) only alone, not
        beside another capitalised word (try-out 53 D6: "to Fling targeting NAP", "trying to Counterspell a
        spell", but not "a Game Loss", "Tolarian Terror", "Trample and Death touch"). In German, which capitalises
        every noun (`Kampf` is Fight), only a card's English name as printed (or a legend's short name) that is no
        everyday word: "well Panharmonicon ETB-Trigger verdopplet", not "Stärke" (Starke), "in diesem Fall"."""
        from kb.model import Lang

        found, named, starts = self._read_text(text)
        phrased = {j for first, end, _ in self._phrases(text, found, starts) for j in range(first, end)}
        out: list[str] = []
        for card, span in named:
            word = found[span[0]].group() if len(span) == 1 else ""
            key = name_key(word)
            if _possessive(word) and self.get(key) is None:
                key = key[:-1]  # "Electrolyze's": the name, not its possessive
            if lang is Lang.DE and (key in self.common or _POSSESSIVE.sub("", word) not in (
                    card.name, card.name.split(",")[0]) or word != card.name and text[found[span[0]].end():].startswith(",")):
                continue  # "Vorinclex, Monströser Plünderer" (a newer legend's German name) is no Vorinclex, Voice of Hunger
            if (word and not card.distance and span[0] not in starts and _is_capitalised(word)
                    and (key not in self.common or span[0] not in phrased) and key not in STOPWORDS
                    and card.name not in out):
                out.append(card.name)
        return out

    def unknown_names(self, text: str, lang: Lang | None = None) -> list[str]:
        """The names `text` writes as a card's that name no card, as written: a name in double
        brackets ("[[Guardian Project]]", "[[Ephemerate]]", as card sites and chat bots take them; one name,
        "[[Hide in Plain Sight]]" though Hide is a card's), a capitalised phrase
        with a word that joins an English name's words ("Hide in Plain Sight", "Oko, Thief of Crowns"),
        or one shaped as a name in the text's language `lang` (`_shaped_as_a_name`: "Saw It Coming",
        "Urza's Saga", a Spanish question's "Mosswort Bridge"), where no card's name, exact or misspelt,
        is read. Two capitalised words alone in English ("Summoning Sickness", "Magic Arena") are as
        often a rules term or a product, any run in German a run of nouns, a single bracket a tag ("[Card
        Bug]"), a single word anything, and in German a phrase only "in" or "an" joins unless a word after it is
        an English name's ("Freitagsturnier in Graz", "Magic in Berlin"): left out, as a note that is wrong is
        worse than none."""
        from kb.model import Lang

        found, named, starts = self._read_text(text)
        read = {j for _, span in named for j in span}
        out: list[str] = []
        for first, end, bracketed in self._phrases(text, found, starts):
            run = [m.group() for m in found[first:end]]
            opener = found[first - 2].group() if first > 1 else ""
            if first > 1 and found[first - 1].group() in NAME_JOINS and _is_capitalised(opener) and (
                    not text[found[first - 2].end():found[first].start()].replace(found[first - 1].group(), "").strip()
            ) and self._may_open_name(opener) and name_key(opener) not in STOPWORDS:
                # the phrase's first word opens the sentence: "Hide in Plain Sight cloaked two cards"; a function
                # word does not, it opens the sentence's phrase: "In the Store Championship", "En el Torneo ..."
                first -= 2
            legend = first and text[found[first - 1].end():found[first].start()] == ", " and (
                _is_capitalised(found[first - 1].group()))
            if legend:
                first -= 1  # a legend's name: "Oko, Thief of Crowns"
            shape = [m.group() for m in found[first:end]]
            if legend and not self._opens_names(name_key(shape[0])):
                shape = shape[1:]  # "Yes, Summoning Sickness": only a first name of known cards' is a legend's
            shaped = not bracketed and self._shaped_as_a_name(shape, lang)
            joined = any(m.group() in NAME_JOINS for m in found[first:end])
            if shaped and not joined and first and first - 1 in starts and (
                    text[found[first - 1].end():found[first].start()] == " ") and (
                    _is_capitalised(opener := found[first - 1].group())) and name_key(opener) not in STOPWORDS \
                    and self._may_open_name(opener):
                first -= 1  # ... with no joining word: "Saw It Coming lo lancé"
            if not bracketed and (self._names_a_place(run, lang) or self._names_a_place(
                    [m.group() for m in found[first:end]], lang)):
                continue  # a place's or an event's name: "Freitagsturnier in Graz", "Grand Prix in Las Vegas"
            said = " ".join(text[found[first].start():found[end - 1].end()].split())
            doubled = bracketed and text[:found[first].start()].rstrip().endswith("[[")
            if not (doubled or ((joined or shaped) and not bracketed)) or read & set(range(first, end)) or said in out:
                continue
            if not self.near(said) and not self.near(_POSSESSIVE.sub("", said)):  # "Bow to My Command's"
                out.append(said)
        return out

    def _names_a_place(self, words: Sequence[str], lang: Lang | None) -> bool:
        """Whether the phrase `words`, in a text of `lang` (unknown: English), is joined only by the words a place's
        or an event's name follows (`_PLACE_JOINS`), with no word of a card's name after the first of them."""
        from kb.model import Lang

        lower = [k for k, w in enumerate(words) if not _is_capitalised(w)]
        if not lower or not {words[k] for k in lower} <= _PLACE_JOINS.get((lang or Lang.EN).value, frozenset()):
            return False
        says = self.says_word if lang is Lang.ES else self._says_english_word
        return not any(says(w) for w in words[lower[0] + 1:] if _is_capitalised(w))

    @staticmethod
    def _shaped_as_a_name(words: Sequence[str], lang: Lang | None) -> bool:
        """Whether capitalised `words` not opening a sentence read as a name in a text of `lang` without
        a joining word (tryout32 #9, tryout33 #10: cards newer than the card data passed without a note):
        in Spanish, two or more (Spanish capitalises names only, not nouns or titles); in English, three
        or more ("Saw It Coming"), or a possessive before a capitalised word ("Urza's Saga"). Never in
        German, which capitalises every noun; unknown `lang`: as English."""
        from kb.model import Lang

        if lang is Lang.DE or len(words) < 2:
            return False
        if lang is Lang.ES:
            return True
        return len(words) >= 3 or any(_POSSESSIVE.search(w) and w[-1] in "sS" for w in words[:-1])

    def near_a_word(self, word: str) -> bool:
        """Whether `word` is an everyday word (`common`: what rulings and rules write in lower case, in
        any language) or one edit from one (`Charte`: chart, charge)."""
        k = name_key(word)
        return k in self.common or any(abs(len(c) - len(k)) <= 1 and within(k, c, 1) is not None
                                       for c in self.common)

    def _may_open_name(self, word: str) -> bool:
        """Whether `word`, capitalised as it opens a sentence, may be a name's first word: not an
        everyday word (`common`) unless a card's name is or begins with it (`Hide`, as Hide // Seek).
        "Cards from Murders at Karlov Manor" names no card "Cards from ...", "Hide in Plain Sight" may."""
        key = name_key(word)
        return key not in self.common or self.get(key) is not None or self._opens_names(key)

    def _opens_names(self, key: str) -> bool:
        """Whether some card's name (key) begins with the word `key` and goes on ("hide": Hide // Seek)."""
        return bool(self._starting(key + " ", key + "!"))

    def _longer(self, words: list[str], i: int, exact: Hit, breaks: set[int]) -> Hit | None:
        """A name longer than the `exact` hit at word `i`, misspelt or inflected in the text, that
        begins with the exact hit's words; None when there is none."""
        size = exact[0]
        prefix = " ".join(words[i:i + size]) + " "
        for longer in range(min(3, len(words) - i), size, -1):
            if any(i < b < i + longer for b in breaks):
                continue
            fuzzy = self._fuzzy(" ".join(words[i:i + longer]))
            at = [p for p in fuzzy[0] if self._keys[p].startswith(prefix)] if fuzzy else []
            if fuzzy and at:
                return (longer, self._names(at), fuzzy[1])
        return None

    def _lower_slip(self, words: list[str], raw: list[str], i: int, breaks: set[int]) -> Hit | None:
        """A misspelled name typed in lower case (`whisperwod elemental`, `lightfrom`), read only where
        no word could be meant: the span starts with a word no ruling or rule writes, and it is a
        whole name of two or three words, or one word of six letters or more with two neighbouring
        letters swapped. An inflected word (`disappears`, `insists`, `exilié`) or a misspelled
        everyday word (`supress`, `despite`) is one edit from a one-word name too, but not by a swap."""
        first = words[i]
        if not raw[i].islower() or len(first) < 4 or first in self.common or first in STOPWORDS:
            return None
        for size in range(min(3, len(words) - i), 0, -1):
            if any(i < b < i + size for b in breaks) or not all(w.islower() for w in raw[i:i + size]):
                continue
            key = " ".join(words[i:i + size])
            fuzzy = self._fuzzy(key)
            if fuzzy is None:
                continue
            if size >= 2:  # a whole name of as many words
                at = [p for p in fuzzy[0] if self._keys[p].count(" ") + 1 == size]
            else:
                at = [p for p in fuzzy[0] if " " not in self._keys[p] and len(key) >= 6 and _swapped(key, self._keys[p])]
            if at:
                return (size, self._names(at), fuzzy[1])
        return None

    def _may_start_name(self, raw: str, key: str) -> bool:
        """A misspelled name is looked for only where a name is written: a capitalised word that
        is not a rules word (German capitalises every noun, so `Kreatur` is still tried)."""
        return len(key) >= 3 and raw[:1].isupper() and key not in self.common


# ------------------------------------------------------------------ what a card's Oracle text is about
def _phrase_variants(term: str) -> list[str]:
    """A CR glossary term and its plural, so `Activated Ability` meets `activated abilities`."""
    out = [term]
    if term.endswith("y"):
        out.append(term[:-1] + "ies")
    elif not term.endswith("s"):
        out.append(term + "s")
    return out


class RulesTerms:
    """Phrases (token tuples) of the rules vocabulary: CR glossary terms plus reviewed associations
    (`corpus/search-associations.yaml`: a rules phrase and the rules phrases a question about it may
    need, such as activated abilities → special action)."""

    def __init__(self, terms: Iterable[str], associations: Iterable[tuple[list[str], list[str]]] = ()) -> None:
        from kb.search.text import tokenize

        self._tokenize = tokenize
        phrases: dict[tuple[str, ...], list[str]] = {}
        for term in terms:
            toks = tokenize(term)
            for variant in _phrase_variants(term):
                key = tuple(tokenize(variant))
                if key:
                    phrases.setdefault(key, []).extend(t for t in toks if t not in phrases[key])
        for when, add in associations:
            extra = [t for phrase in add for t in tokenize(phrase)]
            for phrase in when:
                key = tuple(tokenize(phrase))
                if key:
                    phrases.setdefault(key, [])
                    phrases[key].extend(t for t in [*key, *extra] if t not in phrases[key])
        self._by_first: dict[str, list[tuple[tuple[str, ...], list[str]]]] = {}
        for key, toks in sorted(phrases.items(), key=lambda kv: -len(kv[0])):
            self._by_first.setdefault(key[0], []).append((key, toks))

    def found(self, text: str) -> list[tuple[tuple[str, ...], list[str]]]:
        """(phrase, tokens it stands for) of every rules phrase in `text`, left to right, longest first."""
        toks = self._tokenize(text)
        out = []
        i = 0
        while i < len(toks):
            for key, add in self._by_first.get(toks[i], ()):
                if tuple(toks[i:i + len(key)]) == key:
                    out.append((key, add))
                    i += len(key)
                    break
            else:
                i += 1
        return out


def card_expansions(cards: Iterable[tuple[str, str]], terms: RulesTerms, max_share: float = 0.05) -> dict[str, list[str]]:
    """English name → the rules tokens its Oracle text is about, for (English name, Oracle text) pairs.

    A phrase found in more than `max_share` of all Oracle texts (creature, target, battlefield) says
    nothing about one card and is left out.
    """
    found: dict[str, list[tuple[tuple[str, ...], list[str]]]] = {}
    df: dict[tuple[str, ...], int] = {}
    n = 0
    for name, text in cards:
        n += 1
        hits = terms.found(text)
        found[name] = hits
        for key in {k for k, _ in hits}:
            df[key] = df.get(key, 0) + 1
    limit = max(1, int(max_share * n))
    out: dict[str, list[str]] = {}
    for name, hits in found.items():
        toks: list[str] = []
        for key, add in hits:
            if df[key] <= limit:
                toks.extend(t for t in add if t not in toks)
        if toks:
            out[name] = toks
    return out


# ------------------------------------------------------------------ compiled at index build time
SPLIT_LAYOUTS = ("split", "aftermath")
# The most of the Oracle texts a card wording the CR glossary reads may be in to bring in its rules
# ("dies" 2.9%, "instead" 2.4%; "draw" 7%, "damage" 15%, "card" 19%), as `card_expansions`' max_share
WORDING_SHARE = 0.05
_LOWER_WORDS = re.compile(r"\b\w*[A-ZÄÖÜÁÉÍÓÚÑ]\w*", re.UNICODE)  # words with a capital: names, sentence starts
# remember(key, compute): compute's value, perhaps kept from an earlier build under `key`.
Remember = Callable[[str, Callable[[], dict[str, list[str]]]], dict[str, list[str]]]

ASSOCIATIONS_FILE = "search-associations.yaml"


class CardIndex:
    """What a query needs about cards, compiled when the index is built (a query never reads the
    19,032-card Oracle file: parsing it costs ~0.1 s, this ~20 ms): name keys, the words too common
    to start a misspelled name, and each card's rules tokens."""

    def __init__(self, matcher: CardMatcher, expand: dict[str, list[str]]) -> None:
        self.matcher = matcher
        self.expand = expand
        self._expand_text = ""  # read from an index: looked up per named card, never parsed whole

    def to_json(self) -> dict[str, Any]:
        """Line-separated strings, not JSON objects: a query reads 48,000 names in a few ms."""
        keys, values = zip(*self.matcher.items()) if self.matcher._keys else ((), ())
        return {"keys": "\n".join(keys), "values": "\n".join(values),
                "common": " ".join(sorted(self.matcher.common)), "longest": self.matcher.longest,
                "expand": "\n".join(f"{k}\t{' '.join(v)}" for k, v in sorted(self.expand.items()))}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> CardIndex:
        keys = doc["keys"].split("\n") if doc["keys"] else []
        values = doc["values"].split("\n") if doc["values"] else []
        if len(keys) != len(values):
            raise ValueError("card names and English names differ in number")
        longest = doc.get("longest")
        if longest is not None and (not isinstance(longest, int) or isinstance(longest, bool) or longest < 1):
            raise ValueError("the longest card name's length is not a positive number")
        index = cls(CardMatcher.from_sorted(keys, values, frozenset(doc["common"].split()), longest), {})
        index._expand_text = "\n" + doc["expand"] + "\n"
        return index

    _PARTS = ("keys", "values", "common", "expand")

    def to_text(self) -> bytes:
        """The index's cards.txt: a JSON line (the longest name's words, each part's size in bytes),
        then `to_json`'s strings as they are. JSON would escape each of their ~150,000 line breaks
        and non-ASCII letters, and unescaping them cost a cold query ~6 ms; these are decoded in 1."""
        doc = self.to_json()
        parts = [doc[name].encode("utf-8") for name in self._PARTS]
        head = {"longest": doc["longest"], "sizes": dict(zip(self._PARTS, map(len, parts)))}
        return json.dumps(head).encode("utf-8") + b"\n" + b"".join(parts)

    @classmethod
    def from_text(cls, data: bytes) -> CardIndex:
        """The CardIndex of `to_text`'s bytes; ValueError when they are not one."""
        end = data.find(b"\n")
        if end < 0:
            raise ValueError("card names without their header line")
        head = json.loads(data[:end])
        doc: dict[str, Any] = {"longest": head["longest"]}
        at = end + 1
        for name in cls._PARTS:
            size = head["sizes"][name]
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                raise ValueError(f"card names' part {name} has no size")
            doc[name] = data[at:at + size].decode("utf-8")
            at += size
        if at != len(data):
            raise ValueError("card names' parts and their sizes disagree")
        return cls.from_json(doc)

    def named(self, text: str) -> list[NamedCard]:
        return self.matcher.find(text)

    def rules_tokens(self, names: Iterable[str]) -> list[str]:
        """The rules tokens of the named cards' Oracle texts (each once), with the marked ids of the
        rules concepts they imply (`kb.search.question.split_concepts` tells them apart)."""
        out: list[str] = []
        for name in names:
            toks = self.expand.get(name)
            if toks is None and self._expand_text:
                at = self._expand_text.find(f"\n{name}\t")
                if at >= 0:
                    start = at + len(name) + 2
                    toks = self._expand_text[start:self._expand_text.index("\n", start)].split()
            out.extend(t for t in toks or () if t not in out)
        return out


def load_associations(text: str) -> list[tuple[list[str], list[str]]]:
    import yaml

    from kb.errors import InputError

    try:
        doc = yaml.safe_load(text) or {}
    except yaml.YAMLError as exc:
        raise InputError(f"{ASSOCIATIONS_FILE}: not valid YAML: {exc}") from None
    out = []
    for n, row in enumerate(doc.get("associations", []), start=1):
        if not isinstance(row, dict) or not row.get("when") or not row.get("add"):
            raise InputError(f"{ASSOCIATIONS_FILE}: association #{n} needs `when` and `add` lists")
        out.append(([str(w) for w in row["when"]], [str(a) for a in row["add"]]))
    return out


class NameTable(Protocol):
    """A card-names table (`kb.cards.CardNames`): English name → language → printed name."""

    @property
    def names(self) -> Mapping[str, Mapping[Lang, str]]: ...


def lower_words(texts: Sequence[str]) -> list[list[str]]:
    """Per text, its words written in lower case (no capital letter), keyed as card names are."""
    return [name_key(_LOWER_WORDS.sub(" ", text)).split() for text in texts]


def glossary_words(terms: Mapping[Lang, Sequence[str]], card_of: Callable[[str], str | None]) -> list[str]:
    """The terms of a search-glossary concept (`terms`, by language) that are rules or everyday words, not
    card names: all but those naming a card (`card_of`: name key → English name) that the concept lists by
    its English name as printed, capitalised as a name. The Form cycle's concept lists `Lightform` and its
    German name `Lichtform` as the cards (their rulings say "the Form"), `loses_abilities` lists the card
    `Humility`; `copy` lists `clone` and its German `Klon` as words, and so they stay (review50 H2)."""
    from kb.model import Lang

    english = set(terms.get(Lang.EN, ()))
    return [term for by_lang in terms.values() for term in by_lang if card_of(name_key(term)) not in english]


def compile_card_index(entries: Iterable[Entry], oracle: Oracle | None, card_names: NameTable | None,
                       associations_text: str = "", glossary: Glossary | None = None,
                       remember: Remember | None = None,
                       text_words: Callable[[Sequence[str]], list[list[str]]] | None = None) -> CardIndex:
    """The CardIndex of a KB: names from the Oracle cards, the KB's names table and its entries' cards;
    rules terms from its CR glossary entries (kind rule, clause `glossary:TERM`).

    The rules tokens of every Oracle card (a function of the Oracle cards, the rules terms and this
    code, seconds to derive) go through `remember(key, compute)`, which may keep them between builds;
    `key` names the rules terms. `text_words` is `lower_words`, perhaps remembered per text."""
    from kb.cr.entries import GLOSSARY_PREFIX
    from kb.search.question import (card_wording, clause_forms, concept_tokens, form_tokens, prose_forms,
                                    rule_tokens, spell_tokens, wording_rules)
    from kb.search.text import STOPWORDS, tokenize

    entries = list(entries)
    pairs: list[tuple[str, str]] = list(oracle.names()) if oracle is not None else []
    names_table = getattr(card_names, "names", {}) or {}
    for english, by_lang in names_table.items():
        pairs.extend((local, english) for local in by_lang.values())
    for e in entries:
        pairs.extend((c, c) for c in e.cards)
    # Words of the rules themselves: a lower-case `manifest` or `disguise` is the rule, not a typo.
    common: set[str] = set(STOPWORDS)
    for e in entries:
        if e.clause:
            common.update(name_key(e.text).split())
    # and the everyday words of the rulings, in every language: what they write in lower case
    # (`tierra`, `pantano`) is a word, whatever card is also called so
    wordings = sorted({v.text for e in entries for v in e.variants})
    for words in (text_words or lower_words)(wordings):
        common.update(words)
    # Each half of a split card is usually an everyday word (Breaking // Entering, Profit // Loss):
    # a half is the card only where it is written as a name.
    for c in (oracle or ()):
        if c.layout in SPLIT_LAYOUTS:
            for local in c.names.values():
                if " " not in local.strip():
                    common.add(name_key(local))
    matcher = CardMatcher.from_names(pairs)
    for concept in getattr(glossary, "concepts", ()):  # German and Spanish rules words too
        common.update(w for term in glossary_words(concept.terms, matcher.get) for w in name_key(term).split())
    matcher.common = frozenset(common)
    terms = [e.clause[len(GLOSSARY_PREFIX):] for e in entries
             if e.clause and e.clause.startswith(GLOSSARY_PREFIX)]
    rules_terms = RulesTerms(terms, load_associations(associations_text) if associations_text else ())
    cards = list(oracle) if oracle is not None else []
    # The card wordings the CR glossary reads (`question.card_wording`), with the entries' texts they were read from
    glossary_texts = sorted((e.clause[len(GLOSSARY_PREFIX):], e.text) for e in entries
                            if e.clause and e.clause.startswith(GLOSSARY_PREFIX))
    card_wordings = [w for term, text in glossary_texts
                if (w := card_wording(term, text.split(":", 1)[1] if ":" in text else text)) is not None]

    # The forms of card text the CR's clauses say how to read (`question.clause_forms`), and those it
    # describes in prose (`question.prose_forms`); a wording the glossary reads for the same rule already is left
    # to it (614's "instead"), not the rule's other forms (614.1c's "enters with": review48 M3).
    glossary_read = {(r, w.phrase) for w in card_wordings for r in w.rules}
    form_wordings = [w for e in sorted((e for e in entries if e.clause and not e.clause.startswith(GLOSSARY_PREFIX)),
                                       key=lambda e: e.clause or "")
                     for w in clause_forms(e.clause or "", e.text) if not {(r, w.phrase) for r in w.rules} <= glossary_read]
    form_wordings += prose_forms() if any(e.clause for e in entries) else []

    def rare(found: list[list[tuple[str, str]]]) -> set[tuple[str, str]]:
        """The (rule, wording) pairs of `found` in at most WORDING_SHARE of the Oracle texts: a wording in more
        ("card", "damage", "draw") says nothing of one card. Counted per wording, not per rule: a common wording
        takes none of its rule's rarer ones with it (review48 M3: 614's forms were in 17% of the cards together,
        and "instead", in 2.4%, brought 614 in for none)."""
        df: dict[tuple[str, str], int] = {}
        for pairs in found:
            for pair in pairs:
                df[pair] = df.get(pair, 0) + 1
        return {pair for pair, n in df.items() if n <= max(1, int(WORDING_SHARE * len(cards)))}

    def compute() -> dict[str, list[str]]:
        expand = card_expansions([(c.name, c.text) for c in cards], rules_terms)
        found = [wording_rules(c.text, card_wordings) for c in cards] if card_wordings else [[] for _ in cards]
        rare_wordings = rare(found)
        forms = [wording_rules(c.text, form_wordings) for c in cards] if form_wordings else [[] for _ in cards]
        rare_forms = rare(forms)
        # The card types matter whatever their frequency: a manifested Lightning Bolt is an instant.
        # The rules concepts its text implies (kb.search.question) are kept as marked tokens beside them.
        for c, rules, form in zip(cards, found, forms):
            types = [t for t in tokenize(c.type.split("\u2014")[0]) if t not in ("legendary", "basic", "snow")]
            toks = types + [t for t in expand.get(c.name, ()) if t not in types] + concept_tokens(c.text)
            read = [r for r in rules if r in rare_wordings]
            toks += rule_tokens(read)
            # a rule the card's glossary wordings bring in is brought in once (Rest in Peace's "instead" is 614)
            toks += form_tokens(r for r in form if r in rare_forms and r[0] not in {rule for rule, _ in read})
            toks += spell_tokens(types, c.text)
            if toks:
                expand[c.name] = toks
        return expand

    key = hashlib.sha256(json.dumps([sorted(terms), associations_text,
                                     [(w.phrase, w.rules) for w in card_wordings],
                                     [(w.phrase, w.rules, w.pattern.pattern) for w in form_wordings]]).encode()).hexdigest()[:16]
    return CardIndex(matcher, remember(key, compute) if remember else compute())
