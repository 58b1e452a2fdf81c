"""Child processes that die with their parent and leave no temporary folders behind.

The heavy model work (converting the e5 weights, embedding with sentence-transformers) runs in a
child process. If the parent is killed (SIGKILL, a closed terminal), the child must not go on for
minutes holding a gigabyte: on Linux it asks for SIGKILL when its parent dies (PR_SET_PDEATHSIG),
and checks that the parent still is the one that started it. Temporary folders carry the parent's
pid, so the next run removes those of dead parents.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Sequence

PARENT_ENV = "KB_PARENT_PID"
PR_SET_PDEATHSIG = 1


def run(args: Sequence[str], *, on_wait: Callable[[], None] | None = None,
        every: float = 0.5) -> subprocess.CompletedProcess[str]:
    """Run `python args...` as a child that dies with this process; output captured. `on_wait` is
    called every `every` seconds while the child runs (a progress bar reading what it wrote)."""
    env = dict(os.environ, **{PARENT_ENV: str(os.getpid())})
    if on_wait is None:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env)
    with subprocess.Popen([sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env) as proc:
        try:
            while True:
                try:
                    out, err = proc.communicate(timeout=every)  # retried after a timeout, no output is lost
                    break
                except subprocess.TimeoutExpired:
                    on_wait()
        except BaseException:  # the callback failed, or Ctrl-C: the child's minutes of work are for nothing
            proc.kill()
            proc.wait()
            raise
        on_wait()
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def die_with_parent(parent: int | None = None) -> None:
    """Called first thing in a child: be killed when the parent dies, and stop now if it already has.
    `parent`: its pid (a forked child, `kb.forked`); None: the one the parent put in PARENT_ENV."""
    with contextlib.suppress(Exception):  # not Linux, or no libc: the parent check below still helps
        import ctypes

        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is None:
        said = os.environ.get(PARENT_ENV)
        parent = int(said) if said and said.isdigit() else None
    if parent is not None and os.getppid() != parent:
        os._exit(1)


@contextlib.contextmanager
def temp_dir(kind: str) -> Iterator[Path]:
    """A temporary folder named after this process; folders of dead processes are removed first."""
    base = Path(tempfile.gettempdir())
    for stale in base.glob(f"kb-{kind}-*-*"):
        pid = stale.name.split("-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(stale, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix=f"kb-{kind}-{os.getpid()}-") as tmp:
        yield Path(tmp)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
