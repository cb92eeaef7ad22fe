"""Settings of the whole test suite.

The statistical and bulk tests (marked ``slow``: thousands of bot
decisions, oracle sweeps over hundreds of endings) take a smaller sample by
default, which still exercises every path, so the README's test command
runs in minutes; ``DIXTRIX_FULL_TESTS=1`` gives them their full samples
(what the README calls the full run).  ``-m "not slow"`` leaves them out.

Three tiers that need more than Python are marked by where they live and
what they use (``tier_of``), so that a run can leave them out: ``browser``
(the tests that drive chromium, ``*_browser.py``), ``postgres`` (the ones
on a throwaway PostgreSQL server) and ``lint`` (ruff and mypy over the
repository, tests/test_lint.py).
"""

from __future__ import annotations

import os

import pytest

#: the environment switch of the full samples
FULL_SWITCH = "DIXTRIX_FULL_TESTS"


def full_samples() -> bool:
    return os.environ.get(FULL_SWITCH, "").strip() not in ("", "0")


def pick(default: int, full: int) -> int:
    """A slow test's sample size: ``default``, or ``full`` under the switch."""
    return full if full_samples() else default


@pytest.fixture(scope="session")
def sample():
    """``sample(default, full)``: the sample size of a test marked slow."""
    return pick


#: the tiers ``tier_of`` marks (declared in pyproject.toml)
TIERS = ("browser", "postgres", "lint")


def tier_of(path_name: str, fixtures, params) -> set[str]:
    """The tiers of a test in the file ``path_name`` that asks for
    ``fixtures`` with the parameters ``params``."""
    tiers = set()
    if path_name.endswith("_browser.py"):
        tiers.add("browser")
    if path_name == "test_lint.py":
        tiers.add("lint")
    if {"postgres_server", "pg_url"} & set(fixtures) or params.get("db") == "postgresql":
        tiers.add("postgres")
    return tiers


def pytest_collection_modifyitems(config, items):
    for item in items:
        callspec = getattr(item, "callspec", None)
        for tier in tier_of(item.path.name, getattr(item, "fixturenames", ()),
                            callspec.params if callspec is not None else {}):
            item.add_marker(getattr(pytest.mark, tier))


def pytest_report_header(config):
    if full_samples():
        return f"{FULL_SWITCH}=1: the tests marked slow take their full samples"
    return (f"the tests marked slow take their smaller default samples ({FULL_SWITCH}=1 "
            f"for the full ones)")
