"""Bots that play through the public Game API: random, greedy, Monte-Carlo tree search."""

from engine.bots.base import Bot, play_game
from engine.bots.registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot", "play_game"]
