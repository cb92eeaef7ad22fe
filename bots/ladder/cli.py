"""``dixtrix ladder run|report`` (registered by ``bots/cli.py``).

    dixtrix ladder run --game trix --bots random,rules,pimc:time=0.2,ismcts:time=0.2 \\
        --deals 200 --seed 1 --db ladder.db --jobs 2
    dixtrix ladder run --game dix:variant=seventeen,target=10 --bots rules,random \\
        --deals 50 --db small.db --dask tcp://127.0.0.1:8786
    dixtrix ladder report --db ladder.db [--out DIR] [--format md|html]
"""

from __future__ import annotations

import os
import sys

from solver.errors import OptionError, install_hint

from ..registry import registered_bots
from .executors import JOBS_OR_DASK
from .report import have_matplotlib, write_report
from .results import LadderResults
from .runner import run_ladder


def cmd_run(args) -> int:
    if args.dask is not None and args.jobs != 1:
        raise OptionError(JOBS_OR_DASK())
    show = not args.quiet and sys.stderr.isatty() and sys.stdout.isatty()
    try:
        summary = run_ladder(args.game, args.bots, deals=args.deals, seed=args.seed,
                             db=args.db, jobs=args.jobs, dask=args.dask, progress=show,
                             notice=None if args.quiet else
                             lambda line: print(line, file=sys.stderr, flush=True))
    except KeyboardInterrupt:
        print(f"dixtrix: interrupted; the finished games are in {args.db}: rerun the same "
              f"command to resume", file=sys.stderr)
        return 130
    rate = summary.games_per_second
    print(f"{summary.played} games played {summary.where} in {summary.seconds:.1f} s"
          + (f" ({rate:.2f} games/s)" if summary.played else "")
          + f"; {summary.already} were already in {summary.db}")
    res = LadderResults.open(args.db)
    if res.units:
        print(res.table())
    return 0


def cmd_report(args) -> int:
    res = LadderResults.open(args.db)
    ratings = res.ratings(ci=args.ci) if res.units else None
    print(res.table(ratings) if res.units else res.header())
    if not res.units:
        return 0
    out = args.out or os.path.splitext(args.db)[0] + "-report"
    plots = not args.no_plots
    if plots and not have_matplotlib():
        plots = False
        print(f"no plots: they need matplotlib, which is not installed "
              f"({install_hint('plot')}, then run this again)", file=sys.stderr)
    path = write_report(res, out, fmt=args.format, plots=plots, ci=args.ci)
    print(f"report written to {path}" + ("" if plots else " (tables only, no plots)"))
    return 0


def add_parser(sub) -> None:
    """Add ``ladder run`` and ``ladder report`` to the ``dixtrix`` parser."""
    lad = sub.add_parser("ladder", help="bot-vs-bot ladders: duplicate deals, ratings, SQLite")
    lsub = lad.add_subparsers(dest="ladder_command", required=True)
    run = lsub.add_parser("run", help="play (or resume) a ladder into a SQLite database")
    run.add_argument("--game", required=True,
                     help="game and options: dix:variant=seventeen,target=10, trix:partners=true, "
                          "dixie-rook:players=6")
    run.add_argument("--bots", required=True,
                     help=f"comma-separated bot settings strings, at least 2 "
                          f"(known bots: {', '.join(registered_bots())}), e.g. "
                          f"random,rules,pimc:time=0.2,ismcts:time=0.2")
    run.add_argument("--deals", type=int, default=100,
                     help="deals (match seeds), each played in every arrangement (default 100)")
    run.add_argument("--seed", type=int, default=0, help="schedule seed (default 0)")
    run.add_argument("--db", default="ladder.db", help="SQLite file (default ladder.db)")
    run.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    run.add_argument("--dask", metavar="ADDRESS", default=None,
                     help="run on this Dask scheduler (tcp://host:8786) instead of --jobs")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(func=cmd_run)
    rep = lsub.add_parser("report", help="the ratings table and a report with plots")
    rep.add_argument("--db", default="ladder.db", help="SQLite file (default ladder.db)")
    rep.add_argument("--out", default=None, help="report folder (default: DB name + -report)")
    rep.add_argument("--format", choices=("md", "html"), default="md",
                     help="the report's format: Markdown (default) or HTML")
    rep.add_argument("--ci", choices=("auto", "fisher", "bootstrap"), default="auto",
                     help="rating intervals: Fisher information, or a bootstrap over deals "
                          "(auto: Fisher when every group is a pair, else bootstrap)")
    rep.add_argument("--no-plots", action="store_true", help="the table only, no PNGs")
    rep.set_defaults(func=cmd_report)
