"""Cold command speed and peak memory, on the bundled corpus and on synthetic KBs of N rulings.

    python bench/command_speed.py [--sizes 100000] [--runs 5] [--out bench/results/command_speed]

Each command runs as a fresh process (`python -m cli.main ...`), as a judge runs it; the median
wall time of `--runs` runs and the peak RSS of the process (os.wait4) are recorded. A synthetic KB
is built once per size from `bench/gen_corpus.py` pages ingested into an empty data directory with
the fake build embedder behind the real embedding cache (`KB_EMBEDDER=fake-cached`: the index then
has no e5 vectors, so `kb search` is measured there as the same cold process with a fake query
embedder: everything but the ~0.1 s e5 query, which the bundled row measures for real; an ingest
pays the cache's reads and writes as with the real model, not the fake model's hashing). `python -c pass` and `kb --help` are measured alongside, because on a
loaded 2-core machine only ratios are stable. Also measured: adding one new page to each KB.

Python may cache bytecode, as it does on a judge's machine: PYTHONDONTWRITEBYTECODE (set on the
machines this project is built on) is removed from the commands' environment and each command runs
once unmeasured first, so no run compiles judge-kb's ~40 modules from source (~0.3 s a process).
`--home DIR` times an existing data directory instead of generating one (the 100k KB takes ~20 min).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

SEARCH_FAKE = """
import sys
from kb import paths, store
from kb.search.embed import FakeEmbedder
from kb.search import Searcher
kb = store.load(paths.home())
searcher = Searcher.for_kb(kb, query_embedder=FakeEmbedder())  # as `kb search` opens it
print(len(searcher.search(sys.argv[1], limit=5)))
"""

FIRST_RULING = """
import json
from kb import paths, store
from kb.model import Kind
kb = store.load(paths.home())
entry = next(e for e in kb.select(kind=Kind.RULING) if e.cards)
print(json.dumps({"id": entry.id, "cards": list(entry.cards)}))
"""

PAGE = ("Benchmark Card\n\n• WotCJul 13, 2018\n\nA benchmark ruling about turning a face-down "
        "creature face up during the declare blockers step, written at {stamp}.\n")


def run(args: list[str], env: dict[str, str]) -> tuple[float, int, int]:
    """(seconds, peak RSS in MB, exit code) of one fresh process."""
    started = time.perf_counter()
    proc = subprocess.Popen(args, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss // 1024, proc.returncode


def measure(label: str, args: list[str], env: dict[str, str], runs: int) -> dict:
    run(args, env)  # unmeasured: writes the bytecode a judge's later runs find
    samples = [run(args, env) for _ in range(runs)]
    codes = {code for _, _, code in samples}
    return {"command": label, "median_s": round(statistics.median(s for s, _, _ in samples), 3),
            "min_s": round(min(s for s, _, _ in samples), 3), "peak_mb": max(m for _, m, _ in samples),
            "exit_codes": sorted(codes)}


def commands(env: dict[str, str], *, real_search: bool) -> list[tuple[str, list[str]]]:
    """The commands to time, with ids and a card taken from the KB itself."""
    py = [sys.executable, "-m", "cli.main"]
    # One ruling of a card, read in a child process: a fork's peak RSS starts at its parent's, so
    # this process must stay small (parsing `kb list --json` of 100k rulings here made every command,
    # `python -c pass` too, report 143 MB).
    out = subprocess.run([sys.executable, "-c", FIRST_RULING], cwd=REPO, env=env, capture_output=True, text=True,
                         check=True)
    ruling = json.loads(out.stdout)
    cmds = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("kb --help", py + ["--help"]),
        ("kb stats", py + ["stats"]),
        (f"kb show {ruling['id']}", py + ["show", ruling["id"]]),
        (f"kb list --card '{ruling['cards'][0]}'", py + ["list", "--card", ruling["cards"][0]]),
        (f"kb card '{ruling['cards'][0]}'", py + ["card", ruling["cards"][0]]),
        (f"kb card '{misspelt(ruling['cards'][0])}' (misspelt)", py + ["card", misspelt(ruling["cards"][0])]),
        ("kb rule 708.2a", py + ["rule", "708.2a"]),
        ("kb outdated --summary", py + ["outdated", "--summary"]),
    ]
    question = "Can I turn a face-down creature face up after blockers are declared?"
    if real_search:
        cmds.append(("kb search (e5 query)", py + ["search", question]))
    else:
        cmds.append(("search, cold process (fake query vector)", [sys.executable, "-c", SEARCH_FAKE, question]))
    return cmds


def misspelt(name: str) -> str:
    """`name` with two letters of its first long word swapped, as a judge types in a hurry."""
    words = name.split()
    i = next((n for n, w in enumerate(words) if len(w) >= 5), 0)
    w = words[i]
    words[i] = w[:2] + w[3] + w[2] + w[4:] if len(w) >= 4 else w + "e"
    return " ".join(words)


def add_one_page(env: dict[str, str], work: Path) -> dict:
    page = work / f"page-{time.time_ns()}.txt"
    page.write_text(PAGE.format(stamp=time.time_ns()), encoding="utf-8")
    seconds, peak, code = run([sys.executable, "-m", "cli.main", "ingest", str(page)], env)
    return {"command": "kb ingest ONE_PAGE", "median_s": round(seconds, 3), "min_s": round(seconds, 3),
            "peak_mb": peak, "exit_codes": [code]}


def bench_size(size: int | None, runs: int, work: Path, home: Path | None = None) -> dict:
    given = home is not None
    home = home or work / f"home-{size or 'bundled'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("KB_") and k != "PYTHONDONTWRITEBYTECODE"}
    env |= {"KB_HOME": str(home), "PYTHONPATH": str(REPO), "COLUMNS": "120"}
    build_s = None
    if given:
        env["KB_EMBEDDER"] = "fake-cached"  # a big home is one built with the fake embedder (see above)
    elif size:
        env["KB_EMBEDDER"] = "fake-cached"
        pages = work / f"pages-{size}"
        subprocess.run([sys.executable, str(REPO / "bench" / "gen_corpus.py"), str(pages), "--rulings", str(size)],
                       cwd=REPO, check=True, stdout=subprocess.DEVNULL)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cli.main", "ingest", str(pages)], cwd=REPO, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        build_s = round(time.perf_counter() - started, 1)
    else:
        subprocess.run([sys.executable, "-m", "cli.main", "stats"], cwd=REPO, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # first use builds it
    rows = [measure(label, args, env, runs) for label, args in commands(env, real_search=not size)]
    rows.append(add_one_page(env, work))
    stats = json.loads(subprocess.run([sys.executable, "-m", "cli.main", "stats", "--json"], cwd=REPO, env=env,
                                      capture_output=True, text=True, check=True).stdout)
    label = f"existing KB {home.name}" if given else size or "bundled"
    return {"size": label, "entries": stats["entries"], "variants": stats["variants"],
            "build_s": build_s, "rows": rows}


def markdown(results: list[dict]) -> str:
    lines = ["# Cold command speed", "",
             "Each command a fresh process, median of the runs; peak RSS of that process. Targets (issue 10):",
             "show / list --card / stats / rule / outdated --summary <= 0.3 s and <= 150 MB; search <= 0.5 s;",
             "adding one page to the 100k KB <= 10 s. `python -c pass` and `kb --help` show the floor on this",
             "machine at the time of the run (2 cores, shared).", ""]
    for r in results:
        lines += [f"## {r['size']} ({r['entries']:,} entries, {r['variants']:,} variants"
                  + (f"; built in {r['build_s']} s with the fake embedder)" if r["build_s"] else ")"), "",
                  "| command | median s | min s | peak MB | exit |", "|---|---:|---:|---:|---|"]
        lines += [f"| `{row['command']}` | {row['median_s']} | {row['min_s']} | {row['peak_mb']} | "
                  f"{','.join(map(str, row['exit_codes']))} |" for row in r["rows"]]
        lines.append("")
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="*", default=[100_000], help="synthetic KB sizes (rulings)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--no-bundled", action="store_true")
    p.add_argument("--home", type=Path, help="time this data directory (built with KB_EMBEDDER=fake or fake-cached) instead of "
                                             "generating the --sizes KBs")
    p.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "command_speed")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="kb-speed-") as tmp:
        work = Path(tmp)
        results = [] if args.no_bundled else [bench_size(None, args.runs, work)]
        if args.home:
            results.append(bench_size(-1, args.runs, work, home=args.home))
        else:
            results += [bench_size(n, args.runs, work) for n in args.sizes]
    args.out.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(results), encoding="utf-8")
    print(markdown(results))


if __name__ == "__main__":
    main()
