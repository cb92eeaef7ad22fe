"""A bounded load test of ``dixtrix serve`` on loopback (issue #15).

Starts a real server (a subprocess on an ephemeral port, a fresh SQLite
file), then ``--clients`` concurrent clients (threads, each with its own
kept-alive connection) send ``--requests`` requests each, a fixed mix of
valid and malformed ones, and stop by themselves:

    valid:     GET /healthz, GET /v1/games, POST /v1/hint (a dix view, a few
               hundred ISMCTS iterations), POST /v1/evaluate (a few worlds),
               POST /v1/tables, POST /v1/tables/{id}/actions, GET /v1/tables/{id}
    malformed: bad JSON, a bad position, a bad limit, an unknown route, an
               illegal action, a body over --max-body

Prints, per kind and overall: requests, p50 and p99 latency, the statuses
seen; requests/s; 5xx answers (must be 0), dropped connections (must be 0),
wrong statuses (a valid request refused, a malformed one accepted); the
server's resident memory before the load (after a warm-up), after it, and
after a second identical round (growth between rounds is what a leak
shows).  Exit status 1 if any 5xx, drop or wrong status was seen.

    python bench/server_load.py                       # 16 clients x 120 requests
    python bench/server_load.py --clients 32 --requests 60 --workers 2
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


def client(url, n, view, trix_view, iterations, out, lock, offset):
    table, me = None, {}
    with httpx.Client(base_url=url, timeout=60) as http:
        for i in range(n):
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
                        r = http.post(f"/v1/tables/{tid}/actions",
                                      json={"action": table["legal"][0]["action"]}, headers=me)
                        if r.status_code == 200:
                            table = r.json()
                    elif path == "view":
                        r = http.get(f"/v1/tables/{tid}", headers=me)
                    else:
                        r = http.post(f"/v1/tables/{tid}/actions", json={"action": "ZZ"},
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


def run_round(url, clients, requests, view, trix_view, iterations):
    out, lock = [], threading.Lock()
    threads = [threading.Thread(target=client, args=(url, requests, view, trix_view,
                                                     iterations, out, lock, c * 7))
               for c in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out, time.perf_counter() - t0


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def report(out, seconds) -> int:
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
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--requests", type=int, default=120, help="per client and round")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--iterations", type=int, default=300, help="ISMCTS iterations a hint")
    args = ap.parse_args(argv)
    if args.clients * args.requests * 2 > MAX_REQUESTS:
        ap.error(f"at most {MAX_REQUESTS} requests in all (two rounds): lower --clients "
                 f"or --requests")
    view, trix_view = positions()
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerProcess(os.path.join(tmp, "tables.db"), "--workers", str(args.workers),
                            "--queue", str(args.clients * 2), "--max-body", "65536",
                            "--threads", "1")
        try:
            print(f"dixtrix serve at {srv.url}: {args.workers} workers, queue "
                  f"{args.clients * 2}; {args.clients} clients x {args.requests} requests, "
                  f"two rounds; load average {os.getloadavg()[0]:.2f}, "
                  f"{os.cpu_count()} CPUs")
            run_round(srv.url, 2, 12, view, trix_view, args.iterations)       # warm-up
            rss0 = rss_kib(srv.pid)
            bad = 0
            for n in (1, 2):
                out, seconds = run_round(srv.url, args.clients, args.requests, view,
                                         trix_view, args.iterations)
                print(f"\nround {n}:")
                bad += report(out, seconds)
                print(f"server RSS after round {n}: {rss_kib(srv.pid) / 1024:.1f} MiB")
            print(f"\nserver RSS before the load (after a warm-up): {rss0 / 1024:.1f} MiB")
            alive = srv.alive()
            print(f"server alive after the load: {alive}")
            bad += 0 if alive else 1
        finally:
            code = srv.stop()
            errors = [line for line in srv.log if "internal error" in line]
            print(f"server exit status {code}; internal errors logged: {len(errors)}")
            bad += len(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
