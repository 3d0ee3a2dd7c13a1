"""Editor tools: small classes that turn :class:`~mapeditor.tools.base.ToolEvent` s into commands."""

from __future__ import annotations

from mapeditor.tools.base import Tool, ToolEvent
from mapeditor.tools.border import BorderFeatureTool
from mapeditor.tools.city import LargeCityTool
from mapeditor.tools.ferry import FerryTool
from mapeditor.tools.fill import FloodFillTool, RectFillTool
from mapeditor.tools.island import IslandTool
from mapeditor.tools.land_border import LandBorderTool
from mapeditor.tools.marks import (
    ChipSquareTool,
    DesignerMarkTool,
    IsleOfManTool,
    StartSquareTool,
    TownTool,
    TrackTool,
    WaveTool,
)
from mapeditor.tools.paint import BrushTool, EraserTool
from mapeditor.tools.select import SelectTool

ALL_TOOLS: tuple[type[Tool], ...] = (
    SelectTool,
    BrushTool,
    EraserTool,
    RectFillTool,
    FloodFillTool,
    StartSquareTool,
    TownTool,
    LargeCityTool,
    BorderFeatureTool,
    LandBorderTool,
    FerryTool,
    IslandTool,
    WaveTool,
    ChipSquareTool,
    DesignerMarkTool,
    TrackTool,
    IsleOfManTool,
)
"""Every tool, in tool-bar order."""

__all__ = ["ALL_TOOLS", "Tool", "ToolEvent", *(t.__name__ for t in ALL_TOOLS)]
