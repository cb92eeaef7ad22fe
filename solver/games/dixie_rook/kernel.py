"""dixie-rook's encoding for the Cython search kernels
(``csrc/search/rook.pxd``, ``csrc/search/hand.pxd``)."""

from __future__ import annotations

from ...games.dixie_rook import (
    AUCTION,
    BID_BASE,
    DISCARD,
    DISCARD_BASE,
    MIN_BID,
    PASS,
    PLAY,
    TRUMP,
    TRUMP_BASE,
    card_count,
    team_of,
)
from ...search import native as search_native
from ...search.native import ALL_CARDS
from ...trickrules import kernel_table
from .model import played_cards
from .rules import hand_rules

# ---- dixie-rook ---------------------------------------------------------------


#: the kernel's bids (csrc/search/hand.pxd): bid 70 + 5k is bit k, a pass bit 11
BID_PASS_BIT = 11


def native_rook_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                       equivalence: bool = True):
    """The Cython search of any dixie-rook decision, prepared from a
    ``RookWorldSampler``; ``None`` once the game is over, without the build,
    or under DIXTRIX_PUREPYTHON.

    Card play (``csrc/search/rook.pxd``): its value is the hand's score
    difference that ``round_returns`` reports once the hand is over (count,
    the nest to the last trick, most tricks, the bid made or set), a tie for
    most tricks valued at the mean of the cut's two outcomes.  ``policy``
    ``rules``: the follower's play-out cards by the kernel's greedy rule
    (``rook_greedy``: count onto the partner's trick when last, else the
    cheapest card that beats an opponent, else the lowest card without
    count), three times in four; ``random``: every card at random.

    Bids, nest discards and trumps (``csrc/search/hand.pxd``): the whole
    hand from the decision, the auction's, nest's and trumps' later moves
    as the rules player makes them (PUCT's prior, and in play-outs), its
    cards as above; a hand every seat passes is worth 0."""
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
    base = sampler.base
    if base.is_terminal() or sampler.sampler is None:
        return None
    game = base.game
    n = game.num_players
    seat = sampler.seat
    # the trick rules derived from the hand's rulebook
    # (solver/games/dixie_rook/rules.py); the trump once it is named
    table = kernel_table(hand_rules(n, base.trump if base.phase == PLAY else -1))
    rules = {"points": table["points"], "nseats": table["nseats"],
             "hand_size": game.hand_size, "seat": seat,
             "holder_seat": [h if h >= 0 else -1 for h in sampler.holders],
             "scale": float(game.round_scale), "root_keep": keep,
             "equiv": int(equivalence), "playout": int(policy == "rules")}
    if base.phase == PLAY:
        rules.update(trump=table["trump"], bid=base.bid, bid_team=team_of(base.bid_winner))
        seen_nest = base.bid_winner == seat
        state = {"hands": list(base.hands), "trick": list(base.trick), "leader": base.leader,
                 "tricks_done": base.tricks_done, "won": list(base.tricks_won),
                 "count": list(base.count),
                 "nest_pts": sum(card_count(c) for c in base.discards) if seen_nest else 0,
                 # what the learned policy counts as out of play (public)
                 "out": played_cards(base)}
        return _ismcts.Search("rook", sampler.sampler.compiled, rules, state)
    if base.phase not in (AUCTION, DISCARD, TRUMP):
        return None
    # the nest and the discards keep their own holder codes here (-1, -2)
    rules.update(holder_seat=list(sampler.holders),
                 must_bid=int(bool(game.options["dealer_must_bid"])),
                 nest_size=game.nest_size)
    auction = base.auction
    winner = base.bid_winner
    state = {"hands": list(base.hands), "leader": base.leader,
             "phase": {AUCTION: 0, DISCARD: 1, TRUMP: 2}[base.phase],
             "to_act": auction.to_act, "high_bid": auction.high_bid,
             "high_bidder": auction.high_bidder, "passed": list(auction.passed),
             "winner": winner,
             "nest": list(base.nest) if winner == seat else [],
             "discards": list(base.discards) if winner == seat else []}
    native = _ismcts.Search("hand", sampler.sampler.compiled, rules, state)
    if base.phase == AUCTION:
        names = {k: BID_BASE + MIN_BID + 5 * k for k in range(11)}
        names[BID_PASS_BIT] = PASS
    elif base.phase == DISCARD:
        names = {c: DISCARD_BASE + c for c in range(64)}
    else:
        names = {c: TRUMP_BASE + c for c in range(4)}
    return search_native.Mapped(native, names)
