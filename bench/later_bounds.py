"""Bridge: the kernel's later-tricks bounds (``Kernel.use_later_bounds``,
docs/solver.md "Issue #18, fourth round") off and on, in exact node
counts, on seeded endings.

    python bench/later_bounds.py --n 100 --cards 9
    python bench/later_bounds.py --n 30 --cards 11 --cap 20000000

Each position: ``compare_dds.bridge_ending(7000 + seed, cards)`` (cards
a hand, a random leader), the five strains in turn (seed % 5: C D H S N),
solved for the side on lead, every legal card (all-solutions mode, a
fresh table for each solve), once with the bounds off and once on.  The
values of every card must be identical (the bounds are exact); the
command prints the node totals per strain and in all, the change, and how
often the bounds alone made a cut-off.  Node counts do not depend on the
machine's load.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from compare_dds import bridge_ending
from solver.cards import mask_of
from solver.dd import trick as dd
from solver.errors import SearchAborted


def solve(pos, later: int, cap: int):
    kern = dd.kernel_for()
    kern.new_table()
    kern.use_later_bounds = later
    try:
        r = dd.solve_position(pos, max_team=pos.leader % 2, max_nodes=cap)
    except SearchAborted:
        return None, 0, 0
    finally:
        kern.use_later_bounds = 7
    return r, r.nodes, kern.later_hits


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100, help="positions (strains in turn)")
    ap.add_argument("--cards", type=int, default=9, help="cards a hand")
    ap.add_argument("--cap", type=int, default=20_000_000, help="nodes per solve at most")
    a = ap.parse_args(argv)
    off = [0] * 5
    on = [0] * 5
    hits = over = 0
    for seed in range(a.n):
        strain = seed % 5
        hands, leader = bridge_ending(7000 + seed, a.cards)
        pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                               tuple(mask_of(h) for h in hands), leader)
        r0, n0, _ = solve(pos, 0, a.cap)
        r1, n1, h = solve(pos, 7, a.cap)
        if r0 is None or r1 is None:
            over += 1
            continue
        if r0.card_values != r1.card_values:
            raise SystemExit(f"seed {seed}: values differ: {r0.card_values} vs {r1.card_values}")
        off[strain] += n0
        on[strain] += n1
        hits += h
    for s in range(5):
        if off[s]:
            print(f"{'CDHSN'[s]}: off {off[s] / 1e6:8.3f} M  on {on[s] / 1e6:8.3f} M  "
                  f"{100 * (on[s] - off[s]) / off[s]:+6.2f}%")
    t0, t1 = sum(off), sum(on)
    print(f"all {a.n - over} positions ({over} over the cap): off {t0 / 1e6:.3f} M nodes, "
          f"on {t1 / 1e6:.3f} M ({100 * (t1 - t0) / max(t0, 1):+.2f}%), "
          f"cut-offs by the later bounds alone {hits}; every card's value identical")


if __name__ == "__main__":
    with dd.probing():          # the measuring build: switches and counters
        main()
