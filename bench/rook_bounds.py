"""Dixie-rook: the kernel's lock bounds (the top trumps held by one side)
on and off, in exact node counts, on seeded positions from a later trick.

    python bench/rook_bounds.py --n 40 --from-trick 6
    python bench/rook_bounds.py --n 30 --from-trick 5 --seats 6 --cap 20000000
    python bench/rook_bounds.py --n 40 --from-trick 6 -v   # per position, to diff builds

Each position: a random auction, nest and trump (``compare_dds.rook_start``,
seeds 0..), then random legal cards up to the first card of trick
``--from-trick``; solved for the team on lead, every legal card (a fresh
table for each solve), once with ``use_lock_bounds`` off and once on.  The
values of every card must be identical (the bound is exact); the command
prints the node totals, the change, and how often the bound cut.  Node
counts do not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

from compare_dds import rook_start
from solver.dd import trick as dd
from solver.errors import SearchAborted
from solver.games.dixie_rook.exact import rook_contract


def rook_from(seed: int, seats: int, trick: int):
    """A dixie-rook state at the first card of trick ``trick`` (1-based)."""
    st = rook_start(seed, seats)
    rng = random.Random(seed + 7777)
    while sum(st.tricks_won) < trick - 1 and not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def position(st):
    from solver.games.dixie_rook import card_count
    n = st.game.num_players
    k = rook_contract(n, st.trump, sum(card_count(c) for c in st.discards))
    return dd.TrickPosition(k, tuple(st.hands), st.leader, tuple(st.trick),
                            points=tuple(st.count), tricks=tuple(st.tricks_won))


def solve(pos, lock: bool, cap: int):
    kern = dd.kernel_for()
    kern.new_table()
    kern.use_lock_bounds = lock
    try:
        r = dd.solve_position(pos, max_team=pos.contract.teams[pos.leader], objective="own",
                              max_nodes=cap)
    except SearchAborted:
        return None, 0, 0
    finally:
        kern.use_lock_bounds = True
    return r, r.nodes, kern.lock_hits


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=40, help="positions")
    ap.add_argument("--from-trick", type=int, default=6)
    ap.add_argument("--seats", type=int, default=4, choices=(4, 6))
    ap.add_argument("--cap", type=int, default=20_000_000, help="nodes per solve at most")
    ap.add_argument("-v", action="store_true",
                    help="per position: the nodes and every card's value with the bounds on "
                         "(diff two builds' outputs to compare them)")
    a = ap.parse_args(argv)
    off_total = on_total = hits = over = same = 0
    for seed in range(a.n):
        pos = position(rook_from(seed, a.seats, a.from_trick))
        r0, n0, _ = solve(pos, False, a.cap)
        r1, n1, h = solve(pos, True, a.cap)
        if r0 is None or r1 is None:
            over += 1
            continue
        if dict(r0.card_values) != dict(r1.card_values):
            raise SystemExit(f"seed {seed}: values differ {dict(r0.card_values)} "
                             f"{dict(r1.card_values)}")
        same += 1
        if a.v:
            print(f"  seed {seed}: {n1} nodes, values {sorted(r1.card_values.items())}")
        off_total += n0
        on_total += n1
        hits += h
    print(f"dixie-rook {a.seats} seats from trick {a.from_trick}: {same} positions solved "
          f"both ways ({over} over {a.cap:,} nodes, left out), values identical")
    print(f"nodes: lock bounds off {off_total / 1e6:.3f} M, on {on_total / 1e6:.3f} M "
          f"({100 * (on_total - off_total) / max(off_total, 1):+.1f}%), "
          f"lock cut-offs {hits} (summed over the solves with it on)")


if __name__ == "__main__":
    with dd.probing():          # the measuring build: switches and counters
        main()
