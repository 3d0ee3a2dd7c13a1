"""A bot that takes the action with the best immediate evaluation.

Evaluation after the action (and any forced passes): my projected score (current score plus
what the final scoring would give now for open features, see ``Game.projected_scores``) minus
the best opponent's, plus a small bonus per meeple kept in supply, so it does not spend meeples
for nothing. Rule-set choices outside placing (draw or take an island tile, buy an extra turn,
sell wine, upgrade, place a treat) look one placement ahead (see ``GreedyBot._lookahead``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engine.bots.base import register_bot
from engine.moves import Pass

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

    def __init__(self, seed: int | None = 0, meeple_value: float = 0.5, samples: int = 2) -> None:
        self.rng = random.Random(seed)
        self.meeple_value = meeple_value
        self.samples = samples
        """Reshuffles of the hidden pile when a rule action leads to placing a tile."""

    def _lookahead(self, game: Game, move: Action, me: int) -> float:
        """Value of a rule-set choice (draw or take a tile, buy an extra turn, sell, upgrade...):
        the evaluation after it, or, when it leads to the same player placing a tile, the best
        evaluation of that placement, averaged over reshuffles of the hidden pile."""
        from engine.game import Phase

        total = 0.0
        for _ in range(self.samples):
            sim = game.copy(shuffle=self.rng)
            sim.apply(move)
            if sim.phase is Phase.PLACE and sim.to_move == me:
                value = float("-inf")
                for follow in sim.legal_moves().list():
                    sim.push(follow)
                    value = max(value, evaluate(sim, me, self.meeple_value))
                    sim.pop()
            else:
                value = evaluate(sim, me, self.meeple_value)
            total += value
        return total / self.samples

    def choose(self, game: Game) -> Action:
        from engine.game import Phase

        moves = game.legal_moves().list()
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        look = game.phase is not Phase.PLACE
        # judge placements on a copy whose hidden information (face-down chip values) is
        # re-dealt, so the bot does not peek at what a covered chip is worth
        view = game if look else game.copy(shuffle=self.rng)
        best: list[Action] = []
        best_value = float("-inf")
        for move in moves:
            if look:
                value = self._lookahead(game, move, me)
            else:
                view.push(move)
                pushed = 1
                if view.phase is Phase.ACTION and Pass() in view.legal_moves():
                    view.push(Pass())  # let this turn's scoring happen before judging the move
                    pushed += 1
                value = evaluate(view, me, self.meeple_value)
                for _ in range(pushed):
                    view.pop()
            if value > best_value + 1e-9:
                best_value, best = value, [move]
            elif abs(value - best_value) <= 1e-9:
                best.append(move)
        return self.rng.choice(best)


register_bot("greedy")(GreedyBot)
