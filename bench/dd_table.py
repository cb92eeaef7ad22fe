"""The seed games' double-dummy table in one command (issues #18 and #26):
double-dummy speed on full deals.

    python bench/dd_table.py --n 100 --cap 10000000     # every row (issue #26)
    python bench/dd_table.py --n 20 --rows dix14,king --cap 5000000
    python bench/dd_table.py --n 100 --n-heavy 30 --cap 20000000
    python bench/dd_table.py --rows king,queens --order 0   # the ordering before #26

One thread, all-solutions mode (the value of every legal card), 64 MiB
table, seeded positions (seeds 0..n-1 per row, the same in every run):

* ``dix14``: dix from trick 14 (13 + 13 cards, both hands known), the dix
  solver.  Target: median <= 2 ms, p95 <= 20 ms.
* ``seventeen``: dix ``seventeen`` from trick 1 (17 + 17), the dix solver.
  Target: median <= 50 ms, p95 <= 1 s.
* ``king``, ``queens``, ``diamonds``, ``ltoosh``: trix full deals (built
  through the game as in ``bench/trix_full_deals.py``), paranoid value of
  the seat on lead, from trick 1.  Target: >= 95% under 10 M nodes, median
  <= 100 ms.
* ``rook``: dixie-rook, 4 seats, card play from trick 1 (random auction and
  discards), the team value of the seat on lead.  Target: median <= 100 ms.
  ``rook6``: the same with 6 seats (target alike).
* ``table``: a trix hand at its first contract choice: every contract from
  trick 1 for the chooser (``solver.dd.contract_table``: the four trick
  contracts and the layout), one ``Solver`` a hand; a hand counts as over
  when any contract passes the cap.
* ``bridge``: full 13-card bridge deals per strain, the side on lead; ours
  and DDS (endplay's ``solve_board``, all cards) interleaved deal by deal:
  a first solve (a fresh table for us; DDS as endplay calls it) and a
  repeated solve of the same deal (the three DDS rows of issue #26 are
  ``python bench/compare_dds.py --rows dds3``).
* ``pimc``: PIMC worlds valued per second (``solver.search.pimc.pimc_search``, 20
  worlds) at the first trick of dix and trix (``--pimc-n`` positions), in
  wall time and in the process's CPU time, with the nodes a world (solver
  nodes and rollout actions) and how many worlds the solver valued
  exactly (the others end at PIMC's node bound and are rolled out).
  Target: >= 200.
* ``kingsplit`` (not in the default rows): the ``king`` row's positions
  split by whether the seat solved for holds the King of Hearts and, when
  another seat holds it, by that seat's number of hearts: positions,
  finished under the cap, median nodes, and the values of the finished
  (where issue #26's King of Hearts row stays large).

Times are wall-clock and, beside them, the process's CPU time (what the
machine's load changes least).  A solve past ``--cap`` nodes stops (``SearchAborted``) and counts its time
(flagged "over"): median / p95 / worst are then lower bounds; each row
says how many finished under the cap.  ``--order`` runs the probe build
with those move-ordering rules (csrc/dd/ddstats.pxd ``ORD_*``; 0: the
ordering before issue #26, the dix solver's too).  ``--budget``
seconds caps each row (it says how many positions it measured).  Node
counts are exact (deterministic); wall times move with the machine's load.
The memory figure is the process's peak RSS so far.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from collections import Counter, defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))

import solver
from compare_dds import bridge_ending, dix_from_trick, rook_start
from solver.cards import HEARTS, SUIT_RANK_MASK, mask_of
from solver.cardset import popcount
from solver.dd import solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from solver.games.contract_match.trick_play import KH
from trix_full_deals import build

TARGETS = {"dix14": "median <= 2 ms", "seventeen": "median <= 50 ms",
           "trix": ">= 95% under 10 M nodes, median <= 100 ms", "rook": "median <= 100 ms",
           "table": "report", "bridge": "<= 2x DDS", "pimc": ">= 200 worlds/s"}


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values, q):
    t = sorted(values)
    return t[min(len(t) - 1, int(round(q * (len(t) - 1))))]


def fmt_t(s: float) -> str:
    return f"{1e3 * s:8.1f} ms" if s < 10 else f"{s:8.1f} s "


def summary(times, nodes, over, done=None):
    """One line: median / p95 / worst over every solve (a capped solve counts
    its time: lower bounds then), and, when some hit the cap, the median of
    the solves that finished (``done``: their (time, nodes))."""
    out = (f"median {fmt_t(statistics.median(times))}  p95 {fmt_t(pct(times, 0.95))}  "
           f"worst {fmt_t(max(times))}  nodes median {statistics.median(nodes) / 1e6:7.3f} M"
           f"  {sum(nodes) / max(sum(times), 1e-9) / 1e6:5.1f} M/s")
    out += f"  finished {len(times) - over}/{len(times)} ({100 * (len(times) - over) / len(times):.0f}%)"
    if over:
        out += f"  {over} over the cap"
        if done:
            out += (f" (finished {len(done)}: median {fmt_t(statistics.median(t for t, _ in done))}"
                    f" {statistics.median(k for _, k in done) / 1e6:.3f} M nodes)")
    return out


def fresh():
    """A new table generation in both solvers (a first solve)."""
    for get in (dd.kernel_for, __import__("solver.dd.dix", fromlist=["x"]).solver_for):
        k = get()
        if hasattr(k, "new_table"):
            k.new_table()


def timed(fn, cap):
    """(wall seconds, nodes, finished, CPU seconds) of one solve."""
    fresh()
    t0 = time.perf_counter()
    c0 = time.process_time()
    try:
        r = fn(cap)
    except SearchAborted as e:
        return time.perf_counter() - t0, e.nodes, False, time.process_time() - c0
    return time.perf_counter() - t0, r.nodes, True, time.process_time() - c0


def run_row(label, target, makes, n, cap, budget):
    times, nodes, over, done, cpu = [], [], 0, [], []
    start = time.perf_counter()
    for make in makes:
        fn = make()
        if fn is None:
            continue
        t, k, ok, c = timed(fn, cap)
        times.append(t)
        cpu.append(c)
        nodes.append(k)
        over += not ok
        if ok:
            done.append((t, k))
        if len(times) >= n or time.perf_counter() - start > budget:
            break
    print(f"{label:<26} n={len(times):<4} {summary(times, nodes, over, done)}  "
          f"CPU median {fmt_t(statistics.median(cpu))} p95 {fmt_t(pct(cpu, .95))}  "
          f"peak {peak_mib():5.0f} MiB   target {target}   (load {os.getloadavg()[0]:.1f})",
          flush=True)


def dix_makes(first_trick, variant, count):
    for seed in range(count):
        st = dix_from_trick(seed, first_trick, variant)
        yield lambda st=st: (lambda cap: solve(st, max_nodes=cap))


def trix_makes(name, count):
    game = solver.load_game("trix")
    for seed in range(1, 20 * count):
        st = build(game, name, seed, 1)
        yield (None if st is None else (lambda st=st: (lambda cap: solve(st, max_nodes=cap))))


def table_makes(count):
    """A trix match at its first contract choice (seeds 1..): every
    contract of the chooser's hand from trick 1 on one Solver."""
    from solver.dd import Solver
    game = solver.load_game("trix")

    class Table:
        def __init__(self, nodes):
            self.nodes = nodes

    def run(st, cap):
        s = Solver()
        st.game  # noqa: B018 - the state is ready
        try:
            s.contract_table(st, max_nodes=cap)
        except SearchAborted:
            raise SearchAborted("a contract passed the cap", s.nodes) from None
        return Table(s.nodes)

    for seed in range(1, count + 1):
        st = game.new_initial_state(seed=seed)
        yield lambda st=st: (lambda cap: run(st, cap))


def row_king_split(n, cap, budget):
    """The ``king`` row's positions split by who holds KH (the seat solved
    for, M, or another) and by the hearts in KH's hand: where the row's
    unfinished solves are, and whether the finished ones are catches
    (M takes KH) or escapes."""
    game = solver.load_game("trix")
    groups = defaultdict(list)      # label -> [(finished, nodes, value)]
    start = time.perf_counter()
    seen = 0
    for seed in range(1, 20 * n):
        st = build(game, "king", seed, 1)
        if st is None:
            continue
        me = st.current_player()
        hands = st.log.play.hands      # the cards each seat holds now (masks)
        holder = next(s for s in range(4) if hands[s] >> KH & 1)
        label = ("M holds KH" if holder == me else
                 f"KH's holder has {popcount(hands[holder] & SUIT_RANK_MASK[HEARTS])} hearts")
        fresh()
        try:
            r = solve(st, max_nodes=cap)
            groups[label].append((True, r.nodes, r.value))
        except SearchAborted as e:
            groups[label].append((False, e.nodes, None))
        seen += 1
        if seen >= n or time.perf_counter() - start > budget:
            break
    print(f"trix king, split by KH's hand: {seen} positions, cap {cap:,} nodes", flush=True)
    for label in sorted(groups):
        g = groups[label]
        vals = Counter(v for ok, _, v in g if ok)
        print(f"  {label:<28} n={len(g):<4} finished {sum(ok for ok, _, _ in g):<4} nodes median "
              f"{statistics.median(k for _, k, _ in g) / 1e6:6.2f} M  values of the finished "
              f"{dict(sorted(vals.items()))}", flush=True)


def rook_makes(count, seats=4):
    for seed in range(count):
        st = rook_start(seed, seats)
        yield lambda st=st: (lambda cap: solve(st, max_nodes=cap))


def row_bridge(n, cap, budget):
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "data"))
        from make_dds_golden import pbn
    except ImportError:
        solve_board = None
        print("bridge: DDS skipped (pip install endplay, the 'bench' extra)")
    for strain in range(5):
        ours1, ours2, dds1, dds2, nodes, over, done = [], [], [], [], [], 0, []
        start = time.perf_counter()
        for seed in range(n):
            hands, leader = bridge_ending(1000 * strain + seed, 13)
            pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                                   tuple(mask_of(h) for h in hands), leader)
            t, k, ok, _ = timed(lambda m, pos=pos, team=leader % 2: dd.solve_position(
                pos, max_team=team, max_nodes=m), cap)
            ours1.append(t)
            nodes.append(k)
            over += not ok
            if ok:
                done.append((t, k))
            t0 = time.perf_counter()
            try:
                dd.solve_position(pos, max_team=leader % 2, max_nodes=cap)
            except SearchAborted:
                pass
            ours2.append(time.perf_counter() - t0)
            if solve_board is not None:
                deal = Deal(pbn(hands))
                deal.first = Player(leader)
                deal.trump = Denom(4 if strain == 4 else 3 - strain)
                for acc in (dds1, dds2):
                    t0 = time.perf_counter()
                    solve_board(deal)
                    acc.append(time.perf_counter() - t0)
            if time.perf_counter() - start > budget:
                break
        label = f"bridge 13 cards {'CDHSN'[strain]}"
        print(f"{label:<26} n={len(ours1):<4} first   {summary(ours1, nodes, over, done)}  "
              f"peak {peak_mib():5.0f} MiB", flush=True)
        med = statistics.median
        if dds1:
            print(f"{'':<33}DDS     median {fmt_t(med(dds1))}  p95 {fmt_t(pct(dds1, .95))}  "
                  f"worst {fmt_t(max(dds1))}   ours / DDS {med(ours1) / med(dds1):5.1f}x"
                  f"   target {TARGETS['bridge']}")
            print(f"{'':<33}repeat  ours median {fmt_t(med(ours2))}  DDS median "
                  f"{fmt_t(med(dds2))}   ours / DDS {med(ours2) / med(dds2):5.1f}x", flush=True)


def row_pimc(n):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__)))
    from ismcts_speed import positions, trix_positions
    from solver import position
    from solver.search.pimc import pimc_search
    for label, make in (("pimc dix trick 1", lambda: positions(n, 0)),
                        ("pimc trix trick 1", lambda: trix_positions(n, 0))):
        game, states = make()
        rates, cpu_rates, nodes, solved = [], [], [], 0
        t_all = time.perf_counter()
        for st in states:
            seat = st.current_player()
            sampler = position.from_json(st.information_state(seat).view).sampler()
            t0, c0 = time.perf_counter(), time.process_time()
            res = pimc_search(sampler.sample, seat, st.legal_actions(), game, worlds=20,
                              rng=random.Random(1))
            rates.append(res.worlds / (time.perf_counter() - t0))
            cpu_rates.append(res.worlds / max(time.process_time() - c0, 1e-9))
            nodes.append(res.nodes / max(res.worlds, 1))
            solved += res.solved
        print(f"{label:<26} n={len(rates):<4} worlds/s median {statistics.median(rates):8.1f}  "
              f"in CPU time {statistics.median(cpu_rates):8.1f}  nodes a world median "
              f"{statistics.median(nodes) / 1e6:6.3f} M  solved exactly {solved} of {20 * len(rates)} "
              f"worlds  ({time.perf_counter() - t_all:.1f} s)  "
              f"peak {peak_mib():5.0f} MiB   target {TARGETS['pimc']}   (load "
              f"{os.getloadavg()[0]:.1f})", flush=True)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100, help="positions per row")
    ap.add_argument("--n-heavy", type=int, default=None,
                    help="positions for the rows that mostly meet the cap (seventeen, "
                         "the trix contracts, dixie-rook); default --n")
    ap.add_argument("--rows", default="dix14,seventeen,king,queens,diamonds,ltoosh,rook,"
                                      "rook6,table,pimc")
    ap.add_argument("--cap", type=int, default=30_000_000, help="nodes per solve at most")
    ap.add_argument("--budget", type=float, default=900.0, help="seconds per row at most")
    ap.add_argument("--pimc-n", type=int, default=10)
    ap.add_argument("--order", type=int, default=None,
                    help="the probe build with these move-ordering rules (0: before #26)")
    a = ap.parse_args(argv)
    if a.order is not None:
        from solver.dd.dix import solver_for
        probe = dd.probing()
        kern = probe.__enter__()
        kern.order = a.order
        solver_for().order = 1 if a.order else 0
    rows = a.rows.split(",")
    nh = a.n if a.n_heavy is None else a.n_heavy
    print(f"seed games' table: n={a.n} (capped rows {nh}), cap {a.cap:,} nodes a solve, budget "
          f"{a.budget:.0f} s a row, one thread, all solutions, 64 MiB"
          + (f", probe build, order {a.order}" if a.order is not None else ""), flush=True)
    if "dix14" in rows:
        run_row("dix from trick 14", TARGETS["dix14"], dix_makes(14, "standard", a.n),
                a.n, a.cap, a.budget)
    if "seventeen" in rows:
        run_row("dix seventeen trick 1", TARGETS["seventeen"],
                dix_makes(1, "seventeen", nh), nh, a.cap, a.budget)
    for name in ("king", "queens", "diamonds", "ltoosh"):
        if name in rows:
            run_row(f"trix {name} trick 1", TARGETS["trix"], trix_makes(name, nh), nh,
                    a.cap, a.budget)
    if "rook" in rows:
        run_row("dixie-rook 4 seats", TARGETS["rook"], rook_makes(nh), nh, a.cap, a.budget)
    if "rook6" in rows:
        run_row("dixie-rook 6 seats", TARGETS["rook"], rook_makes(nh, 6), nh, a.cap, a.budget)
    if "table" in rows:
        run_row("trix contract table", TARGETS["table"], table_makes(nh), nh, a.cap, a.budget)
    if "bridge" in rows:
        row_bridge(a.n, a.cap, a.budget)
    if "pimc" in rows:
        row_pimc(a.pimc_n)
    if "kingsplit" in rows:
        row_king_split(nh, a.cap, a.budget)


if __name__ == "__main__":
    main()
