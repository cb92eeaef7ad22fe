"""The layers look only down (docs/architecture.md): core <- games <- dd
<- search <- bots.  Every module under ``solver/`` is parsed (ast) and its
imports -- at the top or inside a function -- are checked; the core's
modules are ranked among themselves too, and no module of ``solver/`` or
``bots/`` may take part in an import circle."""

from __future__ import annotations

import ast
import io
import pathlib
import re
import tokenize

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
#: the core, module by module (a module imports only core modules of a
#: lower rank): the phrases (``said``) below everything, the words'
#: markers and the fronts that say a game's facts with them (``front``) just
#: above, the errors raised with both above them, the shapes a game declares its
#: deal and match objects and its facts in, the facts' declarations above the shapes,
#: the card notation and the masks over it, the protocol, and the position
#: format that validates input
#: against the protocol (the protocol replays records itself, so it needs
#: nothing of the format)
CORE_RANK = {"solver.errors": 0, "solver.stats": 0, "solver.sampler": 0,
             "solver.reference": 0, "solver.reference.cardset": 0,
             "solver.reference.layout_oracle": 0,
             "solver.cardplay": 0, "solver.front": -1, "solver.facts": 1, "solver.shapes": 0,
             "solver.said": -2,
             "solver.cards": 1, "solver.cardset": 2, "solver.reference.dd_oracle": 2,
             "solver.game": 3, "solver.trickrules": 3, "solver.position": 4,
             "solver.beliefs": 4}


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


#: the modules of a game's package (``solver/games/<game>/``) that belong to
#: the search layer: what the search needs from the game (its support:
#: kernel search and exact-solve hooks), its encoding for the Cython
#: kernels, its rules player and its opponent model (how the beliefs read
#: its decisions); the rest of the package is the game's rules, which never
#: import them
GAME_SEARCH_PARTS = {"search", "kernel", "heuristic", "model"}
#: ... and the module that belongs to the double-dummy layer: its adapter
#: from a state to the solvers (registered in solver/dd/adapters/)
GAME_DD_PARTS = {"exact"}


def _layer_of(module: str) -> int | None:
    """The layer of a module of ``solver`` (None: not ours)."""
    parts = module.split(".")
    if parts[0] != "solver":
        return None
    if len(parts) == 1:
        return None
    sub = parts[1]
    if sub == "games" and len(parts) >= 4 and parts[3] in GAME_SEARCH_PARTS:
        return LAYER["search"]
    if sub == "games" and len(parts) >= 4 and parts[3] in GAME_DD_PARTS:
        return LAYER["dd"]
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
    # each game is a package (what trix and tricks share: contract_match)
    for game in ("dix", "dix_exchange", "dixie_rook", "trix", "tricks", "contract_match"):
        assert (SOLVER / "games" / game / "__init__.py").is_file(), game
        assert (SOLVER / "games" / game / "search.py").is_file(), game
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


def _core_module(module: str) -> str | None:
    """The core module that ``module`` is or lives in (None: not core, or
    a compiled kernel such as ``solver._cardset``, which imports nothing)."""
    parts = module.split(".")
    if parts[0] != "solver" or len(parts) == 1 or parts[1] in LAYER and parts[1] != "reference":
        return None
    if parts[1].startswith("_"):
        return None
    return ".".join(parts[:3] if parts[1] == "reference" else parts[:2])


@pytest.mark.parametrize("path", [p for p in MODULES
                                  if _core_module(_module_name(p)) is not None],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_core_modules_look_down_among_themselves(path):
    here = _module_name(path)
    assert here in CORE_RANK, f"{here}: a new core module: give it a rank in CORE_RANK"
    bad = []
    for line, mod in _imports(path):
        theirs = _core_module(mod)
        if theirs is None or theirs == here:
            continue
        if theirs not in CORE_RANK:
            continue                 # ``from . import _sampler``: the package name itself
        if CORE_RANK[theirs] >= CORE_RANK[here]:
            bad.append(f"line {line}: imports {mod}, not below {here} in the core")
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_core_checker_catches_violations():
    """A core module importing one of its rank or above is caught (the
    protocol importing the position format, the old circle), one importing
    below passes."""
    fake = SOLVER / "_core_probe.py"
    CORE_RANK["solver._core_probe"] = CORE_RANK["solver.game"]
    try:
        for source in ("from .position import from_json\n",
                       "def f():\n    from .position import _replay\n",
                       "from . import game\n"):
            fake.write_text(source)
            with pytest.raises(AssertionError, match="not below"):
                test_core_modules_look_down_among_themselves(fake)
        fake.write_text("from .cards import DIX\nfrom .errors import PositionError\n")
        test_core_modules_look_down_among_themselves(fake)
    finally:
        del CORE_RANK["solver._core_probe"]
        fake.unlink(missing_ok=True)


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
             "from .dix.search import DixSupport\n": "a layer above",
             "from .dix import heuristic\n": "a layer above",
             "def f():\n    from solver.search.pimc import pimc_search\n": "a layer above",
             "import bots.base\n": "never imports bots",
             "def f():\n    from bots import make_bot\n": "never imports bots",
             "from ..dd import solve\n": "a layer above"}
    try:
        for source, message in cases.items():
            fake.write_text(source)
            with pytest.raises(AssertionError, match=message):
                test_imports_only_look_down(fake)
        fake.write_text("from ..cards import DIX\nfrom .common import need\n"
                        "from .dix.state import DixState\n")
        test_imports_only_look_down(fake)
    finally:
        fake.unlink(missing_ok=True)


# --------------------------------------------------------------------------
# no import circles, in solver/ and in bots/

#: circles known at the time of writing, each with who removes it (none
#: today, and a new one is a failure, not a line here): the test
#: fails on any other circle, and on a known one that changed or is gone
#: (delete its line then)
KNOWN_CIRCLES: dict[frozenset, str] = {}


def _runtime_imports(path: pathlib.Path, modules: set, compiled: set):
    """(line, module of the tree) of every import that runs (at the top or
    inside a function; not under ``if TYPE_CHECKING:``, which never runs).
    ``from pkg import name`` is an import of ``pkg.name`` when that is a
    module, else of ``pkg``; compiled kernels (``solver._sampler``) import
    nothing back and are left out."""
    tree = ast.parse(path.read_text(), str(path))
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[:len(package.split(".")) - (node.level - 1)] \
                if node.level else []
            mod = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                sub = f"{mod}.{alias.name}"
                names.append(sub if sub in modules or sub in compiled else mod)
        else:
            continue
        for name in names:
            if name in compiled:
                continue
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != here:
                yield node.lineno, name


def _circles(paths) -> list:
    """The import circles among ``paths``: every strongly connected set of
    two or more modules (Tarjan's algorithm, iterative), each as
    ``(frozenset of modules, [(module, line, imported module) ...])``."""
    modules = {_module_name(p): p for p in paths}
    compiled = {_module_name(p) for p in ROOT.glob("solver/**/*.pyi")}
    graph: dict[str, dict[str, int]] = {m: {} for m in modules}
    for m, p in modules.items():
        for line, target in _runtime_imports(p, set(modules), compiled):
            graph[m].setdefault(target, line)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(graph[w])))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    part = set()
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.add(w)
                        if w == v:
                            break
                    if len(part) > 1:
                        ties = sorted((a, line, b) for a in part for b, line in graph[a].items()
                                      if b in part)
                        found.append((frozenset(part), ties))
    return found


TREE = sorted(list(SOLVER.rglob("*.py")) + list((ROOT / "bots").rglob("*.py")))


def _check_circles(paths, known) -> None:
    bad = []
    seen = set()
    for part, ties in _circles(paths):
        seen.add(part)
        if part in known:
            continue
        bad.append(f"an import circle of {len(part)} modules:\n" +
                   "\n".join(f"  {a} line {line} imports {b}" for a, line, b in ties))
    for part, owner in known.items():
        if part not in seen:
            bad.append(f"the known circle ({owner}) of {', '.join(sorted(part))} is gone or "
                       f"changed: delete or update its KNOWN_CIRCLES line")
    assert not bad, "\n".join(bad)


def test_no_import_circle():
    _check_circles(TREE, KNOWN_CIRCLES)


def test_the_circle_checker_catches_circles():
    """Two probe modules that import each other, at the top or inside a
    function, are caught; a ``TYPE_CHECKING`` import (which never runs) is
    not a circle; a known circle that is gone is reported."""
    a, b = SOLVER / "games" / "_circle_probe_a.py", SOLVER / "games" / "_circle_probe_b.py"
    cases = [("from . import _circle_probe_b\n", "from ._circle_probe_a import x\n", True),
             ("def f():\n    from solver.games._circle_probe_b import y\n",
              "from ._circle_probe_a import f\n", True),
             ("from ._circle_probe_b import y\n",
              "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              "    from ._circle_probe_a import x\n", False)]
    try:
        for first, second, circle in cases:
            a.write_text(first)
            b.write_text(second)
            paths = TREE + [a, b]
            if circle:
                with pytest.raises(AssertionError, match="an import circle of 2 modules"):
                    _check_circles(paths, KNOWN_CIRCLES)
            else:
                _check_circles(paths, KNOWN_CIRCLES)
        stale = dict(KNOWN_CIRCLES)
        stale[frozenset({"solver.game", "solver.position"})] = "the old protocol circle"
        with pytest.raises(AssertionError, match="is gone or changed"):
            _check_circles(TREE, stale)
    finally:
        a.unlink(missing_ok=True)
        b.unlink(missing_ok=True)


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

#: the generic code: the searches (their registry of the games' support
#: modules, ``solver/search/games/``, aside: each game's support and
#: heuristic live in its package), the double-dummy layer and the games'
#: adapters to it (``solver/games/<game>/exact.py``: each registers itself
#: by its game's class and reads the game's rules from it, never from its
#: name), the front ends' advice
#: service and the hint's printer
#: the front ends that read what each game declares for them (solver/front.py)
FRONT_ENDS = [*sorted((ROOT / "bots" / "server").glob("*.py")),
              *(ROOT / "bots" / n for n in ("analysis.py", "tabletop.py", "levels.py",
                                            "gym_env.py"))]
GENERIC = sorted([p for p in (SOLVER / "search").rglob("*.py")
                  if "games" not in p.relative_to(SOLVER / "search").parts[:1]]
                 + list((SOLVER / "dd").rglob("*.py"))
                 + list((SOLVER / "interop").rglob("*.py"))
                 + list((SOLVER / "games").glob("*/exact.py"))
                 + [ROOT / "bots" / "hint.py", ROOT / "bots" / "advice.py"]
                 + FRONT_ENDS)
#: the layers that read what each game declares (its ``Game`` class, its
#: ``search.py`` and ``exact.py``) and import no game package: they reach
#: the games only through ``solver.games`` (the registry of packages) and
#: the protocol
DECLARED = sorted(list((SOLVER / "dd").rglob("*.py")) + list((SOLVER / "interop").rglob("*.py")))


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


def _game_verbs() -> set:
    """The actions the games word themselves (``Front.actions``' keys:
    "bid", "reveal done", ...), beside the common ones."""
    import solver
    return {v for n in solver.registered_games() for v in solver.load_game(n).front.actions}


def _verb_tests(source: str, verbs: set) -> list:
    """Where ``source`` compares with a game's action verb (``head ==
    "bid"``, ``text in ("keep", "ask")``)."""
    return [f.replace("a game's name", "a game's action verb")
            for f in _name_tests(source, verbs) if "compares" in f]


@pytest.mark.parametrize("path", FRONT_ENDS + [ROOT / "bots" / "advice.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_front_ends_name_no_game_s_action(path):
    """An action is worded by its game's front (``Front.action``): no front
    end tests an action's verb to word it."""
    bad = _verb_tests(path.read_text(), _game_verbs())
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_verb_checker_sees_a_verb_test():
    verbs = _game_verbs()
    assert {"bid", "reveal done", "block"} <= verbs
    assert _verb_tests('if head == "bid":\n    pass\n', verbs)
    assert _verb_tests('ok = text in ("keep", "ask")\n', verbs)
    assert not _verb_tests('if text == "pass":\n    pass\n', verbs)


@pytest.mark.parametrize("path", DECLARED, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_dd_and_interop_layers_import_no_game_package(path):
    bad = [f"line {line}: imports {mod}" for line, mod in _imports(path)
           if mod.startswith("solver.games.") and mod != "solver.games.import_parts"]
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_name_check_covers_the_dd_layer():
    """The check above reads the double-dummy layer (its facade, session,
    kernels' wrappers, the adapters' registry and the per-game adapters in
    the games' packages), and a name test written
    into it would be caught (a probe module placed there for the test)."""
    covered = {p.relative_to(ROOT).as_posix() for p in GENERIC}
    for want in ("solver/dd/__init__.py", "solver/dd/session.py", "solver/dd/trick.py",
                 "solver/dd/solve.py", "solver/dd/tables.py", "solver/dd/dix.py",
                 "solver/dd/adapters/registry.py", "solver/games/contract_match/exact.py",
                 "solver/games/dix/exact.py", "solver/interop/common.py",
                 "solver/interop/openspiel.py", "solver/interop/pettingzoo.py",
                 "solver/interop/chance.py",
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
        # and an import of a game's package is caught in the dd layer
        fake.write_text('from ..games.dix.exact import dix_position\n')
        with pytest.raises(AssertionError, match="imports solver.games.dix"):
            test_the_dd_and_interop_layers_import_no_game_package(fake)
        fake.write_text('from ..games import import_parts\n')
        test_the_dd_and_interop_layers_import_no_game_package(fake)
    finally:
        fake.unlink(missing_ok=True)


#: the front ends that draw and explain a table: they reach a game only
#: through what its ``Front`` declares (solver/front.py) and the protocol,
#: never through a module of the game's package
GAME_BLIND = [*sorted((ROOT / "bots" / "server").glob("*.py")),
              *(ROOT / "bots" / n for n in ("tabletop.py", "analysis.py", "advice.py"))]


def _game_imports(path: pathlib.Path) -> list:
    """The imports of ``path`` that name ``solver.games`` or a module in it
    (``from solver import games`` too)."""
    names = {(line, mod) for line, mod in _imports(path)}
    names |= {(node.lineno, f"{node.module}.{alias.name}")
              for node in ast.walk(ast.parse(path.read_text()))
              if isinstance(node, ast.ImportFrom) and not node.level and node.module
              for alias in node.names}
    return [f"line {line}: imports {mod}" for line, mod in sorted(names)
            if mod == "solver.games" or mod.startswith("solver.games.")]


@pytest.mark.parametrize("path", GAME_BLIND, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_front_ends_import_no_game_module(path):
    bad = _game_imports(path)
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_front_end_import_check_fires():
    """A probe module of bots/server importing a game's module, or the
    games' package, is caught; one importing the protocol is not."""
    assert any(p.name == "present.py" for p in GAME_BLIND)
    fake = ROOT / "bots" / "server" / "_games_probe.py"
    try:
        fake.write_text("from solver.games.contract_match.layout import parse_text\n")
        with pytest.raises(AssertionError, match="imports solver.games.contract_match"):
            test_the_front_ends_import_no_game_module(fake)
        fake.write_text("def f():\n    from solver import games\n    return games\n")
        with pytest.raises(AssertionError, match="imports solver.games"):
            test_the_front_ends_import_no_game_module(fake)
        fake.write_text("from solver.front import Front\n")
        test_the_front_ends_import_no_game_module(fake)
    finally:
        fake.unlink(missing_ok=True)


def _private_registry_uses(path: pathlib.Path) -> list:
    """Where ``path`` names the registry's private table (``_REGISTRY``)."""
    return [f"line {node.lineno}: names _REGISTRY"
            for node in ast.walk(ast.parse(path.read_text()))
            if (isinstance(node, ast.Name) and node.id == "_REGISTRY")
            or (isinstance(node, ast.alias) and node.name == "_REGISTRY")
            or (isinstance(node, ast.Attribute) and node.attr == "_REGISTRY")]


#: the registry itself and the games' package registry, which adds and
#: forgets whole packages of games
REGISTRY_KEEPERS = {SOLVER / "game.py", SOLVER / "games" / "__init__.py"}


def test_the_registry_is_read_through_its_accessors(tmp_path):
    """Outside solver/game.py (and the package registry beside it) the
    games are read through ``registered_games``, ``game_class`` and
    ``load_game``, never the private table; a probe naming it is caught."""
    bad = [f"{p.relative_to(ROOT)}: {b}" for p in sorted((ROOT / "bots").rglob("*.py"))
           + MODULES if p not in REGISTRY_KEEPERS for b in _private_registry_uses(p)]
    assert not bad, "\n".join(bad)
    probe = tmp_path / "probe.py"
    probe.write_text("from solver.game import _REGISTRY\nx = _REGISTRY['dix']\n")
    assert len(_private_registry_uses(probe)) == 2
    probe.write_text("from solver.game import game_class\nx = game_class('dix')\n")
    assert not _private_registry_uses(probe)


#: the pages, which read what the server sends of each game (its title, its
#: contracts' heading, where a deal set up by hand keeps its hands)
PAGES = sorted((ROOT / "bots" / "server" / "static").glob("*.js"))


def _page_name_tests(source: str, names: set) -> list:
    """Where a page compares with a game's name (``=== "trix"``), switches
    on one, or keys an object by one (``{ trix: ...}``, ``"dix-exchange":``)."""
    quoted = "|".join(sorted(re.escape(n) for n in names))
    bare = "|".join(sorted(re.escape(n) for n in names if re.fullmatch(r"[A-Za-z_]\w*", n)))
    patterns = [(rf"[!=]==?\s*[\"'`]({quoted})[\"'`]", "compares with a game's name"),
                (rf"[\"'`]({quoted})[\"'`]\s*[!=]==?", "compares with a game's name"),
                (rf"\bcase\s+[\"'`]({quoted})[\"'`]", "switches on a game's name"),
                (rf"[{{,]\s*[\"'`]({quoted})[\"'`]\s*:", "an object keyed by game names"),
                (rf"[{{,]\s*({bare})\s*:", "an object keyed by game names")]
    found = []
    for lineno, line in enumerate(source.splitlines(), 1):
        for pattern, what in patterns:
            if re.search(pattern, line):
                found.append(f"line {lineno}: {what}")
    return found


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pages_name_no_game(path):
    bad = _page_name_tests(path.read_text(), _game_names())
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_page_checker_sees_a_name_test():
    names = _game_names()
    assert _page_name_tests('const w = p.game === "trix" ? a : b;', names)
    assert _page_name_tests("if ('dix' !== g.name) x();", names)
    assert _page_name_tests('switch (g) { case "tricks": break; }', names)
    assert _page_name_tests('const T = { dix: "Dix", "dixie-rook": "Dixie Rook" };', names)
    assert not _page_name_tests('row(t("Tricks taken"), s.tricks, "tricks", t("tricks"));',
                                names)
    assert not _page_name_tests('const g = GAMES.find((x) => x.name === name);', names)


#: JavaScript's own words that share a game fact's name (``ev.target``;
#: dix-exchange's ``target`` and ``winner``)
JS_WORDS = frozenset({"target", "winner"})


def _game_fact_keys() -> set:
    """The facts the games declare their own (``Game.facts``), beside the
    widget facts every face draws alike (solver/facts.py: a hand, a trick
    and who led it, the tricks won, the layout's rows, trumps and the
    turn-up, the stock's count, the match's totals)."""
    import solver
    from solver.facts import WIDGET_FACTS
    return {key for name in solver.registered_games()
            for key in solver.load_game(name).facts} - set(WIDGET_FACTS)


def _page_fact_reads(source: str, keys: set) -> list:
    """Where a page reads a game's fact (``b.auction``, ``p.bid_winner``) or
    names one in a string (``case "nest":``)."""
    found = []
    for lineno, line in enumerate(source.splitlines(), 1):
        for key in sorted(keys):
            if re.search(rf"\.{key}\b|[\"'`]{key}[\"'`]", line):
                found.append(f"line {lineno}: reads the fact {key!r}")
    return found


@pytest.fixture(scope="module")
def game_fact_keys():
    return _game_fact_keys()


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pages_read_no_game_s_fact(path, game_fact_keys):
    """The pages draw a game's board from generic widgets its front words
    (``Front.panels``, ``notes``, ``seat_notes``, ``summary_words``): no
    page reads a game's own fact (an auction's bid, a contract, tokens)."""
    assert {"bid_winner", "tokens", "used", "revealed"} <= game_fact_keys
    bad = _page_fact_reads(path.read_text(), game_fact_keys - JS_WORDS)
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_page_fact_checker_fires():
    keys = {"bid_winner", "nest", "tokens"}
    assert _page_fact_reads("if (b.auction.bid_winner >= 0) x();", keys)
    assert _page_fact_reads('case "nest": return t("nest");', keys)
    assert _page_fact_reads("seatExtra(b.tokens, s);", keys)
    assert not _page_fact_reads("drawPanels(box, p, b.panels);", keys)


def _fact_key_reads(source: str, keys: set) -> list:
    """Where a Python module reads a game's fact by its key: the key as a
    subscript (``known["tokens"]``), the first argument of ``get``,
    ``pop`` or ``setdefault``, a side of a comparison (``"nest" in
    known``) or an item of a tuple, list or set (a table of keys to copy).
    A docstring or a key of the module's own dict display (a board's
    ``"winner"`` of the last trick) is not a read."""
    found = []

    def key(node) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys:
            return node.value
        return None

    for node in ast.walk(ast.parse(source)):
        named: list = []
        if isinstance(node, ast.Subscript):
            named = [key(node.slice)]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("get", "pop", "setdefault") and node.args:
            named = [key(node.args[0])]
        elif isinstance(node, ast.Compare):
            named = [key(x) for x in (node.left, *node.comparators)]
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            named = [key(e) for e in node.elts]
        found += [f"line {getattr(node, 'lineno', 0)}: reads the fact {k!r}"
                  for k in named if k]
    return found


#: the front ends that word a position and draw a table from the widget
#: facts and what a game's front says of its own (``Front.deal_facts``,
#: ``panels``, ``seat_notes``, ``contract_in_play``: solver/front.py); the
#: analysis board copies the facts a game declares, never by their names
FACT_BLIND = [*GAME_BLIND, ROOT / "bots" / "hint.py"]


@pytest.mark.parametrize("path", FACT_BLIND, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_front_ends_read_no_game_s_fact(path, game_fact_keys):
    """The advice, the table's presentation, its labels, its table top
    and the analysis board read the widget facts only; a game's own facts
    (a contract, a bid, the nest, tokens) are said by its front or copied
    as the game declares them."""
    bad = _fact_key_reads(path.read_text(), game_fact_keys)
    assert not bad, f"{path.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_the_front_end_fact_checker_fires(game_fact_keys):
    """The checker reads the advice, the labels, the presentation, the
    table top and the analysis board, and catches a read of a game's fact in each form, not a
    widget fact, a docstring or a key the module writes; a probe module
    of bots/server reading ``bid_winner`` fails the test."""
    covered = {p.relative_to(ROOT).as_posix() for p in FACT_BLIND}
    assert {"bots/advice.py", "bots/server/labels.py", "bots/server/present.py",
            "bots/tabletop.py", "bots/analysis.py", "bots/server/analysis.py"} <= covered
    keys = game_fact_keys
    assert _fact_key_reads('w = known.get("bid_winner")\n', keys)
    assert _fact_key_reads('t = known["tokens"]\n', keys)
    assert _fact_key_reads('if "nest" in known:\n    pass\n', keys)
    assert _fact_key_reads('PRIVATE = frozenset({"hand", "discards"})\n', keys)
    assert _fact_key_reads('for key in ("chooser", "contract"):\n    pass\n', keys)
    assert not _fact_key_reads('def f(known):\n    """The bid."""\n    return known["hand"]\n',
                               keys)
    assert not _fact_key_reads('out = {"winner": leader}\n', keys)
    fake = ROOT / "bots" / "server" / "_facts_probe.py"
    try:
        fake.write_text('def f(known):\n    return known.get("bid_winner")\n')
        with pytest.raises(AssertionError, match="reads the fact 'bid_winner'"):
            test_the_front_ends_read_no_game_s_fact(fake, keys)
    finally:
        fake.unlink(missing_ok=True)


# --------------------------------------------------------------------------
# imports at the top of a module (issue #42): one inside a function says why
# on its line or the line above it -- the import circle it avoids, the
# optional extra it needs, or the start-up time a lazy load saves -- so that
# what a module uses is read at its top


def _unexplained_imports(path: pathlib.Path) -> list[str]:
    """The imports inside a function of ``path`` with no comment on their
    line or the line above (a ``#`` inside a string is no comment)."""
    source = path.read_text()
    commented = {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                 if tok.type == tokenize.COMMENT}
    bad = set()
    for fn in ast.walk(ast.parse(source, str(path))):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(fn):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and \
                    not {node.lineno, node.lineno - 1} & commented:
                bad.add((node.lineno, ast.unparse(node)))
    return [f"line {line}: {text}" for line, text in sorted(bad)]


def test_imports_inside_functions_say_why():
    bad = [f"{path.relative_to(ROOT)} {where}" for path in TREE
           for where in _unexplained_imports(path)]
    assert not bad, ("an import inside a function without a comment on its line or the "
                     "line above (move it to the top, or say why it stays):\n" + "\n".join(bad))


def test_the_import_checker_sees_a_bare_import(tmp_path):
    probe = tmp_path / "probe.py"
    cases = {"def f():\n    from solver.search import best_move\n": ["line 2"],
             "class A:\n    def f(self):\n        import os\n": ["line 3"],
             "async def f():\n    x = '#'\n    import os\n": ["line 3"],
             "g = lambda: __import__('os')\ndef f():\n    import os, sys  # 's #'\n": [],
             "def f():\n    # the optional [plot] extra\n    import matplotlib\n": [],
             "import os\nif os:\n    import sys\n": []}
    for source, found in cases.items():
        probe.write_text(source)
        assert [b.split(":")[0] for b in _unexplained_imports(probe)] == found, source


# --------------------------------------------------------------------------
# the HTTP server's files hold one noun each (issue #42: routers per
# resource, the table apart from its presentation)

SERVER_MAX_LINES = 500


def test_no_server_module_is_over_500_lines():
    long = {p.name: n for p in sorted((ROOT / "bots" / "server").glob("*.py"))
            if (n := len(p.read_text().splitlines())) > SERVER_MAX_LINES}
    assert not long, f"bots/server modules over {SERVER_MAX_LINES} lines: {long}"


def _nested_endpoints(path: pathlib.Path) -> list[str]:
    """The ``async def`` endpoints of ``path`` made inside another function
    (closures over what a router should read from the shared
    ``bots/server/context.py`` ``Context``)."""
    found = []
    for fn in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found += [f"line {node.lineno}: {node.name} inside {fn.name}"
                      for node in ast.walk(fn)
                      if node is not fn and isinstance(node, ast.AsyncFunctionDef)
                      and any(isinstance(d, ast.Name) and d.id == "endpoint"
                              for d in node.decorator_list)]
    return found


def test_the_routers_read_the_shared_context(tmp_path):
    """Every router of bots/server holds its endpoints at module level,
    reading the settings and the pool from the request's ``Context``; a
    probe with an endpoint made in a function is caught."""
    routers = sorted((ROOT / "bots" / "server").glob("*_routes.py"))
    routers.append(ROOT / "bots" / "server" / "analysis.py")
    bad = [f"{p.name}: {b}" for p in routers for b in _nested_endpoints(p)]
    assert not bad, "\n".join(bad)
    probe = tmp_path / "probe.py"
    probe.write_text("def routes(settings):\n    @endpoint\n    async def f(request):\n"
                     "        return settings\n    return f\n")
    assert _nested_endpoints(probe) == ["line 3: f inside routes"]


# --------------------------------------------------------------------------
# the world samplers are read through their public contract (issue #52: the
# opponent models read the samplers' own attributes): outside its game's
# package, and in that package's opponent model (model.py, which the beliefs
# drive for every game alike), a world sampler is read only through what
# solver/game.py's WorldSampler and solver/beliefs.py's RowSampler declare;
# solver/sampler.py is the low-level samplers' own module


def _sampler_contract() -> set[str]:
    """The public names of a world sampler: what WorldSampler and RowSampler
    declare (their methods, attributes and documented annotations)."""
    from solver.beliefs import RowSampler  # the contract is read from the classes themselves
    from solver.game import WorldSampler
    names = set()
    for cls in (WorldSampler, RowSampler):
        names |= {n for n in vars(cls) if not n.startswith("_")}
        names |= {n for n in cls.__dict__.get("__annotations__", {}) if not n.startswith("_")}
    return names


def _sampler_reads(path: pathlib.Path, public: set[str]) -> list[str]:
    """Where ``path`` reads an attribute of a sampler (a name ``sampler``, or
    an attribute ``.sampler``) that is not in ``public``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Attribute) or node.attr in public:
            continue
        holder = node.value
        if (isinstance(holder, ast.Name) and holder.id == "sampler") or \
                (isinstance(holder, ast.Attribute) and holder.attr == "sampler"):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


#: the modules that may read a world sampler's own attributes: its game's
#: package (the sampler's module, the game that completes a view with it, the
#: kernel that compiles its search from the sampler's graphs) but for the
#: opponent model, and the low-level samplers' module
SAMPLER_KEEPERS = {SOLVER / "sampler.py",
                   *(p for p in (SOLVER / "games").glob("*/*.py") if p.name != "model.py")}


def test_the_samplers_are_read_through_their_contract():
    public = _sampler_contract()
    assert {"hand_places", "seat", "base", "draw_rows", "sample"} <= public
    bad = [f"{p.relative_to(ROOT)} {b}" for p in TREE if p not in SAMPLER_KEEPERS
           for b in _sampler_reads(p, public)]
    assert not bad, ("a world sampler read outside its contract (WorldSampler, RowSampler):\n"
                     + "\n".join(bad))


def test_the_sampler_read_checker_fires(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("def places(sampler, state, seat):\n"
                     "    if sampler.live and sampler._walker is None:\n"
                     "        return sampler.hand_places(state, seat)\n"
                     "    return self.sampler.holders.index(seat), beliefs.sampler.n_places\n")
    assert _sampler_reads(probe, _sampler_contract()) == [
        "line 2: sampler.live", "line 2: sampler._walker", "line 4: self.sampler.holders"]
