"""What the front ends need of tricks (``solver/front.py``): its words on
the form and its dealers' sets."""

from __future__ import annotations

from ...front import N_, NC_
from ..contract_match.front import ContractFront


class TricksFront(ContractFront):
    title = NC_("game", "Tricks")
    description = N_("Tricks (Ayman Khouri): 4 players; each dealer in turn plays a set "
                     "of 5 games (Diamonds, Queens, Tricks, King of Hearts, Jacks), and "
                     "a bad hand may be dealt again in Jacks")
    contracts_title = N_("Dealer's set: {name}")
    played_contracts = N_("Contracts already played in this set: {contracts}")


__all__ = ["TricksFront"]
