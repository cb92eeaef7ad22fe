"""The trick contracts' rules (King of Hearts, Queens, Diamonds, Ltoosh),
declared once (``solver.trickrules.Rulebook``) from what each charges
(``PENALTY_RULES``, ``solver/games/contract_match/trick_play.py``): four
seats (partners: 0+2 against 1+3), no trumps, ace high, a penalty card's
charge or a trick's to its taker, the cards revealed in trix's doubling,
and with the ``must_discard_penalty`` option a void follower plays a
penalty card if it holds one.  The double-dummy contract
(``solver/games/contract_match/exact.py``), the opponent model's rules
(``solver/games/contract_match/model.py``) and the search kernels' tables
(``solver/games/contract_match/kernel.py``, PIMC's play-outs in
``solver/games/contract_match/search.py``) are derived from it."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from ...cards import cards_of
from ...trickrules import Rulebook
from .trick_play import DIAMONDS_CONTRACT, KING_OF_HEARTS, LTOOSH, PENALTY_RULES, QUEENS

#: each trick contract's name in the double-dummy kernel's terms
CONTRACT_NAMES = {KING_OF_HEARTS: "king", QUEENS: "queens", DIAMONDS_CONTRACT: "diamonds",
                  LTOOSH: "ltoosh"}


@cache
def _rules(contract: int, partners: bool, doubled: tuple[tuple[int, int], ...],
           discard: bool) -> Rulebook:
    rule = PENALTY_RULES[contract]
    return Rulebook(CONTRACT_NAMES[contract], 4, (0, 1, 0, 1) if partners else (0, 1, 2, 3),
                    card_points=tuple((c, -rule.per_card) for c in cards_of(rule.mask)),
                    trick_points=-rule.per_trick, discard=rule.mask if discard else 0,
                    doubled=doubled)


def contract_rules(contract: int, partners: bool = False,
                   doubled: Mapping[int, int] | None = None,
                   must_discard: bool = False) -> Rulebook:
    """The rules of trick contract ``contract`` (an id of
    ``PENALTY_RULES``): ``partners`` seats 0+2 against 1+3; ``doubled``
    revealed card -> the seat that revealed it; ``must_discard`` the
    ``must_discard_penalty`` option."""
    return _rules(contract, partners, tuple(sorted((doubled or {}).items())), must_discard)


def option_rules(options: Mapping, contract: int) -> Rulebook:
    """The rules of trick contract ``contract`` under a game's ``options``
    (``partners``, ``must_discard_penalty``), before any card is revealed."""
    return contract_rules(contract, bool(options.get("partners", False)),
                          must_discard=bool(options.get("must_discard_penalty", False)))


def deal_rules(state) -> Rulebook:
    """The rules of a trix / tricks state's trick contract in play."""
    log = state.log
    return contract_rules(log.contract, bool(state.game.options.get("partners", False)),
                          {c: r for r, c in log.reveals}, log.play.must_discard)


__all__ = ["CONTRACT_NAMES", "contract_rules", "deal_rules", "option_rules"]
