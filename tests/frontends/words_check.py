"""English words left where a reader asked for Arabic or French: the
checker the words tests use on the API's answers (``english_in_json``)
and on the pages a browser shows (``english_in_text``).

What is read: every string of an answer but those under the keys whose
values are codes or the project's notation (``CODE_KEYS``: actions,
positions, options, games' and bots' names, card ids...; docs/server.md,
"Languages", lists them), and the text a page shows (its visible text and
its labels for screen readers).  What is not a word of any language: card
ids (``KH``, ``R14``), the layout's rows as the game writes them
(``S:9S..AS``), links (an invitation), URL paths and HTTP header names in
an error, JSON keys quoted in one, and the proper names of ``PROPER``.

An Arabic text may hold no other Latin word.  A French text may hold no
word of the server's English (every English message id, and the common
English words of ``ENGLISH_WORDS``) that French does not use too (a word
of some French translation: ``table``, ``points``, ``options``...).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from bots.server import i18n

#: JSON keys whose values are codes or notation, not words
CODE_KEYS = frozenset({
    "action", "actions", "ranking", "position", "view", "known", "options", "bots", "bot",
    "table_bots", "default_bot", "id", "face", "mark", "game", "method", "kind", "lang",
    "dir", "table", "token", "admin_token", "link", "levels", "played", "best", "equal",
    "same", "contract", "phase", "colour", "holders", "origin", "size", "exact_kind",
    "hindsight_kind", "best_actions", "exact_best_actions", "choices",
    "default", "type", "suit", "sign", "status", "path", "reason", "database", "version",
    "limit", "limits", "cards_key", "record", "key", "show", "setup", "guided",
    # what the solver says as codes and parameters (solver/said.py), beside its words
    "fact_codes", "advice_codes", "reason_codes", "note_code", "equal_test_code",
    "objective_code"})
#: (key, code key) pairs whose values are words all the same: a game's
#: ``options`` in ``GET /v1/games`` (each one's label, help and choices in words)
WORDS_UNDER = frozenset({("games", "options")})
#: keys under which a ``name`` is a code (a game's, a level's, a contract's)
CODE_NAME_UNDER = frozenset({"games", "levels", "played", "open"})
#: keys under which a ``label`` is a code (a review's graph points: start,
#: trick N, end)
CODE_LABEL_UNDER = frozenset({"points"})
#: proper names, the same in every language
PROPER = frozenset({"dixtrix", "Dix", "DIX", "Trix", "Tricks", "Dixie", "Rook", "Ltoosh",
                    "Fred", "Blundun", "Dave", "De", "Vega", "Ayman", "Khouri", "English",
                    "Français", "JSON", "UTF"})
#: common English words (beyond the message ids) a leak would show
ENGLISH_WORDS = frozenset("""the a an of to and or is are was be by for with from this that
these those your you yours it its in on at as not no one every each any all than then
there here what which who whom when where why how play played plays deal deals seat seats
trick tricks card cards hand hand's turn turns bid bids pass score scores points point
round rounds match matches search searched advice advised unit units value values
player players team teams win wins won lost loss total totals layout stock nest
token tokens""".split())

SERVER = Path(i18n.__file__).parent
_CARD = re.compile(r"^(?:[AKQJT2-9][SHDC]|JK|CJ|[RGYB](?:1[0-4]|[1-9]))$")
_LAYOUT = re.compile(r"\b[SHDC]:(?:-|[0-9AKQJT][SHDC](?:\.\.[0-9AKQJT][SHDC])?)")
_URL = re.compile(r"https?://\S+")
_PATH = re.compile(r"(?<![\w])/[\w/{}.?=&-]*")
_QUOTED = re.compile(r"(?<![\w])'[^'\s][^']*'(?!\w)")
_HTTP = re.compile(r"\b(?:Authorization|Bearer|Content-Length|Content-Type|Accept-Language|"
                   r"GET|POST|DELETE|HTTP)\b|<[^<>]{1,40}>")
_WORD = re.compile(r"[A-Za-z0-9\u00C0-\u024F]+(?:['\u2019-][A-Za-z\u00C0-\u024F]+)*")


def _words_of(text: str) -> list[str]:
    for pattern in (_URL, _LAYOUT, _PATH, _QUOTED, _HTTP):
        text = pattern.sub(" ", text)
    out = []
    for token in _WORD.findall(text):
        if not re.search(r"[A-Za-z\u00C0-\u024F]", token) or _CARD.match(token):
            continue
        if token in PROPER or (len(token) == 1 and token not in ("a", "I")):
            continue
        out.append(token)
    return out


@cache
def _vocabularies() -> tuple[frozenset, frozenset]:
    """(English words of the server, words of its French translations)."""
    from babel.messages.pofile import read_po
    english, french = set(ENGLISH_WORDS), set()

    def words(text: str) -> set[str]:
        # a placeholder and a quoted name of the notation or of a JSON key
        # ('deal', 'seed': the errors' translations quote them) are no
        # French words, as ``_words_of`` reads them in an answer
        text = _QUOTED.sub(" ", re.sub(r"\{\w+(?:[:!][^{}]*)?\}", " ", text))
        return {w.lower() for w in _WORD.findall(text)}
    with open(SERVER / "locale" / "fr.po", "rb") as fh:
        for m in read_po(fh, locale="fr"):
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
            strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
            for i in ids:
                english |= words(str(i))
            for s in strings:
                french |= words(str(s or ""))
    return frozenset(english), frozenset(french)


def english_in_text(text: str, lang: str) -> list[str]:
    """The English words in ``text``, read as ``lang`` (``ar`` or ``fr``)."""
    found = []
    english, french = _vocabularies()
    for word in _words_of(text):
        if lang == "ar":
            found.append(word)
        elif word.lower() in english and word.lower() not in french:
            found.append(word)
    return found


def english_in_json(doc, lang: str, path: str = "") -> list[tuple[str, str, list[str]]]:
    """``(path, text, English words)`` of each string of an answer holding
    English words, read as ``lang`` (the codes of ``CODE_KEYS`` left out)."""
    out: list = []

    def walk(value, where: str, key: str):
        # key: the key this value (or the list holding it) sits under
        if isinstance(value, dict):
            for k, v in value.items():
                if k in CODE_KEYS and (key, k) not in WORDS_UNDER:
                    continue
                if k == "name" and key in CODE_NAME_UNDER:
                    continue
                if k == "label" and key in CODE_LABEL_UNDER:
                    continue
                walk(v, f"{where}.{k}", k)
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, f"{where}[{i}]", key)
        elif isinstance(value, str):
            words = english_in_text(value, lang)
            if words:
                out.append((where, value, words))
    walk(doc, path, "")
    return out


#: what a page shows, read in the browser: its visible text, its labels for
#: screen readers and titles, its title, the options of its lists (a
#: language's own name in the language list is that language's word)
PAGE_TEXT = """() => {
  const parts = [document.title, document.body.innerText];
  for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
    if (node.closest("[hidden]")) continue;
    for (const a of ["aria-label", "title", "placeholder", "alt"]) {
      if (node.getAttribute(a)) parts.push(node.getAttribute(a));
    }
  }
  for (const option of document.querySelectorAll("option")) {
    if (!option.closest("#lang")) parts.push(option.textContent);
  }
  return parts.join("\\n");
}"""


__all__ = ["english_in_text", "english_in_json", "CODE_KEYS", "PROPER", "PAGE_TEXT"]
