"""Every error a person can meet is raised with a coded phrase
(solver/errors.py), never with English written at the raise: a face then
words it in its reader's language from its catalogue, and a client reads
its code and data.  Read from the source, so a new raise written in
English fails here, not in front of a French reader.  The server's own
refusals (bots/server/errors.py ``RequestError`` and its kin) take a
catalogued template and its parameters: they are coded that way."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = [p for d in ("solver", "bots") for p in sorted((ROOT / d).rglob("*.py"))]
#: where an error's words are not its first argument: an illegal action's
#: first is the action, its reason second
WORDS_AT = {"IllegalActionError": 1}
#: the one raise left in English, and why: the terminal console
#: (bots/human.py) speaks English only and turns the rules' reason into
#: the second person ("you must follow suit"); the phrases have no second
#: person to say it with yet
ENGLISH_BY_DESIGN = {("bots/human.py", "IllegalActionError"): 1}


def _trees():
    return {p: ast.parse(p.read_text(encoding="utf-8")) for p in SOURCES}


def _subclasses(trees, root: str) -> set[str]:
    """The names of the classes under ``root``, by their bases' names."""
    bases: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases.setdefault(node.name, set()).update(
                    b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                    for b in node.bases)
    found = {root}
    while True:
        more = {name for name, of in bases.items() if of & found} - found
        if not more:
            return found
        found |= more


def _is_text(node) -> bool:
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "format" and _is_text(node.func.value)
    return False


def english_raises(trees, project: set[str]) -> list[str]:
    out = []
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            at = WORDS_AT.get(name, 0)
            if name in project and len(node.exc.args) > at and _is_text(node.exc.args[at]):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    return out


def test_every_error_a_person_meets_is_raised_with_a_code():
    trees = _trees()
    project = _subclasses(trees, "DixtrixError") - _subclasses(trees, "RequestError")
    assert {"PositionError", "OptionError", "LimitError"} <= project
    found = english_raises(trees, project)
    left: dict[tuple[str, str], int] = {}
    for row in found:
        place, name = row.split(" ")
        key = (place.split(":")[0], name)
        left[key] = left.get(key, 0) + 1
    assert {k: v for k, v in left.items() if ENGLISH_BY_DESIGN.get(k) != v} == {}, found


def test_the_check_finds_an_english_raise():
    # the probe: the same reading over a module that raises in English
    tree = ast.parse("def f(x):\n    raise OptionError(f'bad {x}')\n"
                     "def g(x):\n    raise OptionError(BAD(got=x))\n"
                     "def h(x):\n    raise IllegalActionError('?', 'not now')\n"
                     "def k(x):\n    raise IllegalActionError('?', NOT_NOW())\n")
    found = english_raises({ROOT / "probe.py": tree}, {"OptionError", "IllegalActionError"})
    assert found == ["probe.py:2 OptionError", "probe.py:6 IllegalActionError"]
