"""A game from outside ``solver/games``: the toy trick game of
tests/toygame/, registered with one line, gets everything a built-in game
gets -- the conformance checks (its facts, the bids among them, held to
their declarations), hints from both searches (at a bid too), the exact solver
(checked against a brute force over the protocol), the OpenSpiel and
PettingZoo exports under their own API checks -- and needs no file outside
its package (docs/architecture.md, "Adding a game")."""

from __future__ import annotations

import importlib.util
import pathlib
import random
import re
import sys

import pytest

import solver
import solver.games
from solver import position
from solver.game import TERMINAL, game_class

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = "tests.toygame"
NAME = "toy"


@pytest.fixture(scope="module", autouse=True)
def toy():
    """The toy game, registered for this module's tests only: the rest of
    the run sees the built-in games."""
    solver.games.register_package(PACKAGE)
    yield solver.load_game(NAME)
    solver.games.unregister_package(PACKAGE)


def _checks(path: str):
    """A test module whose checks take a game's name (the conformance
    suite, the OpenSpiel and PettingZoo tests), loaded to run them here
    on the toy game."""
    spec = importlib.util.spec_from_file_location(f"toy_{pathlib.Path(path).stem}", ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _conformance():
    return _checks("tests/conformance/test_conformance.py")


def test_it_is_registered_and_loads(toy):
    assert NAME in solver.registered_games()
    assert PACKAGE in solver.games.registered_packages()
    assert game_class(NAME) is type(toy)
    assert toy.num_players == 4 and toy.round_scale == 40.0


def test_it_registers_again_after_it_was_forgotten(toy):
    assert solver.games.unregister_package(PACKAGE) == [NAME]
    assert NAME not in solver.registered_games()
    with pytest.raises(solver.OptionError, match="unknown game 'toy'"):
        solver.load_game(NAME)
    with pytest.raises(solver.OptionError, match="unknown game 'toy'"):
        game_class(NAME)
    solver.games.register_package(PACKAGE)       # imported from the cache: registered again
    assert solver.load_game(NAME) == toy
    state = toy.new_initial_state(seed=1)
    for _ in range(4):
        state.apply_action(state.legal_actions()[1])
    assert solver.solve(state).kind == "paranoid"
    with pytest.raises(solver.OptionError, match="no game package"):
        solver.games.register_package("tests.no_such_game")
    with pytest.raises(solver.OptionError, match="not a registered outside package"):
        solver.games.unregister_package("solver.games.dix")


@pytest.mark.parametrize("check", ["test_random_playouts_reach_the_end",
                                   "test_action_strings_round_trip", "test_determinism_by_seed",
                                   "test_clone_consistency", "test_records_and_views_round_trip",
                                   "test_information_states_never_leak",
                                   "test_positions_fit_the_game_s_schema",
                                   "test_every_fact_a_seat_knows_is_declared_and_of_its_kind"])
def test_the_conformance_checks_pass(toy, check, sample):
    run = getattr(_conformance(), check)
    for cfg in toy.conformance_configs:
        if "sample" in run.__code__.co_varnames[:run.__code__.co_argcount]:
            run(NAME, cfg, sample)
        else:
            run(NAME, cfg)


def test_a_played_deal_scores_its_bids(toy):
    from tests.toygame.state import score
    state = toy.new_initial_state(seed=4)
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.current_player() == TERMINAL
    assert sum(state.tricks_won) == 4 and state.returns() == state.round_returns()
    assert state.returns() == [float(score(b, t))
                               for b, t in zip(state.bids, state.tricks_won, strict=True)]
    # the rule as game.py states it: nil, a bid made with an overtrick, missed
    assert (score(0, 0), score(0, 1), score(2, 3), score(2, 2), score(3, 1)) == \
        (10, -10, 21, 20, -30)


def test_the_seats_bid_in_turn_before_any_card(toy):
    state = solver.load_game(NAME, first_leader=2).new_initial_state(seed=1)
    assert state.phase == "auction" and state.trick_number() is None
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["bid 0", "bid 1", "bid 2", "bid 3", "bid 4"]
    order = []
    for text in ("bid 2", "NIL", "Bid 1", "bid 4"):
        order.append(state.current_player())
        state.apply_action(state.string_to_action(text))
    assert order == [2, 3, 0, 1] and state.bids == [1, 4, 2, 0]
    assert state.phase == "play" and state.current_player() == 2
    assert state.string_to_action("nil") == state.string_to_action("bid 0") == 64
    assert state.information_state(0).known["bids"] == [1, 4, 2, 0]
    with pytest.raises(solver.errors.NotationError, match="'bid 5'"):
        state.string_to_action("bid 5")
    with pytest.raises(solver.errors.IllegalActionError, match="the auction is over"):
        state.apply_action(64)
    fresh = toy.new_initial_state(seed=1)
    with pytest.raises(solver.errors.IllegalActionError, match="bids first"):
        fresh.apply_action(fresh.string_to_action("AS"))
    # a seat view whose card comes before the fourth bid is refused, by its path
    view = position.SeatView.of(fresh, 0).to_json()
    view["actions"] = ["bid 1", "AS"]
    with pytest.raises(solver.errors.PositionError, match="out of turn"):
        position.from_json(view).sampler()


def test_there_is_no_exact_value_of_a_bid(toy):
    state = toy.new_initial_state(seed=3)
    with pytest.raises(solver.errors.UnsupportedPositionError, match="the auction"):
        solver.solve(state)


def test_the_rules_player_bids_its_aces_and_half_its_kings():
    from tests.toygame import TOY
    from tests.toygame.heuristic import bid_of
    assert bid_of([TOY.parse(c) for c in "AS AH KD QC".split()]) == 2
    assert bid_of([TOY.parse(c) for c in "KS KH AD QC".split()]) == 2
    assert bid_of([TOY.parse(c) for c in "KS QH JD QC".split()]) == 0


def _brute(state, seat):
    """The most points ``seat`` scores by its bid against the three others
    (paranoid minimax over the protocol: every legal card of every seat
    tried)."""
    if state.is_terminal():
        return state.returns()[seat]
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values.append(_brute(child, seat))
    return max(values) if state.current_player() == seat else min(values)


def _brute_actions(state, seat):
    out = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        out[state.action_to_string(a)] = _brute(child, seat)
    return out


@pytest.mark.parametrize("seed,played", [(1, 8), (2, 9), (3, 10), (5, 11), (8, 12), (4, 6)])
def test_the_exact_solver_agrees_with_a_brute_force(toy, seed, played):
    state = toy.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(played):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sol = solver.solve(state)
    want = _brute_actions(state, seat)
    assert dict(sol.action_values) == want
    assert sol.value == max(want.values()) and sol.kind == "paranoid"
    # the value of another seat's side of the same position
    other = (seat + 1) % 4
    assert solver.solve(state, seat=other).value == _brute(state, other)


def test_a_whole_deal_solves_at_once(toy):
    state = toy.new_initial_state(seed=9)
    for text in ("bid 1", "bid 0", "bid 2", "bid 1"):
        state.apply_action(state.string_to_action(text))
    sol = solver.solve(state)
    assert sol.nodes < 40_000         # the work, not the time: machines differ
    assert sol.value in (-10, 10, 11, 12, 13)       # seat 0 bid 1


def test_a_solve_under_a_budget_brackets_the_points(toy):
    """A solve stopped by its node budget proves brackets of the seat's
    points by its bid (nil: -10 or 10), not of its tricks; a finished one
    closes them on the exact value."""
    from solver.dd.solve import solve_within
    state = toy.new_initial_state(seed=9)
    for text in ("bid 0", "bid 2", "bid 0", "bid 1"):
        state.apply_action(state.string_to_action(text))
    for seat, values in ((0, {-10, 10}), (1, {-20, 20, 21, 22})):
        cut = solve_within(state, 50, seat=seat)
        assert not cut.finished and cut.brackets
        assert all(lo in values and hi in values and lo <= hi for lo, hi in cut.brackets.values())
        whole = solve_within(state, 100_000, seat=seat)
        assert whole.finished and whole.solution.value in values
        assert all(lo == hi for lo, hi in whole.brackets.values())


@pytest.mark.parametrize("bot,limit", [("ismcts", solver.Limit(iterations=300)),
                                       ("pimc", solver.Limit(worlds=30))])
def test_best_move_gives_a_hint(toy, bot, limit):
    state = toy.new_initial_state(seed=6)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    view = position.SeatView.of(state, state.current_player())
    res = solver.best_move(view, limit, bot=bot, seed=1)
    assert res.action in {state.action_to_string(a) for a in state.legal_actions()}
    assert set(res.values) == {state.action_to_string(a) for a in state.legal_actions()}
    assert res.unit == toy.round_unit


@pytest.mark.parametrize("bot,limit", [("ismcts", solver.Limit(iterations=300)),
                                       ("pimc", solver.Limit(worlds=30))])
def test_best_move_bids(toy, bot, limit):
    """At a bid both searches answer a bid, the same one for the same seed."""
    state = toy.new_initial_state(seed=6)
    state.apply_action(state.string_to_action("bid 1"))
    view = position.SeatView.of(state, state.current_player())
    res = solver.best_move(view, limit, bot=bot, seed=1)
    bids = {f"bid {n}" for n in range(5)}
    assert res.action in bids and set(res.values) == bids
    assert solver.best_move(view, limit, bot=bot, seed=1).action == res.action


@pytest.mark.parametrize("seed,played", [(6, 7), (7, 10), (10, 13)])
def test_the_world_sampler_counts_the_worlds_exactly(toy, seed, played):
    """Every deal of the other seats' unseen cards whose replay gives the
    seat the same information state is a world: the sampler counts them
    all, and its draws are such worlds."""
    import itertools

    from tests.toygame import TOY
    state = toy.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(played):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    info = state.information_state_string(seat)
    dealt = toy.parse_deal(state.deal_record())[0][1]
    unseen = [c for c in TOY.cards if c not in dealt[seat] and c not in state.history()]
    # what each other seat played is public: its hand is that and unseen cards
    others = [s for s in range(4) if s != seat]
    played_by = {s: [c for c in dealt[s] if c in state.history()] for s in others}
    worlds = 0
    a, b = (4 - len(played_by[s]) for s in others[:2])
    for first in itertools.combinations(unseen, a):
        rest = [c for c in unseen if c not in first]
        for second in itertools.combinations(rest, b):
            third = [c for c in rest if c not in second]
            deal = list(dealt)
            for s, extra in zip(others, (first, second, third), strict=True):
                deal[s] = played_by[s] + list(extra)
            record = {"deals": [{"hands": [TOY.format_cards(h) for h in deal]}]}
            try:
                world = toy.replay(state.history(), deal=record)
            except solver.errors.ReplayError:
                continue
            worlds += world.information_state_string(seat) == info
    view = position.SeatView.of(state, seat)
    assert view.sampler().worlds() == worlds
    for w in range(5):
        assert view.world(seed=w).information_state_string(seat) == info


def test_openspiel_export_passes_openspiels_checks(toy):
    pytest.importorskip("pyspiel")
    pytest.importorskip("open_spiel.python.tests.games_sim_test")
    from solver.interop import openspiel as ospiel
    assert "dixtrix_toy" in ospiel.register()
    checks = _checks("tests/interop/test_openspiel.py")
    for cfg in toy.conformance_configs:
        checks.test_random_sim_test(NAME, cfg)
        checks.test_games_sim_test_sim_game(NAME, cfg)
    checks.test_resample_from_infostate_keeps_the_information_state(NAME)
    game = checks._load(NAME)
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes(),
            game.max_game_length()) == (4, 69, 16, 20)


def test_pettingzoo_export_passes_its_api_test(toy):
    pytest.importorskip("pettingzoo")
    from solver.interop.pettingzoo import ENVS
    assert NAME in ENVS
    checks = _checks("tests/interop/test_pettingzoo.py")
    for cfg in toy.conformance_configs:
        checks.test_api_test(NAME, cfg)
        checks.test_seed_test(NAME, cfg)


def test_the_toy_game_needed_only_its_package_and_one_line():
    """Every file the toy game needed is in its package, plus the one line
    of this file that registers it; docs/architecture.md ("Adding a game")
    lists exactly those files; and no file of the product (``solver/``,
    ``bots/``, ``csrc/``) names the game."""
    package = ROOT / "tests" / "toygame"
    files = {p.relative_to(ROOT).as_posix() for p in package.glob("*.py")}
    # beside its modules, its words: the template and their French, nothing more
    assert sorted(p.relative_to(package).as_posix() for p in package.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".py") == \
        ["locale/fr.po", "locale/messages.pot"]
    loaded = {pathlib.Path(m.__file__).resolve().relative_to(ROOT).as_posix()
              for name, m in list(sys.modules.items())
              if (name == PACKAGE or name.startswith(f"{PACKAGE}.")) and getattr(m, "__file__", None)}
    assert loaded == files
    # the fixture that sets the game up for the tests: one line registers it
    setup = pathlib.Path(__file__).read_text().split("\ndef test_")[0]
    calls = [line for line in setup.splitlines()
             if line.strip().startswith("solver.games.register_package(")]
    assert calls == ["    solver.games.register_package(PACKAGE)"]
    docs = (ROOT / "docs" / "architecture.md").read_text()
    section = docs[docs.index("## Adding a game"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    assert set(re.findall(r"`(tests/toygame/[^`]+\.py)`", section)) == files
    assert 'register_package("tests.toygame")' in section
    named = []
    for folder in ("solver", "bots", "csrc"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".pyx", ".pxd", ".js", ".html", ".json", ".md", ".h") \
                    and re.search(r"toygame|\btoy\b", path.read_text(errors="replace")):
                named.append(path.relative_to(ROOT).as_posix())
    assert not named, named


def test_a_game_not_exported_still_gets_its_position_schema(toy, monkeypatch):
    """The JSON Schema of a game's positions reads the card names and the
    seats from ``Game.interop``; a game that declares none (not exported
    to OpenSpiel) gets its seats from its default game and takes any card
    tokens, so its positions still fit."""
    import jsonschema

    monkeypatch.setattr(type(toy), "interop", None)
    assert position.players_range(NAME) == (4, 4)
    schema = position.position_schema(NAME)
    assert schema["properties"]["seat"]["maximum"] == 3
    check = jsonschema.Draft202012Validator(schema)
    state = toy.new_initial_state(seed=1)
    assert check.is_valid(position.to_json(state))
    assert check.is_valid(position.SeatView.of(state, 1).to_json())
    assert not check.is_valid(dict(position.SeatView.of(state, 1).to_json(), seat=4))
