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

``--keys`` adds what a table entry that holds for a class of hands
(partition search) could answer at best: the boundaries are keyed from
the exact hands to a deliberately unsound class (lengths and who holds the
penalty cards), finest first (``boundary_keys``), and a boundary counts as
answerable when an earlier boundary of the same deal with the same key
proves its question with the stored result as a bound (a result at or
above the later beta where the earlier reached its window, at or below the
later alpha where it fell short; an exact result both), the best bounds
of every earlier boundary of the key kept (a perfect table, nothing
overwritten).  One line a key: boundaries, distinct keys, the share seen
earlier, the share answerable by count and by subtree nodes, the share of
the escapes' nodes answerable (M reaches its window, another seat leads),
and how many answers the later boundary's own result contradicts (an
unsound key; none for the exact position).  A ceiling: answering a
boundary would change the later search, which is taken as recorded.

    python bench/dd_boundaries.py --contract queens --tricks-left 7 --n 3 --cap 2000000 --keys

``--must-win K`` asks what a bound counting penalty cards would have to
reason about (issue #50): K escape boundaries (M reaches its window,
another seat leads) drawn by their subtree nodes (seeded), and for each
the tricks M must take with the same hands when only tricks count (the
paranoid Ltoosh value of the same cards, M the max seat, ``MUST_WIN_NODES``
a solve; "?" past it), the window, how many other hands hold penalty
cards and whether M holds some.  A bound that lets M win no trick
(the pivot, the covers' "M takes none") cannot settle a boundary where M
must win tricks; there a count must say which of M's tricks the penalty
cards can reach.

    python bench/dd_boundaries.py --contract queens --tricks-left 7 --n 3 --cap 2000000 --must-win 150
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
from solver.dd import Solver, solve
from solver.dd import trick as dd
from solver.errors import SearchAborted
from solver.games.contract_match.exact import PENALTY_CONTRACTS, deal_position, penalty_contract
from trix_full_deals import build

INF = float("inf")
#: ``--must-win``: the node bound of each tricks-only solve
MUST_WIN_NODES = 300_000


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


#: ``--keys``: how many cards below a suit's lowest penalty card the keys
#: between 2 and 3 add (``boundary_keys``)
BELOW = (4, 3, 2, 1)
#: the keys of ``--keys``, finest first; each refines the next
KEY_NAMES = ("1 exact hands", "2 relative ranks",
             *(f"3+{k} and {k} card{'s' * (k > 1)} below it" for k in BELOW),
             "3 from the lowest penalty card up", "4 lengths and penalty holders")


def card_classes(st, me: int) -> dict:
    """Card -> its scoring class for seat ``me`` (points, doubled, doubled
    by ``me``: the distinctions the kernel's classes make for one max
    seat); cards that score nothing are left out."""
    contract = deal_position(st)[0].contract
    return {c: (p, c in contract.doubled, contract.doubled.get(c) == me)
            for c, p in contract.card_points.items() if p}


def boundary_keys(hands, leader: int, cls: dict) -> tuple:
    """The keys of a trick boundary, finest first (``KEY_NAMES``), each
    with the leader:

    1. the hands as they are;
    2. per suit the owners of its cards still in play from the lowest up,
       each with its class (ranks relative to the cards in play: the
       kernel's ``class_relative`` key);
    3+k. key 3 and the owners of the ``k`` cards just below the suit's
       lowest penalty card (``BELOW``; a suit with no penalty card: its top
       ``k`` cards);
    3. per suit each hand's length and the owners (with classes) of the
       cards from the suit's lowest penalty card up, nothing more of a suit
       with no penalty card: the cards below every penalty card of their
       suit count only by number;
    4. per suit each hand's length and how many penalty cards of each class
       it holds (no rank at all: unsound on purpose, the coarsest a class
       entry could be)."""
    rel = []
    above: list[list] = [[] for _ in range(len(BELOW) + 1)]
    coarse = []
    for suit in range(4):
        seq = []
        for c in range(16 * suit, 16 * suit + 16):
            for seat, h in enumerate(hands):
                if (h >> c) & 1:
                    seq.append((seat, cls.get(c, 0)))
                    break
        lengths = tuple(bin((h >> (16 * suit)) & 0xFFFF).count("1") for h in hands)
        pen = [i for i, (_, k) in enumerate(seq) if k]
        cut = pen[0] if pen else len(seq)
        rel.append(tuple(seq))
        for i, k in enumerate((*BELOW, 0)):
            above[i].append((lengths, tuple(seq[max(0, cut - k):])))
        coarse.append((lengths, tuple(sorted(Counter(x for x in seq if x[1]).items()))))
    return ((tuple(hands), leader), (tuple(rel), leader),
            *((tuple(a), leader) for a in above), (tuple(coarse), leader))


def key_reuse(recs, keys, me: int) -> dict:
    """What a perfect table under one key could answer among one deal's
    boundary records ``recs`` (in the order they finished), ``keys[i]``
    the key of ``recs[i]``: counts and nodes of the boundaries, the key's
    distinct values, those seen earlier, those answerable (the earlier
    bounds prove the question) and, of those, the ones the boundary's own
    result contradicts; ``esc``: the escapes (M reaches its window, another
    seat leads)."""
    out: Counter[str] = Counter()
    bounds: dict = {}
    for (_hands, leader, alpha, beta, result, n), key in zip(recs, keys, strict=True):
        esc = result >= beta and leader != me
        out["count"] += 1
        out["nodes"] += n
        out["esc_nodes"] += n * esc
        lo_hi = bounds.get(key)
        if lo_hi is not None:
            out["seen"] += 1
            out["seen_nodes"] += n
            lo, hi = lo_hi
            if lo >= beta or hi <= alpha or lo >= hi:
                out["answered"] += 1
                out["answered_nodes"] += n
                out["esc_answered_nodes"] += n * esc
                # the true value is >= lo and <= hi if the key is sound
                wrong = ((lo >= beta and result < beta) or (hi <= alpha and result > alpha)
                         or (alpha < lo == hi < beta and result != lo))
                out["wrong"] += wrong
                out["wrong_nodes"] += n * wrong
        else:
            lo, hi = -INF, INF
        if result > alpha:
            lo = max(lo, result)
        if result < beta:
            hi = min(hi, result)
        bounds[key] = (lo, hi)
    out["distinct"] = len(bounds)
    return out


def _pct(a, b) -> str:
    return f"{100 * a / max(b, 1):.1f}%"


def print_keys(reuse) -> None:
    print("What a table entry under each key could answer at best (earlier boundaries of the "
          "same deal; shares of the boundaries, of their nodes, of the escapes' nodes; "
          "contradicted: answers the boundary's own result refutes, and their nodes):")
    print(f"  {'key':<38} {'boundaries':>10} {'distinct':>9} {'seen':>6} {'answerable':>10} "
          f"{'nodes':>6} {'escape nodes':>12} {'contradicted':>12} {'nodes':>6}")
    for name, r in zip(KEY_NAMES, reuse, strict=True):
        print(f"  {name:<38} {r['count']:>10,} {r['distinct']:>9,} {_pct(r['seen'], r['count']):>6} "
              f"{_pct(r['answered'], r['count']):>10} {_pct(r['answered_nodes'], r['nodes']):>6} "
              f"{_pct(r['esc_answered_nodes'], r['esc_nodes']):>12} {r['wrong']:>12,} "
              f"{_pct(r['wrong_nodes'], r['nodes']):>6}")


def must_win(kept, pen_mask: int, k: int) -> Counter:
    """``--must-win``: ``k`` escape boundaries of ``kept`` (``group``'s
    records) drawn with replacement by their subtree nodes (seed 1), and
    per feature how many of them have each value: the tricks M must take
    when only tricks count (Ltoosh's rules, the same hands and leader), the
    window, the number of other hands holding penalty cards, whether M
    holds some."""
    esc = [r for r in kept if r[0][1] == "M reaches the window" and r[0][2] != "M leads"]
    out: Counter = Counter()
    if not esc:
        return out
    tricks_only = penalty_contract("ltoosh")
    unit = -PENALTY_CONTRACTS["ltoosh"][1]
    for _, hands, me, leader, alpha, beta, _result, _n in random.Random(1).choices(
            esc, weights=[r[7] for r in esc], k=k):
        pos = dd.TrickPosition(tricks_only, tuple(hands), leader, ())
        try:
            # a table of its own: the sample's solves stay apart from the
            # measured kernel's, which the boundaries came from
            with Solver(private=True) as s:
                taken: int | str = -s.solve_position(pos, me, "own", MUST_WIN_NODES).value // unit
        except SearchAborted:
            taken = "?"
        out[("M must take tricks", taken)] += 1
        out[("window", (alpha, beta))] += 1
        out[("other hands holding penalty cards",
             sum(1 for i, h in enumerate(hands) if i != me and h & pen_mask))] += 1
        out[("M holds penalty cards", bool(hands[me] & pen_mask))] += 1
    return out


def print_must_win(counts: Counter, k: int) -> None:
    print(f"{k} escape boundaries drawn by nodes (M reaches its window, another seat leads):")
    for feature in dict.fromkeys(f for f, _ in counts):
        values = sorted(((v, n) for (f, v), n in counts.items() if f == feature), key=str)
        print(f"  {feature}: " + ", ".join(f"{v}: {n}" for v, n in values))


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
    ap.add_argument("--keys", action="store_true",
                    help="what a class entry could answer, key by key (partition search)")
    ap.add_argument("--must-win", type=int, default=0, metavar="K",
                    help="the tricks M must take at K escape boundaries drawn by nodes")
    a = ap.parse_args(argv)
    game = solver.load_game("trix")
    pen_mask = sum(1 << c for c in PENALTY_CONTRACTS[a.contract][0])
    kern = dd.kernel_for()
    nodes_by: Counter = Counter()
    count_by: Counter = Counter()
    kept = []
    reuse: list[Counter[str]] = [Counter() for _ in KEY_NAMES]
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
        if a.keys:
            cls = card_classes(st, me)
            keys = [boundary_keys(r[0], r[1], cls) for r in recs]
            for i, tot in enumerate(reuse):
                tot.update(key_reuse(recs, [k[i] for k in keys], me))
        if found >= a.n:
            break
    kern.record_boundaries(0, 0)
    print(f"{found} deals, {total:,} nodes, {below:,} ({100 * below / max(total, 1):.0f}%) in the "
          f"subtrees of searched boundaries at {a.tricks_left} tricks left:")
    for g, n in nodes_by.most_common():
        print(f"  {', '.join(g):<70} {count_by[g]:>9,} boundaries  {n:>12,} nodes "
              f"({100 * n / max(below, 1):4.1f}%)  {n / count_by[g]:7.1f} a boundary")
    if a.keys:
        print_keys(reuse)
    if a.must_win:
        print_must_win(must_win(kept, pen_mask, a.must_win), a.must_win)
    if a.show and nodes_by:
        top = nodes_by.most_common(1)[0][0]
        pick = [k for k in kept if k[0] == top]
        for k in random.Random(1).sample(pick, min(a.show, len(pick))):
            show(*k[1:])


if __name__ == "__main__":
    main()
