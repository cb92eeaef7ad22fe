"""What the front ends need of trix (``solver/front.py``): its words on
the form, its kingdoms, and where a deal set up by hand keeps its hands
(the holder of the Seven of Hearts owns the first kingdom)."""

from __future__ import annotations

from typing import ClassVar

from ...front import N_, NC_
from ..contract_match.front import ContractFront


class TrixFront(ContractFront):
    title = NC_("game", "Trix")
    description = N_("Trix: 4 players, 4 kingdoms of 5 contracts (King of Hearts, "
                     "Queens, Diamonds, Ltoosh, Trix), with doubling; each for "
                     "themselves or in partnerships")
    option_words: ClassVar[dict[str, tuple[str, str, dict[str, str]]]] = {
        "partners": (N_("Partnerships"),
                     N_("players facing each other are partners, seats 1 and 3 against "
                        "2 and 4: the teams' totals decide"), {}),
        "stop_when_decided": (N_("End a deal once it is decided"),
                              N_("a deal ends as soon as every penalty card is taken (or "
                                 "three players are out of the layout); the scores are "
                                 "the same either way"), {}),
        "must_discard_penalty": (N_("Must discard a penalty card"),
                                 N_("a player who cannot follow suit and holds a penalty "
                                    "card of the contract must play one"), {}),
    }
    contracts_title = N_("Kingdom: {name}")
    played_contracts = N_("Contracts already played in this kingdom: {contracts}")
    setup_owner = ("first_owner", "7H")


__all__ = ["TrixFront"]
