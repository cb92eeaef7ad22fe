"""Where a seat's view determines the deal, a search bot concedes nothing
(issue #25): dix after the stock is a game of perfect information, and the
decision service solves it exactly, so the ``ismcts`` bot's card is always
one of the best by the double-dummy value; with ``exact=off`` (the search
alone) it is not, which shows the test can see a conceded point.

Marked slow: 12 positions by default, 120 (docs/search.md, "Strength
kept") with DIXTRIX_FULL_TESTS=1.  Iteration limits keep it the same on
any machine."""

from __future__ import annotations

import random
from typing import Any

import pytest

import solver
from bots import make_bot
from solver.dd import solve


def _after_the_stock(count: int, seed: int) -> list:
    """``count`` dix positions of the first round from trick 14 on (the
    rules bots play seeded rounds to a random trick between 14 and 23),
    each with a choice of cards."""
    game = solver.load_game("dix")
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state: Any = game.new_initial_state(seed=rng.randrange(1 << 30))
        bots = [make_bot("rules", game, s, seed=rng.randrange(1 << 30)) for s in range(2)]
        stop = rng.randrange(14, 24)
        while not state.is_terminal() and state.round_index() == 0 and state.tricks_done < stop:
            state.apply_action(bots[state.current_player()].step(state))
        if state.is_terminal() or state.round_index() != 0 or len(state.legal_actions()) < 2:
            continue
        out.append(state)
    return out


def _conceded(spec: str, positions: list) -> tuple[int, float]:
    """(positions where the bot's card is below the exact best, points
    conceded in all)."""
    worse, lost = 0, 0.0
    for i, state in enumerate(positions):
        sol = solve(state)
        bot = make_bot(spec, state.game, state.current_player(), seed=i)
        gap = sol.value - sol.action_values[state.action_to_string(bot.step(state))]
        worse += gap > 0
        lost += max(gap, 0)
    return worse, lost


@pytest.fixture(scope="module")
def endings(sample):
    return _after_the_stock(sample(12, 120), seed=1)


@pytest.mark.slow
def test_the_search_bot_concedes_nothing_where_its_view_determines_the_deal(endings):
    assert _conceded("ismcts:iterations=300", endings) == (0, 0.0)


@pytest.mark.slow
def test_the_search_alone_concedes_points_there(endings):
    """The positive control: without the exact path a short search gives
    points away in some of the same endings."""
    worse, lost = _conceded("ismcts:iterations=300,exact=off", endings)
    assert worse > 0 and lost > 0
