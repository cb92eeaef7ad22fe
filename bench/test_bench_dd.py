"""pytest-benchmark suites of the double-dummy kernel (``python -m pytest
bench``).  Seeded positions; each benchmark solves every legal card.  The
side-by-side figures against DDS are in bench/compare_dds.py."""

import os
import random
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

from compare_dds import bridge_ending, dix_from_trick
from solver.cards import mask_of
from solver.dd import solve
from solver.dd import trick as dd
from solver.dd.dix import solve_dix
from solver.games.contract_match.exact import penalty_contract
from solver.games.dix.exact import dix_position
from solver.reference.dd_oracle import solve_oracle


def _dix_run(engine, positions):
    if engine == "dixdd":
        return [solve_dix(p) for p in positions]
    return [dd.solve_position(p, p.seat_to_play, "dix") for p in positions]


@pytest.mark.parametrize("engine", ["dixdd", "generic"])
@pytest.mark.parametrize("first_trick", [14, 18, 22])
def test_dix_endgame(benchmark, first_trick, engine):
    """The dix solver (what solve() uses) and the generic kernel."""
    positions = [dix_position(dix_from_trick(seed, first_trick))
                 for seed in range(2 if first_trick == 14 else 5)]
    benchmark.pedantic(lambda: _dix_run(engine, positions),
                       rounds=1 if first_trick == 14 else 3, iterations=1)


@pytest.mark.parametrize("first_trick", [9, 11])
def test_dix_seventeen(benchmark, first_trick):
    states = [dix_from_trick(seed, first_trick, "seventeen") for seed in range(3)]
    benchmark.pedantic(lambda: [solve(st) for st in states], rounds=3, iterations=1)


@pytest.mark.parametrize("strain", [-1, 0, 3])
@pytest.mark.parametrize("cards", [6, 8])
def test_bridge_endings(benchmark, strain, cards):
    positions = []
    for seed in range(5):
        hands, leader = bridge_ending(seed, cards)
        positions.append(dd.TrickPosition(dd.bridge_contract(strain),
                                          tuple(mask_of(h) for h in hands), leader))
    benchmark.pedantic(lambda: [dd.solve_position(p, p.leader % 2) for p in positions],
                       rounds=3, iterations=1)


@pytest.mark.parametrize("kind", ["king", "queens", "diamonds", "ltoosh"])
def test_penalty_endings(benchmark, kind):
    rng = random.Random(3)
    positions = []
    for seed in range(5):
        hands, leader = bridge_ending(seed, 7)
        positions.append(dd.TrickPosition(penalty_contract(kind),
                                          tuple(mask_of(h) for h in hands), leader))
    benchmark.pedantic(lambda: [dd.solve_position(p, rng.randrange(4)) for p in positions],
                       rounds=3, iterations=1)


@pytest.mark.parametrize("engine", ["cython", "python"])
def test_kernel_vs_oracle(benchmark, engine):
    positions = [dix_position(dix_from_trick(seed, 23)) for seed in range(5)]
    if engine == "cython":
        run = lambda: [dd.solve_position(p, 0, "dix") for p in positions]  # noqa: E731
    else:
        run = lambda: [solve_oracle(p, 0, "dix") for p in positions]  # noqa: E731
    benchmark.pedantic(run, rounds=2, iterations=1)
