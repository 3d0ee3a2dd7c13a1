"""File ▸ Export: ask for a file (and paper or resolution) and export the map."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from engine.errors import EngineError
from engine.mapdef import MapDef
from mapeditor.chip_sheet import ChipSheetError, export_chip_sheet
from mapeditor.export import (
    ExportError,
    export_pdf,
    export_png,
    export_print_shop_pdf,
    export_svg,
    layout_for,
    size_summary,
)
from mapeditor.folders import editor_settings, remember_dir, start_dir
from mapeditor.print_size import PAPERS, board_size_mm

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def export_dialog(window: MainWindow, suffix: str) -> Path | None:
    """Ask for a file (and the paper for a PDF, the DPI for a PNG), then export the map."""
    doc = window.document
    start = start_dir(doc.path) / f"{doc.path.stem if doc.path else doc.map.id}.{suffix}"
    path, _ = QFileDialog.getSaveFileName(
        window, "Export map", str(start), f"{suffix.upper()} (*.{suffix})"
    )
    if not path:
        return None
    remember_dir(Path(path))
    options: dict[str, Any] = {}
    settings = editor_settings()  # the last export's paper and resolution are offered first
    if suffix == "pdf":
        m = doc.snapshot()
        choices = pdf_choices(m)
        papers = list(choices.values())
        last = str(settings.value(PAPER_KEY, ""))
        label, ok = QInputDialog.getItem(
            window,
            "Export PDF",
            f"Board: {size_summary(m, ())}\nWhat to print (true scale):",
            list(choices),
            papers.index(last) if last in papers else 0,
            False,
        )
        if not ok:
            return None
        options["paper"] = choices[label]
        settings.setValue(PAPER_KEY, choices[label])
    elif suffix == "png":
        last_dpi = str(settings.value(DPI_KEY, ""))
        dpi, ok = QInputDialog.getInt(
            window,
            "Export PNG",
            "Resolution at true scale (dots per inch):",
            int(last_dpi) if last_dpi.isdigit() else 100,
            10,
            1200,
        )
        if not ok:
            return None
        options["dpi"] = float(dpi)
        settings.setValue(DPI_KEY, dpi)
    try:
        return export_to(doc.snapshot(), Path(path), **options)
    except (ExportError, ChipSheetError, EngineError, OSError) as exc:
        QMessageBox.critical(window, "Export failed", str(exc))
        return None


PRINT_SHOP = "print-shop"
CHIPS = "chips"
PAPER_KEY = "export/paper"
DPI_KEY = "export/dpi"


def pdf_choices(m: MapDef) -> dict[str, str]:
    """The PDF export's choices, each with the page count it makes: label → ``paper`` of
    :func:`export_to`."""
    out = {f"{p}: {layout_for(m, paper=p).page_count + 1} pages": p for p in PAPERS}
    w, h = board_size_mm(m)
    out[f"Print shop: one {w / 10:g} × {h / 10:g} cm sheet, 3 mm bleed"] = PRINT_SHOP
    out["Chip sheet (A4, fronts and backs for duplex)"] = CHIPS
    return out


def export_to(m: MapDef, path: Path, *, paper: str = "A4", dpi: float | None = None) -> Path:
    """Export by the file's suffix: .png (64 px per square, or true scale at ``dpi``), .svg or a
    true-scale .pdf on ``paper`` (or :data:`PRINT_SHOP`'s one sheet, or :data:`CHIPS`)."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        export_png(m, path, dpi=dpi)
    elif suffix == ".svg":
        export_svg(m, path)
    elif suffix == ".pdf" and paper == PRINT_SHOP:
        export_print_shop_pdf(m, path)
    elif suffix == ".pdf" and paper == CHIPS:
        export_chip_sheet(m, path)
    elif suffix == ".pdf":
        export_pdf(m, path, paper=paper)
    else:
        raise ExportError(f"{path.name}: unknown export format {suffix!r} (use .png, .svg or .pdf)")
    return path
