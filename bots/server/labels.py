"""Cards and actions in words, in the reader's language: one notation for
everything a person reads at the web table.

A card has a ``face`` (what is drawn on it: ``K♥``, ``10♣``, ``14`` on a
red Rook card, ``9`` for DIX's Loup) and a ``name`` (``King of Hearts``,
``Roi de cœur``, ``شايب الكبة``; ``Red 14``; ``Loup``); an action has a
``label`` (``King of Hearts`` for a card played, ``Double the King of
Hearts`` for ``reveal KH``, ``Bid 85``, ``Pass``, ``Choose Queens``).
The server sends faces, names and labels with every table view and hint,
so the page never shows the notation itself (``QS``, ``reveal done``).

Each game names its own cards, contracts and trumps (its ``Game.front``:
``solver/front.py``); the actions' verbs are here.  Every word is an
English message id translated by ``i18n.Translator``.
"""

from __future__ import annotations

import solver
from solver.front import Front
from solver.game import Game

from .i18n import Translator


def front(game: Game | str) -> Front:
    """A game's front (``Game.front``), from the game or its name."""
    return (game if isinstance(game, Game) else solver.load_game(game)).front


def card(game: Game | str, text: str, tr: Translator) -> dict:
    """``{"id", "face", "name", "colour"}`` of a card of ``game``'s deck
    (``colour``: ``red``/``black`` for a French card, the Rook colour, or
    ``none``)."""
    return front(game).card(text, tr)


def action(game: Game | str, text: str, is_card: bool, tr: Translator) -> str:
    """An action in words (``text`` in the game's notation)."""
    said = front(game)
    if is_card:
        return said.card(text, tr)["name"]
    words = text.split()
    head, rest = (words[0], " ".join(words[1:])) if words else ("", "")
    if text == "pass":
        return tr("Pass")
    if head == "contract":
        return tr("Choose {contract}", contract=said.contract(rest, tr))
    if text == "reveal done":
        return tr("No more doubles")
    if head == "reveal":
        return tr("Double the {card}", card=said.card(rest, tr)["name"])
    if text == "redeal":
        return tr("Ask for a redeal")
    if text == "no redeal":
        return tr("Keep this hand (no redeal)")
    if head == "bid":
        return tr("Bid {n}", n=rest)
    if head == "discard":
        return tr("Put the {card} in the nest", card=said.card(rest, tr)["name"])
    if head == "trump":
        return tr("Trumps: {colour}", colour=said.trump_name(rest, tr))
    if text == "keep":
        return tr("Keep the card")
    if text == "ask":
        return tr("Ask to exchange with the next player")
    if text == "accept":
        return tr("Accept the exchange")
    if text == "draw":
        return tr("Draw from the stock")
    if head == "block":
        return tr("Block with the {card}", card=said.card(rest, tr)["name"])
    if text == "?":
        return tr("a hidden action")
    return text


def unit(game: Game | str, text: str, tr: Translator) -> str:
    """A unit of a deal's result in words: the game's own in the reader's
    language where its front declares the message id
    (``Front.round_unit``), as the game says it otherwise."""
    return front(game).unit(text, tr)


def cards_in(game: Game | str, texts, tr: Translator) -> dict:
    """``{id: card}`` for every card id in ``texts``."""
    said = front(game)
    return {t: said.card(t, tr) for t in texts if t and t != "?"}


__all__ = ["card", "action", "cards_in", "unit", "front"]
