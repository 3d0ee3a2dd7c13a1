"""File ▸ New map from country… in the editor, and the neighbour names it leaves beside the border."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtGui import QColor, QImage

from engine.mapdef import MapDef
from mapeditor.painting import SQUARE
from mapeditor.widgets.country_import import open_imported
from mapeditor.widgets.new_from_country import NewFromCountryDialog


def small_map() -> MapDef:
    m = MapDef("t", "T", 6, 4)
    m.land = {(x, y) for x in range(6) for y in range(4)}
    return m


def test_new_map_from_a_geojson_outline(make_editor, qtbot, tmp_path: Path) -> None:
    # A 4°×2° rectangle near the equator: with 8 columns, every square is land.
    outline = {
        "type": "Feature",
        "properties": {"name": "Rectland"},
        "geometry": {
            "type": "Polygon",
            "coordinates": [[[10, 0], [14, 0], [14, 2], [10, 2], [10, 0]]],
        },
    }
    geojson = tmp_path / "rectland.geojson"
    geojson.write_text(json.dumps(outline), encoding="utf-8")
    window = make_editor(small_map())
    dialog = NewFromCountryDialog(window)
    qtbot.addWidget(dialog)
    dialog.source = geojson
    dialog.country.setEditText(str(geojson))
    dialog.by_columns.setChecked(True)
    dialog.columns.setValue(8)
    with qtbot.waitSignal(dialog._signals.done, timeout=30000):
        dialog.run_preview()
    assert dialog.result_ is not None, dialog.preview.text()
    m = dialog.build_map()
    # Cropped to the land with one square of margin: 8 x 4 squares of land on a 10 x 6 grid.
    assert m.width == 10 and len(m.land) == (m.width - 2) * (m.height - 2)
    document = open_imported(window, m)
    assert window.document is document and document.modified
    assert window.document.map.land == m.land


def test_imported_neighbour_names_are_shown_beside_the_border(make_editor, tmp_path: Path) -> None:
    from engine.geo.neighbours import NEIGHBOURS_KEY, neighbours_to_editor
    from engine.geometry import Edge, Side

    window = make_editor(small_map())
    m = MapDef("n", "N", 5, 3)
    m.land = {(x, y) for x in range(1, 4) for y in range(3)}
    m.editor[NEIGHBOURS_KEY] = neighbours_to_editor(
        {Edge(3, y, Side.E): "Eastland" for y in range(3)} | {Edge(1, 0, Side.W): "Westland"}
    )
    open_imported(window, m)  # a new document: the extras follow it
    item = window.neighbour_names
    assert sorted(name for _, name in item._labels) == ["Eastland", "Westland"]
    assert len(item._edges) == 4
    east = next(p for p, name in item._labels if name == "Eastland")
    assert east.x() > 4 * SQUARE and abs(east.y() - 1.5 * SQUARE) < 1e-6  # beside the run
    # Painting land over an edge removes its name there (it no longer faces the outside).
    from mapeditor.commands import change_entries

    change_entries(window.document, "land", {(4, y): True for y in range(3)}, "Paint")
    assert [name for _, name in item._labels] == ["Westland"]
    # The underlay dock follows the new document too.
    image = QImage(100, 60, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    image.save(str(tmp_path / "s.png"))
    window.underlay.load(tmp_path / "s.png")
    assert window.underlay.item.isVisible()
    window.undo_action.trigger()
    assert not window.underlay.item.isVisible()
