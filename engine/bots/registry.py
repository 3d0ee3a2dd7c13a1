"""The bots by name: ``make_bot("random" | "greedy" | "mcts", **options)``."""

from __future__ import annotations

from typing import Any

# imported for their registration (register_bot): every bot of the package is known by name
import engine.bots.greedy_bot  # noqa: F401
import engine.bots.mcts_bot  # noqa: F401
import engine.bots.random_bot  # noqa: F401
from engine.bots.base import Bot, factories
from engine.errors import EngineError


def make_bot(name: str, **options: Any) -> Bot:
    """A bot by name: ``random``, ``greedy``, ``mcts`` (options go to its constructor)."""
    known = factories()
    factory = known.get(name)
    if factory is None:
        raise EngineError(f"unknown bot {name!r}; known: {', '.join(sorted(known))}")
    return factory(**options)


def bot_names() -> list[str]:
    """Every bot's name."""
    return sorted(factories())


__all__ = ["bot_names", "make_bot"]
