"""A bounded load test of ``dixtrix serve`` on loopback (issues #15, #31).

Starts real servers (subprocesses on ephemeral ports) over a fresh
database: one over an SQLite file, or one or more over one throwaway
PostgreSQL server (``tests/frontends/pg_server.py``, Debian's
``postgresql`` package), each setup in turn.  ``--clients`` concurrent
clients (threads, each with its own kept-alive connection to every
server) send ``--requests`` requests each, a fixed mix of valid and
malformed ones, each request to the next server in turn (a load balancer
without stickiness: consecutive moves at one table reach different
processes), and stop by themselves:

    valid:     GET /healthz, GET /v1/games, POST /v1/hint (a dix view, a few
               hundred ISMCTS iterations), POST /v1/evaluate (a few worlds),
               POST /v1/tables, POST /v1/tables/{id}/actions, GET /v1/tables/{id}
    malformed: bad JSON, a bad position, a bad limit, an unknown route, an
               illegal action, a body over --max-body

Prints, per kind and overall: requests, p50 and p99 latency, the statuses
seen; requests/s; 5xx answers (must be 0), dropped connections (must be 0),
wrong statuses (a valid request refused, a malformed one accepted); lost
moves (a move answered 200 that the database does not hold at its index)
and doubled ones (an index held twice, a record that does not replay, or a
stored person's move that no answer acknowledged): both must be 0; the
servers' resident memory (summed) before the load (after a warm-up), after
it, and after a second round (growth between rounds is what a leak shows);
and at the end one line a setup.  Exit status 1 if any 5xx, drop, wrong
status, lost or doubled move was seen.

    python bench/server_load.py                       # SQLite, 16 clients x 120 requests
    python bench/server_load.py --setups sqlite:1,postgresql:1,postgresql:2,postgresql:4 \
        --clients 16 --requests 60 --rounds 1         # docs/server.md's table
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import httpx  # noqa: E402

import solver  # noqa: E402
from bots.server.db import open_store  # noqa: E402
from tests.frontends.pg_server import PostgresServer  # noqa: E402
from tests.frontends.server_process import ServerProcess, rss_kib  # noqa: E402

MAX_REQUESTS = 5000


def positions():
    state = solver.load_game("dix").new_initial_state(seed=1)
    for _ in range(20):
        state.apply_action(state.legal_actions()[0])
    view = state.information_state(state.current_player()).view
    trix = solver.load_game("trix").new_initial_state(seed=2)
    for _ in range(12):
        trix.apply_action(trix.legal_actions()[0])
    return view, trix.information_state(trix.current_player()).view


def plan(i: int, view, trix_view, iterations: int) -> tuple:
    """Request ``i`` of a client: (kind, valid?, method, path or table step, body)."""
    mix = [
        ("healthz", True, "GET", "/healthz", None),
        ("games", True, "GET", "/v1/games", None),
        ("hint", True, "POST", "/v1/hint",
         {"position": view, "limit": {"iterations": iterations}, "seed": i}),
        ("table play", True, "TABLE", "play", None),
        ("bad json", False, "POST", "/v1/hint", b'{"position": [1, 2'),
        ("evaluate", True, "POST", "/v1/evaluate",
         {"position": trix_view, "limit": {"worlds": 4}, "seed": i}),
        ("bad position", False, "POST", "/v1/hint",
         {"position": dict(view, seat=9)}),
        ("table view", True, "TABLE", "view", None),
        ("bad limit", False, "POST", "/v1/evaluate",
         {"position": trix_view, "limit": {"worlds": -1}}),
        ("unknown route", False, "GET", "/v1/nothing", None),
        ("illegal action", False, "TABLE", "illegal", None),
        ("too large", False, "POST", "/v1/solve", b"{" + b" " * 70_000 + b"}"),
    ]
    return mix[i % len(mix)]


def client(urls, n, view, trix_view, iterations, out, lock, offset, acked):
    """``n`` requests, request ``i`` to ``urls[i % len(urls)]``; each move
    answered 200 is noted in ``acked`` as (table, index, action)."""
    table, me = None, {}
    https = [httpx.Client(base_url=url, timeout=60) for url in urls]
    try:
        for i in range(n):
            http = https[(i + offset) % len(https)]
            kind, valid, method, path, body = plan(i + offset, view, trix_view, iterations)
            t0 = time.perf_counter()
            try:
                if method == "TABLE":
                    if table is None or table.get("over") or not table.get("your_turn"):
                        r = http.post("/v1/tables", json={"game": "dix", "seed": i + offset,
                                                          "options": {"variant": "seventeen"}})
                        table = r.json() if r.status_code == 201 else None
                        if table is None:
                            raise RuntimeError(f"table: {r.status_code}")
                        me = {"Authorization": f"Bearer {table['invitations'][0]['token']}"}
                        t0 = time.perf_counter()
                    tid = table["table"]
                    if path == "play":
                        action, index = table["legal"][0]["action"], table["version"]
                        r = http.post(f"/v1/tables/{tid}/actions",
                                      json={"action": action, "version": index}, headers=me)
                        if r.status_code == 200:
                            table = r.json()
                            with lock:
                                acked.append((tid, index, action))
                    elif path == "view":
                        r = http.get(f"/v1/tables/{tid}", headers=me)
                        if r.status_code == 200:
                            table = dict(r.json(), table=tid)
                    else:
                        r = http.post(f"/v1/tables/{tid}/actions",
                                      json={"action": "ZZ", "version": table["version"]},
                                      headers=me)
                elif isinstance(body, bytes):
                    r = http.request(method, path, content=body,
                                     headers={"Content-Type": "application/json"})
                else:
                    r = http.request(method, path, json=body)
                status = r.status_code
            except httpx.TransportError as exc:
                status = f"dropped ({type(exc).__name__})"
            except RuntimeError as exc:
                status = str(exc)
            dt = time.perf_counter() - t0
            with lock:
                out.append((kind, valid, status, dt))
    finally:
        for h in https:
            h.close()


def run_round(urls, clients, requests, view, trix_view, iterations, acked):
    out: list = []
    lock = threading.Lock()
    threads = [threading.Thread(target=client, args=(urls, requests, view, trix_view,
                                                     iterations, out, lock, c * 7, acked))
               for c in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out, time.perf_counter() - t0


def check_moves(db: str, acked: list) -> tuple[int, int]:
    """(lost, doubled) moves: every acknowledged move must be in the
    database at its index; every table's record must replay; no person's
    move may be stored that no answer acknowledged (a person's seat is 0
    at these tables, and only its client plays it)."""
    store = open_store(db)
    lost = doubled = 0
    try:
        by_table: defaultdict[str, dict[int, str]] = defaultdict(dict)
        for tid, index, action in acked:
            if index in by_table[tid]:
                doubled += 1                     # two answers of 200 for one index
            by_table[tid][index] = action
        for tid, moves in by_table.items():
            row = store.load(tid)
            if row is None:
                lost += len(moves)
                continue
            for index, action in moves.items():
                if index >= len(row.moves) or row.moves[index] != (0, action):
                    lost += 1
            stored = {i for i, (seat, _) in enumerate(row.moves) if seat == 0}
            doubled += len(stored - set(moves))
            state = solver.load_game(row.game, **row.options).new_initial_state(seed=row.seed)
            try:
                for seat, text in row.moves:
                    assert state.current_player() == seat
                    state.apply_action(state.string_to_action(text))
            except (AssertionError, solver.errors.DixtrixError):
                doubled += 1
    finally:
        store.close()
    return lost, doubled


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def report(out, seconds) -> tuple[int, dict]:
    by = defaultdict(list)
    for kind, valid, status, dt in out:
        by[kind].append((valid, status, dt))
    print(f"{'kind':<15} {'n':>5} {'p50 ms':>8} {'p99 ms':>8}  statuses")
    bad = 0
    for kind, rows in by.items():
        lat = [dt * 1000 for _, _, dt in rows]
        statuses: defaultdict[int, int] = defaultdict(int)
        for _, s, _ in rows:
            statuses[s] += 1
        print(f"{kind:<15} {len(rows):>5} {pct(lat, .5):>8.1f} {pct(lat, .99):>8.1f}  "
              + ", ".join(f"{s}: {c}" for s, c in sorted(statuses.items(), key=str)))
    lat = [dt * 1000 for *_, dt in out]
    fivexx = sum(1 for _, _, s, _ in out if isinstance(s, int) and s >= 500)
    dropped = sum(1 for _, _, s, _ in out if not isinstance(s, int))
    wrong = sum(1 for _, v, s, _ in out if isinstance(s, int) and s < 500 and
                (v != (s < 400)))
    print(f"{'all':<15} {len(out):>5} {pct(lat, .5):>8.1f} {pct(lat, .99):>8.1f}  "
          f"{len(out) / seconds:.0f} requests/s over {seconds:.2f} s")
    print(f"5xx: {fivexx}   dropped connections: {dropped}   wrong statuses: {wrong}")
    bad += fivexx + dropped + wrong
    return bad, {"rps": len(out) / seconds, "p50": pct(lat, .5), "p99": pct(lat, .99),
                 "5xx": fivexx, "dropped": dropped, "wrong": wrong}


def run_setup(kind: str, processes: int, args, view, trix_view, pg) -> tuple[int, dict]:
    """One setup: its servers started, a warm-up, ``args.rounds`` rounds,
    the moves checked, the servers stopped."""
    with tempfile.TemporaryDirectory() as tmp:
        db = pg.new_database() if kind == "postgresql" else os.path.join(tmp, "tables.db")
        flags = ("--workers", str(args.workers), "--queue", str(args.clients * 2),
                 "--max-body", "65536", "--threads", "1")
        servers = [ServerProcess(db, *flags) for _ in range(processes)]
        urls = [srv.url for srv in servers]
        acked: list = []
        bad = 0
        summary: dict = {}
        try:
            load0 = os.getloadavg()[0]
            print(f"\n=== {kind} x {processes}: {', '.join(urls)}; {args.workers} workers and "
                  f"queue {args.clients * 2} each; {args.clients} clients x {args.requests} "
                  f"requests, {args.rounds} round(s); load average {load0:.2f}, "
                  f"{os.cpu_count()} CPUs")
            run_round(urls, 2, 12, view, trix_view, args.iterations, acked)       # warm-up
            rss0 = sum(rss_kib(srv.pid) for srv in servers)
            for n in range(1, args.rounds + 1):
                out, seconds = run_round(urls, args.clients, args.requests, view, trix_view,
                                         args.iterations, acked)
                print(f"\nround {n}:")
                b, summary = report(out, seconds)
                bad += b
                print(f"servers' RSS after round {n}: "
                      f"{sum(rss_kib(srv.pid) for srv in servers) / 1024:.1f} MiB")
            load1 = os.getloadavg()[0]
            print(f"\nservers' RSS before the load (after a warm-up): {rss0 / 1024:.1f} MiB")
            alive = all(srv.alive() for srv in servers)
            print(f"servers alive after the load: {alive}")
            bad += 0 if alive else 1
        finally:
            codes = [srv.stop() for srv in servers]
            errors = [line for srv in servers for line in srv.log if "internal error" in line]
            print(f"servers' exit statuses {codes}; internal errors logged: {len(errors)}")
            bad += len(errors) + sum(1 for c in codes if c != 0)
        lost, doubled = check_moves(db, acked)
        print(f"moves acknowledged: {len(acked)}; lost: {lost}; doubled: {doubled}")
        bad += lost + doubled
        summary.update(lost=lost, doubled=doubled, moves=len(acked), load=(load0, load1))
        return bad, summary


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=120, help="per client and round")
    ap.add_argument("--rounds", type=int, default=2, help="rounds a setup (1 or 2)")
    ap.add_argument("--workers", type=int, default=2, help="workers of each server")
    ap.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations a hint")
    ap.add_argument("--setups", default="sqlite:1",
                    help="comma-separated DATABASE:PROCESSES (sqlite:1, postgresql:N)")
    args = ap.parse_args(argv)
    setups = []
    for part in args.setups.split(","):
        kind, _, n = part.strip().partition(":")
        if kind not in ("sqlite", "postgresql") or not n.isdigit() or not 1 <= int(n) <= 8 \
                or (kind == "sqlite" and int(n) != 1):
            ap.error(f"a setup is sqlite:1 or postgresql:N (N 1..8), got {part!r}")
        setups.append((kind, int(n)))
    if not 1 <= args.rounds <= 2:
        ap.error("--rounds is 1 or 2")
    if args.clients * args.requests * args.rounds > MAX_REQUESTS:
        ap.error(f"at most {MAX_REQUESTS} requests a setup: lower --clients, --requests or "
                 f"--rounds")
    view, trix_view = positions()
    pg = None
    if any(kind == "postgresql" for kind, _ in setups):
        why = PostgresServer.unavailable()
        if why:
            ap.error(why)
        pg = PostgresServer()
    bad, rows = 0, []
    try:
        for kind, n in setups:
            b, summary = run_setup(kind, n, args, view, trix_view, pg)
            bad += b
            rows.append((kind, n, summary))
    finally:
        if pg is not None:
            pg.stop()
    print(f"\n{'database':<11} {'procs':>5} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'5xx':>4} "
          f"{'moves':>6} {'lost':>5} {'doubled':>7}  load average (start, end)")
    for kind, n, r in rows:
        print(f"{kind:<11} {n:>5} {r['rps']:>7.1f} {r['p50']:>8.1f} {r['p99']:>8.1f} "
              f"{r['5xx']:>4} {r['moves']:>6} {r['lost']:>5} {r['doubled']:>7}  "
              f"{r['load'][0]:.2f}, {r['load'][1]:.2f}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
