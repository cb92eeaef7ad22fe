"""Rules-engine and kernel throughput.

    python -m pytest bench/test_bench_rules.py --benchmark-columns=min,median,max

The kernel/twin pair runs the same trick-winner workload, so the ratio of
their medians is the Cython speed-up for that call."""

import importlib
import random
from types import ModuleType

import pytest

import solver
from solver import cardset
from solver.cards import DIX
from solver.reference import cardset as pure

native: ModuleType | None
try:
    native = importlib.import_module("solver._cardset")
except ImportError:  # pragma: no cover
    native = None

rng = random.Random(0)
TABLE = cardset.make_rank_table(2, 8)
TRICKS = [rng.sample(DIX.cards[1:], 2) for _ in range(1000)]


def _winners(impl):
    tw = impl.trick_winner
    return sum(tw(t, 2, TABLE) for t in TRICKS)


@pytest.mark.parametrize("impl", [m for m in (native, pure) if m is not None],
                         ids=lambda m: m.IMPLEMENTATION)
def test_trick_winner_1000(benchmark, impl):
    benchmark(_winners, impl)


@pytest.mark.parametrize("name", solver.registered_games())
def test_random_playout(benchmark, name):
    game = solver.load_game(name)

    def run():
        state = game.new_initial_state(seed=1)
        r = random.Random(1)
        while not state.is_terminal():
            state.apply_action(r.choice(state.legal_actions()))
        return state

    benchmark(run)
