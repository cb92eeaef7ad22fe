"""How to search: one ``SearchSettings``, checked once, beside ``Limit``.

``Limit`` says how much to search; ``SearchSettings`` says how: the trees
and threads of the Cython searches, the exploration constant, what guides
the play-outs and the tree, how a play-out ends, the exact path, the
beliefs, the kind of an exact value and the model of play (python-chess
keeps its ``engine.Limit`` beside the options an engine is configured
with, in the same way).  ``best_move(position, limit, bot, seed, progress,
stop, settings=...)`` reads it; its old keywords (``trees=2``,
``exact=False``...) are folded into one, so a call that gave them gives the
same answer.  ``bots.searchbots.SearchBot`` builds one from a bot's
settings string.

A setting is checked when the object is made (``OptionError`` /
``LimitError`` naming it), never again inside the search.  What depends on
the search or the game is checked by ``best_move`` once it knows them
(``check_for_bot`` here; the leaf against the game, ``value.check_leaf``;
the model's kinds and features, ``learned.check_model``).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..beliefs import DEFAULT_POOL
from ..dd.solve import check_kind
from ..errors import LimitError, OptionError
from ..front import N_
from ..said import Quote, phrase
from .ismcts import check_prior
from .limits import Limit
from .native import ISMCTS_POLICIES
from .pimc import check_policy
from .value import LEAF, LEAVES

#: independent trees of a Cython ISMCTS search (root parallelism): a fixed
#: number, the same for ``best_move``, every bot and every face, so that a
#: seed gives the same answer on any machine.  The answer depends on the
#: number of trees, never on the threads that grow them (``threads``: one a
#: tree by default, at most one a usable core).  Two: a second tree's
#: intervals are narrower at the same total iterations and still cover
#: (docs/search.md, "Intervals that hold for any number of trees"), and a
#: time limit uses two cores where the machine has them
DEFAULT_TREES = 2
#: the ISMCTS exploration constant (rewards in [-1, 1]; ``solver.search.ismcts``)
DEFAULT_C = 0.7
#: the most worlds a search's beliefs weigh
MAX_POOL = 1 << 16

# the settings' errors (solver/errors.py: a code and its parameters)
THREADS = phrase("threads_range", N_("{name} must be an integer 1..64, got {got}"))
INFERENCE = phrase("inference_value", N_("inference must be true, false or None (the game's "
                                         "default), got {got}"))
POOL = phrase("pool_range", N_("pool must be an integer 1..{most}, got {got}"))
C_RANGE = phrase("c_range", N_("c must be a number in [0, 100], got {got}"))
POLICY = phrase("unknown_policy", N_("unknown policy {policy}: policy must be one of {choices}"))
SWITCH = phrase("switch_value", N_("{name} must be true or false, got {got}"))
NOT_SETTINGS = phrase("settings_type", N_("settings must be a solver.search.SearchSettings, "
                                          "got {got}"))


def check_threads(threads: Any, name: str = "threads") -> int:
    """``threads`` (or ``trees``, by ``name``) is an integer 1..64."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
        raise LimitError(THREADS(name=name, got=Quote(threads)))
    return threads


def check_trees(trees: Any) -> int:
    """``trees`` is an integer 1..64."""
    return check_threads(trees, "trees")


def check_inference(inference: Any, pool: Any) -> None:
    """``inference`` is True, False or None; ``pool`` a number of worlds
    1..``MAX_POOL``."""
    if inference is not None and not isinstance(inference, bool):
        raise OptionError(INFERENCE(got=Quote(inference)))
    if isinstance(pool, bool) or not isinstance(pool, int) or not 1 <= pool <= MAX_POOL:
        raise LimitError(POOL(most=MAX_POOL, got=Quote(pool)))


#: the switches a search takes, True or False
_SWITCHES = ("equivalence", "exact", "omniscient", "strict_kind")


@dataclass(frozen=True)
class SearchSettings:
    """How ``best_move`` searches (its defaults are the service's).

    ``trees``: independent trees of a Cython ISMCTS search (the answer
    depends on them); ``threads``: the threads that grow them (None: one a
    tree, at most one a usable core; never changes the answer); ``c``: the
    ISMCTS exploration constant, in [0, 100]; ``policy``: the play-outs,
    ``rules``, ``random``, ``learned`` (the game's learned policy; ISMCTS
    only) or ``leads`` (the learned policy's leads, the rules' other
    cards; ISMCTS only); ``prior``: the tree prior, ``rules`` (PUCT with the rules bot's
    move favoured), ``learned`` (PUCT with the game's learned policy at
    every card node) or ``none`` (UCB1, in the Python search); None: the
    game's, ``GameSupport.prior``; ``equivalence``: one card of each class
    of equivalent cards is searched; ``leaf``: how a play-out ends, one of
    ``value.LEAVES`` (``value``: ISMCTS reads the game's learned value after
    a few tricks; ``playout``: at the deal's end; ``exact``: PIMC's end in
    an exact solve; True and False: ``exact`` and ``playout``, PIMC's old
    switch; None: PIMC ``exact``, ISMCTS the game's, ``GameSupport.leaf``);
    ``py_iterations``: the iterations of a decision searched in Python, if
    different from the limit's; ``exact``: a view that determines the deal
    is solved (False: always searched, for measurements); ``omniscient``:
    the player sees every card (the position must be a ``State`` or a
    complete record; the ``cheat`` bot, an upper bound for measurements,
    never a fair player); ``inference``: the worlds weighed by the
    likelihood of what the other seats chose under the game's opponent
    model (``solver.beliefs``; None: the game's default) and ``pool``, the
    worlds drawn and weighed; ``kind``: the exact solve's kind of value in a
    game of individual seats, ``paranoid`` or ``maxn`` (``solver.dd.solve``;
    None: the game's); ``strict_kind``: only that kind is taken (or
    ``minimax``, the one exact value where the seats form two sides), a
    solve that gives another is searched instead; ``model``: the parameters
    of the game's model of play that the learned prior and play-outs and
    the beliefs read (a file, its JSON or ``ModelParams``; None: the ones
    the game ships), checked against the game by ``best_move``."""

    trees: int = DEFAULT_TREES
    threads: int | None = None
    c: float = DEFAULT_C
    policy: str = "rules"
    prior: str | None = None
    equivalence: bool = True
    leaf: bool | str | None = None
    py_iterations: int | None = None
    exact: bool = True
    omniscient: bool = False
    inference: bool | None = None
    pool: int = DEFAULT_POOL
    kind: str | None = None
    strict_kind: bool = False
    model: Any = None

    def __post_init__(self) -> None:
        check_trees(self.trees)
        if self.threads is not None:
            check_threads(self.threads)
        c = self.c
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 <= c <= 100:
            raise LimitError(C_RANGE(got=Quote(c)))
        # the ISMCTS play-outs are a superset of PIMC's: ``check_for_bot``
        # refuses ``learned`` for PIMC, where the bot is known
        if not isinstance(self.policy, str) or self.policy not in ISMCTS_POLICIES:
            raise OptionError(POLICY(policy=Quote(self.policy),
                                     choices=", ".join(ISMCTS_POLICIES)))
        if self.prior is not None:
            check_prior(self.prior)
        if self.leaf is not None and not isinstance(self.leaf, bool) and \
                self.leaf not in LEAVES:
            raise OptionError(LEAF(choices=list(LEAVES), got=Quote(self.leaf)))
        if self.py_iterations is not None:
            try:
                Limit(iterations=self.py_iterations)     # the same check as any count
            except LimitError as exc:
                raise LimitError(exc.as_message(), "py_iterations") from None
        for name in _SWITCHES:
            if not isinstance(getattr(self, name), bool):
                raise OptionError(SWITCH(name=name, got=Quote(getattr(self, name))))
        check_inference(self.inference, self.pool)
        check_kind(self.kind)

    def replace(self, **changes: Any) -> SearchSettings:
        """These settings with ``changes`` (checked as a new object is; an
        unknown name is a ``TypeError``, as a wrong keyword is)."""
        return dataclasses.replace(self, **changes)


def check_for_bot(settings: SearchSettings, bot: str) -> None:
    """What ``settings`` must be for the search ``bot`` (the leaf is
    checked with the game, ``value.check_leaf``): PIMC's play-outs are a
    heuristic, never the learned policy."""
    if bot == "pimc":
        check_policy(settings.policy)


def settings_of(settings: Any, legacy: dict[str, Any], where: str = "best_move") -> SearchSettings:
    """``settings`` (None: the defaults) with the keywords of ``legacy``
    folded in (``best_move(..., trees=3)`` as ``settings=SearchSettings(
    trees=3)``); a name that is no setting is a ``TypeError`` naming it, as
    Python's own for a wrong keyword."""
    if settings is None:
        settings = SearchSettings()
    elif not isinstance(settings, SearchSettings):
        raise OptionError(NOT_SETTINGS(got=type(settings).__name__))
    known = {f.name for f in dataclasses.fields(SearchSettings)}
    for name in legacy:
        if name not in known:
            raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")
    return settings.replace(**legacy) if legacy else settings


__all__ = ["SearchSettings", "check_for_bot", "settings_of", "check_threads", "check_trees",
           "check_inference", "DEFAULT_TREES", "DEFAULT_C", "MAX_POOL"]
