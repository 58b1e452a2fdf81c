"""`ClauseTree`: which clause numbers are a clause or under it, one lookup a clause, the same answers as
`clause_under` asked of every number (the search asked that per rule on the query path)."""

from __future__ import annotations

import numpy as np
import pytest

from kb.corpus import Corpus
from kb.search.filters import ClauseTree, clause_under

# odd numbers too: a glossary entry's, letters only, a trailing or doubled dot, spaces
ODD = ["glossary:Dies", "glossary:End the Turn", "abc", "702.37c.", "702..1", " 1.2", "3. a", ""]


@pytest.fixture(scope="module")
def numbers() -> list[str]:
    return [*Corpus.default().current_rules.numbers(), *ODD]


def test_the_tree_answers_as_clause_under_for_every_beginning_of_every_number(numbers: list[str]) -> None:
    tree = ClauseTree(numbers)
    # every beginning of 702.3x's and 708's numbers and the odd ones (of all numbers: ~45 s), asked of every number
    asked = sorted({n[:end] for n in numbers if n.startswith(("702.3", "708")) or n in ODD for end in range(len(n) + 1)}
                   | {" 702.37 ", "702.", "1", "99", "x"})
    for clause in asked:
        old = np.array([clause_under(n, clause) for n in numbers], dtype=bool)
        assert (tree.mask(clause) == old).all(), clause
        below = np.array([clause_under(n, clause) and n != clause for n in numbers], dtype=bool)
        assert (tree.mask(clause, below=True) == below).all(), clause


@pytest.mark.parametrize("clause, under", [
    ("702.37", ["702.37", "702.37a", "702.37c"]),  # not 702.370
    ("702", ["702", "702.37", "702.37a", "702.37c", "702.370"]),
    ("702.37.", ["702.37", "702.37a", "702.37c"]),  # a clause written with its dot
    ("702.3", []),
])
def test_a_rule_holds_its_subrules_and_no_number_that_only_begins_like_it(clause: str, under: list[str]) -> None:
    numbers = ["702", "702.37", "702.37a", "702.37c", "702.370", "703.1"]
    mask = ClauseTree(numbers).mask(clause)
    assert [n for n, m in zip(numbers, mask) if m] == under
