"""The playtest window: play the map being edited on the engine, with humans and bots."""

from mapeditor.playtest.setup_dialog import PlaytestSetup, Seat, SetupDialog, default_setup
from mapeditor.playtest.window import PlaytestWindow

__all__ = ["PlaytestSetup", "PlaytestWindow", "Seat", "SetupDialog", "default_setup"]
