"""Full-deal timings of the double-dummy kernel on the trix penalty contracts.

    python bench/trix_full_deals.py                      # 20 deals per contract
    python bench/trix_full_deals.py --n 50 --contract queens --budget 5
    python bench/trix_full_deals.py --from-trick 4       # 3 tricks already played
    python bench/trix_full_deals.py --from-trick 4 --n 30 --max-nodes 5000000 --budget 600

Each deal is built through the real game (``trix``, seed k): random legal
actions, except that the wanted contract is chosen as soon as it is legal,
until the deal's card play starts (``phase == TRICKS``); then ``--from-trick``
minus one tricks are played at random.  ``solver.dd.solve`` then gives the
paranoid value of every legal card of the seat to move.  Each solve runs in a
child process and is stopped after ``--budget`` seconds (counted as the
budget, flagged ">" with -v); ``--max-nodes`` stops a solve past that many
nodes instead (deterministic: the node totals then compare builds exactly;
a stopped solve counts the nodes it searched).  Printed per contract: median / 95th
percentile / worst time (the p95 of 10 solves is the worst), median / worst
nodes of the solves that finished, and the peak memory of a solve (the
largest child's RSS).  Target: median <= 100 ms, p95 <= 1 s
from trick 1.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import solver
from solver.dd import solve
from solver.errors import SearchAborted
from solver.games.contract_match.state import TRICKS
from solver.games.contract_match.trick_play import DIAMONDS_CONTRACT, KING_OF_HEARTS, LTOOSH, QUEENS

CONTRACTS = {"king": KING_OF_HEARTS, "queens": QUEENS, "diamonds": DIAMONDS_CONTRACT,
             "ltoosh": LTOOSH}
CHOICE = {"king": "contract kinghearts", "queens": "contract queens",
          "diamonds": "contract diamonds", "ltoosh": "contract ltoosh"}


def build(game, name: str, seed: int, from_trick: int):
    """A trix state at the start of trick ``from_trick`` of contract ``name``
    (None if the seed's match never reaches it)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    want = CONTRACTS[name]
    for _ in range(2000):
        if s.is_terminal():
            return None
        if s.phase == TRICKS:
            break
        legal = s.legal_actions()
        try:
            a = s.string_to_action(CHOICE[name])
        except Exception:
            a = None
        s.apply_action(a if a in legal else rng.choice(legal))
    else:
        return None
    if s.phase != TRICKS or s.log.contract != want:
        return None
    while s.phase == TRICKS and s.log.play.tricks_done < from_trick - 1:
        s.apply_action(rng.choice(s.legal_actions()))
    while s.phase == TRICKS and s.log.play.trick:      # start at a trick boundary
        s.apply_action(rng.choice(s.legal_actions()))
    if s.phase != TRICKS:
        return None
    return s


def _child(conn, name, seed, from_trick, tt_mb, max_nodes=None):
    game = solver.load_game("trix")
    s = build(game, name, seed, from_trick)
    t0 = time.perf_counter()
    try:
        r = solve(s, tt_mb=tt_mb, max_nodes=max_nodes)
    except SearchAborted as e:
        conn.send((time.perf_counter() - t0, e.nodes, None))
    else:
        conn.send((time.perf_counter() - t0, r.nodes, r.value))
    conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20, help="deals per contract")
    ap.add_argument("--contract", default="king,queens,diamonds,ltoosh")
    ap.add_argument("--from-trick", type=int, default=1)
    ap.add_argument("--budget", type=float, default=10.0, help="seconds per solve")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tt-mb", type=int, default=64, help="transposition table MiB")
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="stop a solve past this many nodes (counted where they stopped)")
    ap.add_argument("-v", action="store_true", help="one line per solve")
    a = ap.parse_args()
    game = solver.load_game("trix")
    ctx = mp.get_context("fork")
    for name in a.contract.split(","):
        times: list[float] = []
        nodes: list[int] = []
        over, capped, total = 0, 0, 0
        seed = a.seed
        while len(times) < a.n:
            seed += 1
            if build(game, name, seed, a.from_trick) is None:
                continue
            rd, wr = ctx.Pipe(False)
            p = ctx.Process(target=_child, args=(wr, name, seed, a.from_trick, a.tt_mb,
                                                 a.max_nodes))
            p.start()
            wr.close()
            if rd.poll(a.budget):
                t, nd, v = rd.recv()
                p.join()
                times.append(t)
                total += nd
                if v is None:
                    capped += 1
                else:
                    nodes.append(nd)
                if a.v:
                    print(f"  {name} seed {seed}: {t * 1e3:.1f} ms, {nd} nodes, "
                          + ("over the node cap" if v is None else f"value {v}"))
            else:
                p.terminate()
                p.join()
                times.append(a.budget)
                over += 1
                if a.v:
                    print(f"  {name} seed {seed}: > {a.budget} s")
            rd.close()
        times.sort()
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        mark = f" ({over} over the {a.budget} s budget: counted as {a.budget} s)" if over else ""
        if a.max_nodes:
            mark += (f"; all nodes {total / 1e6:.2f} M ({capped} over {a.max_nodes:,} nodes, "
                     f"counted where they stopped)")
        print(f"{name:9s} trick {a.from_trick}: n {len(times)}  median "
              f"{statistics.median(times) * 1e3:.1f} ms  p95 {p95 * 1e3:.1f} ms  worst "
              f"{times[-1] * 1e3:.1f} ms  nodes (finished solves) median "
              f"{int(statistics.median(nodes)) if nodes else 0} worst "
              f"{max(nodes) if nodes else 0}{mark}; peak RSS of a solve "
              f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f} MiB",
              flush=True)


if __name__ == "__main__":
    main()
