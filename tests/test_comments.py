"""Comments that stay true: every repository path that a comment, a
docstring or a page of documentation cites names a file or folder that
exists, and no comment points at a document outside the repository by a
bare tag (the word STYLE and a number): a reader of the project alone must be able to follow
each one.

Read: the comments and docstrings of every ``*.py``, ``*.pyx`` and
``*.pxd`` file, and the whole text of every ``*.md`` file, under the
repository (build outputs and virtual environments left out).  A cited
path is a run of path characters that starts with one of the top folders
(``solver/``, ``bots/``, ``csrc/``, ``tests/``, ``bench/``, ``docs/``) and
is not part of a longer path or an address (``github.com/x/tests/...`` is
someone else's).  A path with ``*`` is a pattern that must match a file; a
placeholder such as ``solver/games/<game>/`` is checked up to the
placeholder; a module path (``solver.dd.trick.kernel_table``) must name
a package, a module and a name the module defines or imports; a Cython
file named alone (``dixkernel.pxi``, as the kernels
cimport their headers) must be a file under ``csrc/``; a folder that
``.gitignore`` names (``tests/artifacts/``, made by a test) is where output
goes and may be cited.  A path written after a commit and a colon, as
``git show`` takes it (``33078b3:bench/forced_bound.py``: a script removed
from the tree, its conclusion kept in docs/), is cited in that commit: it
must exist there when the clone holds the commit (a shallow clone or an
unpacked archive may not; then it is not checked).  Each failure names
``file:line`` and the path.

Comments and reference pages say what is: no comment or docstring under
``solver/``, ``csrc/``, ``bots/``, ``tests/`` or ``bench/`` cites a round
of the work on an issue (an issue number with "the third round", "round
2" and the like: it says the reason itself, or cites a section of docs/
that gives it), and no heading of a page at the top of docs/ (nor the
README) names an issue and a round or is titled by an issue, nor does its
text cite a round of one; the dated notes of those rounds are
docs/history/'s.
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import subprocess
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

#: the repository's top folders: a path that starts with one is ours
TOP = ("solver", "bots", "csrc", "tests", "bench", "docs")
#: folders that hold no source of the project (builds, environments, caches)
SKIP = {".git", "build", "dist", "node_modules", "__pycache__", ".venv", "venv",
        ".mypy_cache", ".ruff_cache", ".pytest_cache"}

#: a cited path: not preceded by a path character (so the tail of a longer
#: path or of an address is not taken for ours), then a top folder, a
#: slash, and path characters ending on a name character or a slash (a
#: sentence's full stop is not part of the path)
PATH = re.compile(r"(?<![\w./*@~-])((?:" + "|".join(TOP) + r")/(?:[\w.*-]*/)*[\w.*-]*[\w*/]|"
                  + "(?:" + "|".join(TOP) + r")/)")
#: a Cython file named without its folder (``dixkernel.pxi``): the kernels
#: cimport their headers by bare name, so a comment does too; such a name
#: must be a file under ``csrc/``
CYTHON_NAME = re.compile(r"(?<![\w./-])(\w+\.(?:pyx|pxd|pxi))\b")
#: a path cited in a commit, as ``git show`` takes it: ``<commit>:<path>``
HISTORIC = re.compile(r"(?<![\w./-])([0-9a-f]{7,40}):$")
#: a bare tag that cites a document outside the repository
TAG = re.compile(r"\bSTYLE\s+\d+\b")


#: a module path of the project (``solver.dd.trick.kernel_table``): the top
#: package, then names; one followed by ``<`` is a pattern
#: (``solver._<name>``) and is left alone
DOTTED = re.compile(r"(?<![\w./-])((?:solver|bots)(?:\.[A-Za-z_]\w*)+)(?![\w<])")

_NAMES: dict[pathlib.Path, set[str] | None] = {}


def _names(path: pathlib.Path) -> set[str] | None:
    """The names a module defines or imports (None: not Python, unread)."""
    if path not in _NAMES:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError):
            _NAMES[path] = None
            return None
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
        _NAMES[path] = names
    return _NAMES[path]


def module_path_exists(dotted: str) -> bool:
    """Whether a dotted path (``solver.<package>.<module>.<name>``) names
    a package, a module (source, stub or built kernel) and, after the
    module, a name it defines or imports (one level: a class's members are
    not read)."""
    parts = dotted.split(".")
    base = ROOT / parts[0]
    for i, part in enumerate(parts[1:], 1):
        if (base / part / "__init__.py").is_file():
            base = base / part
            continue
        if (base / f"{part}.py").is_file():
            names = _names(base / f"{part}.py")
            return i + 1 == len(parts) or names is None or parts[i + 1] in names
        if (base / f"{part}.pyi").is_file() or any(base.glob(f"{part}.*.so")):
            return True
        names = _names(base / "__init__.py")
        return names is None or part in names
    return True


def _outputs() -> tuple[str, ...]:
    """The folders that ``.gitignore`` names (made when tests or builds run,
    such as ``tests/artifacts/``): a comment may cite where output goes."""
    ignore = ROOT / ".gitignore"
    lines = ignore.read_text().splitlines() if ignore.is_file() else []
    return tuple(line.strip().strip("/") + "/" for line in lines
                 if line.strip().startswith(TOP) and not set(line) & set("*?[!#"))


def _sources() -> list[pathlib.Path]:
    out = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        # a hidden folder is a tool's (CI makes its virtual environment in
        # .venv-ci/ at the root), never the project's own text
        if any(part in SKIP or part.startswith(".") or part.endswith(".egg-info")
               or part == "site-packages" for part in rel.parts):
            continue
        if path.suffix in (".py", ".pyx", ".pxd", ".md") and path.is_file():
            out.append(path)
    return sorted(out)


def _texts(path: pathlib.Path, text: str) -> list[tuple[int, str]]:
    """(first line, text) of each comment and docstring of a source file
    (of a page: its whole text, line by line)."""
    if path.suffix == ".md":
        return list(enumerate(text.splitlines(), 1))
    out: list[tuple[int, str]] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # a Cython construct the Python tokenizer refuses: the comments by
        # line (a docstring there is still read where it has a '#' line)
        for i, line in enumerate(text.splitlines(), 1):
            code, hash_, comment = line.partition("#")
            if hash_:
                out.append((i, comment))
        return out
    before = tokenize.NEWLINE
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and before in (tokenize.NEWLINE, tokenize.INDENT,
                                                         tokenize.DEDENT, tokenize.NL,
                                                         tokenize.ENCODING):
            out.append((tok.start[0], tok.string))       # a string standing alone: a docstring
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            before = tok.type
    return out


def _exists(cited: str) -> bool:
    commit, colon, rest = cited.partition(":")
    if colon:
        return _in_commit(commit, rest)
    if cited.startswith(_outputs()) or (cited + "/").startswith(_outputs()):
        return True
    if "*" in cited:
        try:
            return any(ROOT.glob(cited.rstrip("/")))
        except ValueError:                      # not a pattern pathlib reads ("a**.py")
            return False
    if "/" not in cited:                            # a Cython file by its bare name
        return any((ROOT / "csrc").rglob(cited))
    return (ROOT / cited).exists()


def _in_commit(commit: str, cited: str) -> bool:
    """Whether ``cited`` exists in ``commit``; True when this clone cannot
    tell (no git, or the commit is not here)."""
    def git(*args: str) -> int:
        try:
            return subprocess.run(["git", *args], cwd=ROOT, capture_output=True,
                                  timeout=30).returncode
        except (OSError, subprocess.SubprocessError):
            return -1
    if git("cat-file", "-e", f"{commit}^{{commit}}") != 0:
        return True
    return git("cat-file", "-e", f"{commit}:{cited.rstrip('/')}") == 0


def cited_paths(path: pathlib.Path, text: str) -> list[tuple[int, str]]:
    """(line, path) of every repository path cited in ``path``'s comments,
    docstrings or page text (``text`` is the file's content); a path cited
    in a commit (``<commit>:<path>``) is given as ``<commit>:<path>``."""
    out = []
    for first, chunk in _texts(path, text):
        for k, line in enumerate(chunk.splitlines() or [chunk]):
            for m in PATH.finditer(line):
                old = HISTORIC.search(line, 0, m.start())
                out.append((first + k, f"{old.group(1)}:{m.group(1)}" if old else m.group(1)))
            for m in CYTHON_NAME.finditer(line):
                out.append((first + k, m.group(1)))
    return out


def missing_paths(path: pathlib.Path, text: str) -> list[str]:
    """``file:line: path`` for each cited path that does not exist."""
    rel = path.relative_to(ROOT) if path.is_absolute() else path
    return [f"{rel}:{line}: {cited}" for line, cited in cited_paths(path, text)
            if not _exists(cited)]


def missing_modules(path: pathlib.Path, text: str) -> list[str]:
    """``file:line: name`` for each module path cited that does not resolve."""
    rel = path.relative_to(ROOT) if path.is_absolute() else path
    return [f"{rel}:{first + k}: {m.group(1)}" for first, chunk in _texts(path, text)
            for k, line in enumerate(chunk.splitlines() or [chunk])
            for m in DOTTED.finditer(line) if not module_path_exists(m.group(1))]


def style_tags(path: pathlib.Path, text: str) -> list[str]:
    rel = path.relative_to(ROOT) if path.is_absolute() else path
    return [f"{rel}:{first + k}: {m.group(0)}" for first, chunk in _texts(path, text)
            for k, line in enumerate(chunk.splitlines() or [chunk])
            for m in TAG.finditer(line)]


#: the steps of the work on an issue: an ordinal (or "this", "closing")
#: and the word round, next to the issue's number, either way round
_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final"
            r"|closing|next|previous|this|\d+(?:st|nd|rd|th))")
ISSUE_ROUND = re.compile(
    r"issue\s+#\d+(?:'s)?[,;:]?\s+(?:the\s+)?" + _ORDINAL + r"\s+round\b"
    r"|\b" + _ORDINAL + r"\s+round\s+(?:of|on|for|in)\s+issue\s+#\d+"
    r"|issue\s+#\d+,?\s+round\s+\d+|\bround\s+\d+\s+of\s+issue\s+#\d+", re.I)
#: a heading that names an issue and a round, in any order, or is titled by
#: an issue (a lab note's: "The issue #6 table", "Issue #26: ...")
HEADING_ROUND = re.compile(r"^#+\s+(?:the\s+)?issue\s+#\d+"
                           r"|^#+\s.*(?:issue\s+#\d+.*\bround|\bround\b.*issue\s+#\d+)", re.I)
#: where code lives whose comments must not cite rounds
CODE = ("solver", "csrc", "bots", "tests", "bench")


def _blocks(path: pathlib.Path, text: str) -> list[tuple[int, str]]:
    """(first line, text) of each docstring and each block of comments on
    consecutive lines (joined, so a citation wrapped over two comment lines
    is read whole, without the ``#`` that starts each line)."""
    out: list[tuple[int, str]] = []
    last = -1
    for first, chunk in _texts(path, text):
        if chunk.lstrip().startswith("#"):
            words = re.sub(r"^\s*#:?", "", chunk)
            if out and last == first - 1:
                out[-1] = (out[-1][0], out[-1][1] + "\n" + words)
            else:
                out.append((first, words))
            last = first
        else:
            out.append((first, chunk))
            last = -1
    return out


def round_citations(path: pathlib.Path, text: str) -> list[str]:
    """``file:line: words`` for each round of an issue that a comment or a
    docstring of ``path`` cites."""
    rel = path.relative_to(ROOT) if path.is_absolute() else path
    out = []
    for first, block in _blocks(path, text):
        for m in ISSUE_ROUND.finditer(block):
            line = first + block.count("\n", 0, m.start())
            out.append(f"{rel}:{line}: {' '.join(m.group(0).split())}")
    return out


def page_rounds(path: pathlib.Path, text: str) -> list[str]:
    """``file:line: words`` for each heading of a page that names an issue
    and a round or is titled by an issue, and each round of an issue its
    text cites (code blocks left out)."""
    rel = path.relative_to(ROOT) if path.is_absolute() else path
    out = []
    fence = False
    prose = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
        if fence:
            prose.append("")
            continue
        prose.append(line)
        if HEADING_ROUND.match(line):
            out.append(f"{rel}:{i}: {line}")
    joined = "\n".join(prose)
    for m in ISSUE_ROUND.finditer(joined):
        at = 1 + joined.count("\n", 0, m.start())
        if not HEADING_ROUND.match(prose[at - 1]):
            out.append(f"{rel}:{at}: {' '.join(m.group(0).split())}")
    return out


SOURCES = _sources()


def test_the_scan_reads_every_kind_of_file():
    kinds = {p.suffix for p in SOURCES}
    assert {".py", ".pyx", ".pxd", ".md"} <= kinds
    assert ROOT / "csrc" / "dd" / "dd.pyx" in SOURCES
    assert ROOT / "docs" / "architecture.md" in SOURCES


def test_every_cited_path_exists():
    bad = [m for p in SOURCES for m in missing_paths(p, p.read_text(encoding="utf-8"))]
    assert not bad, "cited paths that do not exist:\n" + "\n".join(bad)


def test_every_cited_module_path_resolves():
    bad = [m for p in SOURCES for m in missing_modules(p, p.read_text(encoding="utf-8"))]
    assert not bad, "cited module paths that do not resolve:\n" + "\n".join(bad)


def test_no_comment_cites_a_document_outside_the_repository():
    bad = [m for p in SOURCES for m in style_tags(p, p.read_text(encoding="utf-8"))]
    assert not bad, ("tags that cite a document outside the repository (say the reason in "
                     "words):\n" + "\n".join(bad))


# --------------------------------------------------------------------------
# the checker sees what it is meant to see (positive controls)


@pytest.mark.parametrize("name, text, line", [
    ("probe.py", '"""Module doc."""\n\n# see solver/no_such_module.py for why\nx = 1\n', 3),
    ("probe.py", 'def f():\n    """Reads\n    bots/gone.py first."""\n', 3),
    ("probe.pyx", "cdef int f(int x) noexcept nogil:\n    # csrc/dd/missing.pxd\n"
                  "    return <int>x\n", 2),
    ("probe.pxd", "cdef struct S:\n    int a   # the field of tests/nowhere/\n", 2),
    ("probe.md", "# A page\n\nThe map is in `docs/not-here.md`.\n", 3),
    ("probe.py", "# every kernel: csrc/dd/*.nothing\n", 1),
    ("probe.pyx", "# the helpers of holderwalk.pxd\n", 1),
])
def test_the_checker_reports_a_missing_path(name, text, line):
    found = missing_paths(pathlib.Path(name), text)
    assert len(found) == 1 and found[0].startswith(f"{name}:{line}: "), found


def test_the_checker_lets_true_and_foreign_paths_be():
    text = ('"""See solver/game.py, csrc/dd/*.pyx and docs/.\n\nA placeholder: '
            'solver/games/<game>/; an address: https://github.com/x/y/tests/z.py; a '
            'module path solver.search.advice; a sentence ending in bots/base.py; a '
            'header by its name, dixkernel.pxi."""\n'
            'x = "solver/not_a_comment.py"   # code, not a comment\n')
    assert missing_paths(pathlib.Path("probe.py"), text) == []
    assert {p for _, p in cited_paths(pathlib.Path("probe.py"), text)} == {
        "solver/game.py", "csrc/dd/*.pyx", "docs/", "solver/games/", "bots/base.py",
        "dixkernel.pxi"}


def test_a_path_cited_in_a_commit_is_looked_up_there():
    """``git show 33078b3:bench/forced_bound.py`` cites a script removed
    after that commit: it is not in the tree but it is in the commit (where
    the clone has it; a path the commit never held is reported)."""
    text = ("# removed: `git show 33078b3:bench/forced_bound.py`, and "
            "33078b3:bench/no_such_script.py\n")
    cited = [p for _, p in cited_paths(pathlib.Path("probe.py"), text)]
    assert cited == ["33078b3:bench/forced_bound.py", "33078b3:bench/no_such_script.py"]
    if _in_commit("33078b3", "bench/no_such_script.py"):
        pytest.skip("this clone does not hold commit 33078b3")
    assert missing_paths(pathlib.Path("probe.py"), text) == [
        "probe.py:1: 33078b3:bench/no_such_script.py"]


def test_the_checker_sees_a_style_tag():
    assert style_tags(pathlib.Path("probe.py"), '"""The protocol (STYLE 1)."""\n') == [
        "probe.py:1: STYLE 1"]
    assert style_tags(pathlib.Path("probe.md"), "see the style notes\n") == []


def test_the_checker_reports_a_missing_module_path():
    text = ('"""Uses solver.api.solve, solver.dd.trick.no_such_name and bots.gone; '
            'fine: solver.dd.solve, solver.dd.trick.kernel_table, bots.advice.advise, '
            'solver.search.best_move, solver.dd._layoutdd.LayoutSolver.solve, '
            'the pattern solver._<name>."""\n')
    assert missing_modules(pathlib.Path("probe.py"), text) == [
        "probe.py:1: solver.api.solve", "probe.py:1: solver.dd.trick.no_such_name",
        "probe.py:1: bots.gone"]


# --------------------------------------------------------------------------
# comments and reference pages say what is: no rounds of an issue


def test_no_comment_cites_a_round_of_an_issue():
    code = [p for p in SOURCES if p.suffix != ".md"
            and p.relative_to(ROOT).parts[0] in CODE]
    assert len(code) > 100
    bad = [m for p in code for m in round_citations(p, p.read_text(encoding="utf-8"))]
    assert not bad, ("comments that cite a round of an issue (say the reason itself, or "
                     "cite the docs/ section that gives it):\n" + "\n".join(bad))


def test_reference_pages_name_no_round_of_an_issue():
    pages = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]
    assert ROOT / "docs" / "solver.md" in pages and ROOT / "docs" / "search.md" in pages
    bad = [m for p in pages for m in page_rounds(p, p.read_text(encoding="utf-8"))]
    assert not bad, ("a reference page names a round of an issue (the dated notes of the "
                     "rounds go to docs/history/):\n" + "\n".join(bad))


@pytest.mark.parametrize("name, text, line", [
    ("probe.py", "x = 1\n# measured in issue #40's third round\n", 2),
    ("probe.py", "# the bound (issue #18,\n# fourth round) keeps its nodes\n", 1),
    ("probe.py", 'def f():\n    """The probe (issue #26, closing round)."""\n', 2),
    ("probe.pyx", "cdef int f() noexcept nogil:\n    # round 2 of issue #7: the cut\n"
                  "    return 0\n", 2),
    ("probe.pxd", "# after the second round of issue #50\n", 1),
])
def test_the_checker_sees_a_round_cited_in_a_comment(name, text, line):
    found = round_citations(pathlib.Path(name), text)
    assert len(found) == 1 and found[0].startswith(f"{name}:{line}: "), found


def test_the_checker_lets_rounds_of_a_game_be():
    text = ("# the next round retries; a dix round's winner (issue #13)\n"
            "# void after t rounds of the suit; issue #40, after DDS\n"
            "x = 'issue #26, fourth round'   # a string in code, not a comment\n"
            '"""The first round of a match (docs/solver.md, "Under PIMC")."""\n')
    assert round_citations(pathlib.Path("probe.py"), text) == []


def test_the_checker_sees_a_round_in_a_page():
    page = ("# The solver\n\n### Issue #26, fourth round: PIMC (2026-11-26)\n\n"
            "The bound (issue #18's third\nround) holds.\n\n"
            "```sh\n# issue #1, first round\n```\n\n### The kernel\n\n"
            "Cards are void after two rounds of the suit.\n\n"
            "### The issue #6 table (2026-11-22)\n\n### Beliefs (issue #39)\n")
    assert page_rounds(pathlib.Path("probe.md"), page) == [
        "probe.md:3: ### Issue #26, fourth round: PIMC (2026-11-26)",
        "probe.md:16: ### The issue #6 table (2026-11-22)",
        "probe.md:5: issue #18's third round"]
