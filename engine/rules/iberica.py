"""Map-Chips Península Ibérica: treats.

Setup: 3 of the 4 start squares (the map's setup); all 30 chips face down with the common rules,
none on the Balearic (ferry-gated island) squares (:mod:`engine.chips` bars them on ``iberica``
maps). Gated island squares are reached only by ferry (the core board, ``gated_islands``).

* A tile on an island square with coats of arms scores 2 per coat of arms at once (``island``
  event).
* A collected face-down chip scores its value; the collecting player must then place it face up
  as a **treat** (:class:`PlaceTreat`, compulsory in the ``ACTION`` phase) on a free square of the
  tracks of its colour (orange 1-4, light blue 5-8, purple 9-12). A free square is a map square
  that takes tiles, holds no tile and no other chip (large-city squares hold a printed tile).
* A tile placed on a treat scores twice its value (``treat`` event) and the chip leaves the game.

Decisions (engine/RULES.md "Map-Chips"): with no free square in those tracks the chip leaves the
game at once. Option ``treat_squares``: ``"free"`` (default, the sheet's only condition) or
``"setup"`` (also the setup rules: not on a town or a Balearic square, not orthogonally next to
another chip).

The rules themselves are the ``iberica`` preset played by :class:`engine.rules.data.DataRules`;
this module adds the validator's track check, the Balearic chip code and the report's figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.base import register
from engine.rules.data.actions import PlaceTreat
from engine.rules.data.prints import track_problems
from engine.rules.data.rules import DataRules, DataState, mechanic_figures
from engine.rules.data.ruleset import preset_spec
from engine.rules.spec import (
    ActionCount,
    ChipLayout,
    EventStat,
    IssueCode,
    IssueSink,
    LayoutKind,
)

if TYPE_CHECKING:
    from engine.mapdef import MapDef

_SPEC = preset_spec("iberica")
ISLAND_COA_POINTS = _SPEC.island_coat_points

IbericaState = DataState
"""The state of a Península Ibérica game (``rule_state["iberica"]``; ``pending``: the chip to
place as a treat)."""


@register
class IbericaRules(DataRules):
    spec = _SPEC
    chip_layout = ChipLayout(
        LayoutKind.RANDOM,
        excluded=("gated_islands",),
        excluded_code="chip-on-balearic",
        excluded_label="a Balearic island square",
        excluded_meaning=(
            "a chip on a ferry-gated (Balearic) island square of a Península Ibérica map"
        ),
    )
    issue_codes = {
        "iberica-tracks": IssueCode(
            "error",
            "Península Ibérica: tracks 1..12 must all exist and cover every row holding map "
            "squares, with the orange band (1-4) above light blue (5-8) above purple (9-12).",
            "Fix the track rows.",
        ),
    }
    report_figures = {
        "treats_placed": ActionCount(("place_treat",)),
        "treats_collected": EventStat("treat"),
        "treat_points": EventStat("treat", "points"),
        "island_coat_of_arms_tiles": EventStat("island"),
        "island_coat_of_arms_points": EventStat("island", "points"),
        **mechanic_figures(_SPEC),
    }

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        problems = track_problems(m)
        if problems:
            issues.err("iberica-tracks", "Península Ibérica tracks: " + "; ".join(problems))


__all__ = ["ISLAND_COA_POINTS", "IbericaRules", "IbericaState", "PlaceTreat"]
