"""dix's encoding for the Cython search kernel (``csrc/search/dix.pxd``):
the world sampler's view as the kernel's rules and state."""

from __future__ import annotations

from ...cards import DIX
from ...cardset import dix_pips
from ...search import native as search_native
from ...search.native import ALL_CARDS


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
             "tens": list(base.tens), "last_winner": base.last_winner,
             # what the learned policy counts as out of play (public: the
             # cards played and the turned-up card, as solver/games/dix/model.py)
             "out": base.played | 1 << base.turn_up}
    return _ismcts.Search("dix", compiled, rules, state)
