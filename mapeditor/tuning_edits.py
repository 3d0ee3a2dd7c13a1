"""A tuner's answer applied to the open map as one undo step.

The tuner (:mod:`engine.analysis.tune`) searches settings that a game takes from the map file
(the tiles played, the start squares used, the chips laid out) and options that a game is given
when it is played (the rest of ``rule.NAME``). Only the first kind has a field in the map;
the others are named back to the designer, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mapdef import MapDef
from mapeditor.commands import change_attributes
from mapeditor.document import MapDocument

__all__ = ["apply_tuning", "tuning_changes"]

PLAY_OPTION = "a play option of the rule set: the map file has no field for it"


def tuning_changes(m: MapDef, values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The map fields that a tuner's ``values`` set (``{"setup.tile_pool_max": 92, ...}``), and
    the values the map cannot hold, by name, each with why.

    >>> from engine.mapdef import MapDef
    >>> m = MapDef(id="m", name="M", width=2, height=2)
    >>> fields, left = tuning_changes(
    ...     m, {"tile_count": 92, "start_squares": 3, "rule.ones_per_colour": 2}
    ... )
    >>> fields
    {'setup.tile_pool_max': 92, 'setup.tile_pool_min': 92, 'setup.start_squares_used': 3}
    >>> left
    {'rule.ones_per_colour': 'a play option of the rule set: the map file has no field for it'}
    """
    fields: dict[str, Any] = {}
    left: dict[str, str] = {}
    for name, value in values.items():
        if name == "tile_count":
            # a game plays the map's tile_pool_max tiles (engine.game: the recommendation's top)
            fields["setup.tile_pool_max"] = value
            if m.setup.tile_pool_min > value:
                fields["setup.tile_pool_min"] = value
        elif name == "start_squares":
            fields["setup.start_squares_used"] = value
        elif name == "rule.chip_count":
            fields["setup.chip_count"] = value  # the option's default is the map's setup
        else:
            left[name] = PLAY_OPTION
    return fields, left


def apply_tuning(document: MapDocument, values: Mapping[str, Any]) -> dict[str, str]:
    """Set the map fields of ``values`` as one undo step ("Apply tuning"); returns the values
    not applied, by name, each with why."""
    fields, left = tuning_changes(document.map, values)
    if fields:
        change_attributes(document, fields, "Apply tuning")
    return left
