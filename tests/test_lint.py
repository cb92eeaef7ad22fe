"""The linter and the type checker, inside the test command (issue #32).

``ruff check .`` and ``mypy`` (both configured in pyproject.toml: the rule
set, the strict public API, the basic rest) must pass on the tree; the
Python examples of the README and docs/ must type-check as a user would
write them (each block is a file of its own, as ``tests/test_docs.py``
runs it); and each checker is shown a file with one planted fault, so a
checker that silently checks nothing fails here too.  A tool that is not
installed skips its tests with the reason (the ``test`` extra installs
both).
"""

from __future__ import annotations

import importlib.util
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _tool(name: str) -> list[str]:
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]' installs it)")
    return [sys.executable, "-m", name]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)


def _report(proc: subprocess.CompletedProcess[str]) -> str:
    return f"exit status {proc.returncode}\n{proc.stdout}\n{proc.stderr}"


def test_ruff_finds_nothing():
    proc = _run(_tool("ruff") + ["check", "--no-fix", "."])
    assert proc.returncode == 0, _report(proc)


def test_mypy_finds_nothing():
    # the files, the strict modules and the basic rest: [tool.mypy]
    proc = _run(_tool("mypy"))
    assert proc.returncode == 0, _report(proc)


def _examples() -> list[tuple[str, str]]:
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    out = []
    for md in pages:
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", md.read_text(), re.S)):
            out.append((f"{md.stem.lower().replace('-', '_')}_{i}", block))
    return out


def test_the_documented_examples_type_check(tmp_path):
    mypy = _tool("mypy")
    examples = _examples()
    assert len(examples) >= 10, "the README and docs/ lost their Python examples"
    files = []
    for name, block in examples:
        path = tmp_path / f"example_{name}.py"
        path.write_text(block)
        files.append(str(path))
    # the package read through its annotations, its own errors left to
    # test_mypy_finds_nothing (as a user's mypy treats an installed
    # package); the examples as a user's unannotated code
    proc = _run(mypy + ["--check-untyped-defs", "--follow-imports=silent", *files])
    assert proc.returncode == 0, _report(proc)


def test_each_checker_catches_a_planted_fault(tmp_path):
    """Positive controls: an unused import for ruff, a value that does not
    fit its annotation for mypy, each in a file of its own."""
    ruff, mypy = _tool("ruff"), _tool("mypy")
    unused = tmp_path / "unused_import.py"
    unused.write_text("import os\n")
    proc = _run(ruff + ["check", "--no-fix", "--no-cache", str(unused)])
    assert proc.returncode == 1 and "F401" in proc.stdout, _report(proc)
    broken = tmp_path / "broken_annotation.py"
    broken.write_text("from solver.search import Limit\n\n"
                      "limit: Limit = 'one second'\n")
    proc = _run(mypy + [str(broken)])
    assert proc.returncode == 1 and "[assignment]" in proc.stdout, _report(proc)
