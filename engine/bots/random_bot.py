"""A bot that plays uniformly at random over the legal actions (seeded)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.bots.base import register_bot

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Action


class RandomBot:
    """Uniform over ``game.legal_moves()`` (placement and meeple choice together)."""

    name = "random"

    def __init__(self, seed: int | None = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        moves: list[Action] = game.legal_moves().list()
        return self.rng.choice(moves)


register_bot("random")(RandomBot)
