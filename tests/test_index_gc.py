"""kb/search/index.py build_index pauses the garbage collector (its full collections walked the
100k entries' objects again and again: ~1.5 s of the index stage's cpu) and restores it after."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest

from kb.search import index


@pytest.mark.parametrize("enabled", [True, False])
def test_build_index_runs_with_the_collector_off_and_leaves_it_as_it_found_it(
        enabled: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def body(*args: Any) -> None:
        seen.append(gc.isenabled())
        raise RuntimeError("stop")  # and a stage that fails restores it too

    monkeypatch.setattr(index, "_build_index", body)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(RuntimeError):
            index.build_index([], tmp_path / "index", object(), corpus=object())  # type: ignore[arg-type]
        assert seen == [False]
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
