"""Map-Chips France: producing and selling wine.

"If there are 2 points of one type of grape in front of you, you have produced wine." A wine is
sold with chips of one colour worth exactly 2 (one 2, or two 1s; the action says which):

* **export, 5 points**: the tile just placed connects to a printed border road or city with a
  coat of arms ("you enable a connection to another country"; it need not score);
* **town, 9 points**: the tile just placed covers a town whose grape is the wine's colour.

Sold chips leave the game; unsold wine scores nothing at the end. Selling is offered after the
turn's scoring (the sheet lists it under "3. Scoring a feature").

Options (``GameOptions.rule_options``, besides those of :mod:`engine.rules.chips_common`):

* ``wine_limit``: ``"round"`` (default, the printed sheet: "You can sell 1 Wine per round") or
  ``"turn"`` (Wikicarpedia: once per turn, so extra turns may sell again).
* ``export_road_needs_coa`` (default ``True``): "a road or a city with a coat of arms" read as
  both needing a coat of arms; ``False``: any printed border road qualifies, cities still need one.

The rules themselves are the ``france`` preset (``engine/data/rulesets/france.json``) played by
:class:`engine.rules.data.DataRules`; this module adds the validator's France checks and the
report's France figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.rules.base import register
from engine.rules.data.actions import SellWine
from engine.rules.data.prints import export_sides
from engine.rules.data.rules import DataRules, DataState, mechanic_figures
from engine.rules.data.ruleset import preset_spec
from engine.rules.spec import ActionCount, ActionTally, EventStat, IssueCode, IssueSink

if TYPE_CHECKING:
    from engine.mapdef import MapDef

_SPEC = preset_spec("france")
EXPORT_POINTS = _SPEC.mechanic("wine").reward.points_at("border_coa")
TOWN_POINTS = _SPEC.mechanic("wine").reward.points_at("town_colour")
WINE_VALUE = _SPEC.mechanic("wine").pay.value

FranceState = DataState
"""The state of a France game (``rule_state["france"]``)."""


@register
class FranceRules(DataRules):
    spec = _SPEC
    issue_codes = {
        "france-town-without-grape": IssueCode(
            "error", "France: a town has no grape colour.", "Give every town a grape colour."
        ),
    }
    report_figures = {
        "wines_sold": ActionCount(("sell_wine",)),
        "wine_points": EventStat("wine", "points"),
        "wines_by_market": ActionTally("sell_wine", "field", "market"),
        "wines_by_colour": ActionTally("sell_wine", "field", "colour"),
        "wines_sold_where": ActionTally("sell_wine", "square", "placed"),
        **mechanic_figures(_SPEC),
    }

    @classmethod
    def check_map(cls, m: MapDef, issues: IssueSink) -> None:
        for sq in sorted(m.towns, key=lambda q: (q[1], q[0])):
            if m.towns[sq].grape is None:
                issues.err(
                    "france-town-without-grape",
                    f"town {m.towns[sq].name!r} at ({sq[0]}, {sq[1]}) has no grape colour",
                    squares=[sq],
                )


__all__ = [
    "EXPORT_POINTS",
    "TOWN_POINTS",
    "WINE_VALUE",
    "FranceRules",
    "FranceState",
    "SellWine",
    "export_sides",
]
