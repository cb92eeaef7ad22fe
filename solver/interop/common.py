"""What the OpenSpiel and PettingZoo adapters share: what the encodings need
to know of each game's deal object (declared by the game: ``Game.interop``,
a ``solver.game.InteropSpec``; ``spec_of``), the horizon (how many deals
an episode lasts and what it returns), and the observation encodings.  The
action space and the length of a deal are the game's own
(``Game.num_distinct_actions``, ``Game.max_deal_length``).

Nothing here imports a framework: this module is the protocol seen from
outside (``Game``, ``State``, ``information_state``) and never the players.

The horizon.  A whole match can last hundreds of deals; the frameworks'
checks and learners want episodes of a known bounded length.  An episode is
the first ``horizon`` deals (``State.round_index()``) of a match, or the
whole match if it ends sooner.  Its return per seat is the sum of those
deals' results, ``State.round_returns(i)``, in the game's points (the
match's own ``returns()`` -- who won the match -- is not what an episode
returns).  When the deal after the horizon starts, the episode is over; the
cards of that deal are never shown (``trimmed_view``).
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import OptionError, PositionError
from ..game import (
    HORIZON_RANGE,
    NO_INTEROP,
    NOT_CARD_VALUE,
    NOT_DECK_CARD,
    Game,
    InfoState,
    InteropSpec,
    State,
    canonical_json,
    game_class,
    registered_games,
)
from ..said import Quote

#: card ids of every deck are bit indices below 64 (docs/positions.md)
CARD_SPACE = 64
#: the largest horizon an adapter accepts (deals per episode)
MAX_HORIZON = 1000


def adapted_games() -> list[str]:
    """The registered games the adapters serve: those that declare what
    the adapters need (``Game.interop``, a ``solver.game.InteropSpec``)."""
    return [name for name in registered_games() if game_class(name).interop is not None]


def spec_of(game: Game) -> InteropSpec:
    """What ``game`` declares for the adapters (``OptionError`` for a game
    that declares nothing)."""
    spec: InteropSpec | None = game.interop
    if spec is None:
        raise OptionError(NO_INTEROP(game=Quote(game.name), known=list(adapted_games())))
    return spec


def check_horizon(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HORIZON:
        raise OptionError(HORIZON_RANGE(top=MAX_HORIZON, got=Quote(value)))
    return value


# --------------------------------------------------------------------------
# the episode: the first ``horizon`` deals

def episode_over(state: State, horizon: int) -> bool:
    return state.is_terminal() or state.round_index() >= horizon


def episode_returns(state: State, horizon: int) -> list[float]:
    """The sum of the results of the deals played within the horizon."""
    r = state.round_index()
    last = horizon if r >= horizon else r + 1
    total = [0.0] * state.game.num_players
    for i in range(last):
        for s, v in enumerate(state.round_returns(i)):
            total[s] += float(v)
    return total


def trimmed_view(state: State, seat: int, horizon: int, info: InfoState | None = None) -> dict:
    """The seat view, without the deal that starts after the horizon (at the
    end of an episode the next deal has been dealt but is never played).
    ``info``: the seat's information state, if the caller has it already."""
    view = (info if info is not None else state.information_state(seat)).view
    spec = spec_of(state.game)
    if spec.deal_kind is not None and beyond_horizon(state, horizon):
        deals = view["deal"].get(spec.deal_key)
        if isinstance(deals, list) and len(deals) > horizon:
            view = dict(view)
            view["deal"] = dict(view["deal"])
            view["deal"][spec.deal_key] = deals[:horizon]
    return view


def info_string(state: State, seat: int, horizon: int) -> str:
    """The information state string: canonical JSON of the seat view."""
    return canonical_json(trimmed_view(state, seat, horizon))


def beyond_horizon(state: State, horizon: int) -> bool:
    """Whether the deal after the horizon has started (the episode is over
    and what the state holds of that deal is never shown)."""
    return not state.is_terminal() and state.round_index() >= horizon


def observation_string(state: State, seat: int, horizon: int) -> str:
    """The observation string: what the seat knows now (``InfoState.known``:
    its hand, the trick, the scores...), not the whole history."""
    if beyond_horizon(state, horizon):
        return f"seat {seat}: the episode is over"
    known = state.information_state(seat).known
    return f"seat {seat}: " + json.dumps(known, sort_keys=True, separators=(",", ":"),
                                          default=str, ensure_ascii=False)


# --------------------------------------------------------------------------
# tensors

class Encoder:
    """Fixed-size float32 encodings of what a seat knows.

    information state (perfect recall within the episode):
      ``player``  one-hot seat (n)
      ``to_move`` one-hot seat to act (n; all zero when nobody acts)
      ``hand``    the seat's current hand (64 card ids; a game whose cards are
                  values, dix-exchange: one-hot of the value held, a place a value)
      ``seen``    every card of the current deal the seat has seen dealt,
                  drawn or shown (64; dix-exchange: count per value / 4)
      ``history`` every action of the episode in order, one-hot over the
                  action ids plus one column for an action the seat did not
                  see (``max_length`` x (num_actions + 1))
    observation (no history): ``player``, ``to_move``, ``hand``, ``seen`` and
      ``recent``: the last n actions, as ``history``.
    The strings are exact; the tensors summarise (a card seen is one bit, not
    when or where it was seen).
    """

    def __init__(self, game: Game, horizon: int):
        self.game = game
        self.spec = spec_of(game)
        self.horizon = horizon
        self.n = game.num_players
        self.max_length = horizon * game.max_deal_length
        self.num_actions = game.num_distinct_actions
        self.width = self.num_actions + 1
        self.card_space = CARD_SPACE if self.spec.deck is not None else len(self.spec.values)
        self._labels: dict[str, int] = {}
        #: card token -> card id (dix-exchange: value index), parsed once
        self._cards: dict[str, int] = {}

    def pieces(self, info: bool) -> list[tuple[str, tuple[int, ...]]]:
        out: list[tuple[str, tuple[int, ...]]] = [
            ("player", (self.n,)), ("to_move", (self.n,)), ("hand", (self.card_space,)),
            ("seen", (self.card_space,))]
        if info:
            out.append(("history", (self.max_length, self.width)))
        else:
            out.append(("recent", (self.n, self.width)))
        return out

    def high(self) -> float:
        """The largest value of any entry (the game's: ``Game.plane_high``)."""
        return float(self.game.plane_high())

    def size(self, info: bool) -> int:
        return int(sum(np.prod(shape) for _, shape in self.pieces(info)))

    def _action_id(self, state: State, label: str) -> int:
        if label == "?":
            return self.num_actions
        a = self._labels.get(label)
        if a is None:
            a = self._labels[label] = state.string_to_action(label)
        return a

    def _card_ids(self, text, where: str) -> list[int]:
        """The card ids of a text of card tokens (``?``: an unseen card);
        a token that is no card of the game's deck is a ``PositionError``
        naming it and where in the seat view it stands (a view the game
        wrote should never hold one).  Tokens are parsed once per encoder."""
        out: list[int] = []
        if not isinstance(text, str):
            return out
        cards = self._cards
        for tok in text.split():
            c = cards.get(tok)
            if c is None:
                if tok == "?":
                    continue
                c = cards[tok] = self._parse_card(tok, where)
            out.append(c)
        return out

    def _parse_card(self, tok: str, where: str) -> int:
        deck = self.spec.deck
        if deck is None:
            values = self.spec.values
            if tok not in values:
                raise PositionError(NOT_CARD_VALUE(game=self.game.name, token=Quote(tok),
                                                   values=list(values)), where)
            return values.index(tok)
        try:
            return deck.parse(tok)
        except ValueError:
            raise PositionError(NOT_DECK_CARD(game=self.game.name, token=Quote(tok),
                                              deck=deck.name), where) from None

    def _strings(self, obj, path: str, acc: list) -> None:
        """Every string inside ``obj`` with its JSON path."""
        if isinstance(obj, str):
            acc.append((path, obj))
        elif isinstance(obj, dict):
            for k, v in obj.items():
                self._strings(v, f"{path}.{k}", acc)
        elif isinstance(obj, (list, tuple)):
            for i, v in enumerate(obj):
                self._strings(v, f"{path}[{i}]", acc)

    def fill(self, planes: dict, state: State | None, seat: int, info: bool,
             to_move: int | None = None) -> None:
        """Write the encoding of ``state`` for ``seat`` into ``planes``
        (name -> numpy view, zeroed by the caller).  ``state`` None: nothing
        is known yet (before the deal).  One information state is built per
        call; the view is trimmed at the horizon (``trimmed_view``)."""
        planes["player"][seat] = 1.0
        if to_move is not None and 0 <= to_move < self.n:
            planes["to_move"][to_move] = 1.0
        if state is None:
            return
        istate = state.information_state(seat)
        view = trimmed_view(state, seat, self.horizon, istate)
        if not beyond_horizon(state, self.horizon):
            known = istate.known
            key = "hand" if "hand" in known else "card"
            for c in self._card_ids(known.get(key), f"known.{key}"):
                planes["hand"][c] = 1.0
        deals = view.get("deal", {}).get(self.spec.deal_key)
        if isinstance(deals, list) and deals:
            acc: list[tuple[str, str]] = []
            self._strings(deals[-1], f"deal.{self.spec.deal_key}[{len(deals) - 1}]", acc)
            seen = planes["seen"]
            for where, text in acc:
                for c in self._card_ids(text, where):
                    if self.spec.deck is None:
                        seen[c] += 0.25      # values: a count (four of a value at most)
                    else:
                        seen[c] = 1.0
        labels = view.get("actions", [])
        if info:
            hist = planes["history"]
            for i, label in enumerate(labels[:self.max_length]):
                hist[i, self._action_id(state, label)] = 1.0
        else:
            recent = planes["recent"]
            for i, label in enumerate(labels[-self.n:]):
                recent[i, self._action_id(state, label)] = 1.0
