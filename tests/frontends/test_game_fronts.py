"""What each game declares for the front ends (``solver/front.py``,
``solver/games/*/front.py``): a game that declares nothing still gets a
working table from the defaults (its cards as written, its deals
summarised by their points, its options by their own docs), each game's
contracts have their words, and the server sends the pages what they
used to know by the game's name (the contracts' heading, where a deal set
up by hand keeps its hands)."""

from __future__ import annotations

import contextlib

import pytest

import solver
import solver.games
from bots.server import i18n, labels
from solver.front import BoardView, Front
from solver.games.dix.game import DixGame


@pytest.fixture()
def client(tmp_path):
    from starlette.testclient import TestClient

    from bots.server.app import create_app
    from bots.server.settings import Settings
    with TestClient(create_app(Settings(db=str(tmp_path / "t.db"), max_time=0.5,
                                        max_iterations=200, threads=1))) as c:
        yield c


def _play_a_deal(client, body: dict) -> dict:
    """A table of one person against random bots, played (first legal
    action) until its first deal is over."""
    t = client.post("/v1/tables", json={"bots": "random", "seats": [0], **body})
    assert t.status_code == 201, t.text
    t = t.json()
    token = t["invitations"][0]["token"]
    for _ in range(200):
        if t["summaries"]:
            return t
        r = client.post(f"/v1/tables/{t['table']}/actions",
                        headers={"Authorization": f"Bearer {token}"},
                        json={"action": t["legal"][0]["action"], "version": t["version"]})
        assert r.status_code == 200, r.text
        t = r.json()
    raise AssertionError("the first deal did not end")


def test_a_game_that_declares_nothing_gets_a_working_table(client, monkeypatch):
    monkeypatch.setattr(DixGame, "front_class", Front)
    game = solver.load_game("dix")
    said = client.get("/v1/games").json()["games"]
    dix = next(g for g in said if g["name"] == "dix")
    assert dix["title"] == "dix" and dix["description"] == game.description
    assert {k: (o["label"], o["doc"]) for k, o in dix["options"].items()} == \
        {k: (k, spec.doc) for k, spec in game.options_spec.items()}
    assert dix["setup"] == {"hands": None, "owner": None}
    assert dix["levels"]["medium"] == "rules"
    t = _play_a_deal(client, {"game": "dix", "seed": 5, "options": {"variant": "seventeen"}})
    first = t["summaries"][0]
    assert set(first) == {"deal", "points", "running", "said"}
    assert first["points"] == t["deal_scores"][0]
    assert first["said"] == {"heading": None, "rows": [], "lines": []}      # nothing more
    assert "contracts" not in t["board"] and "trick" in t["board"]
    # the cards as the notation writes them, every one drawn
    assert t["cards"] and all(c == {"id": i, "face": i, "name": i, "colour": "none"}
                              for i, c in t["cards"].items())
    # the unit as the game writes it: the bare front declares no message id
    assert t["title"] == "dix" and t["units"] == {"deal": game.round_unit}
    assert labels.unit(game, game.round_unit, i18n.Translator("fr")) == game.round_unit


def test_the_declared_front_summarises_and_names_the_cards(client):
    t = _play_a_deal(client, {"game": "dix", "seed": 5, "options": {"variant": "seventeen"}})
    first = t["summaries"][0]
    assert {"scores", "tens", "totals"} <= set(first) and t["title"] == "Dix"
    # every card in words (King of Hearts), coloured as its suit
    assert t["cards"] and all(c["name"] != i and c["colour"] in ("red", "black")
                              for i, c in t["cards"].items())
    assert set(t["units"]) == {"deal", "totals", "result"}


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_unit_of_a_deal_has_its_words(name):
    """A game's unit of a deal's result is read from its front's message id
    (``Front.round_unit``: the same English as ``Game.round_unit``), so a
    game declaring one is translated with no list kept by the server."""
    game = solver.load_game(name)
    said = game.front
    assert said.round_unit == game.round_unit
    fr = i18n.Translator("fr")
    assert labels.unit(game, game.round_unit, fr) == fr(said.round_unit) != game.round_unit
    assert labels.unit(game, game.round_unit, i18n.Translator("en")) == game.round_unit
    # another text (not this game's unit) is left as it is
    assert labels.unit(game, "widgets", fr) == "widgets"


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_contract_has_its_words(name):
    said = solver.load_game(name).front
    for contract in said.contract_list():
        assert contract in said.contracts, (name, contract)
    if said.contract_list():
        # the contracts' panel, with its heading, from the first deal on
        game = solver.load_game(name)
        known = game.new_initial_state().information_state(0).known
        view = BoardView(known, [f"Seat {s + 1}" for s in range(game.num_players)], 0)
        got = {p["id"]: p for p in said.panels(view, i18n.Translator("en"))}
        assert said.contracts_title and got["contracts"]["title"]


def test_the_pages_get_what_they_knew_by_name(client):
    """The contracts' heading (trix's kingdoms, tricks' sets) comes with the
    table; where a hand-set deal keeps its hands comes with the games."""
    games = {g["name"]: g for g in client.get("/v1/games", params={"lang": "fr"}).json()["games"]}
    for name, game in games.items():
        said = solver.load_game(name).front
        assert game["setup"]["hands"] == said.setup_hands
    assert games["trix"]["setup"]["owner"] == {"key": "first_owner", "card": "7H"}
    fr = i18n.Translator("fr")
    for name, heading in (("trix", "Kingdom: {name}"), ("tricks", "Dealer's set: {name}")):
        t = client.post("/v1/tables", params={"lang": "fr"},
                        json={"game": name, "seed": 1, "seats": [0]}).json()
        c = {p["id"]: p for p in t["board"]["panels"]}["contracts"]
        assert c["title"] == fr(heading, name=t["names"][t["known"]["chooser"]]) != heading


@pytest.mark.parametrize("name, row, line", [
    ("trix", "Tricks taken", None), ("tricks", "Tricks taken", None), ("dix", "Ten-tricks", None),
    ("dix-exchange", "Tokens won or lost", None), ("dixie-rook", None, "Teams")])
def test_a_finished_deal_is_summed_up_in_its_game_s_words(client, name, row, line):
    """The pop-up at a deal's end draws what the game words of it
    (``Front.summary_words``): rows of one number a seat, lines across the
    seats, a heading; the page names none of the games' summary fields."""
    t = _play_a_deal(client, {"game": name, "seed": 2})
    said = t["summaries"][0]["said"]
    if name in ("trix", "tricks") and t["summaries"][0].get("tricks") is None:
        row = None                      # a deal that counts no tricks (King of Hearts' end)
    assert [r["label"] for r in said["rows"]] == ([row] if row else [])
    assert all(len(r["values"]) == t["players"] and r["unit"] for r in said["rows"])
    assert [x["label"] for x in said["lines"]] == ([line] if line else [])
    if name == "dixie-rook":
        assert " bid " in said["lines"][0]["text"] and "your team \u2066" in said["lines"][0]["text"]
    if name in ("trix", "tricks"):
        assert said["heading"] == t["summaries"][0]["contract_label"]
        # a trick contract's deal: its tricks a seat
        got = solver.load_game(name).front.summary_words(
            {"contract_label": "Queens", "tricks": [1, 2, 3, 7]},
            BoardView({}, t["names"], 0), i18n.Translator("en"))
        assert got["heading"] == "Queens" and got["rows"][0]["values"] == [1, 2, 3, 7]


def _non_card_actions(game, seeds=range(12)) -> set:
    """Every action that is not a card met in random play-outs of ``game``."""
    import random
    seen = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(3000):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for a in legal:
                if not game.is_card(a):
                    seen.add(state.action_to_string(a))
            state.apply_action(legal[rng.randrange(len(legal))])
    return seen


@pytest.mark.parametrize("name", solver.registered_games())
def test_every_action_of_every_game_has_its_words(name):
    """Each action a game's play offers that is not a card is worded by the
    game's own declaration (``Front.actions``), never shown as its
    notation, and translated."""
    game = solver.load_game(name)
    en, fr = i18n.Translator("en"), i18n.Translator("fr")
    for text in sorted(_non_card_actions(game)):
        english = labels.action(game, text, False, en)
        assert english != text, (name, text)
        assert labels.action(game, text, False, fr) != english, (name, text)


@pytest.mark.parametrize("name, text, words", [
    ("trix", "contract queens", "Choose Queens"), ("trix", "reveal KH", "Double the King of Hearts"),
    ("trix", "reveal done", "No more doubles"), ("trix", "pass", "Pass"),
    ("tricks", "redeal", "Ask for a redeal"), ("tricks", "no redeal", "Keep this hand (no redeal)"),
    ("dixie-rook", "bid 85", "Bid 85"), ("dixie-rook", "trump green", "Trumps: Green"),
    ("dix-exchange", "ask", "Ask to exchange with the next player"),
    ("dix-exchange", "draw", "Draw from the stock"), ("dix", "?", "a hidden action")])
def test_an_action_reads_as_its_game_declares(name, text, words):
    assert labels.action(solver.load_game(name), text, False, i18n.Translator("en")) == words


def test_a_new_game_words_its_actions_by_declaring_them():
    """A game's verbs are its front's data: a whole text, or a verb whose
    placeholder says how the rest is worded (a card, a contract, a trump,
    a number); an action it does not declare is shown as written."""
    class BidFront(Front):
        contracts = {"nil": "Nil"}
        actions = {"bid": "Bid {n} tricks", "bid nil": "Bid nothing",
                   "claim": "Claim with the {card}", "call": "Call {contract}",
                   "name": "Name {colour} trumps"}

        def card(self, text, words):
            return {"id": text, "face": text, "name": f"card {text}", "colour": "none"}

        def trump_name(self, trump, words):
            return f"colour {trump}"

    said = BidFront(DixGame())
    en = i18n.Translator("en")
    assert said.action("bid 4", False, en) == "Bid 4 tricks"
    assert said.action("bid nil", False, en) == "Bid nothing"
    assert said.action("claim 7", False, en) == "Claim with the card 7"
    assert said.action("call nil", False, en) == "Call Nil"
    assert said.action("name X", False, en) == "Name colour X trumps"
    assert said.action("pass", False, en) == "Pass"
    assert said.action("7", True, en) == "card 7"
    assert said.action("shrug twice", False, en) == "shrug twice"
    assert said.action("bid", False, en) == "bid"          # a verb without its rest


def test_a_hint_in_dixie_rook_s_auction_says_the_highest_bid():
    """A hint's facts during dixie-rook's auction say the highest bid so
    far and its bidder (the game gives ``bid`` 0 and ``bid_winner`` -1
    until the auction ends, which the facts once said as "Bid: 0 by
    nobody"), nothing before the first bid, and the winning bid once the
    auction is won (``RookFront.deal_facts``), in English and in French."""
    from bots import advice
    from bots.server import words
    from solver import position

    def bids(state, tr=None):
        view = position.SeatView.of(state, state.current_player())
        said = advice.describe(view) if tr is None else words.facts(view, tr)
        return [line for line in said if "bid" in line.lower() or "ench" in line.lower()]

    state = solver.load_game("dixie-rook").replay([], seed=1)
    assert state.current_player() == 2 and bids(state) == []
    state.apply_action_string("bid 70")
    assert bids(state) == ["Highest bid: 70 by right"]
    assert bids(state, i18n.Translator("fr")) == ["Plus forte enchère : 70 (Droite)"]
    for _ in range(3):
        state.apply_action_string("pass")
    assert state.current_player() == 2 and bids(state) == ["Bid: 70 by you"]


def test_a_hint_says_the_lead_only_once_the_tricks_are_played():
    """Dixie-rook names the hand's leader before its auction: its hint's
    facts say no trick and no lead in the auction, the nest and the choice
    of trumps, and "Trick: you lead" at the first lead of the play, in
    English and in French.  Every game alike (the toy's auction, trix's
    and tricks' choice of a contract and trix's doubles, dix-exchange's
    exchanges): the trick is said only where the state plays tricks
    (``State.trick_number``), and there the leader to move hears that it
    leads."""
    from bots import advice
    from bots.server import words
    from solver import position

    def trick_lines(state, tr=None):
        view = position.SeatView.of(state, state.current_player())
        said = advice.describe(view) if tr is None else words.facts(view, tr)
        return [line for line in said
                if line.startswith(("Trick:", "Trick so far", "Pli :", "Pli en cours"))]

    fr = i18n.Translator("fr")
    state = solver.load_game("dixie-rook").replay([], seed=1)
    known = state.information_state(2).known
    assert state.current_player() == 2 and known["phase"] == "auction" and known["leader"] == 2
    assert trick_lines(state) == [] and trick_lines(state, fr) == []
    state.apply_action_string("bid 70")
    for _ in range(3):
        state.apply_action_string("pass")
    before = set()
    while state.information_state(0).known["phase"] != "play":
        before.add(state.information_state(0).known["phase"])
        assert trick_lines(state) == [] and trick_lines(state, fr) == []
        state.apply_action(state.legal_actions()[0])
    assert before == {"discard", "trump"}
    assert trick_lines(state) == ["Trick: you lead"]
    assert trick_lines(state, fr) == ["Pli : à vous d'entamer"]

    import random

    said: dict[str, set] = {}
    with _the_toy():                    # its auction too
        for name in solver.registered_games():
            game, rng = solver.load_game(name), random.Random(7)
            for seed in range(2):
                state = game.replay([], seed=seed)
                for _ in range(300):        # a few deals of each (a trix deal: ~60)
                    if state.is_terminal():
                        break
                    view = position.SeatView.of(state, state.current_player())
                    codes = {f.code for f in advice.facts_of(view)}
                    known, playing = view.info.known, state.trick_number() is not None
                    if not playing:
                        assert not codes & {"fact.trick", "fact.you_lead"}, (name, known)
                    elif known.get("trick") == [] and known.get("leader") == view.seat:
                        assert "fact.you_lead" in codes, (name, known)
                    said.setdefault(name, set()).update(codes & {"fact.you_lead"})
                    state.apply_action(rng.choice(state.legal_actions()))
    assert {n for n, c in said.items() if c} >= {"dix", "dixie-rook", "toy", "tricks", "trix"}


@contextlib.contextmanager
def _the_toy():
    """The toy game of tests/toygame/ registered while inside, unless it
    already was (another module's fixture), so the games the rest of the
    suite sees stay the five."""
    was = "toy" in solver.registered_games()
    solver.games.register_package("tests.toygame")
    try:
        yield
    finally:
        if not was:
            solver.games.unregister_package("tests.toygame")


def test_a_hint_says_the_trumps_in_the_game_s_words(monkeypatch):
    """A position's trumps are said in the game's words for them
    (``Front.trump_words``): the suits by default, dixie-rook's colours
    declared by its front ("Trumps: red", "Atout : rouge"); a trump the
    front has no words for is said as the game writes it."""
    from bots import advice
    from bots.server import words
    from solver import position
    from solver.front import SUIT_TRUMPS
    from solver.games.dixie_rook.front import RookFront

    assert Front.trump_words == SUIT_TRUMPS and "red" not in Front.trump_words
    assert set(RookFront.trump_words) == {"red", "green", "yellow", "black"}
    state = solver.load_game("dixie-rook").replay([], seed=1)
    while state.information_state(0).known["phase"] != "play":
        state.apply_action(state.legal_actions()[0])
    assert state.information_state(0).known["trump"] == "red"
    view = position.SeatView.of(state, state.current_player())

    def trumps(tr=None):
        said = advice.describe(view) if tr is None else words.facts(view, tr)
        return [line for line in said if line.startswith(("Trumps", "Atout"))]

    fr = i18n.Translator("fr")
    assert trumps() == ["Trumps: red"] and trumps(fr) == ["Atout : rouge"]
    monkeypatch.setattr(RookFront, "trump_words", {})
    assert trumps() == ["Trumps: red"] and trumps(fr) == ["Atout : red"]
    dix = solver.load_game("dix").replay([], seed=1)
    dix_view = position.SeatView.of(dix, dix.current_player())
    suit = dix_view.info.known["trump"]
    assert advice.describe(dix_view)[1].startswith(f"Trumps: {SUIT_TRUMPS[suit]} (turn-up ")
