"""Strength of the Cython searches of the decisions around card play against
today's Python searches of them (and the contract choice against the rules
player), duplicate-dealt, with 95% intervals.

    python bench/decision_strength.py contracts --game trix --pairs 200 --iterations 200
    python bench/decision_strength.py match dixie-rook --native bid --deals 200
    python bench/decision_strength.py claims --positions 100

``contracts``: as bench/contract_choice.py -- duplicate-dealt kingdoms
(trix) or dealer's sets (tricks), the chooser's five contracts chosen by
each arm, every other decision of every seat the rules player's; arms
``native`` (``native_search``: every open contract played out in the same
worlds by the rules player, judged against its average-deal value),
``python`` (``solver.search.contract_choice.choose_contract`` with
``iterations // contracts`` worlds, today's path) and ``rules``; the
chooser's total over the round, differences paired per round.

``match``: bench/strength.py's duplicate deals between ``hybrid`` bots
(registered here): ``A`` searches the decisions of the kinds ``--native``
names with the Cython kernels and everything else as today's ``ismcts``
bot does (card play: the Cython card kernels; other decisions: the Python
search, PUCT with the rules prior; the contract choice: ``choose_contract``);
``B`` is today's bot.  Same iterations for both, unless
``--native-iterations`` gives A's native decisions more (they cost a few
milliseconds where the Python search takes a second).  Kinds: ``contract``,
``doubling``, ``claim``, ``bid``, ``discard``, ``trump``, ``exchange``.

``claims``: tricks' redeal claim with a bad hand is too rare for matches:
for positions found in seeded games, each search's claim, then the rest of
the deal (a redeal included) played by the rules player at every seat from
the same seeds; the claimer's result of the deal finally played, paired.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solver
from bots.base import Bot
from bots.registry import register_bot
from solver.errors import OptionError
from solver.search import contract_choice
from solver.search.equivalence import card_classes
from solver.search.heuristics import make_policy
from solver.search.ismcts import ismcts_search, python_policies, run_native
from solver.search.native import native_search, root_keep

KINDS = ("contract", "doubling", "claim", "bid", "discard", "trump", "exchange")


def kind_of(state) -> str:
    """The kind of the decision at hand (``card`` for card play)."""
    name = state.game.name
    if name in ("trix", "tricks"):
        from solver.games.contract_match.state import CHOOSE, CLAIM, DECLARE
        return {CHOOSE: "contract", DECLARE: "doubling", CLAIM: "claim"}.get(state.phase, "card")
    if name == "dixie-rook":
        return {"auction": "bid", "discard": "discard", "trump": "trump"}.get(state.phase,
                                                                            "card")
    if name == "dix-exchange":
        return "exchange"
    return "card"


def pick(stats, legal):
    """The robust child: most visits, then the best value (the bots' rule)."""
    return max(legal, key=lambda a: (stats.visits.get(a, 0), stats.values.get(a, -math.inf)))


class HybridBot(Bot):
    """``hybrid:iterations=1000,native=bid+trump``: the decisions of the
    named kinds searched by the Cython kernels (``native_search``), the
    others as today's ``ismcts`` bot searches them; ``native_iterations``
    (default ``iterations``) for the named kinds."""

    name = "hybrid"

    def __init__(self, game, seat, seed=None, iterations=1000, native="",
                 native_iterations=None, **settings):
        super().__init__(game, seat, seed, **settings)
        self.iterations = int(iterations)
        self.native_iterations = int(native_iterations or iterations)
        self.native = set(filter(None, str(native).split("+")))
        if not self.native <= set(KINDS) | {"none"}:
            raise OptionError(f"hybrid: native kinds are {KINDS}, got {native!r}")

    def step(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = kind_of(state)
        sampler = self.game.world_sampler(state.information_state(self.seat).view)
        its = self.iterations
        if kind == "card" or kind in self.native:
            if kind != "card":
                its = self.native_iterations
            keep = root_keep(card_classes(state, legal))
            native = native_search(self.game, sampler, "rules", keep)
            stats = run_native(native, self.game, its, None, 0.7, 1, self.rng.getrandbits(64))
            return pick(stats, legal)
        if kind == "contract":
            action, _ = contract_choice.choose_contract(sampler.sample, self.seat, legal, self.game,
                                                  worlds=max(1, its // len(legal)), rng=self.rng)
            return action
        rollout, prior = python_policies(self.game, "rules", "rules", self.rng)
        stats = ismcts_search(sampler, self.seat, legal, self.game, iterations=its, c=0.7,
                              rng=self.rng, rollout=rollout, prior=prior)
        return pick(stats, legal)


register_bot("hybrid", HybridBot)


def interval(xs):
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.inf
    return mean, 1.96 * sd / math.sqrt(n)


# ---- the contract choice against the rules player ------------------------------

def kingdom(game, seed, choose):
    """The first chooser's total over the first round (its five contracts by
    ``choose(state)``, every other decision the rules player's)."""
    from solver.games.contract_match.state import CHOOSE
    state = game.new_initial_state(seed=seed)
    pols = [make_policy("rules", game, s, seed=seed * 10 + s) for s in range(4)]
    first = state.round_no
    owner = None
    total = 0.0
    while not state.is_terminal() and state.round_no == first:
        seat = state.current_player()
        if state.phase == CHOOSE:
            owner = seat if owner is None else owner
            deal = state.round_index()
            legal = state.legal_actions()
            state.apply_action(choose(state) if len(legal) > 1 else legal[0])
            while not state.is_terminal() and state.round_index() == deal:
                state.apply_action(pols[state.current_player()].step(state))
            total += state.round_returns(deal)[owner]
            continue
        state.apply_action(pols[seat].step(state))
    return total


def contracts_main(args):
    name, _, opt = args.game.partition(":")
    game = solver.load_game(name, **({"partners": True} if opt else {}))
    its = args.iterations

    def native_arm(seed):
        def choose(state):
            seat = state.current_player()
            sampler = game.world_sampler(state.information_state(seat).view)
            stats = run_native(native_search(game, sampler), game, its, None, 0.7, 1,
                               random.Random(seed * 7 + state.round_index()).getrandbits(64))
            return pick(stats, state.legal_actions())
        return choose

    def python_arm(seed):
        def choose(state):
            seat = state.current_player()
            legal = state.legal_actions()
            sampler = game.world_sampler(state.information_state(seat).view)
            action, _ = contract_choice.choose_contract(
                sampler.sample, seat, legal, game, worlds=max(1, its // len(legal)),
                rng=random.Random(seed * 7 + state.round_index()))
            return action
        return choose

    def rules_arm(seed):
        pols = [make_policy("rules", game, s) for s in range(4)]
        return lambda state: pols[state.current_player()].step(state)

    arms = {"native": native_arm, "rules": rules_arm}
    if not args.no_python:
        arms["python"] = python_arm
    scores = {arm: [] for arm in arms}
    secs = {arm: 0.0 for arm in arms}
    for k in range(args.pairs):
        seed = args.seed * 100_000 + k
        for arm, make in arms.items():
            t0 = time.perf_counter()
            scores[arm].append(kingdom(game, seed, make(seed)))
            secs[arm] += time.perf_counter() - t0
    print(f"{args.game}: {args.pairs} duplicate rounds, {its} iterations a choice "
          f"(python: {its // 5} worlds of 5 contracts); seconds per round: " +
          ", ".join(f"{a} {secs[a] / args.pairs:.2f}" for a in arms))
    print("| arm | chooser's round total (mean +- 95%) |")
    print("|---|---|")
    for arm in arms:
        m, h = interval(scores[arm])
        print(f"| {arm} | {m:+.1f} +- {h:.1f} |")
    print("| difference | per round, paired (mean +- 95%) |")
    print("|---|---|")
    pairs = [("native", "rules")] + ([("python", "rules"), ("native", "python")]
                                     if "python" in arms else [])
    for a, b in pairs:
        m, h = interval([x - y for x, y in zip(scores[a], scores[b], strict=True)])
        print(f"| {a} - {b} | {m:+.1f} +- {h:.1f} |")


# ---- hybrid matches ------------------------------------------------------------------

def match_main(args):
    from strength import compare
    opts = {}
    for item in args.option:
        k, _, v = item.partition("=")
        opts[k] = int(v) if v.lstrip("-").isdigit() else v
    game = solver.load_game(args.game, **opts)
    a = f"hybrid:iterations={args.iterations},native={args.native}"
    if args.native_iterations:
        a += f",native_iterations={args.native_iterations}"
    b = f"hybrid:iterations={args.iterations},native=none"
    mean, ci, secs = compare(game, a, b, args.deals, args.seed, args.rounds)
    print(f"{game!r}: A={a} vs B={b}, {args.deals} duplicate deal pairs ({args.rounds} "
          f"deal{'s' if args.rounds > 1 else ''} each): A - B per deal {mean:+.3f} +- "
          f"{ci:.3f} (95%) [{secs:.0f} s]", flush=True)


# ---- redeal claims ---------------------------------------------------------------------

def claims_main(args):
    from decision_speed import decisions
    from solver.games.contract_match.state import CLAIM, REDEAL
    game = solver.load_game("tricks")
    states = decisions(game, lambda s: s.phase == CLAIM and REDEAL in s.legal_actions(),
                       args.positions, limit=200_000)
    diffs, same = [], 0
    for i, state in enumerate(states):
        seat = state.current_player()
        choice = {}
        for side in ("native", "python"):
            bot = HybridBot(game, seat, seed=i, iterations=args.iterations,
                            native="claim" if side == "native" else "none")
            choice[side] = bot.step(state)
        if choice["native"] == choice["python"]:
            same += 1
            diffs.append(0.0)
            continue
        got = {}
        d = state.round_index()
        for side, action in choice.items():
            total = 0.0
            for r in range(args.rollouts):
                w = state.clone()
                w.chance.rng = random.Random(i * 1000 + r)
                pols = [make_policy("rules", game, s) for s in range(4)]
                w.apply_action(action)
                # on to the end of the deal finally played (after any redeals)
                while not w.is_terminal() and \
                        all(log.scores is None for log in w.deal_logs[d:]):
                    w.apply_action(pols[w.current_player()].step(w))
                last = next(j for j in range(d, len(w.deal_logs))
                            if w.deal_logs[j].scores is not None)
                total += w.round_returns(last)[seat]
            got[side] = total / args.rollouts
        diffs.append(got["native"] - got["python"])
    m, h = interval(diffs)
    print(f"tricks redeal claims with a bad hand: {len(states)} positions, {args.iterations} "
          f"iterations, {args.rollouts} seeded continuations a choice (rules players); the "
          f"same claim in {same}; native - python, the claimer's result of the deal played: "
          f"{m:+.1f} +- {h:.1f} (95%)")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("contracts")
    c.add_argument("--game", default="trix", choices=("trix", "trix:partners", "tricks"))
    c.add_argument("--pairs", type=int, default=200)
    c.add_argument("--iterations", type=int, default=200)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--no-python", action="store_true")
    m = sub.add_parser("match")
    m.add_argument("game")
    m.add_argument("--native", required=True, help="kinds, joined by '+'")
    m.add_argument("--deals", type=int, default=200)
    m.add_argument("--iterations", type=int, default=1000)
    m.add_argument("--native-iterations", type=int, default=None,
                   help="A's iterations for the --native kinds (default --iterations)")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--rounds", type=int, default=1)
    m.add_argument("--option", action="append", default=[])
    k = sub.add_parser("claims")
    k.add_argument("--positions", type=int, default=60)
    k.add_argument("--iterations", type=int, default=1000)
    k.add_argument("--rollouts", type=int, default=40)
    args = p.parse_args(argv)
    {"contracts": contracts_main, "match": match_main, "claims": claims_main}[args.cmd](args)


if __name__ == "__main__":
    main()
