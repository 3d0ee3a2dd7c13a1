"""The options of a game: everything that changes how it is played."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from engine.errors import EngineError
from engine.geometry import Square


@dataclass(frozen=True)
class GameOptions:
    """Everything that changes how a game is played. Defaults follow the Maps rule sheets."""

    meeples: int | None = None
    """Meeples per player; ``None``: the map's setup (9 by default), 7 on the classic board."""
    tile_pool: str | None = None
    """Tile pool name; ``None``: ``"base+ic+tb"`` on a map, ``"base"`` on the classic board."""
    tile_count: int | None = None
    """Play a random subset of this many tiles of the pool (start tile included); ``None``: the
    whole pool, or on a map the upper bound of its recommendation (``setup.tile_pool_max``)."""
    draw_order: tuple[str, ...] | None = None
    """Forced draw order (tile ids, first drawn first); replaces the shuffled pool."""
    end_after_turns: int | None = None
    """End the game after this many turns (tile placements), whatever is left to draw."""
    start_squares: tuple[Square, ...] | None = None
    """Start squares used, the first gets the start tile; ``None``: a seeded random choice of the
    number the map's setup says."""
    start_tile: str | None = None
    """The start tile id; ``None``: the tile set's (``D``). Placed at rotation 0 when that fits."""
    farmers: bool = True
    town_extra_tile: bool = False
    """Town variant a: covering a town gives one instant extra tile."""
    town_cost: bool = False
    """Town variant b: covering a town costs 2 points."""
    town_road_bonus: bool = False
    """Town variant c: +2 per still visible town orthogonally next to a scored road."""
    rule_set: str | None = None
    """Map-Chips rule set: a module name, ``"data:<preset>"`` (a preset played as data), or the
    map's data rule set by its name; ``None``: the map's own; ``"none"``: plain Maps rules."""
    rule_options: Mapping[str, Any] = field(default_factory=dict)
    """Options passed to the rule module (see its docs)."""
    large_city_connect: str = "any_edge"
    """``any_edge`` or ``city_edge`` (see engine/RULES.md)."""
    large_city_road_tile: bool = True
    fields_touch_large_city: bool = True
    """A field meeting a large city's printed field edge borders that city (farmers score it);
    ``False``: only a field touching it through a tile's city segment (engine/RULES.md)."""
    gated_islands: bool = True
    map_chips_prints: str = "ignore"
    """Without the map's Map-Chips rule set: ``"ignore"`` its prints ("you simply ignore the
    additional prints on the maps": waves and island stack squares take tiles) or ``"keep"``
    them blocked (engine/RULES.md)."""

    def __post_init__(self) -> None:
        if self.meeples is not None and not 0 <= self.meeples <= 99:
            raise EngineError(f"options.meeples: {self.meeples} is not in 0..99")
        if self.large_city_connect not in ("any_edge", "city_edge"):
            raise EngineError(
                f"options.large_city_connect: {self.large_city_connect!r} is not "
                "'any_edge' or 'city_edge'"
            )
        if self.map_chips_prints not in ("ignore", "keep"):
            raise EngineError(
                f"options.map_chips_prints: {self.map_chips_prints!r} is not 'ignore' or 'keep'"
            )
        if self.end_after_turns is not None and self.end_after_turns < 0:
            raise EngineError(f"options.end_after_turns: {self.end_after_turns} is negative")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "start_squares" and v is not None:
                v = [list(s) for s in v]
            elif f.name == "draw_order" and v is not None:
                v = list(v)
            elif f.name == "rule_options":
                v = dict(v)
            out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameOptions:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise EngineError(f"unknown game option(s): {', '.join(unknown)}")
        kw = dict(data)
        if kw.get("start_squares") is not None:
            kw["start_squares"] = tuple(tuple(s) for s in kw["start_squares"])
        if kw.get("draw_order") is not None:
            kw["draw_order"] = tuple(kw["draw_order"])
        return cls(**kw)


DEFAULT_OPTIONS = GameOptions(rule_options=MappingProxyType({}))
"""The options of a game made without any: one frozen instance for all (its rule options read
only), instead of a new one per game."""
