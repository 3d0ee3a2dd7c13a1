"""File ▸ Export: ask for a file (and paper or resolution) and export the map."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox

from engine.errors import EngineError
from engine.mapdef import MapDef
from mapeditor.export import PAPERS, ExportError, export_pdf, export_png, export_svg

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def export_dialog(window: MainWindow, suffix: str) -> Path | None:
    """Ask for a file (and the paper for a PDF, the DPI for a PNG), then export the map."""
    doc = window.document
    start = (
        doc.path.with_suffix(f".{suffix}") if doc.path else Path.home() / f"{doc.map.id}.{suffix}"
    )
    path, _ = QFileDialog.getSaveFileName(
        window, "Export map", str(start), f"{suffix.upper()} (*.{suffix})"
    )
    if not path:
        return None
    options: dict[str, Any] = {}
    if suffix == "pdf":
        paper, ok = QInputDialog.getItem(
            window,
            "Export PDF",
            "Paper (true scale, tiled with crop marks):",
            list(PAPERS),
            0,
            False,
        )
        if not ok:
            return None
        options["paper"] = paper
    elif suffix == "png":
        dpi, ok = QInputDialog.getInt(
            window, "Export PNG", "Resolution at true scale (dots per inch):", 100, 10, 1200
        )
        if not ok:
            return None
        options["dpi"] = float(dpi)
    try:
        return export_to(doc.snapshot(), Path(path), **options)
    except (ExportError, EngineError, OSError) as exc:
        QMessageBox.critical(window, "Export failed", str(exc))
        return None


def export_to(m: MapDef, path: Path, *, paper: str = "A4", dpi: float | None = None) -> Path:
    """Export by the file's suffix: .png (64 px per square, or true scale at ``dpi``), .svg or a
    true-scale .pdf on ``paper``."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        export_png(m, path, dpi=dpi)
    elif suffix == ".svg":
        export_svg(m, path)
    elif suffix == ".pdf":
        export_pdf(m, path, paper=paper)
    else:
        raise ExportError(f"{path.name}: unknown export format {suffix!r} (use .png, .svg or .pdf)")
    return path
