"""Which trick boundaries the generic kernel searches (issue #40): the
boundaries with ``--tricks-left`` tricks left that no bound and no table
entry settled, grouped, with the nodes of their subtrees.

    python bench/dd_boundaries.py --contract king --tricks-left 6 --n 12
    python bench/dd_boundaries.py --contract queens --from-trick 5 --tricks-left 4 --n 20

The trix deals of ``bench/trix_full_deals.py`` (seeds 1..), paranoid, the
seat to move M, every legal card, a fresh table each; the probe build
keeps every searched boundary at that depth (``ProbeKernel.record_boundaries``;
a solve stopped at ``--cap`` keeps what it finished).  Each group: whether
M holds a penalty card (a card with points; Ltoosh has none), whether the
boundary's answer was M's side of its window (M reaches the window: an
escape, every move of the other three refuted) or the other side (a
catch), and who leads; the groups are sorted by their nodes.  A bound that
settles most of the largest group is the next step; the share of a solve's
nodes below the depth says what one would save.  ``--show K`` prints K
boundaries of the largest group.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from solver.cards import FRENCH, cards_of
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from solver.games.contract_match.exact import PENALTY_CONTRACTS
from trix_full_deals import build


def group(hands, leader, me, alpha, beta, result, pen_mask):
    held = "M holds penalty cards" if hands[me] & pen_mask else "M holds none"
    if not any(h & pen_mask for h in hands) and pen_mask:
        held = "no penalty card left"
    answer = "M reaches the window" if result >= beta else (
        "M falls short" if result <= alpha else "exact")
    return held, answer, "M leads" if leader == me else "another seat leads"


def show(hands, me, leader, alpha, beta, result, nodes) -> None:
    print(f"  M = seat {me}, seat {leader} leads, window ({alpha}, {beta}), answer {result}, "
          f"{nodes} nodes")
    for s, h in enumerate(hands):
        print(f"   {'M' if s == me else ' '}{s}: " + " | ".join(
            FRENCH.format_cards([c for c in cards_of(h) if c >> 4 == suit]) for suit in range(4)))


def main(argv=None) -> None:
    with dd.probing():          # the measuring build: switches and counters
        _main(argv)


def _main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--contract", default="king", choices=("king", "queens", "diamonds", "ltoosh"))
    ap.add_argument("--from-trick", type=int, default=1)
    ap.add_argument("--tricks-left", type=int, default=6)
    ap.add_argument("--n", type=int, default=12, help="deals")
    ap.add_argument("--cap", type=int, default=10_000_000, help="nodes per solve at most")
    ap.add_argument("--show", type=int, default=0, help="print this many of the largest group")
    a = ap.parse_args(argv)
    game = solver.load_game("trix")
    pen_mask = sum(1 << c for c in PENALTY_CONTRACTS[a.contract][0])
    kern = dd.kernel_for()
    nodes_by: Counter = Counter()
    count_by: Counter = Counter()
    kept = []
    total = below = found = 0
    for seed in range(1, 50 * a.n):
        st = build(game, a.contract, seed, a.from_trick)
        if st is None:
            continue
        found += 1
        me = st.current_player()
        kern.new_table()
        kern.record_boundaries(a.tricks_left, 2_000_000)
        try:
            nodes = solve(st, max_nodes=a.cap).nodes
            how = "finished"
        except SearchAborted as e:
            nodes, how = e.nodes, "capped"
        recs = kern.boundaries()
        sub = sum(r[5] for r in recs)
        total += nodes
        below += sub
        print(f"seed {seed}: M = seat {me}, {nodes:,} nodes ({how}), {len(recs):,} boundaries "
              f"searched at {a.tricks_left} tricks left, {sub:,} nodes there", flush=True)
        for hands, leader, alpha, beta, result, n in recs:
            g = group(hands, leader, me, alpha, beta, result, pen_mask)
            nodes_by[g] += n
            count_by[g] += 1
            kept.append((g, hands, me, leader, alpha, beta, result, n))
        if found >= a.n:
            break
    kern.record_boundaries(0, 0)
    print(f"{found} deals, {total:,} nodes, {below:,} ({100 * below / max(total, 1):.0f}%) in the "
          f"subtrees of searched boundaries at {a.tricks_left} tricks left:")
    for g, n in nodes_by.most_common():
        print(f"  {', '.join(g):<70} {count_by[g]:>9,} boundaries  {n:>12,} nodes "
              f"({100 * n / max(below, 1):4.1f}%)  {n / count_by[g]:7.1f} a boundary")
    if a.show and nodes_by:
        top = nodes_by.most_common(1)[0][0]
        pick = [k for k in kept if k[0] == top]
        for k in random.Random(1).sample(pick, min(a.show, len(pick))):
            show(*k[1:])


if __name__ == "__main__":
    main()
