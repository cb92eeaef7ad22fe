"""The extraction of the server's message ids into gettext templates:

    python -m bots.server.extract [--package mygames.hearts ...]

writes ``bots/server/locale/messages.pot``, the server's template: every
message marked in the server (``bots/server``: Python, the page's
JavaScript and HTML), the advice (``bots/advice.py``), the bots' errors
(every module of ``bots/`` and ``bots/ladder/``: the settings', the
engine's, the command line's, the ladder's...), the whole solver
(``solver/``: the games' common words, the search's phrases, every
error's template: ``solver.said``, ``solver.errors``) and the whole
package of every registered built-in game
(``solver.games.registered_packages``).
A game registered from outside (``--package``, imported and registered
as ``solver.games.register_package`` does) keeps its words in its own
package: where the package has a ``locale/`` folder, its messages go to
``<package>/locale/messages.pot``, and the server loads its
``<package>/locale/<lang>.po`` beside its own catalogue (``i18n``).
Each template is then merged into its languages' catalogues with
``pybabel update -N -i .../messages.pot -l fr -o .../fr.po`` (ar too).
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from solver import register_package, registered_packages
from solver.errors import codes_table

#: the keywords that mark a message id (Babel's notation: ``NC_``'s
#: first argument is the context, ``NP_``/``ngettext``/``tn`` take a
#: singular and a plural)
KEYWORDS = {"N_": None, "NC_": ((1, "c"), 2), "NP_": (1, 2), "tr": None, "t": None,
            "ngettext": (1, 2), "tn": (1, 2), "RequestError": None, "Unauthorized": None,
            "Forbidden": None, "TableNotFound": None}
#: the keywords of a game's package: the page's (``t``, ``tn``) and the
#: server's errors are not a game's, and a game's own ``t`` is no message
GAME_KEYWORDS = {k: KEYWORDS[k] for k in ("N_", "NC_", "NP_", "tr", "ngettext")}
SERVER = Path(__file__).resolve().parent
ROOT = SERVER.parents[1]
#: what the server says besides the games' packages
SOURCES = (SERVER, ROOT / "bots" / "advice.py", ROOT / "bots" / "base.py",
           ROOT / "bots" / "registry.py")
#: the rest of the bots (their errors' phrases), read with a game's
#: keywords: outside the server no ``t`` is the page's
BOTS = tuple(p for folder in (ROOT / "bots", ROOT / "bots" / "ladder")
             for p in sorted(folder.glob("*.py")) if p not in SOURCES)
#: the solver, read whole with a game's keywords: its games' words, its
#: phrases (the search's reasons and notes) and its errors' templates
#: (solver/errors.py)
SOLVER = ROOT / "solver"
#: the prefix of the built-in games' packages, whose words are the server's
BUILT_IN = "solver.games."


def package_dir(package: str) -> Path:
    """The folder of an imported package."""
    return Path(sys.modules[package].__file__ or "").resolve().parent


def is_built_in(package: str) -> bool:
    return package.startswith(BUILT_IN)


def _method_map():
    with open(SERVER / "babel.cfg") as fh:
        return parse_mapping_cfg(fh)


def messages(paths: Iterable[Path], keywords: dict | None = None
             ) -> list[tuple[str | tuple[str, ...], str | None]]:
    """Every message of ``paths`` marked by ``keywords`` (default
    ``KEYWORDS``; folders by ``babel.cfg``'s mapping, files as Python), in
    the order found: ``(message, context)``, the message a string or
    ``(singular, plural)`` for a count."""
    keywords = KEYWORDS if keywords is None else keywords
    method_map, options_map = _method_map()
    found: list[tuple[str | tuple[str, ...], str | None]] = []
    for path in paths:
        if path.is_dir():
            for _, _, message, _, context in extract_from_dir(
                    str(path), method_map, options_map, keywords=keywords):
                found.append((message, context))
        else:
            for _, message, _, context in extract_from_file("python", str(path),
                                                           keywords=keywords):
                found.append((message, context))
    return [(m, c) for m, c in found if m]


def error_codes() -> str:
    """docs/errors.md: the codes of every error and reason the solver and
    the bots declare (``solver.errors.codes_table``, once the modules that
    declare them are imported: the search's and every module of ``bots/``
    that declares a phrase, so the table does not depend on what the
    process happened to import before)."""
    import solver.search  # noqa: F401  - the search's
    for module in phrase_modules():
        importlib.import_module(module)
    return codes_table()


def phrase_modules() -> list[str]:
    """The modules of ``bots/`` whose source declares a phrase (a line
    ``NAME = phrase(...``, as every declaration is written)."""
    bots = ROOT / "bots"
    declares = re.compile(r"^[A-Z_0-9]+ = phrase\(", re.M)
    return [".".join(p.relative_to(ROOT).with_suffix("").parts)
            for p in sorted(bots.rglob("*.py")) if declares.search(p.read_text())]


def server_messages() -> list[tuple[str | tuple[str, ...], str | None]]:
    """The server's messages: its sources' and every registered built-in
    game's package's."""
    games = [package_dir(p) for p in registered_packages()
             if is_built_in(p) and not package_dir(p).is_relative_to(SOLVER)]
    return (messages(SOURCES) + messages(BOTS, GAME_KEYWORDS)
            + messages([SOLVER, *games], GAME_KEYWORDS))


def game_messages(package: str) -> list[tuple[str | tuple[str, ...], str | None]]:
    """The messages of an outside game's package (its own catalogue's)."""
    return messages([package_dir(package)], GAME_KEYWORDS)


def template(found: Iterable[tuple[str | tuple[str, ...], str | None]],
             before: Path | None = None):
    """A Babel catalogue template of the messages ``found``, those already
    in the template ``before`` in its order (a new message after them: an
    update's diff shows only what changed)."""
    found = list(found)
    kept: dict = {}
    if before is not None and before.is_file():
        with open(before, "rb") as fh:
            kept = {(m.id, m.context): m for m in read_po(fh) if m.id}
        rank = {key: i for i, key in enumerate(kept)}
        found.sort(key=lambda mc: rank.get(mc, len(rank)))
    catalog = Catalog()
    for message, context in found:
        flags = ("python-brace-format",) if "{" in "".join(
            message if isinstance(message, tuple) else (message,)) else ()
        old = kept.get((message, context))
        # a translator's note written in the template stays with its message
        catalog.add(message, context=context, flags=flags,
                    user_comments=old.user_comments if old is not None else ())
    return catalog


def write(catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        write_po(fh, catalog, omit_header=False, no_location=True, width=76)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bots.server.extract",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", action="append", default=[],
                        help="a game package to register first (a full module name)")
    parser.add_argument("--output", type=Path, default=SERVER / "locale" / "messages.pot",
                        help="the server's template (default: %(default)s)")
    parser.add_argument("--codes", type=Path, default=None,
                        help="also write the table of the errors' codes there "
                             "(docs/errors.md)")
    args = parser.parse_args(argv)
    for package in args.package:
        register_package(package)
    if args.codes is not None:
        args.codes.write_text(error_codes())
        print(args.codes)
    pot = args.output
    write(template(server_messages(), pot), pot)
    print(pot)
    for package in registered_packages():
        locale = package_dir(package) / "locale"
        if not is_built_in(package) and locale.is_dir():
            write(template(game_messages(package), locale / "messages.pot"),
                  locale / "messages.pot")
            print(locale / "messages.pot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
