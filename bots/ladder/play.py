"""Playing one scheduled game: the function every executor runs (in this
process, in a worker process, or on a Dask worker that has the package
installed).  Its result depends only on the task, never on where or when
it runs (for bots limited by iterations or worlds; a bot limited by time
plays what the machine's speed allows)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from functools import lru_cache

import solver

from ..match import play_match
from ..registry import make_bot
from .schedule import GameTask


@dataclass(frozen=True)
class GameResult:
    """A finished game, as stored (one row of the ``games`` table)."""

    deal: int
    group: int
    rotation: int
    deal_seed: int
    arrangement: tuple
    specs: tuple
    bot_seeds: tuple
    returns: tuple          # state.returns() per seat
    scores: tuple           # per seat: the deal scores summed (round_returns)
    rounds: int
    actions: int
    record: str             # solver.to_json(final state), JSON text
    seconds: float

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.deal, self.group, self.rotation)


@lru_cache(maxsize=16)
def _game(name: str, options: tuple) -> solver.Game:
    return solver.load_game(name, **dict(options))


def match_scores(state) -> list[float]:
    """Each seat's points over the whole match: the sum of every deal's
    result (``round_returns(i)`` for every round, hand or kingdom; a
    team's score for each of its seats).  A finer measure than the match
    result ``returns()``, which in dix and dixie-rook is only +1/-1."""
    n = state.game.num_players
    totals = [0.0] * n
    for i in range(state.round_index() + 1):
        for s, v in enumerate(state.round_returns(i)):
            totals[s] += v
    return totals


def play_game(task: GameTask) -> GameResult:
    """Play one game of the schedule to the end."""
    game = _game(task.game, task.options)
    bots = [make_bot(spec, game, seat, seed=seed)
            for seat, (spec, seed) in enumerate(zip(task.specs, task.bot_seeds, strict=True))]
    t0 = time.perf_counter()
    final = play_match(game, bots, seed=task.deal_seed)
    seconds = time.perf_counter() - t0
    record = json.dumps(solver.to_json(final), separators=(",", ":"), sort_keys=True)
    return GameResult(
        deal=task.deal, group=task.group, rotation=task.rotation, deal_seed=task.deal_seed,
        arrangement=tuple(task.arrangement), specs=tuple(task.specs),
        bot_seeds=tuple(task.bot_seeds),
        returns=tuple(float(x) for x in final.returns()),
        scores=tuple(match_scores(final)), rounds=final.round_index() + 1,
        actions=len(final.history()), record=record, seconds=seconds)
