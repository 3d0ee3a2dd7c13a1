"""The bot interface: a bot registers its factory by name (:func:`register_bot`);
``engine.bots.make_bot("random" | "greedy" | "mcts", **options)`` makes one.

A bot sees the game only through the public :class:`engine.game.Game` API (``legal_moves()``,
``legal_placements()``, ``meeple_locations()``, ``copy()``, ``push``/``push_placement``/``pop``/
``apply``, ``projected_scores()``, and the board's ``preview`` of a placement and the rule
modules' ``placement_points``) and returns one legal action for the player to move, in every
phase (placing, rule-set actions, passing).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Action


class Bot(Protocol):
    """Anything with a ``name`` and ``choose(game) -> action``."""

    name: str

    def choose(self, game: Game) -> Action: ...


_FACTORIES: dict[str, Callable[..., Bot]] = {}


def register_bot(name: str) -> Callable[[Callable[..., Bot]], Callable[..., Bot]]:
    def deco(factory: Callable[..., Bot]) -> Callable[..., Bot]:
        _FACTORIES[name] = factory
        return factory

    return deco


def factories() -> dict[str, Callable[..., Bot]]:
    """The bot factories registered so far, by name (:mod:`engine.bots.registry` registers
    the package's bots first)."""
    return dict(_FACTORIES)


def play_game(game: Game, bots: Sequence[Bot], *, max_actions: int = 100_000) -> Game:
    """Let ``bots[i]`` play for player ``i`` until the game is over (checked ``play``)."""
    for _ in range(max_actions):
        if game.is_over():
            return game
        game.play(bots[game.decider].choose(game))
    raise EngineError(f"game not over after {max_actions} actions")
