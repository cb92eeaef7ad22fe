"""The suite's own settings (tests/conftest.py): the tests marked ``slow``
take a smaller sample by default and the full one under
``DIXTRIX_FULL_TESTS=1``; pyproject.toml declares the marker, and the README
says what the default run leaves to the switch and how to get the ladder's
plots."""

from __future__ import annotations

import pathlib
import sys

from tests.conftest import FULL_SWITCH, TIERS, pick, tier_of

if sys.version_info >= (3, 11):
    import tomllib
else:   # the same module before 3.11 (the test extra installs it there)
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_switch_gives_the_full_samples(monkeypatch):
    monkeypatch.delenv(FULL_SWITCH, raising=False)
    assert pick(10, 30) == 10
    monkeypatch.setenv(FULL_SWITCH, "0")
    assert pick(10, 30) == 10
    monkeypatch.setenv(FULL_SWITCH, "1")
    assert pick(10, 30) == 30


def test_the_marker_is_declared_and_the_readme_says_what_it_leaves_out():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    markers = project["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("slow:") for m in markers)
    assert "plot" in project["project"]["optional-dependencies"]
    readme = (ROOT / "README.md").read_text()
    assert f"{FULL_SWITCH}=1" in readme and '-m "not slow"' in readme
    assert 'pip install ".[plot]"' in readme


def test_the_tiers_are_marked_declared_and_documented():
    assert tier_of("test_server_browser.py", ("page",), {}) == {"browser"}
    assert tier_of("test_lint.py", (), {}) == {"lint"}
    assert tier_of("test_server_store.py", ("db", "store"), {"db": "postgresql"}) == {"postgres"}
    assert tier_of("test_server_scale.py", ("postgres_server",), {}) == {"postgres"}
    assert tier_of("test_server_store.py", ("db",), {"db": "sqlite"}) == set()
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())[
        "tool"]["pytest"]["ini_options"]["markers"]
    readme = (ROOT / "README.md").read_text()
    for tier in TIERS:
        assert any(m.startswith(f"{tier}:") for m in markers)
        assert f"not {tier}" in readme
    # the marks fire on the real files: a browser file's tests are selected
    # by -m browser and none of this file's are
    import subprocess  # a second pytest, only to collect
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", "-m", "browser",
                          str(ROOT / "tests" / "frontends" / "test_server_browser.py"),
                          str(ROOT / "tests" / "test_suite_settings.py")],
                         capture_output=True, text=True, cwd=ROOT, timeout=300).stdout
    assert "test_server_browser.py::" in out and "test_suite_settings.py::" not in out
