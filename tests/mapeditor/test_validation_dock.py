"""The validation dock follows the open map: no stale markers, map-level issues select the map."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from engine.mapdef import MapDef, StartSquare
from mapeditor.document import MapDocument


def _lonely_start() -> MapDef:
    m = MapDef("t", "T", 8, 6)
    m.land = {(x, y) for x in range(8) for y in range(6)}
    m.start_squares[(6, 4)] = StartSquare("Lonely")  # one start square: an error naming it
    return m


def test_markers_of_the_previous_map_go_when_another_opens(make_editor, qtbot) -> None:
    window = make_editor(_lonely_start())
    with qtbot.waitSignal(window.validation.validated, timeout=10000):
        window.validation.run_now()
    assert (6, 4) in window.scene.marker_errors
    fine = MapDef("u", "U", 8, 6)
    fine.land = {(x, y) for x in range(8) for y in range(6)}
    window.set_document(MapDocument(fine))
    assert not window.scene.marker_errors and not window.scene.marker_warnings
    assert window.validation.model.rowCount() == 0


def test_clicking_a_map_level_issue_shows_the_map_properties(make_editor, qtbot) -> None:
    m = _lonely_start()
    m.setup.tile_pool_max = 400  # far more tiles than squares: an issue about the whole map
    window = make_editor(m)
    with qtbot.waitSignal(window.validation.validated, timeout=10000):
        window.validation.run_now()
    model = window.validation.model
    row = next(i for i, issue in enumerate(model.issues) if issue.code == "tile-pool-too-large")
    window.document.select([(1, 1)])
    rect = window.validation.view.visualRect(model.index(row))
    window.validation.view.scrollTo(model.index(row))
    rect = window.validation.view.visualRect(model.index(row))
    QTest.mouseClick(
        window.validation.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
    )
    assert window.document.selection == set()
    assert window.docks["Properties"].isVisible()
    field = window.properties.map_fields["Tile pool max"]
    qtbot.waitUntil(field.hasFocus)


def test_validation_click_selects_and_centres_the_square(make_editor, qtbot) -> None:
    m = _lonely_start()
    window = make_editor(m)
    with qtbot.waitSignal(window.validation.validated, timeout=10000):
        window.validation.run_now()
    model = window.validation.model
    rows = [i for i, issue in enumerate(model.issues) if (6, 4) in issue.where.squares]
    assert rows, [f"{i.code} {i.where}" for i in model.issues]
    window.view.zoom(4.0)  # zoomed in, so the view can scroll to centre the square
    window.view.centerOn(0, 0)
    index = model.index(rows[0])
    rect = window.validation.view.visualRect(index)
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.mouseClick(
        window.validation.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
    )
    assert (6, 4) in window.document.selection
    centre = window.view.mapToScene(window.view.viewport().rect().center())
    assert abs(centre.x() - 6.5 * 64) < 32 and abs(centre.y() - 4.5 * 64) < 32
