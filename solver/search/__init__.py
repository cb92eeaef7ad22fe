"""Searching positions with hidden cards: the layer above exact solving.

* :mod:`solver.search.service` -- ``best_move(position, limit)`` and
  ``evaluate(position, limit)``, ``PlayResult``, ``Evaluation``: the one
  decision path every face calls, and all a caller needs;
* :mod:`solver.search.limits` -- ``Limit``, how much to search, checked once;
* :mod:`solver.search.settings` -- ``SearchSettings``, how to search (trees,
  play-outs, prior, beliefs...), checked once;
* :mod:`solver.search.advice` -- from a search's evidence to the advice and
  its ranking;
* :mod:`solver.search.support` -- what each game provides the searches
  (each game's in the ``search.py`` of its package, which
  ``solver.search.games`` imports for every registered package);
* :mod:`solver.search.ismcts` -- information-set MCTS in Python (any
  decision of any game), and the driver of the Cython kernels;
* :mod:`solver.search.native` -- each game's compact encoding for the
  Cython ISMCTS kernel (``csrc/search/ismcts.pyx``, compiled to
  ``solver.search._ismcts``);
* :mod:`solver.search.pimc` -- perfect-information Monte Carlo: sampled
  worlds, each solved by ``solver.dd`` where it applies;
* :mod:`solver.search.heuristics` -- each game's rule-of-thumb policy, the
  searches' prior and play-out policy.

Worlds are drawn by the game's world sampler (``solver.sampler``); nothing
here knows a front end or a bot (docs/architecture.md).
"""

from . import games  # noqa: F401  (each built-in game registers its support)
from .limits import Limit
from .service import BeliefReport, Evaluation, PlayResult, beliefs, best_move, evaluate
from .settings import SearchSettings

__all__ = ["Limit", "SearchSettings", "PlayResult", "Evaluation", "BeliefReport", "beliefs", "best_move",
           "evaluate"]
