"""What the generic searches need from one game, declared by the game.

The searches (ISMCTS, PIMC, ``best_move``, ``evaluate``) name no game: each
game registers a ``GameSupport`` for its ``Game`` class here, from the
``search.py`` of its own package, and the searches ask ``support_for(game)``.
Adding a game is a ``GameSupport`` subclass and one ``register`` line in
that ``search.py``, and nothing in this layer: ``solver/search/games/__init__.py``
(which ``solver/search/__init__.py`` imports) imports the ``search.py`` of
every registered game package, and of a package registered later when it
registers (``solver.games.import_parts``).

A support answers, for worlds (complete ``State``s) of its game:

* ``heuristic``: its rules policy class (``solver.search.heuristics``), the
  play-out policy and tree prior of the Python searches, or None;
* ``native(sampler, policy, keep, equivalence)``: the Cython search of the
  decision at hand (``solver.search.native``), or None;
* ``exact_values(world, seat, solution)``: the double-dummy solver's values
  turned into the deal result the game scores (``round_returns`` units),
  so that exact values and searched values are one currency;
* ``card_rules(state)``: what makes two of the seat's cards equivalent
  (``solver.search.equivalence``);
* ``root_solve(world)``: whether PIMC values this decision's worlds with
  the solver (some objectives of the solver value every action alike);
* ``probe_cards(game)`` and ``cards_in_play(world)``: above how many cards in
  play PIMC does not try the solver at its default node bound (the worlds
  are too big for it);
* ``leaf_cards`` and ``hand_left(world)``: where a play-out hands over to
  an exact solve of the last tricks;
* ``native_playouts(world, seat, policy, leaf_nodes)``: PIMC's play-outs of
  a decision's worlds in C, or None (the Python play-outs);
* ``baseline_key(game)`` and ``is_contract_choice(state)``: a decision
  judged over a whole set of deals (the trix kingdom, the tricks dealer's
  set: ``solver.search.contract_choice``);
* ``opponent_model(game)``: the game's opponent model
  (``solver.beliefs.OpponentModel``, in its package's ``model.py``) with
  its fitted parameters, which the beliefs weigh the worlds with; and
  ``inference``: whether the searches weigh them by default (on where it
  measured stronger: docs/search.md, "Beliefs"); ``prior``: the ISMCTS
  tree prior by default (``rules``, or ``learned`` where it measured
  stronger: docs/search.md, "Learned play").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..game import Game, State

if TYPE_CHECKING:
    from ..beliefs import OpponentModel
    from .heuristics.policy import Policy


class GameSupport:
    """The defaults: no heuristic, no native search, exact values as the
    solver gives them, no leaf solve, no contract choice."""

    #: the rules policy class (a ``solver.search.heuristics.Policy``), or None
    heuristic: type[Policy] | None = None
    #: whether the searches weigh the worlds by the beliefs unless told
    #: otherwise (``best_move(..., inference=None)``)
    inference = False
    #: the ISMCTS tree prior unless told otherwise (``best_move(...,
    #: prior=None)``, through ``default_prior``): ``rules``, or ``learned``
    #: where the learned policy measured stronger at equal time
    #: (docs/search.md, "Learned play")
    prior = "rules"
    #: cards left in the hand of the seat to move at which a PIMC play-out
    #: hands over to the solver (0: never)
    leaf_cards = 0

    #: the ISMCTS play-outs' end unless told otherwise (``best_move(...,
    #: leaf=None)``, through ``default_leaf``): ``playout`` (to the deal's
    #: end), or ``value`` (the learned value after a few tricks,
    #: solver/search/value.py) where it measured stronger at equal time
    leaf = "playout"
    #: the Python twin of the kernel's leaf-value features, ``(state, seat)
    #: -> (phase, features, partial) or None`` (solver/search/value.py), for a
    #: game whose kernel has a leaf value
    value_twin: Callable[..., Any] | None = None
    #: the kernel's search kind that computes those features (``Search.kind``),
    #: None without a leaf value, and the features' names in its order
    value_kind: str | None = None
    value_features: tuple[str, ...] = ()

    def default_leaf(self, game: Game) -> str:
        """The ISMCTS leaf of ``game`` unless told otherwise."""
        return self.leaf

    def default_prior(self, game: Game) -> str:
        """The ISMCTS tree prior of ``game`` unless told otherwise (its
        options may choose: a variant measured apart)."""
        return self.prior

    def native(self, sampler, policy: str, keep: int, equivalence: bool):
        """The prepared Cython search for the view behind ``sampler``, or None."""
        return None

    def cheat_settings(self, game: Game) -> dict[str, str]:
        """The settings of the game's all-seeing player (the ``cheat`` bot)
        where they differ from the bot's own defaults: the strongest
        measured, so that it bounds the fair players from above."""
        return {}

    def kind_tried(self, world: State, kind: str) -> bool:
        """Whether ``solver.dd.solve(world, kind=kind)`` may give that kind
        of value, or ``minimax`` (the seats in two sides); the service's
        ``strict_kind`` skips a solve that could only give another.  By
        default it may."""
        return True

    def native_seen(self, state: State, policy: str, keep: int, equivalence: bool):
        """The prepared Cython search of a player who sees every card of
        ``state`` (each of its worlds is ``state``), or None: the service
        then searches that player in Python."""
        return None

    def exact_values(self, world: State, seat: int, solution) -> dict:
        """``{action: value}`` of a ``solver.dd.Solution`` of ``world`` for
        ``seat``, in ``round_returns`` units."""
        return {world.string_to_action(a): float(v) for a, v in solution.action_values.items()}

    def exact_value(self, world: State, seat: int, solution) -> float:
        """The position's own value (``solution.value``) in ``round_returns`` units."""
        return float(solution.value)

    def exact_bracket(self, world: State, seat: int, lo: float, hi: float
                      ) -> tuple[float, float]:
        """A proved bracket ``[lo, hi]`` of the solver's value for ``seat``
        (``solver.dd.Bounded.brackets``, or the game's range ``span``) in
        ``round_returns`` units, as ``exact_values`` turns a finished
        value: every value the solver's bracket allows lands in it.  By
        default the solver's value is the deal's result."""
        return float(lo), float(hi)

    def card_rules(self, state: State):
        """What ``solver.search.equivalence`` needs to group the seat's cards
        into equivalent ones: ``(deck mask, rank table, cards out of play,
        attribute(card), hand of the seat to move)``, or None outside card
        play (every action its own class)."""
        return None

    def root_solve(self, world: State) -> bool:
        """Whether PIMC values this decision's worlds with the solver."""
        return True

    def probe_cards(self, game: Game) -> int | None:
        """The most cards in play (``cards_in_play``) at which PIMC tries its
        root solve under its default node bound; above it the solve would
        seldom finish, so the decision's time goes to play-outs at once.
        None: always try."""
        return None

    def cards_in_play(self, world: State) -> int | None:
        """Cards in every hand and on the table, or None outside card play."""
        return None

    def hand_left(self, world: State) -> int | None:
        """Cards left in the hand of the seat to move when ``world`` is at the
        start of a trick the solver takes, else None."""
        return None

    def native_playouts(self, world: State, seat: int, policy: str, leaf_nodes: int,
                        solver=None):
        """An object whose ``values(world, legal)`` is PIMC's play-out value
        of each action (``solver.search.pimc._rollout_values`` without a
        deadline: the same play-outs and leaf solves, in C) for every world
        of the decision ``world`` is one of, or None; ``solver``: the
        decision's ``solver.dd.Solver`` for the leaf solves."""
        return None

    def baseline_key(self, game: Game) -> str | None:
        """The key of ``game``'s contract baselines (``data/contract_baselines.json``),
        or None for a game without a contract choice."""
        return None

    def is_contract_choice(self, state: State) -> bool:
        """Whether the decision at hand is a contract choice judged over the
        whole set of deals."""
        return False

    def opponent_model(self, game: Game) -> OpponentModel | None:
        """The game's opponent model for ``game`` (its options may choose
        the parameters), or None: no beliefs beyond the hard facts."""
        return None


_SUPPORT: dict[type, GameSupport] = {}
_DEFAULT = GameSupport()


def register(game_class: type, support: GameSupport) -> None:
    """Declare ``support`` for ``game_class`` and its subclasses."""
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise TypeError(f"register: expected a Game class, got {game_class!r}")
    _SUPPORT[game_class] = support


def support_for(game: Game) -> GameSupport:
    """The support registered for ``game``'s class (or the nearest base
    class); the defaults for a game that registered none."""
    if not isinstance(game, Game):
        raise TypeError(f"support_for: expected a Game, got {type(game).__name__}")
    for cls in type(game).__mro__:
        hit = _SUPPORT.get(cls)
        if hit is not None:
            return hit
    return _DEFAULT


__all__ = ["GameSupport", "register", "support_for"]
