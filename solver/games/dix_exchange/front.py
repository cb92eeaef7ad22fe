"""What the front ends need of dix-exchange (``solver/front.py``): its
cards by the names its rules give them, its words on the form, the
exchange's panel (the tokens, the round's exchanges), its levels, and
each finished round's tokens won or lost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ...front import (
    N_,
    NC_,
    BoardView,
    FactView,
    Front,
    Words,
    list_row,
    panel,
    seat_of,
    seat_row,
    text_row,
)
from ...said import Said, phrase

#: the cards by the names the rules give them (English ids; French: the rules' own)
NAMES = {"10": N_("Owl"), "9": N_("Wolf"), "8": N_("Skunk"), "7": N_("Leaping Rabbit"),
         "6": N_("Hotel"), "5": N_("Five"), "4": N_("Four"), "3": N_("Three"),
         "2": N_("Two"), "1": N_("One"), "0": N_("Rock"), "00": N_("Ogre"),
         "000": N_("Masqueleon"), "0000": N_("Cowardly Lion"), "CJ": N_("Joker Cat")}


#: a position's fact (``ExchangeFront.taken_facts``)
TOKENS = phrase("fact.tokens", N_("Tokens: {scores}"))


class ExchangeFront(Front):
    title = NC_("game", "DIX")
    description = N_("DIX (Dave De Vega): 4 to 12 players, one hidden card each; "
                     "exchange it or block, and the lowest card loses a token")
    option_words: ClassVar[dict[str, tuple[str, str, dict[str, str]]]] = {
        "players": (N_("Players"), N_("how many players sit at the table"), {}),
        "deck": (N_("Deck"), N_("the deck, as value:count pairs (by default the 55 cards "
                                "of the rules)"), {}),
        "carry_stock": (N_("Keep the stock between rounds"),
                        N_("with fewer than 5 players left, the stock carries over from "
                           "round to round and the used cards are shuffled back only "
                           "when it runs out; off: every card is shuffled every round"),
                        {}),
        "tokens": (N_("Tokens"), N_("how many tokens each player starts with"), {}),
    }
    round_unit = N_("tokens won (+) or lost (-) this round")
    result_unit = N_("match result: +1 the winner, -1 shared by the others")
    actions: ClassVar[dict[str, str]] = {
        "keep": N_("Keep the card"), "ask": N_("Ask to exchange with the next player"),
        "accept": N_("Accept the exchange"), "draw": N_("Draw from the stock"),
        "block": N_("Block with the {card}")}
    # one card each, few decisions: light searches are the medium and hard
    # levels, and the expert searches 10,000 iterations (measured above the
    # rules player and the hard level: docs/levels.md)
    levels: ClassVar[dict[str, str]] = {
        "medium": "ismcts:iterations=30,trees=1",
        "hard": "ismcts:iterations=300,trees=1",
        "expert": "ismcts:iterations=10000,trees=1",
    }

    def card(self, text: str, words: Words) -> dict[str, Any]:
        if text in NAMES:
            return {"id": text, "face": text, "name": words(NAMES[text]), "colour": "none"}
        return super().card(text, words)

    def taken_facts(self, facts: FactView) -> list[Said]:
        """Each player's tokens, the asker's first."""
        tokens = facts.known.get("tokens")
        return [TOKENS(scores=facts.each_seat(tokens))] if tokens is not None else []

    def panels(self, view: BoardView, words: Words) -> list[dict[str, Any]]:
        if "tokens" not in view.known:
            return []
        rows = []
        dealer = seat_of(view.known.get("dealer"))
        if dealer is not None:
            rows.append(text_row(words(N_("Dealer: {name}"), name=view.names[dealer])))
        # the exchanges of the round in play, as this viewer saw them
        rows.append(list_row([f"{view.names[s]}: {said}" for s, said in view.moves],
                             words(N_("none yet"))))
        return [panel("exchange", words(N_("This round's exchanges")), rows)]

    def seat_notes(self, view: BoardView, words: Words) -> list[str]:
        tokens = view.known.get("tokens")
        if not isinstance(tokens, list) or len(tokens) != len(view.names):
            return [""] * len(view.names)
        return [words.ngettext("{n} token", "{n} tokens", int(n)) for n in tokens]

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        return {"heading": None, "lines": [], "rows": [
            seat_row("tokens", words(N_("Tokens won or lost")), entry["tokens_change"],
                     words(N_("tokens")))]}

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = [{"tokens_change": [int(x) for x in delta]}
                                     for delta in state.round_deltas]
        if out:
            out[-1]["tokens"] = list(state.tokens)
        return out


__all__ = ["ExchangeFront", "NAMES"]
