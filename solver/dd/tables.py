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
* ``contract_table(state)``: a hand at a choice of contracts (the trix /
  tricks contract choice), for a game that declares its table (its
  ``exact.py``, ``registry.register_table``): every contract still to
  choose, the value of the deal for each asked seat (default: the chooser)
  when played from trick 1.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..cards import mask_of
from ..errors import PositionError, UnsupportedPositionError
from ..front import N_
from ..said import Quote, phrase
from . import defaults
from . import trick as dd
from .adapters.registry import known_tables, table_for

# the errors raised here (solver/errors.py: a code and its parameters)
BRIDGE_HANDS = phrase("bridge_hands", N_("a bridge deal is four hands (N E S W)"))
NO_CONTRACT_TABLE = phrase("no_contract_table", N_("contract_table: {game} has no table of "
                                                   "contracts (known: {known})"))

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
        raise PositionError(BRIDGE_HANDS(), "hands")
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
    """A state at a choice of contracts: ``{contract action string: {seat:
    value}}`` for every contract the chooser may still choose (or those of
    ``contracts``, action strings), each seat of ``seats`` (default: the
    chooser) valued from trick 1 (module docstring), by the table its game
    declares (``solver.dd.adapters.registry.register_table``);
    ``UnsupportedPositionError`` for a game that declares none.
    ``max_nodes`` bounds each trick contract's solve (``SearchAborted``);
    ``solver``: the ``Solver`` session to use (default: a new one)."""
    table = table_for(state.game)
    if table is None:
        raise UnsupportedPositionError(NO_CONTRACT_TABLE(game=Quote(state.game.name),
                                                         known=list(known_tables())))
    solver = defaults.fresh_solver() if solver is None else solver
    out: dict = table(solver, state, seats, max_nodes, contracts)
    return out


__all__ = ["BridgeTable", "bridge_table", "contract_table", "STRAINS"]
