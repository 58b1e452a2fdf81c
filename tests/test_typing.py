"""`mypy --strict` is clean on kb/ and cli/ (issue 16): the types are checked on every test run, so a
change that breaks them fails CI like any other test. The settings are pyproject.toml's [tool.mypy]."""

from __future__ import annotations

from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean_on_the_library_and_the_cli() -> None:
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"), str(REPO / "kb"), str(REPO / "cli")])
    assert status == 0, stdout + stderr
