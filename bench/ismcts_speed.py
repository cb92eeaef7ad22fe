"""ISMCTS speed on dix, trix (a trick contract, the layout) and dixie-rook
card play: Cython iterations/s with 1 and 2 threads, against the pure-Python
twin on the same positions, as ratios from one run; and PIMC worlds valued
per second on the same positions (``solver.search.pimc``: solved double dummy where
the solver takes the world, else played out, the last tricks solved).

    python bench/ismcts_speed.py [--positions 10] [--iterations 200000]
    python bench/ismcts_speed.py --ref 62cc511 [--repeat 3]

``--ref COMMIT`` compares this build of the kernels with the one of another
commit instead (its ``csrc/`` compiled into a temporary module): the same
positions, seeds and iterations, one thread, the two timed alternately
``--repeat`` times each; iterations/s of each and their ratio (the best of
the repeats per position, medians over the positions).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from solver import position
from solver.search.ismcts import ismcts_search, run_native
from solver.search.native import native_search
from solver.search.pimc import pimc_search


def positions(n, after, seed0=0):
    game = solver.load_game("dix")
    out = []
    for seed in range(seed0, seed0 + n):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(after):
            state.apply_action(rng.choice(state.legal_actions()))
        while len(state.legal_actions()) < 2:
            state.apply_action(state.legal_actions()[0])
        out.append(state)
    return game, out


def trix_positions(n, tricks_done, seed0=0):
    from solver.games.contract_match.state import TRICKS
    game = solver.load_game("trix")
    out = []
    seed = seed0
    while len(out) < n:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal():
            if state.phase == TRICKS and state.log.play.tricks_done == tricks_done and \
                    not state.log.play.trick and len(state.legal_actions()) > 1:
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


def layout_positions(n, seed0=0):
    from solver.games.contract_match.state import LAYOUT_PLAY
    game = solver.load_game("trix")
    out = []
    seed = seed0
    while len(out) < n:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal():
            if state.phase == LAYOUT_PLAY and len(state.legal_actions()) > 1:
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


def rook_positions(n, players, tricks_done, seed0=0):
    """Dixie-rook card play at a trick's lead, from random auctions and
    discards (the searching seat: the one on lead, bid winner or not)."""
    from solver.games.dixie_rook import PLAY
    game = solver.load_game("dixie-rook", players=players)
    out = []
    seed = seed0
    while len(out) < n:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not state.is_terminal() and state.hand_no < 3:
            if state.phase == PLAY and state.tricks_done == tricks_done and \
                    not state.trick and len(state.legal_actions()) > 1:
                out.append(state)
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return game, out


def build_ref(commit: str):
    """The kernel module of ``commit`` (its ``csrc/search/ismcts.pyx`` and the
    headers it cimports), compiled as the top-level module ``_ismcts_ref``
    in a temporary directory."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp(prefix="ismcts_ref_")
    archive = subprocess.run(["git", "-C", root, "archive", commit, "csrc"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
    script = (
        "from setuptools import Extension, setup\n"
        "from Cython.Build import cythonize\n"
        "ext = Extension('_ismcts_ref', ['csrc/search/ismcts.pyx'], "
        "extra_compile_args=['-O3', '-fopenmp', '-mpopcnt'], extra_link_args=['-fopenmp'])\n"
        "setup(ext_modules=cythonize([ext], include_path=['csrc/include', 'csrc/dd', "
        "'csrc/search'], compiler_directives={'language_level': 3, 'boundscheck': False, "
        "'wraparound': False, 'cdivision': True, 'initializedcheck': False}), "
        "script_args=['build_ext', '--inplace'])\n")
    subprocess.run([sys.executable, "-c", script], cwd=tmp, check=True,
                   capture_output=True)
    sys.path.insert(0, tmp)
    import _ismcts_ref  # type: ignore[import-not-found]  # built in tmp just above
    return _ismcts_ref


def ref_main(args):
    """This build against ``--ref``'s, interleaved (see the module docstring)."""
    from solver.search import native as native_mod
    ref = build_ref(args.ref)
    this = native_mod._native_module()

    def search(module, game, sampler):
        saved = native_mod._native_module
        native_mod._native_module = lambda: module
        try:
            nat = native_search(game, sampler)
        finally:
            native_mod._native_module = saved
        return getattr(nat, "native", nat)          # the kernel itself (no renaming)

    print(f"ISMCTS kernels: this build against {args.ref}; {args.positions} positions a row, "
          f"{args.iterations} iterations, 1 thread, best of {args.repeat} alternating runs; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"| {'position':<22} | {'this it/s':>11} | {'ref it/s':>11} | {'this/ref':>8} |")
    print(f"|{'-' * 24}|{'-' * 13}|{'-' * 13}|{'-' * 10}|")
    for label, make in rows(args):
        game, states = make()
        mine, theirs = [], []
        for module in (this, ref):                      # warm up both builds
            seat = states[0].current_player()
            sampler = position.from_json(states[0].information_state(seat).view).sampler()
            search(module, game, sampler).run(1000, 0.0, 1, 1, 0.7, None)
        for i, st in enumerate(states):
            seat = st.current_player()
            sampler = position.from_json(st.information_state(seat).view).sampler()
            best = {0: 0.0, 1: 0.0}
            for r in range(args.repeat):
                for side in ((0, 1) if (i + r) % 2 == 0 else (1, 0)):
                    nat = search(this if side == 0 else ref, game, sampler)
                    t0 = time.perf_counter()
                    done = nat.run(args.iterations, 0.0, 1, 1, 0.7, None)[2]
                    best[side] = max(best[side], done / (time.perf_counter() - t0))
            mine.append(best[0])
            theirs.append(best[1])
        a, b = statistics.median(mine), statistics.median(theirs)
        print(f"| {label:<22} | {a:>11,.0f} | {b:>11,.0f} | {a / b:>8.3f} |", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def rows(args):
    return [("dix trick 1 (lead)", lambda: positions(args.positions, 0)),
            ("dix trick 6", lambda: positions(args.positions, 10)),
            ("dix trick 11", lambda: positions(args.positions, 20)),
            ("trix contract trick 1", lambda: trix_positions(args.positions, 0)),
            ("trix layout, first choice", lambda: layout_positions(args.positions)),
            ("rook 4p trick 1", lambda: rook_positions(args.positions, 4, 0)),
            ("rook 4p trick 7", lambda: rook_positions(args.positions, 4, 6)),
            ("rook 6p trick 1", lambda: rook_positions(args.positions, 6, 0))]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--iterations", type=int, default=200_000)
    p.add_argument("--py-iterations", type=int, default=2_000)
    p.add_argument("--pimc-worlds", type=int, default=20)
    p.add_argument("--ref", default=None, help="a commit whose kernels to compare with")
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    if args.ref:
        ref_main(args)
        return
    print(f"ISMCTS, {args.positions} seeded positions a row; medians of iterations/s")
    print(f"{'position':<22}{'cython 1 thr':>14}{'cython 2 thr':>14}{'2/1':>7}"
          f"{'python':>10}{'cy/py':>8}{'pimc w/s':>10}{'solved':>8}")
    for label, make in rows(args):
        game, states = make()
        one, two, py, pw, solved = [], [], [], [], []
        for st in states:
            seat = st.current_player()
            sampler = position.from_json(st.information_state(seat).view).sampler()
            native = native_search(game, sampler)
            for threads, acc in ((1, one), (2, two)):
                t0 = time.perf_counter()
                res = run_native(native, game, args.iterations, None, 0.7, threads, 1)
                acc.append(res.iterations / (time.perf_counter() - t0))
            t0 = time.perf_counter()
            res = ismcts_search(sampler, seat, st.legal_actions(), game,
                                iterations=args.py_iterations, rng=random.Random(1))
            py.append(res.iterations / (time.perf_counter() - t0))
            t0 = time.perf_counter()
            res = pimc_search(sampler.sample, seat, st.legal_actions(), game,
                              worlds=args.pimc_worlds, rng=random.Random(1))
            pw.append(res.worlds / (time.perf_counter() - t0))
            solved.append(res.solved / res.worlds)
        m1, m2, mp, mw = (statistics.median(x) for x in (one, two, py, pw))
        print(f"{label:<22}{m1:>14,.0f}{m2:>14,.0f}{m2 / m1:>7.2f}{mp:>10,.0f}{m1 / mp:>8.0f}"
              f"{mw:>10,.1f}{100 * statistics.mean(solved):>7.0f}%")


if __name__ == "__main__":
    main()
