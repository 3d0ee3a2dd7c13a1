"""Play styles: the greedy bot's search with the plans weighted differently.

A style keeps the greedy evaluation (projected margin plus meeples kept, see
:mod:`engine.bots.greedy_bot`) and adds what its plan values: points for putting a meeple on a
feature of its kind, the rule set's own points for a square (Map-Chips and the like) and its
actions, and a price per meeple kept. Every style searches the same moves the same way, so
styles meet at equal strength: which one wins on a map says which plan the map rewards.

>>> from engine.bots import make_bot
>>> make_bot("greedy", style="farmer").name
'greedy:farmer'
>>> sorted(STYLES)
['balanced', 'chips', 'cities', 'farmer', 'roads', 'thrifty']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.errors import EngineError
from engine.features import CITY, FIELD, MONASTERY, ROAD
from engine.moves import Move, Pass
from engine.rules.context import RuleContext

if TYPE_CHECKING:
    from engine.game import Game
    from engine.moves import Action


@dataclass(frozen=True)
class Style:
    """What a plan adds to the greedy evaluation of a move, in points."""

    name: str
    description: str
    meeple: dict[int, float] = field(default_factory=dict)
    """Feature kind (``engine.features.CITY``...) -> points for a move that puts a meeple on
    that kind of feature."""
    rule_points: float = 0.0
    """Extra weight on the points the rule sets award at once for the square placed on
    (``Rules.placement_points``): 1.0 counts them twice."""
    action: float = 0.0
    """Points for taking a rule-set action (anything but passing) outside placing."""
    meeple_value: float = 0.5
    """Points per meeple kept in supply (the greedy bot's 0.5: thrift raises it)."""

    def bonuses(self, game: Game, moves: list[Action]) -> list[float]:
        """What the style adds to the evaluation of each of ``moves`` (legal in ``game``)."""
        tile = game.current_tile
        oriented = game.board.compiled.oriented[tile] if tile is not None else None
        ctx = RuleContext.of(game) if self.rule_points else None
        square_points: dict[tuple[int, int], float] = {}
        out: list[float] = []
        for mv in moves:
            if not isinstance(mv, Move):
                out.append(0.0 if isinstance(mv, Pass) else self.action)
                continue
            sq, rot, loc = mv
            bonus = 0.0
            if loc is not None and oriented is not None and self.meeple:
                o = oriented[rot // 90]
                bonus += self.meeple.get(o.kinds[o.aliases[loc]], 0.0)
            if ctx is not None:
                if sq not in square_points:
                    pts = (r.placement_points(ctx, sq) for r in game.rules)
                    square_points[sq] = self.rule_points * sum(p or 0 for p in pts)
                bonus += square_points[sq]
            out.append(bonus)
        return out


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("balanced", "the greedy bot as it is: no plan preferred"),
        Style("farmer", "a meeple on a field is worth a point more", meeple={FIELD: 1.0}),
        Style("cities", "a meeple in a city is worth 1.5 points more", meeple={CITY: 1.5}),
        Style(
            "roads",
            "a meeple on a road or a monastery is worth a point more",
            meeple={ROAD: 1.0, MONASTERY: 1.0},
        ),
        Style(
            "chips",
            "the rule set's chips and actions: its points for a square count twice, and each "
            "action it offers is worth 1.5 points more",
            rule_points=1.0,
            action=1.5,
        ),
        Style("thrifty", "keeps its meeples: a point per meeple in supply", meeple_value=1.0),
    )
}
"""The play styles by name (``make_bot("greedy", style=NAME)``, ``greedy:NAME`` in a
simulation)."""


def style_named(name: str) -> Style:
    """The style ``name``, or an error naming the known ones."""
    style = STYLES.get(name)
    if style is None:
        raise EngineError(f"unknown play style {name!r}; known: {', '.join(sorted(STYLES))}")
    return style


__all__ = ["STYLES", "Style", "style_named"]
