"""docs/JSON.md stays true: every key a command prints with `--json` is in the doc's table for it,
with a type the doc allows, and every key the doc lists is printed by at least one run below.

The doc's tables are read as data: a section is a `## ` heading, a row is `| PATH | type | meaning |`, PATH in backticks.
A path names a key inside the output: `variants[].lang` is the `lang` of each object of the list
`variants`, `names.<lang>` a key of a map whose keys are data (here language codes). For a command that
prints a list, the paths are those of each element. One KB of the small corpus, with a few pages of a
judge's ingested (a skipped unit, a replaced file, an id that moved), serves every run.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli import common
from cli.main import app
from tests.conftest import DATA

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "JSON.md"
ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|([^|]*)\|")
TYPES = {"string", "integer", "number", "boolean", "null", "list", "object"}


# --- the doc as data ------------------------------------------------------------------------------

def doc_tables(text: str) -> dict[str, dict[str, str]]:
    """Section heading (backticks removed) -> {path: type cell} of the key rows under it."""
    tables: dict[str, dict[str, str]] = {}
    section = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].replace("`", "").strip()
        elif section is not None and (m := ROW.match(line)):
            tables.setdefault(section, {})[m.group(1)] = m.group(2).strip()
    return tables


def allowed_types(cell: str) -> set[str]:
    """"string or null" -> {string, null}; "list of strings" -> {list}: each alternative's first type
    word ("number" takes an integer too: 1.0 may print as 1)."""
    found = set()
    for part in cell.split(" or "):
        words = [w.rstrip("s") if w.rstrip("s") in TYPES else w for w in re.findall(r"[a-z]+", part)]
        first = next((w for w in words if w in TYPES), None)
        if first:
            found.add(first)
    return found | ({"integer"} if "number" in found else set())


def parent_paths(path: str) -> list[str]:
    """`a[].b.c` -> [`a`, `a[].b`]: the objects and lists a path is inside."""
    return [path[:m.start()] for m in re.finditer(r"\[\]\.|\.", path)]


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "list", dict: "object"}[type(value)]


def printed(data: Any, documented: dict[str, str]) -> dict[str, set[str]]:
    """Every path of `data` (each element's, for a list) -> the JSON types seen at it. A map's keys
    become the placeholder the doc gives them (`names.<lang>`)."""
    seen: dict[str, set[str]] = {}

    def walk(value: Any, prefix: str) -> None:
        if isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    walk(item, prefix + "[]")
        elif isinstance(value, dict):
            base = f"{prefix}." if prefix else ""
            placeholder = next((m.group(1) for p in documented
                                if (m := re.match(re.escape(base) + r"(<[^>]+>)", p))), None)
            for key, item in value.items():
                path = base + (placeholder or key)
                seen.setdefault(path, set()).add(json_type(item))
                walk(item, path)

    for element in (data if isinstance(data, list) else [data]):
        walk(element, "")
    return seen


# --- one KB and every documented command run on it --------------------------------------------------

runner = CliRunner()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory, small_corpus: Path) -> dict[str, list[Any]]:
    """Doc section -> the parsed `--json` outputs of the runs that section documents."""
    from kb.search import Searcher
    from kb.search.embed import FakeEmbedder

    home = tmp_path_factory.mktemp("json-doc-home")
    pages = tmp_path_factory.mktemp("json-doc-pages")
    runs: dict[str, list[Any]] = {}

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KB_HOME", str(home))
        mp.setenv("KB_EMBEDDER", "fake")
        mp.setenv("KB_CORPUS", str(small_corpus))
        load = Searcher.load.__func__  # the index is the fake embedder's: query with it too
        mp.setattr(Searcher, "load", classmethod(
            lambda cls, index_dir, entries, **kw: load(cls, index_dir, entries, **(kw | {"query_embedder": FakeEmbedder()}))))

        def kb(section: str | None, *args: str, codes: tuple[int, ...] = (0,), notes: list[str] | None = None) -> Any:
            mp.setattr(common, "NOTES", list(notes or []))  # one process runs many commands here
            result = runner.invoke(app, [*args, "--json"])
            assert result.exit_code in codes, (args, result.output)
            data = json.loads(result.stdout)
            if section is not None:
                runs.setdefault(section, []).append(data)
            return data

        # a judge's pages: a ruling of their own, a page with units that can't be used, a file that
        # changes (replaced, then removed), and an older wording that moves the first ruling's id
        text = "A ruling only the judge's own page has, about face-down creatures."
        newer, older, bad, scratch = (pages / n for n in ("newer.json", "older.json", "bad_dates.txt", "scratch.json"))
        newer.write_text(json.dumps({"name": "Monastery Flock", "rulings": [{"date": "2018-01-01", "text": text}]}))
        older.write_text(json.dumps({"name": "Monastery Flock", "rulings": [{"date": "2010-01-01", "text": text + " Really."}]}))
        bad.write_bytes((DATA / "pages" / "bad_dates.txt").read_bytes())
        scratch.write_text(json.dumps({"name": "Lightform", "rulings": [{"date": "2019-01-01", "text": "A scratch ruling."}]}))

        ingest = "kb ingest and kb remove"
        kb(ingest, "ingest", str(newer), str(bad), str(scratch), codes=(1,))  # skipped units: exit 1
        old_id = next(e["id"] for e in kb(None, "list") if e["text"] == text)
        scratch.write_text(json.dumps({"name": "Lightform", "rulings": [{"date": "2019-01-01", "text": "Another scratch ruling."}]}))
        kb(ingest, "ingest", str(older), str(scratch))  # added and replaced
        kb(ingest, "ingest", str(bad))  # unchanged, with what was skipped when it was added
        kb(ingest, "remove", str(scratch))

        export = kb("kb export", "export")
        rule_entry = next(e["id"] for e in export if e["kind"] == "rule")
        unlinked = next(e["id"] for e in export if e.get("link_note"))
        outdated = kb("kb outdated", "outdated", "--all")
        checked = next(w["entry"] for w in outdated if next(e for e in export if e["id"] == w["entry"])["checks"])

        kb("kb list", "list")
        kb("kb list", "list", "--lang", "de")
        kb("kb list", "list", "--kind", "rule")
        kb("kb show", "show", checked, "--lang", "de")
        kb("kb show", "show", old_id)
        kb("kb show", "show", rule_entry)
        kb("kb show", "show", unlinked)
        kb("kb search", "search", "Can I look at a face-down creature?", "-k", "3")
        kb("kb search", "search", "Kann ich verdeckte Kreaturen ansehen?", "--lang", "de")
        kb("kb search", "search", "What is a face-down spell?", "--kind", "rule", "-k", "2")
        # a ruling said for several face-down mechanics: its other wordings folded (`also_for`)
        folded = kb("kb search", "search", "Can a manifested creature that lost its abilities still be turned face up?")
        also = [a for hit in folded for a in hit["also_for"]]
        assert also and kb(None, "show", also[0]["id"])["id"] == also[0]["id"]  # a folded id is shown as any
        kb("kb card", "card", "Lightform")
        kb("kb card", "card", "Lichtform", "--lang", "de")
        kb("kb card", "card", "Monastery Flock")
        kb("kb rule", "rule", "707.2", "--at", "2018-07-13", "--lang", "de", "--limit", "3")
        kb("kb rule", "rule", "707.2a", "--at", "2024-06-01", "--limit", "1")
        kb("kb rule", "rule", "708", "--limit", "1")
        kb("kb rule", "rule", "505.5", "--limit", "1")  # 505.5 numbered a rule no longer in the rules
        kb("kb rule", "rule", "701.62a", "--at", "2024-09-20", "--limit", "1")  # absent from the extract in force
        kb("kb rule", "rule", "707.8", "--at", "2022-08-10", "--limit", "1")  # 707.8 then: the KB can't tell
        kb("kb rule", "rule", "708.5", "--at", "2099-01-01", "--limit", "1")  # after the newest CR: next is null
        kb("kb rule --diff", "rule", "--diff", "2021-08-01", "2024-03-01", "--section", "708")  # changes_note
        kb("kb rule --diff", "rule", "--diff", "2014-09-25", "2026-01-16", "--section", "708")
        kb("kb rule --diff", "rule", "--diff", "2019-01-01", "2023-01-01", "--section", "708")
        kb("kb check", "check", codes=(0, 1))
        kb("kb check", "check", checked, "--rules", "2014-11-24", codes=(0, 1))
        kb("kb check", "check", checked, "--rules", "2023-01-01", codes=(0, 1))
        kb("kb check --missing", "check", "--missing", codes=(0, 1))
        kb("kb outdated --summary", "outdated", "--summary", "--all")
        kb("kb sources", "sources")
        kb("kb stats", "stats")
        kb("kb coverage", "coverage")

        every = "Errors and notes (every command)"
        kb(every, "show", "r-doesnotexist", codes=(1,))
        noted = kb(None, "stats", notes=["a note of an automatic rebuild"])
        runs.setdefault(every, []).append({"notes": noted["notes"]})
        mp.setattr(common, "NOTES", ["a note beside a list"])
        listed = runner.invoke(app, ["sources", "--json"])
        runs[every].append(json.loads(listed.stderr.strip().splitlines()[-1]))
        runs["a list's notes are on stderr"] = [json.loads(listed.stdout)]
    return runs


def sections() -> dict[str, dict[str, str]]:
    return {name: rows for name, rows in doc_tables(DOC.read_text(encoding="utf-8")).items()
            if name.startswith(("kb ", "Errors"))}


def test_every_documented_section_is_run_and_every_run_is_documented(outputs):
    assert set(sections()) == set(outputs) - {"a list's notes are on stderr"}
    [sources] = outputs["a list's notes are on stderr"]
    assert isinstance(sources, list) and sources and all("notes" not in s for s in sources)


@pytest.mark.parametrize("section", sorted(sections()))
def test_the_doc_lists_exactly_the_keys_printed(section, outputs):
    documented = sections()[section]
    seen: dict[str, set[str]] = {}
    for data in outputs.get(section, []):
        for path, types in printed(data, documented).items():
            seen.setdefault(path, set()).update(types)
    # an object whose keys have rows of their own (`names` of `names.<lang>`) needs no row
    parents = {p for path in documented for p in parent_paths(path)}
    assert sorted(set(seen) - set(documented) - parents) == [], f"{section}: printed but not in docs/JSON.md"
    assert sorted(set(documented) - set(seen)) == [], f"{section}: in docs/JSON.md but never printed"
    wrong = {path: sorted(types - allowed_types(documented[path])) for path, types in seen.items()
             if path in documented and types - allowed_types(documented[path])}
    assert wrong == {}, f"{section}: types printed that the doc does not give"


def test_the_readme_links_the_doc():
    assert "docs/JSON.md" in (REPO / "README.md").read_text(encoding="utf-8")
