"""The layers look only down (docs/architecture.md): core <- games <- dd
<- search <- bots.  Every module under ``solver/`` is parsed (ast) and its
imports -- at the top or inside a function -- are checked."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOLVER = ROOT / "solver"

#: the layer of each part of ``solver`` (higher numbers sit above)
LAYER = {"core": 0, "reference": 0, "games": 1, "dd": 2, "search": 3, "interop": 3}
#: ``solver.interop`` sits beside ``solver.search``: it uses the protocol and
#: the world samplers (core, games) and nothing of dd or search, and nothing
#: in ``solver`` uses it (its framework modules need optional extras)
INTEROP_USES = {"core", "reference", "games", "interop"}
#: modules of the package root that sit above the layers: the facade
#: ``solver/__init__.py`` re-exports the public API of every layer
FACADE = {"solver"}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer_of(module: str) -> int | None:
    """The layer of a module of ``solver`` (None: not ours)."""
    parts = module.split(".")
    if parts[0] != "solver":
        return None
    if len(parts) == 1:
        return None
    sub = parts[1]
    return LAYER.get(sub, LAYER["core"])


def _imports(path: pathlib.Path):
    """(line, absolute module name) of every import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if node.module is None or node.level:
                # ``from . import x`` / ``from .pkg import x``: x may be a module
                for alias in node.names:
                    yield node.lineno, f"{mod}.{alias.name}"
            yield node.lineno, mod


MODULES = sorted(p for p in SOLVER.rglob("*.py"))


def test_the_tree_is_laid_out_by_layer():
    for sub in ("games", "dd", "search", "reference"):
        assert (SOLVER / sub / "__init__.py").is_file(), sub
    # the old flat modules are gone for good
    for old in ("api.py", "search.py", "dd.py", "dixdd.py", "layout_dd.py", "exact.py"):
        assert not (SOLVER / old).exists(), old


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_only_look_down(path):
    here = _module_name(path)
    mine = None if here in FACADE else _layer_of(here)
    bad = []
    for line, mod in _imports(path):
        top = mod.split(".")[0]
        if top == "bots":
            bad.append(f"line {line}: imports {mod} (solver never imports bots)")
            continue
        if mine is None:
            continue
        theirs = _layer_of(mod)
        if theirs is not None and theirs > mine and mod not in FACADE:
            bad.append(f"line {line}: imports {mod}, a layer above {here}")
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_interop_sits_beside_search(path):
    here = _module_name(path)
    inside = here.startswith("solver.interop")
    bad = []
    for line, mod in _imports(path):
        parts = mod.split(".")
        if parts[0] != "solver" or len(parts) == 1:
            continue
        sub = parts[1] if parts[1] in LAYER else "core"
        if inside and sub not in INTEROP_USES:
            bad.append(f"line {line}: imports {mod} (interop uses only the protocol and samplers)")
        if not inside and sub == "interop":
            bad.append(f"line {line}: imports {mod} (nothing in solver uses interop)")
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_checker_catches_violations(tmp_path, monkeypatch):
    """The test above would fail on a games module importing the search or
    any module importing bots (a checker that sees nothing proves
    nothing)."""
    fake = SOLVER / "games" / "_layers_probe.py"
    cases = {"from ..search import best_move\n": "a layer above",
             "def f():\n    from solver.search.pimc import pimc_search\n": "a layer above",
             "import bots.base\n": "never imports bots",
             "def f():\n    from bots import make_bot\n": "never imports bots",
             "from ..dd import solve\n": "a layer above"}
    try:
        for source, message in cases.items():
            fake.write_text(source)
            with pytest.raises(AssertionError, match=message):
                test_imports_only_look_down(fake)
        fake.write_text("from ..cards import DIX\nfrom .common import need\n")
        test_imports_only_look_down(fake)
    finally:
        fake.unlink(missing_ok=True)


def test_no_import_circle_between_solver_and_bots():
    """Importing the whole engine never loads ``bots``."""
    import subprocess
    import sys
    code = ("import sys, solver, solver.search, solver.dd, solver.search.pimc, "
            "solver.search.ismcts, solver.search.native, solver.search.heuristics; "
            "print(any(m == 'bots' or m.startswith('bots.') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.strip()
    assert out == "False"


# --------------------------------------------------------------------------
# the generic layers name no game (docs/architecture.md: what belongs to one
# game lives with that game, registered per game class)

#: the generic code: the searches (but each game's own support module under
#: ``solver/search/games/`` and its heuristic), the double-dummy layer (its
#: per-game adapters too: each registers itself by its game's class and
#: reads the game's rules from it, never from its name), the front ends'
#: advice service and the hint's printer
GENERIC = sorted([p for p in (SOLVER / "search").rglob("*.py")
                  if "games" not in p.relative_to(SOLVER / "search").parts[:1]
                  and "heuristics" not in p.relative_to(SOLVER / "search").parts[:1]]
                 + list((SOLVER / "dd").rglob("*.py"))
                 + [ROOT / "bots" / "hint.py", ROOT / "bots" / "advice.py"])


def _game_names() -> set:
    import solver
    return set(solver.registered_games())


def _name_tests(source: str, names: set) -> list:
    """Where ``source`` compares with a game's name, or keys a table by one."""
    tree = ast.parse(source)
    found = []

    def named(node) -> bool:
        if isinstance(node, ast.Constant) and node.value in names:
            return True
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return False

    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and any(named(x) for x in [node.left,
                                                                      *node.comparators]):
            found.append(f"line {node.lineno}: compares with a game's name")
        elif isinstance(node, ast.Dict) and any(k is not None and named(k) for k in node.keys):
            found.append(f"line {node.lineno}: a table keyed by game names")
    return found


@pytest.mark.parametrize("path", GENERIC, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_generic_layers_name_no_game(path):
    bad = _name_tests(path.read_text(), _game_names())
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_name_checker_sees_a_name_test():
    names = _game_names()
    assert _name_tests('if game.name == "dix":\n    pass\n', names)
    assert _name_tests('ok = g.name in ("trix", "tricks")\n', names)
    assert _name_tests('TABLE = {"dixie-rook": 1}\n', names)
    assert not _name_tests('if kind == "cards":\n    pass\n', names)


def test_the_name_check_covers_the_dd_layer():
    """The check above reads the double-dummy layer (its facade, session,
    kernels' wrappers and per-game adapters), and a name test written
    into it would be caught (a probe module placed there for the test)."""
    covered = {p.relative_to(ROOT).as_posix() for p in GENERIC}
    for want in ("solver/dd/__init__.py", "solver/dd/session.py", "solver/dd/trick.py",
                 "solver/dd/adapters/contracts.py", "solver/dd/adapters/dix.py",
                 "solver/search/pimc.py", "bots/hint.py"):
        assert want in covered, want
    fake = SOLVER / "dd" / "_names_probe.py"
    try:
        fake.write_text('def f(game):\n    return game.name == "trix"\n')
        with pytest.raises(AssertionError, match="compares with a game's name"):
            test_the_generic_layers_name_no_game(fake)
        fake.write_text('SIZES = {"dix": 18, "tricks": 13}\n')
        with pytest.raises(AssertionError, match="keyed by game names"):
            test_the_generic_layers_name_no_game(fake)
        fake.write_text('def f(game):\n    return game.deck_name == "bridge"\n')
        test_the_generic_layers_name_no_game(fake)
    finally:
        fake.unlink(missing_ok=True)
