"""Where judge-kb reads its bundled corpus and keeps its data: one place, overridable."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def corpus_dir() -> Path:
    """The bundled corpus (`corpus/` of the repository), or `$KB_CORPUS`."""
    path = Path(os.environ.get("KB_CORPUS") or REPO_ROOT / "corpus")
    if not path.is_dir():
        from kb.errors import InputError

        raise InputError(f"no corpus folder at {path}: install judge-kb from a clone with "
                         "`pip install -e .`, or point KB_CORPUS at a corpus folder")
    return path


def home() -> Path:
    """The data directory: `$KB_HOME`, else the platform's user data directory."""
    env = os.environ.get("KB_HOME")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("judge-kb", appauthor=False))


def display_path(path: Path) -> str:
    """A path as reported in records and messages: repo-relative when inside the repo."""
    path = Path(path).resolve()
    try:
        return str(path.relative_to(REPO_ROOT))
    except ValueError:
        return str(path)
