"""A bot that takes the action with the best immediate evaluation.

Evaluation after the action (and any forced passes): my projected score (current score plus
what the final scoring would give now for open features, see ``Game.projected_scores``) minus
the best opponent's, plus a small bonus per meeple kept in supply, so it does not spend meeples
for nothing.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.bots.base import register_bot

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Action


def evaluate(game: Game, player: int, meeple_value: float = 0.5) -> float:
    proj = game.projected_scores()
    best_other = max((s for i, s in enumerate(proj) if i != player), default=0)
    return proj[player] - best_other + meeple_value * game.supply[player]


class GreedyBot:
    """Best immediate score change with a simple evaluation of open features (seeded ties)."""

    name = "greedy"

    def __init__(self, seed: int | None = 0, meeple_value: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.meeple_value = meeple_value

    def choose(self, game: Game) -> Action:
        moves = game.legal_moves().list()
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        best: list[Action] = []
        best_value = float("-inf")
        for move in moves:
            game.push(move)
            value = evaluate(game, me, self.meeple_value)
            game.pop()
            if value > best_value + 1e-9:
                best_value, best = value, [move]
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)


register_bot("greedy")(GreedyBot)
