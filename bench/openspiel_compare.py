"""Our ISMCTS beside OpenSpiel's (issue #17).

(a) Equal wall time per decision (--times, default 0.1 and 1 s),
    duplicate-dealt deals of dix and trix: our ``ismcts`` (``best_move``,
    one thread: the Cython kernel for card play, the Python search with
    the rules prior for the rest) against OpenSpiel's Python ``ISMCTSBot``
    (``open_spiel.python.algorithms.ismcts``, random-rollout evaluator,
    UCT c = 0.7 x the game's deal bound, our exact resampler) running on
    our adapter (``solver.interop.openspiel``).  Each deal is played twice
    with the seats swapped; the margin is our seats' mean result minus
    theirs, in the game's points, averaged over the two plays, with a 95%
    interval over deals; "won" counts plays where our seats scored more
    (ties half).  Iterations per second of each.  What it measures: the
    two searches as shipped, each at its own speed: OpenSpiel's search runs
    in Python through our Python adapter (every node a protocol call),
    ours in Cython on compact states with heuristic play-outs.

(b) Speed on a near neighbour: OpenSpiel's C++ ``pyspiel.ISMCTSBot``
    (random-rollout evaluator) on its built-in ``hearts`` (no passing)
    from positions with --cards cards left per hand, each position in a
    child process (it segfaults on some of them: counted, not fatal),
    beside our ``ismcts`` on a trix diamonds contract (a trick contract
    with a per-card penalty, like hearts) with the same cards left:
    iterations per second of each, same machine, same run.

    python bench/openspiel_compare.py [--deals 4] [--deals-1s 1] [--times 0.1 1]
                                      [--positions 4] [--cards 13 11]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --------------------------------------------------------------------------
# (b) the child process: one hearts position, OpenSpiel's C++ ISMCTS

def hearts_child(seed: int, cards: int, sims: int) -> None:
    import numpy as np
    import pyspiel
    game = pyspiel.load_game("hearts", {"pass_cards": False})
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    target = 52 - 4 * cards                       # cards played before the position
    played = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        if played >= target and len(state.legal_actions()) > 1:
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
        played += 1
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(seed, evaluator, 0.7 * 26, sims, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    t = time.perf_counter()
    bot.step(state)
    dt = time.perf_counter() - t
    print(f"RATE {sims / dt:.1f} {played}")


def hearts_rates(positions: int, cards: int, sims: int):
    rates, crashes = [], []
    for p in range(positions):
        out = subprocess.run([sys.executable, os.path.abspath(__file__), "--hearts-child",
                              str(p), str(cards), str(sims)], capture_output=True, text=True)
        line = [ln for ln in out.stdout.splitlines() if ln.startswith("RATE")]
        if out.returncode != 0 or not line:
            crashes.append(out.returncode)    # -11: SIGSEGV inside pyspiel
            continue
        rates.append(float(line[0].split()[1]))
    return rates, crashes


def trix_rates(positions: int, cards: int, iterations: int):
    import solver
    from solver.search import Limit, best_move
    game = solver.load_game("trix")
    rates = []
    for seed in range(positions):
        state = game.new_initial_state(seed=seed)
        state.apply_action(state.string_to_action("contract diamonds"))
        rng = random.Random(seed)
        while True:
            legal = state.legal_actions()
            hand = state.information_state(state.current_player()).known["hand"].split()
            if all(a < 64 for a in legal) and len(hand) <= cards and len(legal) > 1:
                break
            state.apply_action(rng.choice(legal))
        view = state.information_state(state.current_player()).view
        res = best_move(view, Limit(iterations=iterations), seed=seed, threads=1)
        rates.append(res.iterations / res.time)
    return rates


# --------------------------------------------------------------------------
# (a) duplicate deals at equal time per decision

class _TimeUp(Exception):
    pass


def timed_openspiel_bot(game, seed: int, seconds: float):
    """OpenSpiel's Python ISMCTSBot stopped by a clock: its simulation loop
    is asked for a new root sample until the time is up, then its own final
    policy (most visits) is taken."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from solver.interop.openspiel import resampler

    class Timed(ismcts.ISMCTSBot):
        def run_search(self, state):
            self.deadline = time.perf_counter() + seconds
            self.sims = 0
            try:
                return super().run_search(state)
            except _TimeUp:
                return self.get_final_policy(state, self._root_node)

        def sample_root_state(self, state):
            if self.sims >= 2 and time.perf_counter() >= self.deadline:   # the root is visited once
                raise _TimeUp
            self.sims += 1
            return super().sample_root_state(state)

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = Timed(game, evaluator, uct_c=0.7 * game.max_utility(), max_simulations=10 ** 9,
                random_state=np.random.RandomState(seed))
    bot.set_resampler(resampler(seed))
    return bot


def play_deal(name: str, deal_seed: int, ours: set, seconds: float, stats: dict):
    import pyspiel

    from solver.interop.chance import ExplicitChanceState
    from solver.interop.openspiel import DixtrixState
    from solver.search import Limit, best_move
    sgame = pyspiel.load_game(f"dixtrix_{name}")
    dx = sgame.dx_game
    state = dx.new_initial_state(seed=deal_seed)
    obot = timed_openspiel_bot(sgame, deal_seed, seconds)
    k = 0
    while not state.is_terminal() and state.round_index() == 0:
        seat = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply_action(legal[0])
            continue
        k += 1
        if seat in ours:
            view = state.information_state(seat).view
            res = best_move(view, Limit(time=seconds), seed=deal_seed * 1000 + k, threads=1)
            stats["ours_its"] += res.iterations
            stats["ours_t"] += res.time
            action = state.string_to_action(res.action)
        else:
            wrapped = DixtrixState(sgame, ExplicitChanceState.wrap(state.clone(), 1))
            t = time.perf_counter()
            action = int(obot.step(wrapped))
            stats["os_t"] += time.perf_counter() - t
            stats["os_its"] += obot.sims
        state.apply_action(action)
    r = state.round_returns(0)
    mine = statistics.mean(r[s] for s in ours)
    theirs = statistics.mean(r[s] for s in range(dx.num_players) if s not in ours)
    return mine - theirs


def duplicate(name: str, deals: int, seconds: float):
    n = {"dix": 2, "trix": 4}[name]
    a = {s for s in range(n) if s % 2 == 0}
    b = {s for s in range(n) if s % 2 == 1}
    stats = {"ours_its": 0, "ours_t": 0.0, "os_its": 0, "os_t": 0.0}
    margins, won = [], 0.0
    for d in range(deals):
        m1 = play_deal(name, 1000 + d, a, seconds, stats)
        m2 = play_deal(name, 1000 + d, b, seconds, stats)
        margins.append((m1 + m2) / 2)
        won += sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in (m1, m2))
    mean = statistics.mean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(deals) if deals > 1 else float("nan")
    return {"mean": mean, "ci": half, "won": won / (2 * deals),
            "ours_rate": stats["ours_its"] / max(stats["ours_t"], 1e-9),
            "os_rate": stats["os_its"] / max(stats["os_t"], 1e-9)}


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--hearts-child":
        hearts_child(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=4, help="duplicate deals per game at 0.1 s")
    ap.add_argument("--deals-1s", type=int, default=1, help="duplicate deals per game at >= 1 s")
    ap.add_argument("--times", type=float, nargs="+", default=[0.1, 1.0])
    ap.add_argument("--games", nargs="+", default=["dix", "trix"])
    ap.add_argument("--positions", type=int, default=4, help="positions per card count in (b)")
    ap.add_argument("--cards", type=int, nargs="+", default=[13, 11])
    ap.add_argument("--hearts-sims", type=int, default=20000)
    ap.add_argument("--trix-iterations", type=int, default=100000)
    ap.add_argument("--skip-a", action="store_true")
    ap.add_argument("--skip-b", action="store_true")
    args = ap.parse_args()
    import solver.interop.openspiel  # noqa: F401  (registers the games)

    print(f"cpus available: {len(os.sched_getaffinity(0))}, load {os.getloadavg()[0]:.1f}")
    if not args.skip_a:
        print("(a) ours (ismcts, best_move, 1 thread) vs OpenSpiel Python ISMCTSBot on the "
              "adapter, duplicate deals, equal time per decision")
        print(f"{'game':6} {'s/dec':>6} {'deals':>5} {'margin (pts)':>16} {'won':>6} "
              f"{'ours it/s':>10} {'OS it/s':>9}")
        for seconds in args.times:
            deals = args.deals if seconds < 1 else args.deals_1s
            for name in args.games:
                t = time.time()
                r = duplicate(name, deals, seconds)
                print(f"{name:6} {seconds:6.2f} {deals:5d} {r['mean']:+8.1f} +- {r['ci']:5.1f} "
                      f"{r['won']:6.2f} {r['ours_rate']:10.0f} {r['os_rate']:9.1f}"
                      f"   ({time.time() - t:.0f} s)", flush=True)
    if args.skip_b:
        return
    print("(b) iterations/s: OpenSpiel C++ ISMCTSBot on hearts (child process per position) "
          "vs our ismcts on trix diamonds")
    for cards in args.cards:
        h, crashes = hearts_rates(args.positions, cards, args.hearts_sims)
        tr = trix_rates(args.positions, cards, args.trix_iterations)
        hs = f"{statistics.mean(h):9.0f}" if h else "      n/a"
        print(f"  {cards:2d} cards a hand: OpenSpiel hearts {hs} it/s over {len(h)} positions "
              f"({len(crashes)} crashed, return codes {crashes}); "
              f"ours trix {statistics.mean(tr):9.0f} it/s over {len(tr)}; "
              f"ratio {statistics.mean(tr) / statistics.mean(h) if h else float('nan'):.1f}",
              flush=True)


if __name__ == "__main__":
    main()
