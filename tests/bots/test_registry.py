"""The bots' registry imports the built-in bots, and nothing imports back:
no module of ``bots/`` takes part in an import circle (imports at the top
or inside a function, read with ast), and the checker sees a planted one."""

from __future__ import annotations

import ast
import pathlib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver
from bots.base import RESERVED
from bots.registry import _BOTS, bot_settings, make_bot, registered_bots, settings_pattern
from bots.server.table import TABLE_BOTS
from solver.errors import LimitError, OptionError

ROOT = pathlib.Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"


def _module(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: pathlib.Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports (a package's face,
    ``bots/__init__.py``, hands names on and is left out of the graph)."""
    here = _module(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - (node.level - 1)] + ([base] if base else []))
            names = [base] + [f"{base}.{a.name}" for a in node.names]
        found.update(n for n in names if n in modules and n != here)
    return found


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` as a list of modules, [] if none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def _graph(root: pathlib.Path) -> dict[str, set[str]]:
    paths = [p for p in root.rglob("*.py") if p != root / "__init__.py"]
    modules = {_module(p) for p in paths}
    return {_module(p): _imports(p, modules) for p in paths}


def test_no_module_of_bots_is_in_an_import_circle():
    circle = _cycle(_graph(BOTS))
    assert not circle, " -> ".join(circle)


def test_the_circle_checker_sees_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) == []
    # the registry's circle as it was: the interface importing its plug-ins
    # inside a function, each plug-in importing the interface
    probe = BOTS / "_circle_probe.py"
    try:
        probe.write_text("def f():\n    from . import base\n")
        graph = _graph(BOTS)
        graph["bots.base"] = graph["bots.base"] | {"bots._circle_probe"}
        assert _cycle(graph)
    finally:
        probe.unlink(missing_ok=True)


def test_the_registry_holds_every_built_in_bot():
    built_in = {"random", "rules", "ismcts", "pimc", "cheat", "engine"}
    assert built_in <= set(registered_bots())
    assert all(_BOTS[name].name == name for name in built_in)
    game = solver.load_game("dix")
    assert make_bot("rules", game, 0, seed=1).name == "rules"


def test_every_bot_declares_its_settings_and_make_bot_checks_them():
    """A setting named like make_bot's own arguments went beside them to the
    constructor (``ismcts:seed=5``: a TypeError, a 500 at the server): each
    bot declares its settings, and a reserved, unknown or ill-typed one is
    an OptionError / LimitError naming it and listing those the bot has."""
    game = solver.load_game("trix")
    for name in registered_bots():
        declared = bot_settings(name)
        assert declared is not None, name
        assert not {s.name for s in declared} & set(RESERVED), name
        for reserved in RESERVED:
            with pytest.raises(OptionError, match=f"'{reserved}' is not a setting"):
                make_bot(f"{name}:{reserved}=1", game, 0, seed=0)
    listed = "its settings: " + ", ".join(s.name for s in bot_settings("pimc"))
    for spec, error, said in (("pimc:_=0", OptionError, "unknown setting '_'"),
                              ("pimc:worlds=x", LimitError, "worlds must be an integer"),
                              ("pimc:worlds=0", LimitError, "worlds must be an integer 1..1000000000"),
                              ("pimc:leaf=2", OptionError, "unknown leaf 2"),
                              ("pimc:c=nan", LimitError, "c must be a number in [0, 100]")):
        with pytest.raises(error) as info:
            make_bot(spec, game, 0, seed=0)
        assert said in str(info.value) and listed in str(info.value), str(info.value)
    with pytest.raises(OptionError, match=r"its settings: none\)"):
        make_bot("random:speed=3", game, 0)


def test_make_bot_takes_the_seeds_every_face_takes():
    """A negative seed was taken (Python's generator plays -1 as 1); one
    above 2**63-1 too, which the HTTP API refuses: both refused now."""
    game = solver.load_game("dix")
    for seed in (-1, -5, 2**63, 2**64):
        with pytest.raises(OptionError, match="seed"):
            make_bot("random", game, 0, seed=seed)
    assert make_bot("random", game, 0, seed=2**63 - 1).seed == 2**63 - 1


def test_a_string_the_schema_pattern_allows_is_one_make_bot_takes():
    """The HTTP API's bot pattern is made from the declarations: what it
    allows make_bot takes (any order, every bot a table takes), and what a
    declaration refuses it refuses."""
    pattern = settings_pattern(TABLE_BOTS)
    game = solver.load_game("trix")

    @settings(max_examples=300, derandomize=True, deadline=None)
    @given(st.from_regex(pattern, fullmatch=True))
    def takes(spec):
        make_bot(spec, game, 1, seed=0)

    takes()
    compiled = re.compile(pattern)
    for spec in ("ismcts:seed=5", "pimc:_=0", "rules:seed=1", "pimc:worlds=0",
                 "ismcts:time=0", "ismcts:model=/etc/passwd", "cheat", "ismcts:"):
        assert not compiled.match(spec), spec
    for spec in ("easy", "rules", "ismcts:iterations=2000,c=0.7", "pimc:worlds=40,leaf=0"):
        assert compiled.match(spec), spec
