"""Issue 16: `pytest -m "not model"` leaves out every test that runs the real model."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_not_model_deselects_the_tests_that_use_the_real_model() -> None:
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", "not model",
                          "tests/test_dedup.py", "tests/test_search_cli.py"],
                         cwd=REPO, capture_output=True, text=True, check=False).stdout
    collected = [line for line in out.splitlines() if "::" in line]
    # test_dedup.py's clusters come from `bundled_entries` (the bundled corpus deduplicated with e5)
    assert not any("test_labelled_cluster_is_exactly_one_entry" in line for line in collected), out
    assert not any("test_dedup.py::test_every_seed_ruling_is_conserved" in line for line in collected), out
    # a test that needs no model is still collected
    assert any("test_dedup.py::test_revision_threshold" in line for line in collected), out
