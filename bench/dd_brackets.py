"""How much an unfinished double-dummy solve proves: the brackets of ``solve_within``.

    python bench/dd_brackets.py --rows king,queens,diamonds,ltoosh --n 10
    python bench/dd_brackets.py --rows queens --n 20 --from-trick 4 --caps 100000,1000000

The trix deals of ``bench/trix_full_deals.py`` (seed k, the contract chosen
as soon as it is legal, ``--from-trick`` minus one tricks played at
random), each solved by ``solver.dd.solve_within`` within each cap on a
fresh table.  Printed per row and cap, over the solves that did not finish:
how many, the median width of an action's bracket as a share of the
game's range from there (``Bounded.span``; 1.0: nothing proved), how many
actions' brackets are narrower than that range and how many are exact
(docs/solver.md, "Brackets").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from solver.dd import solve_within
from solver.dd.session import default_solver
from trix_full_deals import CONTRACTS, build


def row(name: str, n: int, from_trick: int, caps: list[int]) -> None:
    game = solver.load_game("trix")
    states: list = []
    seed = 1
    while len(states) < n and seed < 40 * n:
        st = build(game, name, seed, from_trick)
        seed += 1
        if st is not None:
            states.append(st)
    for cap in caps:
        widths: list[float] = []
        exact = unfinished = 0
        for st in states:
            default_solver().clear()        # every cap from the same fresh table
            got = solve_within(st, cap)
            if got.finished or got.brackets is None or got.span is None:
                continue
            unfinished += 1
            span = got.span[1] - got.span[0]
            for lo, hi in got.brackets.values():
                widths.append((hi - lo) / span if span else 0.0)
                exact += lo == hi
        median = f"{statistics.median(widths):.2f}" if widths else "-"
        print(f"{name:9s} from trick {from_trick}  cap {cap:>11,}  unfinished "
              f"{unfinished}/{len(states)}  median width / range {median}  narrowed "
              f"{sum(w < 1 for w in widths)}/{len(widths)}  exact {exact}/{len(widths)}",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default="king,queens,diamonds,ltoosh",
                    help=f"trix contracts, comma-separated ({', '.join(CONTRACTS)})")
    ap.add_argument("--n", type=int, default=10, help="deals a row")
    ap.add_argument("--from-trick", type=int, default=1, help="the trick the solves start at")
    ap.add_argument("--caps", default="1000000,10000000", help="node caps, comma-separated")
    a = ap.parse_args()
    caps = [int(c) for c in a.caps.split(",")]
    for name in a.rows.split(","):
        if name not in CONTRACTS:
            ap.error(f"--rows: unknown contract {name!r} (known: {', '.join(CONTRACTS)})")
        row(name, a.n, a.from_trick, caps)


if __name__ == "__main__":
    main()
