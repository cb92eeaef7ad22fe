"""The server's languages: English (the message ids), Arabic and French.

Every string a person reads -- the page's words (``static/app.js`` calls
``t("...")``), the labels of cards and actions (``labels.py``) and the
API's own error messages (``errors.RequestError``) -- is an English
message id marked for extraction (``_`` / ``N_`` in Python, ``t`` in the
page) and translated through a gettext catalogue per language,
``locale/<lang>.po``, kept with Babel:

    pybabel extract -F bots/server/babel.cfg -k N_ -k tr -k t -k RequestError \
        -k Unauthorized -k Forbidden -k TableNotFound --no-location \
        -o bots/server/locale/messages.pot bots/server
    pybabel update -i bots/server/locale/messages.pot -l fr -o bots/server/locale/fr.po
    pybabel update -i bots/server/locale/messages.pot -l ar -o bots/server/locale/ar.po

The catalogues are read with Babel when the server starts (no compile
step); ``tests/frontends/test_server_i18n.py`` checks that every message
the code marks has a translation in each catalogue, with the same
``{placeholders}``.  The solver's own error messages (a bad position, an
illegal action's reason) stay English.

A request's language is ``?lang=ar|fr|en`` when given, else the best
match of its ``Accept-Language`` header, else English.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

#: the languages, English first (the message ids)
LANGS = ("en", "ar", "fr")
#: languages written right to left
RTL = frozenset({"ar"})
LOCALE = Path(__file__).parent / "locale"

_catalogues: dict[str, dict[str, str]] = {}
_lock = threading.Lock()


def N_(message: str) -> str:
    """Marks a message id for extraction where it is translated later."""
    return message


def catalogue(lang: str) -> dict[str, str]:
    """``{message id: translation}`` of ``lang`` (empty for English); read
    once from ``locale/<lang>.po`` with Babel."""
    if lang == "en" or lang not in LANGS:
        return {}
    with _lock:
        got = _catalogues.get(lang)
        if got is None:
            from babel.messages.pofile import read_po
            with open(LOCALE / f"{lang}.po", "rb") as fh:
                cat = read_po(fh, locale=lang)
            # singular messages only (the catalogues have no plural forms)
            got = {m.id: m.string for m in cat if m.id and isinstance(m.id, str)
                   and m.string and isinstance(m.string, str) and not m.fuzzy}
            _catalogues[lang] = got
        return got


class Translator:
    """``tr("Bid {n}", n=85)``: the message in ``lang``, its placeholders
    filled (an untranslated message stays English)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang if lang in LANGS else "en"
        self.messages = catalogue(self.lang)

    def __call__(self, message: str, **params) -> str:
        text = self.messages.get(message, message)
        if params:
            try:
                return text.format(**params)
            except (KeyError, IndexError, ValueError):
                return message.format(**params)
        return text

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
    from html.parser import HTMLParser

    found = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            for name, value in attrs:
                if name == "data-t" and value:
                    found.append((self.getpos()[0], value))

    Parser().feed(fileobj.read().decode("utf-8"))
    for lineno, message in found:
        yield lineno, "t", message, []


__all__ = ["LANGS", "RTL", "N_", "Translator", "catalogue", "negotiate", "extract_html"]
