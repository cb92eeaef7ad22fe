"""The position format: every kind of bad input gets a typed error naming
the culprit; every accepted input re-serializes to a fixed point."""

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from solver import position
from solver.errors import DixtrixError, OptionError, PositionError
from tests.games.test_dix import DEAL, SCRIPT


def record(actions=(), **extra):
    doc = {"game": "dix", "deal": copy.deepcopy(DEAL), "actions": list(actions)}
    doc.update(extra)
    return doc


def view_after(n_actions, seat, seed=3):
    state = solver.load_game("dix").new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n_actions):
        state.apply_action(rng.choice(state.legal_actions()))
    return state, state.information_state(seat).view


# ---------------------------------------------------------------- good input

def test_record_round_trip_and_canonical_notation():
    rec = record(["as", "9c", "KS", "10C"])
    rec["deal"]["rounds"][0]["turn_up"] = "8h"
    out = position.to_json(position.from_json(rec))
    assert out["actions"] == ["AS", "9C", "KS", "TC"]
    assert out["deal"]["rounds"][0]["turn_up"] == "8H"
    assert position.to_json(position.from_json(out)) == out


def test_seed_record_and_json_text():
    rec = {"game": "dix", "seed": 5, "actions": []}
    loaded = position.loads(json.dumps(rec))
    assert position.to_json(loaded) == {"game": "dix", "options": {}, "seed": 5, "actions": []}
    assert loaded.state().current_player() in (0, 1)


def test_view_round_trip_and_world():
    state, view = view_after(40, 1)
    sv = position.from_json(view)
    assert sv.to_json() == view
    assert sv.info.known["hand"] == state.information_state(1).known["hand"]
    world = sv.world(seed=2)
    assert world.information_state(1).view == view


# ---------------------------------------------------------------- bad input

def test_malformed_json():
    with pytest.raises(PositionError, match="malformed JSON.*line 1"):
        position.loads('{"game": "dix", ')
    with pytest.raises(PositionError, match="JSON object"):
        position.from_json([1, 2])


def test_unknown_game_and_options():
    with pytest.raises(OptionError, match="unknown game 'dux'"):
        position.from_json({"game": "dux", "seed": 1})
    with pytest.raises(OptionError, match="unknown option 'trget'"):
        position.from_json({"game": "dix", "options": {"trget": 3}, "seed": 1})
    with pytest.raises(OptionError, match="'variant' must be one of"):
        solver.load_game("dix", variant="twelve")
    with pytest.raises(OptionError, match="'target' must be >= 1"):
        solver.load_game("dix", target=0)
    with pytest.raises(OptionError, match="'target' must be an integer"):
        solver.load_game("dix", target="50")
    with pytest.raises(PositionError, match="missing 'game'"):
        position.from_json({"seed": 1})
    with pytest.raises(PositionError, match="unknown key 'sede'"):
        position.from_json({"game": "dix", "sede": 1})
    with pytest.raises(PositionError, match="needs a 'deal' or a 'seed'"):
        position.from_json({"game": "dix"})
    with pytest.raises(PositionError, match="seed: must be an integer"):
        position.from_json({"game": "dix", "seed": "1"})


def test_unknown_card_names_path_and_token():
    rec = record()
    rec["deal"]["rounds"][0]["hands"][1] = CLUBS_WITH("1C")
    with pytest.raises(PositionError) as err:
        position.from_json(rec)
    assert err.value.path == "deal.rounds[0].hands[1][12]"
    assert "'1C'" in str(err.value)


def CLUBS_WITH(bad):
    return "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C " + bad


def test_duplicate_card_names_both_places():
    rec = record()
    rec["deal"]["rounds"][0]["hands"][1] = CLUBS_WITH("AS")
    with pytest.raises(PositionError) as err:
        position.from_json(rec)
    msg = str(err.value)
    assert "duplicate card AS" in msg and "hands[0][0]" in msg and "hands[1][12]" in msg


#: trix hands of docs/positions.md's record (seat 0 holds 7H)
TRIX_HANDS = ["AS KS QS JS TS 9S 8S 7S 6S 5S 4S AH 7H",
              "3S 2S KH QH JH TH 9H 8H 6H 5H 4H 3H 2H",
              "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
              "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"]


@pytest.mark.parametrize("game", ["dix", "trix", "dixie-rook"])
def test_a_card_given_to_two_seats_is_a_duplicate_as_data(game):
    """Issue #51: a card given to two seats was reported as the longer
    hand's size ("seat 2 must hold 13 cards, got 14"); the duplicate is
    what was meant, and it comes as data a face can word (``code``,
    ``data``: the card and both places), as does a hand's size."""
    if game == "trix":
        doc = {"game": game, "deal": {"first_owner": 0, "deals": [list(TRIX_HANDS)]},
               "actions": []}
        where = "deal.deals[0]"
    else:
        doc = {"game": game, "actions": [],
               "deal": solver.to_json(solver.load_game(game).new_initial_state(seed=2))["deal"]}
        where = f"deal.{'rounds' if game == 'dix' else 'deals'}[0].hands"

    def hands(d):
        first = d["deal"]["deals" if game != "dix" else "rounds"][0]
        return first if game == "trix" else first["hands"]

    given = hands(doc)
    last = len(given) - 1
    card = given[0].split()[0]
    longer = copy.deepcopy(doc)
    hands(longer)[last] += " " + card
    with pytest.raises(PositionError) as err:
        position.from_json(longer)
    assert err.value.code == "duplicate_card", str(err.value)
    assert err.value.data == {"card": card, "also": f"{where}[0][0]",
                              "paths": [f"{where}[0][0]", err.value.path]}
    assert err.value.path.startswith(f"{where}[{last}][")
    short = copy.deepcopy(doc)
    hands(short)[1] = " ".join(given[1].split()[1:])
    with pytest.raises(PositionError) as err:
        position.from_json(short)
    n = len(given[1].split())
    assert err.value.code == "hand_size" and err.value.path == f"{where}[1]"
    assert err.value.data == {"seat": 1, "want": n, "got": n - 1}


def test_wrong_hand_and_stock_sizes():
    rec = record()
    rec["deal"]["rounds"][0]["hands"][0] = "AS KS"
    with pytest.raises(PositionError, match=r"hands\[0\]: seat 0 must hold 13 cards, got 2"):
        position.from_json(rec)
    rec = record()
    rec["deal"]["rounds"][0]["stock"] = "AD"
    with pytest.raises(PositionError, match=r"stock: the stock has 26 cards, got 1"):
        position.from_json(rec)
    rec = record()
    rec["deal"]["rounds"][0]["hands"] = [rec["deal"]["rounds"][0]["hands"][0]]
    with pytest.raises(PositionError, match="expected 2 hands"):
        position.from_json(rec)


def test_illegal_action_in_history_names_index_and_reason():
    # seat 1 (void in spades) discards; then seat 0 leads KS and seat 1 plays
    # a card it does not hold
    with pytest.raises(PositionError) as err:
        position.from_json(record(["AS", "9C", "KS", "AD"]))
    assert err.value.path == "actions[3]" and "does not hold AD" in str(err.value)
    with pytest.raises(PositionError, match=r"actions\[0\].*seat 0 does not hold AC"):
        position.from_json(record(["AC"]))
    with pytest.raises(PositionError, match=r"actions\[1\].*unknown card 'ZZ'"):
        position.from_json(record(["AS", "ZZ"]))
    with pytest.raises(PositionError, match=r"actions\[0\]: an action is a string"):
        position.from_json(record([5]))


def test_actions_past_the_listed_deals_need_a_seed():
    acts = [c for lead, follow, _, _ in SCRIPT for c in (lead, follow)]
    full = record(acts)
    position.from_json(full)                                # the round itself is fine
    with pytest.raises(PositionError, match=r"actions\[52\].*does not list"):
        position.from_json(record(acts + ["AS"]))
    # with a seed the generator deals the next round
    position.from_json(record(acts + [], seed=4))


def test_view_cannot_show_the_opponents_cards():
    _, view = view_after(10, 0)
    bad = copy.deepcopy(view)
    bad["deal"]["rounds"][0]["hands"][1] = "AS KS"
    with pytest.raises(PositionError, match=r"hands\[1\].*cannot show seat 1's cards"):
        position.from_json(bad)
    bad = copy.deepcopy(view)
    bad["deal"]["rounds"][0]["hands"][1] = 12
    with pytest.raises(PositionError, match="holds 13 cards, got 12"):
        position.from_json(bad)


def test_view_cannot_know_the_opponents_draw():
    state, view = view_after(10, 0)
    # name a card at a stock place the opponent drew
    opp_places = [i for (_, s, i) in state.draws if s == 1]
    bad = copy.deepcopy(view)
    stock = bad["deal"]["rounds"][0]["stock"].split()
    stock[opp_places[0]] = DIX_unseen(state, view)
    bad["deal"]["rounds"][0]["stock"] = " ".join(stock)
    with pytest.raises(PositionError, match="cannot know this stock card"):
        position.from_json(bad)
    # and must name its own draws
    own = [i for (_, s, i) in state.draws if s == 0]
    bad = copy.deepcopy(view)
    stock = bad["deal"]["rounds"][0]["stock"].split()
    stock[own[0]] = "?"
    bad["deal"]["rounds"][0]["stock"] = " ".join(stock)
    with pytest.raises(PositionError, match="drew this card"):
        position.from_json(bad)


def DIX_unseen(state, view):
    from solver.cards import DIX
    seen = set(view["deal"]["rounds"][0]["hands"][0].split())
    seen |= set(view["deal"]["rounds"][0]["stock"].split()) | set(view["actions"])
    seen.add(view["deal"]["rounds"][0]["turn_up"])
    return next(DIX.to_string(c) for c in DIX.cards if DIX.to_string(c) not in seen)


def test_view_with_impossible_opponent_play():
    # seat 1's view: seat 0 leads a card seat 1 holds itself
    view = {"game": "dix", "seat": 1,
            "deal": {"first_dealer": 0, "rounds": [{
                "hands": [13, "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C"],
                "turn_up": "8H", "stock": " ".join(["?"] * 26)}]},
            "actions": ["AC"]}
    with pytest.raises(PositionError, match=r"actions\[0\]: seat 0 plays AC, which seat 1"):
        position.from_json(view)


def test_view_whose_voids_no_deal_satisfies():
    # seventeen: no draws.  Seat 0 leads hearts and seat 1 fails to follow;
    # later seat 1 follows hearts: impossible.
    own = "AH KH QH JH TH 9H 8H AS KS QS JS TS 9S 8S 7S 6S 5S"
    view = {"game": "dix", "options": {"variant": "seventeen"}, "seat": 0,
            "deal": {"first_dealer": 0, "rounds": [{"hands": [own, 17], "turn_up": "2D"}]},
            "actions": ["AH", "2C", "KH", "3C", "QH", "7H"]}
    with pytest.raises(PositionError, match="no deal of the unseen cards is consistent"):
        position.from_json(view)
    view["actions"] = view["actions"][:4]
    position.from_json(view)                                 # consistent so far


def test_bad_seat():
    _, view = view_after(4, 0)
    for bad_seat in (2, -1, "0", True):
        bad = dict(view, seat=bad_seat)
        with pytest.raises(PositionError, match="seat"):
            position.from_json(bad)


# ---------------------------------------------------------------- fuzz

def _random_record(seed, n, variant):
    game = solver.load_game("dix", variant=variant)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(n):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


LEAVES = ["AS", "ZZ", "JK", "10h", "", "2c", "?", 0, 1, 2, 13, -1, None, True, 3.5,
          [], {}, "AS KS", "? ? ?"]


def _paths(obj, here=()):
    yield here
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, here + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, here + (i,))


def _mutate(doc, rng):
    """Replace, drop or shuffle one node anywhere in the JSON tree, or swap
    two cards inside one card string."""
    doc = copy.deepcopy(doc)
    paths = [p for p in _paths(doc) if p]
    path = rng.choice(paths)
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    kind = rng.randrange(4)
    if kind == 0:
        parent[key] = rng.choice(LEAVES)
    elif kind == 1:
        del parent[key]
    elif kind == 2 and isinstance(parent[key], str) and " " in parent[key]:
        toks = parent[key].split()
        i, j = rng.randrange(len(toks)), rng.randrange(len(toks))
        toks[i] = toks[j]                      # a duplicate or a no-op
        parent[key] = " ".join(toks)
    elif isinstance(parent, list):
        rng.shuffle(parent)
    return doc


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(0, 60),
       variant=st.sampled_from(["standard", "seventeen"]),
       mutate=st.booleans(), as_view=st.booleans(), mseed=st.integers(0, 10**6))
def test_fuzz_fixed_point(seed, n, variant, mutate, as_view, mseed):
    state = _random_record(seed, n, variant)
    doc = (state.information_state(seed % 2).view if as_view else position.to_json(state))
    if mutate:
        doc = _mutate(doc, random.Random(mseed))
    try:
        loaded = position.from_json(json.loads(json.dumps(doc)))
    except DixtrixError:
        return                     # rejected with a typed error: fine
    once = position.to_json(loaded)
    assert position.to_json(position.from_json(once)) == once


def test_apply_action_for_names_whose_turn_it_is():
    from solver.errors import IllegalActionError
    state = solver.load_game("dix").new_initial_state(deal=copy.deepcopy(DEAL))
    with pytest.raises(IllegalActionError, match="it is seat 0's turn, not seat 1's"):
        state.apply_action_for(1, "9C")
    assert state.apply_action_for(0, "AS") == state.string_to_action("AS")


# ------------------------------------------- trusted constructors of live states

TRUSTED_CASES = [(name, cfg, seed) for name in solver.registered_games()
                 for cfg in solver.load_game(name).conformance_configs for seed in (1, 2)]


def _random_state(game, seed):
    """A state after a random number of random actions (the start, the
    middle of a deal, a later deal, or the end)."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    stop = rng.choice([0, 3, 17, 40, 90, 250, 10**6])
    while not state.is_terminal() and len(state.history()) < stop:
        state.apply_action(rng.choice(state.legal_actions()))
    return state, rng


def _future(state, rng, n=40):
    """The views of every seat along ``n`` more random actions (draws of
    later deals included): two states that agree here continue alike."""
    state, out = state.clone(), []
    for _ in range(n):
        out.append([state.information_state_string(s) for s in range(state.game.num_players)])
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name,cfg,seed", TRUSTED_CASES,
                         ids=[f"{n}-{c or 'default'}-{s}" for n, c, s in TRUSTED_CASES])
def test_trusted_views_and_records_equal_the_validated_ones(name, cfg, seed):
    game = solver.load_game(name, **cfg)
    state, rng = _random_state(game, seed)
    for seat in range(game.num_players):
        trusted = position.SeatView.of(state, seat)
        checked = position.view_from_json(state.information_state(seat).view)
        assert (trusted.game, trusted.seat) == (checked.game, checked.seat)
        assert trusted.to_json() == checked.to_json()
        assert trusted.info.known == checked.info.known
        assert str(trusted.info) == str(checked.info)
    forms = [None]
    try:
        state.deal_start()
        forms.append("current")
    except PositionError:
        pass                                   # no mid-match positions in this game
    for form in forms:
        trusted_rec = position.Record.of(state, from_deal=form)
        checked_rec = position.record_from_json(position.to_json(state, from_deal=form))
        assert trusted_rec.to_json() == checked_rec.to_json()
        assert trusted_rec.match == checked_rec.match
        seed_future = rng.randrange(1 << 30)
        assert (_future(trusted_rec.state(), random.Random(seed_future))
                == _future(checked_rec.state(), random.Random(seed_future)))
    assert position.record_of(state).to_json() == position.to_json(state)


# ---------------------------------------------------------------- JSON's numbers

def test_a_whole_number_written_with_a_fraction_is_an_integer():
    """JSON has one number type and JSON Schema's ``integer`` takes 390.0
    (the HTTP API's document says ``integer``, and a JavaScript client may
    send 390.0 for 390): wherever a position takes an integer -- a seed, a
    seat, a first dealer, a count of unseen cards, an option -- it is read
    as that integer, exactly, from JSON text and from Python values alike.
    Before, ``"seed": 390.0`` was refused ("must be an integer")."""
    _, view = view_after(4, 0)
    assert position.parse_json('[390.0, 3.9e2, 1E2, -0.0, 0.5, 9223372036854775807.0]') == \
        [390, 390, 100, 0, 0.5, 2**63 - 1]
    assert all(type(v) is int for v in position.parse_json('[390.0, 3.9e2, 1E2]'))
    assert position.parse_json("9223372036854775808.0") == 2.0**63     # past a seed: a float
    seeded = {"game": "dix", "seed": 390, "options": {"target": 10}, "actions": ["QC"]}
    want = position.from_json(seeded).to_json()
    floats = dict(seeded, seed=390.0, options={"target": 10.0})
    assert position.from_json(floats).to_json() == want
    assert position.loads(json.dumps(floats)).to_json() == want
    assert position.whole_numbers(seeded) is seeded                   # nothing to change: no copy
    counts = copy.deepcopy(view)
    counts["seat"] = 0.0
    counts["deal"]["first_dealer"] = float(view["deal"]["first_dealer"])
    counts["deal"]["rounds"][0]["hands"][1] = 13.0
    assert position.from_json(counts).to_json() == position.from_json(view).to_json()
    for bad, where in ((dict(seeded, seed=390.5), "seed"), (dict(seeded, seed=2.0**63), "seed"),
                       (dict(view, seat=0.5), "seat"),
                       (dict(seeded, options={"target": 10.5}), None)):
        with pytest.raises(DixtrixError) as err:
            position.from_json(bad)
        assert where is None or err.value.path == where, (bad, err.value)
