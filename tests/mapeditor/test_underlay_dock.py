"""The Underlay dock: load a scan, align it with two clicks, undo."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage

from engine.mapdef import MapDef
from mapeditor.painting import SQUARE
from mapeditor.underlay import EDITOR_KEY


def small_map() -> MapDef:
    m = MapDef("t", "T", 6, 4)
    m.land = {(x, y) for x in range(6) for y in range(4)}
    return m


def test_underlay_load_align_and_undo(make_editor, tmp_path: Path) -> None:
    window = make_editor(small_map())
    image = QImage(600, 400, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    path = tmp_path / "scan.png"
    image.save(str(path))
    dock = window.underlay
    dock.load(path)
    saved = window.document.map.editor[EDITOR_KEY]
    assert saved["path"] and saved["visible"] is True
    # The first guess fits the image to the map's width; the clicked pixels (100, 100) and
    # (500, 300) are really the square corners (2, 1) and (6, 3).
    to_scene = dock.item.sceneTransform()
    clicks = [to_scene.map(QPointF(100, 100)), to_scene.map(QPointF(500, 300))]
    dock.align(clicks, [(2.0, 1.0), (6.0, 3.0)])
    assert window.document.undo_stack.count() == 2
    after = dock.item.sceneTransform()
    for pixel, corner in (((100, 100), (2, 1)), ((500, 300), (6, 3))):
        p = after.map(QPointF(*pixel))
        assert abs(p.x() - corner[0] * SQUARE) < 1e-6 and abs(p.y() - corner[1] * SQUARE) < 1e-6
    # Saved as editor settings, round-trips through the file, and is undoable.
    json.dumps(window.document.map.editor)
    window.undo_action.trigger()
    assert window.document.map.editor[EDITOR_KEY]["transform"] == saved["transform"]
    window.undo_action.trigger()
    assert EDITOR_KEY not in window.document.map.editor
    assert not dock.item.isVisible()
