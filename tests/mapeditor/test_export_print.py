"""File ▸ Export and Print in the editor (true-scale pages on the printer's paper)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrinter

from engine.mapdef import MapDef
from mapeditor.widgets.export_dialog import export_to
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
