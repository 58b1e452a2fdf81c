"""What the scenario tests share."""

from __future__ import annotations

from collections.abc import Mapping

from kb.checks.scenario import Check, check_verdict
from kb.game import CardDef


def run_check(check: Check, cards: Mapping[str, CardDef], rules_date: str | None = None) -> list[str]:
    """Every failed expectation of `check` (empty: it passed); a check that does not apply under
    `rules_date` is one failure saying so, as `kb check` would count it against a gate."""
    verdict = check_verdict(check, cards, rules_date)
    if verdict.not_applicable:
        return [f"{check.file}:{check.line}: setup refused: {verdict.not_applicable}"]
    return verdict.failures
