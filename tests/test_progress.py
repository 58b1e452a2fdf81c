"""A build's progress while the model embeds: a first build spends minutes in the index stage, which
showed one line ("… index") and nothing after it when stderr was no terminal (tryout18a), and a bar
that did not move on one."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

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


def test_without_a_terminal_a_long_stage_prints_what_it_counts_how_far_it_got_and_its_total() -> None:
    """tryout25: a log's last parse line was `parse 1/151` and `index 3,808/4,009` said nothing of what
    it counted; a stage that counts now ends with its total, and names what it counts."""
    from cli.render import _plain_progress

    console = Console(file=io.StringIO(), record=True, width=120)
    clock = iter([0.0, 10.0, 20.0, 30.0, 30.0])
    every_time = _plain_progress(console, quiet=False, every=0.0, clock=lambda: next(clock))
    for done in (0, 32, 64, 5388):
        every_time("index", done, 5388)
    every_time("write", 0, 1)
    lines = console.export_text().splitlines()
    assert lines == ["… index", "… index 32/5,388 texts embedded, about 27 min 54 s left",
                     "… index 64/5,388 texts embedded, about 27 min 44 s left",
                     "… index 5,388/5,388 texts embedded", "… write"]

    console = Console(file=io.StringIO(), record=True, width=120)
    rarely = _plain_progress(console, quiet=False, every=3600.0)
    for done in (0, 32, 64):
        rarely("index", done, 5388)
    assert console.export_text().splitlines() == ["… index"]


def test_a_seven_minute_stage_of_thousands_of_callbacks_prints_a_few_dozen_lines() -> None:
    from cli.render import _plain_progress

    console = Console(file=io.StringIO(), record=True, width=120)
    now = [0.0]
    on_progress = _plain_progress(console, quiet=False, clock=lambda: now[0])
    for done in range(0, 4010):  # one callback every 0.1 s, 401 s in all
        on_progress("index", done, 4009)
        now[0] += 0.1
    lines = console.export_text().splitlines()
    assert lines[0] == "… index" and lines[-1] == "… index 4,009/4,009 texts embedded"
    assert 20 <= len(lines) <= 30


def test_the_bar_names_the_count_of_a_stage_that_counts() -> None:
    from cli.render import _stage_label

    assert _stage_label("index", 1200, 5388) == "index 1,200/5,388 texts embedded"
    assert _stage_label("parse", 40, 151) == "parse 40/151 files"
    assert _stage_label("index", 0, 1) == "index"
    assert _stage_label("index", 5388, 5388) == "index"


def test_a_first_build_into_a_pipe_counts_every_file_and_ends_with_a_line_saying_the_kb_is_built(
        tmp_path: Path, small_corpus: Path) -> None:
    """tryout25 D4, `KB_HOME=$(mktemp -d) kb search x 2>&1 | cat`: the parse count stopped at 1/151, the
    stages came out of order (index before write, stage 7 before 6 on the bar) and no line said the
    KB was built. The answer on stdout, and --json, carry none of it."""
    import json
    import os
    import re
    import subprocess
    import sys

    from kb.corpus import Corpus

    files = len(Corpus(small_corpus).sources())
    env = {**os.environ, "KB_HOME": str(tmp_path / "home"), "KB_CORPUS": str(small_corpus), "KB_EMBEDDER": "fake"}
    env.pop("KB_PROGRESS", None)
    run = subprocess.run([sys.executable, "-m", "cli.main", "stats"], env=env, capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    assert lines[0].startswith("First use: building the KB")
    assert [line for line in lines if line.startswith("… parse")] == ["… parse", f"… parse {files}/{files} files"]
    from kb.build import STAGES

    assert [line[2:] for line in lines if line[2:] in STAGES] == list(STAGES)
    assert re.fullmatch(r"KB built: [\d,]+ entries \([\d,]+ rulings, the others CR clauses and glossary entries\) "
                        r"in \d+ s, in .*; later commands open it at once", lines[-1])
    assert "KB built:" not in run.stdout and "… parse" not in run.stdout and "entries" in run.stdout

    again = subprocess.run([sys.executable, "-m", "cli.main", "stats", "--json"], env=env, capture_output=True,
                           text=True, cwd=Path(__file__).resolve().parent.parent)
    assert json.loads(again.stdout) and again.stderr == ""  # opened, not built: nothing to say


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
def test_the_parse_count_rises_as_each_file_is_parsed_and_from_the_cache_is_its_total_at_once(
        small_corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tryout25 D4: the bundled files were counted only after all of them were parsed, so the one
    line a log showed in 37 s of parsing was `parse 1/151`."""
    import kb.ingest
    from kb.build import build_entries
    from kb.corpus import Corpus
    from kb.search.embed import FakeEmbedder

    corpus = Corpus(small_corpus)
    files = len(corpus.sources())
    events: list[str] = []
    parse_text = kb.ingest.parse_text

    def parse_and_tell(*args: Any, **kwargs: Any) -> Any:
        events.append("parsed")
        return parse_text(*args, **kwargs)

    monkeypatch.setattr(kb.ingest, "parse_text", parse_and_tell)

    def on_progress(stage: str, done: int, total: int) -> None:
        if stage == "parse":
            events.append(f"{done}/{total}")

    build_entries(embedder=FakeEmbedder(), corpus=corpus, on_progress=on_progress)
    assert events == [line for n in range(1, files + 1) for line in ("parsed", f"{n}/{files}")]
    events.clear()
    build_entries(embedder=FakeEmbedder(), corpus=corpus, on_progress=on_progress)  # remembered
    assert events == [f"{files}/{files}"]
