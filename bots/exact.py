"""Exact values of a complete position in the game's deal-result units,
the best actions and the expected line of play, all from one set of values.

The double-dummy solver (``solver.dd.solve``) values a position by its own
objective: the dix solver orders a round lexicographically (the score
difference, then the ten-tricks of the tie-break, then the last trick),
dixie-rook counts the points a team captures.  What a player is judged by
is the deal's result (``round_returns``); the game's search support
(``solver.search.support.GameSupport.exact_values``) turns a solution into
that unit, and the decision service advises from the same values where the
view determines the deal.  So ``dixtrix solve``, the hint's expected line
and the game review all read the values from here, and the best actions,
the ``best_actions`` a program reads and the first step of the line are the
same actions by construction: in dix, a card that wins the round by the
same score as the solver's first choice is as good, whatever the
ten-tricks of a tie-break that is not needed.

Ties go by the game's one rule among equal actions (``State.tie_key``), as
the decision service's exact advice does (``solver.search.advice.decide_exact``).
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.dd import Solution, solve
from solver.dd.session import default_solver
from solver.dd.solution import bracket_words
from solver.dd.solve import kind_asked, line_with
from solver.dd.trick import check_tt_mb as dd_check_tt_mb
from solver.errors import SearchAborted
from solver.search.support import support_for


@dataclass(frozen=True)
class Exact:
    """One exact solve for ``seat``: ``value`` (the position's) and
    ``values`` (each legal action's, canonical notation, in the game's
    order) in the game's deal-result unit; ``best``: the actions of the
    best value, first the one the game's rule among equal actions plays
    (``State.tie_key``); ``solution``: the solver's own answer
    (its objective, nodes, time)."""

    seat: int
    value: float
    values: dict
    best: tuple
    solution: Solution

    @property
    def nodes(self) -> int:
        return self.solution.nodes


def number(v):
    """A value as JSON shows it: whole numbers as integers."""
    f = float(v)
    return int(f) if f.is_integer() else f


def exact(state, seat: int | None = None, max_nodes: int | None = None, tt_mb: int = 64,
          solver=None, kind: str | None = None) -> Exact:
    """The exact values of ``state`` (a complete ``State``) for ``seat``
    (default: the seat to move) in the game's deal-result unit.  Raises
    ``UnsupportedPositionError`` where no solver takes the position and
    ``SearchAborted`` past ``max_nodes``.  ``solver``: a
    ``solver.dd.Solver`` whose tables to solve on (kept from its earlier
    solves: the positions of one deal share what they proved); default
    the module-level session (``solver.dd.solve``, ``tt_mb``).  ``kind``:
    the kind of value in a game of individual seats (``solver.dd.solve``;
    ``solution.kind`` says which it is)."""
    if seat is None:
        seat = state.current_player()
    if solver is None:
        sol = solve(state, seat=seat, tt_mb=tt_mb, max_nodes=max_nodes, kind=kind)
    else:
        sol = solver.solve(state, seat=seat, max_nodes=max_nodes, kind=kind)
    values = _values(state, seat, sol)
    top = max(values.values())
    # ties by the game's rule among equal actions, as the advice goes
    best = tuple(sorted((a for a in values if values[a] == top),
                        key=lambda a: state.tie_key(state.string_to_action(a))))
    return Exact(seat, float(support_for(state.game).exact_value(state, seat, sol)), values, best, sol)


def line(state, seat: int | None = None, plies: int = 8, max_nodes: int | None = None,
         total_nodes: int | None = None, stop=None, tt_mb: int = 64, first: Exact | None = None,
         kind: str | None = None) -> list[tuple]:
    """The expected line of play from ``state``: up to ``plies`` actions,
    ``seat``'s side (its partner too in a partnership game) taking the
    first of its best actions, the others the first of the actions worst
    for ``seat``, every value in the game's deal-result unit (``exact``).
    Returns ``[(seat to act, action, value for seat or None where the
    action was forced), ...]``; it stops at the end of the deal, where no
    solver takes the position, past ``total_nodes`` in all (each ply's
    solve bounded by ``max_nodes``) or when ``stop`` is set.  ``first``:
    the solve of ``state`` already made, so that the line starts with its
    first best action."""
    dd_check_tt_mb(tt_mb)
    return line_with(default_solver(tt_mb), state, seat, plies, max_nodes, total_nodes, stop,
                     values=_values, first=first.solution if first is not None else None)


def _values(state, seat: int, sol: Solution) -> dict[str, float]:
    """Each legal action's exact value in the game's deal-result unit, in
    the game's order (``exact``'s ``values``)."""
    by_id = support_for(state.game).exact_values(state, seat, sol)
    return {state.action_to_string(a): float(by_id[a]) for a in sorted(by_id)}


def solve_doc(state, plies: int = 8, max_nodes: int | None = None,
              line_nodes: int | None = None, stop=None, tt_mb: int = 64,
              kind: str | None = None) -> dict:
    """What ``dixtrix solve --json`` prints for a complete position: the
    seat to move, every legal action's exact value in the game's unit
    (``action_values``, the best first), ``best_actions`` (every action of
    the best value, the game's rule among equal actions first), the expected line (its first
    action is ``best_actions[0]``), and the solver's own objective and
    values beside them (``solver_value``, ``solver_action_values``; the
    objective in English and as a code, ``objective_code``), and
    ``kind``: which value it is (``solver.dd.KINDS``: minimax, paranoid or
    max^n; ``kind`` asks for one in a game of individual seats).
    ``SearchAborted`` past ``max_nodes`` (``unfinished_doc`` says what
    the solve proved)."""
    ex = exact(state, None, max_nodes, tt_mb, kind=kind)
    sol = ex.solution
    steps = line(state, ex.seat, plies, max_nodes, line_nodes, stop, tt_mb, first=ex, kind=kind)
    ranking = sorted(ex.values, key=lambda a: (-ex.values[a],
                                               state.tie_key(state.string_to_action(a))))
    doc = {"game": state.game.name, "seat": ex.seat, "unit": state.game.round_unit,
           "finished": True, "value": number(ex.value),
           "action_values": {a: number(ex.values[a]) for a in ranking},
           "best_actions": list(ex.best), "objective": sol.objective, "kind": sol.kind,
           "solver_value": sol.value, "solver_action_values": dict(sol.action_values),
           "nodes": sol.nodes, "time": sol.time,
           "line": [{"seat": s, "action": a, "value": None if v is None else number(v)}
                    for s, a, v in steps]}
    if sol.objective_said is not None:
        # the objective as a code beside its English (a face words it in
        # its reader's language: bots/server/words.py ``solution``)
        doc["objective_code"] = sol.objective_said.to_json()
    if sol.round_winner is not None:
        doc["round_winner"] = sol.round_winner
        doc["round_winners"] = dict(sol.action_winners or {})
    return doc


def unfinished_doc(state, exc: SearchAborted) -> dict:
    """What ``dixtrix solve --json`` prints where the solve passed its
    bound (``exc``): the seat to move, ``finished`` False, the ``nodes``
    searched and what the solve proved (``bracket_doc``)."""
    return {"game": state.game.name, "seat": state.current_player(),
            "unit": state.game.round_unit, "finished": False, "nodes": exc.nodes,
            **bracket_doc(state, exc.brackets, exc.span)}


def bracket_doc(state, brackets, span) -> dict:
    """What an unfinished exact solve proved, as every face's JSON
    (``dixtrix solve --json``, the hint, the analysis board): ``kind``
    (which value: ``solver.dd.KINDS``), ``span`` (the game's own range of
    it from here, or None), ``brackets`` (each legal action -> ``[lo,
    hi]``, the solver's value of the action proved to lie in it; the
    solver's unit, ``solver.dd.Solution.value``'s) and ``words`` (each
    bracket in words, ``solver.dd.solution.bracket_words``).  No brackets
    where the solver proves none as it goes."""
    brackets = brackets or {}
    return {"kind": kind_asked(state),
            "span": [number(v) for v in span] if span is not None else None,
            "brackets": {a: [number(lo), number(hi)] for a, (lo, hi) in brackets.items()},
            "words": {a: bracket_words(lo, hi, span) for a, (lo, hi) in brackets.items()}}


def result_brackets(state, seat: int, brackets, span) -> tuple[dict | None, tuple | None]:
    """An unfinished solve's ``brackets`` and ``span`` (the solver's value,
    ``SearchAborted``'s) in the game's deal-result unit, as ``exact``'s
    values are (``GameSupport.exact_bracket``): a face that shows finished
    values in that unit shows a bracket beside them in it too (dix: a
    difference of 0 is a round won or lost by the tie-break, +-0.5;
    dixie-rook: the points captured scored as the bid made or set)."""
    support = support_for(state.game)
    out = None if brackets is None else {
        a: support.exact_bracket(state, seat, lo, hi) for a, (lo, hi) in brackets.items()}
    return out, None if span is None else support.exact_bracket(state, seat, *span)


__all__ = ["Exact", "exact", "line", "solve_doc", "number", "bracket_doc", "unfinished_doc",
           "result_brackets"]
