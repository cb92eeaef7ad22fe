"""Equivalent cards: legal cards of the seat to move that are worth exactly
the same, whatever the unseen cards are (DDS's "equivalent cards", carried
to these games).

Two cards of the seat's hand are equivalent when they are of the same
effective suit (the game's rank table: trumps, dix's joker), score alike
under the deal's rules (``attribute``: a trick contract's penalty and its
doubling, a Rook count, dix pips where a card still in play could make ten
with them), and every card ranked between them is either in the same hand
(whatever it scores: a hand's own cards never share a trick) or was played
in a finished trick.  Swapping two such cards in any line of play changes
no trick's winner, no trick's points and no later choice, so every world
gives them the same value: a search can pool what it learned about them,
and the advice is the same whichever of them the search happened to
prefer.  Cards on the table in the current trick are still in play (a card
between two of ours decides which of them beats it) and keep the two
apart.

``card_classes(state, legal)`` partitions the legal actions; a decision
that is not the play of a card (bids, contracts, the layout, exchanges)
gives one class per action.  It reads only what the seat to move knows
(its hand, the cards played, the rules of the deal), so any world of the
seat's view gives the same classes.
"""

from __future__ import annotations

import math

from .support import support_for


def card_classes(state, legal: list[int]) -> list[tuple[int, ...]]:
    """The legal actions of ``state``'s seat to move, grouped into classes of
    equivalent cards (each action in exactly one class, classes in the
    order of their first action, members in increasing order)."""
    spec = support_for(state.game).card_rules(state)
    if spec is None or len(legal) < 2:
        return [(a,) for a in legal]
    deck, table, dead, attribute, hand = spec
    if any(a < 0 or a > 63 or not hand >> a & 1 for a in legal):
        return [(a,) for a in legal]             # not a play of a card in hand
    # the cards still in play, by effective suit and strength (strongest
    # first); a joker outside the deal's rank order has no suit to join
    levels: dict[int, dict[int, list[int]]] = {}
    live = deck & ~dead
    for c in range(64):
        if live >> c & 1 and table[c] < 16:
            levels.setdefault(table[c], {}).setdefault(table[64 + c], []).append(c)
    classes: list[list[int]] = []
    for by_strength in levels.values():
        # the own cards between two others' cards of a suit, by score
        stretch: dict = {}
        for strength in sorted(by_strength, reverse=True):
            cards = by_strength[strength]
            if any(not hand >> c & 1 for c in cards):
                # an unseen or tabled card at or between these ranks splits
                # the stretch; an own card tied with it in strength stands alone
                stretch = {}
                classes.extend([c] for c in cards if hand >> c & 1)
                continue
            for c in cards:
                a = attribute(c)
                if a not in stretch:
                    stretch[a] = []
                    classes.append(stretch[a])
                stretch[a].append(c)
    cls_of: dict[int, int] = {}
    for k, members in enumerate(classes):
        for c in members:
            cls_of[c] = k
    out: dict[int, list[int]] = {}
    for a in sorted(legal):
        out.setdefault(cls_of.get(a, -1 - a), []).append(a)
    return sorted((tuple(m) for m in out.values()), key=lambda m: m[0])


def pool(classes, visits: dict, values: dict, ci95: dict):
    """Pool a search's per-action statistics over each class of equivalent
    actions: visits summed, the value the visit-weighted mean, the 95%
    half-width that of the weighted mean of independent estimates
    (``sqrt(sum n_i^2 h_i^2) / sum n_i`` over the members with a finite
    one; infinite when none has).  Every member gets its class's figures."""
    pv, pm, ph = {}, {}, {}
    for members in classes:
        seen = [a for a in members if a in values]
        n = sum(visits.get(a, 0) for a in seen)
        if not seen:
            continue
        if n > 0:
            mean = sum(visits.get(a, 0) * values[a] for a in seen) / n
        else:
            mean = sum(values[a] for a in seen) / len(seen)
        finite = [a for a in seen if ci95.get(a, math.inf) < math.inf and visits.get(a, 0) > 0]
        if finite:
            nf = sum(visits[a] for a in finite)
            half = math.sqrt(sum((visits[a] * ci95[a]) ** 2 for a in finite)) / nf
        else:
            half = math.inf
        for a in members:
            pv[a], pm[a], ph[a] = n, mean, half
    return pv, pm, ph


__all__ = ["card_classes", "pool"]
