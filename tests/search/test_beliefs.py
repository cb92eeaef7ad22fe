"""The beliefs (solver/beliefs.py): worlds weighed by what the other seats
chose, for every game.

* The C loop and its Python twin give the same log-weights.
* Every game's description of a decision is right: for worlds built from
  rows, the replayed deal's hand at each observed decision is the one the
  observation reads from the row, the actions legal for it are as many as
  the rules say, and the action taken is among them.
* The weighting acts: a planted model that makes one seat's action imply a
  card moves that card's belief; a model whose probabilities do not depend
  on the hidden cards leaves every world alike (the sampler's uniform
  beliefs); no consistent world gets weight zero; a seat's own cards never
  appear in its beliefs; the same seed gives the same beliefs.
* The searches read the pool: a kernel given a one-world pool plays that
  world; ``best_move`` reports the beliefs it searched with.
"""

from __future__ import annotations

import math
import random
from array import array
from typing import Any

import pytest

import solver
from solver.beliefs import (
    HandPlaces,
    ModelParams,
    ObservationSet,
    RowSampler,
    compile_observations,
    log_likelihoods,
    log_likelihoods_py,
    observation_features,
    weigh,
)
from solver.game import registered_games
from solver.position import SeatView
from solver.search import Limit, best_move
from solver.search.support import support_for

GAMES: list[tuple[str, dict[str, Any]]] = [
         ("dix", {}), ("dix", {"variant": "seventeen"}), ("trix", {}),
         ("trix", {"partners": True}), ("tricks", {}), ("dixie-rook", {}),
         ("dixie-rook", {"players": 6}), ("dix-exchange", {"players": 5}),
         ("dix-exchange", {"players": 8})]
IDS = [g + "".join(f"-{k}={v}" for k, v in o.items()) for g, o in GAMES]


def _views(game, n: int, seed: int, per: int = 1) -> list:
    """``n`` (true state, seat view) pairs at decisions of random play-outs
    where the view leaves more than one world."""
    rng = random.Random(seed)
    out: list = []
    deal = 0
    while len(out) < n and deal < 20 * n:
        state = game.new_initial_state(seed=seed * 100 + deal)
        deal += 1
        stops = sorted(rng.sample(range(2, 90), per))
        step = 0
        while not state.is_terminal() and stops:
            if step == stops[0]:
                stops.pop(0)
                seat = state.current_player()
                if len(state.legal_actions()) > 1:
                    view = SeatView.of(state, seat)
                    if view.sampler().worlds() != 1:
                        out.append((state.clone(), view))
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    return out[:n]


def _random_params(obs: Any, rng: random.Random, scale: float = 1.5) -> ModelParams:
    return ModelParams({k: {f: rng.uniform(-scale, scale) for f in names}
                        for k, names in obs.features.items()})


@pytest.fixture(scope="module", params=GAMES, ids=IDS)
def cases(request):
    name, options = request.param
    game = solver.load_game(name, **options)
    model = support_for(game).opponent_model(game)
    assert model is not None, name
    views = _views(game, 10, seed=3)
    assert len(views) >= 5, f"{name}: too few positions with hidden cards"
    return game, model, views


def test_the_c_loop_is_its_python_twin(cases):
    game, model, views = cases
    rng = random.Random(1)
    seen = 0
    for _, view in views:
        sampler = view.sampler()
        obs = model.observations(sampler)
        seen += len(obs)
        compiled = compile_observations(obs, _random_params(obs, rng))
        rows = sampler.draw_rows(40, rng.randrange(1 << 30))
        a = log_likelihoods_py(compiled, rows, 1e-3, 0.7)
        b = log_likelihoods(compiled, rows, 1e-3, 0.7)
        assert len(a) == len(b) == 40
        for x, y in zip(a, b, strict=True):
            assert math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9), (x, y)
    assert seen > 0, f"{game.name}: no decision of another seat was observed"


def test_each_observation_reads_the_hand_its_seat_held(cases):
    """For worlds built from rows: the hand an observation reads from the row
    is the hand the replayed deal gives that seat at that decision, the
    legal actions are as many as the rules allow, and the one taken is
    legal (the true deal's row too: its hand is what the seat held)."""
    game, model, views = cases
    checked = 0
    for _, view in views:
        sampler = view.sampler()
        obs = model.observations(sampler)
        rows = sampler.draw_rows(6, 5)
        P = sampler.n_places
        for i in range(6):
            row = rows[i * P:(i + 1) * P]
            world = sampler.world_from_row(row, random.Random(i))
            steps = [(s.clone(), a) for s, a in world.deal_steps()]
            for o in obs.observations:
                state, action = steps[o.at]
                assert state.current_player() == o.seat
                hand = o.hand_of(row)
                assert hand == model.hand(state, o.seat), (o.kind, o.at)
                legal, _, taken = observation_features(obs, o, hand)
                assert taken >= 0, (o.kind, o.at)
                assert len(legal) == len(state.legal_actions()), (o.kind, o.at)
                checked += 1
    assert checked > 0


def test_a_flat_model_leaves_every_world_alike():
    """A model whose action probabilities do not depend on the hidden cards
    (dix-exchange with every weight 0: keep and ask, and a forced accept,
    are equally likely whatever the card) weighs every world alike: the
    beliefs are the sampler's uniform ones."""
    game = solver.load_game("dix-exchange", players=5)
    model = support_for(game).opponent_model(game)
    done = 0
    for _, view in _views(game, 8, seed=4):
        sampler = view.sampler()
        obs = model.observations(sampler)
        kinds = {o.kind for o in obs.observations}
        if not obs or "respond" in kinds:
            continue                    # a block is legal for some cards only
        flat = weigh(sampler, obs, ModelParams.flat(), 200, 9)
        uniform = weigh(sampler, None, None, 200, 9)
        assert flat.rows == uniform.rows
        assert len(set(flat.logw)) == 1 and math.isclose(flat.ess, 200)
        assert flat.marginals() == uniform.marginals()
        done += 1
    assert done >= 2


def _kh_position(seed: int):
    """A trix King of Hearts deal where a seat other than the viewer has
    said "reveal done" (the doubling), and the viewer does not hold KH."""
    from solver.games.contract_match.state import CONTRACT_BASE, DECLARE, REVEAL_DONE
    from solver.games.contract_match.trick_play import KH, KING_OF_HEARTS
    game = solver.load_game("trix")
    for s in range(seed, seed + 200):
        state: Any = game.new_initial_state(seed=s)
        chooser = state.current_player()
        state.apply_action(CONTRACT_BASE + KING_OF_HEARTS)
        if state.phase != DECLARE:
            continue
        holder = next(p for p in range(4) if KH in state.log.hands[p])
        # the holder declines to double; everyone says done
        while state.phase == DECLARE:
            state.apply_action(REVEAL_DONE)
        viewer = next(p for p in range(4) if p not in (holder, chooser))
        return state, viewer, holder
    raise AssertionError("no King of Hearts deal")


def test_a_planted_model_moves_the_belief_it_implies():
    """Plant a model in which a seat holding the King of Hearts doubles it
    (reveals it) nearly always.  Of the three other seats, two said "done"
    (the holder's own "done" left out): they are then believed not to hold
    it, and the King of Hearts goes to the third; weighed by nothing, each
    holds it a third of the time."""
    from solver.games.contract_match.trick_play import KH
    state, viewer, holder = _kh_position(1)
    view = SeatView.of(state, viewer)
    sampler = view.sampler()
    game = state.game
    model = support_for(game).opponent_model(game)
    obs = model.observations(sampler)
    assert {o.kind for o in obs.observations} >= {"reveal:kinghearts"}
    others = [s for s in range(4) if s != viewer]
    without = ObservationSet([o for o in obs.observations if o.seat != holder],
                             obs.features, obs.n_places, obs.rules)
    flat = weigh(sampler, None, None, 400, 3).marginals()[KH]
    assert sum(flat.values()) == pytest.approx(1.0)
    for s in others:
        assert 0.2 < flat.get(s, 0.0) < 0.46, flat
    # "done" by a seat holding KH: probability 1 / (1 + e^8) under this model
    planted = ModelParams({"reveal:kinghearts": {"bias": 8.0}}, floor=1e-6)
    moved = weigh(sampler, without, planted, 400, 3).marginals()[KH]
    assert moved.get(holder, 0.0) > 0.95, moved
    assert all(moved.get(s, 0.0) < 0.03 for s in others if s != holder), moved


def test_no_world_the_hard_facts_allow_gets_weight_zero():
    """A model sure of the opposite of what was played still leaves every
    world a weight (the floor)."""
    game = solver.load_game("trix")
    model = support_for(game).opponent_model(game)
    views = [v for _, v in _views(game, 6, seed=9)]
    sampler = next(v.sampler() for v in views if len(model.observations(v.sampler())) > 3)
    obs = model.observations(sampler)
    harsh = ModelParams({k: {f: 40.0 for f in names} for k, names in obs.features.items()},
                        floor=1e-4)
    b = weigh(sampler, obs, harsh, 300, 1)
    floor_total = len(obs) * math.log(1e-4)
    assert all(math.isfinite(x) and x >= floor_total - 1e-9 for x in b.logw)
    assert all(w > 0 for w in b.weights)


@pytest.mark.parametrize("name,options", GAMES, ids=IDS)
def test_the_beliefs_never_hold_the_seats_own_cards_and_repeat_for_a_seed(name, options):
    game = solver.load_game(name, **options)
    model = support_for(game).opponent_model(game)
    rng = random.Random(2)
    for state, view in _views(game, 3, seed=6):
        sampler = view.sampler()
        obs = model.observations(sampler)
        params = _random_params(obs, rng)
        a = weigh(sampler, obs, params, 100, 77)
        b = weigh(sampler, obs, params, 100, 77)
        assert a.rows == b.rows and a.logw == b.logw and a.ess == b.ess
        marg = a.marginals()
        for card, where in marg.items():
            assert view.seat not in where, (card, where)
            assert sum(where.values()) <= 1.0 + 1e-9
        if name != "dix-exchange":           # values, not cards: the own card's value
            own = support_for(game).opponent_model(game).hand(state, view.seat)
            assert not any(own >> c & 1 for c in marg), (name, marg)


def test_a_kernel_given_a_one_world_pool_plays_that_world():
    """Each walker reads the pool (a holder graph, a column graph, the
    interval graph of dix, the bags of dix-exchange): with one world of
    weight 1, every determinization is that world."""
    from solver.search.native import native_search
    for name, options in GAMES[:1] + GAMES[2:3] + GAMES[5:6] + GAMES[7:8]:
        game = solver.load_game(name, **options)
        _, view = _views(game, 1, seed=12)[0]
        sampler = view.sampler()
        native = native_search(game, sampler)
        assert native is not None, name
        rows = sampler.draw_rows(2, 3)
        P = sampler.n_places
        one = rows[P:2 * P]
        native.set_pool(array("Q", one), P, array("d", [1.0]))
        for seed in range(3):
            world = native.simulate(seed)[0]
            if name == "dix":                # the opponent's hand now
                assert world == sampler.world_from_row(
                    one, random.Random(0)).hands[1 - view.seat], name
            elif name == "trix":
                for place, seat in enumerate(sampler.others):
                    assert world[seat] & one[place] == one[place], name
            elif name == "dix-exchange":         # each slot: a card drawn this round
                for slot, seat in enumerate(sampler.base.order):
                    p = sampler.place_of.get(sampler.base.drawn[seat])
                    if p is not None:
                        assert 1 << world[slot] == one[p], name
            else:
                assert world[:len(sampler.holders)] == list(one[:len(sampler.holders)]), name


def test_best_move_searches_with_the_beliefs_and_says_so():
    game = solver.load_game("trix")
    _, view = _views(game, 1, seed=14)[0]
    on = best_move(view, Limit(iterations=500), seed=2, inference=True, pool=64)
    off = best_move(view, Limit(iterations=500), seed=2, inference=False)
    assert on.beliefs["worlds"] == 64 and 1 <= on.beliefs["ess"] <= 64
    assert off.beliefs == {}
    again = best_move(view, Limit(iterations=500), seed=2, inference=True, pool=64)
    assert (again.action, again.values, again.beliefs) == (on.action, on.values, on.beliefs)
    pimc = best_move(view, Limit(worlds=4), bot="pimc", seed=2, inference=True, pool=64)
    assert pimc.beliefs == on.beliefs


def test_before_any_decision_the_beliefs_are_the_exact_shares():
    """Issue #51: before any card is played every unseen trix card is with
    each other seat with probability exactly one third; the report said
    27% to 39% (512 worlds drawn). With no decision observed the report
    counts (``RowSampler.exact_marginals``): no sampling noise; the cards
    by suit, spades first and high to low; each holder's unseen cards."""
    from solver.search import beliefs
    state = solver.load_game("trix").new_initial_state(seed=3)
    rep = beliefs(SeatView.of(state, state.current_player()))
    assert rep.exact and rep.error == 0 and rep.observations == 0
    assert len(rep.cards) == 39 and set(rep.cards.values()) == {(1 / 3, 1 / 3, 1 / 3)}
    assert rep.unseen == (13, 13, 13)
    assert [g for g, _ in rep.groups] == ["spades", "hearts", "diamonds", "clubs"]
    assert [c for _, cs in rep.groups for c in cs] == list(rep.cards)
    spades = dict(rep.groups)["spades"]
    assert all(c.endswith("S") for c in spades) and spades[0] == "AS"


@pytest.mark.parametrize("name,options", [g for g in GAMES if g[0] != "dix-exchange"],
                         ids=[i for g, i in zip(GAMES, IDS, strict=True)
                              if g[0] != "dix-exchange"])
def test_the_exact_shares_are_what_the_uniform_pool_tends_to(name, options):
    """With voids, passes and draws known, the counted shares are those a
    large uniform pool approaches (within 5 standard errors), each card's
    row sums to one, each holder's column to its unseen cards; a report
    of a pool weighed by decisions states its sampling error instead."""
    from solver.search import beliefs
    game = solver.load_game(name, **options)
    for _, view in _views(game, 2, seed=9):
        sampler = view.sampler()
        exact = sampler.exact_marginals()
        assert exact is not None
        pool = weigh(sampler, None, None, 4000, 11)
        got = pool.marginals()
        assert set(exact) == set(got)
        for card, where in exact.items():
            assert sum(where.values()) == 1, (card, where)
            for holder, p in where.items():
                q = got[card].get(holder, 0.0)
                assert abs(float(p) - q) <= 5 * math.sqrt(float(p * (1 - p)) / 4000) + 1e-9, \
                    (name, card, holder, p, q)
        plain = beliefs(view, inference=False)
        assert plain.exact and plain.error == 0
        assert sum(plain.unseen) == len(plain.cards)
        weighed = beliefs(view)
        if weighed.observations:
            assert not weighed.exact and 0 < weighed.error < 1
            assert weighed.error == pytest.approx(max(
                1.96 * math.sqrt(p * (1 - p) / weighed.ess)
                for ps in weighed.cards.values() for p in ps))


@pytest.mark.parametrize("name,options", [("dix", {}), ("trix", {}), ("tricks", {}),
                                          ("dixie-rook", {}), ("dix-exchange", {"players": 5})])
def test_every_model_honours_the_places_contract(name, options):
    # OpponentModel.places: the places a decision's cards were drawn from
    # (the sampler's RowSampler.hand_places), or None; never an exception
    game = solver.load_game(name, **options)
    model = support_for(game).opponent_model(game)
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    sampler = SeatView.of(state, seat).sampler()
    for other in range(game.num_players):
        got = model.places(sampler, state, other)
        assert got is None or isinstance(got, tuple)


@pytest.mark.parametrize("name", registered_games())
def test_every_registered_game_s_sampler_honours_hand_places(name):
    """``RowSampler.hand_places``, the one thing of a sampler the opponent
    models read: for every registered game with a model, its seat views'
    samplers are ``RowSampler``s, and at every decision of another seat in
    the deal in play the answer (None, or places within the row) gives, on
    any drawn world's row, the hand that world's seat held then."""
    game = solver.load_game(name)
    model = support_for(game).opponent_model(game)
    if model is None:
        return                      # searched without beliefs: no contract to honour
    checked = 0
    for _, view in _views(game, 4, seed=11):
        sampler = view.sampler()
        assert isinstance(sampler, RowSampler), name
        P = sampler.n_places
        rows = sampler.draw_rows(3, 2)
        answers = []
        for state, _ in sampler.base.deal_steps():
            actor = state.current_player()
            if actor < 0 or actor == sampler.seat:
                answers.append(None)
                continue
            got = sampler.hand_places(state, actor)
            assert got is None or isinstance(got, HandPlaces), (name, got)
            if got is not None:
                assert all(0 <= p < P for p in got.places_in + got.places_out), (name, got)
            answers.append(got)
        for i in range(3):
            row = rows[i * P:(i + 1) * P]
            world = sampler.world_from_row(row, random.Random(i))
            for (state, _), got in zip(world.deal_steps(), answers, strict=True):
                if got is None:
                    continue
                hand = got.added
                for p in got.places_in:
                    hand |= row[p]
                for p in got.places_out:
                    hand &= ~row[p]
                assert hand & ~got.removed == model.hand(state, state.current_player()), name
                checked += 1
    assert checked > 0, f"{name}: no decision of another seat was placed"
