"""The bots' registry imports the built-in bots, and nothing imports back:
no module of ``bots/`` takes part in an import circle (imports at the top
or inside a function, read with ast), and the checker sees a planted one."""

from __future__ import annotations

import ast
import pathlib

import solver
from bots.registry import _BOTS, make_bot, registered_bots

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
