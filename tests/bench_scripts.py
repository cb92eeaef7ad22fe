"""The scripts of bench/ as modules, for the tests that check them or
build their positions (bench/ is not a package: its scripts run as
``python bench/<name>.py``)."""

from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load(name: str) -> ModuleType:
    """``bench/<name>.py`` loaded as a module named ``name``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None, name
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
