"""The JSON examples in docs/ load and are already canonical; the README's
and the pages' Python examples run; bench/README.md lists every benchmark."""

import json
import pathlib
import re

import pytest

import solver

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def _examples():
    for md in sorted(DOCS.glob("*.md")):
        for i, block in enumerate(re.findall(r"```json\n(.*?)```", md.read_text(), re.S)):
            doc = json.loads(block)
            if isinstance(doc, dict) and "game" in doc and ("deal" in doc or "seed" in doc):
                yield pytest.param(doc, id=f"{md.name}-{i}")


@pytest.mark.parametrize("doc", list(_examples()))
def test_doc_example_loads_canonically(doc):
    assert solver.to_json(solver.from_json(doc)) == doc


def test_readme_python_examples_run():
    readme = (DOCS.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def _pages_with_python():
    return [md.name for md in sorted(DOCS.glob("*.md")) if "```python\n" in md.read_text()]


def test_every_page_with_examples_is_run():
    # a page that gains a python block is run without editing this file
    assert {"search.md", "solver.md", "protocol.md", "ladder.md", "positions.md",
            "interop.md", "server.md"} <= set(
        _pages_with_python())


@pytest.mark.parametrize("md", _pages_with_python())
def test_docs_python_examples_run(md):
    if md == "interop.md":       # the interop extras (in the test extra)
        pytest.importorskip("pyspiel")
        pytest.importorskip("pettingzoo")
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / md).read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, md, "exec"), {})


def test_the_bench_readme_lists_every_benchmark_once():
    """bench/ holds what a user runs, one line each in bench/README.md
    (a cited path that does not exist is tests/test_comments.py's)."""
    bench = DOCS.parent / "bench"
    lines = (bench / "README.md").read_text().splitlines()
    for script in sorted(bench.glob("*.py")):
        listed = [ln for ln in lines if ln.startswith(f"- `bench/{script.name}`")]
        if script.name == "conftest.py":
            assert any(f"bench/{script.name}" in ln for ln in lines)
        else:
            assert len(listed) == 1, (script.name, listed)


def test_the_table_of_error_codes_is_up_to_date():
    """docs/errors.md is what ``python -m bots.server.extract --codes``
    writes: every error's code, its parameters and its English."""
    from bots.server.extract import error_codes
    assert (DOCS / "errors.md").read_text() == error_codes(), \
        "run: python -m bots.server.extract --codes docs/errors.md"
