"""The Comprehensive Rules across versions: parsing, clause identity, wording history, matching.

A CR text is parsed into `Clause`s (numbered rules with their examples) and `GlossaryEntry`s
(`parse`). `load_rules` reads every version bundled in `corpus/rules/` (`load`) and aligns each
version's clauses with the clauses seen before, by text similarity with number and parent
structure as tie-breakers (`lineage`). A clause's identity is its *lineage*: the same rule under
whatever number it had in each version (707.2a in 2018 is 708.2a). `RulesCorpus` answers questions
across versions (`query`); `ClauseMatcher` finds the current clause a text copies (`match`).
Clause numbers are in `numbers`, text comparison in `text`.
"""

from kb.cr.lineage import align
from kb.cr.load import load_current, load_rules, rules_dir
from kb.cr.match import CONTAINED_MIN_WORDS, CONTAINED_THRESHOLD, MATCH_THRESHOLD, ClauseMatcher
from kb.cr.numbers import depth_of, parent_of, sort_key
from kb.cr.parse import Clause, GlossaryEntry, RulesVersion, effective_date, parse_rules
from kb.cr.query import ChangeKind, ClauseChange, ClauseHistory, HistoryStep, RulesCorpus, SectionDiff
from kb.cr.text import is_title, normalise, similarity, tokens, word_diff

__all__ = [
    "CONTAINED_MIN_WORDS", "CONTAINED_THRESHOLD", "MATCH_THRESHOLD", "ChangeKind", "Clause", "ClauseChange", "ClauseMatcher", "ClauseHistory",
    "GlossaryEntry", "HistoryStep", "RulesCorpus", "RulesVersion", "SectionDiff", "align", "depth_of",
    "effective_date", "is_title", "load_current", "load_rules", "normalise", "parent_of",
    "parse_rules", "rules_dir", "similarity", "sort_key", "tokens", "word_diff",
]
