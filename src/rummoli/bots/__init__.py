"""Computer opponents for every decision of every game, at four strengths.

Each bot sees one seat's view and nothing else (:mod:`rummoli.bots.base`).
"""

from rummoli.bots.base import LEVELS, Bot, RandomBot, legal_actions, make_bot, register, seats_to_act

__all__ = ["LEVELS", "Bot", "RandomBot", "legal_actions", "make_bot", "register", "seats_to_act"]
