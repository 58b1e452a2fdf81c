"""Deduplication's delta: after pages are added, only the English ruling groups the new records can reach are
joined into revisions again (`deduplicate`'s `clustering`); every other group keeps the cluster it had.

Why that gives what joining every group gives. `_join_pairs` takes the candidate pairs (`_revision_pairs`)
most similar first, then by index; a pair whose two groups could be one ruling (its *passing* pairs: the
card, signature and copy tests, which look at those two groups only) joins them unless one page lists both
clusters' wordings. So the clusters inside one connected component of the passing pairs (a *component*)
follow from that component's pairs in that order alone, and adding groups keeps the order of the others.
What a new or changed group can change:

- the tests of its own pairs: a changed group is one whose first text, records' cards, pages, dates or
  officialness differ, or whose text may hold a card name that came or went (`Lexicon.name_marks`);
- the candidates of every row sharing a rare 3-gram with a new group (it may enter their top
  MAX_CANDIDATES and push another out), and its own row; a changed group's grams are its old ones;
- every row holding a 3-gram whose frequency crosses MAX_SHINGLE_DF: the fallback below.

The delta joins again the components of the changed groups and of the groups sharing a rare 3-gram with
them, grown by the component of any group such a row now passes with, and keeps every other cluster. It
answers None (the caller joins every group) when a group of the state is gone (a source removed or
replaced), when a 3-gram's frequency crosses MAX_SHINGLE_DF, when the vocabulary outgrows GRAM_BASE, or
when the state was made by other code or keywords. The state is a plain dict (`kb.store.cache` keeps it).

The state also keeps each cluster's `gap_key` where a build found it (`_align_translations`): what a translation
must share with the cluster's English evidence. A kept cluster keeps its groups, their records and what
the lexicon finds in their texts, so its key holds; a cluster joined again is weighed again.

And it keeps the content digest (`kb.store.digests.content_digest`) of the entry each cluster with no
translation made (`digests`, by root): a kept cluster's records are the last build's in every field the entry
is made of (`_mark`), so, with no translation joining it now, its entry says what the last one said and the
build's later stages take the digest as it is (`Clustering.known`) instead of digesting the entry again. A
cluster joined again, or one a translation joins, is digested anew.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any, Callable, Hashable, Sequence

from kb.concepts import declined_stem
from kb.ingest.dedup import (GRAM_BASE, GRAM_PAD, MAX_CANDIDATES, MAX_SHINGLE_DF, SHINGLE, GapKey, Lexicon,
                             Similarities, _Group, _join_pairs, _Tokens, _UnionFind, _cards, is_revision,
                             may_be_revision, words_digest)
from kb.model import Entry
from kb.normalize import match_key

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

VERSION = 3
State = dict[str, Any]


def _mark(group: _Group, is_official: Callable[[str], bool]) -> tuple[Hashable, ...]:
    """What the joining reads of a group's records: its first text, and each record's card, page, date and
    whether its source is official (`_card_keys`, `_may_be_one_ruling`, `_without_its_symbols`); and what
    else its entry is made of (`_make_entry`): each record's line, language, clause, its text and its
    original where they differ from the first text (None where they don't)."""
    records = group.records
    first = records[0].text
    if len(records) == 1:  # nine groups in ten at 100k rulings
        r = records[0]
        return (first, r.card, r.source, r.date, is_official(r.source), r.line, r.lang, r.clause,
                None if r.original == first else r.original)
    return (first, *[x for r in records for x in (r.card, r.source, r.date, is_official(r.source), r.line, r.lang,
                                                  r.clause, None if r.text == first else r.text,
                                                  None if r.original == first else r.original)])


def _folded(lexicon: Lexicon, group: _Group) -> list[str]:
    return match_key(lexicon.fold(group.records[0].text)).split()


def full_state(rulings: Sequence[_Group], roots: Sequence[int], passing: Sequence[tuple[int, int]],
               tokens: _Tokens | None, lexicon: Lexicon, is_official: Callable[[str], bool]) -> State | None:
    """The state a full join of `rulings` leaves: their order and marks, the 3-gram index, each group's
    component and cluster root (the smallest index in it)."""
    import numpy as np

    if tokens is None or tokens.grams_of is None:  # fewer than two groups: no candidates were looked for
        tokens = _Tokens([_folded(lexicon, g) for g in rulings])
        tokens.grams_of = tokens.gram_matrix()
    if tokens.gram_keys is None:
        return None
    grams = tokens.grams_of
    row_keys = tokens.gram_keys[grams.indices].astype(np.int64)
    components = _UnionFind(len(rulings))
    for i, j in passing:
        components.union(i, j)
    return _state(rulings, lexicon, is_official, dict(tokens.words), np.asarray(grams.indptr, dtype=np.int64),
                  row_keys, np.asarray([components.find(i) for i in range(len(rulings))], dtype=np.int64),
                  np.asarray(roots, dtype=np.int64))


def _state(rulings: Sequence[_Group], lexicon: Lexicon, is_official: Callable[[str], bool], words: dict[str, int],
           row_ptr: NDArray[np.int64], row_keys: NDArray[np.int64], component: NDArray[np.int64],
           root: NDArray[np.int64], marks: list[tuple[Hashable, ...]] | None = None,
           keyed: tuple[list[GapKey], NDArray[np.int64]] | None = None,
           digests: dict[int, str] | None = None) -> State:
    import numpy as np

    values, key_at = keyed if keyed is not None else ([], np.full(len(rulings), -1, dtype=np.int64))
    return {"version": VERSION, "keywords": tuple(lexicon.keywords), "names": lexicon.name_marks(),
            "exact": [g.exact for g in rulings],
            "marks": marks if marks is not None else [_mark(g, is_official) for g in rulings],
            "words": words, "row_ptr": row_ptr, "row_keys": row_keys, "component": component, "root": root,
            "gap_keys": values, "gap_key": key_at, "digests": digests if digests is not None else {}}


def gap_keys(state: State, roots: Sequence[int], count: int) -> list[GapKey | None]:
    """The known `gap_key` of each of `count` clusters, those whose roots are `roots` first (the others: None)."""
    values, key_at = state["gap_keys"], state["gap_key"]
    return [values[k] if k >= 0 else None for k in key_at[list(roots)].tolist()] + [None] * (count - len(roots))


def with_gap_keys(state: State, roots: Sequence[int], cluster_roots: Sequence[int],
                  keys: Sequence[GapKey | None]) -> State:
    """The state with the known keys of the clusters whose roots are `cluster_roots` (`keys` in that order)
    on each of their groups (`roots`: each group's cluster root)."""
    import numpy as np

    number: dict[GapKey, int] = {}
    at_root = np.full(len(roots), -1, dtype=np.int64)
    for root, key in zip(cluster_roots, keys):
        if key is not None:
            at_root[root] = number.setdefault(key, len(number))
    return {**state, "gap_keys": list(number), "gap_key": at_root[np.asarray(roots, dtype=np.int64)]}


def with_digests(state: State, made: dict[int, Entry]) -> State:
    """The state with the content digests of the entries `made` (by their cluster's root) beside those it keeps:
    left to the child that saves the state (`kb.build`)."""
    from kb.store.digests import content_digest

    if not made:
        return state
    return {**state, "digests": {**state["digests"], **{root: content_digest(e) for root, e in made.items()}}}


def with_postings(state: State) -> State:
    """The state with its 3-grams' posting lists (each 3-gram's groups, ascending): a sort of every
    group's 3-grams, left to the child that saves the state (`kb.build`), or to the next call."""
    import numpy as np

    if "post_keys" not in state:
        row_ptr, row_keys = state["row_ptr"], state["row_keys"]
        owner = np.repeat(np.arange(len(row_ptr) - 1, dtype=np.int64), np.diff(row_ptr))
        order = np.lexsort((owner, row_keys))
        state = {**state, "post_keys": row_keys[order], "post_groups": owner[order]}
    return state


def delta_roots(state: State, rulings: Sequence[_Group], lexicon: Lexicon, similarity: Similarities,
                is_official: Callable[[str], bool]) -> tuple[list[int], State] | None:
    """Each group's cluster root (its smallest index) as joining every group gives it, and the state for
    the next call; None when a global rule (module docstring) asks for the full join."""
    import numpy as np

    if not isinstance(state, dict) or state.get("version") != VERSION \
            or state.get("keywords") != tuple(lexicon.keywords):
        return None
    state = with_postings(state)
    position = {e: k for k, e in enumerate(state["exact"])}
    n, old_n = len(rulings), len(state["exact"])
    old_of = [position.get(g.exact, -1) for g in rulings]
    kept = [o for o in old_of if o >= 0]
    if len(kept) != old_n or any(a >= b for a, b in zip(kept, kept[1:])):
        return None  # a group is gone (or the order changed): its clusters must be joined again
    new_of_old = np.asarray([i for i, o in enumerate(old_of) if o >= 0], dtype=np.int64)
    marks = [_mark(g, is_official) for g in rulings]
    old_marks = state["marks"]
    changed = {i for i, o in enumerate(old_of) if o < 0 or old_marks[o] != marks[i]}
    if any(old_marks[old_of[i]][0] != marks[i][0] for i in changed if old_of[i] >= 0):
        return None  # another first text: its 3-grams may differ from the index's
    names = lexicon.name_marks()
    if names != state["names"]:  # a card name came or went: the texts that may hold it are changed
        differ = {k for k in names.keys() | state["names"].keys() if names.get(k) != state["names"].get(k)}
        firsts = {declined_stem(toks[0]) or toks[0] for toks, _ in differ if toks}
        for i, ruling in enumerate(rulings):
            if i not in changed:
                text = ruling.records[0].text
                as_folded = lexicon.fold(text)
                probe = f"{match_key(text)}\n{match_key(as_folded)}\n{text.casefold()}\n{as_folded.casefold()}"
                if any(first in probe for first in firsts):
                    changed.add(i)

    # the new groups' 3-grams, as the full join's index numbers them
    words: dict[str, int] = state["words"]
    new_grams: dict[int, list[int]] = {}
    added: Counter[int] = Counter()
    for i, o in enumerate(old_of):
        if o >= 0:
            continue
        folded_words = _folded(lexicon, rulings[i])
        ids = []
        for w in folded_words:
            k = words.get(w)
            if k is None:
                if words is state["words"]:
                    words = dict(words)
                k = words[w] = len(words)
            ids.append(k)
        if len(words) >= GRAM_PAD:
            return None
        grams = sorted({_gram_key(ids[s:s + SHINGLE]) for s in range(max(1, len(ids) - SHINGLE + 1))})
        new_grams[i] = grams
        added.update(grams)
    post_keys, post_groups = state["post_keys"], state["post_groups"]
    new_post: dict[int, list[int]] = defaultdict(list)
    for i, grams in new_grams.items():
        for key in grams:
            new_post[key].append(i)
    for key, more in added.items():
        lo, hi = np.searchsorted(post_keys, key, "left"), np.searchsorted(post_keys, key, "right")
        if hi - lo <= MAX_SHINGLE_DF < hi - lo + more:
            return None  # the 3-gram stops counting for every group holding it

    row_ptr, row_keys = state["row_ptr"], state["row_keys"]

    def grams_of(i: int) -> NDArray[np.int64]:
        o = old_of[i]
        if o < 0:
            return np.asarray(new_grams[i], dtype=np.int64)
        return row_keys[row_ptr[o]:row_ptr[o + 1]]  # type: ignore[no-any-return]

    def sharing(i: int) -> Counter[int]:
        """The groups sharing rare 3-grams with group i, and how many."""
        keys = grams_of(i)
        lo, hi = np.searchsorted(post_keys, keys, "left"), np.searchsorted(post_keys, keys, "right")
        counts: Counter[int] = Counter()
        for key, a, b in zip(keys.tolist(), lo.tolist(), hi.tolist()):
            extra = new_post.get(key, ())
            if b - a + len(extra) > MAX_SHINGLE_DF:
                continue
            counts.update(new_of_old[post_groups[a:b]].tolist())
            counts.update(extra)
        counts.pop(i, None)
        return counts

    def candidates(i: int) -> list[int]:
        """Row i's candidates (`_revision_pairs`): the later groups sharing the most rare 3-grams, ties by index."""
        later = sorted(((-c, j) for j, c in sharing(i).items() if j > i))
        return [j for _, j in later[:MAX_CANDIDATES]]

    # the rows whose candidates or pair tests may differ: the changed groups and every group sharing with them
    touched = set(changed)
    for i in changed:
        touched.update(sharing(i))
    component, root = state["component"], state["root"]
    order = np.argsort(component, kind="stable")
    cuts = (np.flatnonzero(np.diff(component[order])) + 1).tolist()
    members_at = {int(component[order[a]]): order[a:b] for a, b in zip([0, *cuts], [*cuts, old_n])} if old_n else {}
    redo: set[int] = set()
    pending: list[int] = []

    def reach(i: int) -> None:
        o = old_of[i]
        group = [i] if o < 0 else new_of_old[members_at[int(component[o])]].tolist()
        for g in group:
            if g not in redo:
                redo.add(g)
                pending.append(g)

    folded: dict[int, list[str]] = {}
    digests: dict[int, bytes] = {}
    counts: dict[int, Counter[str]] = {}

    def aligned(i: int, j: int) -> float | None:
        """The pair's ratio when `_revision_pairs` yields it."""
        for k in (i, j):
            if k not in folded:
                folded[k] = _folded(lexicon, rulings[k])
                digests[k] = words_digest(folded[k])
                counts[k] = Counter(folded[k])
        shared = sum((counts[i] & counts[j]).values())
        if not may_be_revision(shared, len(folded[i]) + len(folded[j])):
            return None
        ratio, contained = similarity.pair(digests[i], digests[j], folded[i], folded[j])
        return ratio if is_revision(ratio, contained) else None

    def passes(i: int, j: int, ratio: float) -> bool:
        pair = [rulings[i], rulings[j]]
        sigs = [lexicon.signature(g.records[0].text, _cards(g)) for g in pair]
        return bool(_join_pairs(pair, sigs, [(0, 1, ratio)], lexicon, is_official)[1])

    rows: dict[int, list[int]] = {}
    for t in sorted(touched):
        reach(t)
    while pending:
        i = pending.pop()
        rows[i] = candidates(i)
        if i not in touched:
            continue  # an untouched row's pairs pass as before: its partners are in its component already
        for j in rows[i]:
            if j not in redo and (ratio := aligned(i, j)) is not None and passes(i, j, ratio):
                reach(j)
    ordered = sorted(redo)
    local = {g: k for k, g in enumerate(ordered)}
    pairs = [(local[i], local[j], ratio) for i in ordered for j in rows[i]
             if j in local and (ratio := aligned(i, j)) is not None]
    sub = [rulings[g] for g in ordered]
    sigs = [lexicon.signature(g.records[0].text, _cards(g)) for g in sub]
    uf, passing = _join_pairs(sub, sigs, pairs, lexicon, is_official)

    new_root = np.empty(n, dtype=np.int64)
    new_component = np.empty(n, dtype=np.int64)
    new_root[new_of_old] = new_of_old[root]
    new_component[new_of_old] = new_of_old[component]
    parts = _UnionFind(len(sub))
    for a, b in passing:
        parts.union(a, b)
    for k, at_k in enumerate(ordered):
        new_root[at_k] = ordered[uf.find(k)]
        new_component[at_k] = ordered[parts.find(k)]

    # the index with the new groups' rows in their places
    lengths = np.zeros(n, dtype=np.int64)
    lengths[new_of_old] = np.diff(row_ptr)
    inserted = sorted(new_grams)
    at = [int(row_ptr[int(np.searchsorted(new_of_old, i))]) for i in inserted for _ in new_grams[i]]
    values = [key for i in inserted for key in new_grams[i]]
    for i in inserted:
        lengths[i] = len(new_grams[i])
    new_ptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.int64)
    new_keys = np.insert(row_keys, np.asarray(at, dtype=np.int64), np.asarray(values, dtype=np.int64))
    # a kept cluster keeps its key; a cluster joined again is weighed again
    key_at = np.full(n, -1, dtype=np.int64)
    key_at[new_of_old] = state.get("gap_key", np.full(old_n, -1, dtype=np.int64))
    key_at[np.asarray(ordered, dtype=np.int64)] = -1
    # a kept cluster keeps its entry's digest (its root is a kept group's); a cluster joined again is digested anew
    moved = new_of_old.tolist()
    kept_digests = {moved[o]: digest for o, digest in state["digests"].items() if moved[o] not in local}
    next_state = _state(rulings, lexicon, is_official, words, new_ptr, new_keys, new_component, new_root, marks,
                        (list(state.get("gap_keys", [])), key_at), kept_digests)
    return new_root.tolist(), next_state


def _gram_key(ids: Sequence[int]) -> int:
    """A 3-gram of word ids as `_Tokens.gram_matrix` keys it (a shorter list padded with GRAM_PAD)."""
    key = 0
    for k in range(SHINGLE):
        key = key * GRAM_BASE + (ids[k] if k < len(ids) else GRAM_PAD)
    return key
