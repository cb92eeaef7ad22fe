"""Players behind one bot interface, the match runner and the front ends."""

from .base import Bot, make_bot, registered_bots
from .match import play_match

__all__ = ["Bot", "make_bot", "registered_bots", "play_match"]
