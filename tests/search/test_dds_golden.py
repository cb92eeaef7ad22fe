"""The kernel configured as bridge against DDS (the reference double-dummy
solver): tests/data/dds_golden.json holds DDS's trick counts for seeded
endings, every strain and leader, after each legal card of the side to
play (made by tests/data/make_dds_golden.py; endplay is not needed here)."""

import json
import os

import pytest

from solver.cards import FRENCH, mask_of
from solver.dd import trick as dd

GOLDEN = os.path.join(os.path.dirname(__file__), "..", "data", "dds_golden.json")

with open(GOLDEN) as f:
    DOC = json.load(f)


def _check_deal(deal):
    hands = [FRENCH.parse_cards(h) for h in deal["hands"]]
    for case in deal["cases"]:
        strain = "CDHSN".index(case["strain"])
        trick = FRENCH.parse_cards(case["trick"])
        masks = [mask_of(h) for h in hands]
        for j, c in enumerate(trick):
            masks[(case["leader"] + j) % 4] &= ~(1 << c)
        pos = dd.TrickPosition(dd.bridge_contract(-1 if strain == 4 else strain),
                               tuple(masks), case["leader"], tuple(trick))
        res = dd.solve_position(pos, max_team=pos.seat_to_play % 2)
        got = {FRENCH.to_string(c): v for c, v in res.card_values.items()}
        assert got == case["tricks"], (deal["hands"], case)


@pytest.mark.parametrize("index", range(len(DOC["deals"])))
def test_kernel_matches_dds(index):
    _check_deal(DOC["deals"][index])


@pytest.mark.parametrize("index", range(len(DOC["full_deals"])))
def test_kernel_matches_dds_on_full_deals(index):
    """Full 13-card deals (every strain in turn, some with cards on the
    table): the strongest check of the table's winning ranks and bounds."""
    _check_deal(DOC["full_deals"][index])


def test_golden_covers_the_brief():
    cases = [c for d in DOC["deals"] for c in d["cases"]]
    assert len(cases) >= 800
    assert {c["strain"] for c in cases} == set("CDHSN")
    assert {c["leader"] for c in cases} == {0, 1, 2, 3}
    assert any(c["trick"] for c in cases)
    sizes = {len(d["hands"][0].split()) for d in DOC["deals"]}
    assert sizes == {5, 6, 7, 8}
    assert len(DOC["full_deals"]) >= 15
    assert {len(d["hands"][0].split()) for d in DOC["full_deals"]} == {13}
