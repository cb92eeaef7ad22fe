"""The server's languages: every message the code marks for translation
(the page's words, the labels of cards and actions, the games' words, a
position's facts and the advice, the server's own error messages) has an
Arabic and a French translation with the same placeholders, every plural
form too; the catalogue template is up to date with the code; a
request's language is negotiated; cards and actions come in words; a
count takes the form the catalogue's plural rule gives it, in Python and
(the same rule, evaluated by the page's own parser) in the page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from bots.server import extract, i18n, labels

SERVER = Path(i18n.__file__).parent
#: a placeholder, with its format spec where it has one ({visits:,})
PLACEHOLDER = re.compile(r"\{(\w+)(?:[:!][^{}]*)?\}")


def _keys(found) -> set:
    # a message with a context (NC_) is keyed as the catalogue keys it
    return {i18n.context_key(c, m) if isinstance(m, str) else tuple(m) for m, c in found}


def extracted_all() -> set:
    """The message ids the code marks, as the extraction command finds them
    (bots/server/extract.py): a string, or (singular, plural) for a count."""
    return _keys(extract.server_messages())


def extracted() -> set[str]:
    """The singular message ids the code marks."""
    return {m for m in extracted_all() if isinstance(m, str)}


def extracted_plurals() -> set[tuple]:
    """The (singular, plural) message ids of counts."""
    return {m for m in extracted_all() if isinstance(m, tuple)}


def test_the_code_marks_messages_of_every_kind():
    ids = extracted()
    assert {"King", "Hearts", "{rank} of {suit}", "Double the {card}", "Pass",  # labels
            "Hint", "Skip to the table", "Your turn.",                         # the page
            "this token is not a seat token of table {table}"} <= ids          # the API


@pytest.mark.parametrize("lang", ["ar", "fr"])
def test_every_marked_message_is_translated_with_its_placeholders(lang):
    messages = i18n.catalogue(lang)
    missing = sorted(extracted() - set(messages))
    assert not missing, f"{lang}: untranslated {missing[:10]}"
    for msgid, text in messages.items():
        assert set(PLACEHOLDER.findall(msgid)) == set(PLACEHOLDER.findall(text)), (msgid, text)
    # a count: every form of the language, each with the message's placeholders
    # ({n} may be left out where the form says the number in words: ورقتان)
    forms = i18n.plurals(lang)
    _, count = i18n.plural_rule(lang)
    for singular, plural in extracted_plurals():
        got = forms.get(singular)
        assert got and len(got) == count and all(got), (lang, singular, got)
        wanted = set(PLACEHOLDER.findall(plural))
        for form in got:
            assert wanted - {"n"} <= set(PLACEHOLDER.findall(form)) <= wanted, (singular, form)


def test_the_template_is_up_to_date():
    from babel.messages.pofile import read_po
    with open(SERVER / "locale" / "messages.pot", "rb") as fh:
        template = {i18n.context_key(m.context, m.id) if isinstance(m.id, str) else tuple(m.id)
                    for m in read_po(fh) if m.id}
    assert template == extracted_all()


def test_counts_take_the_plural_forms_of_the_catalogue():
    """Issue #41: "5 ورقة" where Arabic says "5 أوراق"."""
    ar, fr, en = i18n.Translator("ar"), i18n.Translator("fr"), i18n.Translator("en")
    said = [ar.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2, 5, 11, 100)]
    assert said == ["لا أوراق", "ورقة واحدة", "ورقتان", "5 أوراق", "11 ورقة", "100 ورقة"]
    assert [fr.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == \
        ["0 carte", "1 carte", "2 cartes"]
    assert [en.ngettext("{n} card", "{n} cards", n) for n in (0, 1, 2)] == \
        ["0 cards", "1 card", "2 cards"]
    # the rule as the catalogue states it, the same numbers as gettext's own
    import gettext
    for lang in ("ar", "fr", "en"):
        expr, count = i18n.plural_rule(lang)
        fn = gettext.c2py(expr)
        assert all(0 <= i18n.plural_index(lang, n) == fn(n) < count for n in range(0, 1000))


def test_a_signed_number_in_arabic_has_a_left_to_right_mark():
    """In an Arabic sentence a sign before a number is drawn on the number's
    left only after a left-to-right mark (U+200E): a dix deal's unit said
    "0.5+" for a tie-break win of +0.5.  (Numbers alone, in the page's
    cells, are isolated left to right by the page: style.css ``.num``.)"""
    from babel.messages.pofile import read_po
    with open(SERVER / "locale" / "ar.po", "rb") as fh:
        catalogue = read_po(fh, locale="ar")
    bare = []
    for m in catalogue:
        for text in m.string if isinstance(m.string, (tuple, list)) else (m.string,):
            if text and re.search(r"(?<![\u200e\u2066\w])[+\-\u2212]\d", text):
                bare.append(text)
    assert not bare, bare


def test_the_language_is_negotiated():
    assert i18n.negotiate("fr", "ar") == "fr"
    assert i18n.negotiate(None, "ar-LB,ar;q=0.9,en;q=0.8") == "ar"
    assert i18n.negotiate(None, "de-DE,fr;q=0.7,en;q=0.5") == "fr"
    assert i18n.negotiate(None, "en;q=0.3, ar;q=0.6") == "ar"
    assert i18n.negotiate("xx", None) == "en" and i18n.negotiate(None, "") == "en"
    assert i18n.negotiate(None, ";;,q=,x" * 200) == "en"


def test_cards_and_actions_in_words():
    en, fr, ar = i18n.Translator("en"), i18n.Translator("fr"), i18n.Translator("ar")
    assert labels.card("trix", "KH", en) == {"id": "KH", "face": "K\u2665",
                                            "name": "King of Hearts", "colour": "red"}
    assert labels.card("dix", "TC", fr)["name"] == "Dix de trèfle"
    assert labels.card("dix", "TC", fr)["face"] == "10\u2663"
    assert labels.card("trix", "QS", ar)["name"] == "بنت بستوني"
    assert labels.card("dix-exchange", "9", fr)["name"] == "Loup"
    assert labels.card("dix-exchange", "CJ", fr)["name"] == "Chat-joker"
    assert labels.card("dixie-rook", "R14", en)["name"] == "Red 14"
    assert labels.action("trix", "reveal KH", False, en) == "Double the King of Hearts"
    assert labels.action("trix", "reveal KH", False, ar) == "دبّل شايب كبة"
    assert labels.action("trix", "contract kinghearts", False, ar) == "اختر شايب الكبة"
    assert labels.action("trix", "pass", False, ar) == "باس"
    assert labels.action("dixie-rook", "bid 85", False, en) == "Bid 85"
    assert labels.action("dixie-rook", "trump red", False, fr) == "Atout : Rouge"
    assert labels.action("dix-exchange", "block 9", False, fr) == "Bloquer avec : Loup"
    assert labels.action("tricks", "no redeal", False, en) == "Keep this hand (no redeal)"


def test_error_messages_come_in_the_request_language(tmp_path):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        t = client.post("/v1/tables", json={"game": "dix", "seed": 1}).json()
        r = client.post(f"/v1/tables/{t['table']}/actions", json={"action": "QS", "version": 0},
                        params={"lang": "fr"})
        assert r.status_code == 401 and "jeton" in r.json()["error"]
        r = client.post(f"/v1/tables/{t['table']}/actions", json={"action": "QS", "version": 0},
                        headers={"Accept-Language": "ar"})
        assert r.status_code == 401 and "مفتاح" in r.json()["error"]
        r = client.post("/v1/tables", json={"game": "dix", "seed": "x"},
                        headers={"Accept-Language": "fr"})
        assert r.status_code == 422 and r.json()["path"] == "seed"
        assert "un entier" in r.json()["error"]
        fr = client.get("/v1/games", params={"lang": "fr"}).json()
        assert [lv["label"] for lv in fr["levels"]] == ["Facile", "Moyen", "Difficile",
                                                       "Expert"]
        ar = client.get("/v1/i18n/ar").json()
        assert ar["dir"] == "rtl" and ar["messages"]["Hint"] == "نصيحة"
        assert client.get("/v1/i18n/de").status_code == 404
        view = client.get(f"/v1/tables/{t['table']}", params={"lang": "ar"}).json()
        assert view["dir"] == "rtl" and view["names"][0] == "المقعد 1"


def test_the_game_list_names_every_game_in_the_reader_s_script(tmp_path):
    """Arabic writes every game's title as the Arabic catalogue does (Dixie
    Rook too, not its English words beside التركس); Dix and DIX, the
    authors' own names, are the same in every language."""
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        titles = {lang: {g["name"]: g["title"] for g in
                         client.get("/v1/games", params={"lang": lang}).json()["games"]}
                  for lang in ("en", "ar")}
        assert titles["en"]["dixie-rook"] == "Dixie Rook"
        assert titles["ar"]["dixie-rook"] == "ديكسي روك"
        assert titles["ar"]["trix"] == "التركس"
        assert titles["ar"]["dix"] == "Dix" and titles["ar"]["dix-exchange"] == "DIX"
        # a title has its own context: French names the contract Tricks Plis,
        # never the game
        fr = {g["name"]: g["title"] for g in
              client.get("/v1/games", params={"lang": "fr"}).json()["games"]}
        assert fr["tricks"] == "Tricks" and i18n.Translator("fr")("Tricks") == "Plis"
        t = client.post("/v1/tables", json={"game": "dixie-rook", "seed": 1}).json()
        view = client.get(f"/v1/tables/{t['table']}", params={"lang": "ar"}).json()
        assert view["title"] == "ديكسي روك"


@pytest.fixture
def word_game(tmp_path, monkeypatch):
    """A game package from outside with its own words: a message marked in
    a module that is not its ``front.py`` (the extraction reads the whole
    package), and a French catalogue in its ``locale/``; registered for the
    test, then forgotten."""
    from solver.games import register_package, unregister_package
    package = tmp_path / "wordsgame_pkg"
    (package / "locale").mkdir(parents=True)
    (package / "__init__.py").write_text("from . import rules\n")
    (package / "rules.py").write_text(
        "from solver.front import N_\n\nWORDS = N_(\"Toy words: {n}\")\n")
    (package / "locale" / "fr.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        '#, python-brace-format\nmsgid "Toy words: {n}"\nmsgstr "Mots du jouet : {n}"\n\n'
        'msgid "Hint"\nmsgstr "not the server\'s"\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    register_package("wordsgame_pkg")
    yield package
    unregister_package("wordsgame_pkg")
    # the next test's package of this name lies in its own folder
    for name in [m for m in sys.modules if m.split(".")[0] == "wordsgame_pkg"]:
        del sys.modules[name]


def test_a_game_package_brings_its_own_catalogue(word_game):
    """The server loads a registered game package's ``locale/<lang>.po``
    beside its own: the game's words are translated, the server's own
    stay the server's, and a package forgotten takes its words with it."""
    assert i18n.package_locale("wordsgame_pkg") == word_game / "locale"
    assert i18n.sources("fr")[-1] == word_game / "locale" / "fr.po"
    fr = i18n.Translator("fr")
    assert fr("Toy words: {n}", n=3) == "Mots du jouet : 3"
    assert fr("Hint") == "Conseil"
    assert "Toy words: {n}" not in i18n.catalogue("ar")
    from solver.games import unregister_package
    unregister_package("wordsgame_pkg")
    try:
        assert i18n.Translator("fr")("Toy words: {n}", n=3) == "Toy words: 3"
    finally:
        from solver.games import register_package
        register_package("wordsgame_pkg")


def test_the_extraction_reads_every_registered_game_package(word_game, tmp_path,
                                                            monkeypatch):
    """The extraction command (bots/server/extract.py) reads every
    registered package, not only the games' ``front.py``: an outside
    game's words go to the template in its own ``locale/``, a built-in
    game's to the server's."""
    assert extract.game_messages("wordsgame_pkg") == [("Toy words: {n}", None)]
    assert ("Toy words: {n}", None) not in extract.server_messages()
    out = tmp_path / "server.pot"
    assert extract.main(["--package", "wordsgame_pkg", "--output", str(out)]) == 0
    from babel.messages.pofile import read_po
    with open(word_game / "locale" / "messages.pot", "rb") as fh:
        assert [m.id for m in read_po(fh) if m.id] == ["Toy words: {n}"]
    with open(out, "rb") as fh:
        assert _keys((m.id, m.context) for m in read_po(fh) if m.id) == extracted_all()
    # a package the registry counts as built in is read into the server's
    monkeypatch.setattr(extract, "is_built_in", lambda package: True)
    assert ("Toy words: {n}", None) in extract.server_messages()


#: what each refusal below says, as its code and some words of it in each
#: language (none of them English: the whole sentence is the catalogue's)
CODED = {
    "unknown_card_at": {"fr": "carte inconnue", "ar": "ورقة غير معروفة", "en": "unknown card"},
    "duplicate_card": {"fr": "carte en double", "ar": "ورقة مكررة", "en": "duplicate card"},
    "unknown_option": {"fr": "option inconnue", "ar": "خيار غير معروف", "en": "unknown option"},
    "illegal_action": {"fr": "action interdite", "ar": "حركة غير مسموحة",
                       "en": "illegal action"},
}


def _bad_positions() -> dict:
    """A dix record with, by the code its refusal carries: an unknown card
    in a hand, a card given twice, an unknown option, and a first action
    that is a card the dealer does not hold."""
    import copy

    import solver
    from solver import position
    state = solver.load_game("dix").new_initial_state(seed=1)
    good = position.to_json(state)
    hands = good["deal"]["rounds"][0]["hands"]
    unknown, twice, option, illegal = (copy.deepcopy(good) for _ in range(4))
    unknown["deal"]["rounds"][0]["hands"][0] = "XX " + " ".join(hands[0].split()[1:])
    twice["deal"]["rounds"][0]["hands"][1] = hands[0].split()[0] + " " + \
        " ".join(hands[1].split()[1:])
    option["options"] = {"bogus": 1}
    illegal["actions"] = [hands[1].split()[0]]         # seat 0 leads; the card is seat 1's
    return {"unknown_card_at": unknown, "duplicate_card": twice, "unknown_option": option,
            "illegal_action": illegal}


@pytest.mark.parametrize("lang", ["fr", "ar", "en"])
def test_a_solver_error_comes_in_the_request_language_with_its_code_and_data(tmp_path, lang):
    """A position the solver refuses (unknown card, duplicate card, unknown
    option, illegal action) is answered in the request's language, the
    whole sentence from the catalogue (the rules' reason of the illegal
    action too), with the error's code and its parameters as data."""
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    bad = _bad_positions()
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        got = {code: client.post("/v1/hint", json={"position": doc},
                                 headers={"Accept-Language": lang}).json()
               for code, doc in bad.items()}
    for code, body in got.items():
        assert body["code"] == code and body["status"] == 422, body
        assert CODED[code][lang] in body["error"], body
    assert got["unknown_card_at"]["data"] == {"token": "XX", "at": 0, "deck": "dix"}
    assert got["unknown_card_at"]["path"] == "position.deal.rounds[0].hands[0][0]"
    card = got["duplicate_card"]["data"]["card"]
    assert got["duplicate_card"]["data"]["paths"] == [
        "position.deal.rounds[0].hands[0][0]", "position.deal.rounds[0].hands[1][0]"]
    assert got["unknown_option"]["data"]["option"] == "bogus"
    assert got["unknown_option"]["data"]["game"] == "dix"
    illegal = got["illegal_action"]["data"]
    assert illegal["reason"]["code"] == "not_held"
    assert illegal["reason"]["params"] == {"seat": 0, "card": illegal["action"]}
    if lang == "en":
        assert card in got["duplicate_card"]["error"]
        return
    # the reason is worded too, and no English sentence is left in any answer
    held = {"fr": "n'a pas", "ar": "لا يملك"}[lang]
    assert held in got["illegal_action"]["error"]
    for body in got.values():
        for words in ("unknown", "duplicate", "illegal", "does not hold"):
            assert words not in body["error"], body


def test_an_illegal_move_at_a_table_is_refused_in_the_request_language(tmp_path):
    """A seat's move the rules refuse at a table: its error and its reason
    in the reader's language, coded."""
    from starlette.testclient import TestClient

    import solver
    from bots.server.app import create_app
    from bots.server.settings import Settings
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db")))) as client:
        t = client.post("/v1/tables", json={"game": "dix", "seed": 1, "seats": [0, 1]}).json()
        tokens = {inv["seat"]: inv["token"] for inv in t["invitations"]}
        state = solver.load_game("dix").new_initial_state(seed=1)
        seat = state.current_player()
        other = next(c for c in solver.cards.DIX.cards if (state.hands[1 - seat] >> c) & 1)
        card = state.action_to_string(other)
        r = client.post(f"/v1/tables/{t['table']}/actions", json={"action": card, "version": 0},
                        headers={"Authorization": f"Bearer {tokens[seat]}"},
                        params={"lang": "fr"})
        body = r.json()
        assert r.status_code == 422 and body["code"] == "illegal_action", body
        assert body["error"] == f"action interdite '{card}' : la place {seat} n'a pas {card}"
        assert body["data"]["reason"] == {"code": "not_held",
                                          "params": {"seat": seat, "card": card}}
        assert body["reason"] == f"la place {seat} n'a pas {card}"
