"""The game protocol (after OpenSpiel's ``Game`` / ``State``) and the registry.

A :class:`Game` is immutable: a name, a number of players and validated
options.  ``game.new_initial_state(seed=..., deal=...)`` gives a mutable
:class:`State`.  Algorithms only ever see this protocol.

Chance (deals, draws, cuts) is not exposed as actions: a state draws its
chance outcomes from its :class:`Chance` source, which replays a scripted
``deal`` (from a game record) and otherwise uses a generator seeded by
``seed``.  The same seed and the same actions give the same game, bit for bit.
Every outcome drawn is logged, so ``state.deal_record()`` can write the
complete deal of a seeded game.

Information states are seat views in the position format
(``docs/positions.md``): exactly what a seat knows, with perfect recall,
as a structured object (:class:`InfoState`) and as a stable string.
"""

from __future__ import annotations

import copy
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from .errors import IllegalActionError, NotationError, OptionError, PositionError, ReplayError, short_repr
from .facts import Fact
from .front import N_, Front
from .said import Quote, Said, phrase
from .shapes import Shape

# the protocol's errors and the rules' common reasons (solver/errors.py:
# a code and its parameters, seats counted from 0)
SEED_NOT_INT = phrase("seed_not_integer", N_("{name} must be an integer, got {got}"))
SEED_NEGATIVE = phrase("seed_negative", N_("{name} must be 0 or more (a negative seed is no "
                                           "seed of its own), got {got}"))
SEED_TOO_LARGE = phrase("seed_too_large", N_("{name} must be 0..2**63-1, got {got}"))
UNKNOWN_GAME = phrase("unknown_game", N_("unknown game {game} (known: {known})"))
UNKNOWN_OPTION = phrase("unknown_option", N_("unknown option {option} (known: {known})"))
OPTION_BOOL = phrase("option_bool", N_("option {option} must be true or false, got {got}"))
OPTION_INT = phrase("option_int", N_("option {option} must be an integer, got {got}"))
OPTION_INT_AMONG = phrase("option_int_among", N_("option {option} must be an integer (one of "
                                                 "{choices}), got {got}"))
OPTION_STR = phrase("option_str", N_("option {option} must be a string, got {got}"))
OPTION_STR_AMONG = phrase("option_str_among", N_("option {option} must be a string (one of "
                                                 "{choices}), got {got}"))
OPTION_CHOICE = phrase("option_choice", N_("option {option} must be one of {choices}, "
                                           "got {got}"))
OPTION_MIN = phrase("option_min", N_("option {option} must be >= {least}, got {got}"))
OPTION_MAX = phrase("option_max", N_("option {option} must be <= {most}, got {got}"))
KEY_VALUE = phrase("key_value", N_("expected key=value, got {got}"))
OUTCOME_KIND = phrase("outcome_kind", N_("deal: expected a {kind} outcome next, the record "
                                         "has {got}"))
OUTCOME_NONE = phrase("outcome_none", N_("deal: expected a {kind} outcome next, the record "
                                         "has none"))
NO_MID_MATCH = phrase("no_mid_match", N_("{game}: positions from the middle of a match are "
                                         "not supported"))
NO_VIEWS = phrase("no_views", N_("seat views are not supported"))
UNLISTED_DEAL = phrase("unlisted_deal", N_("this action is played in a deal the record does "
                                           "not list (add it to 'deal', or give a 'seed')"))
ALREADY_OVER = phrase("already_over", N_("{action}: the game is already over"))
NOT_AN_INT = phrase("action_not_int", N_("an action is an int (use apply_action_string for "
                                         "notation)"))
GAME_OVER = phrase("game_over", N_("the game is over"))
NOT_TURN = phrase("not_turn", N_("it is seat {turn}'s turn, not seat {seat}'s"))
NOT_LEGAL = phrase("not_legal", N_("not legal for seat {seat} now"))
#: a card the seat to play does not hold (every game's commonest refusal)
NOT_HELD = phrase("not_held", N_("seat {seat} does not hold {card}"))
#: a card of another suit from a seat that holds the suit led (``suit``: a
#: ``Word``, the suit's name or "trumps")
MUST_FOLLOW = phrase("must_follow", N_("seat {seat} must follow suit ({suit})"))
NOT_AN_ACTION = phrase("not_an_action", N_("{action} is not an action of {game}"))
ACTION_NOT_STRING = phrase("action_not_string", N_("an action is a string, got {got}"))

#: ``current_player()`` of a terminal state (OpenSpiel's kTerminalPlayerId).
TERMINAL = -4
#: the largest seed a person or a program gives (the HTTP API, the engine,
#: a record): a seed is an integer from 0, one rule on every face (a
#: negative seed is refused, never taken for its absolute value as Python's
#: generator would); the server deals an unseeded table from 128 random bits
MAX_SEED = 2**63 - 1


def check_seed(seed: Any, name: str = "seed") -> int:
    """``seed`` is an integer, 0 or more (else ``OptionError`` naming it)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(SEED_NOT_INT(name=name, got=Quote(seed)))
    if seed < 0:
        raise OptionError(SEED_NEGATIVE(name=name, got=Quote(seed)))
    return seed


def wrap_seed(seed: int) -> int:
    """A seed derived from another (a bot's from its deal's, ``seed * k +
    seat``) kept in the range every face takes (``check_given_seed``):
    one near the top wraps round instead of being refused."""
    return seed % (MAX_SEED + 1)


def check_given_seed(seed: Any, name: str = "seed") -> int:
    """A seed a person or a program gives: an integer 0..``MAX_SEED``, the
    one range of every face (the command line's flags, ``make_bot``, the
    HTTP API's schema, the engine's option), else ``OptionError`` naming
    it.  Inside, a seed may be larger (an unseeded table's 128 bits):
    ``check_seed``."""
    value = check_seed(seed, name)
    if value > MAX_SEED:
        raise OptionError(SEED_TOO_LARGE(name=name, got=Quote(value)))
    return value


# --------------------------------------------------------------------------
# options

@dataclass(frozen=True)
class Option:
    """One game option: its default, type, and allowed values or range."""

    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def check(self, game: str, name: str, value: Any) -> Any:
        kind = type(self.default)
        # a wrong type names the choices too: they say what is meant
        said = dict(game=game, option=Quote(name), got=Quote(value))
        choices = None if self.choices is None else ", ".join(map(str, self.choices))
        if kind is bool:
            if not isinstance(value, bool):
                raise OptionError(OPTION_BOOL(**said), game)
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(OPTION_INT(**said) if choices is None else
                                  OPTION_INT_AMONG(choices=choices, **said), game)
        elif kind is str:
            if not isinstance(value, str):
                raise OptionError(OPTION_STR(**said) if choices is None else
                                  OPTION_STR_AMONG(choices=choices, **said), game)
        if self.choices is not None and value not in self.choices:
            raise OptionError(OPTION_CHOICE(choices=str(list(self.choices)), **said), game)
        if self.min is not None and value < self.min:
            raise OptionError(OPTION_MIN(least=self.min, **said), game)
        if self.max is not None and value > self.max:
            raise OptionError(OPTION_MAX(most=self.max, **said), game)
        return value

    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the values ``check`` takes (a position's and a
        table's ``options``, the HTTP API's document): its type, its choices
        or its range."""
        kind = type(self.default)
        if self.choices is not None:
            return {"enum": list(self.choices)}
        if kind is bool:
            return {"type": "boolean"}
        if kind is int:
            out: dict[str, Any] = {"type": "integer"}
            if self.min is not None:
                out["minimum"] = self.min
            if self.max is not None:
                out["maximum"] = self.max
            return out
        if kind is str:
            return {"type": "string"}
        raise TypeError(f"an option of type {kind.__name__} states its own schema "
                        f"(override Option.json_schema)")

    def from_text(self, text: str) -> Any:
        """A value typed as text (``--option target=10``) in this option's
        type: ``true``/``false`` for a flag, a number for an integer, the
        text itself for a string (so ``variant=17`` is the string '17',
        which ``check`` then refuses with the choices).  Text that is not
        of the type is returned as it is, for ``check`` to refuse."""
        kind = type(self.default)
        if kind is bool and text.strip().lower() in ("true", "false"):
            return text.strip().lower() == "true"
        if kind is int:
            try:
                return int(text)
            except ValueError:
                return text
        return text

    def parse(self, game: str, name: str, text: str) -> Any:
        """The value ``text`` stands for (``--option target=10``, the
        ladder's ``dix:target=10``), in this option's type and checked:
        ``OptionError`` names the game and the option."""
        return self.check(game, name, self.from_text(text))


# --------------------------------------------------------------------------
# chance

class Chance:
    """The chance source of a state.

    ``draw(kind, generate)`` returns the next outcome: the next scripted one
    if the record's deal still has one (``kind`` must match), else
    ``generate(rng)`` with the state's seeded generator.  Outcomes are
    JSON-able values chosen by the game; every one is logged as
    ``(kind, value)``.

    Streams: ``rng`` is the main stream; ``stream(name)`` gives an
    independent generator derived from the seed and ``name`` (used e.g. for
    dixie-rook's tie cut, so that the main stream is untouched).
    """

    def __init__(self, seed: int | None = None, scripted: list[Any] | None = None):
        self.seed = 0 if seed is None else seed
        self.rng = random.Random(self.seed)
        self._streams: dict[str, random.Random] = {}
        self.scripted = list(scripted or [])
        self.pos = 0
        self.log: list[tuple[str, Any]] = []

    def stream(self, name: str) -> random.Random:
        if name not in self._streams:
            self._streams[name] = random.Random(f"{self.seed}/{name}")
        return self._streams[name]

    def draw(self, kind: str, generate: Callable[[random.Random], Any] | None) -> Any:
        """The next outcome of ``kind``: the record's, else ``generate``'s
        (None: only a record's outcome may be drawn, as a ``match``)."""
        if self.pos < len(self.scripted):
            got_kind, value = self.scripted[self.pos]
            if got_kind != kind:
                raise NotationError(OUTCOME_KIND(kind=Quote(kind), got=Quote(got_kind)))
            self.pos += 1
        elif generate is None:
            raise NotationError(OUTCOME_NONE(kind=Quote(kind)))
        else:
            value = generate(self.rng)
        self.log.append((kind, value))
        return value

    def draw_match(self) -> dict[str, Any] | None:
        """The ``match`` object of a mid-match position (drawn, so logged
        first), or None when the scripted outcomes do not start with one:
        the state starts at the beginning of the match."""
        if self.scripted and self.scripted[0][0] == "match":
            match: dict[str, Any] = self.draw("match", None)
            return match
        return None

    def rewrite(self, index: int, value: Any) -> None:
        """Replace the value of the outcome logged at ``index``, keeping its
        kind: a world sampler that re-deals the hidden cards of a cloned
        state writes the new deal into the log, so that the state's record
        and views say the deal it plays."""
        kind, _ = self.log[index]
        self.log[index] = (kind, value)

    def restart_stream(self, name: str, generator: random.Random) -> None:
        """Make ``generator`` the stream ``name`` from now on: a world
        sampler gives each world it clones a fresh draw of a stream that
        the view does not fix (dixie-rook's tie cut)."""
        self._streams[name] = generator

    def clone(self) -> Chance:
        c = Chance.__new__(Chance)
        c.seed = self.seed
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c._streams = {}
        for k, r in self._streams.items():
            rr = random.Random()
            rr.setstate(r.getstate())
            c._streams[k] = rr
        c.scripted = self.scripted  # never mutated
        c.pos = self.pos
        c.log = list(self.log)
        return c


# --------------------------------------------------------------------------
# information states

@dataclass
class InfoState:
    """What one seat knows, with perfect recall.

    ``view`` is the seat view in the position format (a JSON-able dict:
    game, options, seat, the deal with unseen parts left out, the actions
    with unseen ones as ``"?"``).  ``known`` holds facts the seat can
    derive now, for convenience (its current hand, and e.g. in dix from
    trick 14 on the opponent's whole hand); they follow from ``view``.
    ``str(info)`` is the stable string: canonical JSON of ``view``.
    """

    seat: int
    view: dict[str, Any]
    known: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(self.view)

    def __str__(self) -> str:
        return canonical_json(self.view)


def canonical_json(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------
# the interop adapters' errors (solver/interop/: a code and its
# parameters), declared here beside what the adapters read, so that the list
# of codes (docs/errors.md) holds them whether or not a framework is installed
NO_INTEROP = phrase("no_interop", N_("{game} has no interop adapter (known: {known})"))
HORIZON_RANGE = phrase("horizon_range", N_("option 'horizon' must be an integer 1..{top} (deals "
                                           "per episode), got {got}"))
NOT_CARD_VALUE = phrase("not_card_value", N_("{game}: {token} is not a card value ({values})"))
NOT_DECK_CARD = phrase("not_deck_card", N_("{game}: {token} is not a card of the {deck} deck"))
CHANCE_FIRST = phrase("chance_first", N_("chance acts first ({kind})"))
OBSERVER_PARAMS = phrase("observer_params", N_("{game}: observation parameters are not "
                                               "supported, got {got}"))
OBSERVER_KIND = phrase("observer_kind", N_("{game}: only the seat's own view is observable "
                                           "(private info SINGLE_PLAYER, public info on)"))
RESAMPLE_CHANCE = phrase("resample_chance", N_("resample_from_infostate needs a decision node "
                                               "(this is a chance node)"))
RESAMPLE_END = phrase("resample_end", N_("resample_from_infostate needs a decision node (this is "
                                         "the end of the episode)"))
RESAMPLE_SEAT = phrase("resample_seat", N_("no seat {seat} in {game}"))
ENV_OPTIONS = phrase("env_options", N_("give the options to load_game, or the game's name and "
                                       "its options"))
RENDER_MODE = phrase("render_mode", N_("render_mode must be one of {choices} or None, got {got}"))
# ... and the reasons they refuse an action for
AGENT_ACTION_RANGE = phrase("agent_action_range", N_("{agent}: an action is an int 0..{top}"))
AGENT_ACTION_INT = phrase("agent_action_int", N_("{agent}: an action is an int"))
ACTION_IS_INT = phrase("action_is_int", N_("an action is an int"))
NOT_CHANCE_NODE = phrase("not_chance_node", N_("this is not a chance node"))
CHANCE_OUTCOME = phrase("chance_outcome", N_("a chance outcome here is 0..{top} ({kind})"))
CHANCE_NOW = phrase("chance_now", N_("chance acts now ({kind})"))
EPISODE_OVER = phrase("episode_over", N_("the episode is over"))


# what the frameworks' adapters read of a game

@dataclass(frozen=True)
class InteropSpec:
    """What the OpenSpiel and PettingZoo adapters (``solver/interop``) need
    to know of a game beyond the protocol, declared by the game
    (``Game.interop``): the action space and the length of a deal are the
    protocol's own (``Game.num_distinct_actions``, ``Game.max_deal_length``).

    ``deal_kind``: the chance kind that starts a deal (None: deals start
    without one); ``deal_key``: the key of the deal object's list of deals
    (one entry a deal); ``deck``: the ``solver.cards.Deck`` whose card
    tokens the hand and seen-cards planes encode, or None for a game whose
    cards are values, listed in ``values`` (a plane place each);
    ``min_players`` / ``max_players``: the seats its options allow;
    ``max_chance_outcomes``: the most outcomes of one chance node (a deck
    shuffled card by card: its size; ``Game.max_chance_outcomes`` may
    read the options instead); ``zero_sum_deals``: every deal's
    ``round_returns`` sums to zero."""

    deal_kind: str | None
    deal_key: str
    deck: Any
    min_players: int
    max_players: int
    max_chance_outcomes: int = 0
    zero_sum_deals: bool = False
    values: tuple[str, ...] = ()


# --------------------------------------------------------------------------
# the protocol

class Game(ABC):
    """An immutable game: ``name``, ``num_players`` and validated options.

    Subclasses set ``name``, ``options_spec`` and ``state_class`` and may
    override ``num_players``; everything game-specific lives in the
    subclass and its state."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    #: whether ``returns()`` always sums to zero (checked by the conformance suite)
    zero_sum: ClassVar[bool] = False
    #: option dicts the conformance suite plays this game with
    conformance_configs: ClassVar[tuple[Any, ...]] = ({},)
    #: a bound on ``abs(state.round_returns()[seat])``, to scale search rewards
    round_scale: ClassVar[float] = 1.0
    #: what ``round_returns`` measures, in a player's words (hints name it)
    round_unit: ClassVar[str] = "points this deal"
    #: the facts a seat is given (``InfoState.known``) beyond the widget
    #: facts every face draws, each with its kind and meaning
    #: (solver/facts.py; docs/facts.md lists every game's)
    facts: ClassVar[Mapping[str, Fact]] = {}
    #: the keys a position's ``deal`` object must have (docs/positions.md),
    #: by the kind of position: ``record`` / ``view`` from the match's first
    #: deal, ``mid_record`` / ``mid_view`` with a ``match`` object (a kind
    #: not listed needs none); ``parse_deal`` and the reading of a view
    #: refuse a deal without them, and the HTTP API's schema states them
    deal_required: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the shape of each key a ``deal`` object may have (any other is
    #: refused: ``solver/shapes.py``), and those a mid-match deal leaves out
    #: (they are in its ``match`` object); the JSON Schema of the game's
    #: positions (``solver.position.position_schema``) is made from them
    deal_fields: ClassVar[dict[str, Shape]] = {}
    deal_before_match: ClassVar[tuple[str, ...]] = ()
    #: actions the bots play before ``dixtrix hint GAME --seed N`` advises
    demo_hint_after: ClassVar[int] = 0
    #: the game's notation in a few sentences (cards, every kind of action
    #: and the aliases a person may type): ``dixtrix hint --legend`` and
    #: ``help`` at the terminal show it
    notation: ClassVar[str] = ""
    #: whether a seat view's per-side facts (tricks won, count, totals) are
    #: listed per team, the team of seat 0 first, rather than per seat
    scores_by_team: ClassVar[bool] = False
    options_spec: ClassVar[dict[str, Option]] = {}
    state_class: ClassVar[type[State]]
    #: what the front ends need of the game (its words, cards, board and
    #: deal summaries: ``solver/front.py``); the default suits any game
    front_class: ClassVar[type[Front]] = Front
    #: what the frameworks' adapters need (``InteropSpec``); None: the game
    #: is not exported to OpenSpiel and PettingZoo
    interop: ClassVar[InteropSpec | None] = None

    def __init__(self, **options: Any):
        unknown = sorted(set(options) - set(self.options_spec))
        if unknown:
            known = ", ".join(sorted(self.options_spec)) or "none"
            raise OptionError(UNKNOWN_OPTION(game=self.name, option=Quote(unknown[0]),
                                             known=known), self.name)
        values = {}
        for key, spec in self.options_spec.items():
            values[key] = spec.check(self.name, key, options.get(key, spec.default))
        self._options = MappingProxyType(values)
        self.check_options()

    def check_options(self) -> None:  # noqa: B027  a hook, not abstract: most games have no cross-option rule
        """Cross-option validation; raise ``OptionError``."""

    @property
    def options(self) -> MappingProxyType[str, Any]:
        return self._options

    @property
    def front(self) -> Front:
        """The game as the front ends show it (``front_class``)."""
        return self.front_class(self)

    @property
    @abstractmethod
    def num_players(self) -> int: ...

    @property
    def partnership(self) -> bool:
        """Whether the seats play as two teams, even seats against odd
        seats, each team scoring as one (trix ``partners``, dixie-rook)."""
        return False

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Every action id of this game is an int in
        ``range(num_distinct_actions)``, whatever the state (OpenSpiel's
        ``NumDistinctActions``): the size of a flat action space.  Each game
        derives it from its own action constants."""

    @property
    @abstractmethod
    def max_deal_length(self) -> int:
        """A bound on the player actions of one deal (round, hand,
        shuffle: what ``State.round_index()`` counts), with these options;
        ``horizon * max_deal_length`` bounds an episode of ``horizon``
        deals (OpenSpiel's ``MaxGameLength``)."""

    def plane_high(self) -> float:
        """The largest entry of the frameworks' observation planes
        (``solver.interop.common.Encoder``): 1, a card seen or held, unless
        the game counts copies of a value."""
        return 1.0

    def max_chance_outcomes(self) -> int:
        """The most outcomes of one chance node of the frameworks' adapters
        (``solver/interop/chance.py``): the game's ``interop`` declares it
        unless its options decide it."""
        return self.interop.max_chance_outcomes if self.interop is not None else 0

    def is_card(self, action: int) -> bool:
        """Whether ``action`` is the play of a card from the hand (every
        game gives its cards the actions below 64, their deck index, and
        other decisions higher ids; a game whose low ids are not card play
        says so here)."""
        return 0 <= action < 64

    def non_default_options(self) -> dict[str, Any]:
        return {k: v for k, v in self._options.items() if v != self.options_spec[k].default}

    def new_initial_state(self, seed: int | None = None, deal: dict[str, Any] | None = None,
                          match: dict[str, Any] | None = None) -> State:
        """A new state.  ``seed`` seeds every chance event; ``deal`` (the
        ``deal`` object of a game record) scripts them, the seeded generator
        taking over for outcomes the deal does not list.  With ``match`` (the
        ``match`` object of a mid-match position, docs/positions.md) the
        state starts at the beginning of a deal in the middle of the match,
        and ``deal`` lists that deal and later ones only."""
        if seed is not None:
            check_seed(seed)
        if match is None:
            scripted = self.parse_deal(deal) if deal is not None else None
        else:
            scripted = [("match", self.parse_match(match))]
            if deal is not None:
                scripted += self.parse_deal(deal, mid=True)
        return self.state_class(self, Chance(seed, scripted))

    def replay(self, actions: Sequence[int | str], *, seed: int | None = None,
               deal: dict[str, Any] | None = None, match: dict[str, Any] | None = None,
               chance: Chance | None = None, strict_deal: bool = False) -> State:
        """The state after ``actions`` (ints, or notation strings), played in
        order from a new state: the one ``new_initial_state(seed, deal,
        match)`` gives, or with ``chance`` one that draws from that source
        (a log of outcomes to replay as they were drawn, e.g.
        ``Chance(seed, state.chance.log)``).  Every action is checked as
        ``apply_action`` checks it; the first that cannot be played raises
        ``ReplayError`` with its index (and the rules' reason when it is
        illegal).  With ``strict_deal`` no action may be played once the
        state has drawn past the scripted outcomes: a record without a seed
        lists every deal it plays.  A bad ``deal`` or ``match`` raises the
        ``PositionError`` of ``parse_deal`` / ``parse_match``."""
        if chance is None:
            state = self.new_initial_state(seed=seed, deal=deal, match=match)
        elif seed is not None or deal is not None or match is not None:
            raise TypeError("replay takes a chance source or seed/deal/match, not both")
        else:
            state = self.state_class(self, chance)
        scripted = len(state.chance.scripted)
        for i, action in enumerate(actions):
            if strict_deal and len(state.chance.log) > scripted:
                raise ReplayError(UNLISTED_DEAL(), i)
            if state.is_terminal():
                raise ReplayError(ALREADY_OVER(action=Quote(action)), i)
            if isinstance(action, str):
                try:
                    action = state.string_to_action(action)
                except NotationError as exc:
                    raise ReplayError(exc.as_message(), i) from None
            try:
                state.apply_action(action)
            except IllegalActionError as exc:
                raise ReplayError(exc.as_message(), i, exc.reason) from None
        return state

    # -- mid-match positions (docs/positions.md) --
    #: the shape of each key of the game's ``match`` object, in canonical
    #: order (``solver/shapes.py``; none: the game has no mid-match
    #: positions), and those it may leave out
    match_fields: ClassVar[dict[str, Shape]] = {}
    match_optional: ClassVar[tuple[str, ...]] = ()

    @property
    def match_keys(self) -> tuple[str, ...]:
        """The keys of the game's ``match`` object, in canonical order."""
        return tuple(self.match_fields)

    def parse_match(self, match: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """The ``match`` object of a mid-match record (or of ``seat``'s view)
        -> its canonical form; ``PositionError`` naming ``match.<key>``."""
        raise PositionError(NO_MID_MATCH(game=self.name), "match")

    # -- the deal object of the position format (per game) --
    @abstractmethod
    def parse_deal(self, deal: dict[str, Any], mid: bool = False) -> list[Any]:
        """The record's ``deal`` object -> list of ``(kind, value)`` chance
        outcomes; raise ``PositionError`` with the JSON path of the culprit.
        ``mid``: the deal of a mid-match position (from the current deal on;
        what comes before it, such as the first dealer, is in ``match``)."""

    def format_deal(self, outcomes: list[Any]) -> dict[str, Any]:
        """Inverse of ``parse_deal`` (canonical form).  Outcomes that start
        with ``("match", ...)`` are those of a mid-match state: the match
        object is not part of the deal (a record writes it as ``match``),
        and the deal is written in the mid-match form."""
        mid = bool(outcomes) and outcomes[0][0] == "match"
        return self._format_deal(outcomes[1:] if mid else outcomes, mid)

    @abstractmethod
    def _format_deal(self, outcomes: list[Any], mid: bool) -> dict[str, Any]:
        """The deal object of ``outcomes``, which hold no ``match`` outcome;
        ``mid``: the deal of a mid-match state (``parse_deal(..., mid=True)``
        reads it back)."""

    # -- seat views --
    def complete_view(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """A complete record ``{"deal": ..., "actions": [...]}`` consistent
        with a seat view (used to validate views, and by world sampling):
        unseen cards dealt, hidden actions (``"?"``) chosen.  ``view`` has
        been checked for shape (game, seat, actions a list of strings).
        Raise ``PositionError`` (with the JSON path) if no world is
        consistent with the view.  The caller replays the record and checks
        that the seat's information state is the view.  A mid-match view's
        ``match`` object is added by ``complete_record``."""
        raise OptionError(NO_VIEWS(game=self.name), self.name)

    def complete_record(self, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """``complete_view`` with the view's ``match`` object carried into
        the record: a game's ``complete_view`` writes ``match`` only when
        completing the view changes it (dix-exchange's carried stock, whose
        unseen cards it chooses)."""
        record = self.complete_view(view, rng)
        if "match" in view and "match" not in record:
            record["match"] = view["match"]
        return record

    def world_sampler(self, view: dict[str, Any], base: State | None = None) -> WorldSampler:
        """A sampler of complete states consistent with a (validated) seat
        view.  ``base``: a state consistent with the view that the caller
        already holds (``solver.position.SeatView`` passes the state the view
        was taken from, or the replay that validated it), so a sampler may
        start from it (``replayed``) instead of replaying a completion of
        the view's notation.  ``base`` may hold the true hidden cards: a
        sampler replaces every one (each deal's, and the narrative lines
        that name them) by the completion it would have replayed, so that
        its worlds are the same with or without ``base``, hidden cards
        included (tests/bots/test_no_peeking.py).  Default:
        ``complete_view`` and a replay per draw; games override it with an
        exact uniform sampler that prepares once."""
        return _ReplaySampler(self, view)

    def __repr__(self) -> str:
        args = "".join(f", {k}={short_repr(v)}" for k, v in self.non_default_options().items())
        return f"load_game({short_repr(self.name)}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, dict(self._options)) == (
            other.name, dict(other._options))

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self._options.items()))))


class State(ABC):
    """A mutable game state.  Subclasses implement the ``_``-prefixed hooks
    and keep one method per phase (``_apply_bid``, ``_apply_play``...)."""

    def __init__(self, game: Game, chance: Chance):
        self.game = game
        self._chance = chance
        self._history: list[int] = []

    # ---- the protocol ----
    @property
    def chance(self) -> Chance:
        """The state's chance source: ``chance.log`` lists every outcome
        drawn so far (what ``deal_record`` writes), ``chance.seed`` and
        ``chance.scripted`` what it was made from."""
        return self._chance

    def use_chance(self, chance: Chance) -> None:
        """Draw later outcomes from ``chance``, which carries this state's
        log on (the interop layer's explicit chance nodes)."""
        self._chance = chance

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or ``TERMINAL``."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted legal action ints; empty only when terminal."""

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat outcome of the whole game (0 until terminal)."""

    def apply_action(self, action: int) -> None:
        """Apply a legal action; ``IllegalActionError`` names it and why."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(action, NOT_AN_INT())
        if self.is_terminal():
            raise IllegalActionError(action, GAME_OVER())
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._action_label(action), self.why_illegal(action))
        self._apply_and_log(action)

    def _apply_and_log(self, action: int) -> None:
        """``_apply`` a legal action and log it.  A deal that the action
        started (``_mark_deal`` inside ``_apply``) starts after it: its
        actions are those logged from then on."""
        mark = self._mark
        self._apply(action)
        self._history.append(action)
        if self._mark is not mark and self._mark is not None:
            at, _, match = self._mark
            self._mark = (at, len(self._history), match)

    def apply_action_for(self, seat: int, action: int | str) -> int:
        """Apply ``action`` (an int or notation) on behalf of ``seat``: a
        front end that knows who is acting gets an ``IllegalActionError``
        naming the action when it is not that seat's turn.  Returns the
        action int."""
        a = self.string_to_action(action) if isinstance(action, str) else action
        cur = self.current_player()
        if seat != cur:
            if cur == TERMINAL:
                raise IllegalActionError(self._action_label(a), GAME_OVER())
            raise IllegalActionError(self._action_label(a), self.why_not_turn(seat))
        self.apply_action(a)
        return a

    def why_not_turn(self, seat: int) -> str | Said:
        """Why ``seat`` may not act now (it is not its turn); games may say
        more (a dixie-rook seat that passed never bids again)."""
        return NOT_TURN(turn=self.current_player(), seat=seat)

    def apply_action_string(self, text: str) -> int:
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def _action_label(self, action: int) -> str | int:
        try:
            return self.action_to_string(action)
        except Exception:
            return action

    def why_illegal(self, action: int) -> str | Said:
        """Why ``action`` is not legal now, a phrase of the rules (override
        for rule-specific reasons; English is read as it is)."""
        return NOT_LEGAL(seat=self.current_player())

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be legal."""

    def history(self) -> list[int]:
        return list(self._history)

    # ---- the start of the match ----
    def _draw_match_or_dealer(self) -> tuple[Any, ...]:
        """``(match, dealer)`` for a state's first deal: the ``match`` object
        of a mid-match position and its dealer, or ``None`` and the first
        dealer, a ``"first_dealer"`` outcome drawn uniformly among the seats
        (for games whose match starts with one)."""
        match = self._chance.draw_match()
        if match is not None:
            return match, match["dealer"]
        n = self.game.num_players
        return None, self._chance.draw("first_dealer", lambda rng: rng.randrange(n))

    def first_dealer(self) -> int:
        """The dealer of the first deal of this record (games that start
        with ``_draw_match_or_dealer``)."""
        kind, value = self._chance.log[0]
        dealer: int = value["dealer"] if kind == "match" else value
        return dealer

    def _view_head(self, seat: int, deal: dict[str, Any],
                   match: dict[str, Any] | None = None) -> dict[str, Any]:
        """The start of ``seat``'s view (``information_state``): game,
        options, seat, then in the middle of a match the ``match`` object
        (a copy of the one this state started from, or ``match`` when the
        seat sees less of it), then ``deal``; a match that starts with a
        ``"first_dealer"`` outcome gets it at the head of ``deal``."""
        g = self.game
        view = {"game": g.name, "options": g.non_default_options(), "seat": seat}
        kind, first = self._chance.log[0]
        if kind == "match":
            view["match"] = copy.deepcopy(first) if match is None else match
        elif kind == "first_dealer":
            deal = {"first_dealer": first, **deal}
        view["deal"] = deal
        return view

    # ---- the start of the current deal, for mid-match positions ----
    #: ``(chance log length, history length, match object)`` at the start of
    #: the current deal (set by the games that support mid-match positions)
    _mark: tuple[Any, ...] | None = None

    def _mark_deal(self, match: dict[str, Any], at: int | None = None) -> None:
        """Mark the start of a deal: ``match``, the match object before it,
        and ``at``, the index of its first outcome in the chance log (by
        default the next one drawn); its first action is the next logged."""
        self._mark = (len(self._chance.log) if at is None else at, len(self._history), match)

    def match_object(self) -> dict[str, Any] | None:
        """The ``match`` object this state started from (None: it started
        at the beginning of the match)."""
        log = self._chance.log
        return log[0][1] if log and log[0][0] == "match" else None

    def deal_start(self) -> tuple[Any, ...]:
        """``(chance log index, history index, match object)`` of the start
        of the current deal: the outcomes and actions from there on, with
        the match object, make the mid-match record of this state."""
        if self._mark is None:
            raise PositionError(NO_MID_MATCH(game=self.game.name), "match")
        return self._mark

    def deal_steps(self) -> Iterator[tuple[State, int]]:
        """The deal in play from its start, step by step: before each of
        its actions so far, a state at that moment and the action (the
        same state object, moved on after each step: read it, do not keep
        it).  The opponent models read the public facts of each decision
        from it (``solver/beliefs.py``)."""
        at, first, match = self.deal_start()
        game = self.game
        # the mid-match record of the deal in play (as ``Record.of`` makes it)
        log = [("match", game.parse_match(json.loads(json.dumps(match))))] + \
            list(self._chance.log[at:])
        state = game.replay([], chance=Chance(None, log))
        for a in self._history[first:]:
            yield state, a
            state._apply_and_log(a)

    # ---- the current deal, for search (a match is many deals) ----
    def last_trick(self) -> tuple[int, tuple[Any, ...], int] | None:
        """The trick completed last: ``(leader, the cards as actions in
        play order, winner)``, or None before the first (and in games
        without tricks).  Public information; it stays until the next
        trick ends, across the end of a deal, so a front end can say who
        took a deal's last trick."""
        return self.__dict__.get("_last_trick")

    def trick_number(self) -> tuple[int, int] | None:
        """During card play in tricks: ``(the trick in play, counted from
        1; the tricks of the deal)``; None outside trick play (bidding,
        contracts, layouts, games without tricks).  What a front end says
        ("trick 15 of 26")."""
        return None

    def round_index(self) -> int:
        """Index of the deal (round, hand) in play; search treats the end of
        this deal as its horizon.  Default: the whole game is one deal."""
        return 0

    def round_returns(self, index: int | None = None) -> list[float]:
        """Per-seat result of deal ``index`` (default: the current one) in
        the game's points: so far for the deal in play, final for a finished
        one; zero-sum across seats where the scoring allows.
        ``game.round_scale`` bounds its magnitude.  Default: ``returns()``."""
        return self.returns()

    def finished_round_returns(self) -> list[list[float]]:
        """``round_returns`` of every finished deal, in order (the deal in
        play counted once the game is over)."""
        finished = self.round_index() + (1 if self.is_terminal() else 0)
        out = []
        for i in range(finished):
            try:
                out.append([float(v) for v in self.round_returns(i)])
            except (IndexError, KeyError):
                break
        return out

    def tie_key(self, action: int) -> tuple[Any, ...]:
        """The game's one rule among actions of equal value, for the seat to
        move: of the legal actions that nothing else separates, the one with
        the smallest key is played (the exact advice, the search's advice,
        the solver's ``best_actions``, the bots, the review).  By default
        the game's order (the lowest action); a game whose cards differ in
        what they are worth keeping declares the order in which a player
        parts with them (dix keeps the joker, trumps, nines and tens)."""
        return (action,)

    @abstractmethod
    def action_to_string(self, action: int) -> str: ...

    @abstractmethod
    def string_to_action(self, text: str) -> int:
        """Parse notation (documented aliases accepted); ``NotationError``."""

    @abstractmethod
    def information_state(self, seat: int) -> InfoState: ...

    def information_state_string(self, seat: int) -> str:
        return str(self.information_state(seat))

    def clone(self) -> State:
        """An independent copy (chance generator included)."""
        new = copy.copy(self)
        new.__dict__ = {k: copy.deepcopy(v) for k, v in self.__dict__.items()
                        if k not in ("game", "_chance")}
        new.game = self.game
        new._chance = self._chance.clone()
        return new

    def deal_record(self) -> dict[str, Any]:
        """The ``deal`` object of every chance outcome drawn so far."""
        return self.game.format_deal(self._chance.log)

    def __str__(self) -> str:
        return self.to_text()

    def to_text(self) -> str:
        """A human-readable description (override)."""
        return repr(self)


class WorldSampler(ABC):
    """Draws complete states consistent with one seat view."""

    @abstractmethod
    def sample(self, rng: random.Random) -> State:
        """A fresh complete state (the caller may mutate it)."""

    def any_world(self) -> State:
        """A world of the view with no draw (a sampler with a prepared
        ``base`` returns a copy of it: its hidden cards a completion, never
        the true ones).  Default: the world of ``Random(0)``."""
        return self.sample(random.Random(0))

    def worlds(self) -> int | None:
        """How many distinct worlds ``sample`` draws among, as far as the
        rest of the deal in play is concerned (a sampler may count worlds
        that differ only in cards already played: an upper bound), or None
        when the sampler cannot count them.  1 means the view determines
        the deal: the searches then solve it exactly where the solver
        applies."""
        return None


def replayed(state: State) -> State:
    """A clone of ``state`` whose chance source is the one a replay of its
    complete record with no seed ends with: its log as the script, every
    outcome of it drawn, later outcomes from seed 0.  A world sampler that
    starts from the state a view was taken from (``Game.world_sampler``'s
    ``base``) draws what lies past the view as it did from a replay of the
    view's completion, whatever seed dealt the state."""
    world = state.clone()
    chance = Chance(None, list(state.chance.log))
    chance.pos = len(chance.scripted)
    chance.log = list(state.chance.log)
    world.use_chance(chance)
    return world


class _ReplaySampler(WorldSampler):
    """A world per draw: a complete record consistent with the view
    (``complete_record``) replayed."""

    def __init__(self, game: Game, view: dict[str, Any]):
        self.game = game
        self.view = view

    def sample(self, rng: random.Random) -> State:
        rec = self.game.complete_record(self.view, rng)
        return self.game.replay(rec["actions"], deal=rec["deal"], match=rec.get("match"))


# --------------------------------------------------------------------------
# registry

_REGISTRY: dict[str, type[Game]] = {}
#: what ``when_registered`` asked to be told of each game class
_WHEN_REGISTERED: list[Callable[[type[Game]], object]] = []


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: make ``cls`` loadable by ``load_game(cls.name)``."""
    _REGISTRY[cls.name] = cls
    for fn in list(_WHEN_REGISTERED):
        fn(cls)
    return cls


def when_registered(fn: Callable[[type[Game]], object]) -> None:
    """Call ``fn(cls)`` for every game class registered so far and for each
    one registered from now on (as its class is made, before the rest of
    its module runs: ``fn`` reads the class's declarations, never an
    instance): how an outside registry (OpenSpiel's, solver/interop/openspiel.py)
    learns of a game package registered after it was imported."""
    _WHEN_REGISTERED.append(fn)
    for cls in list(_REGISTRY.values()):
        fn(cls)


def registered_games() -> list[str]:
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The class registered as ``name`` (its declarations, read with no
    instance made: ``interop``, ``options_spec``, ...); ``OptionError``
    listing the games for a name not registered."""
    if not isinstance(name, str) or name not in _REGISTRY:
        raise OptionError(UNKNOWN_GAME(game=Quote(name), known=", ".join(sorted(_REGISTRY))))
    return _REGISTRY[name]


def game_name(text: str) -> str:
    """The registered game a person means by ``text``: its name in any
    case (``Dix``, ``TRIX``); ``OptionError`` listing the games otherwise.
    Documents (``solver.position``) keep the exact, lower-case name."""
    if isinstance(text, str):
        if text in _REGISTRY:
            return text
        folded = {name.casefold(): name for name in _REGISTRY}
        if text.strip().casefold() in folded:
            return folded[text.strip().casefold()]
    raise OptionError(UNKNOWN_GAME(game=Quote(text), known=", ".join(sorted(_REGISTRY))))


def parse_pairs(parts: Iterable[str], where: str) -> dict[str, str]:
    """``["target=10", "variant=seventeen"]`` -> ``{"target": "10", ...}``,
    keys and values stripped, blank parts skipped: the one reading of the
    ``key=value`` lists of game options and bot settings (``--option``,
    ``dix:target=10``, ``ismcts:time=0.5``); ``OptionError`` names
    ``where`` and the part that is not ``key=value``."""
    pairs = {}
    for part in parts:
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise OptionError(KEY_VALUE(got=Quote(part)), where)
        pairs[key.strip()] = value.strip()
    return pairs


def options_from_text(name: str, pairs: dict[str, Any]) -> dict[str, Any]:
    """Options typed as text (``{"target": "10"}``), each read and checked
    by its option (``Option.parse``); keys the game does not know are kept
    as they are, for ``load_game`` to refuse by name."""
    game = _REGISTRY[game_name(name)]
    spec = game.options_spec
    return {key: spec[key].parse(game.name, key, value)
            if key in spec and isinstance(value, str) else value
            for key, value in pairs.items()}


def load_game(name: str, **options: Any) -> Game:
    """The game ``name`` with ``options`` (``OptionError`` if unknown).  The
    built-in games register when the package is imported
    (``solver/__init__.py`` imports ``solver.games``)."""
    return game_class(name)(**options)

