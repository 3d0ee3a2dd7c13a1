"""The Underlay dock: a scan under the grid to trace, its opacity and two-click alignment."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QPixmap, QTransform
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QGraphicsPixmapItem,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from mapeditor.commands import change_entries
from mapeditor.document import ABSENT
from mapeditor.folders import start_dir
from mapeditor.painting import SQUARE
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

if TYPE_CHECKING:
    from mapeditor.widgets.main_window import MainWindow


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
        self.shown_in_view = True
        """The View ▸ Layers toggle (a view setting; the document's "Show" is the map's)."""
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
            str(start_dir(self.window_.document.path)),
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
        self.item.setVisible(underlay.visible and self.shown_in_view)
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
