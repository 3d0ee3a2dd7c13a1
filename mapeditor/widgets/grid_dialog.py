"""Map ▸ Grid ▸ Resize… and Shift…: the new size (or shift), the part of the grid that stays put
chosen on a 3 × 3 grid of buttons, and a live minimap of what moves and what falls off (as
Tiled's resize dialog shows).

The minimap draws the old grid (dashed) where it lands on the new one (solid), the map squares,
towns, start squares and large cities; what would fall off is drawn red and counted below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from engine.geometry import Square
from engine.gridshape import ANCHORS, MAX_GRID, Reshape, reshape_losses, resize_arguments
from engine.mapdef import MapDef
from mapeditor.dialog_buttons import ok_cancel

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow

__all__ = ["AnchorGrid", "GridDialog", "ReshapePreview", "lost_counts"]

_ANCHOR_NAMES = {
    "nw": "north-west corner",
    "n": "north edge's middle",
    "ne": "north-east corner",
    "w": "west edge's middle",
    "c": "middle",
    "e": "east edge's middle",
    "sw": "south-west corner",
    "s": "south edge's middle",
    "se": "south-east corner",
}
_ONE = {
    "map squares": "map square",
    "towns": "town",
    "start squares": "start square",
    "large cities": "large city",
}
_ARROWS = {(-1, -1): "↖", (0, -1): "↑", (1, -1): "↗", (-1, 0): "←", (1, 0): "→"}
_ARROWS |= {(-1, 1): "↙", (0, 1): "↓", (1, 1): "↘"}


def _cell(anchor: str) -> tuple[int, int]:
    """The anchor's column and row on the 3 × 3 grid."""
    i = ANCHORS.index(anchor)
    return i % 3, i // 3


class AnchorGrid(QWidget):
    """Nine buttons, one per anchor: the chosen one shows a dot, the others an arrow pointing
    the way the grid grows from it."""

    changed = Signal(str)

    def __init__(self, anchor: str = "c", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QGridLayout(self)
        layout.setSpacing(2)
        layout.setContentsMargins(0, 0, 0, 0)
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QToolButton] = {}
        for i, name in enumerate(ANCHORS):
            button = QToolButton()
            button.setCheckable(True)
            button.setFixedSize(QSize(30, 30))
            button.setObjectName(f"anchor_{name}")
            button.setToolTip(f"Keep the {_ANCHOR_NAMES[name]} of the grid in place")
            button.setAccessibleName(f"Anchor {_ANCHOR_NAMES[name]}")
            self.group.addButton(button, i)
            layout.addWidget(button, i // 3, i % 3)
            self.buttons[name] = button
        self.group.idClicked.connect(lambda i: self.set_anchor(ANCHORS[i]))
        self.set_anchor(anchor)

    def anchor(self) -> str:
        return next(name for name, b in self.buttons.items() if b.isChecked())

    def set_anchor(self, anchor: str) -> None:
        ax, ay = _cell(anchor)
        for name, button in self.buttons.items():
            x, y = _cell(name)
            step = (x - ax, y - ay)
            near = max(abs(step[0]), abs(step[1])) == 1
            button.setText("●" if name == anchor else _ARROWS.get(step, "") if near else "")
            button.setChecked(name == anchor)
        self.changed.emit(anchor)


def lost_counts(m: MapDef, args: Reshape) -> dict[str, int]:
    """How many map squares, towns, start squares and large cities ``args`` drops."""
    width, height, dx, dy = args

    def gone(sq: Square) -> bool:
        x, y = sq[0] + dx, sq[1] + dy
        return not (0 <= x < width and 0 <= y < height)

    return {
        "map squares": sum(1 for sq in m.land if gone(sq)),
        "towns": sum(1 for sq in m.towns if gone(sq)),
        "start squares": sum(1 for sq in m.start_squares if gone(sq)),
        "large cities": sum(1 for c in m.large_cities.values() if any(map(gone, c.squares))),
    }


class ReshapePreview(QWidget):
    """The minimap: the old grid where it lands on the new one, and what falls off in red."""

    LAND = QColor("#b9d58c")
    LOST = QColor("#d62828")
    TOWN = QColor("#f4a261")
    START = QColor("#1d3557")
    CITY = QColor("#8a5a2b")

    def __init__(self, m: MapDef, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.map = m
        self.args: Reshape = (m.width, m.height, 0, 0)
        self.setMinimumSize(260, 200)

    def set_args(self, args: Reshape) -> None:
        self.args = args
        self.update()

    def lost_squares(self) -> set[Square]:
        """The map's squares (land and elements) that fall off, in old coordinates."""
        width, height, dx, dy = self.args
        squares = set(self.map.land) | set(self.map.towns) | set(self.map.start_squares)
        return {sq for sq in squares if not (0 <= sq[0] + dx < width and 0 <= sq[1] + dy < height)}

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        m = self.map
        width, height, dx, dy = self.args
        # Both grids in new coordinates: the old one spans dx..dx+w, dy..dy+h.
        x0, y0 = min(0, dx), min(0, dy)
        x1, y1 = max(width, dx + m.width), max(height, dy + m.height)
        margin = 8.0
        scale = min(
            (self.width() - 2 * margin) / max(1, x1 - x0),
            (self.height() - 2 * margin) / max(1, y1 - y0),
        )
        ox = margin + (self.width() - 2 * margin - (x1 - x0) * scale) / 2 - x0 * scale
        oy = margin + (self.height() - 2 * margin - (y1 - y0) * scale) / 2 - y0 * scale

        def rect(x: float, y: float, w: float = 1.0, h: float = 1.0) -> QRectF:
            return QRectF(ox + x * scale, oy + y * scale, w * scale, h * scale)

        lost = self.lost_squares()
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("#eef3f7"))
        p.fillRect(rect(0, 0, width, height), QColor("#a9cde0"))  # the new grid
        for sq in m.land:
            p.fillRect(rect(sq[0] + dx, sq[1] + dy), self.LOST if sq in lost else self.LAND)
        p.setPen(Qt.PenStyle.NoPen)
        for squares, colour, size in (
            (m.towns, self.TOWN, 0.3),
            (m.start_squares, self.START, 0.36),
            ({sq for c in m.large_cities.values() for sq in c.squares}, self.CITY, 0.42),
        ):
            for sq in squares:
                p.setBrush(self.LOST.darker(140) if sq in lost else colour)
                centre = QPointF(ox + (sq[0] + dx + 0.5) * scale, oy + (sq[1] + dy + 0.5) * scale)
                p.drawEllipse(centre, max(1.5, size * scale), max(1.5, size * scale))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor("#333333"), 1.5, Qt.PenStyle.DashLine))
        p.drawRect(rect(dx, dy, m.width, m.height))  # where the old grid goes
        p.setPen(QPen(QColor("#000000"), 2))
        p.drawRect(rect(0, 0, width, height))
        p.end()


class GridDialog(QDialog):
    """Width, height and anchor (resize) or a shift in squares (shift), with a live preview."""

    def __init__(self, window: MainWindow, *, shift: bool) -> None:
        super().__init__(window)
        m = window.document.map
        self.map = m
        self.shift = shift
        self.setWindowTitle("Shift grid" if shift else "Resize grid")
        form = QFormLayout()
        self.a, self.b = QSpinBox(), QSpinBox()
        self.anchors = AnchorGrid("c")
        if shift:
            self.a.setRange(-MAX_GRID, MAX_GRID)
            self.b.setRange(-MAX_GRID, MAX_GRID)
            form.addRow("East (squares)", self.a)
            form.addRow("South (squares)", self.b)
            self.anchors.hide()
        else:
            self.a.setRange(1, MAX_GRID)
            self.b.setRange(1, MAX_GRID)
            self.a.setValue(m.width)
            self.b.setValue(m.height)
            form.addRow("Width", self.a)
            form.addRow("Height", self.b)
            form.addRow("Keep in place", self.anchors)
        self.preview = ReshapePreview(m)
        self.losses = QLabel()
        self.losses.setWordWrap(True)
        self.losses.setObjectName("grid_losses")
        side = QVBoxLayout()
        side.addLayout(form)
        side.addStretch(1)
        body = QHBoxLayout()
        body.addLayout(side)
        body.addWidget(self.preview, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(self.losses)
        buttons, _ = ok_cancel(self)
        layout.addWidget(buttons)
        self.a.valueChanged.connect(self._update)
        self.b.valueChanged.connect(self._update)
        self.anchors.changed.connect(self._update)
        self._update()

    def arguments(self, window: MainWindow | None = None) -> Reshape:
        m = self.map
        if self.shift:
            return m.width, m.height, self.a.value(), self.b.value()
        return resize_arguments(m, self.a.value(), self.b.value(), self.anchors.anchor())

    def _update(self, *_args: object) -> None:
        args = self.arguments()
        self.preview.set_args(args)
        counts = {k: n for k, n in lost_counts(self.map, args).items() if n}
        lines = reshape_losses(self.map, *args)
        if not lines:
            self.losses.setText("Nothing falls off the grid.")
            self.losses.setStyleSheet("")
        else:
            named = ", ".join(f"{n} {k if n != 1 else _ONE[k]}" for k, n in counts.items())
            # reshape_losses says all lost squares in one line, every other element in one each
            counted = sum(counts.values()) - counts.get("map squares", 0)
            others = len(lines) - counted - (1 if counts.get("map squares") else 0)
            more = f" and {others} other element(s)" if others > 0 else ""
            self.losses.setText(
                f"Falls off (red): {named}{more}." if named else f"Falls off: {others} element(s)."
            )
            self.losses.setStyleSheet("color: #b00020;")
        self.losses.setToolTip("\n".join(lines))
