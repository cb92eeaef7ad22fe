"""Side-by-side timings of the double-dummy kernel (one thread).

    python bench/compare_dds.py                 # every row, 100 positions each
    python bench/compare_dds.py --n 20 --rows dix14,bridge
    python bench/compare_dds.py --rows seventeen --seventeen-from 5,3,1 --budget 120

Rows (seeded positions; median / 95th percentile / worst, nodes/s):

* ``dix14``: dix from trick 14 (13 + 13 cards, both hands known), the value
  of every legal card, by the dix solver (``solver.dd.dix``, what
  ``solver.dd.solve`` uses) and by the generic kernel (``solver.dd``) side
  by side, each within ``--budget``, with the ratio of their medians and a
  check that every card's value agrees.  Target: median <= 2 ms.
* ``seventeen``: dix ``seventeen`` with both hands known (17 + 17), from the
  first trick, or from trick(s) ``--seventeen-from`` (e.g. ``5,3,1``).
  Target: median <= 50 ms from trick 1.
* ``bridge``: the kernel configured as bridge against DDS (endplay's
  ``solve_board``, all cards) on the same endings of ``--bridge-cards``
  cards a hand, per strain: both medians, the time ratio, nodes/s.
  Target: within 3x of DDS.  Needs ``pip install endplay`` (the ``bench``
  extra); without it the row is skipped.
* ``oracle``: the Cython kernel against the pure-Python oracle on the same
  small dix endings (4 tricks): the time ratio.
* ``rook``: dixie-rook (``--rook-players`` 4 or 6) deals played through the
  game with random legal actions up to the start of card play; the seat on
  lead's team value, every legal card.  Target: median <= 100 ms.
* ``bridge13``: full 13-card bridge deals (seeded, every strain), the side on
  lead, every legal card; DDS alongside when endplay is installed.
* ``dds3``: the three DDS rows of issue #26 on the same full deals, one
  thread (DDS's ``SetMaxThreads(1)``), every answer checked equal:
  *fresh* -- each strain and leader solved alone, every card (DDS's table
  emptied first by a solve of another deal, ours a new table);
  *as called* -- the 20 strain/leader solves of a deal one after the other,
  every card, as a user calls them (DDS's ``SolveBoard`` keeps its table
  between calls on the same deal; ours one ``solver.dd.Solver`` for the
  deal); *table* -- DDS's ``CalcDDtable`` against ``Solver.bridge_table``
  (every strain and declarer, the values only).  Per row the medians of
  both, their ratio and the median of the per-deal ratios; ``-v`` a line
  a deal with its three ratios, ``--dds3-first K`` starts at deal K (seed
  5000 + K), so that runs over other deals can be pooled.

``--max-nodes`` stops a solve past that many nodes (``SearchAborted``): it
counts as the time it took and is flagged "over".

``--budget`` seconds caps a row: it stops early and says how many positions
it measured.  The memory high-water mark is the process's peak RSS.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import solver
from solver.cards import FRENCH, mask_of
from solver.dd import solve
from solver.dd import trick as dd
from solver.dd.dix import solve_dix
from solver.errors import SearchAborted
from solver.games.dix.exact import dix_position
from solver.reference.dd_oracle import solve_oracle


def dix_from_trick(seed: int, first_trick: int, variant: str = "standard"):
    """A dix state at trick ``first_trick`` of its first round, random play before."""
    game = solver.load_game("dix", variant=variant)
    st: Any = game.new_initial_state(seed=seed)        # a dix state
    rng = random.Random(seed)
    while st.tricks_done < first_trick - 1:
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def bridge_ending(seed: int, n: int):
    rng = random.Random(seed)
    cards = list(FRENCH.cards)
    rng.shuffle(cards)
    return [sorted(cards[i * n:(i + 1) * n]) for i in range(4)], rng.randrange(4)


def stats(times: list[float]) -> str:
    t = sorted(times)
    p95 = t[min(len(t) - 1, int(round(0.95 * (len(t) - 1))))]
    return (f"median {1e3 * statistics.median(t):9.2f} ms  p95 {1e3 * p95:9.2f} ms  "
            f"worst {1e3 * t[-1]:9.2f} ms")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _dix_engine_run(engine, pos, max_nodes=None):
    """One all-solutions dix solve: (card values, nodes, seconds); values
    None when the solve stopped at ``max_nodes``."""
    seat = pos.seat_to_play
    t0 = time.perf_counter()
    try:
        if engine == "dixdd":
            res = solve_dix(pos, seat, max_nodes=max_nodes)
        else:
            res = dd.solve_position(pos, seat, "dix", max_nodes=max_nodes)
    except SearchAborted as exc:
        return None, exc.nodes, time.perf_counter() - t0
    return dict(res.card_values), res.nodes, res.time


def row_dix(name, n, budget, first_trick, variant, engines=("dixdd", "generic"),
            max_nodes=None):
    """Each engine on the same seeded positions, ``budget`` seconds each; the
    values of every card are checked equal where both solved."""
    results = {}
    for engine in engines:
        times, nodes, values = [], [], []
        start = time.perf_counter()
        for seed in range(n):
            pos = dix_position(dix_from_trick(seed, first_trick, variant))
            v, k, t = _dix_engine_run(engine, pos, max_nodes)
            times.append(t)
            nodes.append(k)
            values.append(v)
            if time.perf_counter() - start > budget:
                break
        results[engine] = (times, values)
        rate = sum(nodes) / sum(times)
        label = "dix solver" if engine == "dixdd" else "generic kernel"
        print(f"{name:<28} {label:<15} n={len(times):<4} {stats(times)}  nodes median "
              f"{int(statistics.median(nodes)):>10}  {rate / 1e6:5.2f} Mnodes/s  "
              f"peak RSS {peak_mib():7.1f} MiB"
              + ("" if len(times) == n else f"  (budget {budget:.0f} s reached)")
              + (f"  ({sum(v is None for v in values)} over the node limit)"
                 if any(v is None for v in values) else ""))
    if len(results) == 2:
        (ta, va), (tb, vb) = results["dixdd"], results["generic"]
        m = min(len(ta), len(tb))
        assert all(a == b for a, b in zip(va[:m], vb[:m], strict=True) if a is not None and b is not None), \
            "the two solvers disagree"
        ratio = statistics.median(tb[:m]) / statistics.median(ta[:m])
        print(f"{'':<28} generic / dix solver, medians over the {m} positions both "
              f"solved: {ratio:6.1f}x (every card's value equal)")


def row_bridge(n, budget, cards):
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
    except ImportError:
        print("bridge: skipped (pip install endplay, the 'bench' extra)")
        return
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "data"))
    from make_dds_golden import pbn
    for strain in range(5):
        ours, theirs, nodes = [], [], []
        start = time.perf_counter()
        for seed in range(n):
            hands, leader = bridge_ending(1000 * strain + seed, cards)
            deal = Deal(pbn(hands))
            deal.first = Player(leader)
            deal.trump = Denom(4 if strain == 4 else 3 - strain)
            t0 = time.perf_counter()
            ref = {t for _, t in solve_board(deal)}
            theirs.append(time.perf_counter() - t0)
            pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                                   tuple(mask_of(h) for h in hands), leader)
            res = dd.solve_position(pos, max_team=leader % 2)
            ours.append(res.time)
            nodes.append(res.nodes)
            assert max(ref) == res.value, (hands, leader, strain)
            if time.perf_counter() - start > budget:
                break
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(f"bridge {cards} cards {'CDHSN'[strain]:<12} n={len(ours):<4} ours "
              f"{stats(ours)}\n{'':<36}DDS  {stats(theirs)}\n{'':<36}ratio of medians "
              f"{ratio:6.1f}x  ours {sum(nodes) / sum(ours) / 1e6:5.2f} Mnodes/s  "
              f"peak RSS {peak_mib():7.1f} MiB")


def timed_solve(fn, max_nodes):
    """(seconds, nodes, finished) of one solve with a node limit."""
    from solver.errors import SearchAborted
    t0 = time.perf_counter()
    try:
        res = fn(max_nodes)
    except SearchAborted as e:
        return time.perf_counter() - t0, e.nodes, False
    return res.time, res.nodes, True


def report(name, times, nodes, over, n, budget, extra=""):
    rate = sum(nodes) / max(sum(times), 1e-9)
    print(f"{name:<28} n={len(times):<4} {stats(times)}  nodes median "
          f"{int(statistics.median(nodes)):>10}  {rate / 1e6:5.2f} Mnodes/s  "
          f"peak RSS {peak_mib():7.1f} MiB"
          + (f"  ({over} over the node limit)" if over else "")
          + ("" if len(times) == n else f"  (budget {budget:.0f} s reached)") + extra,
          flush=True)


def rook_start(seed: int, players: int):
    """A dixie-rook state at the start of card play (random legal actions)."""
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook", players=players)
    st: Any = game.new_initial_state(seed=seed)        # a dixie-rook state
    rng = random.Random(seed)
    while st.phase != PLAY:
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def row_rook(n, budget, players, max_nodes):
    times, nodes, over = [], [], 0
    start = time.perf_counter()
    for seed in range(n):
        st = rook_start(seed, players)
        t, nd, ok = timed_solve(lambda m, st=st: solve(st, max_nodes=m), max_nodes)
        times.append(t)
        nodes.append(nd)
        over += not ok
        if time.perf_counter() - start > budget:
            break
    report(f"dixie-rook {players} seats, play", times, nodes, over, n, budget)


def row_bridge13(n, budget, max_nodes):
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "data"))
        from make_dds_golden import pbn
    except ImportError:
        solve_board = None
    for strain in range(5):
        times, nodes, theirs, over = [], [], [], 0
        start = time.perf_counter()
        for seed in range(n):
            hands, leader = bridge_ending(1000 * strain + seed, 13)
            pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                                   tuple(mask_of(h) for h in hands), leader)
            t, nd, ok = timed_solve(
                lambda m, pos=pos, team=leader % 2: dd.solve_position(pos, max_team=team,
                                                                      max_nodes=m), max_nodes)
            times.append(t)
            nodes.append(nd)
            over += not ok
            if solve_board is not None:
                deal = Deal(pbn(hands))
                deal.first = Player(leader)
                deal.trump = Denom(4 if strain == 4 else 3 - strain)
                t0 = time.perf_counter()
                solve_board(deal)
                theirs.append(time.perf_counter() - t0)
            if time.perf_counter() - start > budget:
                break
        extra = f"\n{'':<36}DDS  {stats(theirs)}" if theirs else ""
        report(f"bridge 13 cards {'CDHSN'[strain]}", times, nodes, over, n, budget, extra)


def _dds_one_thread():
    from endplay import _dds
    _dds.SetMaxThreads(1)


def row_dds3(n, budget, max_nodes, first=0, verbose=False):
    """The three DDS rows (module docstring), interleaved deal by deal,
    deals ``first`` .. ``first + n - 1`` (seeds 5000 + those).  Times are
    the process's CPU time (DDS runs in this process, on this thread:
    ``SetMaxThreads(1)``), which the machine's load changes least; the
    row's budget is wall-clock.  ``verbose``: a line a deal (its three
    ratios), so that runs over other deals can be pooled."""
    clock = time.process_time
    try:
        from endplay.dds import calc_dd_table, solve_board
        from endplay.types import Deal, Denom, Player
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "data"))
        from make_dds_golden import pbn
    except ImportError:
        print("dds3: skipped (pip install endplay, the 'bench' extra)")
        return
    from solver.dd import Solver
    _dds_one_thread()
    other, _ = bridge_ending(10**6, 13)

    def dds_deal(hands, strain, leader):
        deal = Deal(pbn(hands))
        deal.first = Player(leader)
        deal.trump = Denom(4 if strain < 0 else 3 - strain)
        return deal

    rows = {"fresh": ([], [], []), "as called": ([], [], []), "table": ([], [], [])}
    nodes = {k: 0 for k in rows}
    over = {k: 0 for k in rows}
    order = [(s, ld) for s in (3, 2, 1, 0, -1) for ld in range(4)]
    start = time.perf_counter()
    done = 0
    for seed in range(first, first + n):
        hands, _ = bridge_ending(5000 + seed, 13)
        masks = tuple(mask_of(h) for h in hands)
        positions = [dd.TrickPosition(dd.bridge_contract(s), masks, ld) for s, ld in order]
        # fresh
        ours_t = dds_t = 0.0
        for (strain, leader), pos in zip(order, positions, strict=True):
            solve_board(dds_deal(other, strain, leader))       # DDS: another deal first
            t0 = clock()
            ref = {t for _, t in solve_board(dds_deal(hands, strain, leader))}
            dds_t += clock() - t0
            s = Solver()
            t0 = clock()
            try:
                res = s.solve_position(pos, max_team=leader % 2, max_nodes=max_nodes)
                assert max(ref) == res.value, (seed, strain, leader)
                nodes["fresh"] += res.nodes
            except SearchAborted as e:
                over["fresh"] += 1
                nodes["fresh"] += e.nodes
            ours_t += clock() - t0
        rows["fresh"][0].append(ours_t / 20)
        rows["fresh"][1].append(dds_t / 20)
        rows["fresh"][2].append(ours_t / dds_t)
        # as called
        solve_board(dds_deal(other, 0, 0))
        s = Solver()
        ours_t = dds_t = 0.0
        for (strain, leader), pos in zip(order, positions, strict=True):
            t0 = clock()
            ref = {t for _, t in solve_board(dds_deal(hands, strain, leader))}
            dds_t += clock() - t0
            t0 = clock()
            try:
                res = s.solve_position(pos, max_team=leader % 2, max_nodes=max_nodes)
                assert max(ref) == res.value, (seed, strain, leader)
                nodes["as called"] += res.nodes
            except SearchAborted as e:
                over["as called"] += 1
                nodes["as called"] += e.nodes
            ours_t += clock() - t0
        rows["as called"][0].append(ours_t / 20)
        rows["as called"][1].append(dds_t / 20)
        rows["as called"][2].append(ours_t / dds_t)
        # the table
        t0 = clock()
        ref = calc_dd_table(Deal(pbn(hands))).to_list()
        dds_t = clock() - t0
        s = Solver()
        t0 = clock()
        try:
            tab = s.bridge_table(hands, max_nodes=max_nodes)
            assert [list(tab.tricks[x]) for x in "SHDCN"] == [list(r) for r in ref], seed
            nodes["table"] += tab.nodes
        except SearchAborted as e:
            over["table"] += 1
            nodes["table"] += e.nodes
        ours_t = clock() - t0
        rows["table"][0].append(ours_t)
        rows["table"][1].append(dds_t)
        rows["table"][2].append(ours_t / dds_t)
        done += 1
        if verbose:
            print(f"  deal {seed} (seed {5000 + seed}): ours / DDS, fresh "
                  f"{rows['fresh'][2][-1]:.2f}x, as called {rows['as called'][2][-1]:.2f}x, "
                  f"the table {rows['table'][2][-1]:.2f}x", flush=True)
        if time.perf_counter() - start > budget:
            break
    med = statistics.median
    print(f"DDS rows, {done} full deals (seeds {5000 + first}..), one thread, every answer equal to "
          f"DDS's; CPU times per solve (fresh, as called) or per table; load "
          f"{os.getloadavg()[0]:.1f}")
    for name, (ours, theirs, ratios) in rows.items():
        print(f"  {name:<10} ours median {1e3 * med(ours):9.2f} ms  DDS {1e3 * med(theirs):8.2f} ms"
              f"  ratio of medians {med(ours) / med(theirs):6.1f}x  median ratio "
              f"{med(ratios):6.1f}x  (p95 ratio {sorted(ratios)[int(0.95 * (len(ratios) - 1))]:.1f}x)"
              f"  ours {nodes[name] / 1e6:.1f} M nodes"
              + (f"  {over[name]} over the node limit" if over[name] else ""), flush=True)


def row_oracle(n, tricks):
    ratios, ours, theirs = [], [], []
    for seed in range(n):
        st = dix_from_trick(seed, 27 - tricks)
        pos = dix_position(st)
        team = pos.seat_to_play
        res = dd.solve_position(pos, team, "dix")
        t0 = time.perf_counter()
        value, values, _ = solve_oracle(pos, team, "dix")
        t = time.perf_counter() - t0
        assert values == dict(res.card_values)
        ours.append(res.time)
        theirs.append(t)
        ratios.append(t / max(res.time, 1e-7))
    print(f"oracle vs kernel, dix {tricks} tricks n={n:<4} kernel {stats(ours)}\n"
          f"{'':<36}oracle {stats(theirs)}\n{'':<36}oracle/kernel median ratio "
          f"{statistics.median(ratios):8.0f}x")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100, help="positions per row")
    ap.add_argument("--rows", default="dix14,seventeen,bridge,oracle")
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per row at most")
    ap.add_argument("--bridge-cards", type=int, default=8)
    ap.add_argument("--seventeen-from", default="1",
                    help="first trick(s) of the seventeen rows, comma-separated: 5,3,1")
    ap.add_argument("--engines", default="dixdd,generic",
                    help="dix rows: dixdd (solver.dd.dix), generic (the generic kernel)")
    ap.add_argument("--rook-players", type=int, default=4)
    ap.add_argument("--max-nodes", type=int, default=None,
                    help="stop a solve past this many nodes (counted as its time, 'over')")
    ap.add_argument("--dds3-first", type=int, default=0,
                    help="dds3: the first deal (seed 5000 + it), to measure other deals")
    ap.add_argument("-v", "--verbose", action="store_true", help="dds3: a line a deal")
    args = ap.parse_args(argv)
    rows = args.rows.split(",")
    print(f"dixtrix dd kernel, one thread, {args.n} positions a row; python "
          f"{sys.version.split()[0]}")
    engines = tuple(args.engines.split(","))
    if "dix14" in rows:
        row_dix("dix trick 14 (13+13)", args.n, args.budget, 14, "standard", engines,
                args.max_nodes)
    if "seventeen" in rows:
        for first in (int(t) for t in str(args.seventeen_from).split(",")):
            row_dix(f"dix seventeen from trick {first}", args.n, args.budget, first,
                    "seventeen", engines, args.max_nodes)
    if "bridge" in rows:
        row_bridge(args.n, args.budget, args.bridge_cards)
    if "oracle" in rows:
        row_oracle(args.n, 4)
    if "rook" in rows:
        row_rook(args.n, args.budget, args.rook_players, args.max_nodes)
    if "bridge13" in rows:
        row_bridge13(args.n, args.budget, args.max_nodes)
    if "dds3" in rows:
        row_dds3(args.n, args.budget, args.max_nodes, args.dds3_first, args.verbose)


if __name__ == "__main__":
    main()
