"""The search bots: settings over the decision service (``solver.search.best_move``).

* ``ismcts`` -- information-set MCTS (the Cython kernels where the game
  provides one for the decision, else the Python search with the rules
  heuristic as prior and play-out policy);
* ``pimc`` -- perfect-information Monte Carlo;
* ``cheat`` -- the service's omniscient mode: it sees every card.  The
  upper bound of the strength tables, never a fair player (``fair = False``).

A bot decides exactly as ``best_move`` advises: one legal action is
played, a view that determines the deal is solved exactly, anything else is
searched; so the bot with seed ``s`` plays what ``best_move(view, limit,
seed=s, settings=bot.settings)`` advises (the bot's ``SearchSettings``,
built once from its settings string; a bot without a seed draws a new
search seed for each decision from its own generator).  Each fair bot
gives the service only ``state.information_state(seat)``, so hidden cards
cannot reach its decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import fields
from typing import Any

from solver.beliefs import DEFAULT_POOL
from solver.dd.solve import ASKED_KINDS
from solver.errors import LimitError, OptionError
from solver.front import N_
from solver.game import Game, State
from solver.said import Quote, phrase
from solver.search import Limit, PlayResult, SearchSettings, best_move
from solver.search.heuristics.policy import POLICIES
from solver.search.learned import PRIORS, check_model
from solver.search.limits import MAX_COUNT
from solver.search.native import ISMCTS_POLICIES
from solver.search.settings import DEFAULT_C, DEFAULT_TREES, MAX_POOL, check_for_bot
from solver.search.support import support_for
from solver.search.value import check_leaf

from .base import LIMIT_SETTINGS, NODES, Bot, Setting

# the errors raised here (solver/errors.py: a code and its parameters)
#: a refused setting's error named by the bot (``error``: its own phrase)
BOT_NAMED = phrase("bot_named", N_("{bot}: {error}"))
#: a refused setting's name before its error, inside ``BOT_NAMED``
SETTING_NAMED = phrase("bot_setting_named", N_("{setting}: {error}"))
SWITCH = phrase("bot_switch", N_("{bot}: {name} must be 'on' or 'off', got {got}"))
SEARCH_KIND = phrase("bot_search", N_("{bot}: search must be 'pimc' or 'ismcts', got {got}"))
ISMCTS_WORLDS = phrase("bot_ismcts_worlds", N_("{bot}: search=ismcts counts iterations or time, "
                                               "not worlds"))
PIMC_ITERATIONS = phrase("bot_pimc_iterations", N_("{bot}: search=pimc counts worlds or time, "
                                                   "not iterations (search=ismcts counts "
                                                   "iterations)"))


def _switch(bot: str, name: str, value) -> bool:
    """An ``on``/``off`` setting of the bot ``bot`` as a bool."""
    if value not in ("on", "off"):
        raise OptionError(SWITCH(bot=bot, name=name, got=Quote(value)))
    return value == "on"


def search_settings(policies: tuple[str, ...],
                    leaves: tuple = ("value", "playout", 1, 0)) -> tuple[Setting, ...]:
    """The settings of a search bot whose play-outs are one of ``policies``
    and end as one of ``leaves`` (``SearchBot.__init__``'s keywords, each
    with its type and range)."""
    on_off = ("on", "off")
    return (*LIMIT_SETTINGS, NODES,
            Setting("trees", int, 1, 64, limit=True), Setting("threads", int, 1, 64, limit=True),
            Setting("c", float, 0, 100, limit=True), Setting("policy", policies),
            Setting("prior", PRIORS), Setting("equivalence", on_off), Setting("leaf", leaves),
            Setting("py_iterations", int, 1, MAX_COUNT, limit=True), Setting("exact", on_off),
            Setting("inference", on_off), Setting("pool", int, 1, MAX_POOL, limit=True),
            Setting("model", str))


class SearchBot(Bot):
    """What the search bots share: a ``Limit`` from the settings, the
    service's ``SearchSettings`` (``settings``), and ``last``, the
    service's last ``PlayResult``."""

    bot = "ismcts"
    omniscient = False
    settings_spec = search_settings(ISMCTS_POLICIES)

    def __init__(self, game: Game, seat: int, seed: int | None = None, time=None,
                 iterations=None, worlds=None, nodes=None, trees: int = DEFAULT_TREES,
                 threads: int | None = None, c=DEFAULT_C,
                 policy: str = "rules", prior: str | None = None, equivalence: str = "on",
                 leaf=None, py_iterations=None, exact: str = "on", inference=None,
                 pool: int = DEFAULT_POOL, model=None, **settings):
        super().__init__(game, seat, seed, **settings)
        try:
            self.limit = Limit(time=time, iterations=iterations, worlds=worlds, nodes=nodes)
        except LimitError as exc:
            raise LimitError(BOT_NAMED(bot=self.name, error=exc.as_message())) from None
        # every setting checked now, not at the first decision: the
        # settings object checks itself, then what the bot's search and
        # the game ask of it
        with self._named():
            self.settings = SearchSettings(
                trees=trees, threads=threads, c=c, policy=policy, prior=prior,
                equivalence=_switch(self.name, "equivalence", equivalence),
                # 1 and 0: PIMC's switch before the learned value (1: its
                # exact end, or another search's default end)
                leaf={1: "exact" if self.bot == "pimc" else None, 0: "playout"}.get(leaf, leaf),
                py_iterations=py_iterations,
                exact=_switch(self.name, "exact", exact),
                inference=None if inference is None else
                _switch(self.name, "inference", inference),
                pool=pool, omniscient=self.omniscient,
                # a model file read once, not at every decision
                model=None if model is None else check_model(game, model, "model"))
            check_for_bot(self.settings, self.bot)
            check_leaf(self.settings.leaf, self.bot, self.game)
        self.last: PlayResult | None = None

    @contextmanager
    def _named(self) -> Iterator[None]:
        """A refused setting's error, named by this bot (``pimc: pool must
        be...``), once."""
        try:
            yield
        except (LimitError, OptionError) as exc:
            if str(exc).startswith(f"{self.name}: "):
                raise
            error = exc.as_message()
            if exc.where and exc.said is not None:
                # the setting it came from stays named (``ismcts: model:
                # cannot read ...``): the phrase alone leaves it out
                error = SETTING_NAMED(setting=exc.where, error=error)
            raise type(exc)(BOT_NAMED(bot=self.name, error=error)) from None

    @property
    def options(self) -> dict[str, Any]:
        """The settings as a dict (a copy; ``settings`` is what the bot
        passes to the service)."""
        return {f.name: getattr(self.settings, f.name) for f in fields(self.settings)}

    def search_seed(self) -> int:
        """The seed of this decision's search: the bot's seed, or a fresh
        one from its generator when it has none."""
        return self.seed if self.seed is not None else self.rng.getrandbits(62)

    def advise(self, state: State) -> PlayResult:
        """The service's advice for this bot's seat in ``state``."""
        position = state if self.omniscient else state.information_state(self.seat).view
        return best_move(position, self.limit, bot=self.bot, seed=self.search_seed(),
                         settings=self.settings)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last = None
            return legal[0]
        self.last = self.advise(state)
        return self.last.action_id


class ISMCTSBot(SearchBot):
    """``ismcts:iterations=2000,c=0.7`` or ``ismcts:time=0.5``; ``trees``
    independent trees of the Cython search (default: the decision service's,
    ``DEFAULT_TREES``), grown on ``threads`` threads (default one a tree, at
    most one a core; the play does not depend on it), ``py_iterations``
    for decisions searched in Python, ``policy`` the play-outs (``rules``,
    the default, ``random``, or ``learned``: cards drawn from the game's
    learned policy, ``solver.search.learned``), ``prior`` the tree policy
    (``rules``: PUCT with the rules bot's action favoured where the search
    has it; ``learned``: PUCT with the learned policy's probabilities at
    every card node; ``none``: UCB1 in the Python search; default: the
    game's, ``GameSupport.prior``),
    ``equivalence`` (``on``: one card of each class of equivalent cards is
    searched; ``off`` every card), ``exact`` (``on``: a view that
    determines the deal is solved exactly; ``off``: always searched),
    ``nodes`` (the exact solve's bound), ``inference`` (``on``: the worlds
    weighed by what the other seats chose, ``solver.beliefs``; ``off``:
    uniform among those the hard facts allow; default: the game's) and
    ``pool`` (the worlds weighed).  Default: 1,000 iterations."""

    name = "ismcts"
    bot = "ismcts"
    DEFAULT_ITERATIONS = 1000

    def __init__(self, game: Game, seat: int, seed: int | None = None, iterations=None,
                 time=None, **settings):
        if iterations is None and time is None:
            iterations = self.DEFAULT_ITERATIONS
        super().__init__(game, seat, seed, iterations=iterations, time=time, **settings)


class PIMCBot(SearchBot):
    """``pimc:worlds=40``, ``pimc:time=0.5``; ``nodes`` bounds one world's
    double-dummy solve, ``policy`` plays the rollouts (default ``rules``),
    ``leaf=0`` plays them to the end (default: the last tricks solved),
    ``inference`` and ``pool`` as for ``ismcts``."""

    name = "pimc"
    bot = "pimc"
    settings_spec = search_settings(POLICIES, ("exact", "playout", 1, 0))

    def __init__(self, game: Game, seat: int, seed: int | None = None, worlds=None,
                 time=None, **settings):
        if worlds is None and time is None:
            worlds = 1 if self.omniscient else 40
        super().__init__(game, seat, seed, worlds=worlds, time=time, **settings)


class CheatBot(PIMCBot):
    """Sees every card: the exact value of the true state where the solver
    applies and finishes within ``nodes``, else a search of the true state:
    ``search=pimc`` play-outs from it (``worlds`` of them, default 1),
    ``search=ismcts`` the game's tree search of the one true world
    (``iterations`` or ``time``, default 1,000 iterations; in C where the
    game has it, ``GameSupport.native_seen``).  An upper bound for
    strength tables, not a fair player.  ``kind``: the exact value in the
    games of four individual seats (trix, tricks without partners):
    ``paranoid`` (the seat against the other three as one side) or
    ``maxn`` (every seat for its own score, where that search finishes;
    ``solver.dd.solve``); with ``search=ismcts`` a max^n solve that does
    not finish is searched (``strict_kind``), not answered with the
    paranoid value.  A setting not given is the game's
    (``GameSupport.cheat_settings``: the strongest all-seeing player
    measured), else ``search=pimc``, ``kind=DEFAULT_KIND``."""

    name = "cheat"
    omniscient = True
    fair = False
    # the play-outs of either search (each checks its own), the kind, the search
    settings_spec = (*search_settings(ISMCTS_POLICIES, ("playout", 1, 0)),
                     Setting("kind", tuple(k for k in ASKED_KINDS if k is not None)),
                     Setting("search", ("pimc", "ismcts")))
    #: max^n against paranoid gave no verdict with the play-outs' cheat (trix,
    #: head to head -0.55 +- 1.04 a deal on 50 duplicate pairs); searching, the
    #: max^n cheat beat ismcts where the paranoid one lost to it (docs/search.md,
    #: "The all-seeing player"): games that have a kind declare their cheat's
    DEFAULT_KIND = "paranoid"

    def __init__(self, game: Game, seat: int, seed: int | None = None, kind: str | None = None,
                 search: str | None = None, worlds=None, iterations=None, time=None,
                 **settings):
        own = support_for(game).cheat_settings(game)
        if search is None and worlds is not None:
            search = "pimc"     # worlds count play-outs; iterations a tree search
        elif search is None and iterations is not None:
            search = "ismcts"
        if search is not None and search != own.get("search", "pimc"):
            own = {}            # the game's settings were measured with its search
        if search is None:
            search = own.get("search", "pimc")
        if kind is None:
            kind = own.get("kind", self.DEFAULT_KIND)
        for key, value in own.items():
            if key not in ("search", "kind"):
                settings.setdefault(key, value)
        if search not in ("pimc", "ismcts"):
            raise OptionError(SEARCH_KIND(bot=self.name, got=Quote(search)))
        self.bot = search
        if search == "ismcts":
            if worlds is not None:
                raise OptionError(ISMCTS_WORLDS(bot=self.name))
            if iterations is None and time is None:
                iterations = ISMCTSBot.DEFAULT_ITERATIONS
            SearchBot.__init__(self, game, seat, seed, iterations=iterations, time=time,
                               **settings)
        else:
            if iterations is not None:
                raise OptionError(PIMC_ITERATIONS(bot=self.name))
            super().__init__(game, seat, seed, worlds=worlds, time=time, **settings)
        with self._named():
            # searching, the paranoid value is no fallback for the max^n one:
            # the search of the true world already lets every seat play for
            # itself
            self.settings = self.settings.replace(
                kind=kind, strict_kind=search == "ismcts" and kind == "maxn")
