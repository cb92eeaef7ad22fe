"""Every game as an OpenSpiel Python game (extra ``openspiel``).

>>> import pyspiel
>>> import solver.interop.openspiel            # registers dixtrix_dix, dixtrix_trix, ...
>>> game = pyspiel.load_game("dixtrix_dix(variant=seventeen)")

Each registered game ``dixtrix_<name>`` (``-`` becomes ``_``) takes the
game's options as parameters (same names, same defaults) plus ``horizon``:
the deals an episode lasts (default 1; ``common.py``).  What OpenSpiel sees:

* chance: every uniform integer the game's deal draws is a chance node with
  equally likely outcomes (``chance.py``): a 52-card deal is 51 chance
  nodes; dix adds one for the first dealer.
* returns: at the end of the episode, the sum of its deals' results
  (``round_returns``) in the game's points; zero-sum for dix and
  dixie-rook, general-sum for the others.
* information state string: canonical JSON of the seat view (exact, perfect
  recall); observation string: what the seat knows now; tensors: see
  ``common.Encoder``.
* ``resample_from_infostate``: a world drawn by the game's exact uniform
  sampler (``game.world_sampler(view)``).  OpenSpiel's Python ISMCTS should
  get :func:`resampler` (``bot.set_resampler(resampler(seed))``): its
  default passes a new ``UniformProbabilitySampler`` each call, whose fixed
  seed would give the same world every time.
* serialization: pyspiel's (history and pickled ``__dict__``) and pickle;
  a state pickles as its game record (``solver.to_json``) and the pending
  chance outcomes.

Never hand these games to the C++ ``pyspiel.ISMCTSBot`` (or, with
open_spiel 2.0.2, the C++ ``pyspiel.MCTSBot``): they crash the process
(segfault) on Python-defined games, OpenSpiel's own included.  The Python
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` and ``mcts.MCTSBot`` work.
"""

from __future__ import annotations

import random
from collections import OrderedDict

import numpy as np

from ..errors import install_hint

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(f"solver.interop.openspiel needs OpenSpiel: "
                      f"{install_hint('openspiel')} (the open_spiel package)") from exc

from .. import position
from ..errors import DixtrixError, IllegalActionError, OptionError
from ..game import (
    ACTION_IS_INT,
    OBSERVER_KIND,
    OBSERVER_PARAMS,
    RESAMPLE_CHANCE,
    RESAMPLE_END,
    RESAMPLE_SEAT,
    Game,
    canonical_json,
    game_class,
    load_game,
    when_registered,
)
from ..said import Quote
from .chance import ExplicitChanceState, with_script_chance
from .common import (
    Encoder,
    adapted_games,
    check_horizon,
    info_string,
    observation_string,
    spec_of,
    trimmed_view,
)


class SpielIllegalActionError(IllegalActionError, pyspiel.SpielError):
    """An action not legal here, applied through the adapter: both our
    ``IllegalActionError`` and OpenSpiel's ``SpielError``."""


class ResampleError(DixtrixError, pyspiel.SpielError):
    """``resample_from_infostate`` where there is nothing to resample (a
    chance node, the end of the episode)."""


def short_name(name: str) -> str:
    """The OpenSpiel name of a game: ``dix-exchange`` -> ``dixtrix_dix_exchange``."""
    return "dixtrix_" + name.replace("-", "_")


def _game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    spec = cls.interop
    assert spec is not None, name           # adapted_games() lists only those with one
    params = {k: o.default for k, o in cls.options_spec.items()}
    params["horizon"] = 1
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"dixtrix {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.zero_sum_deals
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


#: the game type of every game registered with pyspiel (``register``)
GAME_TYPES: dict[str, pyspiel.GameType] = {}


class DixtrixGame(pyspiel.Game):
    """One of our games with its options and a horizon, for OpenSpiel."""

    #: the game (set by each registered subclass, ``GAME_CLASSES``)
    NAME: str = ""

    def __init__(self, params=None):
        name = self.NAME
        params = dict(params or {})
        gtype = GAME_TYPES[name]
        full = dict(gtype.parameter_specification)
        full.update(params)
        horizon = check_horizon(full.pop("horizon"))
        self.dx_game: Game = load_game(name, **full)
        self.horizon = horizon
        self.encoder = Encoder(self.dx_game, horizon)
        n = self.dx_game.num_players
        bound = horizon * float(self.dx_game.round_scale)
        max_chance = self.dx_game.max_chance_outcomes()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.dx_game.num_distinct_actions,
            max_chance_outcomes=max(max_chance, n),
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0 if spec_of(self.dx_game).zero_sum_deals else None,
            max_game_length=horizon * self.dx_game.max_deal_length)
        super().__init__(gtype, info, params)
        self._initial = ExplicitChanceState(self.dx_game, horizon)
        self._samplers: OrderedDict = OrderedDict()

    def new_initial_state(self):
        return DixtrixState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise OptionError(OBSERVER_PARAMS(game=self.dx_game.name, got=Quote(params)))
        if iig_obs_type is None:
            return _Observer(self, info=False)
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise OptionError(OBSERVER_KIND(game=self.dx_game.name))
        return _Observer(self, info=bool(iig_obs_type.perfect_recall))

    def world_sampler(self, view: dict):
        """The exact sampler of a seat view, kept for the last few views (a
        search resamples the same root many times)."""
        key = canonical_json(view)
        s = self._samplers.get(key)
        if s is None:
            s = self._samplers[key] = self.dx_game.world_sampler(view)
            while len(self._samplers) > 8:
                self._samplers.popitem(last=False)
        else:
            self._samplers.move_to_end(key)
        return s


class _Core:
    """The Python side of a state: copied by ``State.clone`` (deepcopy),
    pickled by pyspiel's serialization as the record and pending chance."""

    __slots__ = ("x",)

    def __init__(self, x: ExplicitChanceState):
        self.x = x

    def __deepcopy__(self, memo):
        return _Core(self.x.copy())

    def __getstate__(self):
        x = self.x
        return {"game": x.game.name, "options": dict(x.game.options), "horizon": x.horizon,
                "record": None if x.state is None else position.to_json(x.state),
                "pending": x.pending, "outcomes": list(x.outcomes), "need": x.need,
                "kind": x.kind, "over": x.over}

    def __setstate__(self, d):
        game = load_game(d["game"], **d["options"])
        x = ExplicitChanceState.__new__(ExplicitChanceState)
        x.game = game
        x.horizon = d["horizon"]
        x.state = None
        if d["record"] is not None:
            x.state = with_script_chance(position.record_from_json(d["record"]).state(),
                                         x.horizon)
        x.pending, x.outcomes, x.need = d["pending"], list(d["outcomes"]), d["need"]
        x.kind, x.over = d["kind"], d["over"]
        x.memo = {}
        self.x = x


class DixtrixState(pyspiel.State):
    """A state of a dixtrix game for OpenSpiel (``chance.ExplicitChanceState``
    inside)."""

    def __init__(self, game: DixtrixGame, core: ExplicitChanceState | None = None):
        super().__init__(game)
        self._core = _Core(core if core is not None else game._initial.copy())

    # ---- the OpenSpiel API ----
    def current_player(self):
        return self._core.x.current_player()

    def _legal_actions(self, player):
        return self._core.x.legal_actions()

    def chance_outcomes(self):
        return self._core.x.chance_outcomes()

    def _apply_action(self, action):
        x = self._core.x
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise SpielIllegalActionError(action, ACTION_IS_INT()) from None
        try:
            if x.is_chance():
                x.apply_chance(a)
            else:
                x.apply_action(a)
        except IllegalActionError as exc:
            raise SpielIllegalActionError(exc.action, exc.reason) from None

    def _action_to_string(self, player, action):
        x = self._core.x
        a = int(action)
        if player == pyspiel.PlayerId.CHANCE:
            if x.is_chance() and 0 <= a < x.need:
                return f"{x.kind}: {a} of 0..{x.need - 1}"
            return f"chance outcome {a}"
        st = x.state
        if st is None:
            return f"action {a}"
        try:
            return st.action_to_string(a)
        except Exception:  # an id no state of this game names
            return f"action {a}"

    def is_terminal(self):
        x = self._core.x
        return x.pending is None and x.over

    def returns(self):
        return self._core.x.returns()

    def __str__(self):
        x = self._core.x
        if x.pending is not None:
            head = (f"chance ({x.kind}), outcomes so far {x.outcomes}, next of {x.need}"
                    + ("" if x.pending < 0 else f", for action {x.pending}"))
            return head if x.state is None else head + "\n" + x.state.to_text()
        return x.at_rest().to_text()

    # ---- sampling worlds ----
    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn uniformly among those ``player_id``'s information
        state allows (our exact sampler); ``probability_sampler()`` (floats
        in [0, 1)) seeds the draw."""
        seed = int(probability_sampler() * (1 << 30)) << 30 | int(probability_sampler() * (1 << 30))
        return self.resample_with(int(player_id), random.Random(seed))

    def resample_with(self, seat: int, rng: random.Random) -> DixtrixState:
        """As ``resample_from_infostate``, drawing with ``rng``."""
        x = self._core.x
        game: DixtrixGame = self.get_game()
        if x.is_chance() or x.over:
            raise ResampleError(RESAMPLE_CHANCE() if x.is_chance() else RESAMPLE_END())
        if isinstance(seat, bool) or not 0 <= seat < game.dx_game.num_players:
            raise ResampleError(RESAMPLE_SEAT(seat=Quote(seat), game=game.dx_game.name))
        view = trimmed_view(x.at_rest(), seat, x.horizon)
        world = game.world_sampler(view).sample(rng)
        return DixtrixState(game, ExplicitChanceState.wrap(world, x.horizon))

    @property
    def dx_state(self):
        """The protocol state inside (``None`` before the first deal; at a
        chance node the state before the pending action).  Read only."""
        return self._core.x.state


def resampler(seed: int = 0):
    """A resampler for ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
    (``bot.set_resampler(resampler(seed))``): each call draws a world of the
    acting seat's view with one seeded generator."""
    rng = random.Random(seed)

    def resample(state: DixtrixState, player: int) -> DixtrixState:
        return state.resample_with(player, rng)
    return resample


class _Observer:
    """OpenSpiel's Python observer interface (``tensor``, ``dict``,
    ``set_from``, ``string_from``) over ``common.Encoder``."""

    def __init__(self, game: DixtrixGame, info: bool):
        self.game = game
        self.info = info
        enc = game.encoder
        pieces = enc.pieces(info)
        self.tensor = np.zeros(enc.size(info), np.float32)
        self.dict = {}
        i = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def set_from(self, state: DixtrixState, player: int) -> None:
        self.tensor.fill(0)
        x = state._core.x
        st = x.state
        to_move = None if st is None or x.is_chance() or x.over else st.current_player()
        self.game.encoder.fill(self.dict, st, player, self.info, to_move=to_move)

    def string_from(self, state: DixtrixState, player: int) -> str:
        x = state._core.x
        key = (self.info, player)
        text = x.memo.get(key)
        if text is None:
            text = x.memo[key] = self._string(x, player)
        return text

    def _string(self, x: ExplicitChanceState, player: int) -> str:
        st = x.state
        if x.is_chance():
            # the state before the pending draw, what the seat knows of the
            # action that called for it, and how far the draw has gone
            head = {"chance": x.kind, "drawn": len(x.outcomes), "seat": player}
            if st is not None:
                head["before"] = (info_string(st, player, x.horizon) if self.info
                                  else observation_string(st, player, x.horizon))
                if x.pending is not None and x.pending >= 0:
                    actor = st.current_player()
                    head["by"] = actor
                    if actor == player:
                        head["action"] = st.action_to_string(x.pending)
            return canonical_json(head)
        if self.info:
            return info_string(x.at_rest(), player, x.horizon)
        return observation_string(x.at_rest(), player, x.horizon)


#: one subclass per game, the creator pyspiel calls.  (A class, not a
#: closure: pyspiel keeps its creators until after the interpreter has shut
#: down, and freeing a closure then aborts the process; a class lives in a
#: reference cycle and is never freed that late.)
GAME_CLASSES: dict[str, type[DixtrixGame]] = {}


def _creator(name: str) -> type[DixtrixGame]:
    cls = type(f"DixtrixGame_{name.replace('-', '_')}", (DixtrixGame,),
               {"NAME": name, "__module__": __name__})
    globals()[cls.__name__] = cls       # pickle finds it
    return cls


def register() -> list[str]:
    """Register every game the adapters serve with pyspiel, and the short
    names of those registered now (done on import, and for a game
    registered later when it registers: ``solver.game.when_registered``;
    idempotent)."""
    names = set(pyspiel.registered_names())
    served = adapted_games()
    for name in served:
        if name not in GAME_TYPES:
            GAME_TYPES[name] = _game_type(name)
            GAME_CLASSES[name] = _creator(name)
        if GAME_TYPES[name].short_name not in names:
            pyspiel.register_game(GAME_TYPES[name], GAME_CLASSES[name])
    return sorted(GAME_TYPES[name].short_name for name in served)


when_registered(lambda cls: register() if cls.interop is not None else None)
