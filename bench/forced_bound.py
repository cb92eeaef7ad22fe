"""Trix penalty contracts (paranoid, one max seat): the kernel's forced
trick bound (``Kernel.use_forced_bound``, docs/solver.md "Issue #18,
fourth round") off and on, in exact node counts, on seeded positions.

    python bench/forced_bound.py --n 30 --from-trick 5
    python bench/forced_bound.py --n 30 --from-trick 4 --cap 5000000

Each position: ``trix_full_deals.build(game, contract, seed, from_trick)``
(seeds 1.., the first ``--n`` that reach the contract), solved by
``solver.dd.solve`` for the seat on lead (every legal card, a fresh table
for each solve), once with the bound off and once on.  The values of
every card must be identical (the bound is exact); the command prints
the node totals per contract, the change, and how often the bound cut.
Node counts do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from trix_full_deals import build


def run(st, on: bool, cap: int):
    kern = dd.kernel_for()
    kern.new_table()
    kern.use_forced_bound = on
    try:
        r = solve(st, max_nodes=cap)
    except SearchAborted:
        return None, 0, 0
    finally:
        kern.use_forced_bound = True
    return dict(r.action_values), r.nodes, kern.forced_hits


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=30, help="positions per contract")
    ap.add_argument("--from-trick", type=int, default=5)
    ap.add_argument("--cap", type=int, default=5_000_000, help="nodes per solve at most")
    ap.add_argument("--contracts", default="king,queens,diamonds,ltoosh")
    a = ap.parse_args(argv)
    game = solver.load_game("trix")
    for name in a.contracts.split(","):
        off = on = hits = over = done = 0
        seed = 0
        while done + over < a.n and seed < 40 * a.n:
            seed += 1
            st = build(game, name, seed, a.from_trick)
            if st is None:
                continue
            v0, n0, _ = run(st, False, a.cap)
            v1, n1, h = run(st, True, a.cap)
            if v0 is None or v1 is None:
                over += 1
                continue
            if v0 != v1:
                raise SystemExit(f"{name} seed {seed}: values differ: {v0} vs {v1}")
            off += n0
            on += n1
            hits += h
            done += 1
        print(f"{name:<9} {done} positions ({over} over the cap): off {off / 1e6:8.3f} M nodes, "
              f"on {on / 1e6:8.3f} M ({100 * (on - off) / max(off, 1):+.2f}%), "
              f"cut-offs by the bound {hits}; every card's value identical", flush=True)


if __name__ == "__main__":
    with dd.probing():          # the measuring build: switches and counters
        main()
