"""Decisions a second, per kind of decision other than a card, of the
Python search (today's path for them) against the Cython kernels, at the
same number of iterations, side by side in one run.

    python bench/decision_speed.py [--positions 5] [--iterations 2000] [--repeat 2]

Each kind's positions are seeded games played by the rules player (with a
random move now and then) up to such a decision with a choice.  A decision
is timed from the seat's view (``state.information_state(seat).view``) to
the action, the world sampler built as the bots build it, one search tree
(``threads`` 1, as the bots; the Python search has one):

* ``python``: the contract choice as ``solver.search.contract_choice.choose_contract``
  (every open contract played out by the rules player in each world,
  ``iterations // contracts`` worlds, the last tricks solved exactly), the
  other decisions as ``solver.search.ismcts.ismcts_search`` (PUCT with the
  rules player as prior and play-out policy);
* ``native``: ``solver.search.native.native_search`` (the kernels of
  csrc/search/: deal.pxd, hand.pxd, exchange.pxd) for ``iterations``.

The two are timed alternately on each position (``--repeat`` rounds, the
order swapped each round); the table gives each side's decisions a second
(the median time of a decision over the positions), their ratio, and how
often they chose the same action.  Load matters on a shared machine: the
load average is printed with the table.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from solver.search import contract_choice
from solver.search.heuristics import make_policy
from solver.search.ismcts import ismcts_search, python_policies
from solver.search.native import native_search


def decisions(game, pred, count, seed0=0, mix=0.3, limit=5000):
    """``count`` decisions with a choice where ``pred(state)`` holds, one a
    seeded game (the rules player at every seat, a random move with
    probability ``mix``)."""
    out = []
    seed = seed0
    while len(out) < count and seed < seed0 + limit:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        bots = [make_policy("rules", game, s, seed=s) for s in range(game.num_players)]
        seed += 1
        for _ in range(3000):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if len(legal) > 1 and pred(state):
                out.append(state)
                break
            a = rng.choice(legal) if rng.random() < mix else \
                bots[state.current_player()].step(state)
            state.apply_action(a)
    return out


def kinds():
    """``(label, game, predicate)`` of every kind of decision other than a
    card."""
    from solver.games.contract_match.state import CHOOSE, CLAIM, DECLARE, REDEAL
    trix, tricks = solver.load_game("trix"), solver.load_game("tricks")
    rook, rook6 = solver.load_game("dixie-rook"), solver.load_game("dixie-rook", players=6)
    ex4, ex8 = solver.load_game("dix-exchange"), solver.load_game("dix-exchange", players=8)
    return [
        ("trix contract", trix, lambda s: s.phase == CHOOSE),
        ("trix doubling", trix, lambda s: s.phase == DECLARE),
        ("tricks contract", tricks, lambda s: s.phase == CHOOSE),
        ("tricks redeal claim", tricks,
         lambda s: s.phase == CLAIM and REDEAL in s.legal_actions()),
        ("rook bid (4p)", rook, lambda s: s.phase == "auction"),
        ("rook bid (6p)", rook6, lambda s: s.phase == "auction"),
        ("rook discard", rook, lambda s: s.phase == "discard"),
        ("rook trump", rook, lambda s: s.phase == "trump"),
        ("exchange turn (4p)", ex4, lambda s: s.phase == "turn"),
        ("exchange answer (8p)", ex8, lambda s: s.phase == "respond"),
    ]


def python_decision(state, iterations, seed):
    game = state.game
    seat = state.current_player()
    sampler = game.world_sampler(state.information_state(seat).view)
    legal = state.legal_actions()
    rng = random.Random(seed)
    if contract_choice.applies(state):
        action, _ = contract_choice.choose_contract(sampler.sample, seat, legal, game,
                                              worlds=max(1, iterations // len(legal)), rng=rng)
        return action
    rollout, prior = python_policies(game, "rules", "rules", rng)
    stats = ismcts_search(sampler, seat, legal, game, iterations=iterations, rng=rng,
                          rollout=rollout, prior=prior)
    return max(legal, key=lambda a: (stats.visits.get(a, 0), stats.values.get(a, -1e300)))


def native_decision(state, iterations, seed):
    game = state.game
    seat = state.current_player()
    sampler = game.world_sampler(state.information_state(seat).view)
    legal = state.legal_actions()
    native = native_search(game, sampler)
    visits, means = native.run(iterations, 0.0, seed, 1, 0.7)[:2]
    return max(legal, key=lambda a: (visits.get(a, 0), means.get(a, -1e300)))


def timed(fn, *args):
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=5)
    p.add_argument("--iterations", type=int, default=2000)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--only", default="", help="run only the kinds whose label contains this")
    args = p.parse_args(argv)
    print(f"decisions other than cards: {args.positions} positions a kind, "
          f"{args.iterations} iterations, 1 tree, {args.repeat} alternating rounds; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"| {'decision':<22} | {'python dec/s':>12} | {'native dec/s':>12} | "
          f"{'native/python':>13} | {'same action':>11} |")
    print(f"|{'-' * 24}|{'-' * 14}|{'-' * 14}|{'-' * 15}|{'-' * 13}|")
    for label, game, pred in kinds():
        if args.only and args.only not in label:
            continue
        states = decisions(game, pred, args.positions)
        if not states:
            print(f"| {label:<22} | no position found |")
            continue
        py, nat, same = [], [], 0
        for i, state in enumerate(states):
            tp, tn = [], []
            for r in range(args.repeat):
                first = (i + r) % 2 == 0
                for side in ((0, 1) if first else (1, 0)):
                    if side == 0:
                        dt, a_py = timed(python_decision, state, args.iterations, i)
                        tp.append(dt)
                    else:
                        dt, a_nat = timed(native_decision, state, args.iterations, i)
                        tn.append(dt)
            py.append(min(tp))
            nat.append(min(tn))
            same += a_py == a_nat
        mp, mn = statistics.median(py), statistics.median(nat)
        print(f"| {label:<22} | {1 / mp:>12.2f} | {1 / mn:>12.1f} | {mp / mn:>12.0f}x | "
              f"{same:>5}/{len(states):<5} |", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
