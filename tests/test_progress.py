"""A build's progress while the model embeds: a first build spends minutes in the index stage, which
showed one line ("… index") and nothing after it when stderr was no terminal (tryout18a), and a bar
that did not move on one."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from kb.search import child
from kb.search.embed import count_embedded


class _Model:
    """What `count_embedded` needs of a sentence-transformers model: `forward` once a batch."""

    def forward(self, features: dict[str, list[list[int]]]) -> str:
        return f"{len(features['input_ids'])} rows"


class _Rows(list[list[int]]):
    @property
    def shape(self) -> tuple[int, int]:
        return (len(self), 1)


def test_the_child_counts_the_texts_of_every_batch_it_embeds_and_returns_what_forward_returns(tmp_path: Path) -> None:
    model, counted = _Model(), tmp_path / "embedded"
    count_embedded(model, counted)
    assert model.forward({"input_ids": _Rows([[1]] * 32)}) == "32 rows"
    assert counted.read_text() == "32"
    model.forward({"input_ids": _Rows([[1]] * 7)})
    assert counted.read_text() == "39"


def test_a_waiting_parent_hears_from_the_child_while_it_runs_and_loses_none_of_its_output(tmp_path: Path) -> None:
    calls: list[int] = []
    script = "import sys, time; print('out'); time.sleep(1.2); print('err', file=sys.stderr)"
    done = child.run(["-c", script], on_wait=lambda: calls.append(1), every=0.2)
    assert done.returncode == 0 and done.stdout == "out\n" and done.stderr == "err\n"
    assert len(calls) >= 4  # ~6 waits of 0.2 s, and one after the end
    quiet = child.run(["-c", "import sys; sys.exit(3)"])
    assert quiet.returncode == 3


def test_without_a_terminal_a_long_stage_prints_how_far_it_got_not_every_callback() -> None:
    from cli.render import _plain_progress

    console = Console(file=io.StringIO(), record=True, width=120)
    every_time = _plain_progress(console, quiet=False, every=0.0)
    for done in (0, 32, 64, 5388):
        every_time("index", done, 5388)
    every_time("write", 0, 1)
    lines = console.export_text().splitlines()
    assert lines == ["… index", "… index 32/5,388", "… index 64/5,388", "… write"]

    console = Console(file=io.StringIO(), record=True, width=120)
    rarely = _plain_progress(console, quiet=False, every=3600.0)
    for done in (0, 32, 64):
        rarely("index", done, 5388)
    assert console.export_text().splitlines() == ["… index"]


def test_the_bar_names_the_count_of_a_stage_that_counts() -> None:
    from cli.render import _stage_label

    assert _stage_label("index", 1200, 5388) == "index 1,200/5,388"
    assert _stage_label("index", 0, 1) == "index"
    assert _stage_label("index", 5388, 5388) == "index"



def test_a_failing_callback_stops_the_child_at_once_and_its_error_is_raised() -> None:
    """Second review: an error raised by the progress callback waited for the child to finish (minutes
    of embedding in a real build) before it was raised."""
    import time

    import pytest

    def fail() -> None:
        raise RuntimeError("callback failed")

    started = time.monotonic()
    with pytest.raises(RuntimeError, match="callback failed"):
        child.run(["-c", "import time; time.sleep(20)"], on_wait=fail, every=0.1)
    assert time.monotonic() - started < 10
