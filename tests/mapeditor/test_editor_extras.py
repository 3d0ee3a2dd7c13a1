"""Export, print, the tracing underlay and "New map from country…" inside the editor."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QImage
from PySide6.QtPrintSupport import QPrinter

from engine.mapdef import MapDef
from mapeditor.painting import SQUARE
from mapeditor.underlay import EDITOR_KEY
from mapeditor.widgets.country_import import open_imported
from mapeditor.widgets.export_dialog import export_to
from mapeditor.widgets.new_from_country import NewFromCountryDialog
from mapeditor.widgets.printing import print_map


def small_map() -> MapDef:
    m = MapDef("t", "T", 6, 4)
    m.land = {(x, y) for x in range(6) for y in range(4)}
    return m


def test_menus_are_installed(make_editor) -> None:
    window = make_editor(small_map())
    file_texts = [a.text() for a in window.menus["File"].actions()]
    assert "New map from &country…" in file_texts and "&Print…" in file_texts
    assert any(a.text() == "&Export" for a in window.menus["File"].actions())
    assert "Underlay" in window.docks


def test_export_formats_from_the_editor(make_editor, tmp_path: Path) -> None:
    window = make_editor(small_map())
    m = window.document.snapshot()
    png = export_to(m, tmp_path / "a.png")
    svg = export_to(m, tmp_path / "a.svg")
    pdf = export_to(m, tmp_path / "a.pdf")
    assert not QImage(str(png)).isNull()
    assert "<svg" in svg.read_text(encoding="utf-8")
    assert pdf.read_bytes().startswith(b"%PDF")


def test_print_to_a_pdf_printer_paints_every_page(make_editor, tmp_path: Path) -> None:
    window = make_editor(small_map())
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    pages = print_map(window, printer, ask=False)
    assert pages >= 2  # the overview and at least one board page
    assert (tmp_path / "printed.pdf").read_bytes().startswith(b"%PDF")


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


def test_print_tiles_for_the_paper_and_orientation_the_printer_has(
    make_editor, tmp_path: Path
) -> None:
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize

    from mapeditor.export import layout_for
    from mapeditor.widgets.printing import printer_layout

    m = MapDef("w", "Wide", 14, 5)  # 630 × 225 mm
    m.land = {(x, y) for x in range(14) for y in range(5)}
    window = make_editor(m)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "a3.pdf"))
    printer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.A3),
            QPageLayout.Orientation.Portrait,
            QMarginsF(0, 0, 0, 0),
        )
    )
    # Portrait A3 needs 3 pages, landscape 2: printing offers landscape and tiles for it.
    pages = print_map(window, printer, ask=False)
    lay = printer_layout(window.document.snapshot(), printer, choose_orientation=False)
    assert (lay.paper, lay.orientation.value, lay.cols, lay.rows) == ("A3", "landscape", 2, 1)
    assert pages == layout_for(m, paper="A3").page_count + 1 == 3


def test_imported_neighbour_names_are_shown_beside_the_border(make_editor, tmp_path: Path) -> None:
    from engine.geometry import Edge, Side
    from mapeditor.neighbours import NEIGHBOURS_KEY, neighbours_to_editor

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
