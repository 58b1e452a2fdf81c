"""Model children die with their parent; their temporary folders don't outlive it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kb.search import child

REPO = Path(__file__).resolve().parent.parent

# A parent that starts a child the way kb does (kb.search.child.run), prints the child's pid, then waits.
PARENT = """
import os, sys, threading
sys.path.insert(0, sys.argv[1])
from kb.search import child
code = "from kb.search.child import die_with_parent; die_with_parent(); import time; print('up', flush=True); time.sleep(120)"
import subprocess
env = dict(os.environ, KB_PARENT_PID=str(os.getpid()), PYTHONPATH=sys.argv[1])
proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
proc.stdout.readline()
print(proc.pid, flush=True)
proc.wait()
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_the_child_dies_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(REPO)], stdout=subprocess.PIPE, text=True)
    child_pid = int(parent.stdout.readline())
    assert _alive(child_pid)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while _alive(child_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child_pid), "the embedding child outlived its killed parent"


def test_a_child_whose_parent_is_already_gone_stops_at_once() -> None:
    env = dict(os.environ, KB_PARENT_PID="999999999", PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", "from kb.search.child import die_with_parent; die_with_parent(); print('ran')"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "ran" not in done.stdout


def test_temporary_folders_of_dead_processes_are_removed() -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = Path(tempfile.gettempdir()) / f"kb-embed-{int(dead.stdout)}-abc"
    stale.mkdir()
    (stale / "texts.json").write_text("[]")
    with child.temp_dir("embed") as tmp:
        assert tmp.is_dir() and f"kb-embed-{os.getpid()}-" in tmp.name
    assert not stale.exists() and not tmp.exists()
