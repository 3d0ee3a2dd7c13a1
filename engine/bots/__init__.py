"""Bots that play through the public Game API: random, greedy, Monte-Carlo tree search."""

from engine.bots.base import Bot, make_bot, play_game

__all__ = ["Bot", "make_bot", "play_game"]
