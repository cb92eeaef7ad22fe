"""Dixie Rook (RULINGS "dixie-rook"): scripted hands scored by hand, the
auction and its bad inputs, the nest, the seeded tie cut, seat views."""

import random

import pytest

import solver
from solver import position
from solver.cards import ROOK
from solver.errors import IllegalActionError, NotationError, PositionError
from solver.games.dixie_rook import card_count

# Two colours each; first dealer 3, so seat 0 bids first and leads trick 1.
# Count: R5 G5 (seat 0), R10 R13 G10 (seat 1), Y5 B5 (seat 2), Y10 Y13 B10
# (seat 3), G13 B13 (nest): 100 in all.
DEAL = {"first_dealer": 3, "deals": [{
    "hands": ["R1 R2 R3 R4 R5 R6 R7 G1 G2 G3 G4 G5 G6",
              "R8 R9 R10 R11 R12 R13 R14 G7 G8 G9 G10 G11 G12",
              "Y1 Y2 Y3 Y4 Y5 Y6 Y7 B1 B2 B3 B4 B5 B6",
              "Y8 Y9 Y10 Y11 Y12 Y13 Y14 B7 B8 B9 B10 B11 B12"],
    "nest": "G13 G14 B13 B14"}]}

# Seat 1 wins at 70, buries four blanks, red trumps; team 1 takes 11 tricks
# and the nest trick (12 : 2) and count 90 : 10.
MADE = ["pass", "bid 70", "pass", "pass",
        "discard R8", "discard R9", "discard G7", "discard G8", "trump red",
        "R1 R14 Y1 Y8", "R13 Y2 Y9 R2", "R12 Y3 Y10 R3", "R11 Y4 Y11 R4", "R10 Y5 Y12 R5",
        "G14 Y6 Y13 G1", "B14 B1 B12 R6", "R7 G13 Y7 Y14", "G2 G12 B2 B7",
        "B13 B3 B11 G3", "G11 B4 B10 G4", "G10 B5 B9 G5", "G9 B6 B8 G6"]

# Seat 0 wins at 80 (seat 2 outbids its partner on the way), buries G13 B13
# R1 R2 (20 count), green trumps; team 1 takes 11 : 3 tricks, count 90 : 10.
SET = ["bid 70", "pass", "bid 75", "pass", "bid 80", "pass",
       "discard G13", "discard B13", "discard R1", "discard R2", "trump green",
       "R3 R14 Y1 Y8", "R13 Y2 Y9 R4", "R12 Y3 Y10 R5", "R11 Y4 Y11 R6", "R10 Y5 Y12 R7",
       "R9 Y6 Y13 G1", "B14 G7 B1 B7", "R8 Y7 Y14 G2", "G14 G8 B2 B8",
       "G3 G12 B3 B9", "G11 B4 B10 G4", "G10 B5 B11 G5", "G9 B6 B12 G6"]


def _flat(script):
    out = []
    for item in script:
        out += item.split() if " " in item and item.split()[0].lower() not in (
            "bid", "discard", "trump") else [item]
    return out


def _game(**opts):
    return solver.load_game("dixie-rook", **opts)


def _play(state, script):
    for text in _flat(script):
        state.apply_action_string(text)
    return state


def _scripted(script, **opts):
    return _play(_game(**opts).new_initial_state(deal=DEAL), script)


def _random_game(game, seed, rng_seed=None):
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# ---------------------------------------------------------------- scoring

def test_scripted_hand_made():
    state = _scripted(MADE)
    r = state.results[0]
    # by hand: team 1 tricks 1-6 and 9-13 plus the nest trick, team 0 tricks
    # 7 (R6 trumps B14) and 8 (R7, with G13 in it); count 10 : 90
    assert r["tricks"] == [2, 12]
    assert r["count"] == [10, 90]
    assert r["most_tricks"] == 1
    assert r["captured"] == [10, 110]
    assert r["made"] is True
    assert r["score"] == [10, 110]            # 110 >= 70: team 1 scores all it took
    assert state.totals == [10, 110]
    assert state.dealer == 0 and state.hand_no == 1   # the deal passed to seat 0


def test_scripted_hand_set():
    state = _scripted(SET)
    r = state.results[0]
    assert r["bid_winner"] == 0 and r["bid"] == 80
    # team 0: tricks 6 (G1 trumps), 8 (G2 trumps), 9 (G14): 3 tricks, Y13 = 10
    # team 1: the other ten tricks and the nest (G13 B13 R1 R2 = 20 count)
    assert r["tricks"] == [3, 11]
    assert r["count"] == [10, 90]
    assert r["captured"] == [10, 110]
    assert r["made"] is False
    assert r["score"] == [-80, 110]           # set: minus the bid, captured points lost
    assert state.totals == [-80, 110]


def test_nest_goes_to_the_last_trick():
    state = _play(_game().new_initial_state(deal=DEAL), _flat(SET)[:-1])
    before = list(state.count)
    nest = state.discards
    assert sum(card_count(c) for c in nest) == 20
    state.apply_action_string("G6")        # seat 0 plays G6 to trick 13, seat 1 wins it
    assert state.results[0]["count"][1] - before[1] == 20   # trick 13 itself has no count
    assert state.results[0]["tricks"][1] == 11              # 10 tricks + the nest


@pytest.mark.parametrize("players", [4, 6])
def test_every_hand_is_worth_120(players):
    game = _game(players=players, target=200, lose_at=300)
    hands = 0
    for seed in range(40):
        state = _random_game(game, seed)
        for r in state.results:
            assert sum(r["count"]) == 100
            assert sum(r["tricks"]) == game.hand_size + 1
            assert sum(r["captured"]) == 120
            hands += 1
    assert hands > 80


def test_game_end_rules():
    # both teams over the target on the same hand: the higher total wins
    state = _play(_game(target=100).new_initial_state(deal=DEAL), _flat(MADE)[:-1])
    state.totals = [250, 200]
    state.apply_action_string("G6")
    assert state.totals == [260, 310] and state.winner == 1
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]
    # exactly equal totals over the target: another hand
    state = _play(_game(target=100).new_initial_state(deal=DEAL), _flat(MADE)[:-1])
    state.totals = [200, 100]
    state.apply_action_string("G6")
    assert state.totals == [210, 210]
    assert not state.is_terminal() and state.hand_no == 1
    # one team reaches the target
    state = _scripted(SET, target=110)
    assert state.winner == 1 and state.is_terminal()
    assert state.legal_actions() == []


# ---------------------------------------------------------------- the tie cut

def test_tie_cut_uses_its_own_stream():
    game = _game()
    tie = no_tie = None
    for rng_seed in range(300):
        state = game.new_initial_state(seed=5)
        rng = random.Random(rng_seed)
        while not state.results:
            state.apply_action(rng.choice(state.legal_actions()))
        kinds = [k for k, _ in state._chance.log]
        if state.results[0]["tricks"][0] == state.results[0]["tricks"][1]:
            assert kinds[:3] == ["first_dealer", "deal", "cut"]
            tie = tie or state
        else:
            assert "cut" not in kinds
            no_tie = no_tie or state
        if tie and no_tie:
            break
    assert tie and no_tie
    deals = [[v for k, v in s._chance.log if k == "deal"] for s in (tie, no_tie)]
    assert deals[0][:2] == deals[1][:2]       # the next deal is the same either way
    # the record carries the cut, and replays without the seed
    rec = position.to_json(tie)
    assert "cuts" in rec["deal"]["deals"][0]
    assert position.from_json(rec).state().totals == tie.totals


def test_cuts_in_a_record_are_checked():
    rec = position.to_json(_scripted(MADE))
    bad = dict(rec["deal"])
    bad["deals"] = [dict(bad["deals"][0], cuts=["R14 G1 Y1 B1", "R2 G2 Y2 B3"])]
    with pytest.raises(PositionError, match=r"deal\.deals\[0\]\.cuts\[0\].*tie"):
        _game().parse_deal(bad)
    bad["deals"] = [dict(bad["deals"][0], cuts=["R14 G1 Y1"])]
    with pytest.raises(PositionError, match="one card per seat"):
        _game().parse_deal(bad)


# ---------------------------------------------------------------- auction

def test_auction_bad_bids_name_the_action():
    state = _game().new_initial_state(deal=DEAL)
    with pytest.raises(IllegalActionError, match=r"'bid 65'.*at least 70"):
        state.apply_action_string("bid 65")
    with pytest.raises(IllegalActionError, match=r"'bid 72'.*multiple of 5"):
        state.apply_action_string("bid 72")
    with pytest.raises(IllegalActionError, match=r"'bid 125'.*highest bid is 120"):
        state.apply_action_string("bid 125")
    with pytest.raises(NotationError, match="bid 999"):
        state.apply_action_string("bid 999")
    with pytest.raises(NotationError, match="bid seventy"):
        state.apply_action_string("bid seventy")
    state.apply_action_string("bid 80")
    with pytest.raises(IllegalActionError, match=r"'bid 80'.*higher than 80"):
        state.apply_action_string("bid 80")
    with pytest.raises(IllegalActionError, match=r"'bid 75'.*higher than 80"):
        state.apply_action_string("bid 75")
    state.apply_action_string("pass")                    # seat 1 passes
    with pytest.raises(IllegalActionError, match=r"'bid 90'.*seat 1 has passed"):
        state.apply_action_for(1, "bid 90")
    with pytest.raises(IllegalActionError, match=r"'bid 90'.*seat 2's turn"):
        state.apply_action_for(3, "bid 90")
    state.apply_action_for(2, "bid 85")                   # outbids its partner
    assert state.auction.high_bidder == 2 and state.auction.to_act == 3
    with pytest.raises(IllegalActionError, match=r"'R1'.*auction is on"):
        state.apply_action_string("R1")
    with pytest.raises(IllegalActionError, match=r"'trump red'.*auction is on"):
        state.apply_action_string("trump red")
    assert state.history() == [128 + 80, 384, 128 + 85]


def test_auction_order_and_end():
    state = _game().new_initial_state(deal=DEAL)
    _play(state, ["bid 70", "pass", "bid 75", "pass"])
    assert state.current_player() == 0                   # seat 1 and 3 are skipped
    state.apply_action_string("bid 80")
    assert state.current_player() == 2
    state.apply_action_string("pass")                    # only seat 0 is left
    assert state.bid_winner == 0 and state.bid == 80 and state.phase == "discard"
    assert state.hands[0] & (1 << ROOK.parse("G14"))     # the nest is taken


def test_bid_of_120_ends_the_auction():
    state = _game().new_initial_state(deal=DEAL)
    _play(state, ["bid 70", "bid 120"])
    assert state.bid_winner == 1 and state.bid == 120 and state.current_player() == 1


def test_last_seat_may_bid_or_pass():
    state = _game().new_initial_state(deal=DEAL)
    _play(state, ["pass", "pass", "pass"])
    assert state.current_player() == 3 and 384 in state.legal_actions()
    state.apply_action_string("bid 70")
    assert state.bid_winner == 3 and state.bid == 70


def test_all_pass_no_score_and_the_deal_passes():
    state = _game().new_initial_state(deal=DEAL, seed=2)
    _play(state, ["pass"] * 4)
    assert state.totals == [0, 0] and state.results == []
    assert state.hand_no == 1 and state.dealer == 0 and state.current_player() == 1
    assert [k for k, _ in state._chance.log] == ["first_dealer", "deal", "deal"]


def test_dealer_must_bid():
    state = _game(dealer_must_bid=True).new_initial_state(deal=DEAL)
    _play(state, ["pass"] * 3)
    assert 384 not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=r"'pass'.*dealer.*must bid"):
        state.apply_action_string("pass")
    state.apply_action_string("bid 70")
    assert state.bid_winner == 3


# ---------------------------------------------------------------- nest, trumps, play

def test_discard_and_trump_errors():
    state = _game().new_initial_state(deal=DEAL)
    _play(state, ["pass", "bid 70", "pass", "pass"])
    with pytest.raises(IllegalActionError, match=r"'discard Y1'.*does not hold Y1"):
        state.apply_action_string("discard Y1")
    with pytest.raises(IllegalActionError, match=r"'trump red'.*discard 4 more cards"):
        state.apply_action_string("trump red")
    with pytest.raises(IllegalActionError, match=r"'R8'.*discard 4 more cards"):
        state.apply_action_string("R8")
    _play(state, ["discard R8", "discard r9", "DISCARD G7"])
    with pytest.raises(IllegalActionError, match=r"'discard R8'.*does not hold R8"):
        state.apply_action_string("discard R8")
    state.apply_action_string("discard G8")
    with pytest.raises(IllegalActionError, match=r"'discard G9'.*discards are done"):
        state.apply_action_string("discard G9")
    with pytest.raises(IllegalActionError, match=r"'R1'.*name trumps first"):
        state.apply_action_string("R1")
    state.apply_action_string("trumps R")                 # alias of "trump red"
    assert state.trump == 0
    with pytest.raises(IllegalActionError, match=r"'trump green'.*already named \(red\)"):
        state.apply_action_string("trump green")
    with pytest.raises(IllegalActionError, match=r"'bid 90'.*auction is over"):
        state.apply_action_string("bid 90")
    with pytest.raises(IllegalActionError, match=r"'R14'.*seat 0 does not hold R14"):
        state.apply_action_string("R14")
    state.apply_action_string("G1")                       # seat 0 leads green
    with pytest.raises(IllegalActionError, match=r"'R14'.*must follow green"):
        state.apply_action_string("R14")
    with pytest.raises(IllegalActionError, match=r"it is seat 1's turn, not seat 2's"):
        state.apply_action_for(2, "Y1")


def test_notation_round_trip_and_aliases():
    state = _game().new_initial_state(deal=DEAL)
    for text, canon in [("85", "bid 85"), ("BID  85", "bid 85"), ("P", "pass"),
                        ("trump B", "trump black"), ("Trumps Yellow", "trump yellow"),
                        ("discard y14", "discard Y14"), ("g5", "G5")]:
        assert state.action_to_string(state.string_to_action(text)) == canon
    for bad in ("trump purple", "discard Z9", "R15", "hello", ""):
        with pytest.raises(NotationError, match=repr(bad).strip("'") or "unknown"):
            state.string_to_action(bad)


def test_six_players():
    game = _game(players=6)
    state = game.new_initial_state(seed=4)
    assert [len(h) for h in state.initial_hands] == [9] * 6 and len(state.nest) == 2
    rng = random.Random(1)
    while state.phase != "discard":
        state.apply_action(rng.choice(state.legal_actions()))
    w = state.bid_winner
    assert bin(state.hands[w]).count("1") == 11
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.phase == "trump"
    view = state.information_state((w + 2) % 6).view     # a partner does not see them
    assert view["actions"][-2:] == ["?", "?"] and view["deal"]["deals"][0]["nest"] == 2


# ---------------------------------------------------------------- information

def test_nest_and_discards_private_until_the_end():
    state = _play(_game().new_initial_state(deal=DEAL), _flat(MADE)[:9])
    for seat in range(4):
        view = state.information_state(seat).view
        d = view["deal"]["deals"][0]
        if seat == 1:
            assert d["nest"] == "G14 G13 B14 B13"
            assert view["actions"][4:8] == ["discard R8", "discard R9", "discard G7",
                                            "discard G8"]
        else:                                   # the partner (seat 3) sees no more
            assert d["nest"] == 4 and view["actions"][4:8] == ["?"] * 4
        assert [isinstance(h, int) for h in d["hands"]] == [s != seat for s in range(4)]
    _play(state, _flat(MADE)[9:])              # the hand ends: the nest is turned up
    for seat in range(4):
        view = state.information_state(seat).view
        assert view["deal"]["deals"][0]["nest"] == "G14 G13 B14 B13"
        assert view["actions"][4] == "discard R8"


def test_views_resample_consistently_and_respect_voids():
    state = _play(_game().new_initial_state(deal=DEAL), _flat(MADE)[:9 + 8])
    # seat 0's view: seat 2 and seat 3 showed out of red in trick 1
    info = state.information_state(0)
    view = position.from_json(info.view)
    hidden_seen = set()
    for w in range(8):
        world = view.world(seed=w)
        assert world.information_state_string(0) == str(info)
        for seat in (2, 3):
            assert not any(world.hands[seat] >> (c) & 1 for c in range(1, 15))  # no red
        hidden_seen.add(tuple(world.discards))
    assert len(hidden_seen) > 1               # the hidden discards really vary
    assert all(len(set(d)) == 4 for d in hidden_seen)


def test_view_errors_name_the_path():
    state = _play(_game().new_initial_state(deal=DEAL), _flat(MADE)[:9])
    view = state.information_state(0).view
    leaky = dict(view, deal={"first_dealer": 3, "deals": [
        dict(view["deal"]["deals"][0], nest="G14 G13 B14 B13")]})
    with pytest.raises(PositionError, match=r"deal\.deals\[0\]\.nest"):
        position.from_json(leaky)
    named = dict(view, actions=view["actions"][:4] + ["discard R8"] + view["actions"][5:])
    with pytest.raises(PositionError, match=r"actions\[4\].*'\?'"):
        position.from_json(named)
    hidden = dict(view, actions=["?"] + view["actions"][1:])
    with pytest.raises(PositionError, match=r"actions\[0\]"):
        position.from_json(hidden)
    shown = dict(view, deal={"first_dealer": 3, "deals": [
        dict(view["deal"]["deals"][0], hands=[view["deal"]["deals"][0]["hands"][0],
                                               "R8 R9", 13, 13])]})
    with pytest.raises(PositionError, match=r"deal\.deals\[0\]\.hands\[1\]"):
        position.from_json(shown)


def test_record_round_trip_of_a_whole_game():
    state = _random_game(_game(target=150, lose_at=300), 9)
    rec = position.to_json(state)
    loaded = position.from_json(rec)
    assert position.to_json(loaded) == rec
    assert loaded.state().returns() == state.returns()
    assert state.events[-1].startswith("game over")


def test_doc_examples_load():
    import json
    import pathlib
    import re
    text = pathlib.Path(__file__).parents[2].joinpath("docs", "positions.md").read_text()
    section = text.split("## dixie-rook", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    record, view = (json.loads(b) for b in blocks)
    state = position.from_json(record).state()
    assert position.from_json(view).to_json() == view
    assert state.information_state(3).view == view


@pytest.mark.parametrize("players", [4, 6])
def test_views_in_every_phase_resample_to_the_same_information(players):
    """Mid-discard, before trumps, mid-trick, across a hand boundary: every
    seat's view completes into worlds that give it the same information."""
    game = _game(players=players, target=150, lose_at=300)
    checked = set()
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal() and step < 100:
            phase = state.phase
            mid = phase == "discard" and len(state.discards) == 1
            if mid or phase == "trump" or (phase == "play" and step % 17 == 0):
                checked.add("mid-discard" if mid else phase)
                for seat in range(players):
                    info = state.information_state(seat)
                    view = position.from_json(info.view)
                    assert view.world(seed=1).information_state_string(seat) == str(info)
                    sampler = game.world_sampler(info.view)
                    for w in range(2):
                        world = sampler.sample(random.Random(w))
                        assert world.information_state_string(seat) == str(info)
                        assert world.history() == state.history() or "?" in info.view[
                            "actions"]
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    assert checked == {"mid-discard", "trump", "play"}


@pytest.mark.parametrize("players", [4, 6])
def test_rules_bot_plays_whole_games_with_a_narrative(players):
    from bots import make_bot
    from bots.match import play_match
    game = _game(players=players)
    for seed in range(5):
        bots = [make_bot("rules", game, s, seed=seed * 1000 + s) for s in range(players)]
        state = play_match(game, bots, seed=seed)
        assert state.is_terminal() and max(state.totals) >= 300
        assert state.returns().count(1.0) == players // 2
        text = "\n".join(state.events)
        for phrase in ("deals first", "bids", "wins the auction", "names trumps",
                       "trick 1:", "takes the last trick and the nest", "game over"):
            assert phrase in text
        again = play_match(game, [make_bot("rules", game, s, seed=seed * 1000 + s)
                                  for s in range(players)], seed=seed)
        assert again.history() == state.history()


def test_round_hooks_for_search():
    state = _play(_game().new_initial_state(deal=DEAL, seed=1), _flat(SET)[:-1])
    assert state.round_index() == 0
    assert state.round_returns() == [-60, 60, -60, 60]    # count so far, 10 : 70
    state.apply_action_string("G6")
    assert state.round_index() == 1
    assert state.round_returns(0) == [-190, 190, -190, 190]  # -80 against +110
    assert state.round_returns() == [0, 0, 0, 0]
    _play(state, ["pass"] * 4)                               # hand 2 passed out
    assert state.round_index() == 2 and state.round_returns(1) == [0, 0, 0, 0]
