"""The analysis board's logic, apart from any face (the HTTP routes of
``bots/server/analysis.py`` and the page ``static/analysis.js`` carry it;
docs/server.md, "The analysis board").

A **board** is a deal or a position opened for analysis: a game record
(every card known: any seat's view or all the hands may be shown, and the
exact solver may judge every step) or a seat view (only that seat's
knowledge: the other seats' hidden actions stay ``?``, and only that
seat's decisions are valued).  Its **main line** is the record's actions,
each a ``Move`` (who played it, its deal and trick); a **step** is a
point of the line, ``at`` actions from its start, and a **variation** a
list of other actions played from a step on (what-if), checked one by one
with the rules' own reasons (``variation[2]: ...``).

At a step the board gives every legal action's value for the seat to
move (``analyse``): the decision service from that seat's view (the same
advice as ``dixtrix hint``: searched, or exact where the view determines
the deal), and for a record the double-dummy values of the true deal
where a solver takes the position and finishes within a node budget
(``bots.exact``: the game's deal-result unit), marked as such.  Answers
are cached per step (``CACHE_SIZE`` of them, least recently used out): a
board steps back and forth.  ``continuation`` is the engine's suggested
line from a step: the exact line where the deal is solved within the
budget, else the advice played out a few actions.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver import position as positions
from solver.dd.solve import ASKED_KINDS, check_kind, kind_asked
from solver.errors import (
    DixtrixError,
    IllegalActionError,
    LimitError,
    NotationError,
    PositionError,
    SearchAborted,
    UnsupportedPositionError,
)
from solver.facts import declared
from solver.front import N_
from solver.game import Game, State
from solver.said import Act, Quote, phrase
from solver.search import Limit, best_move

from . import exact as exacts
from . import tabletop
from .advice import advise

# the errors raised here (solver/errors.py: a code and its parameters;
# seats counted from 0, as the analysis board's JSON counts them)
VIEW_MISALIGNED = phrase("board_view_misaligned", N_("this view's actions do not line up with "
                                                     "a world it allows"))
NOT_A_BOARD = phrase("board_not_a_position", N_("a board opens a game record or a seat view, "
                                                "got {got}"))
STEP_RANGE = phrase("board_step", N_("a step of this line is 0..{last}, got {got}"))
OTHER_HANDS = phrase("board_other_hands", N_("this board is seat {seat}'s view: the other "
                                             "seats' hands are not known"))
BOARD_SEATS = phrase("board_seats", N_("{game} has seats 0..{last}"))
VARIATION_LIST = phrase("board_variation_list", N_("a variation is a list of actions, got {got}"))
VARIATION_LONG = phrase("board_variation_long", N_("a variation holds at most {most:,} actions, "
                                                   "got {got:,}"))
ACTION_STRING = phrase("board_action_string", N_("an action is a string in the game's "
                                                 "notation, got {got}"))
OVER_BEFORE = phrase("board_over_before", N_("the game is over before this action"))
OTHER_SEAT_MOVES = phrase("board_other_seat_moves", N_("seat {turn} is to move, and this board "
                                                       "is seat {seat}'s view: only its own "
                                                       "actions can be tried"))
NOT_LEGAL_HERE = phrase("board_not_legal", N_("{action} is not legal here: {reason}"))
SHOW_SEAT = phrase("board_show", N_("show is a seat 0..{last} or \"all\", got {got}"))
BOARD_NODES = phrase("board_nodes", N_("nodes must be an integer in 1..10,000,000,000, got {got}"))
BOARD_PLIES = phrase("board_plies", N_("plies must be an integer in 1..{most}, got {got}"))

#: the most actions a variation may hold (a whole trix match is about 1,300)
MAX_VARIATION = 2_000
#: the node budget of a step's exact solve when none is given (about a
#: second of the solvers): past it the step says the solve did not finish
DEFAULT_NODES = 2_000_000
#: the most plies of a suggested continuation
MAX_PLIES = 52
#: step answers kept (a board steps back and forth over the same steps)
CACHE_SIZE = 512


@dataclass(frozen=True)
class Move:
    """One action of a line: its ``index`` (0 = the record's first),
    the ``seat`` that chose it, its text (``?``: hidden from a seat view),
    the ``deal`` (1 = the first the record holds), the ``trick`` being
    played (1-based; None outside trick play) and whether it is a card."""

    index: int
    seat: int
    action: str
    deal: int
    trick: int | None
    card: bool

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "action": self.action,
                "deal": self.deal, "trick": self.trick, "card": self.card}


def _trick(state: State) -> int | None:
    got = state.trick_number()
    return got[0] if got else None


def _moves(state0: State, actions: Sequence[str], shown: Sequence[str] | None = None,
           start: int = 0, deal0: int | None = None) -> tuple[list[Move], State]:
    """The moves of ``actions`` played from ``state0`` (a clone is played
    on), their texts from ``shown`` where given (a seat view's ``?``), their
    deals counted from ``deal0`` (a round index; default ``state0``'s); the
    state at the end."""
    state = state0.clone()
    deal0 = state.round_index() if deal0 is None else deal0
    out = []
    for i, text in enumerate(actions):
        action = state.string_to_action(text)
        out.append(Move(start + i, state.current_player(),
                        text if shown is None else shown[i], state.round_index() - deal0 + 1,
                        _trick(state), state.game.is_card(action)))
        state.apply_action(action)
    return out, state


class Board:
    """A record or a seat view opened for analysis (see the module
    docstring).  ``kind``: ``"record"`` or ``"view"``; ``seat``: a view's
    seat (None for a record)."""

    def __init__(self, pos: positions.Record | positions.SeatView):
        self.seat: int | None = None
        self.view: positions.SeatView | None = None
        shown: list[str] | None = None
        if isinstance(pos, positions.SeatView):
            self.kind, self.seat, self.view = "view", pos.seat, pos
            # one world the view allows: its history is the view's, with
            # the hidden actions drawn; they are never shown (the moves
            # keep the view's '?') and no value depends on them
            world = pos.world(seed=0)
            self.record = positions.Record.of(world)
            shown = list(pos.view["actions"])
            if len(shown) != len(self.record.actions):       # a view starts where its world does
                raise PositionError(VIEW_MISALIGNED(), "actions")
        elif isinstance(pos, positions.Record):
            self.kind, self.record = "record", pos
        else:
            raise PositionError(NOT_A_BOARD(got=type(pos).__name__))
        self.game = self.record.game
        self.actions = list(self.record.actions)
        #: the state before the line's first action
        self.start = self.game.replay([], **_origin(self.record))
        self.moves, full = _moves(self.start, self.actions, shown)
        self.position = pos
        text = json.dumps(pos.to_json(), sort_keys=True, separators=(",", ":"))
        #: the board's identity for the cache: its canonical JSON's digest
        self.key = hashlib.sha256(text.encode()).hexdigest()
        self.over = full.is_terminal()

    def kinds(self) -> list[str]:
        """The kinds of exact value this board's game can be asked for
        (``solver.dd.solve``'s ``ASKED_KINDS``, solver/dd/solution.py
        ``KINDS``), the game's own first: paranoid and max^n where the
        seats play each for itself (three or more, no partners); where two
        sides play, minimax is the only one (asking another gives it)."""
        if self.game.num_players > 2 and not self.game.partnership:
            return [k for k in ASKED_KINDS if k is not None]
        return ["minimax"]

    @classmethod
    def open(cls, doc: Any) -> Board:
        """A board from a position's JSON (docs/positions.md): a record or
        a seat view; the project's errors name what is wrong and where."""
        return cls(positions.from_json(doc))

    # ---- the line ---------------------------------------------------------

    def check_at(self, at: Any) -> int:
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(self.actions):
            raise PositionError(STEP_RANGE(last=len(self.actions), got=Quote(at)), "at")
        return at

    def state_at(self, at: int, variation: Sequence[str] = ()) -> State:
        """The true state (a view board: the world it opened with) after
        ``at`` actions of the main line and then ``variation``, each action
        checked as the rules check it (``variation[i]: ...``)."""
        at = self.check_at(at)
        state = self.record.game.replay(self.actions[:at], **_origin(self.record))
        return _play(state, variation, self.seat)

    def variation_moves(self, at: int, variation: Sequence[str]) -> list[Move]:
        """The moves of a variation from step ``at`` (checked)."""
        state = self.state_at(at)
        _play(state.clone(), variation, self.seat)
        # numbered as the main line's (a variation's deal is the record's)
        moves, _ = _moves(state, [state.action_to_string(state.string_to_action(a))
                                  for a in variation], start=at,
                          deal0=self.start.round_index())
        return moves

    def seat_view(self, state: State, seat: int | None = None) -> positions.SeatView:
        """``seat``'s view of ``state`` (default: the seat to move); a view
        board shows its own seat's only."""
        if seat is None:
            seat = state.current_player()
        if self.seat is not None and seat != self.seat:
            raise PositionError(OTHER_HANDS(seat=self.seat), "seat")
        if not 0 <= seat < self.game.num_players:
            raise PositionError(BOARD_SEATS(game=self.game.name,
                                                last=self.game.num_players - 1), "seat")
        return positions.SeatView.of(state, seat)

    def to_json(self) -> dict[str, Any]:
        """What a face shows of the line: the game, the kind of board, the
        moves, where each deal starts, and the position as opened."""
        deals: dict[int, int] = {}
        for m in self.moves:
            deals.setdefault(m.deal, m.index)
        return {"game": self.game.name, "options": self.game.non_default_options(),
                "players": self.game.num_players, "partnership": self.game.partnership,
                "kind": self.kind, "seat": self.seat, "actions": len(self.actions),
                "kinds": self.kinds(),
                "moves": [m.to_json() for m in self.moves],
                "deals": [{"deal": d, "first": i} for d, i in sorted(deals.items())],
                "over": self.over, "position": self.position.to_json(), "key": self.key}


def _origin(rec: positions.Record) -> dict[str, Any]:
    """How a record's start is made again (``Game.replay``'s arguments)."""
    return {"seed": rec.seed, "deal": rec.deal, "match": rec.match}


def _play(state: State, variation: Sequence[str], seat: int | None) -> State:
    """``variation`` played on ``state``: each action checked (its path in
    the error: ``variation[i]``); a view board plays its own seat's
    actions only (the others' cards are unknown)."""
    if not isinstance(variation, (list, tuple)):
        raise PositionError(VARIATION_LIST(got=Quote(variation)), "variation")
    if len(variation) > MAX_VARIATION:
        raise PositionError(VARIATION_LONG(most=MAX_VARIATION, got=len(variation)),
                            "variation")
    for i, text in enumerate(variation):
        path = f"variation[{i}]"
        if not isinstance(text, str):
            raise PositionError(ACTION_STRING(got=Quote(text)), path)
        if state.is_terminal():
            raise PositionError(OVER_BEFORE(), path)
        if seat is not None and state.current_player() != seat:
            raise PositionError(OTHER_SEAT_MOVES(turn=state.current_player(), seat=seat), path)
        try:
            action = state.string_to_action(text)
        except NotationError as exc:
            raise PositionError(exc.as_message(), path) from None
        if action not in state.legal_actions():
            raise PositionError(NOT_LEGAL_HERE(action=Act(text), reason=state.why_illegal(action)),
                                path)
        try:
            state.apply_action(action)
        except IllegalActionError as exc:                # the rules said no after all
            raise PositionError(exc.as_message(), path) from None
    return state


# --------------------------------------------------------------------------
# what lies on the table at a step

#: the facts drawn seat by seat, never on the table: a hand, a seat's one
#: card, dix's opponent hand once known (``seats[].hand``)
_OWN_FACTS = frozenset({"hand", "card", "opponent_hand"})
#: the facts the table top lays in its own form (``tabletop.lay``: the
#: trick with who played each card, the layout's rows)
_LAID_FACTS = frozenset({"trick", "leader", "layout"})


def layout_rows(game: Game, text: str | None) -> dict[str, list[str]]:
    """The layout as the game writes it (the Trix / Jacks ``"S:9S..AS H:JH
    D:- C:TC..AC"``, read by the game's ``Front.layout_rows``) as each
    row's ranks in order: ``{"S": ["9", "T", "J", "Q", "K", "A"], "H":
    ["J"], "D": [], "C": [...]}``; nothing where the text is none."""
    if not text:
        return {}
    return {row: [card[:-1] for card in cards]
            for row, cards in game.front.layout_rows(text).items()}


def _cards(text: Any) -> list[str] | None:
    return text.split() if isinstance(text, str) else None


def drawn(board: Board, at: int, variation: Sequence[str] = (), show: int | str | None = None
          ) -> dict[str, Any]:
    """What lies on the table at a step, as a face draws it: each seat's
    hand where the shown seat knows it (``show``: a seat, or ``"all"`` on
    a record for every hand; a view board shows its own seat only, the
    default), each seat's card count, the trick with who played each card
    and the last trick until the next lead, the layout's rows, every other
    fact the game declares that the shown seat knows (the trumps and
    turn-up, the stock left, a contract, an auction's bids, tokens:
    docs/facts.md) as the game gives it, the shown seat's facts whole
    (``known``, which the game's front words: ``Front.panels``), the
    scores of the finished deals, who is to move and its legal actions
    (``legal``).  Seats are numbers here (the route names them);
    ``cards`` lists every card id drawn."""
    state = board.state_at(at, variation)
    game, n = board.game, board.game.num_players
    if show is None:
        show = board.seat if board.seat is not None else "all"
    if show == "all":
        if board.seat is not None:
            raise PositionError(OTHER_HANDS(seat=board.seat), "show")
    elif isinstance(show, bool) or not isinstance(show, int) or not 0 <= show < n:
        raise PositionError(SHOW_SEAT(last=n - 1, got=Quote(show)), "show")
    elif board.seat is not None and show != board.seat:
        raise PositionError(OTHER_HANDS(seat=board.seat), "show")
    one: int | None = None if show == "all" else int(show)
    infos = [state.information_state(s).known for s in range(n)]
    over = state.is_terminal()
    mover = None if over else state.current_player()
    # the facts drawn: the shown seat's, or every seat's put together (a
    # fact only one seat knows, such as the nest, is known on a record)
    if one is None:
        known: dict[str, Any] = {}
        for k in infos:
            for key, value in k.items():
                if key not in _OWN_FACTS and known.get(key) in (None, "", []):
                    known[key] = value
    else:
        known = {k: v for k, v in infos[one].items() if k not in _OWN_FACTS}
    seats = []
    ids: set[str] = set()
    for s in range(n):
        own = _cards(infos[s].get("hand"))
        if own is None and infos[s].get("card") not in (None, ""):
            own = [infos[s]["card"]]
        seen = one is None or one == s
        if one is not None and not seen and n == 2:
            # what the shown seat knows of the other's hand (dix from trick 14)
            other = _cards(infos[one].get("opponent_hand"))
            seen = other is not None
            if seen:
                own = other
        hand = (own or []) if seen else None
        entry = {"seat": s, "cards": len(own or []), "hand": hand, "to_move": s == mover}
        ids |= set(hand or [])
        seats.append(entry)
    out: dict[str, Any] = {"at": at, "variation": list(variation), "show": show,
                           "game": game.name, "players": n, "partnership": game.partnership,
                           "over": over, "to_move": mover, "deal": state.round_index() + 1,
                           "seats": seats}
    moves = board.moves[:at] + (board.variation_moves(at, variation) if variation else [])
    # the table top as every face draws it (bots/tabletop.py), the layout's
    # rows here as ranks
    deal = state.round_index() - board.start.round_index() + 1
    top = tabletop.lay(game, known, moves, deal, over)
    ids |= top.pop("cards") | game.front.panel_cards(known)
    top.pop("layout", None)
    out.update(top)
    # what the game's front words of its board (``Front.panels``; the
    # server words them in the reader's language): the facts drawn and the
    # deal's moves as the shown seat saw them
    out["known"] = known
    out["deal_moves"] = [m.to_json() for m in moves if m.deal == deal]
    # every other fact the game declares (solver/facts.py's widget facts and
    # its own, ``Game.facts``) that the shown seat knows, as the game gives
    # it: a new game's facts reach the board with no word here
    for key in declared(game):
        if key not in _OWN_FACTS | _LAID_FACTS and known.get(key) not in (None, ""):
            out.setdefault(key, known[key])
    if "layout" in known:
        out["layout"] = layout_rows(game, known.get("layout")) or None
    out["scores"] = state.finished_round_returns()
    if over:
        out["returns"] = [float(v) for v in state.returns()]
    if moves:
        out["last"] = moves[-1].to_json()
        if moves[-1].action != "?":
            out["last_card"] = moves[-1].action if moves[-1].card else None
    # the mover's legal actions (a view board: only where its own seat is
    # to move; another seat's would tell its hidden cards)
    if mover is not None and (board.seat is None or mover == board.seat):
        out["legal"] = [{"action": state.action_to_string(a), "card": game.is_card(a)}
                        for a in state.legal_actions()]
    out["cards"] = sorted(ids, key=lambda c: _deck_place(state, c))
    return out


def _deck_place(state, card: str) -> tuple[int, str]:
    """A card's place in the deck's order (suit by suit, each suit low to
    high: the card's id), so that every list of cards a page draws from
    ``cards`` (the set-up's picker) goes by suit; a text the game does not
    read as a card sorts last, by its text."""
    try:
        return (state.string_to_action(card), card)
    except DixtrixError:            # "?" and the like: no card of the deck
        return (1 << 30, card)


# --------------------------------------------------------------------------
# values at a step


class _Cache:
    """A small least-recently-used map, safe across the server's workers."""

    def __init__(self, size: int):
        self.size = size
        self.items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        return None

    def put(self, key, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_CACHE = _Cache(CACHE_SIZE)


def _check_nodes(nodes: Any) -> int:
    if isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= 10**10:
        raise LimitError(BOARD_NODES(got=Quote(nodes)), "nodes")
    return nodes


#: a streamed exact solve first reports what it proved within these
#: shares of its budget (a quarter of it spent again at most: each stopped
#: solve starts afresh, ``solver.dd.solve.solve_within``)
STREAM_SHARES = (256, 64, 16, 4)
#: no report from a budget below this many nodes (a few milliseconds)
STREAM_MIN_NODES = 20_000


def exact_values(state: State, nodes: int, stop=None,
                 progress: Callable | None = None, kind: str | None = None
                 ) -> dict[str, Any] | None:
    """The double-dummy values of a complete ``state`` for the seat to
    move, in the game's deal-result unit, within ``nodes``: ``finished``
    says whether the solve ended within the budget (if not: what it
    proved, ``bots.exact.bracket_doc``, in the same unit:
    ``bots.exact.result_brackets``); None where no solver
    takes the position (an auction, a contract choice, a game whose rules
    the solvers do not cover there).  ``progress``: first solve within
    shares of the budget (``STREAM_SHARES``) and report each one's
    brackets as ``{"exact": ...}``, each within the one before (both are
    proved), the last answer's too."""
    seat = state.current_player()
    proved: dict | None = None
    doc: dict[str, Any] = {}
    budgets = [nodes // share for share in STREAM_SHARES if nodes // share >= STREAM_MIN_NODES]
    for budget in (budgets if progress is not None else []) + [nodes]:
        if stop is not None and stop.is_set():
            return {"finished": False, "nodes": 0, "stopped": True}
        try:
            ex = exacts.exact(state, seat, max_nodes=budget, kind=kind)
        except SearchAborted as exc:
            # in the unit of the finished values shown beside them
            brackets, span = exacts.result_brackets(state, seat, exc.brackets, exc.span)
            proved = _within(proved, brackets)
            doc = {"finished": False, "seat": seat, "nodes": exc.nodes, "budget": budget,
                   "unit": state.game.round_unit, **exacts.bracket_doc(state, proved, span)}
            if budget < nodes and progress is not None:
                progress({"exact": doc})
            continue
        except (UnsupportedPositionError, DixtrixError):
            return None
        values = {a: exacts.number(v) for a, v in ex.values.items()}
        ranking = sorted(values, key=lambda a: (-values[a],
                                                state.tie_key(state.string_to_action(a))))
        return {"finished": True, "seat": seat, "value": exacts.number(ex.value),
                "values": values, "ranking": ranking, "best": list(ex.best),
                "kind": ex.solution.kind, "nodes": ex.nodes, "budget": nodes,
                "unit": state.game.round_unit}
    return doc


def _within(before: dict | None, now) -> dict | None:
    """Each action's bracket within both (each is proved, so is their
    intersection)."""
    if now is None or before is None:
        return dict(now) if now is not None else before
    return {a: (max(lo, before[a][0]), min(hi, before[a][1])) if a in before else (lo, hi)
            for a, (lo, hi) in now.items()}


def analyse(board: Board, at: int, variation: Sequence[str] = (), *,
            limit: Limit | None = None, seed: int = 0, nodes: int = DEFAULT_NODES,
            bot: str = "ismcts", stop=None, progress: Callable | None = None,
            inference: bool | None = None, kind: str | None = None) -> dict[str, Any]:
    """Every legal action's value at a step, for the seat to move (see the
    module docstring): ``legal`` (the mover's actions), ``search``
    (``bots.advice.advise``'s document from the mover's view) and
    ``exact`` (a record's double-dummy values, ``exact_values``).  A
    finished game, or chance to move, has no values; nor has another
    seat than a view board's own (``hidden``: its cards, hence its legal
    actions, are not known: no ``legal``, ``search`` None).  ``kind``: the
    kind of exact value asked (``exact_values``).  Cached per step, limit,
    seed, budget and kind (a search cut short by ``stop`` is not kept)."""
    nodes = _check_nodes(nodes)
    kind = check_kind(kind)
    limit = limit if limit is not None else Limit(time=1.0)
    key = (board.key, at, tuple(variation), json.dumps(limit.to_dict(), sort_keys=True),
           seed, nodes, bot, inference, kind)
    got = _CACHE.get(key)
    if got is not None:
        return dict(got, cached=True)
    state = board.state_at(at, variation)
    out: dict[str, Any] = {"at": at, "variation": list(variation), "over": state.is_terminal(),
                           "seat": None, "search": None, "exact": None, "cached": False}
    if state.is_terminal():
        out["returns"] = [float(v) for v in state.returns()]
        _CACHE.put(key, out)
        return out
    mover = state.current_player()
    out["seat"] = mover
    if board.seat is not None and mover != board.seat:
        # another seat of a view board: its legal actions would be the
        # drawn world's hand, which the view does not know (issue #51), so
        # its moves are unknown and nothing is valued
        out["hidden"] = True
        _CACHE.put(key, out)
        return out
    out["hidden"] = False
    out["legal"] = [state.action_to_string(a) for a in state.legal_actions()]
    if board.kind == "record":
        # the true deal first: a late step finishes at once, and its answer
        # is worth showing while the search runs
        out["exact"] = exact_values(state, nodes, stop, progress, kind)
        if progress is not None:
            progress({"exact": out["exact"]})
    view = positions.SeatView.of(state, mover)
    out["search"] = advise(view, "analysis", bot=bot, limit=limit, seed=seed, stop=stop,
                           progress=progress, line=False, inference=inference)
    searched_exact = (out["search"] or {}).get("exact")
    if searched_exact is not None:
        # the decision service solves a view that determines the deal with
        # the game's own kind of value (solver/search/service.py): say which
        searched_exact.setdefault("kind", kind_asked(state))
    stopped = (out["search"] or {}).get("search", {}).get("stopped") or \
        (out["exact"] or {}).get("stopped")
    if not stopped:
        _CACHE.put(key, out)
    return out


def continuation(board: Board, at: int, variation: Sequence[str] = (), *, plies: int = 12,
                 nodes: int = DEFAULT_NODES, seed: int = 0, limit: Limit | None = None,
                 stop=None, kind: str | None = None) -> list[dict[str, Any]]:
    """The engine's suggested line from a step: ``plies`` actions at most,
    each ``{"seat", "action", "value", "exact", "kind"}``; the exact line
    of the true deal (its values of ``kind``, ``exact_values``) while the
    solver finishes within ``nodes`` a step, else the advice from the
    mover's view (``limit``, default 0.2 s a step; ``kind`` None, or the
    game's own where that advice is exact).  A view board continues only
    while its own seat is to move."""
    kind = check_kind(kind)
    if isinstance(plies, bool) or not isinstance(plies, int) or not 1 <= plies <= MAX_PLIES:
        raise LimitError(BOARD_PLIES(most=MAX_PLIES, got=Quote(plies)), "plies")
    nodes = _check_nodes(nodes)
    limit = limit if limit is not None else Limit(time=0.2)
    state = board.state_at(at, variation)
    out: list[dict[str, Any]] = []
    while len(out) < plies and not state.is_terminal():
        if stop is not None and stop.is_set():
            break
        mover = state.current_player()
        if board.seat is not None and mover != board.seat:
            break
        step: dict[str, Any] | None = None
        if board.kind == "record":
            ex = exact_values(state, nodes, stop, kind=kind)
            if ex is not None and ex["finished"]:
                best = ex["ranking"][0]
                step = {"seat": mover, "action": best, "value": ex["values"][best],
                        "exact": True, "kind": ex["kind"]}
        if step is None:
            res = best_move(positions.SeatView.of(state, mover), limit, seed=seed, stop=stop)
            step = {"seat": mover, "action": res.action,
                    "value": res.values.get(res.action), "exact": res.bot == "exact",
                    "kind": kind_asked(state) if res.bot == "exact" else None}
        out.append(step)
        state.apply_action(state.string_to_action(step["action"]))
    return out


__all__ = ["Board", "Move", "analyse", "continuation", "drawn", "exact_values", "layout_rows",
           "DEFAULT_NODES", "MAX_VARIATION", "MAX_PLIES", "CACHE_SIZE"]
