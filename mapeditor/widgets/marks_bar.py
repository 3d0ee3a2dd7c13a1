"""The Marks tool bar: a tool per mark of the map's rule set, and the chip colour and value the
Designer mark tool prints with each (so many squares get them in one drag)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox, QToolBar, QWidget

from engine.mapdef import Colour
from mapeditor.designer_icons import icon
from mapeditor.document import MapDocument
from mapeditor.tools.marks import DesignerMarkTool

MAX_VALUE = 9
"""The largest value the bar offers to print on a marked square."""


class MarksBar(QToolBar):
    """Rebuilt whenever the rule set changes: one checkable action per mark (choosing it picks
    the Designer mark tool with that mark), then the colour and value printed with it."""

    def __init__(
        self, tool: DesignerMarkTool, use_tool: Callable[[], None], parent: QWidget | None = None
    ) -> None:
        super().__init__("Designer marks", parent)
        self.setObjectName("toolbar-marks")
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)  # the names show
        self.tool = tool
        self.use_tool = use_tool
        self.group = QActionGroup(self)
        self.mark_actions: dict[str, QAction] = {}
        self.colour = QComboBox()
        self.colour.setObjectName("marks_colour")
        self.colour.setToolTip("The chip colour each square printed carries")
        self.colour.addItem("mark's colour", None)
        for c in Colour:
            self.colour.addItem(c.value.replace("_", " "), c)
        self.colour.activated.connect(lambda i: setattr(tool, "colour", self.colour.itemData(i)))
        self.value = QSpinBox()
        self.value.setObjectName("marks_value")
        self.value.setToolTip("The value each square printed carries")
        self.value.setRange(0, MAX_VALUE)
        self.value.setSpecialValueText("no value")
        self.value.valueChanged.connect(lambda v: setattr(tool, "value", v or None))
        # Made once: clear() would delete the widgets with their actions.
        self.note = self.addWidget(QLabel("No designer marks: a rule set declares them"))
        self.separator = self.addSeparator()
        self.options = [self.addWidget(self.colour), self.addWidget(self.value)]
        self.rebuild()

    def set_document(self, document: MapDocument) -> None:
        document.ruleSetChanged.connect(self.rebuild)
        self.rebuild()

    def rebuild(self) -> None:
        """The rule set's marks as tools (none: the bar says where marks come from)."""
        for action in self.group.actions():
            self.group.removeAction(action)
            self.removeAction(action)
            action.deleteLater()
        self.mark_actions = {}
        spec = self.tool.document.map.rule_set.spec
        kinds = spec.marks if spec is not None else ()
        self.note.setVisible(not kinds)
        for fixed in (self.separator, *self.options):
            fixed.setVisible(bool(kinds))
        for kind in kinds:
            action = QAction(icon(kind.icon, kind.colour), kind.name, self)
            action.setCheckable(True)
            action.setToolTip(f"Print {kind.name} ({kind.id}) on squares: click or drag")
            action.triggered.connect(lambda _c=False, mid=kind.id: self.choose(mid))
            self.group.addAction(action)
            self.insertAction(self.separator, action)
            self.mark_actions[kind.id] = action
        if self.tool.mark in self.mark_actions:
            self.mark_actions[self.tool.mark].setChecked(True)

    def choose(self, mark: str) -> None:
        """Print ``mark`` from now on (the Designer mark tool becomes the tool)."""
        self.tool.mark = mark
        self.mark_actions[mark].setChecked(True)
        self.use_tool()
