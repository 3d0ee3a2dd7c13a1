"""What the window shows of the rule sets, as plain values.

Every rule set says what it shows (``Rules.view``: chips, island stacks, upgraded meeples, held
chips, wines, the Isle of Man) as plain data; this module only merges the views of the rule sets
in play, so the board and the score board never read rule state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game import Game
from engine.geometry import Square
from engine.rules.context import RuleContext
from engine.rules.view import ChipView, ResourceView, RuleView, StackView

__all__ = [
    "ChipView",
    "Pieces",
    "ResourceView",
    "StackView",
    "chips_held",
    "chips_held_by_all",
    "has_wines",
    "isle_meeples",
    "pieces",
    "resource_lines",
    "resources",
    "wines",
    "wines_title",
]


@dataclass
class Pieces:
    chips: list[ChipView] = field(default_factory=list)
    """Chips on map squares, face down or face up (treats)."""
    stacks: list[StackView] = field(default_factory=list)
    upgraded: set[int] = field(default_factory=set)
    """Ids of upgraded meeples."""
    isle_of_man: Square | None = None
    isle_meeples: dict[int, int] = field(default_factory=dict)
    """Meeples on the Isle of Man by player."""


def _views(game: Game) -> list[RuleView]:
    ctx = RuleContext.of(game)
    return [r.view(ctx) for r in game.rules if r.name in game.rule_state]


def pieces(game: Game) -> Pieces:
    """Every rule-set piece on the board now."""
    out = Pieces()
    if game.map is not None:
        out.isle_of_man = game.map.isle_of_man
    for view in _views(game):
        out.chips.extend(view.chips)
        out.stacks.extend(view.stacks)
        out.upgraded.update(view.upgraded)
        out.isle_meeples.update(view.isle_meeples)
    return out


def chips_held_by_all(game: Game) -> list[list[tuple[str, int]]]:
    """The chips every player holds face up, as ``(colour, value)``, by player."""
    for view in _views(game):
        if view.held:
            return [list(h) for h in view.held]
    return [[] for _ in game.players]


def chips_held(game: Game, player: int) -> list[tuple[str, int]]:
    """The chips ``player`` holds face up, as ``(colour, value)``."""
    for view in _views(game):
        if view.held:
            return list(view.held[player])
    return []


def isle_meeples(game: Game, player: int) -> int:
    """Meeples ``player`` has on the Isle of Man (Great Britain)."""
    return pieces(game).isle_meeples.get(player, 0)


def wines(game: Game, player: int) -> list[str]:
    """Colours of the wines ``player`` has (France: chips of one colour worth exactly 2)."""
    for view in _views(game):
        if view.wines:
            return list(view.wines[player])
    return []


def has_wines(game: Game) -> bool:
    """Whether a rule set in play counts wines (France's mechanic, or a designer's like it)."""
    return any(view.wines for view in _views(game))


def wines_title(game: Game) -> str:
    """What the rule set in play calls its wines (a data rule set's mechanic title), or
    ``"Wines"``."""
    return next((v.wines_title for v in _views(game) if v.wines_title), "Wines")


def resources(game: Game) -> list[ResourceView]:
    """The designer's resources of the rule sets in play, with what each player holds."""
    return [r for view in _views(game) for r in view.resources]


def resource_lines(
    game: Game, before: list[ResourceView]
) -> list[tuple[int, str, tuple[str, str]]]:
    """What changed in the players' resources since ``before`` (:func:`resources` then), in
    the designer's names and icons: ``(player, "   Anna: +1 Herring (3)", ("fish", colour))``."""
    old = {r.id: r.held for r in before}
    out = []
    for r in resources(game):
        was = old.get(r.id, (0,) * len(r.held))
        for p, (a, b) in enumerate(zip(was, r.held, strict=False)):
            if a != b:
                line = f"   {game.players[p]}: {b - a:+d} {r.name} ({b})"
                out.append((p, line, (r.icon, r.colour)))
    return out
