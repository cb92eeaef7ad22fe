"""What the front ends need of dix (``solver/front.py``): the French deck
and its joker, its words on the form, and each finished round's scores,
ten-tricks and running totals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...front import (
    N_,
    NC_,
    BoardView,
    FactView,
    FrenchFront,
    Words,
    seat_row,
    tricks_won_notes,
)
from ...said import Said, phrase

#: a position's fact (``DixFront.taken_facts``)
TENS = phrase("fact.tens", N_("Ten-tricks taken (3 each against the taker): {scores}"))


class DixFront(FrenchFront):
    title = NC_("game", "Dix")
    description = N_("Dix (Fred Blundun): 2 players, trumps and a joker; a trick whose "
                     "two cards make ten costs 3 points")
    option_words: ClassVar[dict[str, tuple[str, str, dict[str, str]]]] = {
        "variant": (N_("Variant"),
                    N_("how many cards each player holds and whether there is a stock"),
                    {"standard": N_("13 cards each and a stock of 26: 26 tricks"),
                     "seventeen": N_("17 cards each, no stock: 17 tricks")}),
        "target": (N_("Match target"),
                   N_("the match ends after the first round in which a player has "
                      "reached this total"), {}),
        "free_play_while_stock": (N_("Free play while the stock lasts"),
                                  N_("following suit is not required while the stock "
                                     "lasts"), {}),
    }
    round_unit = N_("round score difference (yours minus the opponent's; a tie-break win +0.5)")
    totals_unit = N_("round scores so far (+1 a trick, -3 a ten-trick)")
    result_unit = N_("match result: +1 a win, -1 a loss")
    setup_hands = "rounds[0].hands"

    def taken_facts(self, facts: FactView) -> list[Said]:
        """Each player's ten-tricks taken this round, the asker's first."""
        tens = facts.known.get("tens")
        return [TENS(scores=facts.each_seat(tens))] if tens is not None else []

    def seat_notes(self, view: BoardView, words: Words) -> list[str]:
        return tricks_won_notes(view, words)

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        return {"heading": None, "lines": [], "rows": [
            seat_row("tens", words(N_("Ten-tricks")), entry["tens"], words(N_("ten-tricks")))]}

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        out = []
        running = [0, 0]
        for rnd in state.rounds:
            running = [a + b for a, b in zip(running, rnd["scores"], strict=True)]
            out.append({"scores": list(rnd["scores"]), "tens": list(rnd["tens"]),
                        "totals": list(running)})
        return out


__all__ = ["DixFront"]
