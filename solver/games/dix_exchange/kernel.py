"""dix-exchange's encoding for the Cython search kernel
(``csrc/search/exchange.pxd``)."""

from __future__ import annotations

from ...games.dix_exchange import OVER, RANK, RESPOND
from ...search import native as search_native
from ...search.native import ALL_CARDS

# ---- dix-exchange ----------------------------------------------------------------


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
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
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
        """(known value or -1, group or -1, row place or -1) of a stock
        position (the row place: ``sampler.place_of``, the beliefs' rows)."""
        if pos in known:
            return known[pos], -1, -1
        if pos in group:
            return -1, group[pos], sampler.place_of[pos]
        k, i = pos
        if k not in live:                   # a stock the rest never reads: fixed
            return base.shuffles[k][i], -1, -1
        return -1, -1, -1

    order = list(base.order)
    slot_of = {}
    slot_known, slot_group, slot_place = [], [], []
    for i, s in enumerate(order):
        slot_of[base.drawn[s]] = i
        v, g, p = place(base.drawn[s])
        slot_known.append(v)
        slot_group.append(g)
        slot_place.append(p)
    stock_empty = base.stock_pos >= len(base.shuffles[base.cur])
    if stock_empty:
        slot_known.append(-1)
        slot_group.append(-1)
        slot_place.append(-1)
    else:
        v, g, p = place((base.cur, base.stock_pos))
        slot_known.append(v)
        slot_group.append(g)
        slot_place.append(p)
    used_known, used_group, used_place = [], [], []
    if stock_empty:
        for pos in sampler.used_positions:
            v, g, p = place(pos)
            used_known.append(v)
            used_group.append(g)
            used_place.append(p)
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
             "slot_known": slot_known, "slot_group": slot_group, "slot_place": slot_place,
             "stock_empty": int(stock_empty), "used_known": used_known,
             "used_group": used_group, "used_place": used_place, "playout": int(policy == "rules"),
             "scale": float(game.round_scale)}
    state = {"hand": hand, "drawn": drawn, "tokens": list(base.tokens),
             "start_tokens": list(base.start_tokens), "turn": base.turn,
             "phase": 1 if responding else 0,
             "mover": base.target if responding else order[base.turn],
             "asker": base.asker, "target": base.target}
    return _ismcts.Search("exchange", model.compiled(), rules, state)
