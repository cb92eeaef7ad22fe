"""dix's encoding for the Cython search kernel (``csrc/search/dix.pxd``):
the world sampler's view as the kernel's rules (the trick rules derived
from the round's rulebook, solver/games/dix/rules.py) and state."""

from __future__ import annotations

from ...cards import DIX
from ...search import native as search_native
from ...search.native import ALL_CARDS
from ...trickrules import kernel_table
from .rules import state_rules


def native_dix_search(sampler, policy: str = "rules", keep: int = ALL_CARDS,
                      equivalence: bool = True):
    """The Cython search (``csrc/search/dix.pxd``) prepared from a dix world
    sampler, or ``None`` without the build or under DIXTRIX_PUREPYTHON.
    ``policy`` ``rules``: the follower's play-out cards by the kernel's
    greedy rule (``dix_playout``), three times in four; ``random``: every
    play-out card at random."""
    _ismcts = search_native._native_module()
    if _ismcts is None:
        return None
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
    book = state_rules(base)
    table = kernel_table(book)
    rules = {key: table[key] for key in ("suit_of", "strength", "pips", "suit_mask", "trump")}
    rules.update({"free_play": int(book.free_play_while_stock),
                  "stock_len": len(base.stock), "total_tricks": base.game.tricks_per_round,
                  "seat": sampler.seat, "played": base.played, "dest": dest,
                  "playout": 1 if policy == "rules" else 0, "root_keep": keep,
                  "equiv": int(equivalence)})
    state = {"hands": list(base.hands), "stock": list(base.stock),
             "stock_pos": base.stock_pos, "leader": base.leader,
             "lead_card": base.trick[0] if base.trick else -1,
             "tricks_done": base.tricks_done, "won": list(base.tricks_won),
             "tens": list(base.tens), "last_winner": base.last_winner,
             # what the learned policy counts as out of play (public: the
             # cards played and the turned-up card, as solver/games/dix/model.py)
             "out": base.played | 1 << base.turn_up}
    return _ismcts.Search("dix", compiled, rules, state)


_RANKS = "23456789TJQKA"

#: the names of dix's leaf-value features, in the kernel's order
#: (csrc/search/dix.pxd, ``dix_value_point``): per card class the seat's
#: cards minus the other seat's, then masters and voids alike, and who leads
DIX_VALUE_FEATURES = tuple([f"trump {r}" for r in _RANKS] + ["joker"] +
                           [f"plain {r}" for r in _RANKS] + ["masters", "voids", "lead"])


def dix_value_features(state, seat: int) -> tuple[int, list[float], list[float]] | None:
    """The Python twin of the kernel's ``dix_value_point``
    (csrc/search/dix.pxd) on a dix world ``state``: ``(phase, features,
    partial)`` for ``seat`` at a trick's start (None mid-trick), the
    features named by ``DIX_VALUE_FEATURES``: per card
    class (a trump's rank, the joker, a plain suit's rank) the seat's cards
    minus the other's, then masters, voids and who leads."""
    if state.trick:
        return None
    table, trump = state.table, state.trump
    mine, theirs = state.hands[seat], state.hands[1 - seat]
    stock = 0
    for c in state.stock[state.stock_pos:]:
        stock |= 1 << c
    f = [0.0] * 30

    def klass(c: int) -> int:
        if c == 0:
            return 13
        return (c & 15) - 2 if table[c] == trump else 14 + (c & 15) - 2

    def masters(hand: int, others: int) -> int:
        top = [-1] * 4                  # the others' strongest card of each suit
        for c in DIX.cards:
            if others >> c & 1 and table[c] < 4:
                top[table[c]] = max(top[table[c]], table[64 + c])
        return sum(1 for c in DIX.cards
                   if hand >> c & 1 and table[c] < 4 and table[64 + c] > top[table[c]])

    for c in DIX.cards:
        if mine >> c & 1:
            f[klass(c)] += 1.0
        elif theirs >> c & 1:
            f[klass(c)] -= 1.0
    f[27] = (masters(mine, theirs | stock) - masters(theirs, mine | stock)) / 13.0
    voids = 0
    for s in range(4):
        suit = sum(1 << c for c in DIX.cards if table[c] == s)
        voids += (0 if mine & suit else 1) - (0 if theirs & suit else 1)
    f[28] = voids / 4.0
    f[29] = 1.0 if state.leader == seat else -1.0
    score = [state.tricks_won[s] - 4 * state.tens[s] for s in (0, 1)]
    partial = (score[0] - score[1]) / 30.0
    left = state.game.tricks_per_round - state.tricks_done
    phase = 0 if left > 19 else 1 if left > 13 else 2 if left > 7 else 3
    return phase, f, [partial, -partial]
