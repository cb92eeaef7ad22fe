"""bench/dd_table.py's ``kingsplit`` row still runs end to end (tiny sizes;
nothing here asserts a speed): every position lands in exactly one group
and a group never reports more finished solves than positions."""

from __future__ import annotations

import re

from tests.bench_scripts import load


def _dd_table():
    return load("dd_table")


def test_king_split_puts_every_position_in_one_group(capsys):
    _dd_table().main(["--rows", "kingsplit", "--n", "6", "--cap", "200000", "--budget", "120"])
    out = capsys.readouterr().out
    assert "trix king, split by KH's hand: 6 positions" in out, out
    groups = re.findall(r"^  (M holds KH|KH's holder has \d+ hearts)\s+n=(\d+)\s+finished (\d+)",
                        out, re.M)
    assert groups, out
    assert sum(int(n) for _, n, _ in groups) == 6
    assert all(int(f) <= int(n) for _, n, f in groups)
    assert len({g for g, _, _ in groups}) == len(groups)
