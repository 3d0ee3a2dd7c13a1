"""Map ▸ Grid ▸ Resize… (defect 7 of issue #27): anchors on a 3 × 3 grid of buttons and a live
minimap of what moves and what falls off, counted."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from engine.mapdef import MapDef, StartSquare, Town
from mapeditor.widgets.grid_dialog import GridDialog, ReshapePreview


def _map() -> MapDef:
    m = MapDef(id="m", name="M", width=10, height=8)
    m.land = {(x, y) for x in range(1, 9) for y in range(1, 7)}
    m.towns[(1, 1)] = Town("Westerby")
    m.towns[(8, 6)] = Town("Eastholm")
    m.start_squares[(2, 3)] = StartSquare("Start")
    return m


def _has_colour(dialog: GridDialog, colour: QColor) -> bool:
    image = dialog.preview.grab().toImage()
    return any(
        image.pixelColor(x, y) == colour
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    )


def test_anchor_buttons_and_the_minimap_show_what_falls_off(make_editor, qtbot) -> None:
    window = make_editor(_map())
    dialog = GridDialog(window, shift=False)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.anchors.anchor() == "c" and dialog.anchors.buttons["c"].text() == "●"
    assert dialog.losses.text() == "Nothing falls off the grid."
    assert not _has_colour(dialog, ReshapePreview.LOST)
    # Narrower by three columns, keeping the east edge: the west columns fall off.
    dialog.a.selectAll()
    qtbot.keyClicks(dialog.a, "7")
    qtbot.mouseClick(dialog.anchors.buttons["e"], Qt.MouseButton.LeftButton)
    assert dialog.anchors.anchor() == "e" and dialog.anchors.buttons["w"].text() == ""
    assert dialog.anchors.buttons["c"].text() == "←"  # the grid grows or shrinks that way
    assert dialog.arguments() == (7, 8, -3, 0)
    assert dialog.preview.lost_squares() == {(x, y) for x in (1, 2) for y in range(1, 7)}
    text = dialog.losses.text()
    assert "12 map squares" in text and "1 town" in text and "1 start square" in text
    assert "Westerby at (1, 1)" in dialog.losses.toolTip()
    assert _has_colour(dialog, ReshapePreview.LOST)
    # Keeping the west edge instead drops the east side: Eastholm, not Westerby.
    qtbot.mouseClick(dialog.anchors.buttons["w"], Qt.MouseButton.LeftButton)
    assert dialog.arguments() == (7, 8, 0, 0)
    assert "Eastholm" in dialog.losses.toolTip() and "Westerby" not in dialog.losses.toolTip()
    assert "start square" not in dialog.losses.text()
    # Bigger in both directions from the south-east corner: everything moves, nothing is lost.
    dialog.a.setValue(12)
    dialog.b.setValue(9)
    qtbot.mouseClick(dialog.anchors.buttons["se"], Qt.MouseButton.LeftButton)
    assert dialog.arguments() == (12, 9, 2, 1)
    assert dialog.losses.text() == "Nothing falls off the grid."


def test_the_shift_dialog_previews_too(make_editor, qtbot) -> None:
    window = make_editor(_map())
    dialog = GridDialog(window, shift=True)
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.anchors.isVisible()
    dialog.a.setValue(2)
    assert dialog.preview.lost_squares() == {(8, y) for y in range(1, 7)} | {(8, 6)}
    assert "1 town" in dialog.losses.text()
