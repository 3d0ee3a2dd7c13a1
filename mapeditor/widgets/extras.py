"""Export, print, the tracing underlay and "New map from country…", added to the main window.

:func:`install_extras` is called once by :class:`~mapeditor.widgets.main_window.MainWindow`; it
uses only the window's public parts (document, scene, view, menus).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QLineF, QMarginsF, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QMouseEvent,
    QPageLayout,
    QPageSize,
    QPainter,
    QPen,
    QPixmap,
    QTransform,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QFileDialog,
    QGraphicsItem,
    QGraphicsPixmapItem,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from engine.errors import EngineError
from engine.mapdef import MapDef
from mapeditor.commands import ReplaceMap, change_entries
from mapeditor.document import ABSENT, MapDocument
from mapeditor.export import (
    PAPERS,
    ExportError,
    Orientation,
    PageLayout,
    export_pdf,
    export_png,
    export_svg,
    layout_for,
    page_layout_of,
    paint_pages,
)
from mapeditor.neighbours import label_runs, neighbour_names
from mapeditor.painting import SQUARE, edge_line, edge_midpoint, map_rect
from mapeditor.underlay import (
    EDITOR_KEY,
    Underlay,
    UnderlayError,
    align_two_points,
    fit_width,
    image_file,
    read_image_bytes,
    storable_path,
    underlay_of,
)
from mapeditor.widgets.new_from_country import NewFromCountryDialog

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


def install_extras(window: MainWindow) -> None:
    """Add File ▸ New map from country…, Export, Print… and View ▸ Underlay to ``window``."""
    file_menu = window.menus["File"]
    first = file_menu.actions()[2] if len(file_menu.actions()) > 2 else None  # after New, Open
    country = QAction("New map from &country…", window)
    country.triggered.connect(lambda: new_map_from_country(window))
    if first is None:
        file_menu.addAction(country)
    else:
        file_menu.insertAction(first, country)
    export_menu = file_menu.addMenu("&Export")
    for label, suffix in (
        ("PNG image…", "png"),
        ("SVG drawing…", "svg"),
        ("PDF, true scale…", "pdf"),
    ):
        action = export_menu.addAction(label)
        action.triggered.connect(lambda _c=False, s=suffix: export_dialog(window, s))
    print_action = QAction("&Print…", window)
    print_action.setShortcut("Ctrl+P")
    print_action.triggered.connect(lambda: print_map(window))
    file_menu.insertAction(file_menu.actions()[-1], print_action)
    window.extras_actions = {"country": country, "print": print_action}  # type: ignore[attr-defined]
    dock_widget = UnderlayDock(window)
    from PySide6.QtWidgets import QDockWidget

    dock = QDockWidget("Underlay", window)
    dock.setObjectName("dock-underlay")
    dock.setWidget(dock_widget)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    dock.hide()
    window.docks["Underlay"] = dock
    window.menus["View"].addAction(dock.toggleViewAction())
    window.underlay = dock_widget  # type: ignore[attr-defined]
    names = NeighbourNamesItem(window.document)
    window.scene.addItem(names)

    bound: list[MapDocument] = []

    def bind(_stack: object = None) -> None:
        # The window swaps documents (New, Open, New map from country): follow the current one.
        document = window.document
        if (bound and bound[-1] is document) or not shiboken6.isValid(document):
            return
        bound[:] = [document]
        names.set_document(document)
        for slot in (names.refresh, dock_widget.refresh):
            document.squaresChanged.connect(slot)
            document.mapReplaced.connect(slot)
        dock_widget.refresh()

    bind()
    window.undo_group.activeStackChanged.connect(bind)
    show_names = window.menus["View"].addAction("Neighbour names (from the country import)")
    show_names.setCheckable(True)
    show_names.setChecked(True)
    show_names.toggled.connect(names.setVisible)
    window.neighbour_names = names  # type: ignore[attr-defined]


# -- export and print ----------------------------------------------------------------------------


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


def print_map(window: MainWindow, printer: QPrinter | None = None, *, ask: bool = True) -> int:
    """Print at true scale, tiled over the paper chosen in the print dialog, after the assembly
    overview. :returns: pages printed (0 when cancelled)."""
    m = window.document.snapshot()
    printer = printer or QPrinter(QPrinter.PrinterMode.HighResolution)
    # Offer the orientation that needs fewest pages on the printer's paper ...
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
    if ask and QPrintDialog(printer, window).exec() != QDialog.DialogCode.Accepted:
        return 0
    # ... and tile for whatever paper and orientation the user settled on.
    lay = printer_layout(m, printer, choose_orientation=False)
    printer.setFullPage(True)
    return paint_pages(printer, m, lay)


# -- neighbour names ------------------------------------------------------------------------------


class NeighbourNamesItem(QGraphicsItem):
    """Draws the neighbour names saved by "New map from country…" beside the border: a dashed line
    on each border edge facing that neighbour and one italic name per run of edges. Names only;
    the border roads and cities are the designer's."""

    def __init__(self, document: MapDocument) -> None:
        super().__init__()
        self._document = document
        self._edges: list[tuple[QLineF, str]] = []
        self._labels: list[tuple[QPointF, str]] = []
        self._rect = QRectF()
        self.setZValue(6)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.refresh()

    def set_document(self, document: MapDocument) -> None:
        self._document = document
        self.refresh()

    def refresh(self, *_args: object) -> None:
        self.prepareGeometryChange()
        m = self._document.map
        names = {
            e: n for e, n in neighbour_names(m).items() if e.square in m.land and m.faces_outside(e)
        }
        self._edges = [(edge_line(e), n) for e, n in names.items()]
        self._labels = []
        for name, run in label_runs(names):
            mids = [edge_midpoint(e) for e in run]
            cx = sum(p.x() for p in mids) / len(mids)
            cy = sum(p.y() for p in mids) / len(mids)
            ox = sum(e.side.delta[0] for e in run)
            oy = sum(e.side.delta[1] for e in run)
            norm = max(1e-9, (ox * ox + oy * oy) ** 0.5)
            self._labels.append(
                (QPointF(cx + ox / norm * SQUARE * 0.45, cy + oy / norm * SQUARE * 0.45), name)
            )
        self._rect = map_rect(m).adjusted(-2 * SQUARE, -2 * SQUARE, 2 * SQUARE, 2 * SQUARE)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self._rect

    def paint(self, painter: QPainter, _option: object, _widget: object = None) -> None:
        if not self._edges:
            return
        pen = QPen(QColor(123, 45, 139, 170), 3.0, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLines([line for line, _ in self._edges])
        font = QFont()
        font.setItalic(True)
        font.setPixelSize(15)
        painter.setFont(font)
        painter.setPen(QColor(92, 30, 110, 230))
        for centre, name in self._labels:
            rect = QRectF(centre.x() - 80, centre.y() - 10, 160, 20)
            painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), name)


# -- the tracing underlay ------------------------------------------------------------------------


class UnderlayDock(QWidget):
    """Load a scan under the grid, set its opacity, show/hide it, align it with two clicks."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.item = QGraphicsPixmapItem()
        # Above the (opaque) map chunks and translucent, below the tool/issue overlay.
        self.item.setZValue(5)
        self.item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        window.scene.addItem(self.item)
        self._pixmap_path: str | None = None
        self._picked: set[str] = set()
        """Stored paths of images picked in this session's dialog (shown even outside the map's
        folder; a path read from a file must stay in that folder)."""
        self.load_button = QPushButton("Load image…")
        self.visible = QCheckBox("Show")
        self.opacity = QSlider(Qt.Orientation.Horizontal)
        self.opacity.setRange(0, 100)
        self.align_button = QPushButton("Align… (click two square corners)")
        self.status = QLabel("No underlay.")
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        for w in (
            self.load_button,
            self.visible,
            QLabel("Opacity"),
            self.opacity,
            self.align_button,
            self.status,
        ):
            layout.addWidget(w)
        layout.addStretch(1)
        self.load_button.clicked.connect(self.load_dialog)
        self.visible.toggled.connect(lambda on: self._change(visible=on))
        self.opacity.sliderReleased.connect(
            lambda: self._change(opacity=self.opacity.value() / 100)
        )
        self.align_button.clicked.connect(self.start_alignment)
        self._clicks: list[QPointF] = []
        self._filter = _ClickCatcher(self)
        self.refresh()  # install_extras connects it to the current document's changes

    @property
    def underlay(self) -> Underlay | None:
        try:
            return underlay_of(self.window_.document.map.editor)
        except UnderlayError:
            return None

    def set_underlay(self, underlay: Underlay | None, text: str = "Change underlay") -> None:
        doc = self.window_.document
        value: Any = ABSENT if underlay is None else underlay.to_dict()
        change_entries(doc, "editor", {EDITOR_KEY: value}, text)
        self.refresh()

    def _change(self, **changes: Any) -> None:
        current = self.underlay
        if current is not None:
            self.set_underlay(current.with_(**changes))

    def load_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Underlay image",
            str(Path.home()),
            "Images (*.png *.jpg *.jpeg *.bmp *.tif *.tiff)",
        )
        if path:
            self.load(Path(path))

    def load(self, image: Path) -> None:
        pixmap, error = _bounded_pixmap(image)
        if pixmap is None:
            QMessageBox.critical(self, "Underlay", error)
            return
        m = self.window_.document.map
        stored = storable_path(image, self.window_.document.path)
        self._picked.add(stored)
        self.set_underlay(
            Underlay(stored, 0.5, True, fit_width((pixmap.width(), pixmap.height()), m.width)),
            "Load underlay",
        )

    def refresh(self, *_args: object) -> None:
        underlay = self.underlay
        if underlay is None:
            self.item.setVisible(False)
            self.status.setText("No underlay. Load a scan or photo of a printed map to trace it.")
            return
        problem = None
        try:
            if underlay.path in self._picked:  # chosen in this session's dialog
                path = str(Path(underlay.path))
            else:
                path = str(image_file(underlay.path, self.window_.document.path))
        except UnderlayError as exc:
            path, problem = "", str(exc)
        if path != self._pixmap_path:
            pixmap, problem = _bounded_pixmap(Path(path)) if path else (None, problem)
            self.item.setPixmap(pixmap if pixmap is not None else QPixmap())
            self._pixmap_path = path
        m11, m12, m21, m22, dx, dy = underlay.transform
        # The transform maps image pixels to squares; the scene has SQUARE units per square.
        self.item.setTransform(
            QTransform(
                m11 * SQUARE, m12 * SQUARE, m21 * SQUARE, m22 * SQUARE, dx * SQUARE, dy * SQUARE
            )
        )
        self.item.setOpacity(underlay.opacity)
        self.item.setVisible(underlay.visible)
        for widget, value in ((self.visible, underlay.visible),):
            widget.blockSignals(True)
            widget.setChecked(value)
            widget.blockSignals(False)
        self.opacity.setValue(round(underlay.opacity * 100))
        if problem:  # the first clause; the whole message on hover
            reason = problem.split(": ", 1)[-1].split("; ")[0]
            if "leads outside the folder" in reason:
                reason = "its path leads outside the map's folder"
            self.status.setText(f"Image not shown: {reason}. Use Load image… to pick it.")
            self.status.setToolTip(problem)
        else:
            self.status.setText(f"{Path(underlay.path).name}")
            self.status.setToolTip("")

    def start_alignment(self) -> None:
        if self.underlay is None:
            self.status.setText("Load an image first.")
            return
        self._clicks = []
        self.window_.view.viewport().installEventFilter(self._filter)
        self.status.setText("Click the first known square corner on the image…")

    def clicked(self, scene_point: QPointF) -> None:
        self._clicks.append(scene_point)
        if len(self._clicks) < 2:
            self.status.setText("…and now a second one, far from the first.")
            return
        self.window_.view.viewport().removeEventFilter(self._filter)
        corners = []
        for i in range(1, len(self._clicks) + 1):
            text, ok = QInputDialog.getText(
                self,
                "Align underlay",
                f"Corner {i}: which square corner is it? (x, y of the grid line crossing)",
            )
            if not ok:
                self.status.setText("Alignment cancelled.")
                return
            try:
                x, y = (float(v) for v in text.replace(",", " ").split())
            except ValueError:
                self.status.setText(f"Not a corner: {text!r} (give two numbers).")
                return
            corners.append((x, y))
        self.align(self._clicks, corners)

    def align(self, scene_points: list[QPointF], corners: list[tuple[float, float]]) -> None:
        """Align so the two clicked image points land on the two given square corners."""
        inverse, _ok = self.item.sceneTransform().inverted()
        image_points = [inverse.map(p) for p in scene_points]
        try:
            transform = align_two_points(
                (
                    (image_points[0].x(), image_points[0].y()),
                    (image_points[1].x(), image_points[1].y()),
                ),
                (corners[0], corners[1]),
            )
        except UnderlayError as exc:
            self.status.setText(str(exc))
            return
        self._change(transform=transform.transform)


def _bounded_pixmap(image: Path) -> tuple[QPixmap | None, str]:
    """The image at ``image`` read within the size bounds of :mod:`mapeditor.underlay` (never a
    FIFO or a device, never a decompression bomb); ``(None, reason)`` if it cannot be shown."""
    from PySide6.QtCore import QBuffer, QByteArray
    from PySide6.QtGui import QImageReader

    from mapeditor.underlay import MAX_IMAGE_PIXELS

    try:
        data = read_image_bytes(image)
    except UnderlayError as exc:
        return None, str(exc)
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    reader = QImageReader(buffer)
    size = reader.size()
    if size.isValid() and size.width() * size.height() > MAX_IMAGE_PIXELS:
        return None, f"{image}: the image is too large ({size.width()} x {size.height()} pixels)"
    reader.setAllocationLimit(1024)  # MB of decoded image
    decoded = reader.read()
    if decoded.isNull():
        return None, f"{image}: not an image Qt can read"
    return QPixmap.fromImage(decoded), ""


class _ClickCatcher(QObject):
    def __init__(self, dock: UnderlayDock) -> None:
        super().__init__(dock)
        self._dock = dock

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            view = self._dock.window_.view
            self._dock.clicked(view.mapToScene(event.position().toPoint()))
            return True
        return False


# -- New map from country -------------------------------------------------------------------------


def new_map_from_country(
    window: MainWindow, dialog: NewFromCountryDialog | None = None
) -> MapDocument | None:
    """Run the dialog; the new map opens as an unsaved document."""
    if not window.maybe_save():
        return None
    dialog = dialog or NewFromCountryDialog(window)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return open_imported(window, dialog.build_map())


def open_imported(window: MainWindow, m: MapDef) -> MapDocument:
    document = MapDocument(MapDef(m.id, m.name, m.width, m.height))
    document.undo_stack.push(ReplaceMap(document, m, "New map from country"))
    window.set_document(document)
    return document
