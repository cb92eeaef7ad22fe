"""Node-count signature of the double-dummy solvers (deterministic).

    python bench/dd_signature.py            # a few seconds: one line per row

Node counts do not depend on the machine's load, so two builds compare
exactly: run this script against both trees (e.g. PYTHONPATH=<old tree>)
and diff the output.  ``--probe`` runs the measuring builds of the kernels
(``solver.dd.trick.probing``): their nodes must equal the shipped ones.
Rows: dix from trick 14 (the dix solver), trix penalty contracts from
trick 7, bridge 8-card endings, dixie-rook from trick 7; each prints the
seeds' node counts, their total and the time.
"""

from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import solver
from compare_dds import bridge_ending, dix_from_trick, rook_start
from solver.cards import mask_of
from solver.dd import solve
from solver.dd import trick as dd
from trix_full_deals import build


def line(name, results, t):
    nodes = [r.nodes for r in results]
    vals = [r.value for r in results]
    print(f"{name:<18} nodes {sum(nodes):>10} {nodes}  values {vals}  {t:6.2f} s", flush=True)


def main(n: int = 6) -> None:
    t0 = time.perf_counter()
    res: list = [solve(dix_from_trick(seed, 14)) for seed in range(n)]
    line("dix14", res, time.perf_counter() - t0)
    game = solver.load_game("trix")
    for name in ("king", "queens", "diamonds", "ltoosh"):
        t0 = time.perf_counter()
        res = []
        for seed in range(1, 40):
            s = build(game, name, seed, 7)
            if s is not None:
                res.append(solve(s))
            if len(res) == n:
                break
        line(f"trix {name} t7", res, time.perf_counter() - t0)
    t0 = time.perf_counter()
    res = []
    for seed in range(n):
        hands, leader = bridge_ending(seed, 8)
        pos = dd.TrickPosition(dd.bridge_contract(seed % 5 - 1 if seed % 5 else -1),
                               tuple(mask_of(h) for h in hands), leader)
        res.append(dd.solve_position(pos, max_team=leader % 2))
    line("bridge 8", res, time.perf_counter() - t0)
    t0 = time.perf_counter()
    res = []
    for seed in range(n):
        st = rook_start(seed, 4)
        rng = random.Random(seed)
        while st.tricks_done < 6 or getattr(st, "trick", None):
            st.apply_action(rng.choice(st.legal_actions()))
        res.append(solve(st))
    line("rook4 t7", res, time.perf_counter() - t0)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--probe"]
    if "--probe" in sys.argv[1:]:
        with dd.probing():
            main(int(args[0]) if args else 6)
    else:
        main(int(args[0]) if args else 6)
