"""What lies on the table at a point of a game: one description of a
position's board for every face that draws one -- the web table's view
(``bots/server/present.py``) and the analysis board's step
(``bots/analysis.py``, ``drawn``) -- each shaping it for its page.

From a viewer's facts (``InfoState.known``) and the actions as that
viewer saw them: the trick with who played each card, the last trick
until the next lead and the layout's rows (``Game.front``,
``solver/front.py``); with every card id drawn, so the face can name
them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from solver.game import Game


class Played(Protocol):
    """An action as a viewer saw it (``bots.analysis.Move``, the table's
    log): ``action`` is ``?`` where it was hidden; ``trick`` is None where
    the face does not keep it."""

    @property
    def seat(self) -> int: ...
    @property
    def action(self) -> str: ...
    @property
    def card(self) -> bool: ...
    @property
    def deal(self) -> int: ...
    @property
    def trick(self) -> int | None: ...


def lay(game: Game, known: dict[str, Any], moves: Sequence[Played], deal: int,
        over: bool) -> dict[str, Any]:
    """The board from a viewer's ``known`` facts and the ``moves`` as it
    saw them (``deal``: the deal in play, in the moves' numbering;
    ``over``: the game is over): ``trick`` and ``leader``, ``last_trick``
    (the cards of the last trick of the deal in play and who takes the
    lead, while the next trick has no card), ``layout`` (the rows as
    the game's front reads them, ``Front.layout_rows``; None where the
    layout is empty) and ``cards`` (every card id drawn, a set).  What
    else a game shows beside them (its contracts, doubles, auction, nest,
    exchanges) it words itself (``Front.panels``)."""
    n = game.num_players
    out: dict[str, Any] = {}
    cards: set[str] = set()
    trick, leader = known.get("trick"), known.get("leader")
    if isinstance(trick, list) and isinstance(leader, int) and leader >= 0:
        out["trick"] = [{"seat": (leader + i) % n, "card": c} for i, c in enumerate(trick)]
        out["leader"] = leader
        cards |= set(trick)
        if not trick and not over:
            # the last trick stays on the table until the next lead
            last = [m for m in moves if m.card and m.action != "?" and m.deal == deal][-n:]
            if len(last) == n and len({m.seat for m in last}) == n and \
                    len({m.trick for m in last}) == 1:
                out["last_trick"] = {"cards": [{"seat": m.seat, "card": m.action} for m in last],
                                     "winner": leader}
                cards |= {m.action for m in last}
    if "layout" in known:
        # the rows as the game's front reads the fact the seat sees
        out["layout"] = game.front.layout_rows(known["layout"]) if known.get("layout") else None
        for row in (out["layout"] or {}).values():
            cards |= set(row)
    if known.get("turn_up"):
        cards.add(known["turn_up"])
    out["cards"] = cards
    return out


__all__ = ["Played", "lay"]
