"""A double-dummy solver that lives across calls (``Solver``): its
transposition tables outlast a solve.

One deal is rarely solved once: a hint session or a game review solves
its successive positions, a bridge table every strain and leader, a PIMC
decision dozens of worlds that differ only in where the unseen cards lie.
The kernels' table entries are bounds proved under one rule table, and
every entry's key carries that rule table's fingerprint
(``solver.dd.trick.fingerprint``, csrc/dd/ddtable.pxd, csrc/dd/dixtable.pxd):

* the rule tables cover every card of the deal (``trick.deck_cards``), so a
  deal has one rule table from its first card to its last, and so do all
  the worlds of a PIMC decision (the same cards, dealt differently);
* an entry is found only by a position with the same key (the exact
  hands; relative ranks with the penalty cards' classes; or, winning
  ranks, the owners of the cards whose ranks decided it and the hand
  lengths) under the same rules, and any such position has the value the
  entry bounds: whatever deal, world or earlier position wrote it;
* two-team contracts whose points add up to a constant
  (``trick.constant_sum``: bridge, dixie-rook, trix partnerships, dix) are
  solved for one canonical team (seat 0's) and the other team's values
  derived (``trick.other_value``), so every leader and side of a deal
  shares the same entries (DDS keeps its bounds for North-South likewise).

So keeping a table is sound by construction, whatever is solved next.  A
table starts afresh (a new generation: every entry invisible, O(1)) when
a ``Solver`` first uses a kernel or when another session used it in
between (so a ``Solver``'s answers and node counts depend only on its own
calls: a seed still fixes every search), on ``clear()``, when its layout
changes (winning-ranks or exact keys), and, for the module-level
``solve`` / ``solve_position`` / ``solve_dix`` (the default session), when
a position is not a later position of the deal solved before or the
search before it stopped at its node limit (as it always was: a re-solve
or the next card keeps the table).

A ``Solver`` shares the process's kernels (one table per build and size,
``trick.kernel_for`` / ``dix.solver_for``) unless made ``private`` (its
own tables: for a thread of its own).  One solve at a time runs on a
kernel (a lock each); the search itself runs without the GIL.
"""

from __future__ import annotations

import itertools
import threading
import time
from contextlib import contextmanager
from types import MappingProxyType

from ..cards import JOKER, cards_of
from ..errors import NAMED_SEAT, PositionError, SearchAborted, UnsupportedPositionError
from ..front import N_
from ..reference.dd_oracle import maxn_prefers, solve_oracle
from ..said import Quote, phrase
from . import defaults, dix
from . import trick as dd
from .dix import NOT_DIX_POSITION, is_dix_position, solver_for
from .solve import line_with, solve_with
from .tables import bridge_table, contract_table
from .trick import (
    DEFAULT_TT_MB,
    DIX_SCALE,
    NO_TEAM,
    NOT_TRICK_POSITION,
    TWO_TEAMS_OBJECTIVE,
    UNKNOWN_OBJECTIVE,
    DDResult,
    TrickPosition,
    check_max_nodes,
    check_tt_mb,
)

# the errors raised here (solver/errors.py: a code and its parameters)
ENGINE_NAME = phrase("engine_name", N_("engine must be 'cython' or 'python', got {got}"))
DD_NODE_LIMIT = phrase("dd_node_limit", N_("double-dummy search stopped at its node limit "
                                           "({limit:,} nodes, {elapsed:.3f} s)"))
DD_NODE_LIMIT_NODES = phrase("dd_node_limit_nodes", N_("double-dummy search stopped at its node "
                                                       "limit ({limit:,} nodes)"))
MAXN_NODE_LIMIT = phrase("maxn_node_limit", N_("the max^n search stopped at its node limit "
                                               "({limit:,} nodes, {elapsed:.3f} s)"))
VALUE_RANGE = phrase("value_range", N_("values up to {bound} exceed the table's range ({top})"))
DIX_NODE_LIMIT = phrase("dix_node_limit", N_("the dix solve stopped at its node limit "
                                             "(max_nodes={max_nodes}) before an answer"))
ORACLE_CARDS = phrase("oracle_cards", N_(
    "DIXTRIX_PUREPYTHON=1: the pure-Python oracle solves at most {top} cards left, this "
    "position has {left}; unset DIXTRIX_PUREPYTHON to use the Cython kernel"))

#: the default session's token; every ``Solver`` draws its own
_DEFAULT_TOKEN = 0
_TOKENS = itertools.count(1)


class _Holder:
    """A kernel (one table), its lock and who used its table last."""

    __slots__ = ("kernel", "lock", "owner", "deal")

    def __init__(self, kernel):
        self.kernel = kernel
        self.lock = threading.Lock()
        self.owner = None       # the token of the session whose table it holds
        self.deal = None        # the default session: each seat's cards of the last deal


#: the process's kernels' holders, by (engine, id of the kernel)
_SHARED: dict = {}
_SHARED_LOCK = threading.Lock()


def _shared_holder(engine: str, kernel) -> _Holder:
    key = (engine, id(kernel))
    with _SHARED_LOCK:
        h = _SHARED.get(key)
        if h is None or h.kernel is not kernel:
            for old in [k for k in _SHARED if k[0] == engine and _SHARED[k].kernel is not kernel
                        and not _alive(engine, _SHARED[k].kernel)]:
                del _SHARED[old]
            h = _SHARED[key] = _Holder(kernel)
        return h


def _alive(engine: str, kernel) -> bool:
    """Whether ``kernel`` is still one of the process's cached kernels."""
    cache = dd._KERNELS if engine == "dd" else dix._SOLVERS
    return any(v[1] is kernel for v in cache.values())


def _continues(before, now) -> bool:
    """Whether each seat's cards ``now`` are among its cards ``before``:
    ``now`` is a later position of the same deal (or the same one)."""
    return (before is not None and len(before) == len(now)
            and all(n & ~b == 0 for b, n in zip(before, now, strict=True)))


def _seat_cards(hands, leader: int, trick) -> tuple:
    """Each seat's cards, its hand and its card on the table."""
    out = list(hands)
    for i, c in enumerate(trick):
        out[(leader + i) % len(out)] |= 1 << c
    return tuple(out)


class Solver:
    """Exact double-dummy values through tables that outlive a solve.

    ``Solver(tt_mb=64)`` keeps its tables from one call to the next, on
    any position (module docstring: why that is sound).  ``private=True``
    gives it tables of its own instead of the process's; ``close()`` (or
    leaving a ``with`` block) hands them back.  Not thread-safe: one
    ``Solver`` per thread.

    * ``solve(position_or_state, seat=None)``: ``solver.dd.solve``'s answer
      (every legal action's value, a ``Solution``);
    * ``solve_position(pos, max_team=None, objective="own")``: every legal
      card of a ``TrickPosition`` (a ``DDResult``); ``value(...)`` the
      position's value alone (cheaper: one null-window driver);
    * ``solve_dix(pos, seat=None)``: the dix solver (``solver.dd.dix``);
    * ``bridge_table(hands)``: every strain and declarer (DDS's
      ``CalcDDtable``); ``contract_table(state)``: every contract of a
      hand at a choice of contracts from trick 1 (the table its game
      declares);
    * ``principal_line(...)``: the expected line of play, one table for
      the whole line.
    """

    def __init__(self, tt_mb=DEFAULT_TT_MB, private: bool = False, *, _follow_deal=False):
        self.tt_mb = check_tt_mb(tt_mb)
        self.private = bool(private)
        self._token = _DEFAULT_TOKEN if _follow_deal else next(_TOKENS)
        self._follow_deal = _follow_deal
        self._own: dict = {}            # private: engine -> _Holder
        self.nodes = 0                  # every node searched by this solver

    # ------------------------------------------------------------------
    # kernels

    def _holder(self, engine: str) -> _Holder:
        if self.private:
            h = self._own.get(engine)
            if h is None:
                h = self._own[engine] = _Holder(self._allocate(engine))
            return h
        if engine == "dd":
            return _shared_holder(engine, dd.kernel_for(self.tt_mb))
        return _shared_holder(engine, solver_for(self.tt_mb))

    def _allocate(self, engine: str):
        if engine == "dd":
            if dd.probing_now():
                # each build is loaded when first asked for: a checkout without the
                # build (DIXTRIX_PUREPYTHON) imports this module too
                from . import _ddprobe
                return dd.allocate(_ddprobe.ProbeKernel, _ddprobe.BUCKET_BYTES, self.tt_mb)
            # the kernel's build, loaded when first asked for (as above)
            from . import _dd
            return dd.allocate(_dd.Kernel, _dd.BUCKET_BYTES, self.tt_mb)
        if dd.probing_now():
            # the counting build, loaded when first asked for (as above)
            from . import _dixprobe
            return dd.allocate(_dixprobe.ProbeDixSolver, _dixprobe.BUCKET_BYTES, self.tt_mb)
        # the kernel's build, loaded when first asked for (as above)
        from . import _dixdd
        return dd.allocate(_dixdd.DixSolver, _dixdd.BUCKET_BYTES, self.tt_mb)

    @contextmanager
    def _kernel(self, engine: str, deal: tuple, probe_options=None):
        """The engine's kernel, locked, its table this session's: afresh
        when another session used it last, when its ``keep_table`` is off
        and, for the default session, when ``deal`` (each seat's cards) is
        not a later position of the deal before or the last search stopped
        at its node limit (so its answers and node counts are those of a
        first solve, as they always were)."""
        h = self._holder(engine)
        if probe_options:
            h = _shared_holder(engine, solver_for(self.tt_mb, probe=True))
        with h.lock:
            k = h.kernel
            if (h.owner != self._token or not k.keep_table
                    or (self._follow_deal and (k.aborted or not _continues(h.deal, deal)))):
                k.new_table()
                h.owner = self._token
                h.deal = deal
            yield k

    def clear(self) -> None:
        """Start every table of this solver afresh (a first solve again)."""
        for engine in ("dd", "dix"):
            if self.private and engine not in self._own:
                continue
            h = self._holder(engine)
            with h.lock:
                if h.owner == self._token:
                    h.kernel.new_table()
                    h.deal = None

    def close(self) -> None:
        """Hand the private tables back (the memory is freed)."""
        self._own.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ------------------------------------------------------------------
    # trick positions: the generic kernel

    def _prepare(self, pos, max_team, objective, engine):
        if not isinstance(pos, TrickPosition):
            raise PositionError(NOT_TRICK_POSITION(got=Quote(pos)))
        if max_team is None:
            max_team = pos.contract.teams[pos.seat_to_play]
        if objective not in dd.OBJECTIVES:
            raise PositionError(UNKNOWN_OBJECTIVE(objective=Quote(objective),
                                                  known=list(dd.OBJECTIVES)))
        if max_team not in pos.contract.team_ids:
            raise PositionError(NO_TEAM(team=Quote(max_team), contract=pos.contract.name))
        if objective in dd.DIFFERENCE_OBJECTIVES and len(pos.contract.team_ids) != 2:
            raise PositionError(TWO_TEAMS_OBJECTIVE(contract=pos.contract.name,
                                                    n=len(pos.contract.team_ids)))
        if engine is None:
            engine = "python" if dd.pure_python() else "cython"
        if engine not in ("cython", "python"):
            raise PositionError(ENGINE_NAME(got=Quote(engine)))
        return max_team, engine

    def solve_position(self, pos: TrickPosition, max_team=None, objective: str = "own",
                       max_nodes: int | None = None, engine: str | None = None) -> DDResult:
        """Value of every legal card of ``pos`` for ``max_team`` (default:
        the team of the seat to play) under ``objective`` (as
        ``solver.dd.trick.solve_position``)."""
        max_team, engine = self._prepare(pos, max_team, objective, engine)
        limit = check_max_nodes(max_nodes)
        if engine == "python":
            return _oracle(pos, max_team, objective)
        run_team, flip, table, offset, unit, bound, deal = self._rule_table(pos, max_team, objective)
        with self._kernel("dd", deal) as kern:
            t0 = time.perf_counter()
            kern.load(table, list(pos.hands), pos.leader, list(pos.trick), pos.tricks_left,
                      pos.tricks[pos.contract.team_ids.index(run_team)])
            kern.node_limit = limit
            try:
                future = kern.solve_actions(-bound, bound)
            finally:
                kern.node_limit = 0
            elapsed = time.perf_counter() - t0
            nodes = kern.nodes
            aborted = kern.aborted
            proved = kern.brackets
        self.nodes += nodes
        if aborted:
            span = dd.value_range(pos, max_team, objective)
            brackets = {}
            for c, (lo, hi) in sorted(proved.items()):
                ends = sorted((unit * lo + offset, unit * hi + offset))
                if flip:
                    ends = sorted(dd.other_value(pos, objective, v) for v in ends)
                brackets[c] = dd.clip_bracket(ends[0], ends[1], span)
            raise SearchAborted(DD_NODE_LIMIT(limit=limit, elapsed=elapsed), nodes,
                                MappingProxyType(brackets), span)
        values = {c: unit * v + offset for c, v in sorted(future.items())}
        if flip:
            values = {c: dd.other_value(pos, objective, v) for c, v in values.items()}
        maximizing = pos.contract.teams[pos.seat_to_play] == max_team
        best = max(values.values()) if maximizing else min(values.values())
        return DDResult(best, MappingProxyType(values), nodes, elapsed, "cython", maximizing)

    def value(self, pos: TrickPosition, max_team=None, objective: str = "own",
              max_nodes: int | None = None, guess: int | None = None) -> int:
        """The value of ``pos`` alone for ``max_team`` (what is already won
        included): one null-window driver from the root instead of one per
        card (``solve_position``); ``guess`` (a value for ``max_team``) is
        its first question."""
        max_team, engine = self._prepare(pos, max_team, objective, None)
        limit = check_max_nodes(max_nodes)
        if engine == "python":
            return _oracle(pos, max_team, objective).value
        run_team, flip, table, offset, unit, bound, deal = self._rule_table(pos, max_team, objective)
        with self._kernel("dd", deal) as kern:
            kern.load(table, list(pos.hands), pos.leader, list(pos.trick), pos.tricks_left,
                      pos.tricks[pos.contract.team_ids.index(run_team)])
            if guess is not None:
                if flip:
                    guess = dd.other_value(pos, objective, guess)
                guess = (guess - offset) // unit
            kern.node_limit = limit
            try:
                future = kern.solve_value(-bound, bound, guess)
            finally:
                kern.node_limit = 0
            nodes = kern.nodes
            aborted = kern.aborted
        self.nodes += nodes
        if aborted:
            raise SearchAborted(DD_NODE_LIMIT_NODES(limit=limit), nodes)
        v = unit * future + offset
        return dd.other_value(pos, objective, v) if flip else v

    def solve_maxn(self, pos: TrickPosition, seat: int | None = None,
                   max_nodes: int | None = None) -> dd.MaxnResult:
        """The max^n value of ``pos`` (a contract of four individual seats:
        trix, tricks without partners), every seat playing for its own
        score, ties against ``seat`` (default: the seat to play), for every
        legal card (a ``MaxnResult``).  csrc/dd/ddmaxn.pxd says how; its
        search is exhaustive but for the table, so ``max_nodes`` bounds it
        (``SearchAborted`` past it)."""
        if not isinstance(pos, TrickPosition):
            raise PositionError(NOT_TRICK_POSITION(got=Quote(pos)))
        if seat is None:
            seat = pos.seat_to_play
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < pos.contract.nseats:
            raise PositionError(NAMED_SEAT(name="seat", top=pos.contract.nseats - 1,
                                           got=Quote(seat)))
        limit = check_max_nodes(max_nodes)
        table, mx, unit = _maxn_tables(pos)
        deal = _seat_cards(pos.hands, pos.leader, pos.trick)
        with self._kernel("dd", deal) as kern:
            t0 = time.perf_counter()
            kern.load(table, list(pos.hands), pos.leader, list(pos.trick), pos.tricks_left, 0)
            kern.load_maxn(mx, seat)
            kern.node_limit = limit
            try:
                future = kern.maxn_actions()
            finally:
                kern.node_limit = 0
            elapsed = time.perf_counter() - t0
            nodes = kern.nodes
            aborted = kern.aborted
        self.nodes += nodes
        if aborted:
            raise SearchAborted(MAXN_NODE_LIMIT(limit=limit, elapsed=elapsed), nodes)
        won = pos.points
        vectors = {c: tuple(w + unit * v for w, v in zip(won, vec, strict=True))
                   for c, vec in sorted(future.items())}
        mover = pos.seat_to_play
        choice = None
        for c, v in vectors.items():
            if choice is None or maxn_prefers(mover, seat, v, vectors[choice]):
                choice = c
        assert choice is not None
        values = {c: v[seat] for c, v in vectors.items()}
        return dd.MaxnResult(seat, values[choice], choice, MappingProxyType(values),
                             MappingProxyType(vectors), nodes, elapsed)

    def _rule_table(self, pos: TrickPosition, max_team, objective: str):
        """What the generic kernel is loaded with for ``pos``: ``(the team it
        maximises, whether the answer is the other team's, the rule table,
        its offset and unit, the bound of its values, each seat's cards)``;
        ``LimitError`` if the values exceed the table's range."""
        run_team, flip = self._orientation(pos, max_team, objective)
        table, offset, unit = dd.unit_table(pos, run_team, objective)
        bound = dd.value_bound(table, pos)
        if bound > dd.VALUE_LIMIT:
            raise dd.LimitError(VALUE_RANGE(bound=bound, top=dd.VALUE_LIMIT))
        return run_team, flip, table, offset, unit, bound, _seat_cards(pos.hands, pos.leader, pos.trick)

    @staticmethod
    def _orientation(pos: TrickPosition, max_team, objective: str):
        """(the team the kernel maximises, whether the answer is the other
        team's): the canonical team of a ``constant_sum`` contract."""
        k = pos.contract
        if dd.constant_sum(k, objective):
            canon = k.team_ids[0]
            return canon, max_team != canon
        return max_team, False

    # ------------------------------------------------------------------
    # dix: the two-seat solver

    def solve_dix(self, pos: TrickPosition, seat=None, max_nodes=None,
                  options: dict | None = None, tie_break: bool = True) -> DDResult:
        """The dix value (lexicographic, ``solver.dd.decode_dix``) of every
        legal card for ``seat`` (default: the seat to play), as
        ``solver.dd.dix.solve_dix``.  ``tie_break`` False: each card's
        round result only (its score difference, and who wins the round
        where the scores tie), each value the one that stands for it
        (``256 * difference +- 1``), at fewer nodes."""
        if not is_dix_position(pos):
            raise PositionError(NOT_DIX_POSITION())
        if seat is None:
            seat = pos.seat_to_play
        if seat not in (0, 1) or isinstance(seat, bool):
            raise PositionError(NAMED_SEAT(name="seat", top=1, got=Quote(seat)))
        limit = check_max_nodes(max_nodes)
        k = pos.contract
        joker_slot = -1
        if k.joker_rank is not None:
            joker_slot = k.trump * 16 + k.joker_rank

        def slot(c: int) -> int:
            return joker_slot if c == JOKER else c

        def slots(mask: int) -> int:
            out = 0
            for c in cards_of(mask):
                out |= 1 << slot(c)
            return out

        mover = pos.seat_to_play
        lead = slot(pos.trick[0]) if pos.trick else -1
        deal = _seat_cards(pos.hands, pos.leader, pos.trick)
        switches = {n: v for n, v in (options or {}).items() if n != "keep_table"}
        opp = 1 - seat
        offset = (DIX_SCALE * (pos.points[seat] - pos.points[opp])
                  + 4 * (pos.tens[opp] - pos.tens[seat]))
        sign = 1 if mover == seat else -1
        with self._kernel("dix", deal, probe_options=switches) as sol:
            saved = {name: getattr(sol, name) for name in (options or {})}
            for name, value in (options or {}).items():
                setattr(sol, name, value)
            try:
                if not sol.keep_table:
                    sol.new_table()
                t0 = time.perf_counter()
                sol.load(slots(pos.hands[0]), slots(pos.hands[1]), k.trump, joker_slot, mover,
                         lead)
                future = sol.solve_all(limit, tie_break, sign * offset)
                elapsed = time.perf_counter() - t0
                nodes = sol.nodes
                proved = sol.brackets
            finally:
                for name, value in saved.items():
                    setattr(sol, name, value)
        self.nodes += nodes
        card_of = {slot(c): c for c in cards_of(pos.hands[mover])}
        if future is None:
            span = dd.value_range(pos, seat, dd.DIX_OBJECTIVE)
            brackets = {}
            for s, (lo, hi) in proved.items():
                ends = sorted(sign * v + offset for v in (lo, hi))
                brackets[card_of[s]] = dd.clip_bracket(ends[0], ends[1], span)
            raise SearchAborted(DIX_NODE_LIMIT(max_nodes=max_nodes), nodes,
                                MappingProxyType(dict(sorted(brackets.items()))), span)
        values = {card_of[s]: sign * v + offset for s, v in future.items()}
        values = dict(sorted(values.items()))
        maximizing = mover == seat
        best = max(values.values()) if maximizing else min(values.values())
        return DDResult(best, MappingProxyType(values), nodes, elapsed, "cython", maximizing)

    # ------------------------------------------------------------------
    # games and tables (solver.dd.solve, solver.dd.tables)

    def solve(self, position_or_state, seat: int | None = None,
              max_nodes: int | None = None, kind: str | None = None,
              tie_break: bool | None = None):
        """The exact value of a perfect-information position for ``seat``
        (default: the seat to act) and of every legal action: a
        ``solver.dd.Solution``, as ``solver.dd.solve`` (``kind``: the
        kind of value in a game of individual seats; ``tie_break``: dix's
        whole lexicographic value)."""
        return solve_with(self, position_or_state, seat, max_nodes, kind, tie_break)

    def principal_line(self, position_or_state, seat: int | None = None, plies: int = 8,
                       max_nodes: int | None = None, total_nodes: int | None = None,
                       stop=None, kind: str | None = None) -> list[tuple]:
        """The expected line of play (``solver.dd.solve.principal_line``),
        every ply's solve on this solver's tables."""
        return line_with(self, position_or_state, seat, plies, max_nodes, total_nodes, stop,
                         kind=kind)

    def bridge_table(self, hands, max_nodes: int | None = None):
        """Every strain and declarer of a bridge deal in one call (DDS's
        ``CalcDDtable``): ``solver.dd.tables.bridge_table``."""
        return bridge_table(hands, max_nodes, solver=self)

    def contract_table(self, state, seats=None, max_nodes: int | None = None,
                       contracts=None):
        """Every contract of a hand at a choice of contracts from trick 1:
        ``solver.dd.tables.contract_table``."""
        return contract_table(state, seats, max_nodes, solver=self, contracts=contracts)


def _maxn_tables(pos: TrickPosition):
    """``trick.maxn_tables`` of ``pos``, remembered for the last deals (the
    tables depend only on the contract and the deal's tricks)."""
    key = (dd._contract_key(pos.contract), dd.total_tricks(pos))
    with _MAXN_LOCK:
        hit = _MAXN.get(key)
    if hit is None:
        hit = dd.maxn_tables(pos)
        with _MAXN_LOCK:
            while len(_MAXN) >= 64:
                _MAXN.pop(next(iter(_MAXN)))
            _MAXN[key] = hit
    return hit


_MAXN: dict = {}
_MAXN_LOCK = threading.Lock()


def _oracle(pos: TrickPosition, max_team, objective: str) -> DDResult:
    """The pure-Python oracle (plain minimax) for small positions."""
    left = sum(bin(h).count("1") for h in pos.hands)
    if left > dd.ORACLE_MAX_CARDS:
        raise UnsupportedPositionError(ORACLE_CARDS(top=dd.ORACLE_MAX_CARDS, left=left))
    t0 = time.perf_counter()
    value, values, nodes = solve_oracle(pos, max_team, objective)
    return DDResult(value, MappingProxyType(values), nodes, time.perf_counter() - t0,
                    "python", pos.contract.teams[pos.seat_to_play] == max_team)


#: the default sessions of the module-level functions, by table size
_DEFAULTS: dict = {}
_DEFAULTS_LOCK = threading.Lock()


def default_solver(tt_mb=DEFAULT_TT_MB) -> Solver:
    """The session of ``solver.dd.solve`` and the module-level solve
    functions: the process's tables, kept while the same deal goes on."""
    mb = check_tt_mb(tt_mb)
    with _DEFAULTS_LOCK:
        s = _DEFAULTS.get(mb)
        if s is None:
            s = _DEFAULTS[mb] = Solver(mb, _follow_deal=True)
        return s


# the module-level solve functions below this module run on these sessions
# (solver/dd/defaults.py says why they are installed rather than imported)
defaults.install(default_solver, Solver)

__all__ = ["Solver", "default_solver"]
