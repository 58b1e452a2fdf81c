"""`mypy --strict` is clean on kb/ and cli/ (issue 16): the types are checked on every test run, so a
change that breaks them fails CI like any other test. The settings are pyproject.toml's [tool.mypy]."""

from __future__ import annotations

import re
from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean_on_the_library_and_the_cli() -> None:
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"), str(REPO / "kb"), str(REPO / "cli")])
    assert status == 0, stdout + stderr


def test_a_rule_history_must_say_since_when_a_change_is_seen(tmp_path, monkeypatch) -> None:
    """review39 #10: `since` was read by getattr outside the RuleHistory protocol, so a history that
    misspelt it (or a plain function) type-checked and silently lost "reworded between the CRs of ...".
    It is part of the protocol: a history without it is a type error where it is passed."""
    checked = tmp_path / "history_without_since.py"
    checked.write_text(
        "from kb.corpus import Corpus\n"
        "from kb.outdated import find_outdated\n\n\n"
        "class Misspelt:\n"
        "    common_words: frozenset[str] = frozenset()\n\n"
        "    def __call__(self, clause: str, at: str) -> tuple[str, str, str, list[str]] | None:\n"
        "        return None\n\n"
        "    def sice(self, clause: str, date: str) -> str | None:\n"
        "        return None\n\n"
        "    def cited(self, number: str, at: str | None, ruling: str, by: tuple[str, str] | None = None) -> None:\n"
        "        return None\n\n\n"
        "find_outdated([], terminology=Corpus.default().terminology, rule_history=Misspelt())\n",
        encoding="utf-8")
    monkeypatch.setenv("MYPYPATH", str(REPO))  # this checkout's kb, not an installed one
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"), str(checked)])
    assert status == 1 and 'Argument "rule_history" to "find_outdated"' in stdout, stdout + stderr
    assert re.search(r'missing following "RuleHistory" protocol member:\n.*note:\s+since$', stdout, re.MULTILINE), stdout
