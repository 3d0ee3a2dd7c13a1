"""Carcassonne Maps engine: the map model, validation, chip placement and the rules engine.

Pure Python; never imports Qt. The public names below are imported lazily, so ``import engine``
is cheap and each submodule loads only when used.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.errors import (
    EngineError,
    IllegalMoveError,
    MapFormatError,
    RecordError,
    TileSetError,
)
from engine.geometry import Edge, Side, Square
from engine.mapdef import (
    BorderFeature,
    Colour,
    EdgeKind,
    EmbeddedRuleSet,
    Ferry,
    FileRuleSet,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    NamedRuleSet,
    RuleSet,
    RuleSetRef,
    Setup,
    StartSquare,
    Town,
    Track,
    UnreadableRuleSet,
)

# name -> module, for names that live in modules not imported eagerly.
_LAZY: dict[str, str] = {
    "load_map": "engine.mapio",
    "save_map": "engine.mapio",
    "read_map": "engine.mapio",
    "map_from_dict": "engine.mapio",
    "map_to_dict": "engine.mapio",
    "dumps_map": "engine.mapio",
    "loads_map": "engine.mapio",
    "validate_map": "engine.validation",
    "Issue": "engine.validation",
    "Severity": "engine.validation",
    "Where": "engine.validation",
    "Game": "engine.game",
    "GameOptions": "engine.gameoptions",
    "Phase": "engine.phase",
    "Outcome": "engine.game",
    "LegalMoveGenerator": "engine.legal",
    "LegalPlacementGenerator": "engine.legal",
    "Move": "engine.moves",
    "Placement": "engine.moves",
    "Pass": "engine.moves",
    "Draw": "engine.moves",
    "ScoreEvent": "engine.scoring",
    "Board": "engine.board",
    "GameRecord": "engine.record",
    "load_record": "engine.record",
    "save_record": "engine.record",
    "replay": "engine.replaying",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "BorderFeature",
    "Colour",
    "Edge",
    "EdgeKind",
    "EmbeddedRuleSet",
    "EngineError",
    "Ferry",
    "FileRuleSet",
    "IllegalMoveError",
    "Island",
    "IslandRole",
    "IslandSquare",
    "LargeCity",
    "MapDef",
    "MapFormatError",
    "NamedRuleSet",
    "RecordError",
    "RuleSet",
    "RuleSetRef",
    "Setup",
    "Side",
    "Square",
    "StartSquare",
    "TileSetError",
    "Town",
    "Track",
    "UnreadableRuleSet",
    *_LAZY,
]
