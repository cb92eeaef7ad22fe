"""Move ordering of the double-dummy solvers: the first-move cut rate per
game / contract and position in the trick (issue #18).

    python bench/dd_ordering.py --n 30
    python bench/dd_ordering.py --n 10 --rows bridge,king --cap 2000000
    python bench/dd_ordering.py --n 10 --rows king,diamonds --trix-from 1 --cap 10000000 --profile

For every cut-off node (a node whose search stopped early because a move
reached the window's edge) the solvers count whether the FIRST move
searched was the one that cut, per position in the trick (0 = the leader);
DDS reports 90%+ at most positions.  Printed per position: the share of cut
nodes cut by their first move, the mean number of moves searched at a cut
node, and the share of nodes that searched every move (no cut-off).
``--profile`` adds where the nodes went: their share by tricks left, and
how many of the leader's nodes there the table settled.

Positions (seeds 0.., the same every run; a fresh table each; only solves
that finish under ``--cap`` nodes count):

* ``bridge``: random 9-card endings (trick 5), the five strains in turn,
  the side on lead, the generic kernel (``solver.dd._dd``);
* ``king``, ``queens``, ``diamonds``, ``ltoosh``: trix deals from trick 5
  (``bench/trix_full_deals.py``'s deals), paranoid, the seat to move;
* ``rook``: dixie-rook, 4 seats, from trick 6 (``bench/dd_switches.py``'s);
* ``dix``: dix from trick 14 (both hands known), the dix solver
  (``solver.dd._dixdd``; positions 0 = leader, 1 = follower).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from compare_dds import bridge_ending, dix_from_trick
from dd_switches import rook_from
from solver.cards import mask_of
from solver.dd import dix as dixdd
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from trix_full_deals import build


def bridge_jobs(n, cards=9):
    for seed in range(n):
        strain = seed % 5
        hands, leader = bridge_ending(7000 + seed, cards)
        pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                               tuple(mask_of(h) for h in hands), leader)
        yield lambda cap, pos=pos, leader=leader: dd.solve_position(
            pos, max_team=leader % 2, max_nodes=cap)


def trix_jobs(name, n, from_trick=5):
    game = solver.load_game("trix")
    found = 0
    for seed in range(1, 50 * n):
        st = build(game, name, seed, from_trick)
        if st is None:
            continue
        found += 1
        yield lambda cap, st=st: solve(st, max_nodes=cap)
        if found >= n:
            return


def rook_jobs(n, from_trick=6):
    for seed in range(n):
        st = rook_from(seed, 4, from_trick)
        yield lambda cap, st=st: solve(st, max_nodes=cap)


def dix_jobs(n, from_trick=14):
    for seed in range(n):
        st = dix_from_trick(seed, from_trick)
        yield lambda cap, st=st: solve(st, max_nodes=cap)


def measure(label, jobs, kernel, cap, profile=False):
    """Sum the kernel's cut counters over the solves that finish (and,
    with ``profile``, its node profile)."""
    total = None
    where: dict = {}
    solved = 0
    nodes = 0
    every = 0                   # the capped solves counted at the cap
    for job in jobs:
        kernel.new_table()
        kernel.reset_cut_stats()
        try:
            r = job(cap)
        except SearchAborted:
            every += cap
            continue
        every += r.nodes
        solved += 1
        nodes += r.nodes
        if profile:
            for t, (row, hits) in kernel.node_profile().items():
                old_row, old_hits = where.get(t, ((0,) * len(row), 0))
                where[t] = (tuple(a + b for a, b in zip(old_row, row, strict=True)),
                            old_hits + hits)
        st = kernel.cut_stats()
        total = st if total is None else [tuple(a + b for a, b in zip(x, y, strict=True))
                                          for x, y in zip(total, st, strict=True)]
    if not total:
        print(f"{label:<10} no solve finished under the cap")
        return
    cells = []
    for p, (cuts, first, moves, alls) in enumerate(total):
        if cuts:
            cells.append(f"pos {p}: {100 * first / cuts:5.1f}% first, {moves / cuts:4.2f} moves/cut,"
                         f" {100 * alls / max(cuts + alls, 1):4.1f}% all-nodes")
        else:
            cells.append(f"pos {p}: no cut nodes")
    cuts = sum(t[0] for t in total)
    first = sum(t[1] for t in total)
    print(f"{label:<10} n={solved:<3} nodes {nodes / 1e6:8.3f} M (with the capped ones "
          f"{every / 1e6:8.3f} M)  all {100 * first / max(cuts, 1):5.1f}% "
          f"first  | " + "  | ".join(cells), flush=True)
    if where:
        alln = sum(sum(row) for row, _ in where.values())
        print(f"{'':<10} nodes by tricks left (share; leader's nodes the table settled): "
              + ", ".join(f"{t}: {100 * sum(row) / alln:.1f}% ({100 * hits / max(row[0], 1):.0f}%)"
                          for t, (row, hits) in sorted(where.items(), reverse=True)
                          if sum(row) >= alln / 200), flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=30, help="positions per row")
    ap.add_argument("--rows", default="bridge,king,queens,diamonds,ltoosh,rook,dix")
    ap.add_argument("--cap", type=int, default=5_000_000, help="nodes per solve at most")
    ap.add_argument("--bridge-cards", type=int, default=9, help="bridge: cards a hand")
    ap.add_argument("--trix-from", type=int, default=5, help="trix rows: the first trick")
    ap.add_argument("--rook-from", type=int, default=6, help="rook row: the first trick")
    ap.add_argument("--dix-from", type=int, default=14, help="dix row: the first trick")
    ap.add_argument("--order", type=int, default=None,
                    help="the move-ordering rules of the probe kernel (bits, csrc/dd/ddstats.pxd "
                         "ORD_*; 0: the ordering before issue #26, the dix solver's too; "
                         "default: all)")
    ap.add_argument("--profile", action="store_true",
                    help="where the nodes went, by tricks left")
    a = ap.parse_args(argv)
    rows = a.rows.split(",")
    kern = dd.kernel_for()
    if a.order is not None:
        kern.order = a.order
        # the dix solver's rules too: 0 is the ordering before issue #26
        dixdd.solver_for().order = 1 if a.order else 0
    print(f"first-move cut rate, {a.n} positions a row (those finishing under {a.cap:,} "
          f"nodes), a fresh table each", flush=True)
    if "bridge" in rows:
        measure("bridge", bridge_jobs(a.n, a.bridge_cards), kern, a.cap, a.profile)
    for name in ("king", "queens", "diamonds", "ltoosh"):
        if name in rows:
            measure(name, trix_jobs(name, a.n, a.trix_from), kern, a.cap, a.profile)
    if "rook" in rows:
        measure("rook", rook_jobs(a.n, a.rook_from), kern, a.cap, a.profile)
    if "dix" in rows:
        measure("dix", dix_jobs(a.n, a.dix_from), dixdd.solver_for(), a.cap, a.profile)


if __name__ == "__main__":
    with dd.probing():          # the measuring build: switches and counters
        main()
