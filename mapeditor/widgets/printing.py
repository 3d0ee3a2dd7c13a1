"""File ▸ Print and Print Preview: the map at true scale, tiled over the printer's paper
(pages holding only sea are left out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QMarginsF, Qt
from PySide6.QtGui import QPageLayout, QPageSize
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog
from PySide6.QtWidgets import QDialog

from engine.mapdef import MapDef
from mapeditor.export import Orientation, PageLayout, layout_for, page_layout_of, paint_pages

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def printer_layout(m: MapDef, printer: QPrinter, *, choose_orientation: bool) -> PageLayout:
    """The page tiling for the printer's paper; its orientation too unless ``choose_orientation``
    (then whichever needs fewer pages)."""
    page = printer.pageLayout()
    size = page.pageSize().size(QPageSize.Unit.Millimeter)
    orientation = None
    if not choose_orientation:
        landscape = page.orientation() == QPageLayout.Orientation.Landscape
        orientation = Orientation.LANDSCAPE if landscape else Orientation.PORTRAIT
    return layout_for(
        m,
        paper=page.pageSize().name() or "paper",
        paper_size_mm=(size.width(), size.height()),
        orientation=orientation,
    )


def _prepare(m: MapDef, printer: QPrinter) -> None:
    """Offer the orientation that needs fewest pages on the printer's paper, no margins."""
    lay = printer_layout(m, printer, choose_orientation=True)
    printer.setPageLayout(
        QPageLayout(
            printer.pageLayout().pageSize(),
            page_layout_of(lay).orientation(),
            QMarginsF(0, 0, 0, 0),
            QPageLayout.Unit.Millimeter,
        )
    )
    printer.setFullPage(True)


def _paint(m: MapDef, printer: QPrinter) -> int:
    """Tile for whatever paper and orientation the user settled on, and paint."""
    lay = printer_layout(m, printer, choose_orientation=False)
    printer.setFullPage(True)
    return paint_pages(printer, m, lay)


def print_preview(window: MainWindow) -> QPrintPreviewDialog:
    """Qt's print preview of the true-scale pages (paper and orientation can be changed there,
    and Print prints); opened window-modal and returned."""
    m = window.document.snapshot()
    # The dialog's own printer: it lives exactly as long as the dialog.
    dialog = QPrintPreviewDialog(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _prepare(m, dialog.printer())
    dialog.setObjectName("print_preview")
    dialog.setWindowTitle(f"Print preview — {m.name or m.id}")
    dialog.paintRequested.connect(lambda device: _paint(m, device))
    dialog.resize(1000, 800)
    dialog.open()
    return dialog


def print_map(window: MainWindow, printer: QPrinter | None = None, *, ask: bool = True) -> int:
    """Print at true scale, tiled over the paper chosen in the print dialog, after the assembly
    overview. :returns: pages printed (0 when cancelled)."""
    m = window.document.snapshot()
    printer = printer or QPrinter(QPrinter.PrinterMode.HighResolution)
    _prepare(m, printer)
    if ask and QPrintDialog(printer, window).exec() != QDialog.DialogCode.Accepted:
        return 0
    return _paint(m, printer)
