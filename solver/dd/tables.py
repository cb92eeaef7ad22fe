"""One-call tables of double-dummy values, on one ``Solver`` session (its
tables shared by every solve of the call; ``Solver.bridge_table`` and
``Solver.contract_table`` pass their own).

* ``bridge_table(hands)``: every strain and declarer of a bridge
  deal, as DDS's ``CalcDDtable``: the tricks declarer's side takes when
  declarer's left-hand opponent leads.  Each strain is one rule table
  (bridge is ``constant_sum``: every leader is solved for North-South), so
  the four leaders of a strain share their entries; only each position's
  value is asked (one null-window driver a leader, the previous leader's
  answer as its first guess), not every card's.
* ``contract_table(state)``: a trix / tricks hand at its contract
  choice: every contract still to choose, the value of the deal for each
  asked seat (default: the chooser) when played from trick 1 -- a trick
  contract's deal score (paranoid, or the team's with partners) with no
  card revealed (doubling comes after the choice), the layout's finishing
  points.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..cards import cards_of, mask_of
from ..errors import PositionError, UnsupportedPositionError
from ..games.contract_match.exact import KINDS
from ..games.contract_match.game import ContractGame
from ..games.contract_match.state import CHOOSE, CONTRACT_BASE
from ..games.contract_match.trick_play import PENALTY_RULES
from . import defaults
from . import trick as dd
from .layout import solve_layout

#: bridge strains in DDS's table order: spades, hearts, diamonds, clubs, no trumps
STRAINS = (("S", 3), ("H", 2), ("D", 1), ("C", 0), ("N", -1))


@dataclass(frozen=True)
class BridgeTable:
    """``tricks[strain][declarer]``: the tricks declarer's side takes with
    ``strain`` trumps ("S", "H", "D", "C", "N" for no trumps) when the
    seat after declarer leads; declarers N E S W = 0 1 2 3.  ``nodes`` and
    ``time`` (s) of the whole table."""

    tricks: Mapping[str, tuple]
    nodes: int
    time: float


def _bridge_hands(hands) -> tuple:
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise PositionError("a bridge deal is four hands (N E S W)", "hands")
    out = []
    for h in hands:
        if isinstance(h, (list, tuple)):
            h = mask_of(h)
        out.append(h)
    return tuple(out)


def bridge_table(hands, max_nodes: int | None = None, solver=None) -> BridgeTable:
    """Every strain and declarer of the deal ``hands`` (four card lists or
    masks, N E S W, the same number of cards each): ``BridgeTable``.
    ``max_nodes`` bounds each of the 20 solves (``SearchAborted``);
    ``solver``: the ``Solver`` session to use (default: a new one)."""
    solver = defaults.fresh_solver() if solver is None else solver
    masks = _bridge_hands(hands)
    t0 = time.perf_counter()
    n0 = solver.nodes
    tricks = {}
    for name, strain in STRAINS:
        contract = dd.bridge_contract(strain)
        ns = [0] * 4
        guess = None
        for leader in range(4):
            pos = dd.TrickPosition(contract, masks, leader)
            ns[leader] = solver.value(pos, max_team=0, max_nodes=max_nodes, guess=guess)
            guess = ns[leader]
        n = pos.tricks_left
        # declarer d: the seat after d leads; North-South's tricks then
        tricks[name] = tuple(ns[(d + 1) % 4] if d % 2 == 0 else n - ns[(d + 1) % 4]
                             for d in range(4))
    return BridgeTable(MappingProxyType(tricks), solver.nodes - n0, time.perf_counter() - t0)


def contract_table(state, seats=None, max_nodes: int | None = None, solver=None,
                   contracts=None) -> dict:
    """A trix / tricks state at its contract choice: ``{contract action
    string: {seat: value}}`` for every contract the chooser may still
    choose (or those of ``contracts``, action strings), each seat of
    ``seats`` (default: the chooser) valued from trick 1 (module
    docstring).  ``max_nodes`` bounds each trick
    contract's solve (``SearchAborted``); ``solver``: the ``Solver``
    session to use (default: a new one)."""
    solver = defaults.fresh_solver() if solver is None else solver
    if not isinstance(state.game, ContractGame):
        raise UnsupportedPositionError(f"contract_table takes a trix or tricks state, got "
                                       f"{state.game.name!r}")
    if state.is_terminal() or state.phase != CHOOSE:
        raise UnsupportedPositionError("contract_table: the state is not at a contract choice")
    chooser = state.chooser
    seats = (chooser,) if seats is None else tuple(seats)
    for s in seats:
        if isinstance(s, bool) or s not in range(4):
            raise PositionError(f"seat must be 0..3, got {s!r}", "seats")
    opts = state.game.options
    partners = bool(opts.get("partners", False))
    hands = tuple(mask_of(h) for h in state.log.hands)
    legal = state.legal_actions()
    if contracts is not None:
        names = {state.action_to_string(a): a for a in legal}
        for c in contracts:
            if c not in names:
                raise PositionError(f"{c!r} is not a contract the chooser may choose "
                                    f"(one of {', '.join(names)})", "contracts")
        legal = [names[c] for c in contracts]
    out = {}
    for action in legal:
        cid = action - CONTRACT_BASE
        values = {}
        if cid in PENALTY_RULES:
            contract = dd.penalty_contract(KINDS[cid], partners=partners,
                                           must_discard=opts.get("must_discard_penalty", False))
            pos = dd.TrickPosition(contract, hands, chooser)
            for s in seats:
                values[s] = solver.value(pos, max_team=contract.teams[s], max_nodes=max_nodes)
        else:
            for s in seats:
                values[s] = solve_layout([cards_of(h) for h in hands], {}, chooser, [], seat=s,
                                         partnership=partners, tt_mb=solver.tt_mb).value
        out[state.action_to_string(action)] = values
    return out


__all__ = ["BridgeTable", "bridge_table", "contract_table", "STRAINS"]
