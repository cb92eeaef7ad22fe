"""Cards and actions in words, in the reader's language: one notation for
everything a person reads at the web table.

A card has a ``face`` (what is drawn on it: ``K♥``, ``10♣``, ``14`` on a
red Rook card, ``9`` for DIX's Loup) and a ``name`` (``King of Hearts``,
``Roi de cœur``, ``شايب الكبة``; ``Red 14``; ``Loup``); an action has a
``label`` (``King of Hearts`` for a card played, ``Double the King of
Hearts`` for ``reveal KH``, ``Bid 85``, ``Pass``, ``Choose Queens``).
The server sends faces, names and labels with every table view and hint,
so the page never shows the notation itself (``QS``, ``reveal done``).

Each game's deck is named by the game (``DECKS``); every word is an
English message id translated by ``i18n.Translator``.
"""

from __future__ import annotations

import re

from .i18n import N_, Translator

#: the deck each game plays with
DECKS = {"dix": "french", "trix": "french", "tricks": "french", "dixie-rook": "rook",
         "dix-exchange": "exchange"}

RANKS = {"A": N_("Ace"), "K": N_("King"), "Q": N_("Queen"), "J": N_("Jack"),
         "T": N_("Ten"), "9": N_("Nine"), "8": N_("Eight"), "7": N_("Seven"),
         "6": N_("Six"), "5": N_("Five"), "4": N_("Four"), "3": N_("Three"), "2": N_("Two")}
SUITS = {"S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"), "C": N_("Clubs")}
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")
COLOURS = {"R": N_("Red"), "G": N_("Green"), "Y": N_("Yellow"), "B": N_("Black")}
COLOUR_WORDS = {"red": "R", "green": "G", "yellow": "Y", "black": "B"}
#: DIX's cards by the names its rules give them (English ids; French: the rules' own)
EXCHANGE = {"10": N_("Owl"), "9": N_("Wolf"), "8": N_("Skunk"), "7": N_("Leaping Rabbit"),
            "6": N_("Hotel"), "5": N_("Five"), "4": N_("Four"), "3": N_("Three"),
            "2": N_("Two"), "1": N_("One"), "0": N_("Rock"), "00": N_("Ogre"),
            "000": N_("Masqueleon"), "0000": N_("Cowardly Lion"), "CJ": N_("Joker Cat")}
CONTRACTS = {"kinghearts": N_("King of Hearts"), "queens": N_("Queens"),
             "diamonds": N_("Diamonds"), "ltoosh": N_("Ltoosh"), "trix": N_("Trix"),
             "tricks": N_("Tricks"), "jacks": N_("Jacks")}

#: the games' units of a deal's result (``Game.round_unit``), as message ids
UNITS = {N_("round score difference (yours minus the opponent's; a tie-break win +0.5)"),
         N_("tokens won (+) or lost (-) this round"),
         N_("hand score difference (your team minus the other)"),
         N_("points this deal")}

_FRENCH_CARD = re.compile(r"^([AKQJT2-9])([SHDC])$")
_ROOK_CARD = re.compile(r"^([RGYB])(1[0-4]|[1-9])$")


def card(game: str, text: str, tr: Translator) -> dict:
    """``{"id", "face", "name", "colour"}`` of a card of ``game``'s deck
    (``colour``: ``red``/``black`` for a French card, the Rook colour, or
    ``none``)."""
    deck = DECKS.get(game, "french")
    if deck == "french":
        if text == "JK":
            return {"id": text, "face": "\u2605", "name": tr("Joker"), "colour": "black"}
        m = _FRENCH_CARD.match(text)
        if m:
            rank, suit = m.groups()
            return {"id": text, "face": ("10" if rank == "T" else rank) + SUIT_SIGNS[suit],
                    "name": tr("{rank} of {suit}", rank=tr(RANKS[rank]), suit=tr(SUITS[suit])),
                    "colour": "red" if suit in RED_SUITS else "black"}
    elif deck == "rook":
        m = _ROOK_CARD.match(text)
        if m:
            colour, number = m.groups()
            word = tr(COLOURS[colour])
            # the colour's initial beside the number: the colour is not only a colour
            return {"id": text, "face": number, "mark": word[:1],
                    "name": tr("{colour} {number}", colour=word, number=number),
                    "colour": {"R": "red", "G": "green", "Y": "yellow", "B": "black"}[colour]}
    elif deck == "exchange" and text in EXCHANGE:
        return {"id": text, "face": text, "name": tr(EXCHANGE[text]), "colour": "none"}
    return {"id": text, "face": text, "name": text, "colour": "none"}


def contract(name: str, tr: Translator) -> str:
    return tr(CONTRACTS[name]) if name in CONTRACTS else name


def action(game: str, text: str, is_card: bool, tr: Translator) -> str:
    """An action in words (``text`` in the game's notation)."""
    if is_card:
        return card(game, text, tr)["name"]
    words = text.split()
    head, rest = (words[0], " ".join(words[1:])) if words else ("", "")
    if text == "pass":
        return tr("Pass")
    if head == "contract":
        return tr("Choose {contract}", contract=contract(rest, tr))
    if text == "reveal done":
        return tr("No more doubles")
    if head == "reveal":
        return tr("Double the {card}", card=card(game, rest, tr)["name"])
    if text == "redeal":
        return tr("Ask for a redeal")
    if text == "no redeal":
        return tr("Keep this hand (no redeal)")
    if head == "bid":
        return tr("Bid {n}", n=rest)
    if head == "discard":
        return tr("Put the {card} in the nest", card=card(game, rest, tr)["name"])
    if head == "trump":
        colour = COLOUR_WORDS.get(rest)
        return tr("Trumps: {colour}", colour=tr(COLOURS[colour]) if colour else rest)
    if text == "keep":
        return tr("Keep the card")
    if text == "ask":
        return tr("Ask to exchange with the next player")
    if text == "accept":
        return tr("Accept the exchange")
    if text == "draw":
        return tr("Draw from the stock")
    if head == "block":
        return tr("Block with the {card}", card=card(game, rest, tr)["name"])
    if text == "?":
        return tr("a hidden action")
    return text


def unit(text: str, tr: Translator) -> str:
    """A game's unit of a deal's result in words (as the game says it
    where the catalogue has no translation)."""
    return tr(text) if text in UNITS else text


def cards_in(game: str, texts, tr: Translator) -> dict:
    """``{id: card}`` for every card id in ``texts``."""
    return {t: card(game, t, tr) for t in texts if t and t != "?"}


__all__ = ["card", "action", "contract", "cards_in", "unit", "DECKS"]
