"""The max^n value of the games of four individual seats (issue #40):
every seat plays for its own score, ties against the seat asked.  The
kernel's search (csrc/dd/ddmaxn.pxd) against the pure-Python backward
induction (``solver.reference.dd_oracle.solve_maxn_oracle``), its tables
kept across kinds and seats, and the faces that ask for it
(``solver.dd.solve(kind=...)``, ``solve_within``, the ``cheat`` bot, the
review's hindsight, ``dixtrix solve``)."""

from __future__ import annotations

import json
import random

import pytest

import solver
from solver.cards import FRENCH, mask_of
from solver.dd import Solver, solve, solve_within
from solver.dd import trick as dd
from solver.errors import OptionError, PositionError, SearchAborted
from solver.games.contract_match.exact import PENALTY_CONTRACTS, penalty_contract
from solver.reference.dd_oracle import maxn_prefers, solve_maxn_oracle
from tests.bench_scripts import load


def _ending(rng, n=3, table=None):
    kind = rng.choice(sorted(PENALTY_CONTRACTS))
    points = PENALTY_CONTRACTS[kind][0]
    doubled = {}
    if kind in ("king", "queens") and rng.random() < 0.4:
        doubled = {c: rng.randrange(4) for c in points if rng.random() < 0.5}
    contract = penalty_contract(kind, doubled=doubled, must_discard=rng.random() < 0.3)
    cards = list(FRENCH.cards)
    rng.shuffle(cards)
    # penalty cards in play more often than a random deal gives them
    pen = [c for c in points if rng.random() < 0.7]
    cards = pen + [c for c in cards if c not in pen]
    cards = cards[:4 * n]
    rng.shuffle(cards)
    hands = [cards[i * n:(i + 1) * n] for i in range(4)]
    leader = rng.randrange(4)
    trick = []
    for j in range(rng.randrange(4) if table is None else table):
        s = (leader + j) % 4
        legal = dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader,
                                 tuple(trick)).legal()
        c = rng.choice(legal)
        hands[s].remove(c)
        trick.append(c)
    return dd.TrickPosition(contract, tuple(mask_of(h) for h in hands), leader, tuple(trick),
                            points=tuple(rng.randrange(-40, 1) for _ in range(4)))


def test_maxn_matches_the_oracle_vector_by_vector():
    """Every legal card's vector of final scores, every contract, doubled
    cards and must-discard, a trick in progress or not, each seat asked:
    the kernel equals plain backward induction under the same tie rule;
    the value is the asked seat's score after the seat to move's own
    choice."""
    rng = random.Random(4010)
    s = Solver(private=True)
    ties = 0
    for _ in range(300):
        pos = _ending(rng)
        root = rng.randrange(4)
        ref, _ = solve_maxn_oracle(pos, root)
        got = s.solve_maxn(pos, root)
        assert dict(got.vectors) == ref, (pos, root)
        mover = pos.seat_to_play
        assert all(not maxn_prefers(mover, root, v, ref[got.choice]) for v in ref.values())
        assert got.value == ref[got.choice][root]
        assert dict(got.card_values) == {c: v[root] for c, v in ref.items()}
        own = [v[mover] for v in ref.values()]
        ties += own.count(max(own)) > 1
    # the tie rule is tested: many positions have several best cards
    assert ties >= 60, ties


def test_maxn_tie_rule_decides():
    """The tie rule is part of the value: with the ties in the mover's
    favour for the asked seat instead of against it (the search's rule
    reversed in the oracle), some values differ."""
    rng = random.Random(4011)
    differ = 0
    for _ in range(150):
        pos = _ending(rng)
        root = rng.randrange(4)
        got = Solver().solve_maxn(pos, root)
        mover = pos.seat_to_play
        if mover == root:
            continue
        friendly = max(got.vectors.values(), key=lambda v: (v[mover], v[root]))
        differ += friendly[root] != got.value
    assert differ >= 5, differ


def test_maxn_table_is_kept_across_kinds_and_seats():
    """One ``Solver`` alternating paranoid and max^n solves and the seats
    asked (the table changes layout, a max^n entry is keyed by its root)
    gives what fresh solvers give."""
    rng = random.Random(4012)
    kept = Solver(private=True)
    for _ in range(40):
        pos = _ending(rng, n=4, table=0)
        for root in rng.sample(range(4), 2):
            assert dict(kept.solve_maxn(pos, root).vectors) == dict(
                Solver().solve_maxn(pos, root).vectors)
            assert dict(kept.solve_position(pos, max_team=root).card_values) == dict(
                Solver().solve_position(pos, max_team=root).card_values)


def test_maxn_refuses_other_contracts_and_stops_at_its_bound():
    with pytest.raises(PositionError):
        Solver().solve_maxn(dd.TrickPosition(dd.bridge_contract(-1), (1 << 2, 1 << 3, 1 << 4,
                                                                        1 << 5), 0))
    partners = penalty_contract("king", partners=True)
    with pytest.raises(PositionError):
        Solver().solve_maxn(dd.TrickPosition(partners, (1 << 2, 1 << 3, 1 << 4, 1 << 5), 0))
    pos = _ending(random.Random(3), n=5, table=0)
    with pytest.raises(SearchAborted):
        Solver().solve_maxn(pos, 0, max_nodes=50)


def _trix_at(seed, trick):
    return load("trix_full_deals").build(solver.load_game("trix"), "queens", seed, trick)


def test_solve_says_which_value_it_gives():
    """``solve(kind=...)`` on trix: paranoid by default; max^n where the
    position is small enough and the search finishes, with every seat's
    score after each card and the seat to move's own choice; the paranoid
    value otherwise, said so; a bounded solve says whether it finished."""
    st = _trix_at(2, 9)
    seat = st.current_player()
    par = solve(st)
    assert par.kind == "paranoid" and par.action_vectors is None
    mx = solve(st, kind="maxn")
    assert mx.kind == "maxn" and set(mx.action_vectors) == set(mx.action_values)
    assert all(v[seat] == mx.action_values[a] for a, v in mx.action_vectors.items())
    assert mx.choice in mx.action_values and mx.value == mx.action_values[mx.choice]
    # max^n is never worse for the seat than the paranoid guarantee
    assert mx.value >= par.value
    early = solve(_trix_at(2, 1), kind="maxn", max_nodes=20_000_000)
    assert early.kind == "paranoid"
    done = solve_within(st, 10_000_000, kind="maxn")
    assert done.finished and done.kind == "maxn" and done.solution.value == mx.value
    cut = solve_within(_trix_at(2, 2), 500, kind="maxn")
    assert not cut.finished and cut.solution is None and cut.kind == "paranoid"
    assert cut.nodes >= 500
    with pytest.raises(OptionError):
        solve(st, kind="coalition")


def test_two_sided_games_are_minimax_whatever_is_asked():
    pos = dd.TrickPosition(dd.bridge_contract(0), (1 << 2 | 1 << 3, 1 << 4 | 1 << 5,
                                                   1 << 6 | 1 << 7, 1 << 8 | 1 << 9), 0)
    assert solve(pos, kind="maxn").kind == "minimax"
    game = solver.load_game("dixie-rook")
    assert solver.dd.solve_within(_rook_play(game), 5_000_000, kind="maxn").kind == "minimax"


def _rook_play(game):
    from solver.games.dixie_rook import PLAY
    st = game.new_initial_state(seed=1)
    rng = random.Random(1)
    while st.phase != PLAY:
        st.apply_action(rng.choice(st.legal_actions()))
    while bin(st.hands[st.current_player()]).count("1") > 4 or st.trick:
        st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_cheat_bot_takes_a_kind():
    from bots import make_bot
    game = solver.load_game("trix")
    assert make_bot("cheat:kind=maxn", game, 0, seed=1).options["kind"] == "maxn"
    assert make_bot("cheat", game, 0, seed=1).options["kind"] in ("paranoid", "maxn")
    with pytest.raises(OptionError):
        make_bot("cheat:kind=coalition", game, 0, seed=1)
    st = _trix_at(2, 9)
    bot = make_bot("cheat:kind=maxn,exact=on", game, st.current_player(), seed=1)
    assert bot.step(st) in st.legal_actions()
    assert bot.last is None or bot.last.bot == "exact"


def test_solve_command_prints_the_kind(tmp_path, capsys):
    from bots.cli import main
    from solver import position
    st = _trix_at(2, 9)
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(position.Record.of(st).to_json()))
    assert main(["solve", str(path), "--kind", "maxn", "--json", "--line", "2"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "maxn"
    assert main(["solve", str(path), "--line", "0"]) == 0
    assert "paranoid value" in capsys.readouterr().out
