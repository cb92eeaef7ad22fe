"""The answer of ``solver.dd.solve``: a ``Solution``, a small frozen
dataclass, so a caller reads named fields and cannot change an answer
that a cache may share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..front import N_
from ..said import Said

#: the kinds of value an objective names, in words (a ``Word`` parameter
#: of the objectives' phrases, ``Solution.objective_said``; the solver's
#: ``kind`` itself stays a code)
KIND_WORDS = {"minimax": N_("team minimax"), "paranoid": N_("paranoid"), "maxn": N_("max^n")}


@dataclass(frozen=True)
class Solution:
    """Exact values for ``seat`` (higher is better for it).

    ``value``: the position's value under best play by everyone;
    ``action_values``: the value after each legal action (canonical
    notation), EVERY legal action listed; ``best_actions``: the actions
    reaching ``value``, the one the game's rule among equal actions plays
    first (``State.tie_key``; :func:`best_in_tie_order`); ``nodes`` searched and ``time`` (s); ``objective``
    names what ``value`` measures (docs/solver.md), in English, and
    ``objective_said`` says the same as a code with its parameters
    (``solver.said``: the contract by the game's own title, the seat by
    its number), which a face words in its reader's language.

    dix: ``value`` is the seat's round score minus the opponent's at the
    end of the round (already-won tricks included); ``round_winner`` the
    seat that wins the round under best play (tie-breaks applied: fewer
    ten-tricks, then the last trick) and ``action_winners`` the same per
    action.  ``raw_value``/``raw_action_values`` are the kernel's
    lexicographic values (``solver.dd.decode_dix``), None unless the
    solve settled them (``solve(..., tie_break=True)``)."""

    value: int
    action_values: Mapping[str, int]
    nodes: int
    time: float
    seat: int
    objective: str
    best_actions: tuple[str, ...]
    engine: str = "cython"
    round_winner: int | None = None
    action_winners: Mapping[str, int] | None = None
    raw_value: int | None = None
    raw_action_values: Mapping[str, int] | None = None
    kind: str = "minimax"
    action_vectors: Mapping[str, tuple[int, ...]] | None = None
    choice: str | None = None
    objective_said: Said | None = None


def best_in_tie_order(state: Any, values: Mapping[str, float],
                      top: float) -> tuple[str, ...]:
    """The actions of ``values`` worth ``top``, in the order of the game's
    rule among equal actions (``state.tie_key`` of each action's id): every
    face that shows a best action shows the same first one."""
    return tuple(sorted((a for a, v in values.items() if v == top),
                        key=lambda a: state.tie_key(state.string_to_action(a))))


#: a proved bracket's words by its shape (``bracket_shape``), the
#: placeholders its numbers; the server's message ids are these templates
#: (bots/server/words.py ``BRACKET``, held equal by a test)
BRACKET_WORDS = {
    "exactly": "exactly {value}",
    "between": "between {lo} and {hi}",
    "at_least": "at least {lo}",
    "at_most": "at most {hi}",
    "anywhere": "anywhere from {lo} to {hi}",
}


def bracket_shape(lo: float, hi: float, span: tuple[float, float] | None = None) -> str:
    """Which words a bracket takes (a key of ``BRACKET_WORDS``): an end at
    the game's own end from here (``span``) bounds nothing, so it is not
    said."""
    if lo == hi:
        return "exactly"
    low_open = span is not None and lo <= span[0]
    high_open = span is not None and hi >= span[1]
    if low_open and high_open:
        return "anywhere"
    if high_open:
        return "at_least"
    if low_open:
        return "at_most"
    return "between"


def bracket_words(lo: float, hi: float, span: tuple[float, float] | None = None,
                  unit: str = "") -> str:
    """A proved bracket ``[lo, hi]`` of a value in words, the one wording
    of every face: ``"exactly 3"``, ``"between -25 and 0"``, and where one
    end is the game's own end from here (``span``, so no bound at all)
    ``"at least 9 tricks"`` / ``"at most -25"``; both ends the game's:
    ``"anywhere from -100 to 0"``.  ``unit`` (e.g. ``"tricks"``) follows
    the number(s)."""
    def num(v: float) -> str:
        text = f"{v:g}"
        return f"{text} {unit}" if unit else text
    return BRACKET_WORDS[bracket_shape(lo, hi, span)].format(value=num(lo), lo=num(lo),
                                                             hi=num(hi))


#: the kinds of value a ``Solution`` may hold, and what each means
KINDS = {
    "minimax": "two sides, each playing against the other",
    "paranoid": "the seat against the other seats as one side",
    "maxn": "every seat for its own score, ties against the seat asked",
}


__all__ = ["Solution", "KINDS", "BRACKET_WORDS", "best_in_tie_order", "bracket_shape",
           "bracket_words"]
