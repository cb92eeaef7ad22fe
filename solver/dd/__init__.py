"""Exact solving of perfect-information positions (double dummy).

The layer above the games and below the search (docs/architecture.md):

* :mod:`solver.dd.solve` -- ``solve(position)``: the facade, one adapter per
  game that turns a ``State`` or record into the right solver's input and
  its answer into a :class:`Solution` (every legal action's exact value);
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

from .solve import ADAPTERS, Solution, solve
from .trick import (DDResult, Contract, TrickPosition, bridge_contract, decode_dix, dix_contract,
                    dix_position, penalty_contract, pure_python, rook_contract, solve_position)

__all__ = ["solve", "Solution", "ADAPTERS", "Contract", "TrickPosition", "DDResult",
           "solve_position", "dix_contract", "bridge_contract", "penalty_contract",
           "rook_contract", "dix_position", "decode_dix", "pure_python"]
