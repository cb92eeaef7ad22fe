"""The Cython ISMCTS kernels' per-game encodings (``csrc/search/``,
compiled to ``solver.search._ismcts``).

Each game has one function that turns its world sampler (what the
searching seat knows, as a compiled sampler) and its current position into
the compact rules and state a kernel searches -- 64-bit card masks, rule
tables as plain lists -- for every decision of the game:

* ``native_dix_search``: dix card play;
* ``native_contract_search``: trix / tricks: the contract choice, doubling
  (trix), redeal claims (tricks), card play in a trick contract, the
  layout;
* ``native_rook_search``: dixie-rook bids, nest discards, trumps and card
  play;
* ``native_exchange_search``: every dix-exchange decision.

``native_search`` dispatches to them through each game's registered
support (``solver/games/<game>/search.py``).  A prepared search's ``run(iterations,
seconds, seed, threads, c, poll)`` returns ``(visits, means, iterations,
squares, per_tree, batches)`` keyed by the game's action ids (see
``csrc/search/ismcts.pyx``); ``None`` instead of a search without the build
or under ``DIXTRIX_PUREPYTHON`` (the caller then searches in Python,
``solver.search.ismcts``), or in the rare position a kernel does not model
(said where it happens).

Units: ``means`` are the searching seat's deal result over the game's
``round_scale`` (the contract choice too: the caller subtracts each
contract's average-deal value, ``solver.search.contract_choice``).
"""

from __future__ import annotations

from ..errors import OptionError
from ..game import Game

#: every root card searched
ALL_CARDS = (1 << 64) - 1

#: the play-out policies of ISMCTS: ``rules`` is the rules bot in the
#: Python search; in the Cython kernels, the rules bot's decisions other
#: than cards (ported to C), a cheap greedy follower for cards (dix, the
#: trick contracts, dixie-rook; the layout plays at random), and the rules
#: bot's cards too for the contract choice; ``random`` every move at random
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


def native_search(game: Game, sampler, policy: str = "rules", keep: int = ALL_CARDS,
                  equivalence: bool = True):
    """The Cython search for this game and view (the game's ``GameSupport``,
    ``solver.search.support``, names its function below); ``policy`` its
    play-outs (``ISMCTS_POLICIES``), ``keep`` the root cards it tries
    (``root_keep``; decisions other than cards search every legal action);
    below the root every card search tries one card of each run of
    equivalent cards of the world it plays, unless ``equivalence`` is false
    (every card: for measurements)."""
    from .support import support_for
    check_ismcts_policy(policy)
    return support_for(game).native(sampler, policy, keep, equivalence)


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


class _Mapped:
    """A kernel search whose root moves are not the game's action ids: its
    statistics (and ``poll``'s) with each bit renamed by ``names`` (bits
    not in it keep their number)."""

    def __init__(self, native, names: dict):
        self.native, self.names = native, names

    def _fix(self, d):
        names = self.names
        return {names.get(a, a): v for a, v in d.items()}

    def run(self, *args):
        poll = args[5] if len(args) > 5 else None
        out = self.native.run(*args[:5], None if poll is None else self._fixed(poll))
        visits, means, done, squares, per_tree, batches = out
        return (self._fix(visits), self._fix(means), done, self._fix(squares),
                [self._fix(t) for t in per_tree], [self._fix(t) for t in batches])

    def _fixed(self, poll):
        """``poll`` called with the actions renamed."""
        def fixed_poll(done, visits, means):
            return poll(done, self._fix(visits), self._fix(means))
        return fixed_poll

    def simulate(self, seed):
        return self.native.simulate(seed)

    def moves(self, hands):
        return self.native.moves(hands)


# ---- dix ---------------------------------------------------------------------


def native_dix_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                      equivalence: bool = True):
    """The Cython search (``csrc/search/dix.pxd``) prepared from a dix world
    sampler, or ``None`` without the build or under DIXTRIX_PUREPYTHON.
    ``policy`` ``rules``: the follower's play-out cards by the kernel's
    greedy rule (``dix_playout``), three times in four; ``random``: every
    play-out card at random."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..cards import DIX
    from ..cardset import dix_pips
    base = sampler.base
    if base.is_terminal() or not sampler.live:
        return None
    model = sampler.models[-1]
    compiled = model.sampler.compiled
    dest = []
    for k, j in zip(compiled.slot_group, compiled.slot_offset, strict=True):
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


# ---- trix / tricks -------------------------------------------------------------


def native_contract_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                           equivalence: bool = True):
    """The Cython search of any trix / tricks decision, prepared from a
    ``ContractWorldSampler``: card play in a trick contract
    (``native_trick_search``), the layout (``native_layout_search``), and
    the decisions before the play (``native_deal_search``: the contract
    choice, doubling, redeal claims).  ``None`` once the game is over,
    without the build, or under DIXTRIX_PUREPYTHON."""
    from ..games.contract_match.state import CHOOSE, CLAIM, DECLARE, LAYOUT_PLAY, TRICKS
    base = sampler.base
    if base.is_terminal() or sampler.sampler is None:
        return None
    if base.phase == TRICKS:
        return native_trick_search(sampler, policy, keep, equivalence)
    if base.phase == LAYOUT_PLAY:
        return native_layout_search(sampler, policy, keep, equivalence)
    if base.phase in (CHOOSE, DECLARE, CLAIM):
        return native_deal_search(sampler, policy)
    return None


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


def native_trick_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                        equivalence: bool = True):
    """The Cython search of a trix / tricks trick contract
    (``csrc/search/trick.pxd``), prepared from a ``ContractWorldSampler``;
    ``None`` outside a trick contract, without the build, or under
    DIXTRIX_PUREPYTHON.  ``policy`` ``rules``: the follower's play-out
    cards by the kernel's greedy rule (``trick_greedy``: stay under the
    winning card, else dump the costliest card on another team's trick),
    three times in four; ``random``: every play-out card at random."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.contract_match.state import TRICKS
    from ..games.contract_match.trick_play import PENALTY_RULES
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


#: the kernels' pass in the layout (63 is no card)
PASS_BIT = 63


def native_layout_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                         equivalence: bool = True):
    """The Cython search of the layout (trix "Trix" / tricks "Jacks";
    ``csrc/search/trick.pxd``), prepared from a ``ContractWorldSampler``;
    ``None`` outside the layout.  Its play-outs are random whatever
    ``policy`` says; every card is searched (no equivalent cards in the
    layout)."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.contract_match.state import LAYOUT_PLAY, PASS
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
    return _Mapped(_ismcts.LayoutSearch(sampler.sampler.compiled, rules, state),
                   {PASS_BIT: PASS})


#: the kernel's moves before the play (csrc/search/deal.pxd): reveal done,
#: no redeal, redeal
DONE_BIT, NO_REDEAL_BIT, REDEAL_BIT = 63, 0, 1


def native_deal_search(sampler, policy: str = "rules"):
    """The Cython search of a trix / tricks decision before the play
    (``csrc/search/deal.pxd``), prepared from a ``ContractWorldSampler``:
    the whole deal is searched from the decision, its later non-card
    decisions as the rules player makes them (PUCT's prior, and in
    play-outs), a redeal dealing new hands.

    The contract choice is a flat search: every open contract played out
    in each world, paired, by the rules player at every seat (``policy``
    ``rules``: the policy the contracts' average-deal values were measured
    with), so that no contract's raw value (the layout's is far above the
    others') draws the iterations; its means are this deal's values, and
    the caller judges them against each contract's average-deal value
    (``solver.search.contract_choice``: the choice maximises ``v(c) - b(c)``).
    Doubling and claims: a tree (PUCT on the decisions, UCB1 on the cards),
    its card play-outs the trick contracts' greedy follower.  ``random``:
    every play-out move at random.  ``None`` outside those phases."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..cards import mask_of
    from ..games.contract_match.state import (
        CHOOSE,
        CLAIM,
        CONTRACT_BASE,
        DECLARE,
        NO_REDEAL,
        REDEAL,
        REVEAL_BASE,
        REVEAL_DONE,
    )
    from ..games.contract_match.trick_play import PENALTY_RULES
    base = sampler.base
    if base.is_terminal() or base.phase not in (CHOOSE, DECLARE, CLAIM) or \
            sampler.sampler is None:
        return None
    game = base.game
    log = base.log
    rules4 = [PENALTY_RULES[k] for k in range(4)]
    choosing = base.phase == CHOOSE
    used = len(base.used) + (1 if choosing else 0)
    rules = dict(_holder_rules(sampler),
                 win_pts=[[-r.per_card if r.mask >> c & 1 else 0 for c in range(64)]
                          for r in rules4] + [[0] * 64],
                 trick_pts=[-r.per_trick for r in rules4] + [0],
                 pen_mask=[r.mask for r in rules4] + [0],
                 must_discard=int(bool(game.options.get("must_discard_penalty", False))),
                 doubling=int(game.has_reveals), claims=int(game.has_claims),
                 claim_dealer=int(used == 5), chooser=base.chooser,
                 playout=0 if policy == "random" else (3 if choosing else 1),
                 flat=int(choosing))
    phase = {CHOOSE: 0, DECLARE: 1, CLAIM: 2}[base.phase]
    order = list(base.order) if not choosing else []
    state = {"hands": [mask_of(h) for h in log.hands], "phase": phase,
             "contract": log.contract,
             "open_contracts": sum(1 << k for k in range(5) if k not in base.used),
             "order": order, "order_pos": base.order_pos if not choosing else 0,
             "reveals": list(log.reveals)}
    native = _ismcts.DealSearch(sampler.sampler.compiled, rules, state)
    if choosing:
        names = {k: CONTRACT_BASE + k for k in range(5)}
    elif base.phase == DECLARE:
        names = {c: REVEAL_BASE + c for c in range(64)}
        names[DONE_BIT] = REVEAL_DONE
    else:
        names = {NO_REDEAL_BIT: NO_REDEAL, REDEAL_BIT: REDEAL}
    return _Mapped(native, names)


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
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.dixie_rook import (
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
    base = sampler.base
    if base.is_terminal() or sampler.sampler is None:
        return None
    game = base.game
    n = game.num_players
    seat = sampler.seat
    rules = {"points": [card_count(c) for c in range(64)], "nseats": n,
             "hand_size": game.hand_size, "seat": seat,
             "holder_seat": [h if h >= 0 else -1 for h in sampler.holders],
             "scale": float(game.round_scale), "root_keep": keep,
             "equiv": int(equivalence), "playout": int(policy == "rules")}
    if base.phase == PLAY:
        rules.update(trump=base.trump, bid=base.bid, bid_team=team_of(base.bid_winner))
        seen_nest = base.bid_winner == seat
        state = {"hands": list(base.hands), "trick": list(base.trick), "leader": base.leader,
                 "tricks_done": base.tricks_done, "won": list(base.tricks_won),
                 "count": list(base.count),
                 "nest_pts": sum(card_count(c) for c in base.discards) if seen_nest else 0}
        return _ismcts.RookSearch(sampler.sampler.compiled, rules, state)
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
    native = _ismcts.HandSearch(sampler.sampler.compiled, rules, state)
    if base.phase == AUCTION:
        names = {k: BID_BASE + MIN_BID + 5 * k for k in range(11)}
        names[BID_PASS_BIT] = PASS
    elif base.phase == DISCARD:
        names = {c: DISCARD_BASE + c for c in range(64)}
    else:
        names = {c: TRUMP_BASE + c for c in range(4)}
    return _Mapped(native, names)


# ---- dix-exchange ----------------------------------------------------------------


def _exchange_graph(model) -> dict:
    """A ``_WorldModel``'s count compiled to flat arrays for the kernel
    (``ExGraph`` in csrc/search/exchange.pxd): one node per reachable
    ``(value step, tracked counts)``, its edges the cards of that value each
    group gets, with their cumulative probabilities (the model's exact
    counts, as ``_WorldModel.draw`` picks them)."""
    ids = {(0, model.start): 0}
    frontier = [(0, model.start)]
    edge_start: list[int] = []
    edge_counts: list[int] = []
    edge_next: list[int] = []
    edge_cum: list[float] = []
    nv = len(model.values)
    k = 0
    while k < len(frontier):
        j, state = frontier[k]
        k += 1
        edge_start.append(len(edge_next))
        if j == nv:
            continue
        cums, moves = model.table[(j, state)]
        total = cums[-1]
        for cum, (counts, nxt) in zip(cums, moves, strict=True):
            key = (j + 1, nxt)
            if key not in ids:
                ids[key] = len(frontier)
                frontier.append(key)
            edge_counts.extend(counts)
            edge_next.append(ids[key])
            edge_cum.append(cum / total)
        edge_cum[-1] = 1.0
    edge_start.append(len(edge_next))
    return {"value_of": list(model.values), "n_groups": len(model.groups),
            "edge_start": edge_start, "edge_counts": edge_counts, "edge_next": edge_next,
            "edge_cum": edge_cum, "bag_cap": max(model.sizes, default=1)}


def native_exchange_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                           equivalence: bool = True):
    """The Cython search of a dix-exchange decision (``csrc/search/exchange.pxd``),
    prepared from a ``DixExchangeWorldSampler``: the round from the decision,
    every later decision the rules player's (PUCT's prior, and in play-outs;
    ``policy`` ``random``: play-outs at random), the value the seat's tokens
    won or lost this round.  Its determinization draws the round's cards
    from the view's exact world model (the sampler's ``live_model``).
    ``None`` once the game is over, without the build, under
    DIXTRIX_PUREPYTHON, or when the dealer would draw from an empty stock
    with no used cards to rebuild it (a deck option smaller than the rules
    assume)."""
    _ismcts = _native_module()
    if _ismcts is None:
        return None
    from ..games.dix_exchange import OVER, RANK, RESPOND
    base = sampler.base
    if base.is_terminal() or base.phase == OVER:
        return None
    game = base.game
    model = sampler.live_model
    live = list(sampler.live)
    known, group = {}, {}
    for x, k in enumerate(model.stocks):
        for i, v in enumerate(model.masked[x]):
            if v is not None:
                known[(k, i)] = v
    for g, (x, _, slots) in enumerate(model.groups):
        for i in slots:
            group[(model.stocks[x], i)] = g

    def place(pos):
        """(known value or -1, group or -1) of a stock position."""
        if pos in known:
            return known[pos], -1
        if pos in group:
            return -1, group[pos]
        k, i = pos
        if k not in live:                   # a stock the rest never reads: fixed
            return base.shuffles[k][i], -1
        return -1, -1

    order = list(base.order)
    slot_of = {}
    slot_known, slot_group = [], []
    for i, s in enumerate(order):
        slot_of[base.drawn[s]] = i
        v, g = place(base.drawn[s])
        slot_known.append(v)
        slot_group.append(g)
    stock_empty = base.stock_pos >= len(base.shuffles[base.cur])
    if stock_empty:
        slot_known.append(-1)
        slot_group.append(-1)
    else:
        v, g = place((base.cur, base.stock_pos))
        slot_known.append(v)
        slot_group.append(g)
    used_known, used_group = [], []
    if stock_empty:
        for pos in sampler.used_positions:
            v, g = place(pos)
            used_known.append(v)
            used_group.append(g)
        if not used_known:
            return None
    if any(v < 0 and g < 0 for v, g in zip(slot_known[:-1], slot_group[:-1], strict=True)):
        return None                         # a card the world model does not cover
    n = game.num_players
    hand = [-1] * n
    drawn = [-1] * n
    for s in order:
        if base.hand[s] not in slot_of:
            return None                     # the dealer has drawn: the round is decided
        hand[s] = slot_of[base.hand[s]]
        drawn[s] = slot_of[base.drawn[s]]
    responding = base.phase == RESPOND
    rules = {"rank": list(RANK), "n": n, "order": order, "dealer": base.dealer,
             "slot_known": slot_known, "slot_group": slot_group,
             "stock_empty": int(stock_empty), "used_known": used_known,
             "used_group": used_group, "playout": int(policy == "rules"),
             "scale": float(game.round_scale)}
    state = {"hand": hand, "drawn": drawn, "tokens": list(base.tokens),
             "start_tokens": list(base.start_tokens), "turn": base.turn,
             "phase": 1 if responding else 0,
             "mover": base.target if responding else order[base.turn],
             "asker": base.asker, "target": base.target}
    return _ismcts.ExchangeSearch(_exchange_graph(model), rules, state)
