"""Cards and actions in words, in the reader's language: one notation for
everything a person reads at the web table.

A card has a ``face`` (what is drawn on it: ``K♥``, ``10♣``, ``14`` on a
red Rook card, ``9`` for DIX's Loup) and a ``name`` (``King of Hearts``,
``Roi de cœur``, ``شايب الكبة``; ``Red 14``; ``Loup``); an action has a
``label`` (``King of Hearts`` for a card played, ``Double the King of
Hearts`` for ``reveal KH``, ``Bid 85``, ``Pass``, ``Choose Queens``).
The server sends faces, names and labels with every table view and hint,
so the page never shows the notation itself (``QS``, ``reveal done``).

Each game names its own cards, contracts, trumps and actions (its
``Game.front``: ``solver/front.py``).  Every word is an
English message id translated by ``i18n.Translator``.
"""

from __future__ import annotations

import solver
from solver.front import BoardView, Front
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
    """An action in words (``text`` in the game's notation): its game's
    words for it (``Front.action``)."""
    return front(game).action(text, is_card, tr)


def board(game: Game | str, view: BoardView, tr: Translator) -> dict:
    """What a game words of its board for ``view`` (``Front.panels``,
    ``notes``, ``seat_notes``): the table's view and the analysis step
    carry the same three."""
    said = front(game)
    return {"panels": said.panels(view, tr), "notes": said.notes(view, tr),
            "seat_notes": said.seat_notes(view, tr)}


def unit(game: Game | str, text: str, tr: Translator) -> str:
    """A unit of a deal's result in words: the game's own in the reader's
    language where its front declares the message id
    (``Front.round_unit``), as the game says it otherwise."""
    return front(game).unit(text, tr)


def cards_in(game: Game | str, texts, tr: Translator) -> dict:
    """``{id: card}`` for every card id in ``texts``."""
    said = front(game)
    return {t: said.card(t, tr) for t in texts if t and t != "?"}


__all__ = ["card", "action", "board", "cards_in", "unit", "front"]
