"""The cost of one observation tensor on the RL hot path (issue #17
follow-up): OpenSpiel's observer ``set_from`` (``common.Encoder.fill``)
on the decision nodes of seeded random episodes, every seat.

Printed per game: the observations made, the seat views built
(``State.information_state`` calls) and card tokens parsed (``Deck.parse``
calls) per observation, counted by cProfile over a second pass (the first
pass fills the encoder's token cache, as a long training run does), and
the wall time per observation of the first pass (printed, never asserted;
the machine is shared).

    python bench/interop_observe.py [--games dix trix] [--episodes 3] [--horizon 1]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

import solver
from solver.interop import openspiel as ospiel


def decision_states(game, episodes: int) -> list:
    out = []
    for seed in range(episodes):
        s = game.new_initial_state()
        rng = np.random.RandomState(seed)
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(int(rng.choice(actions, p=probs)))
            else:
                out.append(s.clone())
                s.apply_action(int(rng.choice(s.legal_actions())))
    return out


def measure(name: str, episodes: int, horizon: int, info: bool) -> str:
    game = ospiel.GAME_CLASSES[name]({"horizon": horizon})
    observer = ospiel._Observer(game, info=info)
    states = decision_states(game, episodes)
    seats = game.num_players()

    def run():
        for s in states:
            for p in range(seats):
                observer.set_from(s, p)

    t = time.perf_counter()
    run()
    wall = time.perf_counter() - t
    prof = cProfile.Profile()
    prof.enable()
    run()
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]  # the raw table, not in the stubs
    n = len(states) * seats

    def calls(fn: str) -> int:
        return sum(v[1] for k, v in stats.items() if k[2] == fn)

    kind = "information state" if info else "observation"
    return (f"{name:13s} {kind:17s} {n:6d} tensors  {calls('information_state') / n:.2f} "
            f"views/tensor  {calls('parse') / n:.2f} card parses/tensor  "
            f"{1e6 * wall / n:8.1f} us/tensor (first pass)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=solver.registered_games())
    ap.add_argument("--episodes", type=int, default=3)
    ap.add_argument("--horizon", type=int, default=1)
    args = ap.parse_args()
    for name in args.games:
        for info in (False, True):
            print(measure(name, args.episodes, args.horizon, info), flush=True)


if __name__ == "__main__":
    main()
