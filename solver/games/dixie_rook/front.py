"""What the front ends need of dixie-rook (``solver/front.py``): the Rook
deck (``R14``: Red 14), trumps a colour, its words on the form, the
auction's panel (bids, the nest), its levels, and each finished hand's
bid, trumps, tricks, count and team scores."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from ...cards import ROOK_COLOURS
from ...front import (
    N_,
    NC_,
    BoardView,
    FactView,
    Front,
    Words,
    cards_row,
    panel,
    seat_of,
    text_row,
)
from ...said import Said, phrase

#: the Rook colours' words, by the card's letter
COLOURS = {"R": N_("Red"), "G": N_("Green"), "Y": N_("Yellow"), "B": N_("Black")}
#: a colour's word in the facts and the notation -> its letter
COLOUR_WORDS = {"red": "R", "green": "G", "yellow": "Y", "black": "B"}
_ROOK_CARD = re.compile(r"^([RGYB])(1[0-4]|[1-9])$")
_PAGE_COLOURS = {"R": "red", "G": "green", "Y": "yellow", "B": "black"}
# a position's facts (``RookFront.deal_facts``, ``taken_facts``)
BID = phrase("fact.bid", N_("Bid: {n} by {name}"))
HIGH_BID = phrase("fact.high_bid", N_("Highest bid: {n} by {name}"))
COUNT = phrase("fact.count", N_("Count taken this hand: {scores}"))


class RookFront(Front):
    title = NC_("game", "Dixie Rook")
    description = N_("Dixie Rook: 4 or 6 players in two teams; bidding, a nest and "
                     "count cards; game to 300")
    option_words: ClassVar[dict[str, tuple[str, str, dict[str, str]]]] = {
        "players": (N_("Players"),
                    N_("4 players (13 cards each, a nest of 4) or 6 (9 cards each, a nest "
                       "of 2); every other seat is a partner: seats 1 and 3 against 2 "
                       "and 4, with 6 players seats 1, 3 and 5 against 2, 4 and 6"), {}),
        "dealer_must_bid": (N_("The dealer must bid"),
                            N_("when every other player has passed without a bid, the "
                               "dealer must bid (at least 70)"), {}),
        "target": (N_("Game target"),
                   N_("the game ends after a hand in which a team has reached this "
                      "total; the higher total wins (equal totals: another hand)"), {}),
        "lose_at": (N_("Losing total"),
                    N_("0: off (a total may fall without limit); a number N above 0, a "
                       "house rule: the game also ends after a hand in which a team's "
                       "total fell to minus N or below (the higher total wins)"), {}),
    }
    round_unit = N_("hand score difference (your team minus the other)")
    totals_unit = N_("team points so far")
    result_unit = N_("match result: +1 a win, -1 a loss")
    actions: ClassVar[dict[str, str]] = {
        "bid": N_("Bid {n}"), "discard": N_("Put the {card} in the nest"),
        "trump": N_("Trumps: {colour}")}
    # without the Cython build (or under DIXTRIX_PUREPYTHON=1) the bids, the
    # nest and trump are searched in Python, about 0.35 ms an iteration
    # against 0.01 ms for card play: py_iterations caps them there.  With
    # the build every decision is native and these levels search as the
    # default ones do
    levels: ClassVar[dict[str, str]] = {
        "hard": "ismcts:iterations=500,py_iterations=150,trees=1",
        "expert": "ismcts:iterations=2500,py_iterations=500,trees=1",
    }
    setup_hands = "deals[0].hands"
    #: the trumps, a colour, as a position's facts say them ("Trumps: red"),
    #: by the ``trump`` fact's word
    trump_words: ClassVar[dict[str, str]] = {
        "red": N_("red"), "green": N_("green"), "yellow": N_("yellow"), "black": N_("black")}

    def card(self, text: str, words: Words) -> dict[str, Any]:
        m = _ROOK_CARD.match(text)
        if not m:
            return super().card(text, words)
        colour, number = m.groups()
        word = words(COLOURS[colour])
        # the colour's initial beside the number: the colour is not only a colour
        return {"id": text, "face": number, "mark": word[:1],
                "name": words(N_("{colour} {number}"), colour=word, number=number),
                "colour": _PAGE_COLOURS[colour]}

    def trump_name(self, trump: Any, words: Words) -> str:
        word = ROOK_COLOURS.get(trump) if isinstance(trump, int) else trump
        letter = COLOUR_WORDS.get(word) if isinstance(word, str) else None
        return words(COLOURS[letter]) if letter else str(trump)

    def deal_facts(self, facts: FactView) -> list[Said]:
        """The auction's bid: once it is won, the winning bid and its
        bidder; during it, the highest bid so far (none before the first:
        ``bid`` is 0 and ``bid_winner`` -1 until the auction ends)."""
        known = facts.known
        winner = seat_of(known.get("bid_winner"))
        if winner is not None:
            return [BID(n=known.get("bid"), name=facts.who(winner))]
        high = seat_of(known.get("high_bidder"))
        if high is not None:
            return [HIGH_BID(n=known.get("high_bid"), name=facts.who(high))]
        return []

    def taken_facts(self, facts: FactView) -> list[Said]:
        """The count each team has taken this hand, the asker's first."""
        count = facts.known.get("count")
        return [COUNT(scores=facts.teams(count))] if count is not None else []

    def panels(self, view: BoardView, words: Words) -> list[dict[str, Any]]:
        known, names = view.known, view.names
        if "phase" not in known:
            return []
        rows = []
        if known["phase"] == "auction":
            high = seat_of(known.get("high_bidder"))
            rows.append(text_row(
                words(N_("Highest bid: {n} by {name}"), n=known.get("high_bid"), name=names[high])
                if high is not None else words(N_("No bid yet"))))
            passed = [names[s] for s, out in enumerate(known.get("passed") or []) if out]
            if passed:
                rows.append(text_row(words(N_("Passed: {names}"), names=words(N_(", ")).join(passed))))
        elif seat_of(known.get("bid_winner")) is not None:
            rows.append(text_row(words(N_("{name} won the bid at {n}"),
                                       name=names[known["bid_winner"]], n=known.get("bid"))))
        count = known.get("count")
        if isinstance(count, list) and len(count) == 2:
            rows.append(text_row(words(N_("Count taken: your team {a}, the other team {b}"),
                                       **_ours_first(count, view.viewer))))
        for key, said in (("nest", words(N_("The nest:"))), ("discards", words(N_("Put back in the nest:")))):
            if isinstance(known.get(key), str) and known[key].split():
                rows.append(cards_row(said, known[key].split()))
        return [panel("auction", words(N_("Auction")), rows)]

    def notes(self, view: BoardView, words: Words) -> list[str]:
        winner = seat_of(view.known.get("bid_winner"))
        if winner is None:
            return []
        return [words(N_("Bid {n} by {name}"), n=view.known.get("bid"), name=view.names[winner])]

    def panel_cards(self, known: Mapping[str, Any]) -> set[str]:
        return {c for key in ("nest", "discards") if isinstance(known.get(key), str)
                for c in known[key].split()}

    def summary_words(self, entry: Mapping[str, Any], view: BoardView,
                      words: Words) -> dict[str, Any]:
        said = words(N_("{name} bid {n}: {result}. Points: your team {a}, the other team {b}."),
                     name=view.names[entry["bid_winner"]], n=entry["bid"],
                     result=words(N_("made")) if entry["made"] else words(N_("set")),
                     **_ours_first(entry["team_score"], view.viewer))
        return {"heading": None, "rows": [],
                "lines": [{"label": words(N_("Teams")), "text": said}]}

    def deal_summaries(self, state: Any, words: Words) -> list[dict[str, Any]]:
        out = []
        for res in state.results:
            trump = res.get("trump")
            out.append({"bid_winner": res["bid_winner"], "bid": res["bid"],
                        "trump": self.trump_name(trump, words) if trump is not None else None,
                        "team_tricks": list(res["tricks"]), "team_count": list(res["count"]),
                        "made": bool(res["made"]), "team_score": list(res["score"]),
                        "team_totals": list(res["totals"])})
        return out


def _ours_first(pair: Any, viewer: int | None) -> dict[str, str]:
    """A team pair as ``{a}`` (the viewer's team; seat 0's for a
    spectator) and ``{b}``, each number set apart from the sentence's
    direction (Unicode's left-to-right isolate), so "-45" reads minus
    first in Arabic too."""
    mine = (viewer or 0) % 2
    return {"a": f"\u2066{pair[mine]}\u2069", "b": f"\u2066{pair[1 - mine]}\u2069"}


__all__ = ["RookFront", "COLOURS", "COLOUR_WORDS"]
