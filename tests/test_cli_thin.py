"""The CLI stays thin: rich rendering lives in cli/render.py only, and errors are handled in one
place (cli.common.KBGroup), never caught and printed by a command."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CLI = Path(__file__).resolve().parent.parent / "cli"
COMMANDS = sorted(p for p in CLI.glob("*.py") if p.name not in ("render.py", "common.py", "__init__.py"))
RENDERING = {"rich.table", "rich.panel", "rich.progress", "rich.console.Group", "rich.markup"}


def imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


@pytest.mark.parametrize("path", [*COMMANDS, CLI / "common.py"], ids=lambda p: p.name)
def test_only_render_draws_tables_panels_and_progress(path: Path) -> None:
    assert not imported(path) & RENDERING, f"{path.name} renders; move it to cli/render.py"


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: p.name)
def test_commands_leave_errors_to_the_one_handler(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    caught = {ast.unparse(h.type) for h in ast.walk(tree) if isinstance(h, ast.ExceptHandler) and h.type}
    assert not caught & {"Exception", "BaseException", "KBError", "StoreError", "NotFoundError"}, caught
    assert not any(isinstance(h, ast.ExceptHandler) and h.type is None for h in ast.walk(tree))
    assert "error:" not in path.read_text(encoding="utf-8")


def test_every_command_runs_under_the_one_handler() -> None:
    from cli.common import KBGroup
    from cli.main import app

    assert app.info.cls is KBGroup and len(app.registered_commands) == 13
