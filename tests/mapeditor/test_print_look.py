"""The printed board: neighbouring land and sea, names that fit, cartouche, legend, scale, overview."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QImage

from engine.geo.backdrop import backdrop_of, cloud_squares
from engine.geo.country import import_country
from engine.geo.countrynames import LANGUAGE_KEY
from engine.geo.places import set_projection
from engine.geometry import Edge, Side
from engine.mapdef import BorderFeature, EdgeKind, Ferry, MapDef, Town
from mapeditor.cartography import legend_entries, place_furniture
from mapeditor.export import export_png, layout_for, overview_frame, render_page
from mapeditor.painting import MIN_TEXT, SQUARE, _font, fitted_size
from mapeditor.print_painting import NEIGHBOUR_LAND, SEA, nice_length, print_look
from mapeditor.ruleset_data import data_state, preset_content


def _landlocked() -> MapDef:
    """A 7 × 6 grid, land in the middle 3 × 2, every outside edge a land border."""
    m = MapDef("ll", "Landlocked", 7, 6)
    m.land = {(x, y) for x in (2, 3, 4) for y in (2, 3)}
    m.land_borders = {
        Edge(x, y, side)
        for x, y in m.land
        for side in Side
        if Edge(x, y, side).outer_square not in m.land
    }
    return m


def _island() -> MapDef:
    m = MapDef("is", "Island", 7, 6)
    m.land = {(x, y) for x in (2, 3, 4) for y in (2, 3)}
    return m


def _near(image: QImage, x: float, y: float, colour: QColor, tol: int = 8) -> bool:
    c = image.pixelColor(round(x), round(y))
    return all(abs(a - b) <= tol for a, b in zip(c.getRgb()[:3], colour.getRgb()[:3], strict=True))


# -- the backdrop: land where there is land ------------------------------------------------------


def test_a_landlocked_map_is_surrounded_by_land_not_sea() -> None:
    m = _landlocked()
    b = backdrop_of(m)
    outside = {(x, y) for x in range(7) for y in range(6)} - m.land
    assert b.source == "squares"
    assert set(b.neighbour_squares) == outside
    assert b.land.area == pytest.approx(7 * 6, abs=0.01)


def test_an_island_is_surrounded_by_sea() -> None:
    b = backdrop_of(_island())
    assert b.neighbour_squares == frozenset()
    assert b.land.area == pytest.approx(6)


def test_only_the_side_with_a_land_border_gets_land() -> None:
    m = _island()
    m.land_borders = {Edge(4, y, Side.E) for y in (2, 3)}  # the east coast borders a neighbour
    b = backdrop_of(m)
    assert (6, 2) in b.neighbour_squares and (5, 3) in b.neighbour_squares
    assert (0, 2) not in b.neighbour_squares and (3, 0) not in b.neighbour_squares


def test_neighbour_names_go_beyond_the_border_never_on_the_map() -> None:
    m = _island()
    m.land_borders = {Edge(4, y, Side.E) for y in (2, 3)}
    m.border_features[Edge(4, 2, Side.E)] = BorderFeature(EdgeKind.ROAD, 1, "Nachbarland")
    (label,) = backdrop_of(m).labels
    assert label.name == "Nachbarland"
    square = (int(label.x), int(label.y))
    assert square not in m.land and square not in cloud_squares(m)
    assert label.x > 5  # east of the land, beyond the clouds


def test_a_map_from_a_country_prints_the_real_neighbours_and_coast() -> None:
    imp = import_country("Czechia", columns=20, cities=0, crop=2)
    m = imp.map
    m.land_borders = set(imp.land_borders)
    set_projection(m, imp.projection)
    b = backdrop_of(m)
    assert b.source == "geography"
    names = {lab.name for lab in b.labels}
    assert {"Germany", "Poland", "Austria"} <= names
    m.editor[LANGUAGE_KEY] = imp.language  # as the import leaves it: named in Czech
    assert {"Německo", "Polsko", "Rakousko"} <= {lab.name for lab in backdrop_of(m).labels}
    del m.editor[LANGUAGE_KEY]
    assert all((int(lab.x), int(lab.y)) not in m.land for lab in b.labels)
    # Landlocked: no water anywhere on the grid.
    assert b.land.area == pytest.approx(m.width * m.height, rel=0.01)
    assert b.neighbour_squares


def test_a_coastal_country_keeps_its_sea() -> None:
    imp = import_country("Denmark", columns=16, cities=0, crop=1)
    m = imp.map
    set_projection(m, imp.projection)
    b = backdrop_of(m)
    assert b.source == "geography"
    assert b.land.area < 0.8 * m.width * m.height  # the North Sea and the Baltic
    assert b.coast.length > m.width  # the coastline, drawn under the grid


# -- names that fit ------------------------------------------------------------------------------


def test_a_long_town_name_fits_its_square_whole(qapp) -> None:
    name = "České Budějovice"
    rect = QRectF(0, 0, SQUARE - 4, 22)  # a town's name box
    size = fitted_size(name, rect.width(), rect.height(), 10)
    assert MIN_TEXT < size <= 10
    flags = int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap)
    box = QFontMetricsF(_font(size)).boundingRect(rect, flags, name)
    assert box.width() <= rect.width() + 0.01 and box.height() <= rect.height() + 0.01
    # Nothing is shrunk that already fits.
    assert fitted_size("Most", rect.width(), rect.height(), 10) == 10


# -- legend and furniture ------------------------------------------------------------------------


def test_the_legend_lists_every_print_used_and_the_rule_sets_own() -> None:
    m = _landlocked()
    m.towns[(2, 2)] = Town("Ashby")
    keys = [e.key for e in legend_entries(m)]
    assert keys == ["town", "clouds"]
    state = data_state(preset_content("great_britain"))
    m.rule_set = state
    entries = legend_entries(m)
    wanted = [e for e in entries if "rule set" in e.text]
    assert {e.key for e in wanted} >= {"chip_square", "isle_of_man"}


def test_furniture_sits_on_free_outside_squares_sea_first() -> None:
    m = MapDef("f", "F", 12, 8)
    m.land = {(x, y) for x in range(6, 12) for y in range(8)}
    m.land_borders = {Edge(11, y, Side.E) for y in range(8)}  # on the grid's edge: no clouds
    m.border_features[Edge(6, 0, Side.W)] = BorderFeature(EdgeKind.ROAD, 1, "")
    look = place_furniture(m, backdrop_of(m), legend_rows=5)
    assert [p.kind for p in look] == ["cartouche", "legend", "scale"]
    used = [(p.x + i, p.y + j) for p in look for i in range(p.w) for j in range(p.h)]
    assert len(used) == len(set(used))  # no two pieces overlap
    assert not set(used) & m.land
    assert (5, 0) not in used  # beyond the border road


def test_a_map_without_outside_squares_has_no_furniture() -> None:
    m = MapDef("full", "Full", 4, 4)
    m.land = {(x, y) for x in range(4) for y in range(4)}
    assert place_furniture(m, backdrop_of(m), 3) == []


def test_scale_bar_lengths_are_round() -> None:
    assert nice_length(25.0, 1.5) == 20.0
    assert nice_length(7.3, 2.0) == 10.0
    assert nice_length(120.0, 1.0) == 100.0


# -- on paper --------------------------------------------------------------------------------------


def test_the_png_of_a_landlocked_map_shows_neighbour_land_and_no_sea(qapp, tmp_path: Path) -> None:
    m = _landlocked()
    out = tmp_path / "ll.png"
    export_png(m, out, px_per_square=40)
    image = QImage(str(out))
    look = print_look(m)
    furniture = {(p.x + i, p.y + j) for p in look.furniture for i in range(p.w) for j in range(p.h)}
    free = [(x, y) for x in range(7) for y in range(6) if (x, y) not in furniture]
    corner = next(sq for sq in free if sq not in m.land and sq not in cloud_squares(m))
    assert _near(image, corner[0] * 40 + 4, corner[1] * 40 + 4, NEIGHBOUR_LAND)
    sea = sum(_near(image, x, y, SEA, tol=3) for x in range(0, 280, 7) for y in range(0, 240, 7))
    assert sea == 0


def test_a_border_road_is_a_road_not_a_white_bar(qapp, tmp_path: Path) -> None:
    m = _landlocked()
    m.border_features[Edge(4, 2, Side.E)] = BorderFeature(EdgeKind.ROAD, 0, "")
    out = tmp_path / "road.png"
    export_png(m, out, px_per_square=64)
    image = QImage(str(out))
    # Across the edge, on the road's axis: the sand of a road, not white.
    c = image.pixelColor(5 * 64 + 4, round(2.5 * 64))
    assert c.red() > c.blue() + 30 and c.lightness() < 235


def test_a_ferry_carries_a_boat(qapp, tmp_path: Path) -> None:
    m = _island()
    m.land |= {(5, 5), (6, 5)}
    m.ferries["f1"] = Ferry("f1", Edge(4, 3, Side.S), Edge(5, 5, Side.N))
    plain = tmp_path / "plain.png"
    export_png(_without_ferries(m), plain, px_per_square=64)
    boat = tmp_path / "boat.png"
    export_png(m, boat, px_per_square=64)
    a, b = QImage(str(plain)), QImage(str(boat))
    # The hull's brown a third of the way along the route.
    hull = QColor("#7a4a26")
    near = [
        _near(b, x, y, hull, tol=20) and not _near(a, x, y, hull, tol=20)
        for x in range(4 * 64 - 20, 5 * 64 + 20)
        for y in range(4 * 64 - 30, 4 * 64 + 30)
    ]
    assert any(near)


def _without_ferries(m: MapDef) -> MapDef:
    import copy

    out = copy.deepcopy(m)
    out.ferries.clear()
    return out


def test_overview_page_names_pages_outside_the_board() -> None:
    m = MapDef("o", "O", 16, 21)
    m.land = {(x, y) for x in range(16) for y in range(21)}
    lay = layout_for(m, paper="A4")
    board, headers = overview_frame(lay)
    assert sorted(t for _, t in headers) == sorted(
        [str(c + 1) for c in range(lay.cols)] + [chr(ord("A") + r) for r in range(lay.rows)]
    )
    for rect, _ in headers:
        overlap_w = min(rect.right, board.right) - max(rect.x, board.x)
        overlap_h = min(rect.bottom, board.bottom) - max(rect.y, board.y)
        assert overlap_w <= 0 or overlap_h <= 0  # a header never covers the map
        assert rect.x >= 0 and rect.y >= 0 and rect.right <= lay.page_w_mm


def test_the_overview_page_shows_the_landlocked_map_without_sea(qapp) -> None:
    m = _landlocked()
    lay = layout_for(m, paper="A4")
    dpi = 40
    image = render_page(m, lay, 0, dpi=dpi)
    board, _ = overview_frame(lay)
    k = dpi / 25.4
    xs = range(round(board.x * k) + 2, round(board.right * k) - 2, 3)
    ys = range(round(board.y * k) + 2, round(board.bottom * k) - 2, 3)
    assert sum(_near(image, x, y, NEIGHBOUR_LAND, tol=3) for x in xs for y in ys) > 20
    assert sum(_near(image, x, y, SEA, tol=3) for x in xs for y in ys) == 0


def test_the_canvas_shows_the_print_look_on_request(make_editor, qtbot) -> None:
    from PySide6.QtGui import QPainter

    from mapeditor.commands import change_attribute

    m = _landlocked()
    window = make_editor(m)
    window.print_look_action.trigger()
    scene = window.scene
    assert scene.print_look is not None

    def pixel(square: tuple[int, int]) -> QColor:
        image = QImage(7 * 16, 6 * 16, QImage.Format.Format_RGB32)
        painter = QPainter(image)
        scene.render(painter, QRectF(0, 0, 7 * 16, 6 * 16), QRectF(0, 0, 7 * SQUARE, 6 * SQUARE))
        painter.end()
        return image.pixelColor(square[0] * 16 + 3, square[1] * 16 + 3)

    furniture = {
        (p.x + i, p.y + j)
        for p in scene.print_look.furniture
        for i in range(p.w)
        for j in range(p.h)
    }
    free = next(
        (x, y)
        for x in range(7)
        for y in range(6)
        if (x, y) not in furniture | m.land | cloud_squares(m)
    )
    assert _near_colour(pixel(free), NEIGHBOUR_LAND)
    before = scene.print_look
    change_attribute(window.document, "name", "Renamed")
    qtbot.waitUntil(lambda: scene.print_look is not before)  # worked out again after the edit
    window.print_look_action.trigger()
    assert scene.print_look is None
    assert not _near_colour(pixel(free), NEIGHBOUR_LAND)  # the editor's schematic again


def _near_colour(c: QColor, colour: QColor, tol: int = 8) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c.getRgb()[:3], colour.getRgb()[:3], strict=True))
