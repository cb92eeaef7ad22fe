"""bench/openspiel_compare.py still runs end to end (tiny sizes: it prints
figures; nothing here asserts a speed)."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("pyspiel")

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_openspiel_compare_runs():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "openspiel_compare.py"), "--deals", "1",
         "--times", "0.002", "--games", "dix", "--positions", "1", "--cards", "13",
         "--hearts-sims", "200", "--trix-iterations", "300"],
        capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert any(ln.startswith("dix ") and "+-" in ln for ln in lines), out.stdout
    assert any("13 cards a hand: OpenSpiel hearts" in ln and "ours trix" in ln
               for ln in lines), out.stdout

