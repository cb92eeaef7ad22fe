"""The class keys of ``bench/dd_boundaries.py --keys`` (issue #40: what a
table entry holding for a class of hands could answer): positions that
differ only in cards below every penalty card of their suit share the
coarse keys and not the exact ones, and a repeat counts as answerable only
when the earlier result proves the later question."""

from __future__ import annotations

from solver.cards import FRENCH
from tests.bench_scripts import load

bench = load("dd_boundaries")

QS = FRENCH.parse("QS")
#: the queen of spades scores -25 and is not doubled (``card_classes``'s form)
CLS = {QS: (-25, False, False)}
EXACT, RELATIVE, THREE, FOUR = 0, 1, len(bench.KEY_NAMES) - 2, len(bench.KEY_NAMES) - 1


def mask(text: str) -> int:
    return sum(1 << c for c in FRENCH.parse_cards(text))


def test_low_cards_collapse_into_lengths_under_key_three():
    # the same hands but for who holds the two and the three of spades
    a = (mask("2S KS"), mask("3S AS"), mask("QS 4S"), mask("5S 6S"))
    b = (mask("3S KS"), mask("2S AS"), mask("QS 4S"), mask("5S 6S"))
    ka, kb = bench.boundary_keys(a, 0, CLS), bench.boundary_keys(b, 0, CLS)
    assert len(ka) == len(bench.KEY_NAMES)
    assert ka[EXACT] != kb[EXACT] and ka[RELATIVE] != kb[RELATIVE]
    assert ka[THREE] == kb[THREE] and ka[FOUR] == kb[FOUR]
    # key 3+k keeps the owners of the k cards just below the queen: the
    # three (whose owner changed) lies four places below it here
    for k, x, y in zip(bench.BELOW, ka[2:THREE], kb[2:THREE], strict=True):
        assert (x != y) == (k >= 4), k
    # the leader is part of every key
    assert all(x != y for x, y in zip(ka, bench.boundary_keys(a, 1, CLS), strict=True))
    # the queen in another hand: even key 4 tells
    c = (mask("2S KS"), mask("3S AS QS"), mask("4S"), mask("5S 6S"))
    assert bench.boundary_keys(c, 0, CLS)[FOUR] != ka[FOUR]


def test_a_repeat_is_answerable_only_when_the_stored_bound_proves_it():
    h = (1, 2, 4, 8)
    # (hands, leader, alpha, beta, result, nodes): the first reaches its
    # window with -1; the second asks (-2, -1) again (proved), the third
    # asks (-1, 0) (not proved: -1 is no answer to ">= 0"), the fourth
    # falls short of (-3, -2) at -3 and so contradicts the stored -1
    recs = [(h, 0, -2, -1, -1, 10), (h, 0, -2, -1, -1, 20), (h, 0, -1, 0, -1, 40),
            (h, 0, -3, -2, -3, 80)]
    r = bench.key_reuse(recs, ["k"] * 4, me=1)
    assert (r["count"], r["distinct"], r["seen"]) == (4, 1, 3)
    assert (r["answered"], r["answered_nodes"]) == (2, 100)
    assert (r["wrong"], r["wrong_nodes"]) == (1, 80)
    # seat 1 is M, seat 0 leads: the first two are escapes, the fourth a catch
    assert (r["esc_nodes"], r["esc_answered_nodes"]) == (30, 20)
