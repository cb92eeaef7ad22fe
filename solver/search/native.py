"""The Cython ISMCTS kernels' per-game encodings (``csrc/search/ismcts.pyx``,
compiled to ``solver.search._ismcts``).

Each ``native_*_search(sampler)`` turns a game's world sampler (what the
searching seat knows, as a compiled sampler) and its current position into
the compact rules and state the kernel searches: 64-bit card masks, rule
tables as plain lists.  ``None`` when the position is outside what that
kernel plays, without the build, or under ``DIXTRIX_PUREPYTHON``; the
caller then searches in Python (``solver.search.ismcts``).
"""

from __future__ import annotations

from ..errors import OptionError
from ..game import Game

#: every root card searched
ALL_CARDS = (1 << 64) - 1

#: the play-out policies of ISMCTS: ``rules`` is the rules bot in the
#: Python search and a cheap greedy follower written into the Cython
#: kernels (dix, the trick contracts, dixie-rook; the layout plays at
#: random); ``random`` every card at random
ISMCTS_POLICIES = ("rules", "random")


def check_ismcts_policy(policy) -> None:
    """``policy`` is one of ``ISMCTS_POLICIES`` (else ``OptionError``)."""
    if policy not in ISMCTS_POLICIES:
        raise OptionError(f"ismcts: policy must be 'random' or 'rules', got {policy!r}")

def _native_module():
    """``solver.search._ismcts``, or ``None`` without the build or under
    DIXTRIX_PUREPYTHON."""
    import os
    if os.environ.get("DIXTRIX_PUREPYTHON", "") not in ("", "0"):
        return None
    try:
        from . import _ismcts
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


def native_trick_search(sampler, keep: int = ALL_CARDS, equivalence: bool = True,
                        policy: str = "rules"):
    """The Cython search of a trix / tricks trick contract, prepared from a
    ``ContractWorldSampler``; ``None`` outside a trick contract, without the
    build, or under DIXTRIX_PUREPYTHON.  ``policy`` ``rules``: the
    follower's play-out cards by the kernel's greedy rule
    (``trick_playout``: stay under the winning card, else dump the costliest
    card on another team's trick), three times in four; ``random``: every
    play-out card at random."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.contract_match import TRICKS
    from ..games.tricks_core import PENALTY_RULES
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
                 discard_mask=rule.mask if play.must_discard else 0, played=play.played,
                 root_keep=keep, equiv=int(equivalence), playout=int(policy == "rules"))
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
    from ..games.contract_match import LAYOUT_PLAY
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
        from ..games.contract_match import PASS
        self.native, self.pass_action = native, PASS

    def _fix(self, d):
        return {self.pass_action if a == 63 else a: v for a, v in d.items()}

    def run(self, *args):
        poll = args[5] if len(args) > 5 else None

        def fixed_poll(done, visits, means):
            return poll(done, self._fix(visits), self._fix(means))

        visits, means, done, squares, per_tree = self.native.run(
            *args[:5], fixed_poll if poll is not None else None)
        return (self._fix(visits), self._fix(means), done, self._fix(squares),
                [self._fix(t) for t in per_tree])

    def simulate(self, seed):
        return self.native.simulate(seed)


def native_rook_search(sampler, keep: int = ALL_CARDS, equivalence: bool = True,
                       policy: str = "rules"):
    """The Cython search of dixie-rook card play, prepared from a
    ``RookWorldSampler``; ``None`` outside the play, without the build, or
    under DIXTRIX_PUREPYTHON.  Its value is the hand's score difference
    that ``round_returns`` reports once the hand is over (count, the nest
    to the last trick, most tricks, the bid made or set), a tie for most
    tricks valued at the mean of the cut's two outcomes.  ``policy``
    ``rules``: the follower's play-out cards by the kernel's greedy rule
    (``rook_playout``: count onto the partner's trick when last, else the
    cheapest card that beats an opponent, else the lowest card without
    count), three times in four; ``random``: every card at random."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.dixie_rook import PLAY, card_count, team_of
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
             "scale": float(game.round_scale), "root_keep": keep,
             "equiv": int(equivalence), "playout": int(policy == "rules")}
    seen_nest = base.bid_winner == seat
    state = {"hands": list(base.hands), "trick": list(base.trick), "leader": base.leader,
             "tricks_done": base.tricks_done, "won": list(base.tricks_won),
             "count": list(base.count),
             "nest_pts": sum(card_count(c) for c in base.discards) if seen_nest else 0}
    return _ismcts.RookSearch(sampler.sampler.compiled, rules, state)


def root_keep(classes) -> int:
    """The mask of the root's cards a Cython search tries: the first card
    of each class of equivalent cards (``equivalence.card_classes``); its
    figures stand for the class (``equivalence.pool``)."""
    keep = 0
    for members in classes:
        if not 0 <= members[0] <= 63:
            return ALL_CARDS
        keep |= 1 << members[0]
    return keep


def native_search(game: Game, sampler, policy: str = "rules", keep: int = ALL_CARDS,
                  equivalence: bool = True):
    """The Cython search for this game and view, when there is one;
    ``policy`` its play-outs (``ISMCTS_POLICIES``), ``keep`` the root cards
    it tries (``root_keep``); below the root every kernel searches one card
    of each run of equivalent cards of the world it plays, unless
    ``equivalence`` is false (every card: for measurements)."""
    from .support import support_for
    check_ismcts_policy(policy)
    return support_for(game).native(sampler, policy, keep, equivalence)


def native_dix_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                      equivalence: bool = True):
    """The Cython search (``csrc/search/ismcts.pyx``) prepared from a dix world
    sampler, or ``None`` without the build or under DIXTRIX_PUREPYTHON.
    ``policy`` ``rules``: the follower's play-out cards by the kernel's
    greedy rule (``dix_playout``), three times in four; ``random``: every
    play-out card at random."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..cardset import dix_pips
    from ..cards import DIX
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
             "seat": sampler.seat, "played": base.played, "dest": dest,
             "playout": 1 if policy == "rules" else 0, "root_keep": keep,
             "equiv": int(equivalence)}
    state = {"hands": list(base.hands), "stock": list(base.stock),
             "stock_pos": base.stock_pos, "leader": base.leader,
             "lead_card": base.trick[0] if base.trick else -1,
             "tricks_done": base.tricks_done, "won": list(base.tricks_won),
             "tens": list(base.tens), "last_winner": base.last_winner}
    return _ismcts.DixSearch(compiled, rules, state)
