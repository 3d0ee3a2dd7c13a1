"""The playtest window: play the map being edited on the engine, with humans and bots.

Names are imported lazily, so the bot process (:mod:`mapeditor.playtest.bot_process`) can import
this package without loading Qt.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "PlaytestSetup": "mapeditor.playtest.setup",
    "Seat": "mapeditor.playtest.setup",
    "SetupDialog": "mapeditor.playtest.setup_dialog",
    "default_setup": "mapeditor.playtest.setup",
    "PlaytestWindow": "mapeditor.playtest.window",
    "open_playtest": "mapeditor.playtest.launch",
    "map_errors": "mapeditor.playtest.launch",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'mapeditor.playtest' has no attribute {name!r}")
    return getattr(import_module(module), name)
