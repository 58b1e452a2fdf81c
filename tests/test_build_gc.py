"""A build runs with Python's cyclic garbage collector paused (its full collections walked the
millions of objects a build holds: about a quarter of the cpu of adding one page at 100k rulings,
bench/results/command_speed.md) and leaves it as it found it, when it fails too."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

import kb.build


@pytest.mark.parametrize("enabled", [True, False])
def test_a_build_runs_with_the_collector_off_and_leaves_it_as_it_found_it(
        enabled: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def stage(*args: Any, **kwargs: Any) -> None:
        seen.append(gc.isenabled())
        raise RuntimeError("stop")  # a stage that fails restores it too

    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setattr(kb.build, "build_entries", stage)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(RuntimeError):
            kb.build.build(home=tmp_path / "home")
        assert seen == [False]
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
