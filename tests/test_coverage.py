"""End to end over the bundled corpus: every ruling entry is linked, checked, and its checks pass."""

from __future__ import annotations

import json

from kb.cards import NAMES_FILE, derive_names
from kb.checks import load_checks, run_checks
from kb.game.rules import CURRENT
from kb.model import Kind
from kb.paths import corpus_dir


def test_every_ruling_entry_has_a_rule_link_or_says_why_not(bundled_entries):
    entries, _ = bundled_entries
    rulings = [e for e in entries if e.kind is Kind.RULING]
    assert rulings and all(bool(e.rules) != bool(e.link_note) for e in rulings)
    assert all(e.rules[0].clause == e.clause for e in entries if e.kind is Kind.RULE)


def test_every_ruling_entry_has_a_check_and_all_pass_under_current_rules(bundled_entries):
    entries, report = bundled_entries
    unchecked = [e.text[:70] for e in entries if e.kind is Kind.RULING and not e.checks]
    assert not unchecked, f"ruling entries without a check: {unchecked}"
    assert not [p for p in report.problems if not p.ignored], "every check attaches to exactly one entry"
    checks, problems = load_checks()
    assert not problems
    attached = {c for e in entries for c in e.checks}
    assert attached == {c.id for c in checks}
    failed = [r for r in run_checks(checks, rules_date=CURRENT) if not r.passed]
    assert not failed, [(r.id, r.failures) for r in failed]


def test_card_names_table_is_what_the_mtgjson_data_says():
    bundled = json.loads((corpus_dir() / NAMES_FILE).read_text(encoding="utf-8"))
    assert derive_names(corpus_dir()).to_json() == bundled
    names = {row["en"]: row for row in bundled["cards"]}
    assert names["Lightform"]["de"] == "Lichtform" and names["Rageform"]["es"] == "Forma de ira"
