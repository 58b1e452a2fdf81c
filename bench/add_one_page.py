"""Where adding one page to a KB spends its time, by stage: wall and cpu seconds, peak RSS.

    python bench/add_one_page.py HOME [--profile OUT] [--nogc] [--work DIR] [--keep] [--code CHECKOUT]

HOME is copied to DIR (default: a temp folder), one new page is added to the copy in process
(`kb.build.build`, the build's progress events mark the stages) and the copy is removed unless
--keep. HOME is never written. A HOME built with `KB_EMBEDDER=fake-cached` (`bench/command_speed.py`
builds one from `bench/gen_corpus.py`) is timed with that embedder. The first add with changed code
refills the memos keyed by that code: warm a copy with one add, then time that copy. On a shared
machine compare cpu seconds of codes alternated in one run. `--profile` writes a cProfile file;
`--nogc` runs the build with Python's cyclic garbage collector off. `--code` times another
checkout's `kb` (say main's, beside a branch's; give both the same `KB_CORPUS`, as the memos' keys
hold the corpus folder). The cpu of the parts a build runs in forked children (`kb.forked`) is
counted apart ("children"): the stages' cpu is the parent's.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGE = ("Benchmark Card\n\n• WotCJul 13, 2018\n\nA benchmark ruling about turning a face-down creature face up "
        "during the declare blockers step, written at {stamp}.\n")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("home", type=Path)
    p.add_argument("--profile", type=Path)
    p.add_argument("--nogc", action="store_true")
    p.add_argument("--work", type=Path)
    p.add_argument("--keep", action="store_true")
    p.add_argument("--code", type=Path, default=REPO)
    args = p.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="kb-add-one-")) / "home"
    if work.exists():
        shutil.rmtree(work)
    started = time.perf_counter()
    shutil.copytree(args.home, work, symlinks=True)
    print(f"copy {time.perf_counter() - started:.1f} s", flush=True)
    os.environ["KB_HOME"] = str(work)
    os.environ.setdefault("KB_EMBEDDER", "fake-cached")
    sys.path.insert(0, str(args.code.resolve()))
    from kb import build

    page = work.parent / f"page-{time.time_ns()}.txt"
    page.write_text(PAGE.format(stamp=time.time_ns()), encoding="utf-8")
    marks: list[tuple[str, float, float, resource.struct_rusage]] = []

    def on_progress(stage: str, done: int, total: int) -> None:
        if not marks or marks[-1][0] != stage:
            marks.append((stage, time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_SELF)))

    profile = cProfile.Profile() if args.profile else None
    if args.nogc:
        gc.disable()
    started, cpu = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    if profile:
        profile.enable()
    report = build.build([page], home=work, on_progress=on_progress)
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    marks.append(("end", time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_SELF)))
    print(f"total {marks[-1][1] - started:.1f} s, cpu {marks[-1][2] - cpu:.1f} s, written {report.written}, "
          f"{report.entries:,} entries, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"children cpu {after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime:.1f} s, "
          f"their peak RSS {after.ru_maxrss // 1024} MB")
    for (stage, wall, used, ru), (_, wall2, used2, ru2) in zip(marks, marks[1:]):
        print(f"  {stage:15s} wall {wall2 - wall:6.1f}  cpu {used2 - used:6.1f}  (user {ru2.ru_utime - ru.ru_utime:5.1f}, "
              f"sys {ru2.ru_stime - ru.ru_stime:4.1f}, minor faults {ru2.ru_minflt - ru.ru_minflt:8,})")
    if not args.keep:
        shutil.rmtree(work.parent if args.work is None else work)


if __name__ == "__main__":
    main()
