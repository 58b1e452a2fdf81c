"""One card page just under the 20 MB file limit, ingested as a judge would: is it linear, does it finish,
does the progress bar move?

    python bench/big_page.py [--mb 19.2] [--out bench/results/big_page.md]

Writes a card ruling page of ~117k distinct rulings (random rules words, one date line each), then
times the parser alone on 1, 2 and 4 MB prefixes (linearity) and `kb ingest PAGE` on the whole page
into a fresh data directory with the fake build embedder (the stages, as the progress lines show them).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

WORDS = ("face down creature turned up manifest morph cost pay special action stack library exile controller "
         "owner reveal battlefield counters tapped untapped ability trigger enters copy effect layer "
         "characteristics").split()


def page(megabytes: float, seed: int = 3) -> str:
    rng = random.Random(seed)
    parts, size, i = ["Lightform", ""], 0, 0
    while size < megabytes * 1_000_000:
        block = f"• WotCJul {1 + i % 28}, 2018\n\nRuling {i}: " + " ".join(rng.choice(WORDS) for _ in range(18)) + ".\n\n"
        parts.append(block)
        size += len(block)
        i += 1
    return "\n".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=19.8)
    ap.add_argument("--out", type=Path, default=REPO / "bench" / "results" / "big_page.md")
    args = ap.parse_args()
    from kb.cards import load_names
    from kb.ingest import pages
    from kb.paths import corpus_dir

    names = load_names(corpus_dir())
    lines = ["# A card page near the size limit", ""]
    lines += ["| page | rulings | parse s | s per MB |", "|---|---:|---:|---:|"]
    for mb in (1, 2, 4):
        text = page(mb)
        started = time.perf_counter()
        result = pages.parse_card_page(text, "big.txt", names.resolve)
        seconds = time.perf_counter() - started
        lines.append(f"| {mb} MB | {len(result.records):,} | {seconds:.2f} | {seconds / mb:.2f} |")
    with tempfile.TemporaryDirectory(prefix="kb-bigpage-") as tmp:
        path = Path(tmp) / "big.txt"
        path.write_text(page(args.mb), encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if not k.startswith("KB_")}
        env |= {"KB_HOME": str(Path(tmp) / "home"), "KB_EMBEDDER": "fake", "PYTHONPATH": str(REPO)}
        subprocess.run([sys.executable, "-m", "cli.main", "stats"], cwd=REPO, env=env, capture_output=True, check=True)
        started = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "cli.main", "ingest", str(path)], cwd=REPO, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        stages = []
        for line in proc.stderr:
            if line.startswith("…"):
                stages.append((line.strip("… \n"), time.perf_counter() - started))
        _, status, usage = os.wait4(proc.pid, 0)
        total = time.perf_counter() - started
        size = path.stat().st_size
    lines += ["", f"`kb ingest` of one {size / 1e6:.1f} MB page (fake build embedder, bundled corpus plus the page): "
              f"{total:.0f} s, peak RSS {usage.ru_maxrss // 1024} MB, exit {os.waitstatus_to_exitcode(status)}.", "",
              "| stage starts at | s |", "|---|---:|"]
    lines += [f"| {name} | {at:.0f} |" for name, at in stages]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
