"""One game between bots (the whole loop, as OpenSpiel's evaluate_bots)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from solver.errors import OptionError
from solver.front import N_
from solver.game import Game, State
from solver.said import phrase

from .base import Bot

# the error raised here (solver/errors.py: a code and its parameters; an
# OptionError is a ValueError, as this one was)
BOTS_COUNT = phrase("match_bots", N_("{game} needs {seats} bots, got {got}"))


def play_match(game: Game, bots: Sequence[Bot], seed: int | None = None,
               on_action: Callable[[State, int, int], None] | None = None) -> State:
    """Play one seeded game to the end; returns the terminal state.

    ``on_action(state, seat, action)`` is called after each action."""
    if len(bots) != game.num_players:
        raise OptionError(BOTS_COUNT(game=game.name, seats=game.num_players, got=len(bots)))
    state = game.new_initial_state(seed=seed)
    for bot in bots:
        bot.restart()
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].step(state)
        state.apply_action(action)
        for bot in bots:
            bot.inform_action(state, seat, action)
        if on_action:
            on_action(state, seat, action)
    return state


def play_deals(game: Game, bots: Sequence[Bot], seed: int, rounds: int = 1,
               before: Callable[[State, int, int], None] | None = None) -> list[float]:
    """Play the first ``rounds`` deals of a seeded match; each seat's deal
    results summed (``round_returns``).  ``before(state, seat, action)`` is
    called with each decision before it is applied (the bot's own record
    of it, ``last``, is still its own)."""
    if len(bots) != game.num_players:
        raise OptionError(BOTS_COUNT(game=game.name, seats=game.num_players, got=len(bots)))
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and state.round_index() < rounds:
        seat = state.current_player()
        action = bots[seat].step(state)
        if before is not None:
            before(state, seat, action)
        state.apply_action(action)
        for bot in bots:
            bot.inform_action(state, seat, action)
    played = min(rounds, state.round_index() + 1)
    return [sum(state.round_returns(r)[s] for r in range(played))
            for s in range(game.num_players)]
