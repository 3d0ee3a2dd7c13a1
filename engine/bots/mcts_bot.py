"""Monte-Carlo tree search (UCT at the root, random playouts) with an iteration or time budget.

The root actions are first narrowed to the ``candidates`` best by the greedy evaluation
(progressive pruning), so a small budget is spent on sensible moves.

Each iteration copies the game with the hidden draw pile reshuffled (the bot never sees the real
tile order), plays the chosen root action, then a random playout (random placement, a meeple
half of the time) for ``playout_turns`` turns or to the end, and scores the result from the
mover's view: 1 for a win, 0.5 for a tie, 0 for a loss, plus a small score-margin term.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from engine.bots.base import register_bot
from engine.bots.greedy_bot import evaluate
from engine.moves import Move

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Action


def random_playout(game: Game, rng: random.Random, turns: int | None) -> None:
    """Play ``game`` on (unchecked, it is a copy) with a fast random policy."""
    start = game.turn
    while not game.is_over() and (turns is None or game.turn - start < turns):
        placements = game.legal_placements().list()
        if placements:
            p = rng.choice(placements)
            locs = game.meeple_locations(p) if rng.random() < 0.5 else []
            game.apply(Move(p.square, p.rotation, rng.choice(locs) if locs else None))
        else:
            game.apply(rng.choice(game.legal_moves().list()))


class MCTSBot:
    """UCT over the root actions. Give ``iterations`` (deterministic) or ``seconds``."""

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = 200,
        seconds: float | None = None,
        seed: int | None = 0,
        exploration: float = 1.0,
        playout_turns: int | None = None,
        margin_weight: float = 0.01,
        candidates: int | None = 10,
    ) -> None:
        if iterations is None and seconds is None:
            iterations = 200
        self.iterations = iterations
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout_turns = playout_turns
        self.margin_weight = margin_weight
        self.candidates = candidates
        """Search only this many root actions, the best by the greedy evaluation (None: all)."""

    def _reward(self, game: Game, player: int) -> float:
        scores = game.projected_scores()
        mine = scores[player]
        best_other = max(s for i, s in enumerate(scores) if i != player)
        base = 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
        margin = max(-1.0, min(1.0, (mine - best_other) * self.margin_weight))
        return base + margin * 0.5

    def choose(self, game: Game) -> Action:
        moves: list[Action] = game.legal_moves().list()
        if len(moves) == 1:
            return moves[0]
        me = game.to_move
        if self.candidates is not None and len(moves) > self.candidates:
            scored = []
            view = game.copy(shuffle=self.rng)  # hidden information re-dealt: no peeking
            for k, move in enumerate(moves):
                view.push(move)
                scored.append((evaluate(view, me), -k))
                view.pop()
            keep = sorted(range(len(moves)), key=lambda k: scored[k], reverse=True)
            moves = [moves[k] for k in sorted(keep[: self.candidates])]
        n = len(moves)
        visits = [0] * n
        totals = [0.0] * n
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done >= 1 and time.perf_counter() >= deadline:
                break
            if done < n:
                i = done  # try every action once first
            else:
                log_n = math.log(done)
                c = self.exploration
                i = max(
                    range(n),
                    key=lambda k: totals[k] / visits[k] + c * math.sqrt(log_n / visits[k]),
                )
            sim = game.copy(shuffle=self.rng)
            sim.apply(moves[i])
            random_playout(sim, self.rng, self.playout_turns)
            visits[i] += 1
            totals[i] += self._reward(sim, me)
            done += 1
        best = max(range(n), key=lambda k: (visits[k], totals[k] / max(visits[k], 1)))
        return moves[best]


register_bot("mcts")(MCTSBot)
