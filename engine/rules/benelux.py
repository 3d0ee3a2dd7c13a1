"""Map-Chips Benelux: island tiles.

Setup: 20 of the 30 chips go face down on the map (the map's ``setup.chip_count``), "the remaining
10 Chips are taken out of the game without looking at them". Then "6 stacks with 5 tiles" are
taken from the shuffled tiles onto the 6 island stack squares (2 per island), the top tile of
each face up; the rest is the usual face-down pile. Wave and stack squares take no tile (the
board already blocks them).

On their turn, instead of drawing, a player who holds a chip of an island's colour may pay that
chip (it leaves the game) and take the face-up tile of one of that island's stacks
(:class:`TakeIslandTile`, offered in the ``DRAW`` phase next to :class:`~engine.moves.Draw`); the
stack's next tile is revealed at the end of the turn. Drawing face down commits the player (the
``DRAW`` phase is over). The game ends after the last face-down tile is placed (the core ends the
game when the pile is empty); island tiles left over do not count.

Decisions (engine/RULES.md "Map-Chips"): a face-up island tile that fits nowhere on the board is
not offered (it stays on top of its stack until it fits); an emptied stack square stays a square
that takes no tile. Which chip pays: the first held chip of the island's colour (values do not
matter once collected).

Options: ``stack_size`` (default 5) besides those of :mod:`engine.rules.chips_common`.

The rules themselves are the ``benelux`` preset played by :class:`engine.rules.data.DataRules`;
this module adds the validator's Benelux checks and the report's Benelux figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.mapdef import Colour, IslandRole
from engine.rules.base import register
from engine.rules.data.actions import TakeIslandTile
from engine.rules.data.rules import DataRules, DataState, mechanic_figures
from engine.rules.data.ruleset import preset_spec
from engine.rules.spec import ActionCount, ActionTally, IssueCode, IssueSink

if TYPE_CHECKING:
    from engine.mapdef import MapDef

_SPEC = preset_spec("benelux")
STACK_SIZE = _SPEC.mechanic("island").reward.stack_size

BeneluxState = DataState
"""The state of a Benelux game (``rule_state["benelux"]``)."""


@register
class BeneluxRules(DataRules):
    spec = _SPEC
    issue_codes = {
        "benelux-waves": IssueCode(
            "error",
            "Benelux: the map needs exactly 3 wave squares.",
            "Mark exactly 3 wave squares.",
        ),
        "benelux-islands": IssueCode(
            "error",
            "Benelux: the map needs 3 islands, one per colour, each with exactly 2 stack squares.",
            "Fix the islands' colours and stack squares.",
        ),
    }
    report_figures = {
        "island_tiles_taken": ActionCount(("take_island_tile",)),
        "island_tiles_by_island": ActionTally("take_island_tile", "island"),
        **mechanic_figures(_SPEC),
    }

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        if len(m.waves) != 3:
            issues.err(
                "benelux-waves",
                f"the map has {len(m.waves)} wave square(s); Benelux needs exactly 3",
                squares=m.waves,
            )
        stack_islands = {
            iid: i
            for iid, i in m.islands.items()
            if any(s.role is IslandRole.STACK for s in i.squares.values())
        }
        problems = []
        if len(stack_islands) != 3:
            problems.append(f"{len(stack_islands)} island(s) with stack squares (need 3)")
        for iid in sorted(stack_islands):
            i = stack_islands[iid]
            n = sum(1 for s in i.squares.values() if s.role is IslandRole.STACK)
            if n != 2:
                problems.append(f"island {iid!r} has {n} stack squares (need 2)")
        colours = sorted(
            str(i.colour) if i.colour is not None else "none" for i in stack_islands.values()
        )
        if colours != sorted(c_.value for c_ in Colour):
            problems.append(f"island colours are {', '.join(colours) or 'none'} (need one each)")
        if problems:
            issues.err("benelux-islands", "Benelux islands: " + "; ".join(problems))


__all__ = ["STACK_SIZE", "BeneluxRules", "BeneluxState", "TakeIslandTile"]
