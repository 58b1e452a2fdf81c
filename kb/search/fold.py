"""One ruling said for several face-down mechanics takes one place in the hits.

The release notes repeat a face-down ruling for each mechanic that makes cards face down, the
mechanic's word changed ("... paying its morph cost" / "... paying its disguise cost"), and often a
few other words with it ("in order to confuse" / "to confuse", a sentence naming the mechanics
added). Dedup keeps them apart, rightly: they are given for different cards and say different
mechanics. In the hits they are one answer, so the best-ranked wording is shown and the others are
folded under it (`Hit.also`).

What counts (`same_ruling`): two rulings (kind ruling, never CR clauses) are one ruling said for
several mechanics when

- the face-down mechanic words they say differ: a mechanic's words are the tokens every English
  term of its glossary concept holds (`mechanic_words`: "morph" of morph / morph ability / morph
  cost; "manifest" and "dread" of manifest dread), the mechanics being the glossary concepts of
  `FACE_DOWN_TERMS` less face down and turning face up, which every one of them shares; and
- with those words put aside, they are a near-copy: the share of their tokens (stemmed, function
  words left out, so "manifested" and "manifest" are one word) that both hold is at least
  `FOLD_JACCARD` (Jaccard). Equal token lists alone would miss the rewordings above.

Two rulings that say the same mechanics (or none) are not folded: the same words for two cards
("Keeper of the Lens doesn't stop ..." / "Lens of Clarity doesn't stop ...") or a ruling and its
own revision are other matters (`rank.apart_copies` moves such a near-copy down). Folding is
judged among the hits a search fetched, so wordings join one group through any member they are a
near-copy of (the three "keep them apart" wordings: the morph one is near both others).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from kb.model import Entry, Kind, Lang
from kb.search.glossary import Glossary
from kb.search.question import FACE_DOWN_TERMS
from kb.search.text import tokenize

# The mechanics that turn cards face down, each its own way (glossary concept ids)
FACE_DOWN_MECHANICS = FACE_DOWN_TERMS - {"face_down", "turn_face_up"}
# Share of two wordings' tokens both hold, their mechanic words put aside, from which they are one
# ruling: `rank.COPY_JACCARD`'s near-copy. The bundled corpus's pairs that differ in mechanic words
# lie at 0.64 (two rulings: manifest dread's reminder / the face-down characteristics) or 0.81 and above.
FOLD_JACCARD = 0.8

MechanicWords = dict[str, frozenset[str]]  # mechanic (glossary concept id) -> its words (tokens)


@dataclass(frozen=True)
class AlsoSaid:
    """A wording of the same ruling for other mechanics, folded under a hit."""

    entry: Entry
    mechanics: tuple[str, ...]  # the face-down mechanics it is said for (English names), in glossary order

    def to_json(self) -> dict[str, Any]:
        return {"id": self.entry.id, "mechanics": list(self.mechanics), "cards": list(self.entry.cards)}


def mechanic_words(glossary: Glossary) -> MechanicWords:
    """Per face-down mechanic of the glossary, in its order: the tokens every English term of it holds."""
    out: MechanicWords = {}
    for concept in glossary.concepts:
        if concept.id not in FACE_DOWN_MECHANICS:
            continue
        terms = [set(tokenize(t)) for t in concept.terms.get(Lang.EN, ())]
        if terms and (common := set.intersection(*terms)):
            out[concept.id] = frozenset(common)
    return out


def mechanic_names(glossary: Glossary) -> dict[str, str]:
    """Per face-down mechanic: its name as a ruling writes it (the first English term)."""
    return {c.id: c.terms[Lang.EN][0] for c in glossary.concepts
            if c.id in FACE_DOWN_MECHANICS and c.terms.get(Lang.EN)}


def named_mechanics(tokens: Sequence[str], words: MechanicWords) -> frozenset[str]:
    """The mechanics whose words are all among `tokens`, less one whose words are part of another's
    found ("manifest" of "manifest dread")."""
    held = set(tokens)
    found = [m for m, w in words.items() if w <= held]
    return frozenset(m for m in found if not any(words[m] < words[o] for o in found))


def same_ruling(a: Sequence[str], b: Sequence[str], words: MechanicWords) -> bool:
    """Whether texts of tokens `a` and `b` are one ruling said for other mechanics (see the module)."""
    return _one_ruling(_parts(a, words), _parts(b, words))


_Parts = tuple[frozenset[str], set[str]]  # a text's mechanics (`named_mechanics`) and its other tokens


def _parts(tokens: Sequence[str], words: MechanicWords) -> _Parts:
    every = frozenset().union(*words.values())
    return named_mechanics(tokens, words), set(tokens) - every


def _one_ruling(a: _Parts, b: _Parts) -> bool:
    """`same_ruling` of two texts' parts: other mechanics named, the rest a near-copy."""
    return a[0] != b[0] and _near(a[1], b[1])


def _near(a: set[str], b: set[str]) -> bool:
    """Whether token sets `a` and `b` are a near-copy: Jaccard at least `FOLD_JACCARD`."""
    union = len(a | b)
    return union > 0 and len(a & b) >= FOLD_JACCARD * union


def fold_mechanics(entries: Sequence[Entry], words: MechanicWords, asked: frozenset[str] = frozenset(),
                   mechanics_of: Callable[[int], frozenset[str]] | None = None) -> list[tuple[int, tuple[int, ...]]]:
    """The hits `entries` (best first) folded: per group of wordings of one ruling, in the order of its
    best member, (the position shown, the positions folded under it, best first). The shown one is the
    best-ranked, or when the question names mechanics (`asked`) the best-ranked wording said for one of
    them (`mechanics_of` the wording at a position), else the best-ranked whose text names one: a
    question about manifest sees the manifest wording."""
    parts = [_parts(tokenize(e.text), words) if e.kind is Kind.RULING else None for e in entries]
    parent = list(range(len(entries)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(entries)):
        for j in range(i + 1, len(entries)):  # `same_ruling`, each text's parts found once
            a, b = parts[i], parts[j]
            if a is not None and b is not None and find(i) != find(j) and _one_ruling(a, b):
                parent[find(j)] = find(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(entries)):
        groups.setdefault(find(i), []).append(i)
    out = []
    for members in sorted(groups.values(), key=lambda m: m[0]):
        shown = members[0]
        if asked and len(members) > 1:
            # the wording for a mechanic asked about, else one whose text names it
            of = mechanics_of or (lambda k: frozenset())
            says = [k for k in members if of(k) & asked] \
                or [k for k in members if (part := parts[k]) is not None and part[0] & asked]
            shown = says[0] if says else shown
        out.append((shown, tuple(k for k in members if k != shown)))
    return out
