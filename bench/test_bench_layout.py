"""Layout-game solver benchmarks (run: ``python -m pytest bench -s``).

* full 13-card deals from the start (``random_position(rng, 52)``: a shuffled
  deal and a random first seat), seeds 0..99: every seat's paranoid value,
  and the partnership value of both teams; per-solve median, 95th percentile
  and worst wall time and nodes; the process's memory high-water mark;
* the Cython kernel against the pure-Python oracle on the same small endings.

Each test prints a table; the figures also go to pytest-benchmark's
``extra_info``.
"""

import random
import resource
import statistics
import time

from solver.dd.layout import solve_layout
from solver.reference import layout_oracle as oracle

DEALS = 100
RSS0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # before any table


def _pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _maxrss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _full_deals(partnership):
    times, nodes, values = [], [], []
    seats = (0, 1) if partnership else (0, 1, 2, 3)
    for seed in range(DEALS):
        hands, rows, to_move, finished = oracle.random_position(random.Random(seed), 52)
        for seat in seats:
            r = solve_layout(hands, rows, to_move, finished, seat=seat,
                             partnership=partnership, tt_mb=64)
            times.append(r.seconds)
            nodes.append(r.nodes)
            values.append(r.value)
    return times, nodes, values


def _report(benchmark, capsys, title, times, nodes, values):
    figures = {
        "values": {v: values.count(v) for v in sorted(set(values))},
        "solves": len(times),
        "median_s": statistics.median(times),
        "p95_s": _pct(times, 0.95),
        "worst_s": max(times),
        "total_s": sum(times),
        "median_nodes": statistics.median(nodes),
        "p95_nodes": _pct(nodes, 0.95),
        "worst_nodes": max(nodes),
        "total_nodes": sum(nodes),      # a determinism signature of the search
        "maxrss_mib": _maxrss_mib(),
    }
    benchmark.extra_info.update(figures)
    with capsys.disabled():
        print(f"\n{title}")
        for k, v in figures.items():
            print(f"  {k:>13}: {v:.4g}" if isinstance(v, float) else f"  {k:>13}: {v}")
        print(f"  {'maxrss before any solve (MiB)'}: {RSS0:.4g}")
    return figures


def test_full_deals_paranoid(benchmark, capsys):
    times, nodes, values = benchmark.pedantic(_full_deals, args=(False,), rounds=1,
                                              iterations=1)
    f = _report(benchmark, capsys, f"paranoid, {DEALS} full deals x 4 seats, tt 64 MiB",
                times, nodes, values)
    assert f["solves"] == 4 * DEALS


def test_full_deals_partnership(benchmark, capsys):
    times, nodes, values = benchmark.pedantic(_full_deals, args=(True,), rounds=1,
                                              iterations=1)
    f = _report(benchmark, capsys, f"partnership, {DEALS} full deals x 2 teams, tt 64 MiB",
                times, nodes, values)
    assert f["solves"] == 2 * DEALS


def test_kernel_vs_oracle(benchmark, capsys):
    """Same endings, same objective: the raw kernel call against the oracle's
    (both take validated masks), and the facade (validation included)."""
    from solver.dd import layout as layout_dd
    from solver.dd._layoutdd import LayoutSolver

    rng = random.Random(2024)
    positions = []
    while len(positions) < 200:
        p = oracle.random_position(rng, rng.randint(14, 20))
        masks, lo, hi, nout, _ = layout_dd._normalize(*p)
        if nout < 3:
            positions.append((p, (masks, lo, hi, p[2], nout, 1 << 1)))
    kernel = LayoutSolver(1 << 20)

    def timed(fn):
        t0 = time.perf_counter()
        out = [fn(p) for p in positions]
        return time.perf_counter() - t0, out

    t_kernel, got = benchmark.pedantic(timed, args=(lambda p: kernel.solve(*p[1])[:2],),
                                       rounds=1, iterations=1)
    t_pure, want = timed(lambda p: oracle.solve(*p[1])[:2])
    t_facade, _ = timed(lambda p: solve_layout(*p[0], seat=1, tt_mb=1))
    assert got == want
    figures = dict(kernel_s=t_kernel, facade_s=t_facade, oracle_s=t_pure,
                   oracle_over_kernel=t_pure / t_kernel, oracle_over_facade=t_pure / t_facade)
    benchmark.extra_info.update(figures)
    with capsys.disabled():
        print("\nkernel vs oracle, 200 endings of 14-20 cards, paranoid seat 1")
        for k, v in figures.items():
            print(f"  {k:>18}: {v:.4g}")
