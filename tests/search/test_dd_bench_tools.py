"""The double-dummy measuring tools of issue #40 run end to end at tiny
sizes (nothing here asserts a speed): ``bench/dd_switches.py`` (a bound off
and on, node counts and identical values) and ``bench/dd_boundaries.py``
(the searched trick boundaries, grouped), over the probe build's boundary
records (``ProbeKernel.record_boundaries``)."""

from __future__ import annotations

import re

import solver
from solver.dd import solve
from solver.dd import trick as dd
from tests.bench_scripts import load

_bench = load


def test_switches_bench_compares_the_same_positions(capsys):
    _bench("dd_switches").main(["--rows", "king,bridge", "--n", "3", "--from-trick", "9",
                                "--bridge-cards", "4", "--cap", "2000000",
                                "--off", "use_cover_bound=0,use_duck_match=0"])
    out = capsys.readouterr().out
    rows = re.findall(r"^(\w+)\s+(\d+) positions: finished before (\d+), after (\d+)", out, re.M)
    assert [r[0] for r in rows] == ["king", "bridge"], out
    assert all(int(n) == 3 and int(b) == 3 and int(a) == 3 for _, n, b, a in rows), out


def test_boundary_records_sum_to_the_nodes_below_them():
    """Every kept boundary is at the asked depth, its answer lies on one
    side of its window or inside it, and the nodes of the kept subtrees
    (disjoint: one depth) are at most the solve's."""
    game = solver.load_game("trix")
    st = _bench("trix_full_deals").build(game, "king", 3, 6)
    with dd.probing() as kern:
        kern.new_table()
        kern.record_boundaries(4, 100_000)
        try:
            nodes = solve(st).nodes
            recs = kern.boundaries()
        finally:
            kern.record_boundaries(0, 0)
        assert recs
        assert sum(r[5] for r in recs) <= nodes
        for hands, leader, alpha, beta, _result, n in recs:
            assert len(hands) == 4 and 0 <= leader < 4 and alpha < beta and n >= 1
            assert all(bin(h).count("1") == 4 for h in hands)
        assert kern.boundaries() == []


def test_boundaries_bench_groups_every_boundary(capsys):
    _bench("dd_boundaries").main(["--contract", "king", "--from-trick", "6", "--tricks-left", "4",
                                  "--n", "2", "--cap", "2000000", "--show", "1"])
    out = capsys.readouterr().out
    total = re.search(r"^2 deals, [\d,]+ nodes, ([\d,]+) \(", out, re.M)
    assert total, out
    groups = re.findall(r"^  M .*? ([\d,]+) boundaries\s+([\d,]+) nodes", out, re.M)
    assert sum(int(n.replace(",", "")) for _, n in groups) == int(total.group(1).replace(",", ""))


def test_boundaries_bench_counts_the_tricks_m_must_take(capsys):
    _bench("dd_boundaries").main(["--contract", "queens", "--from-trick", "6", "--tricks-left",
                                  "4", "--n", "1", "--cap", "2000000", "--must-win", "5"])
    out = capsys.readouterr().out
    assert "5 escape boundaries drawn by nodes" in out, out
    line = re.search(r"^  M must take tricks: (.*)$", out, re.M)
    assert line, out
    # every drawn boundary is counted once; with 4 tricks left M takes 0..4
    counts = dict(item.split(": ") for item in line.group(1).split(", "))
    assert sum(int(n) for n in counts.values()) == 5
    assert set(counts) <= {"?", "0", "1", "2", "3", "4"}
