"""Write tests/data/dds_golden.json: bridge trick counts from DDS (the
reference double-dummy solver, through its Python wrapper endplay) for
seeded random deals, for tests/search/test_dds_golden.py.

    pip install endplay && python tests/data/make_dds_golden.py
    python tests/data/make_dds_golden.py --tables     # tests/data/dds_tables.json

Endings of 5 to 8 cards a hand (and some with cards already on the table),
for every strain and every leader: DDS's ``solve_board`` gives the tricks
the side to play takes after each of its legal cards.  ``full_deals``: full
13-card deals, one strain and leader each (strains in turn, every third with
1 to 3 cards already on the table), from a seed of their own.  The test needs only
the JSON (endplay is not a test dependency).  Our seats 0..3 are N E S W,
our suits C D H S = 0..3 (endplay: spades 0 .. clubs 3, no trumps 4).
"""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

from solver.cards import FRENCH

SEED = 20261122
FULL_SEED = 20261123
FULL_DEALS = 15
STRAINS = "CDHSN"          # our suit order, N = no trumps
RANKS = "23456789TJQKA"
OUT = os.path.join(os.path.dirname(__file__), "dds_golden.json")
#: tests/search/test_dd_session.py: DDS's tables of every strain and declarer
TABLE_SEED = 20261126
TABLES_OUT = os.path.join(os.path.dirname(__file__), "dds_tables.json")


def pbn(hands) -> str:
    """'N:' + each hand as S.H.D.C (high first)."""
    out = []
    for h in hands:
        suits = []
        for s in (3, 2, 1, 0):
            rs = sorted((c & 15 for c in h if c >> 4 == s), reverse=True)
            suits.append("".join(RANKS[r - 2] for r in rs))
        out.append(".".join(suits))
    return "N:" + " ".join(out)


def endplay_card(card: int) -> str:
    return "SHDC"[3 - (card >> 4)] + RANKS[(card & 15) - 2]


def our_card(c) -> int:
    suit = 3 - int(c.suit)
    rank = RANKS.index(c.rank.abbr) + 2
    return suit * 16 + rank


def legal_follow(hand, trick):
    led = trick[0] >> 4
    follow = [c for c in hand if c >> 4 == led]
    return follow or list(hand)


def solve_case(hands, strain, leader, trick) -> dict:
    deal = Deal(pbn(hands))
    deal.first = Player(leader)
    deal.trump = Denom(4 if strain == 4 else 3 - strain)
    for c in trick:
        deal.play(endplay_card(c))
    return {FRENCH.to_string(our_card(c)): t for c, t in solve_board(deal)}


def random_trick(rng, hands, leader, k):
    hs = [list(h) for h in hands]
    trick = []
    for j in range(k):
        seat = (leader + j) % 4
        c = rng.choice(legal_follow(hs[seat], trick) if trick else hs[seat])
        hs[seat].remove(c)
        trick.append(c)
    return trick


def full_deals() -> list:
    rng = random.Random(FULL_SEED)
    out = []
    for d in range(FULL_DEALS):
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        hands = [sorted(cards[i * 13:(i + 1) * 13]) for i in range(4)]
        strain = d % 5
        leader = rng.randrange(4)
        trick = random_trick(rng, hands, leader, rng.randrange(1, 4) if d % 3 == 2 else 0)
        solved = solve_case(hands, strain, leader, trick)
        out.append({"hands": [FRENCH.format_cards(h) for h in hands],
                    "cases": [{"strain": STRAINS[strain], "leader": leader,
                               "trick": [FRENCH.to_string(c) for c in trick],
                               "tricks": dict(sorted(solved.items()))}]})
    return out


def main() -> None:
    rng = random.Random(SEED)
    deals: list[dict[str, Any]] = []
    sizes = [5] * 10 + [6] * 12 + [7] * 12 + [8] * 6
    for d, n in enumerate(sizes):
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        hands = [sorted(cards[i * n:(i + 1) * n]) for i in range(4)]
        cases = []
        for strain in range(5):
            for leader in range(4):
                # every fourth case starts with 1..3 cards on the table
                k = rng.randrange(1, 4) if (strain * 4 + leader) % 4 == d % 4 else 0
                trick = random_trick(rng, hands, leader, k)
                solved = solve_case(hands, strain, leader, trick)
                cases.append({"strain": STRAINS[strain], "leader": leader,
                              "trick": [FRENCH.to_string(c) for c in trick],
                              "tricks": dict(sorted(solved.items()))})
        deals.append({"hands": [FRENCH.format_cards(h) for h in hands], "cases": cases})
    doc: dict[str, Any] = {"about": "DDS (endplay) trick counts for the side to play after each legal "
                    "card; seats N E S W = 0 1 2 3; made by tests/data/make_dds_golden.py",
           "seed": SEED, "deals": deals, "full_seed": FULL_SEED, "full_deals": full_deals()}
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {len(deals)} deals, {sum(len(d['cases']) for d in deals)} cases and "
          f"{len(doc['full_deals'])} full deals to {OUT}")


def table_of(hands) -> dict:
    """DDS's table, strain -> tricks of declarer N E S W (the seat after
    declarer leads): ``CalcDDtable`` for full deals (it takes only those),
    else the best card of ``solve_board`` for each leader."""
    if len(hands[0]) == 13:
        t = calc_dd_table(Deal(pbn(hands))).to_list()       # spades .. clubs, no trumps
        return {name: list(t[i]) for i, name in enumerate("SHDCN")}
    out = {}
    for name in "SHDCN":
        strain = STRAINS.index(name)
        row = []
        for declarer in range(4):
            leader = (declarer + 1) % 4
            best = max(solve_case(hands, strain, leader, []).values())
            row.append(len(hands[0]) - best)            # the leader's side took ``best``
        out[name] = row
    return out


def tables() -> None:
    """tests/data/dds_tables.json: 6 deals of 6 to 8 cards a hand and a
    full deal, each with DDS's table of every strain and declarer."""
    rng = random.Random(TABLE_SEED)
    deals: list[dict[str, Any]] = []
    for n in (6, 6, 7, 7, 8, 8, 13):
        cards = list(FRENCH.cards)
        rng.shuffle(cards)
        hands = [sorted(cards[i * n:(i + 1) * n]) for i in range(4)]
        deals.append({"hands": [FRENCH.format_cards(h) for h in hands],
                      "tricks": table_of(hands)})
    doc: dict[str, Any] = {
        "about": "DDS (endplay) tables: strain -> tricks of declarer N E S W = 0 1 2 3 when "
                 "the seat after declarer leads; made by tests/data/make_dds_golden.py "
                 "--tables", "seed": TABLE_SEED, "deals": deals}
    with open(TABLES_OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {len(deals)} tables to {TABLES_OUT}")


if __name__ == "__main__":
    if "--tables" in sys.argv[1:]:
        tables()
    else:
        main()
