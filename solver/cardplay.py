"""A trick-taking card decision as the opponent models see it
(``solver/beliefs.py``): the rules as data, the public facts of the
moment, and each legal card's features for a hand.

One description serves every trick game of the project (dix, the trix /
tricks trick contracts, dixie-rook): the game gives its trick rules
(``TrickRules``: each card's effective suit and strength, the trump suit,
the points a card and a trick are worth to the trick's taker, dix's
ten-trick) and the public facts of the decision (``CardPlay``: whether the
player leads or plays last, the suit led, which cards would win the trick
now, whether a partner is winning it, the points and pips on the table,
the cards out of play, whether it must follow), and ``card_features``
gives the cards legal for a hand and each one's features.  The per-world
loop computes the same features in C (``csrc/core/beliefs.pyx``); this is
its twin and the features' definition.

The features (``CARD_FEATURES``, each about [-1, 1]) say what a player
weighs when it picks a card: whether it wins the trick now (``wins``, for
sure when last: ``sure``) and what the trick is then worth to it
(``take``); the points it gives away when it loses to a partner or an
opponent (``give_mate``, ``give_opp``); the card's own points, rank and
trumpness; whether it is off the suit led (``offsuit``); and, counted on
the hand, whether it is the lowest or highest of its suit there, the
suit's length, the last card of its suit (``singleton``), the cheapest
card that wins (``cheap_win``), the highest card that still loses
(``high_duck``), whether no card the others may hold ranks above it
(``master``), how many of its suit the others may hold
(``others_suit``); and dix's ten-tricks (``special_win``,
``special_lose``: it completes the special pip sum, winning or losing the
trick; ``others_complete``: leading, how many cards the others may hold
would complete it).  The weights are fitted per game and kind of decision
(leading, following; a trix contract).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

CARD_FEATURES = ("wins", "sure", "take", "give_mate", "give_opp", "points", "rank", "trump",
                 "offsuit", "master", "lowest", "highest", "length", "singleton", "cheap_win",
                 "high_duck", "others_suit", "special_win", "special_lose", "others_complete")
N_CARD_FEATURES = len(CARD_FEATURES)
(WINS, SURE, TAKE, GIVE_MATE, GIVE_OPP, POINTS, RANK, TRUMP, OFFSUIT, MASTER, LOWEST,
 HIGHEST, LENGTH, SINGLETON, CHEAP_WIN, HIGH_DUCK, OTHERS_SUIT, SPECIAL_WIN, SPECIAL_LOSE,
 OTHERS_COMPLETE) = range(N_CARD_FEATURES)
#: the pip values a special sum may need (dix's cards have 0..10 pips)
MAX_PIPS = 32


@dataclass(frozen=True)
class TrickRules:
    """A trick game's rules as data: ``suit[c]`` the effective suit card
    ``c`` follows (-1: not a card of the game), ``strength[c]`` its rank in
    that suit (higher wins), ``trump`` the trump suit (-1: none);
    ``points[c]`` what card ``c`` is worth to the trick's taker,
    ``trick_value`` what a trick itself is worth to it, ``pips[c]`` and
    ``special_sum`` / ``special_value``: a trick whose pips total
    ``special_sum`` is worth ``special_value`` more (dix: a ten-trick
    scores -3 instead of +1); ``scale`` the points' scale (the features
    divide by it)."""

    suit: tuple[int, ...]
    strength: tuple[int, ...]
    trump: int
    points: tuple[float, ...]
    trick_value: float
    scale: float
    pips: tuple[int, ...] = (0,) * 64
    special_sum: int = -1
    special_value: float = 0.0

    @cached_property
    def suit_masks(self) -> tuple[int, ...]:
        """Per card, the cards of its effective suit (0 for a non-card)."""
        suits: dict[int, int] = {}
        for c in range(64):
            if self.suit[c] >= 0:
                suits[self.suit[c]] = suits.get(self.suit[c], 0) | 1 << c
        return tuple(suits.get(self.suit[c], 0) if self.suit[c] >= 0 else 0 for c in range(64))

    @cached_property
    def above(self) -> tuple[int, ...]:
        """Per card, the cards of its suit that rank above it."""
        sm = self.suit_masks
        return tuple(sum(1 << x for x in range(64) if sm[c] >> x & 1
                         and self.strength[x] > self.strength[c]) for c in range(64))

    @cached_property
    def trumps(self) -> int:
        """The trump suit's cards (0 without trumps)."""
        return next((self.suit_masks[c] for c in range(64)
                     if self.trump >= 0 and self.suit[c] == self.trump), 0)

    @cached_property
    def pip_cards(self) -> tuple[int, ...]:
        """Per pip value 0..MAX_PIPS-1, the cards with that many pips."""
        out = [0] * MAX_PIPS
        for c in range(64):
            if self.suit[c] >= 0 and 0 <= self.pips[c] < MAX_PIPS:
                out[self.pips[c]] |= 1 << c
        return tuple(out)

    def beaten_by(self, card: int) -> int:
        """The cards that beat ``card`` when it wins the trick now."""
        if self.trump >= 0 and self.suit[card] != self.trump:
            return self.above[card] | self.trumps
        return self.above[card]

    def winner(self, trick) -> tuple[int, int]:
        """``(seat, card)`` winning a trick so far (``(seat, card)``
        pairs, lead first)."""
        best = trick[0]
        for s, c in trick[1:]:
            if self.beaten_by(best[1]) >> c & 1:
                best = (s, c)
        return best


@dataclass(frozen=True)
class CardPlay:
    """The public facts of one card decision, for a ``TrickRules``
    (``rules``: its index in the observation set's ``rules`` list):
    ``leading`` / ``last`` (the player's place in the trick), ``led`` the
    cards of the suit led, ``winners`` the cards that would win the trick
    now (both 0 when leading), ``mate`` whether a partner is winning it,
    ``on_table`` the points and ``pip_sum`` the pips of the cards on it,
    ``out`` the cards out of play (played, the table's included),
    ``follow`` whether the rules make the player follow suit, and
    ``must_discard`` cards one of which a player who cannot follow must
    play when it holds one (trix's penalty-card option)."""

    rules: int
    leading: bool
    last: bool
    led: int
    winners: int
    mate: bool
    on_table: float
    pip_sum: int
    out: int
    follow: bool = True
    must_discard: int = 0

    @classmethod
    def of(cls, rules: TrickRules, index: int, trick, seat: int, players: int,
           teams, out: int, follow: bool = True, must_discard: int = 0) -> CardPlay:
        """The facts of ``seat``'s card with ``trick`` (``(seat, card)``
        pairs, lead first) on the table in a trick of ``players`` cards;
        ``teams[s]`` each seat's team."""
        if not trick:
            return cls(index, True, players == 1, 0, 0, False, 0.0, 0, out, follow,
                       must_discard)
        wseat, wcard = rules.winner(trick)
        return cls(index, False, len(trick) == players - 1, rules.suit_masks[trick[0][1]],
                   rules.beaten_by(wcard), teams[wseat] == teams[seat],
                   float(sum(rules.points[c] for _, c in trick)),
                   sum(rules.pips[c] for _, c in trick), out, follow, must_discard)


def legal_cards(play: CardPlay, hand: int) -> int:
    """The cards of ``hand`` the rules allow."""
    if play.leading or not play.follow:
        return hand
    if hand & play.led:
        return hand & play.led
    if hand & play.must_discard:
        return hand & play.must_discard
    return hand


def card_features(rules: TrickRules, play: CardPlay, hand: int, card: int) -> list[float]:
    """``card``'s features (``CARD_FEATURES``) for a player holding
    ``hand`` (the card among them)."""
    f = [0.0] * N_CARD_FEATURES
    scale = rules.scale or 1.0
    low = 1 << card
    sm = rules.suit_masks[card]
    above = rules.above[card]
    below = sm & ~above & ~low
    f[POINTS] = rules.points[card] / scale
    f[RANK] = rules.strength[card] / 15.0
    f[TRUMP] = 1.0 if rules.trumps & low else 0.0
    live_suit = sm & ~play.out
    f[OTHERS_SUIT] = (live_suit.bit_count() - (hand & live_suit).bit_count()) / 13.0
    f[LOWEST] = 0.0 if hand & below else 1.0
    f[HIGHEST] = 0.0 if hand & above else 1.0
    n_suit = (hand & sm).bit_count()
    f[LENGTH] = n_suit / 13.0
    f[SINGLETON] = 1.0 if n_suit == 1 else 0.0
    f[MASTER] = 0.0 if above & ~play.out & ~hand else 1.0
    if play.leading:
        if rules.special_sum >= 0:
            need = rules.special_sum - rules.pips[card]
            if 0 <= need < MAX_PIPS:
                comp = rules.pip_cards[need] & ~low & ~play.out & ~hand
                f[OTHERS_COMPLETE] = comp.bit_count() / 13.0
        return f
    offsuit = not play.led & low
    f[OFFSUIT] = 1.0 if offsuit else 0.0
    special = rules.special_sum >= 0 and play.last and \
        play.pip_sum + rules.pips[card] == rules.special_sum
    if play.winners & low:
        f[WINS] = 1.0
        f[SURE] = 1.0 if play.last else 0.0
        f[TAKE] = (rules.trick_value + play.on_table + rules.points[card] +
                   (rules.special_value if special else 0.0)) / scale
        if special:
            f[SPECIAL_WIN] = 1.0
        f[CHEAP_WIN] = 0.0 if hand & play.winners & below else 1.0
    else:
        f[GIVE_MATE if play.mate else GIVE_OPP] = rules.points[card] / scale
        if special:
            f[SPECIAL_LOSE] = 1.0
        if not offsuit:
            f[HIGH_DUCK] = 0.0 if hand & above & ~play.winners else 1.0
    return f


__all__ = ["CARD_FEATURES", "CardPlay", "MAX_PIPS", "N_CARD_FEATURES", "TrickRules",
           "card_features", "legal_cards"]
