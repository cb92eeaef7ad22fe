"""How often the solver takes a PIMC world under PIMC's default node bound,
by cards in play: the measurement behind each game's
``GameSupport.probe_cards`` (solver/search/support.py).

    python bench/probe_cards.py --n 16

For trix (individual and partnership), tricks and dixie-rook (4 and 6
seats): random positions at a trick's lead after 0, 2, 3, 4 and 6 tricks
(seeded random play from the deal), one world sampled from the seat's
view, solved on a fresh ``solver.dd.Solver`` bounded by
``solver.search.pimc.DEFAULT_NODES``.  Prints, per game and trick, the
cards in play and how many of the worlds finished under the bound.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from ismcts_speed import rook_positions
from solver import position
from solver.dd import Solver
from solver.errors import SearchAborted
from solver.search.pimc import DEFAULT_NODES
from solver.search.support import support_for


def trick_positions(name, options, n, tricks_done):
    """Trix / tricks trick contracts at a trick's lead after ``tricks_done`` tricks."""
    from solver.games.contract_match.state import TRICKS
    game = solver.load_game(name, **options)
    out, seed = [], 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal():
            play = state.log.play if state.phase == TRICKS else None
            if (play is not None and play.tricks_done == tricks_done and not play.trick
                    and len(state.legal_actions()) > 1):
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return out


def row(label, states):
    solved, cards, t0 = 0, None, time.perf_counter()
    for st in states:
        seat = st.current_player()
        world = position.from_json(st.information_state(seat).view).sampler().sample(
            random.Random(3))
        cards = support_for(world.game).cards_in_play(world)
        try:
            Solver().solve(world, seat=seat, max_nodes=DEFAULT_NODES)
            solved += 1
        except SearchAborted:
            pass
    print(f"{label:<34} {cards} cards in play: {solved} of {len(states)} solved under "
          f"{DEFAULT_NODES:,} nodes  ({time.perf_counter() - t0:.1f} s)", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=16, help="positions a row")
    ap.add_argument("--tricks", default="0,2,3,4,6", help="tricks done before the position")
    a = ap.parse_args(argv)
    for done in (int(t) for t in a.tricks.split(",")):
        for name, options in (("trix", {}), ("trix", {"partners": True}), ("tricks", {})):
            label = f"{name}{' partners' if options else ''}, trick {done + 1}"
            row(label, trick_positions(name, options, a.n, done))
        for seats in (4, 6):
            _, states = rook_positions(a.n, seats, done)
            row(f"dixie-rook {seats} seats, trick {done + 1}", states)


if __name__ == "__main__":
    main()
