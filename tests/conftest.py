"""Settings of the whole test suite.

The statistical and bulk tests (marked ``slow``: thousands of bot
decisions, oracle sweeps over hundreds of endings) take a smaller sample by
default, which still exercises every path, so the README's test command
runs in minutes; ``DIXTRIX_FULL_TESTS=1`` gives them their full samples
(what the README calls the full run).  ``-m "not slow"`` leaves them out.
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


def pytest_report_header(config):
    if full_samples():
        return f"{FULL_SWITCH}=1: the tests marked slow take their full samples"
    return (f"the tests marked slow take their smaller default samples ({FULL_SWITCH}=1 "
            f"for the full ones)")
