"""View ▸ Layers hides what a layer draws; the overview dock shows and moves the main view."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from engine.mapdef import LargeCity, MapDef, Town
from mapeditor.painting import LAYERS
from tests.mapeditor._editor_input import square_point


def a_map() -> MapDef:
    m = MapDef("t", "T", 10, 8)
    m.land = {(x, y) for x in range(10) for y in range(8)}
    m.large_cities["c"] = LargeCity("c", "C", {(2, 2)})
    m.towns[(6, 5)] = Town("Ashby")
    return m


def _pixel(window, square) -> QColor:
    window.scene.update()
    image = window.view.viewport().grab().toImage()
    p = square_point(window, square)
    return image.pixelColor(p + QPoint(0, 10))  # below the centre (clear of the town's house)


def test_every_listed_layer_has_a_toggle(make_editor) -> None:
    window = make_editor(a_map())
    assert set(window.layer_actions) == set(LAYERS) | {"underlay"}
    titles = [a.text() for a in window.layers_menu.actions()]
    assert "Large cities" in titles and "Underlay" in titles


def test_hiding_the_large_cities_layer_changes_the_drawing(make_editor, qtbot) -> None:
    window = make_editor(a_map())
    city, plain = _pixel(window, (2, 2)), _pixel(window, (4, 4))
    assert city != plain
    window.layer_actions["large_cities"].trigger()  # unchecks it
    assert not window.scene.layer_visible("large_cities")
    qtbot.waitUntil(lambda: _pixel(window, (2, 2)) == plain)
    window.layer_actions["land"].trigger()
    qtbot.waitUntil(lambda: _pixel(window, (4, 4)) != plain)  # the sea colour now
    window.layer_actions["land"].trigger()
    window.layer_actions["large_cities"].trigger()
    qtbot.waitUntil(lambda: _pixel(window, (2, 2)) == city)


def test_the_overview_frames_the_view_and_a_click_moves_it(make_editor, qtbot) -> None:
    window = make_editor(a_map())
    overview = window.overview
    assert window.docks["Overview"].isVisible()
    window.view.zoom(4.0)
    frame = overview.shown_rect()
    assert frame.width() < overview.sceneRect().width()
    corner = overview.mapFromScene(overview.sceneRect().bottomRight()) - QPoint(3, 3)
    QTest.mouseClick(overview.viewport(), Qt.MouseButton.LeftButton, pos=corner)
    moved = overview.shown_rect()
    assert moved.center().x() > frame.center().x() and moved.center().y() > frame.center().y()


def test_a_big_map_gets_a_square_per_pixel_overview(make_editor) -> None:
    from mapeditor.widgets.overview_dock import DETAILED_UP_TO

    m = MapDef("big", "Big", 80, 60)
    assert m.width * m.height > DETAILED_UP_TO
    m.land = {(x, y) for x in range(10, 20) for y in range(5, 9)}
    window = make_editor(m)
    image = window.overview.picture.toImage()
    assert (image.width(), image.height()) == (80, 60)
    assert image.pixelColor(12, 6) != image.pixelColor(40, 40)  # land differs from sea
