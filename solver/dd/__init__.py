"""Exact solving of perfect-information positions (double dummy).

The layer above the games and below the search (docs/architecture.md):

* :mod:`solver.dd.solve` -- ``solve(position)``: the facade over the
  per-game adapters (:mod:`solver.dd.adapters`: each game's ``exact.py`` in
  its own package, registered by the game's class) that turn a ``State``
  or record into the right solver's input and its answer into a
  :class:`Solution` (every legal action's exact value); this layer names
  no game (tests/test_layers.py);
* :mod:`solver.dd.session` -- :class:`Solver`: a solver that lives across
  calls, its tables kept from one solve to the next (sound by
  construction: every entry is keyed by the rules it was proved under);
  :mod:`solver.dd.tables` -- one-call tables (every bridge strain and
  declarer; every contract of a hand at a choice of contracts, by the
  table its game declares);
* :mod:`solver.dd.trick` -- trick-taking rules as data (``Contract``, each
  game's built by its ``exact.py``), the validated ``TrickPosition`` and
  the generic kernel (``csrc/dd/dd.pyx``, compiled to ``solver.dd._dd``);
* :mod:`solver.dd.dix` -- the dedicated two-seat solver of the
  lexicographic dix objective (``csrc/dd/dixdd.pyx``);
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
    contract_of,
    decode_dix,
    pure_python,
    solve_position,
)

__all__ = ["solve", "solve_within", "Bounded", "KINDS", "Solution", "Solver", "ADAPTERS",
           "principal_line", "BridgeTable", "MaxnResult",
           "bridge_table", "contract_table", "Contract", "TrickPosition", "DDResult",
           "solve_position", "bridge_contract", "contract_of", "decode_dix", "pure_python"]
