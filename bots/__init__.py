"""Players behind one bot interface, the match runner and the front ends."""

from .base import Bot
from .match import play_match
from .registry import make_bot, registered_bots

__all__ = ["Bot", "make_bot", "registered_bots", "play_match"]
