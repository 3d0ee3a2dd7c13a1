"""The tool options bar: what the current tool puts down (a chip square's colour, a track's number).

Every tool with a choice shows its field here while it is the current tool; the field sets the
tool's attribute, read at the next click (a choice is no edit of the map, so no undo step).
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox, QToolBar, QWidget

from engine.mapdef import Colour
from mapeditor.tools.base import Tool
from mapeditor.tools.marks import ChipSquareTool, TrackTool

TRACK_NUMBERS = (1, 12)
"""A track's number: 1..12 (Península Ibérica: orange 1-4, light blue 5-8, purple 9-12)."""


class ToolOptionsBar(QToolBar):
    """Shows the fields of the current tool (see the module's docstring)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Tool options", parent)
        self.setObjectName("toolbar-tool-options")
        self.tool: Tool | None = None
        self.colour = QComboBox()
        self.colour.setObjectName("tool_colour")
        self.colour.setToolTip("The colour the Chip square tool marks")
        for colour in Colour:
            self.colour.addItem(colour.value.replace("_", " "), colour.value)
        self.colour.currentIndexChanged.connect(self._colour_chosen)
        self.number = QSpinBox()
        self.number.setObjectName("tool_track_number")
        self.number.setRange(*TRACK_NUMBERS)
        self.number.setToolTip("The track number the Track tool adds rows to")
        self.number.valueChanged.connect(self._number_chosen)
        self._colour_actions = [
            self.addWidget(QLabel(" Chip colour: ")),
            self.addWidget(self.colour),
        ]
        self._number_actions = [
            self.addWidget(QLabel(" Track number: ")),
            self.addWidget(self.number),
        ]
        self.show_for(None)

    def show_for(self, tool: Tool | None) -> None:
        """Show the fields of ``tool`` (none for a tool without choices), set to its values."""
        self.tool = tool
        chip = isinstance(tool, ChipSquareTool)
        track = isinstance(tool, TrackTool)
        if isinstance(tool, ChipSquareTool):
            self.colour.blockSignals(True)
            self.colour.setCurrentIndex(self.colour.findData(Colour(tool.colour).value))
            self.colour.blockSignals(False)
        if isinstance(tool, TrackTool):
            self.number.blockSignals(True)
            self.number.setValue(tool.number)
            self.number.blockSignals(False)
        for action in self._colour_actions:
            action.setVisible(chip)
        for action in self._number_actions:
            action.setVisible(track)

    def _colour_chosen(self, index: int) -> None:
        if isinstance(self.tool, ChipSquareTool) and index >= 0:
            self.tool.colour = Colour(self.colour.itemData(index))

    def _number_chosen(self, value: int) -> None:
        if isinstance(self.tool, TrackTool):
            self.tool.number = value
