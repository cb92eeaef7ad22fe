"""A bot of this checkout against the same bot of another commit, duplicate
dealt, with a 95% interval (issue #25: "strength kept").

    git worktree add /tmp/ref 62cc511 && (cd /tmp/ref && python setup.py build_ext --inplace)
    python bench/strength_ref.py dix --ref /tmp/ref --spec ismcts:time=0.1 --deals 200

The reference bot runs in a subprocess whose ``sys.path`` starts at the
reference checkout (its own ``solver`` and ``bots``, its compiled kernels):
it is sent each position as a complete record and its seat, rebuilds the
state with its own code and answers its bot's action (a fair bot reads
only its seat's view of it).  Each deal is played twice with the seats
swapped (``bench/strength.py``'s statistic: this checkout's mean deal
result minus the reference's, averaged over the two seatings); the bots of
both sides are seeded alike.  With more than two seats this checkout takes
the even seats, then the odd ones.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots import make_bot
from bots.base import Bot
from solver.game import options_from_text, parse_pairs

#: the reference side's loop: one JSON object a line in, one out
SERVER = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import solver
from bots import make_bot
bots = {}
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "new":
        game = solver.load_game(msg["game"], **msg["options"])
        bots[msg["id"]] = (game, make_bot(msg["spec"], game, msg["seat"], seed=msg["seed"]))
        out = {"ok": True}
    elif msg["cmd"] == "step":
        game, bot = bots[msg["id"]]
        state = solver.from_json(msg["record"]).state()
        out = {"action": state.action_to_string(bot.step(state))}
    else:
        bots.pop(msg["id"], None)
        out = {"ok": True}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
"""


class Reference:
    """The reference checkout's bot process."""

    def __init__(self, path: str):
        self.p = subprocess.Popen([sys.executable, "-c", SERVER, os.path.abspath(path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  cwd=path, env=dict(os.environ, PYTHONPATH=""))
        assert self.p.stdin is not None and self.p.stdout is not None   # the pipes above
        self.next_id = 0

    def ask(self, msg: dict) -> dict:
        stdin, stdout = self.p.stdin, self.p.stdout
        assert stdin is not None and stdout is not None
        stdin.write(json.dumps(msg) + "\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError("the reference bot process ended")
        return json.loads(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)


class RefBot(Bot):
    """A seat played by the reference checkout's bot."""

    name = "ref"

    def __init__(self, ref: Reference, spec: str, game, seat: int, seed: int):
        super().__init__(game, seat, seed)
        self.ref = ref
        self.id = ref.next_id
        ref.next_id += 1
        ref.ask({"cmd": "new", "id": self.id, "game": game.name,
                 "options": dict(game.options), "seat": seat, "spec": spec, "seed": seed})

    def step(self, state) -> int:
        out = self.ref.ask({"cmd": "step", "id": self.id, "record": solver.to_json(state)})
        return state.string_to_action(out["action"])

    def close(self):
        self.ref.ask({"cmd": "drop", "id": self.id})


def play_deal(game, sides, spec, ref, seed):
    """The first deal of a seeded match; each seat's deal result.  ``sides[s]``
    is "new" or "ref"."""
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, game, s, seed=seed * 100 + s) if side == "new" else
            RefBot(ref, spec, game, s, seed * 100 + s) for s, side in enumerate(sides)]
    while not state.is_terminal() and state.round_index() < 1:
        state.apply_action(bots[state.current_player()].step(state))
    for b in bots:
        if isinstance(b, RefBot):
            b.close()
    return list(state.round_returns(0))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("game")
    p.add_argument("--ref", required=True, help="a built checkout of the reference commit")
    p.add_argument("--spec", default="ismcts:time=0.1")
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[])
    args = p.parse_args(argv)
    # the command line's reading of game options (true/false, numbers)
    opts = options_from_text(args.game, parse_pairs(args.option, "--option"))
    game = solver.load_game(args.game, **opts)
    ref = Reference(args.ref)
    n = game.num_players
    diffs = []
    t0 = time.perf_counter()
    try:
        for d in range(args.deals):
            total = 0.0
            for parity in (0, 1):
                sides = ["new" if s % 2 == parity else "ref" for s in range(n)]
                res = play_deal(game, sides, args.spec, ref, args.seed + d)
                mine = [res[s] for s in range(n) if sides[s] == "new"]
                theirs = [res[s] for s in range(n) if sides[s] == "ref"]
                total += sum(mine) / len(mine) - sum(theirs) / len(theirs)
            diffs.append(total / 2)
            if (d + 1) % 20 == 0:
                m = sum(diffs) / len(diffs)
                print(f"  {d + 1} deals: {m:+.2f} ({time.perf_counter() - t0:.0f} s)",
                      file=sys.stderr, flush=True)
    finally:
        ref.close()
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / max(1, len(diffs) - 1))
    ci = 1.96 * sd / math.sqrt(len(diffs))
    verdict = "this checkout stronger" if mean - ci > 0 else \
        "the reference stronger" if mean + ci < 0 else "no difference found"
    print(f"{game!r}: {args.spec}, this checkout vs {args.ref}, {len(diffs)} duplicate deal "
          f"pairs: {mean:+.2f} +- {ci:.2f} points a deal ({verdict}); "
          f"{time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
