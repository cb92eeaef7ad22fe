"""Bot-vs-bot ladders: duplicate schedules, Bradley-Terry ratings with 95%
intervals, SQLite results that survive a kill, run in this process, in
worker processes or on a Dask cluster (docs/ladder.md).

    from bots.ladder import run_ladder, LadderResults
    run_ladder("dix:variant=seventeen,target=10", ["rules", "random"],
               deals=20, seed=1, db="ladder.db", jobs=2)
    print(LadderResults.open("ladder.db").table())
"""

from .executors import DaskExecutor, GameFailed, LocalExecutor
from .play import GameResult, play_game
from .ratings import PairStat, Ratings, fit_bradley_terry, pair_differences, rate
from .report import write_report
from .results import LadderResults
from .runner import RunSummary, run_ladder
from .schedule import GameTask, Schedule
from .store import LadderError, LadderStore, ScheduleMismatchError

__all__ = ["Schedule", "GameTask", "GameResult", "play_game", "run_ladder", "RunSummary",
           "LadderStore", "LadderResults", "LadderError", "ScheduleMismatchError",
           "GameFailed", "LocalExecutor", "DaskExecutor", "Ratings", "PairStat", "rate",
           "fit_bradley_terry", "pair_differences", "write_report"]
