"""Without its framework an adapter says which extra to install; the rest
of the package never needs one."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("module,blocked,extra", [
    ("solver.interop.openspiel", "pyspiel", 'pip install ".[openspiel]"'),
    ("solver.interop.pettingzoo", "pettingzoo", 'pip install ".[pettingzoo]"'),
    ("bots.gym_env", "gymnasium", 'pip install ".[pettingzoo]"'),
])
def test_a_missing_framework_names_the_extra(module, blocked, extra):
    code = (f"import sys; sys.modules[{blocked!r}] = None\n"
            "import solver, solver.interop, solver.interop.common, solver.interop.chance\n"
            f"try:\n    import {module}\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert extra in out.stdout
