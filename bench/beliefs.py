"""How well the beliefs place the cards a seat cannot see (issue #39).

    python bench/beliefs.py --games dix trix --positions 1000
    python bench/beliefs.py --games trix --positions 300 --alphas 0.5,0.75,1 --pools 512,2048

Positions come from self-play of ``--bot`` (the bot the opponent models
were fitted to), at random decisions: every ``--every``-th decision of a
deal, the view of the seat to move.  At each position and for each unseen
card, the log-probability that the beliefs give to the card's true holder
(``solver.search.beliefs``, the same pool of worlds a search of the view
draws), with inference (the game's fitted model; ``--alphas`` tempers it,
``--pools`` sizes the pool) and without (uniform among the deals the hard
facts allow), beside the naive baseline (every possible holder alike).
A probability is counted at least ``FLOOR`` (a pool can miss a holder).
Also: how often the most likely holder is the true one, and the mean
effective sample size of the pool.

The figures go to docs/search.md ("Beliefs"); dix-exchange's "cards" are
the values of the other seats' cards.

    python bench/beliefs.py --cost --games dix trix --positions 100 --iterations 10000

``--cost`` times instead one decision of ``best_move`` (ISMCTS, one tree,
one thread, ``--iterations``) on each position with inference and without,
interleaved, in CPU time: decisions a second each way and their ratio.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from solver.beliefs import ModelParams, weigh
from solver.position import SeatView
from solver.search.service import belief_seed
from solver.search.support import support_for

#: the least probability counted (a pool may give a holder no world)
FLOOR = 1e-3
GAMES: dict[str, tuple[str, dict]] = {"dix": ("dix", {}), "dix-seventeen": ("dix", {"variant": "seventeen"}),
         "trix": ("trix", {}), "tricks": ("tricks", {}), "rook": ("dixie-rook", {}),
         "rook6": ("dixie-rook", {"players": 6}), "exchange": ("dix-exchange", {"players": 5}),
         "exchange8": ("dix-exchange", {"players": 8})}


def positions(game, n: int, bot: str, seed: int, every: int):
    """``n`` (true state, view) pairs from self-play: each deal's
    decisions, one in ``every`` on average, where the view leaves more than
    one world."""
    rng = random.Random(seed)
    out: list = []
    match = 0
    while len(out) < n:
        state = game.new_initial_state(seed=seed * 10_000 + match)
        bots = [make_bot(bot, game, s, seed=(seed * 10_000 + match) * 10 + s)
                for s in range(game.num_players)]
        match += 1
        start = state.round_index()
        while not state.is_terminal() and state.round_index() - start < 2 and len(out) < n:
            seat = state.current_player()
            if len(state.legal_actions()) > 1 and rng.random() < 1 / every:
                view = SeatView.of(state, seat)
                if view.sampler().worlds() != 1:
                    out.append((state.clone(), view))
            state.apply_action(bots[seat].step(state))
    return out


def truth(state, sampler) -> list[tuple[int, object]]:
    """Each unseen card's true holder: ``(card bit, holder)`` from the
    true deal's row (dix-exchange: each other seat's card value)."""
    row = sampler.row_of(state)
    unseen = sampler.unseen()
    out = []
    for p, holder in enumerate(sampler.place_holders()):
        if holder is None:
            continue
        m = row[p] & unseen
        while m:
            low = m & -m
            out.append((low.bit_length() - 1, holder))
            m ^= low
    return out


def score(report: dict, true: list) -> tuple[float, int, int, float]:
    """(sum of log-probabilities of the true holders, cards counted, cards
    whose most likely holder is the true one, the naive sum: every holder
    of the card alike)."""
    total = naive = 0.0
    hits = cards = 0
    for card, holder in true:
        probs = report.get(card, {})
        total += math.log(max(probs.get(holder, 0.0), FLOOR))
        naive += math.log(1 / max(1, len(probs)))
        if probs:
            hits += max(probs, key=lambda h: probs[h]) == holder
        cards += 1
    return total, cards, hits, naive


def run(name: str, n: int, bot: str, seed: int, every: int, alphas, pools) -> list:
    game_name, options = GAMES[name]
    game = solver.load_game(game_name, **dict(options))
    model = support_for(game).opponent_model(game)
    assert model is not None, game_name
    fitted = model.params()
    t0 = time.perf_counter()
    pos = positions(game, n, bot, seed, every)
    made = time.perf_counter() - t0
    rows = []
    configs = [("hard facts", None, pools[0])] + [(f"alpha {a:g}", a, p)
                                                  for a in alphas for p in pools]
    for label, alpha, pool in configs:
        tot = naive = ess = 0.0
        cards = hits = 0
        cost = 0.0
        for i, (state, view) in enumerate(pos):
            sampler = view.sampler()
            true = truth(state, sampler)
            t = time.perf_counter()
            if alpha is None:
                b = weigh(sampler, None, None, pool, belief_seed(i))
            else:
                params = ModelParams(fitted.kinds, fitted.floor, alpha)
                b = weigh(sampler, model.observations(sampler), params, pool, belief_seed(i))
            cost += time.perf_counter() - t
            s, c, h, nv = score(b.marginals(), true)
            tot += s
            naive += nv
            cards += c
            hits += h
            ess += b.ess
        rows.append((name, label, pool, tot / cards, naive / cards, hits / cards,
                     ess / len(pos), cost / len(pos) * 1000))
    print(f"# {name}: {len(pos)} positions ({cards} unseen cards counted per row), "
          f"made by {bot} in {made:.0f} s", flush=True)
    return rows


def cost(name: str, n: int, bot: str, seed: int, every: int, iterations: int,
         pool: int) -> tuple:
    """CPU seconds of a decision with and without inference on the same
    positions (alternating which goes first)."""
    from solver.search import Limit, best_move
    game_name, options = GAMES[name]
    game = solver.load_game(game_name, **dict(options))
    pos = positions(game, n, bot, seed, every)
    on = off = 0.0
    for i, (_, view) in enumerate(pos):
        runs = [(True, "on"), (False, "off")] if i % 2 == 0 else [(False, "off"), (True, "on")]
        for inference, _ in runs:
            fresh = SeatView.of(view.world(seed=0), view.seat)      # a fresh sampler
            t = time.process_time()
            best_move(fresh, Limit(iterations=iterations), seed=i, trees=1, threads=1,
                      inference=inference, pool=pool, exact=False)
            spent = time.process_time() - t
            if inference:
                on += spent
            else:
                off += spent
    return name, len(pos), len(pos) / off, len(pos) / on, on / off


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--bot", default="ismcts:iterations=10000,threads=1")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=6)
    ap.add_argument("--alphas", default="1")
    ap.add_argument("--pools", default="512")
    ap.add_argument("--cost", action="store_true", help="time decisions with and without")
    ap.add_argument("--iterations", type=int, default=10_000)
    args = ap.parse_args()
    if args.cost:
        print("| game | positions | decisions/s without | with inference | slower by |")
        print("|---|---|---|---|---|")
        for g in args.games:
            r = cost(g, args.positions, args.bot, args.seed, args.every, args.iterations,
                     int(args.pools.split(",")[0]))
            print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.1f} | {r[4]:.2f}x |", flush=True)
        return
    alphas = [float(a) for a in args.alphas.split(",")]
    pools = [int(p) for p in args.pools.split(",")]
    print("| game | beliefs | pool | mean log p(true holder) | naive | most likely right | "
          "ess | ms |")
    print("|---|---|---|---|---|---|---|---|")
    for g in args.games:
        for r in run(g, args.positions, args.bot, args.seed, args.every, alphas, pools):
            print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:.4f} | {r[4]:.4f} | {r[5]:.1%} | "
                  f"{r[6]:.0f} | {r[7]:.1f} |", flush=True)


if __name__ == "__main__":
    main()
