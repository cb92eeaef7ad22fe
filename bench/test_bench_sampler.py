"""Sampler throughput and the 100k-draw consistency run.

    python -m pytest bench/test_bench_sampler.py -s
"""

import random
import time

import solver
from solver import position
from solver.sampler import IntervalSampler
from tests.search.test_sampler import consistent_instance


def test_100k_draws_never_inconsistent():
    rng = random.Random(11)
    groups, cards = consistent_instance(rng)
    sampler = IntervalSampler(groups, cards)
    compiled = sampler.compiled
    bounds = {c: (lo, hi) for (c, lo, hi) in cards}
    r = random.Random(12)
    t0 = time.perf_counter()
    for _ in range(100_000):
        placed = compiled.sample(r)
        for g, grp in zip(groups, placed, strict=True):
            for c in grp:
                lo, hi = bounds[c]
                assert lo <= g.time <= hi
    dt = time.perf_counter() - t0
    print(f"\n100000 draws ({compiled.implementation} walker), all consistent: {dt:.2f} s "
          f"({100000 / dt:,.0f} draws/s incl. the Python check, {sampler.count} worlds)")


def test_dix_view_worlds_per_second(benchmark):
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    view = position.from_json(state.information_state(0).view)
    seeds = iter(range(10**9))
    benchmark(lambda: view.world(seed=next(seeds)))


def _exchange_views():
    """dix-exchange positions: 4 players with a small deck just after a
    stock was rebuilt from used cards, one of them an unseen discard that
    ties the two stocks (90720 worlds for the seat to move); late in a
    4-player match on that deck; late in a 7-player match (all the cards
    reshuffled every round)."""
    out = []
    for opts, seed, part in (({"deck": "10:2 8:2 7:2 CJ:2 0:2 3:1", "tokens": 5}, 3, None),
                             ({"deck": "10:2 8:2 7:2 CJ:2 0:2 3:1", "tokens": 5}, 3, 0.75),
                             ({"players": 7}, 1, 0.75)):
        game = solver.load_game("dix-exchange", **opts)
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        history = []
        while not state.is_terminal():
            a = rng.choice(state.legal_actions())
            history.append(a)
            state.apply_action(a)
        keep = 12 if part is None else int(len(history) * part)
        state = game.new_initial_state(seed=seed)
        for a in history[:keep]:
            state.apply_action(a)
        out.append(state)
    return out


def test_dix_exchange_100k_draws_never_inconsistent():
    state = _exchange_views()[0]
    seat = state.current_player()
    game = state.game
    sampler = game.world_sampler(state.information_state(seat).view)
    info = state.information_state_string(seat)
    r = random.Random(13)
    t0 = time.perf_counter()
    for _ in range(100_000):
        assert sampler.sample(r).information_state_string(seat) == info
    dt = time.perf_counter() - t0
    print(f"\n100000 dix-exchange draws ({len(state.shuffles)} stocks, live {sampler.live}, "
          f"{sampler.count} worlds), all consistent: {dt:.2f} s "
          f"({100000 / dt:,.0f} draws/s incl. the check)")


def test_dix_exchange_worlds_per_second():
    for state in _exchange_views():
        seat = state.current_player()
        t0 = time.perf_counter()
        sampler = state.game.world_sampler(state.information_state(seat).view)
        prep = time.perf_counter() - t0
        r = random.Random(1)
        t0 = time.perf_counter()
        for _ in range(5000):
            sampler.sample(r)
        dt = time.perf_counter() - t0
        print(f"\ndix-exchange {state.game.num_players} players, round {state.round_no + 1}, "
              f"{len(state.shuffles)} stocks: prepared in {prep * 1e3:.1f} ms, "
              f"{5000 / dt:,.0f} draws/s")


def test_dixie_rook_100k_draws_never_inconsistent():
    """The dixie-rook seat-view sampler: 100k worlds over views of every
    phase, 4 and 6 seats, each checked as a legal history with the view
    (``tests/search/test_rook_sampler.py`` runs 5k)."""
    from tests.search.test_rook_sampler import _consistent, _states
    views = []
    for players, seed in ((4, 3), (6, 4), (4, 8), (6, 9)):
        for state in _states(players, seed, every=5):
            for seat in range(players):
                views.append(state.information_state(seat).view)
    rng = random.Random(13)
    per = 100_000 // len(views) + 1
    t0 = time.perf_counter()
    total = 0
    for view in views:
        sampler = position.from_json(view).sampler()
        for _ in range(per):
            _consistent(sampler.sample(rng), view, view["seat"])
            total += 1
    dt = time.perf_counter() - t0
    print(f"\n{total} dixie-rook worlds over {len(views)} views, all consistent: {dt:.1f} s")
