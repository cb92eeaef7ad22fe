"""The generic kernel's bounds and rules off and on, in exact node counts,
row by row (issue #40: each step with its node counts before and after).

    python bench/dd_switches.py --rows king,queens --from-trick 1 --n 20 --cap 10000000
    python bench/dd_switches.py --rows king --from-trick 5 --n 40 --off use_cover_bound=0
    python bench/dd_switches.py --rows rook,bridge --n 30 --off use_duck_match=0,use_cover_bound=0

Every position is solved twice in the measuring build (``solver.dd.trick.probing``),
a fresh table each time: once with the switches of ``--off`` set (the
kernel before the step; the probe build's properties, e.g.
``use_cover_bound=0``) and once with every switch at its default (the
shipped kernel's nodes).  The values of every card must be identical
where both finish; the command prints, per row, the positions each side
finished under ``--cap``, their node totals on the positions both
finished, every node searched (a capped solve counted at the cap) and the
change, and the process's CPU time of every solve each way (the two
solves of a position run one after the other, so the machine's load
moves both alike).  Node counts do not depend on the machine's load.

Rows (seeds 1.. or 0.., the same every run; the seat to move, every legal
card): ``king``, ``queens``, ``diamonds``, ``ltoosh``: trix deals
(``bench/trix_full_deals.py``'s) from ``--from-trick``, paranoid;
``rook``, ``rook6``: dixie-rook from ``--from-trick`` (``rook_from``: a random
auction, nest and trump, then random cards);
``bridge``: bridge deals of ``--bridge-cards`` cards a hand, the five
strains in turn, the side on lead.
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
from compare_dds import bridge_ending, rook_start
from solver.cards import mask_of
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from trix_full_deals import build

TRIX = ("king", "queens", "diamonds", "ltoosh")


def rook_from(seed: int, seats: int, trick: int):
    """A dixie-rook state at the first card of trick ``trick`` (1-based):
    ``compare_dds.rook_start``'s auction, nest and trump, then random legal
    cards (seed + 7777)."""
    st = rook_start(seed, seats)
    rng = random.Random(seed + 7777)
    while sum(st.tricks_won) < trick - 1 and not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def jobs(row: str, n: int, from_trick: int, bridge_cards: int):
    """``n`` solve functions of a row: each takes a node cap and returns
    (card values, nodes)."""
    if row in TRIX:
        game = solver.load_game("trix")
        found = 0
        for seed in range(1, 50 * n):
            st = build(game, row, seed, from_trick)
            if st is None:
                continue
            found += 1
            yield lambda cap, st=st: solve(st, max_nodes=cap)
            if found >= n:
                return
    elif row in ("rook", "rook6"):
        for seed in range(n):
            st = rook_from(seed, 6 if row == "rook6" else 4, from_trick)
            yield lambda cap, st=st: solve(st, max_nodes=cap)
    elif row == "bridge":
        for seed in range(n):
            strain = seed % 5
            hands, leader = bridge_ending(7000 + seed, bridge_cards)
            pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                                   tuple(mask_of(h) for h in hands), leader)
            yield lambda cap, pos=pos, leader=leader: dd.solve_position(
                pos, max_team=leader % 2, max_nodes=cap)
    else:
        raise SystemExit(f"unknown row {row!r}")


def run(job, switches: dict, cap: int):
    """(values or None when capped, nodes) with ``switches`` set."""
    kern = dd.kernel_for()
    saved = {k: getattr(kern, k) for k in switches}
    kern.new_table()
    for k, v in switches.items():
        setattr(kern, k, v)
    try:
        r = job(cap)
    except SearchAborted as e:
        return None, e.nodes
    finally:
        for k, v in saved.items():
            setattr(kern, k, v)
    values = dict(getattr(r, "action_values", None) or r.card_values)
    return values, r.nodes


def parse_switches(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        out[name] = int(value)
    return out


def main(argv=None) -> None:
    with dd.probing():          # the measuring build: switches and counters
        _main(argv)


def _main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default="king,queens,diamonds,ltoosh")
    ap.add_argument("--n", type=int, default=20, help="positions per row")
    ap.add_argument("--from-trick", type=int, default=1)
    ap.add_argument("--bridge-cards", type=int, default=9)
    ap.add_argument("--cap", type=int, default=10_000_000, help="nodes per solve at most")
    ap.add_argument("--off", required=True,
                    help="the switches of the 'before' kernel, e.g. use_cover_bound=0")
    ap.add_argument("-v", action="store_true", help="a line a position")
    a = ap.parse_args(argv)
    off = parse_switches(a.off)
    print(f"before: {a.off}; after: every switch at its default; cap {a.cap:,} nodes; "
          f"from trick {a.from_trick}", flush=True)
    for row in a.rows.split(","):
        done = [0, 0]
        both = [0, 0]
        every = [0, 0]
        cpu = [0.0, 0.0]
        count = 0
        for i, job in enumerate(jobs(row, a.n, a.from_trick, a.bridge_cards)):
            t0 = time.process_time()
            v0, n0 = run(job, off, a.cap)
            t1 = time.process_time()
            v1, n1 = run(job, {}, a.cap)
            cpu[0] += t1 - t0
            cpu[1] += time.process_time() - t1
            count += 1
            done[0] += v0 is not None
            done[1] += v1 is not None
            every[0] += n0
            every[1] += n1
            if v0 is not None and v1 is not None:
                if v0 != v1:
                    raise SystemExit(f"{row} position {i}: values differ: {v0} vs {v1}")
                both[0] += n0
                both[1] += n1
            if a.v:
                print(f"  {row} {i}: before {n0:>10,}{'' if v0 is not None else ' (capped)'}"
                      f"  after {n1:>10,}{'' if v1 is not None else ' (capped)'}", flush=True)
        print(f"{row:<9} {count} positions: finished before {done[0]}, after {done[1]}; "
              f"both finished: {both[0] / 1e6:9.3f} M -> {both[1] / 1e6:9.3f} M nodes "
              f"({100 * (both[1] - both[0]) / max(both[0], 1):+.1f}%); every node "
              f"{every[0] / 1e6:9.3f} M -> {every[1] / 1e6:9.3f} M "
              f"({100 * (every[1] - every[0]) / max(every[0], 1):+.1f}%); CPU {cpu[0]:.2f} s -> "
              f"{cpu[1]:.2f} s ({100 * (cpu[1] - cpu[0]) / max(cpu[0], 1e-9):+.1f}%)", flush=True)


if __name__ == "__main__":
    main()
