"""The server's languages: English (the message ids), Arabic and French.

Every string a person reads -- the page's words (``static/app.js`` calls
``t("...")``), the labels of cards and actions (``labels.py``), the games'
cards, contracts, options and units (each game's ``Game.front``,
``solver/front.py`` and ``solver/games/*/front.py``), a position's facts and the advice
(``bots/advice.py``), the search's reasons and notes and the solver's
errors (``solver.said``'s phrases, ``solver.errors``) and the API's own
error messages (``errors.RequestError``) -- is an English message id marked for
extraction (``_`` / ``N_`` / ``tr`` in Python, ``t`` in the page) and
translated through a gettext catalogue per language, ``locale/<lang>.po``,
kept with Babel: ``python -m bots.server.extract`` writes the template
of every marked message of the server and of every registered built-in
game's package (``bots/server/extract.py``), then

    pybabel update -N -i bots/server/locale/messages.pot -l fr -o bots/server/locale/fr.po
    pybabel update -N -i bots/server/locale/messages.pot -l ar -o bots/server/locale/ar.po

A game package from outside may ship its own ``locale/`` (its
``messages.pot``, written by the same command, and ``<lang>.po``): the
catalogue of a language is the server's, with the messages of each
registered package's ``locale/<lang>.po`` that the server's lacks.

A count is said through the catalogue's plural forms (its
``Plural-Forms`` header: Arabic has six, French two): ``tr.ngettext("{n}
card", "{n} cards", n)`` in Python, ``tn("{n} card", "{n} cards", n)``
in the page, which gets the forms and the header's rule with the
catalogue (``GET /v1/i18n/<lang>``) and evaluates the rule itself.

The catalogues are read with Babel when the server starts (no compile
step); ``tests/frontends/test_server_i18n.py`` checks that every message
the code marks has a translation in each catalogue (every plural form
too), with the same ``{placeholders}``, and
``tests/frontends/test_server_words.py`` that no English word is left in
an Arabic or French answer or page.  The solver's errors (a bad position,
an unknown card or option, an illegal action and the rules' reason) are
phrases too (``solver.errors``): an answer words them in its language,
with their ``code`` and ``data``; one the solver still raises as English
stays English.

A request's language is ``?lang=ar|fr|en`` when given, else the best
match of its ``Accept-Language`` header, else English.
"""

from __future__ import annotations

import gettext
import re
import sys
import threading
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path

from solver import registered_packages

# the marker of a message id translated later: the solver's, which marks
# the games' words (re-exported: the server's modules mark theirs with it)
from solver.front import N_

#: the languages, English first (the message ids)
LANGS = ("en", "ar", "fr")
#: languages written right to left
RTL = frozenset({"ar"})
LOCALE = Path(__file__).parent / "locale"

#: English's plural rule (gettext's, as a catalogue header states it)
ENGLISH_PLURAL = "(n != 1)"

_catalogues: dict[tuple[str, tuple[Path, ...]], dict[str, str]] = {}
_plurals: dict[tuple[str, tuple[Path, ...]], dict[str, list[str]]] = {}
_rules: dict[tuple[str, tuple[Path, ...]], tuple[str, int]] = {}
_lock = threading.Lock()


def context_key(context: str | None, message: str) -> str:
    """A message's key in a catalogue: its id, after its context and
    gettext's separator (EOT) when it has one (``NC_``)."""
    return f"{context}\x04{message}" if context else message


def package_locale(package: str) -> Path | None:
    """The ``locale/`` folder of an imported game package, None without one."""
    module = sys.modules.get(package)
    if module is None or not getattr(module, "__file__", None):
        return None
    folder = Path(module.__file__ or "").resolve().parent / "locale"
    return folder if folder.is_dir() else None


def sources(lang: str) -> tuple[Path, ...]:
    """The catalogues of ``lang``: the server's, then each registered game
    package's own (``<package>/locale/<lang>.po``) in registration order."""
    found = [LOCALE / f"{lang}.po"]
    for package in registered_packages():
        folder = package_locale(package)
        if folder is not None and (folder / f"{lang}.po").is_file():
            found.append(folder / f"{lang}.po")
    return tuple(found)


def catalogue(lang: str) -> dict[str, str]:
    """``{message id: translation}`` of ``lang`` (empty for English); read
    with Babel from ``sources(lang)`` once for each set of registered
    packages."""
    if lang == "en" or lang not in LANGS:
        return {}
    return _catalogues[_load(lang)]


def plurals(lang: str) -> dict[str, list[str]]:
    """``{singular message id: [its forms]}`` of ``lang``'s messages with
    plural forms (empty for English: the ids are its two forms)."""
    if lang == "en" or lang not in LANGS:
        return {}
    return _plurals[_load(lang)]


def plural_rule(lang: str) -> tuple[str, int]:
    """The expression of ``lang``'s ``Plural-Forms`` header (C syntax, in
    ``n``) and its number of forms (the server's catalogue's)."""
    if lang == "en" or lang not in LANGS:
        return ENGLISH_PLURAL, 2
    return _rules[_load(lang)]


def _load(lang: str) -> tuple[str, tuple[Path, ...]]:
    key = (lang, sources(lang))
    with _lock:
        if key in _catalogues:
            return key
        # Babel (the optional [server] extra) is needed only to read a catalogue
        from babel.messages.pofile import read_po
        single: dict[str, str] = {}
        forms: dict[str, list[str]] = {}
        rule = (ENGLISH_PLURAL, 2)
        for path in key[1]:
            with open(path, "rb") as fh:
                cat = read_po(fh, locale=lang)
            # the server's words first (its plural rule the language's): a
            # game adds the messages the server's lack
            if path == key[1][0]:
                rule = (cat.plural_expr, cat.num_plurals)
            for m in cat:
                if not m.id or m.fuzzy:
                    continue
                if isinstance(m.id, str):
                    if m.string and isinstance(m.string, str):
                        single.setdefault(context_key(m.context, m.id), m.string)
                elif isinstance(m.string, (tuple, list)) and all(m.string):
                    forms.setdefault(m.id[0], list(m.string))
        _plurals[key] = forms
        _rules[key] = rule
        _catalogues[key] = single
        return key


_rule_functions: dict[str, Callable[[int], int]] = {}


def plural_index(lang: str, n: int) -> int:
    """Which of ``lang``'s plural forms a count of ``n`` takes (the
    catalogue's rule, compiled by the standard library's gettext)."""
    expr, _ = plural_rule(lang)
    fn = _rule_functions.get(expr)
    if fn is None:
        fn = _rule_functions.setdefault(expr, gettext.c2py(expr))
    return int(fn(abs(int(n))))


class Translator:
    """``tr("Bid {n}", n=85)``: the message in ``lang``, its placeholders
    filled (an untranslated message stays English)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang if lang in LANGS else "en"
        self.messages = catalogue(self.lang)

    def __call__(self, message: str, msgctxt: str | None = None, **params) -> str:
        text = self.messages.get(context_key(msgctxt, message), message)
        if params:
            try:
                return text.format(**params)
            except (KeyError, IndexError, ValueError):
                return message.format(**params)
        return text

    def ngettext(self, singular: str, plural: str, n: int, **params) -> str:
        """A count in words: the form of ``lang``'s plural rule for ``n``
        (English: ``singular`` for 1, else ``plural``), its placeholders
        filled, ``{n}`` with ``n``."""
        forms = plurals(self.lang).get(singular)
        index = plural_index(self.lang, n)
        english = singular if plural_index("en", n) == 0 else plural
        text = forms[index] if forms and index < len(forms) else english
        try:
            return text.format(n=n, **params)
        except (KeyError, IndexError, ValueError):
            return english.format(n=n, **params)

    @property
    def rtl(self) -> bool:
        return self.lang in RTL


_ACCEPT = re.compile(r"\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]{1,5}))?\s*")


def negotiate(query: str | None, accept_language: str | None) -> str:
    """The language of a request: ``query`` (``?lang=``) when it is one of
    ``LANGS``, else the first of ``LANGS`` in ``Accept-Language`` by its
    weights, else English."""
    if query in LANGS:
        return query
    best, weight = "en", 0.0
    for i, part in enumerate((accept_language or "")[:500].split(",")[:20]):
        m = _ACCEPT.fullmatch(part)
        if not m:
            continue
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        lang = m.group(1).lower()
        # the earlier of two equal weights wins (a tiny tie-break by position)
        q -= i * 1e-6
        if lang in LANGS and q > weight:
            best, weight = lang, q
    return best




def extract_html(fileobj, keywords, comment_tags, options):
    """A Babel extraction method for the page's HTML: the text of every
    element with a ``data-t`` attribute (``babel.cfg``: ``[bots.server.i18n:extract_html:
    **.html]``) -- the page translates these on load."""

    found = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            for name, value in attrs:
                if name == "data-t" and value:
                    found.append((self.getpos()[0], value))

    Parser().feed(fileobj.read().decode("utf-8"))
    for lineno, message in found:
        yield lineno, "t", message, []


__all__ = ["LANGS", "RTL", "N_", "Translator", "catalogue", "sources", "package_locale",
           "plurals", "plural_rule",
           "plural_index", "negotiate", "extract_html"]
