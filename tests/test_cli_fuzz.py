"""Fuzz the CLI: arbitrary strings for every command's options and arguments, random bytes for
ingested files. Never a traceback or an internal error, exit code in {0, 1, 2}, and with `--json`
stdout is JSON (the result, or the error object of the contract).

The KB is built once per module with the fake embedder; `kb ingest` gets its own data directory.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()
FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# Arbitrary text, with a bias towards what breaks CLIs: markup, option-like words, dates, numbers.
TRICKY = st.sampled_from(["[/]", "[bold red]x[/]", "-", "--", "--json", "708.8", "708,8", "708.8.", "2018-13-45",
                          "2018-02-30", "2018", "r-", "c-", "", " ", "\x00", "é", "..", "xx", "%s", "{}", "0", "-1"])
TEXT = st.one_of(st.text(max_size=30), TRICKY)

# command -> options taking a value (option names) and flags; positional arguments are TEXT.
COMMANDS: dict[str, tuple[list[str], list[str], int]] = {
    "search": (["-k", "--card", "--lang", "--rule", "--since", "--until", "--kind"], ["--json"], 1),
    "show": (["--lang"], ["--all", "--json"], 1),
    "list": (["--card", "--lang", "--kind"], ["--json"], 0),
    "rule": (["--at", "--section", "--lang"], ["--json"], 1),
    "card": (["--lang"], ["--json"], 1),
    "check": (["--rules"], ["--json"], 2),
    "outdated": (["--card", "--lang", "--since", "--kind", "--fail-on"], ["--summary", "--json"], 0),
    "stats": ([], ["--json"], 0),
    "export": ([], ["--json"], 0),
}


@st.composite
def invocations(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    options, flags, max_args = COMMANDS[command]
    args = [command]
    args += draw(st.lists(TEXT, max_size=max_args))
    for option in draw(st.lists(st.sampled_from(options), max_size=3, unique=True)) if options else []:
        args += [option, draw(TEXT)]
    if command == "rule" and draw(st.booleans()):
        args += ["--diff", draw(TEXT), draw(TEXT)]
    args += draw(st.lists(st.sampled_from(flags), max_size=len(flags), unique=True))
    return args


@pytest.fixture()
def fuzz_env(kb_home, built_home, monkeypatch):
    """The shared KB, fake query vectors (the index was built with the fake embedder), wide consoles."""
    from cli import common
    from kb.search.embed import FakeEmbedder
    from kb.search import Searcher

    monkeypatch.setenv("KB_HOME", str(built_home))
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.delenv("KB_DEBUG", raising=False)
    load = Searcher.load.__func__
    monkeypatch.setattr(Searcher, "load", classmethod(
        lambda cls, index_dir, entries, **kw: load(cls, index_dir, entries, **(kw | {"query_embedder": FakeEmbedder()}))))
    for console in (common.console, common.err_console):
        monkeypatch.setattr(console, "_width", 10_000)
    return built_home


def check_outcome(args: list[str], result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert "Traceback" not in result.output and "internal error" not in result.output, (args, result.output)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code, result.output)
    if result.exit_code:
        assert any(line.startswith("error: ") for line in result.stderr.splitlines()) or result.stdout, (args, result.output)
    if "--json" in args and result.stdout.strip() and "Usage:" not in result.stdout:
        data = json.loads(result.stdout)
        if result.exit_code and isinstance(data, dict) and "error" in data:
            assert set(data["error"]) == {"kind", "message", "source", "line"}


@FUZZ
@given(args=invocations())
def test_any_options_and_arguments_give_an_answer_or_a_one_line_error(fuzz_env, args):
    check_outcome(args, runner.invoke(app, args))


@FUZZ
@given(name=st.text(min_size=1, max_size=20))
def test_export_to_any_file_name(fuzz_env, tmp_path_factory, name):
    folder = tmp_path_factory.mktemp("out")
    target = folder / ("f" + name.replace("/", "_").replace("\x00", "_"))
    args = ["export", "-o", str(target)]
    result = runner.invoke(app, args)
    check_outcome(args, result)
    if result.exit_code == 0:
        assert json.loads(target.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- random files
PAGE_BITS = st.sampled_from([b"Lightform\n\n", b"Jul 13, 2018\n\n", b"13 de julio de 2018\n", b"\xff\xfe", b"\x00",
                             b"\xe9", b"\x81", b'{"name": ', b'"rulings": [', b"]}", b"\r\n", b"Search\n\n",
                             b"A ruling text.\n\n", b"[", b"{"])
FILE_BYTES = st.one_of(st.binary(max_size=300), st.lists(st.one_of(PAGE_BITS, st.binary(max_size=8)), max_size=12).map(b"".join))
SUFFIX = st.sampled_from([".txt", ".json", ".md"])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(files=st.lists(st.tuples(FILE_BYTES, SUFFIX), min_size=1, max_size=4))
def test_random_bytes_files_are_parsed_or_reported_never_raise(tmp_path_factory, files):
    from kb import paths
    from kb.cards import load_names
    from kb.ingest import ingest

    folder = tmp_path_factory.mktemp("random")
    for i, (data, suffix) in enumerate(files):
        (folder / f"f{i}{suffix}").write_bytes(data)
    result = ingest([folder], names=load_names(paths.corpus_dir()), match_clause=None)
    for record in result.records:
        assert "\x00" not in record.text and "\ufffd" not in record.text and record.card != "None"
    for problem in result.problems:
        assert problem.reason and "\n" not in problem.reason


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files=st.lists(st.tuples(FILE_BYTES, SUFFIX), min_size=2, max_size=5))
def test_kb_ingest_of_random_bytes_files_never_fails_internally(tmp_path_factory, monkeypatch, files):
    monkeypatch.setenv("KB_EMBEDDER", "fake")
    monkeypatch.setenv("KB_HOME", str(tmp_path_factory.mktemp("ingest-home")))
    folder = tmp_path_factory.mktemp("random")
    for i, (data, suffix) in enumerate(files):
        (folder / f"f{i}{suffix}").write_bytes(data)
    args = ["ingest", str(folder), "--json"]
    result = runner.invoke(app, args)
    check_outcome(args, result)
    assert "parsed" in json.loads(result.stdout)
