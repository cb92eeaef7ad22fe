"""Is the advice stable across search seeds? (issue #13)

For seeded card-play positions of dix, trix, tricks and dixie-rook (the
deal played by the rules bots to a random point of the card play), the
hint (``bots.advice.advise``, what ``dixtrix hint`` prints) runs at its
default limit (one second; ``--time`` to change) with 5 search seeds: an
exact solve where the view hides nothing (dix once the stock is gone),
else the search. A position is **stable** when all 5 recommend the same
action; where they differ, the advice is still **honest** when every
recommended action is marked as good as the others (the hint's equally
good actions) in the runs that did not pick it. The search alone
(``best_move``, also where the hint solves exactly) is measured too.

    python bench/hint_stability.py --positions 50
    python bench/hint_stability.py --games dix --positions 20 --time 0.5

Prints one row per game: positions, stable % and honest among the
unstable for the hint and for the search alone, median iterations per
search.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from bots.advice import advise, make_limit
from solver.position import from_json
from solver.search import Limit, best_move

GAMES = ("dix", "trix", "tricks", "dixie-rook")


def in_card_play(state) -> bool:
    name = state.game.name
    if name == "dix":
        return True
    if name in ("trix", "tricks"):
        from solver.games.contract_match.state import TRICKS
        return state.phase == TRICKS
    from solver.games.dixie_rook import PLAY
    return state.phase == PLAY


def positions(name: str, n: int, seed: int):
    """``n`` card-play positions with at least two legal cards."""
    game = solver.load_game(name)
    rng = random.Random(seed)
    out: list[Any] = []
    deal = 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed * 1000 + deal)
        bots = [make_bot("rules", game, s, seed=deal * 10 + s) for s in range(game.num_players)]
        deal += 1
        stop = rng.randrange(0, 40)
        seen = 0
        while not state.is_terminal():
            if in_card_play(state) and len(state.legal_actions()) > 1:
                if seen == stop:
                    out.append(state.clone())
                    break
                seen += 1
            state.apply_action(bots[state.current_player()].step(state))
    return out


def tally(runs, out, key):
    """Count one position's ``runs`` (each ``(advice, equally good)``)."""
    picks = {a for a, _ in runs}
    if len(picks) == 1:
        out[key + "stable"] += 1
    elif all(p in equal for _, equal in runs for p in picks):
        out[key + "honest"] += 1


def measure(name, n, seed, seconds, seeds=5):
    out = {"game": name, "positions": n, "stable": 0, "honest": 0, "search stable": 0,
           "search honest": 0, "exact": 0}
    its = []
    for state in positions(name, n, seed):
        view = from_json(state.information_state(state.current_player()).view)
        hints = [advise(view, seed=k, limit=make_limit(seconds)) for k in range(seeds)]
        runs = []
        for h in hints:
            if "exact" in h:
                runs.append((h["exact"]["best"][0], set(h["exact"]["best"])))
            else:
                runs.append((h["search"]["action"], set(h["search"]["equal"])))
        tally(runs, out, "")
        if "exact" in hints[0]:
            out["exact"] += 1
            searched = [best_move(view, Limit(time=seconds), seed=k) for k in range(seeds)]
            search = [(r.action, set(r.equal)) for r in searched]
            its += [r.iterations for r in searched]
        else:
            search = runs
            its += [h["search"]["iterations"] for h in hints]
        tally(search, out, "search ")
    out["iterations"] = statistics.median(its)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    ap.add_argument("--positions", type=int, default=50)
    ap.add_argument("--time", type=float, default=1.0, help="seconds a search (the default)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"search seeds 0-4 at {args.time:g} s a search; positions seeded from {args.seed}")
    print("| game | positions (solved exactly) | hint: same advice for 5 seeds | differing, "
          "alternatives marked as good | search alone: same advice | differing, marked "
          "as good | median iterations | wall time |")
    print("|---|---|---|---|---|---|---|---|")

    def share(r, key):
        n = r["positions"]
        return f"{r[key + 'stable']} ({100 * r[key + 'stable'] / n:.0f}%)"

    def marked(r, key):
        unstable = r["positions"] - r[key + "stable"]
        return f"{r[key + 'honest']} of {unstable}" if unstable else "-"

    for name in args.games:
        t0 = time.perf_counter()
        r = measure(name, args.positions, args.seed, args.time)
        print(f"| {name} | {r['positions']} ({r['exact']}) | {share(r, '')} | {marked(r, '')} "
              f"| {share(r, 'search ')} | {marked(r, 'search ')} | {r['iterations']:,.0f} "
              f"| {time.perf_counter() - t0:.0f} s |", flush=True)


if __name__ == "__main__":
    main()
