"""Rule-based ("rules") bots: a documented heuristic per game, the kind of
play a casual human finds sensible.  ``make_bot("rules", game, seat)``
picks the game's heuristic."""

from __future__ import annotations

from solver.errors import OptionError

from ..base import Bot, register_bot
from .contract import ContractRulesBot
from .dix import DixRulesBot
from .dix_exchange import DixExchangeRulesBot
from .dixie_rook import DixieRookRulesBot

_BY_GAME = {"dix": DixRulesBot, "dix-exchange": DixExchangeRulesBot,
            "dixie-rook": DixieRookRulesBot,
            "trix": ContractRulesBot, "tricks": ContractRulesBot}


def rules_bot(game, seat, seed=None, **settings) -> Bot:
    try:
        cls = _BY_GAME[game.name]
    except KeyError:
        raise OptionError(f"bot 'rules' has no heuristic for {game.name!r} "
                          f"(it has: {', '.join(sorted(_BY_GAME))})") from None
    return cls(game, seat, seed=seed, **settings)


def has_rules_bot(game_name: str) -> bool:
    return game_name in _BY_GAME


register_bot("rules", rules_bot)
