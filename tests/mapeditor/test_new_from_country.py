"""The "New map from country…" dialog: raster from a GeoJSON outline, city roles, neighbours."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox

from engine.geo.country import CityCandidate, CountryImport, import_country
from engine.geo.draft import default_roles
from engine.geometry import Edge, Side
from mapeditor.widgets.new_from_country import (
    NEIGHBOURS_KEY,
    NewFromCountryDialog,
    neighbour_names,
)


def _l_shape(tmp_path: Path) -> Path:
    """A 2° × 1.9° block near the equator without its north-east quarter (a little under two
    squares tall, so two rows of 1° squares cover it, each square 95 % inside or empty)."""
    ring = [[10, 0], [12, 0], [12, 0.95], [11, 0.95], [11, 1.9], [10, 1.9], [10, 0]]
    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": "Elland"},
                "geometry": {"type": "Polygon", "coordinates": [ring]},
            }
        ],
    }
    path = tmp_path / "elland.geojson"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _dialog(qtbot, live: bool = True) -> NewFromCountryDialog:  # type: ignore[no-untyped-def]
    dialog = NewFromCountryDialog(live=live)
    qtbot.addWidget(dialog)
    return dialog


def test_geojson_outline_previews_live_and_gives_the_expected_land(qtbot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot)
    assert dialog.by_squares.isChecked() and dialog.squares.value() == 184  # tile-pool default
    dialog.by_columns.setChecked(True)
    dialog.columns.setValue(2)
    with qtbot.waitSignal(dialog._signals.done, timeout=30000):
        dialog.set_geojson(_l_shape(tmp_path))  # no button press: the preview follows changes
    assert dialog.result_ is not None, dialog.preview.text()
    m = dialog.build_map()
    # Two columns of 1°: the L covers the west column and the south-east square; the grid is
    # cropped to the land with one square of margin all round.
    assert (m.width, m.height) == (4, 4)
    assert m.land == {(1, 1), (1, 2), (2, 2)}
    assert "3 map squares" in dialog.summary.text() and "1 land part" in dialog.summary.text()
    assert dialog.ok_button.isEnabled()
    assert not dialog.preview.pixmap().isNull()
    # Finer squares follow the outline more closely; the dialog recomputes on its own.
    with qtbot.waitSignal(dialog._signals.done, timeout=30000):
        dialog.columns.setValue(8)
    assert dialog.build_map().land == {(x + 1, y + 1) for x in range(8) for y in range(8)} - {
        (x + 1, y + 1) for x in range(4, 8) for y in range(4)
    }


def test_square_size_in_km_and_minimum_land_share(qtbot, tmp_path: Path) -> None:
    dialog = _dialog(qtbot, live=False)
    dialog.set_geojson(_l_shape(tmp_path))
    dialog.by_km.setChecked(True)
    dialog.km.setValue(55.6)  # about half a degree at the equator
    dialog.min_land.setValue(90)
    assert dialog.import_options() == {
        "km": 55.6,
        "min_land": 0.9,
        "crop": 1,
        "keep_small_parts": True,
    }
    with qtbot.waitSignal(dialog._signals.done, timeout=30000):
        dialog.run_preview()
    expected = import_country(
        _l_shape(tmp_path), km=55.6, min_land=0.9, neighbours=False, crop=1, keep_small_parts=True
    )
    assert dialog.build_map().land == expected.map.land
    dialog.local_names.setChecked(False)
    assert dialog.import_options()["local_names"] is False


def test_city_roles_and_neighbour_names_go_into_the_map(qtbot) -> None:
    land = {(x, y) for x in range(4) for y in range(3)}
    result = import_country_stub(land)
    dialog = _dialog(qtbot, live=False)
    dialog._on_done(dialog._generation, result)
    assert dialog.table.rowCount() == 4
    # Default roles from the engine: the biggest city large, then spread start squares, towns.
    assert [dialog.roles()[i] for i in range(4)] == default_roles(result.map, result.cities)
    dialog.set_role(0, "large city")
    dialog.set_role(1, "start square")
    dialog.set_role(2, "town")
    dialog.set_role(3, "ignore")
    m = dialog.build_map()
    assert list(m.large_cities) == ["bigtown"]
    city = m.large_cities["bigtown"]
    assert city.squares == {(1, 1)} and city.name == "Bigtown"
    # Open on every side facing land: all four, as (1, 1) is inside the 4 × 3 block.
    assert len(city.open_sides()) == 4
    assert m.start_squares[(2, 0)].name == "Middleton"
    assert m.towns[(0, 2)].name == "Smallville"
    assert (3, 2) not in m.towns and (3, 2) not in m.start_squares
    assert neighbour_names(m) == {Edge(3, 0, Side.E): "Eastland", Edge(0, 1, Side.W): "Westland"}
    assert all(isinstance(v, dict) for v in m.editor[NEIGHBOURS_KEY])
    json.dumps(m.editor)  # plain data, saved with the map
    assert m.land_borders == {Edge(3, 0, Side.E)}  # clouds on the land border only
    assert (m.setup.tile_pool_min, m.setup.tile_pool_max) == (10, 20)  # follows the size
    dialog.name_neighbours.setChecked(False)
    assert NEIGHBOURS_KEY not in dialog.build_map().editor
    assert not dialog.build_map().land_borders


def import_country_stub(land: set[tuple[int, int]]) -> CountryImport:
    """A finished import (as the worker returns it) with four cities and two neighbours."""
    from shapely.geometry import box

    from engine.geo.country import rasterise

    raster = rasterise(box(0, 0, 4, 3), columns=4)
    result = import_country(box(0, 0, 4, 3), columns=4, neighbours=False, cities=0)
    result.map.land = set(land)
    result.raster = raster
    result.cities = [
        CityCandidate("Bigtown", 900_000, 0, 0, (1, 1)),
        CityCandidate("Middleton", 300_000, 0, 0, (2, 0)),
        CityCandidate("Smallville", 80_000, 0, 0, (0, 2)),
        CityCandidate("Hamlet", 20_000, 0, 0, (3, 2)),
    ]
    result.neighbours = {Edge(3, 0, Side.E): "Eastland", Edge(0, 1, Side.W): "Westland"}
    result.land_borders = {Edge(3, 0, Side.E)}  # Westland lies across the sea
    return result


def test_a_bad_outline_is_reported_in_the_dialog(qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "line.geojson"
    bad.write_text(
        json.dumps({"type": "LineString", "coordinates": [[0, 0], [1, 1]]}), encoding="utf-8"
    )
    dialog = _dialog(qtbot, live=False)
    dialog.set_geojson(bad)
    with qtbot.waitSignal(dialog._signals.done, timeout=30000):
        dialog.run_preview()
    assert dialog.result_ is None
    assert dialog.preview.text().startswith("Cannot import:")
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()


def test_neighbour_names_skip_unreadable_entries() -> None:
    from engine.mapdef import MapDef

    m = MapDef("t", "T", 2, 2)
    m.editor[NEIGHBOURS_KEY] = [
        {"x": 0, "y": 0, "side": "N", "name": "Northland"},
        {"x": 0, "y": 0, "side": "Q", "name": "Nowhere"},
        "junk",
        {"x": "1", "y": 0, "side": "E", "name": "Text"},
    ]
    assert neighbour_names(m) == {Edge(0, 0, Side.N): "Northland"}
    m.editor[NEIGHBOURS_KEY] = "junk"
    assert neighbour_names(m) == {}


def test_label_runs_split_separate_stretches_of_one_neighbour() -> None:
    from engine.geo.neighbours import label_runs

    names = {Edge(0, y, Side.W): "Westland" for y in (0, 1, 2, 6, 7)}
    names[Edge(5, 0, Side.N)] = "Northland"
    runs = label_runs(names)
    assert [(n, len(r)) for n, r in runs] == [("Westland", 3), ("Westland", 2), ("Northland", 1)]


def test_a_native_name_typed_starts_the_preview_and_is_remembered(qtbot) -> None:
    from PySide6.QtCore import Qt

    dialog = _dialog(qtbot)
    dialog.show()
    line = dialog.country.lineEdit()
    line.selectAll()
    qtbot.keyClick(line, Qt.Key.Key_Delete)
    with qtbot.waitSignal(dialog._signals.done, timeout=60000):
        qtbot.keyClicks(line, "Sverige")  # not in the list of English names; no button press
    assert dialog.result_ is not None and dialog.result_.map.name == "Sverige"
    assert "Norge" in dialog.summary.text()  # the neighbours in the map's language too
    dialog.squares.setValue(150)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == dialog.DialogCode.Accepted
    again = _dialog(qtbot, live=False)  # the next one starts where this one ended
    assert again.country.currentText() == "Sverige" and again.squares.value() == 150
    cancelled = _dialog(qtbot, live=False)
    cancelled.country.setEditText("Polska")
    cancelled.reject()
    assert _dialog(qtbot, live=False).country.currentText() == "Sverige"  # only OK keeps


def test_the_summary_never_overlaps_the_preview(qtbot) -> None:
    dialog = _dialog(qtbot)
    dialog.country.setEditText("Sverige")
    dialog.show()
    with qtbot.waitSignal(dialog._signals.done, timeout=60000):
        dialog.run_preview()
    for size in ((500, 380), (900, 700), (1600, 1100)):
        dialog.resize(*size)
        qtbot.wait(50)
        preview, summary = dialog.preview.geometry(), dialog.summary.geometry()
        assert preview.bottom() < summary.top(), size
        pixmap = dialog.preview.pixmap()
        assert pixmap.width() <= preview.width() and pixmap.height() <= preview.height()
        # the summary has the height its wrapped text needs
        assert summary.height() >= dialog.summary.heightForWidth(summary.width()), size
