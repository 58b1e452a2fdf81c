"""The on-disk cache of derived data: reused while its inputs are unchanged, never stale, never fatal."""

from __future__ import annotations

from pathlib import Path

from kb.store.cache import cached


def test_value_is_reused_until_an_input_changes(tmp_path: Path, kb_home: Path) -> None:
    source = tmp_path / "rules.txt"
    source.write_text("one")
    calls: list[str] = []

    def compute() -> str:
        calls.append(source.read_text())
        return source.read_text().upper()

    assert cached("t", [source], compute) == "ONE"
    assert cached("t", [source], compute) == "ONE"
    assert calls == ["one"]
    source.write_text("two")
    assert cached("t", [source], compute) == "TWO"
    assert calls == ["one", "two"]
    assert len(list((kb_home / "cache").glob("t-*.pickle"))) == 1, "the stale value is dropped"


def test_a_damaged_cache_file_is_recomputed(tmp_path: Path, kb_home: Path) -> None:
    source = tmp_path / "rules.txt"
    source.write_text("one")
    cached("t", [source], lambda: "value")
    (file,) = (kb_home / "cache").glob("t-*.pickle")
    file.write_bytes(file.read_bytes()[:5])
    assert cached("t", [source], lambda: "recomputed") == "recomputed"


def test_an_unwritable_data_directory_only_costs_speed(tmp_path: Path, kb_home: Path) -> None:
    kb_home.parent.mkdir(parents=True, exist_ok=True)
    kb_home.write_text("a file where the data directory should be")
    source = tmp_path / "rules.txt"
    source.write_text("one")
    assert cached("t", [source], lambda: 42) == 42
