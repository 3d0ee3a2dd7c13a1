"""Map ▸ Grid and Map ▸ Country menus: crop, resize, shift, suggested ferries, land borders and
real places, each asking first where something would be lost (see
:mod:`mapeditor.country_actions` for the undoable commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import EngineError
from engine.geometry import Square
from engine.gridshape import Reshape
from engine.islands import land_parts
from engine.mapdef import EdgeKind, Ferry, MapDef
from mapeditor import country_actions as actions
from mapeditor.dialog_buttons import ok_cancel
from mapeditor.widgets.grid_dialog import GridDialog

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def confirm_losses(parent: QWidget | None, title: str, losses: list[str]) -> bool:
    """Ask before dropping ``losses`` (True at once when there are none)."""
    if not losses:
        return True
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    shown = "\n".join(f"• {line}" for line in losses[:12])
    more = f"\n… and {len(losses) - 12} more" if len(losses) > 12 else ""
    box.setText(f"{len(losses)} element(s) will fall off the grid:\n\n{shown}{more}")
    box.setDetailedText("\n".join(losses))
    box.setStandardButtons(QMessageBox.StandardButton.Ok | QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Ok).setText("Drop them")
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    return box.exec() == QMessageBox.StandardButton.Ok


class FerriesDialog(QDialog):
    """The suggested ferries, each with a check box: accept one by one or all together."""

    def __init__(
        self, ferries: list[Ferry], parent: QWidget | None = None, m: MapDef | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Suggested ferries")
        self.ferries = ferries
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel("Each joins land no tile could reach, over the shortest sea crossing:")
        )
        self.list = QListWidget()
        for f in ferries:
            a, b = ferry_ends(m, f) if m is not None else ("", "")
            item = QListWidgetItem(f"{a}{f.a}  →  {b}{f.b}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked)
            self.list.addItem(item)
        layout.addWidget(self.list)
        buttons, _ = ok_cancel(self, "Add checked ferries")
        layout.addWidget(buttons)

    def chosen(self) -> list[Ferry]:
        return [
            f
            for i, f in enumerate(self.ferries)
            if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]


def ferry_ends(m: MapDef, ferry: Ferry) -> tuple[str, str]:
    """Labels for a ferry's two ends, each + " ": the nearest town, start square or large city
    within two squares *on that end's land* ("Kalmar", "Borgholm"); an end with none near is
    named by its land ("island of 3 squares"). Never the same place at both ends (a ferry from
    Kalmar to the island off Kalmar is not "Kalmar → Kalmar")."""
    parts = land_parts(m)
    part_of = {sq: i for i, part in enumerate(parts) for sq in part}
    named = [(sq, t.name) for sq, t in m.towns.items()]
    named += [(sq, s.name) for sq, s in m.start_squares.items()]
    named += [(sq, c.name) for c in m.large_cities.values() for sq in c.squares]

    def label(square: Square) -> str:
        part = part_of.get(square)
        close = [
            (abs(sq[0] - square[0]) + abs(sq[1] - square[1]), name)
            for sq, name in named
            if abs(sq[0] - square[0]) <= 2
            and abs(sq[1] - square[1]) <= 2
            and part_of.get(sq) == part
            and name
        ]
        if close:
            return min(close)[1]
        if part is not None and part > 0:  # not the main land
            size = len(parts[part])
            return f"island of {size} square{'s' if size != 1 else ''}"
        return ""

    a, b = label(ferry.a.square), label(ferry.b.square)
    if a == b:
        b = ""
    return (f"{a} " if a else "", f"{b} " if b else "")


def _reshape(window: MainWindow, args: Reshape, text: str) -> bool:
    if not confirm_losses(window, text, actions.grid_losses(window.document, args)):
        return False
    return actions.reshape_document(window.document, args, text)


def crop_to_content(window: MainWindow) -> bool:
    try:
        args = actions.crop_arguments(window.document)
    except EngineError as exc:
        QMessageBox.information(window, "Crop to content", str(exc))
        return False
    return _reshape(window, args, "Crop to content")


def grid_dialog(window: MainWindow, *, shift: bool) -> bool:
    dialog = GridDialog(window, shift=shift)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return False
    return _reshape(window, dialog.arguments(), "Shift grid" if shift else "Resize grid")


def ferries_dialog(window: MainWindow) -> int:
    ferries = actions.suggested_ferries(window.document)
    if not ferries:
        QMessageBox.information(
            window, "Suggested ferries", "Every placeable square can be reached already."
        )
        return 0
    dialog = FerriesDialog(ferries, window, window.document.map)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return 0
    return actions.accept_ferries(window.document, dialog.chosen())


def _parse_place(text: str) -> str | tuple[float, float]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 2:
        try:
            return float(parts[0]), float(parts[1])
        except ValueError:
            pass
    return text.strip()


def place_dialog(window: MainWindow, what: str) -> bool:
    label = "Place name (e.g. Lugano) or longitude, latitude (e.g. 9.03, 45.84):"
    text, ok = QInputDialog.getText(window, f"{what} at place", label)
    if not ok or not text.strip():
        return False
    try:
        if what == "Town":
            actions.place_town(window.document, _parse_place(text))
        else:
            kind = EdgeKind.CITY if what == "Border city" else EdgeKind.ROAD
            actions.place_border_feature(window.document, _parse_place(text), kind)
    except EngineError as exc:
        QMessageBox.warning(window, f"{what} at place", str(exc))
        return False
    return True


def install_country_menu(window: MainWindow) -> None:
    """Add Map ▸ Grid (crop, resize, shift) and Map ▸ Country (ferries, land borders, places)."""
    map_menu = window.menus["Map"]
    assert isinstance(map_menu, QMenu)
    grid = map_menu.addMenu("&Grid")
    grid.addAction("&Crop to Content", lambda: crop_to_content(window))
    grid.addAction("&Resize…", lambda: grid_dialog(window, shift=False))
    grid.addAction("&Shift…", lambda: grid_dialog(window, shift=True))
    country = map_menu.addMenu("&Country")
    country.addAction("Suggest &Ferries…", lambda: ferries_dialog(window))
    country.addAction(
        "Mark &Land Borders from Neighbour Names",
        lambda: actions.mark_land_borders(window.document),
    )
    country.addSeparator()
    country.addAction("Border &Road at Place…", lambda: place_dialog(window, "Border road"))
    country.addAction("Border &City at Place…", lambda: place_dialog(window, "Border city"))
    country.addAction("&Town at Place (snapped to land)…", lambda: place_dialog(window, "Town"))
    window.menus["Grid"] = grid
    window.menus["Country"] = country
