"""Tables that outlive a solve (``solver.dd.Solver``, solver/dd/session.py):
every answer of a solver that keeps its tables across positions of a deal,
PIMC worlds, leaders, sides and contracts equals the oracle's (or a first
solve's, where the oracle cannot go); the kept tables really answer (fewer
nodes); the one-call tables against single solves and DDS's
``CalcDDtable`` (tests/data/dds_tables.json)."""

import json
import os
import random

import pytest

import solver
from solver.cards import DIX, FRENCH, ROOK, cards_of, mask_of
from solver.dd import Solver
from solver.dd import trick as dd
from solver.dd.tables import bridge_table, contract_table
from solver.errors import PositionError, UnsupportedPositionError
from solver.games.contract_match.exact import PENALTY_CONTRACTS, penalty_contract
from solver.games.dix.exact import dix_contract
from solver.games.dixie_rook.exact import rook_contract
from solver.reference.dd_oracle import solve_oracle

TABLES = os.path.join(os.path.dirname(__file__), "..", "data", "dds_tables.json")


def _deal(rng, contract, n, deck):
    cards = list(deck)
    rng.shuffle(cards)
    return [sorted(cards[i * n:(i + 1) * n]) for i in range(contract.nseats)]


def _position(contract, hands, leader, trick=(), points=None, tricks=None):
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader, tuple(trick),
                            points=points, tricks=tricks)


def _oracle_values(pos, team, objective="own"):
    return solve_oracle(pos, team, objective)[1]


def _fresh(pos, team, objective="own"):
    """A first solve: a solver of its own, its table new."""
    with Solver(private=True) as s:
        return dict(s.solve_position(pos, team, objective).card_values)


def _line(rng, pos, plies):
    """Positions along a random line of play from ``pos``."""
    out = [pos]
    k = pos.contract
    hands = [cards_of(h) for h in pos.hands]
    leader, trick = pos.leader, list(pos.trick)
    tricks = list(pos.tricks)
    for _ in range(plies):
        p = out[-1]
        if p.tricks_left == 1 and len(p.trick) == k.nseats - 1:
            break
        c = rng.choice(p.legal())
        seat = p.seat_to_play
        hands[seat].remove(c)
        trick.append(c)
        if len(trick) == k.nseats:
            # the winner leads next (scores are not the point here)
            eff = [k.effective(x) for x in trick]
            best = 0
            for i in range(1, len(trick)):
                if eff[i][0] == eff[best][0] and eff[i][1] > eff[best][1]:
                    best = i
                elif eff[i][0] == k.trump and eff[best][0] != k.trump:
                    best = i
            leader = (leader + best) % k.nseats
            tricks[k.team_ids.index(k.teams[leader])] += 1
            trick = []
            if not any(hands):
                break
        out.append(dd.TrickPosition(k, tuple(mask_of(h) for h in hands), leader, tuple(trick),
                                    points=pos.points, tricks=tuple(tricks)))
    return out


def _contracts(rng):
    """Contracts of every kind the generic kernel serves."""
    kind = rng.choice(sorted(PENALTY_CONTRACTS))
    doubled = {}
    if kind in ("king", "queens") and rng.random() < 0.5:
        doubled = {c: rng.randrange(4) for c in PENALTY_CONTRACTS[kind][0]
                   if rng.random() < 0.5}
    return [(dd.bridge_contract(rng.randrange(-1, 4)), FRENCH.cards),
            (penalty_contract(kind, partners=rng.random() < 0.5, doubled=doubled,
                                 must_discard=rng.random() < 0.3), FRENCH.cards),
            (rook_contract(rng.choice((4, 6)), rng.randrange(4), rng.choice((0, 10, 20))),
             ROOK.cards)]


def test_a_kept_table_along_lines_of_play_matches_the_oracle():
    """One solver for every position along random lines of play (its table
    kept from each position to the next and from line to line, every team
    as max side, whatever contract comes next): every card's value is the
    oracle's."""
    rng = random.Random(2601)
    s = Solver(private=True)
    checked = 0
    for _ in range(40):
        for contract, deck in _contracts(rng):
            n = 3 if contract.nseats == 4 else 2
            hands = _deal(rng, contract, n, deck)
            pos = _position(contract, hands, rng.randrange(contract.nseats))
            for p in _line(rng, pos, rng.randrange(2, 3 * contract.nseats)):
                team = rng.choice(contract.team_ids)
                got = s.solve_position(p, team)
                assert dict(got.card_values) == _oracle_values(p, team), (p, team)
                checked += 1
    assert checked > 500


def test_kept_tables_answer_later_positions():
    """The entries a solve stores answer the next positions of the deal
    (another leader, the next card, the other side): the same values as a
    first solve with fewer nodes.  Bridge, 7 cards a hand."""
    rng = random.Random(2602)
    kept = fresh = 0
    for i in range(12):
        contract = dd.bridge_contract(i % 5 - 1)
        hands = _deal(rng, contract, 7, FRENCH.cards)
        s = Solver(private=True)
        for p in _line(rng, _position(contract, hands, i % 4), 6):
            team = rng.randrange(2)
            got = s.solve_position(p, team)
            with Solver(private=True) as f:
                want = f.solve_position(p, team)
            assert dict(got.card_values) == dict(want.card_values)
            kept += got.nodes
            fresh += want.nodes
    assert kept < 0.7 * fresh, (kept, fresh)


def test_worlds_of_one_decision_share_a_table():
    """PIMC: the seat to move keeps its hand, the other cards are dealt
    again world after world; one solver for all of them gives each world
    the oracle's values (penalty contracts: relative keys with the penalty
    cards' classes; bridge; Rook) and fewer nodes than first solves."""
    rng = random.Random(2603)
    s = Solver(private=True)
    kept = fresh = 0
    for _ in range(8):
        for contract, deck in _contracts(rng)[:3]:
            if contract.nseats != 4:
                continue
            n = 3
            hands = _deal(rng, contract, n, deck)
            leader = rng.randrange(4)
            team = contract.teams[leader]
            rest = [c for s_ in range(4) if s_ != leader for c in hands[s_]]
            for _world in range(6):
                rng.shuffle(rest)
                world = [list(h) for h in hands]
                others = [s_ for s_ in range(4) if s_ != leader]
                for j, s_ in enumerate(others):
                    world[s_] = sorted(rest[j * n:(j + 1) * n])
                p = _position(contract, world, leader)
                got = s.solve_position(p, team)
                assert dict(got.card_values) == _oracle_values(p, team), p
                kept += got.nodes
                with Solver(private=True) as f:
                    fresh += f.solve_position(p, team).nodes
    assert kept < fresh, (kept, fresh)


def test_the_rules_fingerprint_keeps_contracts_and_sides_apart():
    """The same hands solved under other rules on one table: another max
    seat of a paranoid contract, another contract, another trump.  The
    positions' keys are alike (the same owners at the same relative
    places); only the rule table's fingerprint in every key keeps one
    answer from serving the other."""
    rng = random.Random(2604)
    s = Solver(private=True)
    for _ in range(25):
        hands = _deal(rng, dd.bridge_contract(-1), 3, FRENCH.cards)
        leader = rng.randrange(4)
        for kind in ("ltoosh", "queens", "diamonds", "king"):
            contract = penalty_contract(kind)
            p = _position(contract, hands, leader)
            for seat in range(4):
                assert dict(s.solve_position(p, seat).card_values) == \
                    _oracle_values(p, seat), (kind, seat)
        for strain in (-1, 0, 1, 2, 3):
            p = _position(dd.bridge_contract(strain), hands, leader)
            for team in (0, 1):
                assert dict(s.solve_position(p, team).card_values) == _oracle_values(p, team)


def test_the_other_team_of_a_constant_sum_contract():
    """Two-team contracts whose points add up are solved for seat 0's team
    and the other team's values derived (``trick.other_value``): against
    the oracle for the other team, points already won and cards on the
    table included (trix partnerships doubled, Rook with its nest and
    bonus, bridge, dix on the generic kernel)."""
    rng = random.Random(2605)
    checked = 0
    for i in range(120):
        pick = i % 4
        if pick == 0:
            contract, deck, n = dd.bridge_contract(rng.randrange(-1, 4)), FRENCH.cards, 3
        elif pick == 1:
            kind = rng.choice(("king", "queens", "diamonds", "ltoosh"))
            doubled = {c: rng.randrange(4) for c in PENALTY_CONTRACTS[kind][0]
                       if rng.random() < 0.5} if kind in ("king", "queens") else {}
            contract, deck, n = penalty_contract(kind, partners=True,
                                                    doubled=doubled), FRENCH.cards, 3
        elif pick == 2:
            contract, deck = rook_contract(rng.choice((4, 6)), rng.randrange(4),
                                              rng.choice((5, 15))), ROOK.cards
            n = 3 if contract.nseats == 4 else 2
        else:
            turn = rng.choice([c for c in DIX.cards if c])
            contract = dix_contract(turn >> 4, turn & 15)
            deck, n = [c for c in DIX.cards if c != turn], 4
        assert dd.constant_sum(contract, contract.objective)
        hands = _deal(rng, contract, n, deck)
        nt = len(contract.team_ids)
        pos = _position(contract, hands, rng.randrange(contract.nseats),
                        points=tuple(rng.randrange(0, 40, 5) for _ in range(nt)),
                        tricks=tuple(rng.randrange(3) for _ in range(nt)))
        pos = _line(rng, pos, rng.randrange(contract.nseats))[-1]
        pos = dd.TrickPosition(contract, pos.hands, pos.leader, pos.trick,
                               points=tuple(rng.randrange(0, 40, 5) for _ in range(nt)),
                               tricks=tuple(rng.randrange(3) for _ in range(nt)))
        other = contract.team_ids[1]
        got = dd.solve_position(pos, other, contract.objective)
        assert dict(got.card_values) == _oracle_values(pos, other, contract.objective), pos
        checked += 1
    assert checked == 120
    # not constant-sum: four teams, or dix scored as one side's own points
    assert not dd.constant_sum(penalty_contract("queens"), "own")
    assert not dd.constant_sum(dix_contract(0, 5), "own")


def test_rule_tables_cover_the_whole_deal():
    """One rule table (one object, one fingerprint) from a deal's first
    card to its last and for every world with the same cards; another
    max team or contract has another fingerprint."""
    rng = random.Random(2606)
    contract = penalty_contract("queens")
    hands = _deal(rng, contract, 4, FRENCH.cards)
    line = _line(rng, _position(contract, hands, 0), 10)
    tables = {id(dd.unit_table(p, 0, "own")[0]) for p in line}
    assert len(tables) == 1
    keys = {dd.unit_table(p, t, "own")[0]["key"] for p in line[:1] for t in range(4)}
    assert len(keys) == 4
    other = dd.unit_table(_position(penalty_contract("diamonds"), hands, 0), 0, "own")
    assert other[0]["key"] not in keys


def test_the_turned_up_card_is_not_in_play():
    """With the joker in play it takes the turned-up card's place: that card
    in a hand is refused (the rule tables give both one slot)."""
    contract = dix_contract(2, 9)
    hands = (mask_of([2 * 16 + 9, 5]), mask_of([18, 19]))
    with pytest.raises(PositionError, match="turned-up"):
        dd.TrickPosition(contract, hands, 0)


def test_a_solver_is_left_alone_or_starts_afresh():
    """Another session on the same kernel in between starts this solver's
    table afresh (values unchanged); a private solver keeps its own."""
    rng = random.Random(2607)
    contract = dd.bridge_contract(2)
    p = _position(contract, _deal(rng, contract, 6, FRENCH.cards), 1)
    a, b = Solver(), Solver()
    first = a.solve_position(p)
    assert a.solve_position(p).nodes < first.nodes          # its own table
    b.solve_position(p)
    again = a.solve_position(p)
    assert again.nodes == first.nodes and again.card_values == first.card_values
    with Solver(private=True) as c:
        one = c.solve_position(p)
        a.solve_position(p)
        assert c.solve_position(p).nodes < one.nodes
    a.clear()
    assert a.solve_position(p).nodes == first.nodes


def test_dix_solver_sessions():
    """The dix solver under a session: positions along a dix round and
    worlds of the seventeen variant, every card's value the oracle's."""
    rng = random.Random(2608)
    s = Solver(private=True)
    for _ in range(30):
        turn = rng.choice([c for c in DIX.cards if c])
        contract = dix_contract(turn >> 4, turn & 15)
        deck = [c for c in DIX.cards if c != turn]
        hands = _deal(rng, contract, 4, deck)
        for p in _line(rng, _position(contract, hands, rng.randrange(2)), 5):
            for seat in (0, 1):
                got = s.solve_dix(p, seat)
                assert dict(got.card_values) == _oracle_values(p, seat, "dix")


def test_value_alone_matches_every_card():
    rng = random.Random(2609)
    s = Solver(private=True)
    for _ in range(40):
        for contract, deck in _contracts(rng):
            n = 3 if contract.nseats == 4 else 2
            p = _position(contract, _deal(rng, contract, n, deck),
                          rng.randrange(contract.nseats))
            for team in contract.team_ids[:2]:
                want = dd.solve_position(p, team).value
                assert s.value(p, team) == want
                assert s.value(p, team, guess=want + 5) == want


def test_bridge_table_matches_single_solves():
    """``bridge_table`` on small deals: each strain and declarer against a
    first solve of the position (declarer's left-hand opponent leads)."""
    rng = random.Random(2610)
    for _ in range(4):
        hands = _deal(rng, dd.bridge_contract(-1), 5, FRENCH.cards)
        tab = bridge_table(hands)
        for name, strain in (("S", 3), ("H", 2), ("D", 1), ("C", 0), ("N", -1)):
            for d in range(4):
                pos = _position(dd.bridge_contract(strain), hands, (d + 1) % 4)
                assert tab.tricks[name][d] == dd.solve_position(pos, d % 2).value
    with pytest.raises(PositionError, match="four hands"):
        bridge_table(hands[:3])


def test_bridge_table_matches_dds():
    """DDS's ``CalcDDtable`` on full deals (tests/data/dds_tables.json,
    written by tests/data/make_dds_golden.py through endplay)."""
    with open(TABLES) as f:
        doc = json.load(f)
    s = Solver(private=True)
    for deal in doc["deals"]:
        hands = [FRENCH.parse_cards(h) for h in deal["hands"]]
        tab = s.bridge_table(hands)
        assert {k: list(v) for k, v in tab.tricks.items()} == deal["tricks"], deal["hands"]


def test_contract_table_matches_single_solves():
    """``contract_table`` at a trix contract choice: the layout on the dealt
    hands against its solver; the trick contracts on hands cut to three
    cards each (the choice does not look at the hands, the table takes
    them from the deal log) against the oracle, every seat."""
    from solver.dd.layout import solve_layout
    from solver.games.contract_match.exact import KINDS
    from solver.games.contract_match.state import CONTRACT_BASE
    game = solver.load_game("trix")
    state = game.new_initial_state(seed=3)
    names = {a - CONTRACT_BASE: state.action_to_string(a) for a in state.legal_actions()}
    layout = [n for cid, n in names.items() if cid not in KINDS]
    table = contract_table(state, contracts=layout)
    hands = [list(h) for h in state.log.hands]
    assert table == {layout[0]: {state.chooser: solve_layout(hands, {}, state.chooser, [],
                                                              seat=state.chooser).value}}
    rng = random.Random(2611)
    small = sorted(FRENCH.cards, key=lambda c: rng.random())[:12]
    state.log.hands = tuple(tuple(sorted(small[3 * i:3 * i + 3])) for i in range(4))
    tricks = [n for cid, n in names.items() if cid in KINDS]
    table = contract_table(state, seats=range(4), contracts=tricks)
    masks = tuple(mask_of(h) for h in state.log.hands)
    for cid, name in names.items():
        if cid in KINDS:
            pos = dd.TrickPosition(penalty_contract(KINDS[cid]), masks, state.chooser)
            assert table[name] == {seat: solve_oracle(pos, seat, "own")[0] for seat in range(4)}
    with pytest.raises(PositionError, match="contracts"):
        contract_table(state, contracts=["contract nothing"])
    state.apply_action(state.legal_actions()[0])
    with pytest.raises(UnsupportedPositionError, match="contract choice"):
        contract_table(state)


def _dix_round_states(seed):
    """The positions of one dix round played at random from trick 14 (the
    stock empty: the solver takes them) to its last card."""
    game = solver.load_game("dix")
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal() and state.round_index() < 1:
        number = state.trick_number()
        if number is not None and number[0] >= 14:
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("seed", [1, 6])
def test_dix_round_solved_from_its_end_back_matches_fresh_solves(seed):
    """The review's hindsight (bots/review.py): one solver, its table kept,
    solves a round's positions from the last back to trick 14, both seats
    at each.  Every value is a fresh solver's, and the kept table never
    costs: no solve takes more than a fresh one's nodes (plus the few a
    differently ordered search may take), the round fewer in all."""
    kept_total = fresh_total = 0
    s = Solver(private=True)
    states = _dix_round_states(seed)
    assert len(states) >= 20
    for st in reversed(states):
        for seat in (0, 1):
            got = s.solve(st, seat=seat)
            with Solver(private=True) as f:
                want = f.solve(st, seat=seat)
            assert dict(got.action_values) == dict(want.action_values), (st, seat)
            assert got.nodes <= 2 * want.nodes + 100, (st, seat, got.nodes, want.nodes)
            kept_total += got.nodes
            fresh_total += want.nodes
    assert kept_total < 0.7 * fresh_total, (kept_total, fresh_total)
