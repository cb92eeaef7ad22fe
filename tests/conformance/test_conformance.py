"""Conformance suite: every registered game, every configuration it lists
in ``conformance_configs``, gets these checks for free (as OpenSpiel's
basic tests run over its registry), so a new game is tested by registering it.

The bulk checks (random play-outs, and the whole matches whose views are
resampled and round-tripped) are marked slow: fewer matches by default,
the full count with DIXTRIX_FULL_TESTS=1 (tests/conftest.py)."""

import json
import random

import pytest

import solver
from solver import position
from solver.game import TERMINAL

CONFIGS = [(name, cfg) for name in solver.registered_games()
           for cfg in solver.load_game(name).conformance_configs]
IDS = [f"{n}-{'-'.join(f'{k}={v}' for k, v in c.items()) or 'default'}" for n, c in CONFIGS]

#: random play-outs a game, split across its configurations: the default
#: run and the full one
PLAYOUTS, FULL_PLAYOUTS = 150, 500
#: whole matches whose every seat's view is resampled / round-tripped
MATCHES, FULL_MATCHES = 1, 3


def _playouts_per_config(name, total):
    return max(20, total // len(solver.load_game(name).conformance_configs))


def _random_playout(game, seed, check=None):
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    deal, in_deal = state.round_index(), 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "no legal action in a non-terminal state"
        assert legal == sorted(set(legal)), "legal actions must be sorted and unique"
        assert all(isinstance(a, int) and 0 <= a < game.num_distinct_actions for a in legal), \
            f"an action id outside range({game.num_distinct_actions}): {legal}"
        if state.round_index() != deal:
            deal, in_deal = state.round_index(), 0
        in_deal += 1
        assert in_deal <= game.max_deal_length, \
            f"deal {deal} has more than max_deal_length={game.max_deal_length} actions"
        cur = state.current_player()
        assert 0 <= cur < game.num_players
        if check:
            check(state)
        state.apply_action(rng.choice(legal))
        steps += 1
        assert steps < 200000, "game does not end"
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_random_playouts_reach_the_end(name, cfg, sample):
    game = solver.load_game(name, **cfg)
    for seed in range(_playouts_per_config(name, sample(PLAYOUTS, FULL_PLAYOUTS))):
        state = _random_playout(game, seed)
        ret = state.returns()
        assert len(ret) == game.num_players
        if game.zero_sum:
            assert abs(sum(ret)) < 1e-9, f"seed {seed}: returns {ret} are not zero-sum"


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_action_strings_round_trip(name, cfg):
    game = solver.load_game(name, **cfg)

    def check(state):
        for a in state.legal_actions():
            text = state.action_to_string(a)
            assert state.string_to_action(text) == a, (a, text)

    for seed in range(3):
        _random_playout(game, seed, check)


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_determinism_by_seed(name, cfg):
    game = solver.load_game(name, **cfg)
    for seed in range(3):
        a = _random_playout(game, seed)
        b = _random_playout(game, seed)
        assert a.history() == b.history()
        assert a.returns() == b.returns()
        assert position.to_json(a) == position.to_json(b)
        for s in range(game.num_players):
            assert a.information_state_string(s) == b.information_state_string(s)


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_clone_consistency(name, cfg):
    game = solver.load_game(name, **cfg)
    rng = random.Random(7)
    for seed in range(4):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if rng.random() < 0.05:
                before = [state.information_state_string(s) for s in range(game.num_players)]
                twin = state.clone()
                r1, r2 = random.Random(seed), random.Random(seed)
                for _ in range(30):
                    if twin.is_terminal():
                        break
                    a = r1.choice(twin.legal_actions())
                    twin.apply_action(a)
                # the original is untouched by the clone's moves
                assert [state.information_state_string(s)
                        for s in range(game.num_players)] == before
                other = state.clone()
                for a in twin.history()[len(state.history()):]:
                    other.apply_action(a)
                assert other.history() == twin.history()
                assert other.returns() == twin.returns()
                assert ([other.information_state_string(s) for s in range(game.num_players)]
                        == [twin.information_state_string(s) for s in range(game.num_players)])
                del r2
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.slow
@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_records_and_views_round_trip(name, cfg, sample):
    game = solver.load_game(name, **cfg)
    rng = random.Random(11)
    for seed in range(sample(MATCHES, FULL_MATCHES)):
        state = game.new_initial_state(seed=seed)
        k = 0
        while not state.is_terminal():
            if k % 17 == 0:
                rec = position.to_json(state)
                loaded = position.from_json(json.loads(json.dumps(rec)))
                assert position.to_json(loaded) == rec
                assert position.to_json(position.from_json(position.to_json(loaded))) == rec
                st = loaded.state()
                assert st.history() == state.history()
                for s in range(game.num_players):
                    view = state.information_state(s).view
                    sv = position.from_json(json.loads(json.dumps(view)))
                    assert sv.to_json() == view
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


@pytest.mark.slow
@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_information_states_never_leak(name, cfg, sample):
    """A different world consistent with a seat's view gives that seat the
    same information state, while it does change what the seat cannot see
    (OpenSpiel's resampling check)."""
    game = solver.load_game(name, **cfg)
    rng = random.Random(5)
    for seed in range(sample(MATCHES, FULL_MATCHES)):
        state = game.new_initial_state(seed=seed)
        k = 0
        while not state.is_terminal():
            if k % 23 == 5:
                for s in range(game.num_players):
                    info = state.information_state_string(s)
                    view = position.from_json(state.information_state(s).view)
                    for w in range(3):
                        world = view.world(seed=w)
                        assert world.information_state_string(s) == info
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_every_fact_a_seat_knows_is_declared_and_of_its_kind(name, cfg):
    """``InfoState.known`` is a typed record: each fact a seat is given is
    a widget fact or the game's own (``Game.facts``, solver/facts.py), its
    value of the declared kind, all through random play (sampled states:
    every 7th, every seat)."""
    from solver.facts import check_known
    game = solver.load_game(name, **cfg)
    seen: set = set()
    bad: set = set()
    for seed in range(3):
        state, rng, step = game.new_initial_state(seed=seed), random.Random(seed), 0
        while not state.is_terminal() and step < 1500:
            if step % 7 == 0:
                for seat in range(game.num_players):
                    known = state.information_state(seat).known
                    seen |= set(known)
                    bad |= set(check_known(game, known))
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    assert not bad, "\n".join(sorted(bad))
    # every fact the game declares as its own is one its seats are given
    own = set(getattr(game, "facts", {}))
    assert own - seen <= {"team_totals", "winner", "out", "bad_hand"}, own - seen


def test_the_fact_checker_names_what_is_wrong():
    from solver.facts import Fact, check_known
    game = solver.load_game("dix")
    assert check_known(game, {"hand": "AS KS", "tens": [0, 1]}) == []
    assert check_known(game, {"bids": 3}) == ["dix: the fact 'bids' is not declared (Game.facts)"]
    assert "not a list, each item a whole number" in check_known(game, {"tens": [0, "1"]})[0]
    assert "never null" in check_known(game, {"hand": None})[0]
    # a seat is held to the game's seats (dix has two), -1 only where none may be
    assert "not a seat" in check_known(game, {"leader": 2})[0]
    assert check_known(game, {"leader": -1}) == []
    with pytest.raises(ValueError, match="a fact's kind is a shape"):
        Fact("colour", "no such kind")


def test_the_facts_page_is_written_from_the_declarations():
    """docs/facts.md is what ``python -m solver.games.facts_page`` writes."""
    import pathlib

    from solver.facts import facts_markdown
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "facts.md"
    want = facts_markdown({n: solver.load_game(n) for n in solver.registered_games()})
    assert page.read_text(encoding="utf-8") == want, \
        "docs/facts.md is out of date: python -m solver.games.facts_page > docs/facts.md"


def _positions(game, state):
    """Every kind of position of ``state``, as the position format writes
    it: the record (its explicit deal, and the seed with the actions), each
    seat's view, and where the game has them the mid-match record and
    views from the start of the deal in play."""
    out = [position.to_json(state), position.record_of(state).to_json()]
    out += [position.SeatView.of(state, s).to_json() for s in range(game.num_players)]
    if game.match_fields:
        out.append(position.to_json(state, from_deal="current"))
        out += [position.SeatView.of(state, s).from_current_deal().to_json()
                for s in range(game.num_players)]
    return out


@pytest.mark.parametrize("name,cfg", CONFIGS, ids=IDS)
def test_positions_fit_the_game_s_schema(name, cfg, sample):
    """The JSON Schema made from the game's declarations
    (``solver.position.position_schema``, the HTTP API's document) holds
    every position the game writes: records, seat views, mid-match ones,
    at every stage of a match, in every configuration; and a position
    the schema refuses for a key, a type or a range, the game refuses
    too (its reading names the path)."""
    import jsonschema

    game = solver.load_game(name, **cfg)
    schema = position.position_schema(name)
    check = jsonschema.Draft202012Validator(schema)
    jsonschema.Draft202012Validator.check_schema(schema)
    rng = random.Random(3)
    for seed in range(sample(MATCHES, FULL_MATCHES)):
        state = game.new_initial_state(seed=seed)
        k = 0
        while not state.is_terminal():
            if k % 19 == 0:
                for doc in _positions(game, state):
                    errors = sorted(check.iter_errors(doc), key=lambda e: e.path)
                    assert not errors, (k, doc, errors[0].message[:500])
                    seeded = {"game": name, "options": doc.get("options", {}), "seed": seed,
                              "actions": [state.action_to_string(a) for a in state.history()]}
                    assert check.is_valid(seeded)
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1
    record = position.to_json(game.new_initial_state(seed=1))
    view = position.SeatView.of(game.new_initial_state(seed=1), 0).to_json()
    deal_key = next(iter(game.deal_fields))
    most = position.players_range(name)[1]
    for bad in (dict(record, colour="red"), dict(record, options={"no such option": 1}),
                dict(record, options=None), dict(record, deal=None),
                dict(record, deal={**record["deal"], "x": 1}),
                dict(record, deal={**record["deal"], deal_key: None}),
                dict(record, match={"x": 1}), dict(record, actions=[None]),
                dict(record, seed=-1), dict(record, seed=2**63),
                dict(view, seat=most), dict(view, seed=1)):
        assert not check.is_valid(bad), bad
        with pytest.raises(solver.DixtrixError):
            position.from_json(bad)
