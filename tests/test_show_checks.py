"""`kb show` runs an entry's checks under the current rules and shows each as `kb check` does: a check of a
ruling a later rule contradicts (`holds_until`) is not applicable now, with the reason, not a failure."""

from __future__ import annotations

from rich.console import Console

from cli import render
from kb.checks import run_checks
from kb.game.rules import CURRENT
from tests.entries import CORPUS

SHARED_FATE = "exile-face-down/shared-fate-play-only-what-you-exiled-only-while-it-stays"


def test_a_check_outside_its_rules_dates_shows_as_not_applicable_with_the_reason_not_as_a_failure() -> None:
    """review49: Shared Fate's look ruling (2008-08-01, `holds_until: 2013-01-24`) printed "FAIL" and no reason
    in `kb show`, where `kb check --rules` and `--json` say "not applicable"."""
    check = next(c for c in CORPUS.checks[0] if c.id == SHARED_FATE)
    assert check.holds_until == "2013-01-24"
    results = run_checks([check], rules_date=CURRENT, cards=CORPUS.cards)  # as `kb show` runs them
    assert results[0].not_applicable and not results[0].failures and not results[0].passed
    for show in (lambda c: render.check_blocks(c, [check], results), lambda c: render.check_results(c, results)):
        console = Console(width=300, record=True)
        show(console)
        out = console.export_text()
        assert f"n/a   {SHARED_FATE}" in out and "FAIL" not in out
        assert "its check passes only under rules before 2013-01-24 (holds_until)" in out
