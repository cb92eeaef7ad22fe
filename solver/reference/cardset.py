"""Pure-Python twin of ``csrc/core/cardset.pyx`` (same functions, same
results; the kernel's types: ``solver/_cardset.pyi``)."""

from collections.abc import Sequence

IMPLEMENTATION = "python"

_SUIT_BITS = tuple(0xFFFE << (16 * s) for s in range(4))


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def lowest_bit(mask: int) -> int:
    if mask == 0:
        return -1
    return (mask & -mask).bit_length() - 1


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        out.append((mask & -mask).bit_length() - 1)
        mask &= mask - 1
    return out


def suit_cards(mask: int, suit: int) -> int:
    return mask & _SUIT_BITS[suit]


def dix_pips(card: int) -> int:
    r = card & 15
    if r == 14:
        return 1
    if 2 <= r <= 10:
        return r
    return 0


def dix_trick_pips(cards: Sequence[int]) -> int:
    return sum(dix_pips(c) for c in cards)


def trick_winner(cards: Sequence[int], trump: int, table: bytes) -> int:
    n = len(cards)
    if n < 1 or n > 16:
        raise ValueError(f"a trick has 1..16 cards, got {n}")
    if len(table) != 128:
        raise ValueError("rank table must have 128 entries")
    for c in cards:
        if c < 0 or c > 63:
            raise ValueError(f"card index {c} out of range")
    best = 0
    best_suit = table[cards[0]]
    for i in range(1, n):
        c = cards[i]
        s = table[c]
        if s == best_suit:
            if table[64 + c] > table[64 + cards[best]]:
                best = i
        elif s == trump:
            best = i
            best_suit = s
    return best
