"""Exact solving of perfect-information positions (double dummy).

The layer above the games and below the search (docs/architecture.md):

* :mod:`solver.dd.solve` -- ``solve(position)``: the facade over the
  per-game adapters (:mod:`solver.dd.adapters`, one module a game,
  registered by the game's class) that turn a ``State`` or record into the
  right solver's input and its answer into a :class:`Solution` (every
  legal action's exact value);
* :mod:`solver.dd.session` -- :class:`Solver`: a solver that lives across
  calls, its tables kept from one solve to the next (sound by
  construction: every entry is keyed by the rules it was proved under);
  :mod:`solver.dd.tables` -- one-call tables (every bridge strain and
  declarer; every contract of a trix / tricks hand);
* :mod:`solver.dd.trick` -- trick-taking rules as data (``Contract``), the
  validated ``TrickPosition`` and the generic kernel (``csrc/dd/dd.pyx``,
  compiled to ``solver.dd._dd``): bridge, trix/tricks penalty contracts,
  dixie-rook card play;
* :mod:`solver.dd.dix` -- the dedicated two-seat dix solver
  (``csrc/dd/dixdd.pyx``);
* :mod:`solver.dd.layout` -- the trix "Trix" / tricks "Jacks" layout solver
  (``csrc/dd/layoutdd.pyx``);
* :mod:`solver.dd.exact` -- plain alpha-beta over the game protocol (any
  perfect-information game, e.g. a dix-exchange round).

Pure-Python twins of the kernels live in ``solver/reference/``.
"""

from .session import Solver
from .solution import KINDS
from .solve import ADAPTERS, Bounded, Solution, principal_line, solve, solve_within
from .tables import BridgeTable, bridge_table, contract_table
from .trick import (
    Contract,
    DDResult,
    MaxnResult,
    TrickPosition,
    bridge_contract,
    decode_dix,
    dix_contract,
    dix_position,
    penalty_contract,
    pure_python,
    rook_contract,
    solve_position,
)

__all__ = ["solve", "solve_within", "Bounded", "KINDS", "Solution", "Solver", "ADAPTERS",
           "principal_line", "BridgeTable", "MaxnResult",
           "bridge_table", "contract_table", "Contract", "TrickPosition", "DDResult",
           "solve_position", "dix_contract", "bridge_contract", "penalty_contract",
           "rook_contract", "dix_position", "decode_dix", "pure_python"]
