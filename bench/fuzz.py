"""Fuzz every entry point with mutated positions (issue #19).

Real records and seat views of all five games are mutated (a value
replaced by something hostile, a key dropped or added, an array element
duplicated or dropped, deep nesting, huge integers, the JSON text cut,
flipped or spliced) and sent to each entry point.  Anything but a
documented error (a ``DixtrixError``; exit status 0 or 2 at the command
line) is an **untyped error**; a child process that dies is a **crash**; a
call that takes longer than ``--timeout`` seconds is a **hang**.  Expected:
0, 0, 0.

    python bench/fuzz.py --n 10000              # every entry point, 10,000 each
    python bench/fuzz.py --n 2000 --entries loads cli

Each entry point runs in a child process (restarted after a crash, which
is counted), so one crash cannot hide the rest.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

ENTRIES = ["loads", "from_json", "solve", "best_move", "evaluate", "cli"]
GAMES: list[tuple[str, dict[str, Any]]] = [("dix", {}), ("dix", {"variant": "seventeen"}), ("trix", {}),
         ("trix", {"partners": True}), ("tricks", {}), ("dixie-rook", {}),
         ("dixie-rook", {"players": 6}), ("dix-exchange", {"players": 6})]


def corpus(seed: int = 0) -> list[dict]:
    """Records and seat views at several points of random games."""
    import solver
    rng = random.Random(seed)
    docs = []
    for name, options in GAMES:
        game = solver.load_game(name, **options)
        for k in range(4):
            state = game.new_initial_state(seed=seed * 100 + k)
            for _ in range(rng.randrange(0, 80)):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
            docs.append(solver.to_json(state))
            if not state.is_terminal():
                docs.append(state.information_state(state.current_player()).view)
                if state.deal_start()[1] > 0:       # past the first deal: mid-match forms
                    mid = solver.to_json(state, from_deal="current")
                    docs.append(mid)
                    docs.append(solver.position.record_from_json(mid).state().information_state(
                        state.current_player()).view)
    return docs


HOSTILE = [None, True, -1, 0, 10**30, 2**64, -(2**63) - 1, 1.5, "", "?", "ZZ", "AS",
           "?" * 500, [], {}, [None], {"": None}, "\u0000", "\ud7ff" * 3, 1e308]


def _hostile(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.5:
        return copy.deepcopy(rng.choice(HOSTILE))     # never share a mutable value
    if r < 0.7:
        v: Any = copy.deepcopy(rng.choice(HOSTILE))
        for _ in range(rng.randrange(1, 60)):
            v = [v] if rng.random() < 0.5 else {"k": v}
        return v
    if r < 0.8:
        return 10 ** rng.randrange(15, 6000) - 1
    return rng.randrange(-10, 100)


def _paths(doc):
    out = []

    def walk(v, path):
        out.append(path)
        if isinstance(v, dict):
            for k in list(v):
                walk(v[k], path + [k])
        elif isinstance(v, list):
            for i in range(len(v)):
                walk(v[i], path + [i])

    walk(doc, [])
    return out


def mutate_doc(doc: dict, rng: random.Random) -> dict:
    """One to three structural mutations of a copy of ``doc``."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randrange(1, 4)):
        paths = _paths(doc)[1:]
        if not paths:
            break
        path = rng.choice(paths)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = rng.random()
        if op < 0.5:
            parent[key] = _hostile(rng)
        elif op < 0.65:
            del parent[key]
        elif op < 0.8 and isinstance(parent, list):
            parent.insert(key, parent[key] if rng.random() < 0.7 else _hostile(rng))
        elif isinstance(parent, dict):
            parent[rng.choice(["x", "seed", "seat", "deal", "actions", "options",
                               "game"])] = _hostile(rng)
        else:
            parent[key] = _hostile(rng)
    return doc


def mutate_text(doc: dict, rng: random.Random) -> bytes:
    """The JSON text of a (maybe mutated) document, then damaged as bytes."""
    if rng.random() < 0.5:
        doc = mutate_doc(doc, rng)
    try:
        data = json.dumps(doc).encode("utf-8")
    except (ValueError, RecursionError):
        data = b"{}"
    op = rng.random()
    if op < 0.25 and data:
        data = data[:rng.randrange(len(data))]
    elif op < 0.5 and data:
        i = rng.randrange(len(data))
        data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
    elif op < 0.65:
        i = rng.randrange(len(data) + 1)
        data = data[:i] + rng.choice([b"[" * 3000, b"9" * 5000, b"NaN", b"\xff\xfe",
                                      b'"\\ud800"', b"{" * 50]) + data[i:]
    elif op < 0.75:
        data = data.decode("utf-8", "replace").encode("latin-1", "replace")
    return data


# --------------------------------------------------------------------------
# the child: one entry point, documents start..n


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def run_child(entry: str, start: int, n: int, seed: int, timeout: float, progress: str):
    import solver
    from bots.cli import main as cli_main
    from solver.errors import DixtrixError
    from solver.search import Limit
    docs = corpus(seed)
    signal.signal(signal.SIGALRM, _alarm)
    untyped, hangs, accepted, examples = 0, 0, 0, []
    slowest = 0.0
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "pos.json")
    for i in range(start, n):
        rng = random.Random(seed * 10**7 + i)
        base = docs[rng.randrange(len(docs))]
        if i % 50 == 0:
            with open(progress, "w") as fh:
                fh.write(str(i))
        signal.setitimer(signal.ITIMER_REAL, timeout)
        t0 = time.perf_counter()
        try:
            if entry == "loads":
                solver.loads(mutate_text(base, rng))
            elif entry == "from_json":
                solver.from_json(mutate_doc(base, rng))
            elif entry == "cli":
                with open(path, "wb") as fh:
                    fh.write(mutate_text(base, rng))
                with contextlib.redirect_stdout(io.StringIO()), \
                        contextlib.redirect_stderr(io.StringIO()) as err:
                    code = cli_main(["hint", path, "--iterations", "30"])
                if code not in (0, 2) or (code == 2 and err.getvalue().count("\n") != 1):
                    raise AssertionError(f"exit {code}, stderr {err.getvalue()[:200]!r}")
            else:
                doc = mutate_doc(base, rng) if rng.random() < 0.8 else base
                if entry == "solve":
                    solver.solve(doc, max_nodes=20_000)
                elif entry == "best_move":
                    bot = rng.choice(["ismcts", "pimc"])
                    solver.best_move(doc, Limit(iterations=30) if bot == "ismcts"
                                     else Limit(worlds=1), bot=bot, nodes=5_000)
                elif entry == "evaluate":
                    solver.evaluate(doc, Limit(worlds=2))
            accepted += 1
        except DixtrixError:
            pass
        except Hang:
            hangs += 1
            examples.append(f"#{i}: hang over {timeout} s")
        except Exception as exc:               # the finding: an untyped error
            untyped += 1
            if len(examples) < 10:
                tb = traceback.extract_tb(exc.__traceback__)[-1]
                examples.append(f"#{i}: {type(exc).__name__}: {str(exc)[:120]} "
                                f"({os.path.relpath(tb.filename, ROOT)}:{tb.lineno})")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        slowest = max(slowest, time.perf_counter() - t0)
    print(json.dumps({"untyped": untyped, "hangs": hangs, "examples": examples,
                      "slowest": slowest, "accepted": accepted}))


# --------------------------------------------------------------------------
# the parent


def run_entry(entry, n, seed, timeout):
    progress = tempfile.mktemp()
    start, crashes, untyped, hangs, examples, slowest, accepted = 0, 0, 0, 0, [], 0.0, 0
    t0 = time.perf_counter()
    while start < n:
        proc = subprocess.run([sys.executable, __file__, "--child", entry, "--start",
                               str(start), "--n", str(n), "--seed", str(seed), "--timeout",
                               str(timeout), "--progress", progress],
                              capture_output=True, text=True)
        if proc.returncode == 0:
            res = json.loads(proc.stdout.strip().splitlines()[-1])
            untyped += res["untyped"]
            hangs += res["hangs"]
            examples += res["examples"]
            slowest = max(slowest, res["slowest"])
            accepted += res["accepted"]
            break
        crashes += 1
        try:
            with open(progress) as fh:
                done = int(fh.read() or start)
        except (OSError, ValueError):
            done = start
        examples.append(f"crash (exit {proc.returncode}) near #{done}: "
                        f"{proc.stderr.strip()[-200:]}")
        start = done + 50 if done >= start else start + 50
    return {"entry": entry, "documents": n, "untyped": untyped, "crashes": crashes,
            "hangs": hangs, "seconds": time.perf_counter() - t0, "slowest": slowest,
            "accepted": accepted,
            "examples": examples}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10_000, help="documents per entry point")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before a hang")
    ap.add_argument("--entries", nargs="*", default=ENTRIES, choices=ENTRIES)
    ap.add_argument("--child", choices=ENTRIES, help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--progress", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        run_child(args.child, args.start, args.n, args.seed, args.timeout, args.progress)
        return 0
    print("| entry point | documents | accepted (answered) | untyped errors | crashes | "
          "hangs | slowest call | wall time |")
    print("|---|---|---|---|---|---|---|---|")
    bad = 0
    for entry in args.entries:
        r = run_entry(entry, args.n, args.seed, args.timeout)
        bad += r["untyped"] + r["crashes"] + r["hangs"]
        print(f"| {entry} | {r['documents']:,} | {r['accepted']:,} | {r['untyped']} | "
              f"{r['crashes']} | "
              f"{r['hangs']} | {r['slowest']:.2f} s | {r['seconds']:.0f} s |", flush=True)
        for ex in r["examples"]:
            print(f"  - {ex}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
