"""Ladder throughput: games per second of ``rules`` vs ``rules`` in each
game with ``--jobs 1``, ``--jobs 2`` (the speed-up) and on a 2-worker Dask
``LocalCluster`` (processes), and the cost of the SQLite write per game.

    python bench/ladder_speed.py                 # every game, 12 deals each
    python bench/ladder_speed.py --deals 30 --games dix trix

A ladder game is one whole match (the deal seed's every round).  Each
figure is one ``run_ladder`` into a fresh database: process pool start-up
is included, the Dask cluster is started beforehand (an existing cluster).
The SQLite write is timed by storing the finished games again, one
transaction each (WAL, synchronous=NORMAL), into a fresh file.  The
machine's load average is printed: the figures scale with free cores.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bots.ladder import LadderStore, Schedule, run_ladder
from bots.ladder.play import GameResult

GAMES = {
    "dix": "dix",
    "dix17": "dix:variant=seventeen",
    "dix-exchange": "dix-exchange",
    "trix": "trix",
    "trix-partners": "trix:partners=true",
    "tricks": "tricks",
    "dixie-rook": "dixie-rook",
    "dixie-rook-6": "dixie-rook:players=6",
}


def _results(db: str) -> list[GameResult]:
    with LadderStore.open(db) as store:
        rows = store.conn.execute(
            "SELECT deal, grp, rotation, deal_seed, arrangement, entries, bot_seeds, returns, "
            "scores, rounds, actions, record, seconds FROM games").fetchall()
    import json
    return [GameResult(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])),
                       tuple(json.loads(r[5])), tuple(json.loads(r[6])),
                       tuple(json.loads(r[7])), tuple(json.loads(r[8])), r[9], r[10], r[11],
                       r[12]) for r in rows]


def write_cost(spec: str, results: list[GameResult], tmp: str) -> tuple[float, float]:
    """Milliseconds per stored game and mean record size (kB)."""
    sch = Schedule(spec, "rules,rules", seed=1, check_bots=False)
    db = os.path.join(tmp, f"write-{spec.replace(':', '_')}.db")
    with LadderStore.create(db, sch) as store:
        t0 = time.perf_counter()
        for r in results:
            store.add(r)
        dt = time.perf_counter() - t0
    return 1000 * dt / len(results), sum(len(r.record) for r in results) / len(results) / 1024


def _burn(n: int) -> int:
    s = 0
    for i in range(n):
        s += i * i
    return s


def cpu_parallelism(n: int = 4_000_000) -> float:
    """The speed-up two processes get on pure Python arithmetic right now:
    the most ``--jobs 2`` can show on this machine (a shared machine may
    give much less than its core count)."""
    from concurrent.futures import ProcessPoolExecutor
    t0 = time.perf_counter()
    _burn(n)
    _burn(n)
    one = time.perf_counter() - t0
    with ProcessPoolExecutor(2) as pool:
        pool.submit(_burn, 1).result()               # workers started
        t0 = time.perf_counter()
        list(pool.map(_burn, [n, n]))
        two = time.perf_counter() - t0
    return one / two


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=12, help="deals per game (2 games each)")
    ap.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    cluster = None
    if not args.no_dask:
        from distributed import LocalCluster
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; two processes "
          f"run pure Python {cpu_parallelism():.2f}x as fast as one (the ceiling of the "
          f"speed-up); rules vs rules, {args.deals} deals x 2 seatings per game")
    print(f"{'game':<15} {'games':>5} {'s/game':>7} {'jobs 1':>8} {'jobs 2':>8} {'speed-up':>8} "
          f"{'dask 2w':>8} {'write ms':>8} {'record kB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.games:
            spec = GAMES[name]
            rates = {}
            db1 = ""
            for mode in ("jobs1", "jobs2", "dask"):
                if mode == "dask" and cluster is None:
                    continue
                db = os.path.join(tmp, f"{name}-{mode}.db")
                kw: dict[str, Any] = {"jobs": 1 if mode == "jobs1" else 2}
                if mode == "dask" and cluster is not None:
                    kw = {"dask": cluster.scheduler_address}
                s = run_ladder(spec, "rules,rules", deals=args.deals, seed=1, db=db,
                               progress=False, **kw)
                rates[mode] = s.games_per_second
                if mode == "jobs1":
                    db1 = db
            results = _results(db1)
            per_game = sum(r.seconds for r in results) / len(results)
            ms, kb = write_cost(spec, results, tmp)
            dask = f"{rates['dask']:>8.1f}" if "dask" in rates else f"{'-':>8}"
            print(f"{name:<15} {len(results):>5} {per_game:>7.3f} {rates['jobs1']:>8.1f} "
                  f"{rates['jobs2']:>8.1f} {rates['jobs2'] / rates['jobs1']:>7.2f}x "
                  f"{dask} {ms:>8.2f} {kb:>9.1f}", flush=True)
    if cluster is not None:
        cluster.close()
    print(f"after the runs: load average {os.getloadavg()[0]:.1f}, two processes "
          f"{cpu_parallelism():.2f}x one")
    print("games/s: whole matches per second of wall time; s/game: one match in one "
          "process; write ms: one INSERT + commit per game")


if __name__ == "__main__":
    main()
