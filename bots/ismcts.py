"""Information-set MCTS over the game protocol (pure Python).

Single-observer ISMCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012): one
tree for the searching seat.  Every iteration

1. draws a world uniformly among those consistent with the seat's view
   (``Game.world_sampler``), a *determinization*;
2. descends the tree, at each node considering only the children whose
   action is legal in this world, choosing by UCB1 with *availability*
   counts (how often a child was legal when its parent was visited):
   ``mean + c * sqrt(ln(avail) / visits)``; an action never tried is
   expanded first.  With a heuristic ``prior`` (the rules bot, the default
   of the bot's Python searches) it chooses by PUCT instead (AlphaZero's
   rule): ``mean + c * P * sqrt(avail) / (1 + visits)``, ``P`` one half on
   the heuristic's action in this world and the rest split evenly, an
   untried action valued at its tried siblings' mean.  Without it, the
   few hundred iterations a bid gets leave every seat's later bids near
   random in the tree, and the search overbids (dixie-rook: ISMCTS bidding
   with UCB1 lost 80 points a deal to the rules bot, with PUCT it is level);
3. plays the rest of the current deal with the rollout policy (the rules
   bot by default where the game has one);
4. backs up the deal's result (``round_returns()``, divided by
   ``game.round_scale`` so rewards lie in [-1, 1]) from the point of view
   of the seat that moved into each node.

The tree is keyed by actions, so it stays exact for games whose actions are
all public (dix, trix, tricks, dixie-rook card play); where one seat's action
is hidden from the searcher (a dixie-rook discard, an exchange), the
determinization's own action is used, which lets the search see a hidden
move it should not ("strategy fusion" and leakage, the known weakness of
SO-ISMCTS; MO-ISMCTS avoids it at the cost of one tree per seat).

The horizon is the end of the current deal: ISMCTS optimizes the deal's
result, not the match's.  Deterministic for a seed and an iteration limit;
a time limit makes the number of iterations (and so the answer) depend on
the machine.

Exploration constant: ``c = 0.7`` by default, for rewards in [-1, 1]
(about sqrt(2)/2: the usual UCT value for rewards in [0, 1] is sqrt(2)
scaled by the range).
"""

from __future__ import annotations

import math
import random
import time as _time
from dataclasses import dataclass, field

from solver.errors import LimitError, OptionError
from solver.game import Game, State

from .base import Bot, register_bot


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0          # reward sum for the seat that moved into this node
    avail: int = 0
    children: dict = field(default_factory=dict)


@dataclass
class SearchStats:
    """What a search found at its root."""

    values: dict            # action -> mean result of the deal, in game points
    visits: dict            # action -> visits
    iterations: int
    nodes: int
    seconds: float


def ismcts_search(sampler, seat: int, root_legal: list[int], game: Game, *,
                  iterations: int | None = None, seconds: float | None = None,
                  c: float = 0.7, rng: random.Random, rollout=None,
                  prior=None, progress=None) -> SearchStats:
    """Run SO-ISMCTS from a world sampler; see the module docstring.

    ``rollout(state, rng) -> action`` is the playout policy (default
    uniform random).  ``prior(state) -> action``: a heuristic's choice in
    the world at hand; with it the tree selects by PUCT (``_select_puct``,
    ``c`` is then the PUCT constant) instead of UCB1.
    ``progress(stats)`` is called about every 100 iterations."""
    if iterations is None and seconds is None:
        raise LimitError("ISMCTS needs an iteration or a time limit")
    root = _Node()
    scale = float(game.round_scale)
    start = _time.perf_counter()
    deadline = start + seconds if seconds is not None else None
    nodes = 1
    it = 0
    while True:
        if iterations is not None and it >= iterations:
            break
        if deadline is not None and it > 0 and _time.perf_counter() >= deadline:
            break
        world = sampler.sample(rng)
        horizon = world.round_index()
        node = root
        path = []                                   # (node, mover)
        # selection / expansion
        while not world.is_terminal() and world.round_index() == horizon:
            legal = world.legal_actions()
            mover = world.current_player()
            if prior is not None:
                a, child = _select_puct(node, legal, prior(world), c)
                if child.visits == 0:               # expansion
                    nodes += 1
                    world.apply_action(a)
                    path.append((child, mover))
                    break
                node = child
                world.apply_action(a)
                path.append((node, mover))
                continue
            untried = [a for a in legal if a not in node.children]
            for a in legal:
                child = node.children.get(a)
                if child is not None:
                    child.avail += 1
            if untried:
                a = untried[rng.randrange(len(untried))]
                child = _Node(avail=1)
                node.children[a] = child
                nodes += 1
                world.apply_action(a)
                path.append((child, mover))
                break
            best, best_score = None, -math.inf
            for a in legal:
                ch = node.children[a]
                score = ch.total / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score = a, score
            node = node.children[best]
            world.apply_action(best)
            path.append((node, mover))
        # rollout to the end of the deal
        while not world.is_terminal() and world.round_index() == horizon:
            legal = world.legal_actions()
            a = rollout(world, rng) if rollout else legal[rng.randrange(len(legal))]
            world.apply_action(a)
        result = world.round_returns(horizon)
        rewards = [max(-1.0, min(1.0, r / scale)) for r in result]
        root.visits += 1
        for n, mover in path:
            n.visits += 1
            n.total += rewards[mover]
        it += 1
        if progress is not None and it % 100 == 0:
            progress(_stats(root, it, nodes, start, scale))
    stats = _stats(root, it, nodes, start, scale)
    if progress is not None and it % 100:
        progress(stats)                      # and once at the end
    return stats


#: PUCT prior: the heuristic's action gets this share of the prior, the
#: other legal actions split the rest evenly
PRIOR_SHARE = 0.5


def _select_puct(node: _Node, legal: list, favoured, c: float):
    """PUCT selection among ``legal`` (AlphaZero's rule with a heuristic
    prior, availability counts for ISMCTS):
    ``Q(a) + c * P(a) * sqrt(avail(a)) / (1 + visits(a))``, ``P`` = ``PRIOR_SHARE``
    on the heuristic's action ``favoured`` and the rest split evenly; an
    action never tried is valued at the mean of its tried siblings (first
    play urgency; 0 when none was tried).  Children are created here and
    their ``avail`` counted; returns ``(action, child)``."""
    children = node.children
    tot, vis = 0.0, 0
    for a in legal:
        ch = children.get(a)
        if ch is None:
            ch = children[a] = _Node()
        ch.avail += 1
        if ch.visits:
            tot += ch.total
            vis += ch.visits
    fpu = tot / vis if vis else 0.0
    k = len(legal)
    other = (1.0 - PRIOR_SHARE) / (k - 1) if k > 1 else 0.0
    best, best_score = None, -math.inf
    for a in legal:
        ch = children[a]
        p = PRIOR_SHARE if a == favoured else other
        if k == 1:
            p = 1.0
        q = ch.total / ch.visits if ch.visits else fpu
        score = q + c * p * math.sqrt(ch.avail) / (1 + ch.visits)
        if score > best_score:
            best, best_score = a, score
    return best, children[best]


def _native_module():
    """``solver._ismcts``, or ``None`` without the build or under
    DIXTRIX_PUREPYTHON."""
    import os
    if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
        return None
    try:
        from solver import _ismcts
    except ImportError:  # pragma: no cover
        return None
    return _ismcts


def _holder_rules(sampler) -> dict:
    """The determinization part of a trix / tricks search's rules: teams,
    the cards known to be with each seat, the seats the sampler deals to."""
    base = sampler.base
    seat = sampler.seat
    fixed = [0] * 4
    for card, s in sampler.fixed.items():
        fixed[s] |= 1 << card
    partners = bool(base.game.options.get("partners", False))
    return {"team": [s % 2 if partners else s for s in range(4)], "fixed": fixed,
            "others": [s for s in range(4) if s != seat], "seat": seat,
            "scale": float(base.game.round_scale)}


def native_trick_search(sampler):
    """The Cython search of a trix / tricks trick contract, prepared from a
    ``ContractWorldSampler``; ``None`` outside a trick contract, without the
    build, or under DIXTRIX_PUREPYTHON."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from solver.games.contract_match import TRICKS
    from solver.games.tricks_core import PENALTY_RULES
    base = sampler.base
    if base.is_terminal() or base.phase != TRICKS or sampler.sampler is None:
        return None
    log = base.log
    play = log.play
    rule = PENALTY_RULES[log.contract]
    revealer = [-1] * 64
    for r, card in log.reveals:
        revealer[card] = r
    rules = dict(_holder_rules(sampler),
                 win_pts=[-rule.per_card if rule.mask >> c & 1 else 0 for c in range(64)],
                 revealer=revealer, trick_pts=-rule.per_trick,
                 discard_mask=rule.mask if play.must_discard else 0, played=play.played)
    state = {"hands": list(play.hands), "score": list(base._deal_scores(log)),
             "trick": list(play.trick), "leader": play.leader,
             "tricks_done": play.tricks_done}
    return _ismcts.TrickSearch(sampler.sampler.compiled, rules, state)


def native_layout_search(sampler):
    """The Cython search of the layout (trix "Trix" / tricks "Jacks"),
    prepared from a ``ContractWorldSampler``; ``None`` outside the layout."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from solver.games.contract_match import LAYOUT_PLAY
    base = sampler.base
    if base.is_terminal() or base.phase != LAYOUT_PLAY or sampler.sampler is None:
        return None
    play = base.log.play
    played = 0
    for _, card in play.plays:
        played |= 1 << card
    place = [-1] * 4
    for i, s in enumerate(play.finish):
        place[s] = i
    rules = dict(_holder_rules(sampler), played=played)
    lay = play.layout
    state = {"hands": list(play.hands), "lo": list(lay.lo), "hi": list(lay.hi),
             "left": list(play.left), "place": place, "fit": lay.fitting(),
             "turn": play.turn, "nout": len(play.finish)}
    return _NativeWithPass(_ismcts.LayoutSearch(sampler.sampler.compiled, rules, state))


class _NativeWithPass:
    """Maps the C search's pass (63) to the game's pass action."""

    def __init__(self, native):
        from solver.games.contract_match import PASS
        self.native, self.pass_action = native, PASS

    def _fix(self, d):
        return {self.pass_action if a == 63 else a: v for a, v in d.items()}

    def run(self, *args):
        visits, means, done = self.native.run(*args)
        return self._fix(visits), self._fix(means), done

    def simulate(self, seed):
        return self.native.simulate(seed)


def native_rook_search(sampler):
    """The Cython search of dixie-rook card play, prepared from a
    ``RookWorldSampler``; ``None`` outside the play, without the build, or
    under DIXTRIX_PUREPYTHON.  Its value is the hand's score difference
    that ``round_returns`` reports once the hand is over (count, the nest
    to the last trick, most tricks, the bid made or set), a tie for most
    tricks valued at the mean of the cut's two outcomes."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from solver.games.dixie_rook import PLAY, card_count, team_of
    base = sampler.base
    if base.is_terminal() or base.phase != PLAY or sampler.sampler is None:
        return None
    game = base.game
    n = game.num_players
    seat = sampler.seat
    rules = {"points": [card_count(c) for c in range(64)], "nseats": n,
             "hand_size": game.hand_size, "trump": base.trump, "bid": base.bid,
             "bid_team": team_of(base.bid_winner), "seat": seat,
             "holder_seat": [h if h >= 0 else -1 for h in sampler.holders],
             "scale": float(game.round_scale)}
    seen_nest = base.bid_winner == seat
    state = {"hands": list(base.hands), "trick": list(base.trick), "leader": base.leader,
             "tricks_done": base.tricks_done, "won": list(base.tricks_won),
             "count": list(base.count),
             "nest_pts": sum(card_count(c) for c in base.discards) if seen_nest else 0}
    return _ismcts.RookSearch(sampler.sampler.compiled, rules, state)


def native_search(game: Game, sampler):
    """The Cython search for this game and view, when there is one."""
    if game.name == "dix":
        return native_dix_search(sampler)
    if game.name in ("trix", "tricks"):
        return native_trick_search(sampler) or native_layout_search(sampler)
    if game.name == "dixie-rook":
        return native_rook_search(sampler)
    return None


def run_native(native, game: Game, iterations, seconds, c, threads, seed) -> SearchStats:
    """Run a prepared Cython search; the result in the same form as
    ``ismcts_search``'s."""
    start = _time.perf_counter()
    its = iterations if iterations is not None else 10**12
    visits, means, done = native.run(its, seconds or 0.0, seed, threads, c)
    scale = float(game.round_scale)
    values = {a: m * scale for a, m in means.items()}
    return SearchStats(values, visits, done, sum(visits.values()) + 1,
                       _time.perf_counter() - start)


def _stats(root, it, nodes, start, scale) -> SearchStats:
    values = {a: ch.total / ch.visits * scale for a, ch in root.children.items() if ch.visits}
    visits = {a: ch.visits for a, ch in root.children.items()}
    return SearchStats(values, visits, it, nodes, _time.perf_counter() - start)


def native_dix_search(sampler):
    """The Cython search (``csrc/ismcts.pyx``) prepared from a dix world
    sampler, or ``None`` without the build or under DIXTRIX_PUREPYTHON."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from solver.cardset import dix_pips
    from solver.cards import DIX
    base = sampler.base
    if base.is_terminal() or not sampler.live:
        return None
    model = sampler.models[-1]
    compiled = model.sampler.compiled
    dest = []
    for k, j in zip(compiled.slot_group, compiled.slot_offset):
        label = model.groups[k].label
        if label == "rest":
            dest.append(model.rest[j] if base.game.stock_size else -2)
        else:
            dest.append(-1)                      # the opponent's hand or a draw
    table = base.table
    rules = {"suit_of": [table[c] for c in range(64)],
             "strength": [table[64 + c] for c in range(64)],
             "pips": [dix_pips(c) for c in range(64)],
             "suit_mask": [sum(1 << c for c in DIX.cards if table[c] == s) for s in range(4)],
             "trump": base.trump, "free_play": int(base.game.options["free_play_while_stock"]),
             "stock_len": len(base.stock), "total_tricks": base.game.tricks_per_round,
             "seat": sampler.seat, "played": base.played, "dest": dest}
    state = {"hands": list(base.hands), "stock": list(base.stock),
             "stock_pos": base.stock_pos, "leader": base.leader,
             "lead_card": base.trick[0] if base.trick else -1,
             "tricks_done": base.tricks_done, "won": list(base.tricks_won),
             "tens": list(base.tens), "last_winner": base.last_winner}
    return _ismcts.DixSearch(compiled, rules, state)


class ISMCTSBot(Bot):
    """``ismcts:iterations=2000,c=0.7`` or ``ismcts:time=0.5``; ``threads``
    for the Cython search, ``py_iterations`` for decisions searched in
    Python.  The Python searches (decisions other than card play: bids,
    contracts, the nest, exchanges...) play out with ``policy`` (``rules``,
    the default where the game has a rules bot, or ``random``) and select
    with ``prior`` (``rules``, the default: PUCT with the rules bot's action
    as the favoured prior; ``none``: UCB1).

    Chooses the most visited root action (robust child)."""

    name = "ismcts"

    def __init__(self, game: Game, seat: int, seed: int | None = None, iterations=None,
                 time=None, c: float = 0.7, threads: int = 1, py_iterations=None,
                 policy: str = "rules", prior: str = "rules", **settings):
        super().__init__(game, seat, seed, **settings)
        if policy not in ("random", "rules"):
            raise OptionError(f"ismcts: policy must be 'random' or 'rules', got {policy!r}")
        if prior not in ("none", "rules"):
            raise OptionError(f"ismcts: prior must be 'none' or 'rules', got {prior!r}")
        #: tree policy of the Python search: "none" is UCB1, "rules" PUCT
        #: with the rules bot's action as the favoured prior (_select_puct)
        self.prior = prior
        #: play-out policy of the Python search (the Cython searches play
        #: out at random): "rules" plays the game's heuristic at every seat
        self.policy = policy
        if iterations is None and time is None:
            iterations = 1000
        if iterations is not None and (not isinstance(iterations, int) or
                                       not 1 <= iterations <= 10**9):
            raise LimitError(f"ismcts: iterations must be an integer 1..1e9, got {iterations!r}")
        if time is not None and (not isinstance(time, (int, float)) or not 0 < time <= 86400):
            raise LimitError(f"ismcts: time must be seconds in (0, 86400], got {time!r}")
        if not isinstance(c, (int, float)) or not 0 <= c <= 100:
            raise LimitError(f"ismcts: c must be in [0, 100], got {c!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise LimitError(f"ismcts: threads must be 1..64, got {threads!r}")
        if py_iterations is not None and (not isinstance(py_iterations, int) or
                                          not 1 <= py_iterations <= 10**9):
            raise LimitError(f"ismcts: py_iterations must be an integer 1..1e9, got "
                             f"{py_iterations!r}")
        self.iterations, self.time, self.c = iterations, time, float(c)
        self.threads = threads
        #: iterations for decisions searched in Python (no Cython search for
        #: them: contract choices, bids, the layout...); default: iterations
        self.py_iterations = py_iterations
        self.last: SearchStats | None = None

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.last = self.search(state)
        return max(legal, key=lambda a: (self.last.visits.get(a, 0),
                                         self.last.values.get(a, -math.inf)))

    def search(self, state: State, progress=None) -> SearchStats:
        view = state.information_state(self.seat).view
        sampler = self.game.world_sampler(view)
        native = native_search(self.game, sampler)
        if native is not None:
            return run_native(native, self.game, self.iterations, self.time, self.c,
                              self.threads, self.rng.getrandbits(64))
        its = self.py_iterations if self.py_iterations is not None else self.iterations
        rollout, prior = python_policies(self.game, self.policy, self.prior, self.rng)
        return ismcts_search(sampler, self.seat, state.legal_actions(), self.game,
                             iterations=its, seconds=self.time, c=self.c,
                             rng=self.rng, rollout=rollout, prior=prior, progress=progress)


def python_policies(game: Game, policy: str, prior: str, rng: random.Random):
    """``(rollout, prior)`` callables for ``ismcts_search``: the game's rules
    bot (one per seat, seeded from ``rng``) where ``policy`` / ``prior`` is
    ``"rules"`` and the game has one; ``None`` (uniform random play-outs,
    UCB1) otherwise."""
    from .rules import has_rules_bot
    if "rules" not in (policy, prior) or not has_rules_bot(game.name):
        return None, None
    from .base import make_bot
    players = [make_bot("rules", game, s, seed=rng.randrange(1 << 30))
               for s in range(game.num_players)]

    def heuristic(world, rng=None):
        return players[world.current_player()].step(world)

    return (heuristic if policy == "rules" else None,
            heuristic if prior == "rules" else None)


register_bot("ismcts", ISMCTSBot)
