"""Bot specs: a bot's name with a play style or a strength level, as simulations write them.

``NAME[:STYLE][@LEVEL]``: ``greedy``, ``greedy:farmer`` (a play style of
:mod:`engine.bots.styles`), ``mcts@4`` (strength level 4 of :data:`engine.bots.mcts_bot.LEVELS`),
``mcts:cities@6`` (both), ``random``.

>>> from engine.bots.spec import BotSpec
>>> BotSpec.parse("mcts@4")
BotSpec(name='mcts', style=None, level=4)
>>> str(BotSpec.parse("greedy:cities"))
'greedy:cities'
>>> BotSpec.parse("mcts:farmer@6")
BotSpec(name='mcts', style='farmer', level=6)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.bots.mcts_bot import DEFAULT_ITERATIONS, LEVELS
from engine.bots.registry import make_bot
from engine.bots.styles import style_named
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.bots.base import Bot

NAMES = ("random", "greedy", "mcts")
DEFAULT_LEVEL = next(k for k, opts in LEVELS.items() if opts == {"iterations": DEFAULT_ITERATIONS})
"""The strength level that is the default ``mcts`` bot (its budget, nothing else changed):
``mcts`` and ``mcts@8`` play the same games.

>>> DEFAULT_LEVEL
8
"""


@dataclass(frozen=True)
class BotSpec:
    """A bot by name, with a play style (greedy, mcts) or a strength level (mcts)."""

    name: str
    style: str | None = None
    level: int | None = None

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """``NAME[:STYLE][@LEVEL]``, or an error naming what is wrong with ``text``."""
        rest, at, level_text = text.strip().partition("@")
        name, colon, style = rest.partition(":")
        if name not in NAMES:
            raise EngineError(f"bot {text!r}: {name!r} is not one of {', '.join(NAMES)}")
        level = None
        if at:
            if name != "mcts" or not level_text.isdigit() or not 1 <= int(level_text) <= 10:
                raise EngineError(f"bot {text!r}: a level is mcts@1 to mcts@10")
            level = int(level_text)
        if colon:
            if name not in ("greedy", "mcts"):
                raise EngineError(
                    f"bot {text!r}: play styles are greedy's and mcts's (greedy:STYLE, mcts:STYLE)"
                )
            try:
                style_named(style)
            except EngineError as exc:
                raise EngineError(f"bot {text!r}: {exc}") from None
        return cls(name, style if colon else None, level)

    def __str__(self) -> str:
        style = f":{self.style}" if self.style else ""
        level = f"@{self.level}" if self.level is not None else ""
        return f"{self.name}{style}{level}"

    def make(self, seed: int, mcts_iterations: int | None = None) -> Bot:
        """The bot, seeded; ``mcts_iterations`` is the budget of an ``mcts`` without a level."""
        opts: dict[str, Any] = {}
        if self.style is not None:
            opts["style"] = self.style
        if self.level is not None:
            opts["level"] = self.level
        elif self.name == "mcts" and mcts_iterations is not None:
            opts["iterations"] = mcts_iterations
        return make_bot(self.name, seed=seed, **opts)


__all__ = ["DEFAULT_LEVEL", "NAMES", "BotSpec"]
