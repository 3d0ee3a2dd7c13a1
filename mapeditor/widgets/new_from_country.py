"""The "New map from country…" dialog: a real country's outline rasterised into a new map.

Pick a country (Natural Earth, with the ``geo`` extra) or any GeoJSON outline, a grid (columns
across, or a square size in km) and the minimum land share of a square. The raster is recomputed
in a worker thread shortly after any change and previewed with the square count; the biggest
cities are listed with a role each (large city, start square, town, ignore); the neighbouring
country beyond each border edge is recorded by name. :meth:`NewFromCountryDialog.build_map` gives
the new :class:`~engine.mapdef.MapDef` the main window opens as an unsaved document.

Neighbour names are *names only* (the designer adds the border roads and cities): they are kept in
``MapDef.editor["neighbours"]`` as ``[{"x", "y", "side", "name"}, ...]`` so a border feature drawn
on such an edge can be given its neighbour's name (see :mod:`engine.geo.neighbours`).
"""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLineF, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.errors import EngineError
from engine.geo.country import known_country
from engine.geo.countrynames import LANGUAGE_KEY
from engine.geo.draft import default_roles, make_draft
from engine.geo.neighbours import NEIGHBOURS_KEY, neighbour_names, neighbours_to_editor
from engine.geo.places import set_projection
from engine.geometry import Side
from engine.gridshape import default_tile_pool, size_advice, target_squares
from engine.islands import land_parts
from engine.mapdef import EdgeKind, LargeCity, MapDef, StartSquare, Town
from mapeditor import offload
from mapeditor.dialog_buttons import ok_cancel
from mapeditor.export import size_summary
from mapeditor.folders import remember_dir, start_dir
from mapeditor.remembered import remember_fields

__all__ = ["NEIGHBOURS_KEY", "ROLES", "NewFromCountryDialog", "default_role", "neighbour_names"]

ROLES = ("ignore", "large city", "start square", "town")

_ROLE_COLOURS = {
    "large city": QColor("#8a5a2b"),
    "start square": QColor("#d62828"),
    "town": QColor("#f4a261"),
}
_SEA = QColor("#a9cde0")
_LAND = QColor("#d8e6b0")
_BORDER = QColor("#7b2d8b")


def default_role(rank: int) -> str:
    """The role first offered to the ``rank``-th biggest city (0 = biggest)."""
    if rank < 2:
        return "large city"
    if rank < 5:
        return "start square"
    return "town" if rank < 12 else "ignore"


class _ImportSignals(QObject):
    done = Signal(int, object)


class _ScaledPreview(QLabel):
    """The raster preview, scaled to whatever room the dialog gives it: it never pushes the
    summary below it out of its space, at any window size."""

    DRAWN = QSize(600, 600)
    """The box the preview is drawn in before scaling."""

    def __init__(self) -> None:
        super().__init__("…")
        self._full: QPixmap | None = None
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setMinimumSize(220, 180)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)

    def set_image(self, pixmap: QPixmap) -> None:
        self._full = pixmap
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = None
        super().setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        if self._full is not None:
            self.setPixmap(
                self._full.scaled(
                    self.size(),
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )


class NewFromCountryDialog(QDialog):
    """Pick a country (or a GeoJSON file), a grid, the land share; choose city roles; get a map."""

    PREVIEW_DELAY_MS = 400

    def __init__(self, parent: QWidget | None = None, *, live: bool = True) -> None:
        super().__init__(parent)
        from engine.geo.country import country_names, geo_available

        self.setWindowTitle("New map from country")
        self.live = live
        self.country = QComboBox()
        self.country.setEditable(True)
        self.country.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self._names: set[str] = set()
        if geo_available():
            names = country_names()
            self._names = set(names)
            self.country.addItems(names)
            completer = self.country.completer()
            assert completer is not None  # an editable combo box always has one
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            self.country.setCurrentText("Germany")
        else:
            self.country.setPlaceholderText("install the geo extra, or choose a GeoJSON file")
        self.geojson = QPushButton("GeoJSON file…")
        self.by_columns = QRadioButton("Columns across")
        self.by_km = QRadioButton("Square size")
        self.by_squares = QRadioButton("Squares for the tile pool")
        self.by_squares.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.by_columns)
        group.addButton(self.by_km)
        group.addButton(self.by_squares)
        self.squares = QSpinBox()
        self.squares.setRange(10, 5000)
        self.squares.setValue(target_squares())
        self.squares.setToolTip(
            "About this many land squares: 1.6 x the middle of a 110-120 tile pool, as the "
            "shipped maps"
        )
        self.columns = QSpinBox()
        self.columns.setRange(2, 400)
        self.columns.setValue(16)
        self.columns.setEnabled(False)
        self.km = QDoubleSpinBox()
        self.km.setRange(1.0, 2000.0)
        self.km.setValue(40.0)
        self.km.setSuffix(" km")
        self.km.setEnabled(False)
        self.min_land = QSpinBox()
        self.min_land.setRange(1, 100)
        self.min_land.setValue(50)
        self.min_land.setSuffix(" %")
        self.min_land.setToolTip("A square becomes a map square when at least this much is land.")
        self.name_neighbours = QCheckBox("Name the neighbouring countries along the border")
        self.name_neighbours.setChecked(True)
        self.draft = QCheckBox(
            "Playable first draft (start squares, border roads, ferries, tile pool)"
        )
        self.draft.setToolTip(
            "Also put border roads towards the neighbours' big cities near the border, ferries "
            "to every island and a tile pool that fits; the map validates and plays (see the "
            "notes)."
        )
        self.local_names = QCheckBox("Names in the country's language (Sverige, Norge, Göteborg)")
        self.local_names.setChecked(True)
        self.local_names.setToolTip(
            "Name the map, its neighbours and its cities as the country does where the data "
            "knows it; off: English (GeoNames' and Natural Earth's names). The notes list the "
            "cities renamed."
        )
        self.preview = _ScaledPreview()
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["City", "Population", "Square", "Role"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumWidth(380)
        self.preview_button = QPushButton("Preview now")
        self.buttons, self.ok_button = ok_cancel(self, "Create map")
        self.ok_button.setEnabled(False)

        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.country, 1)
        row.addWidget(self.geojson)
        form.addRow("Country", row)
        grid_row = QHBoxLayout()
        for w in (
            self.by_squares,
            self.squares,
            self.by_columns,
            self.columns,
            self.by_km,
            self.km,
        ):
            grid_row.addWidget(w)
        grid_row.addStretch(1)
        form.addRow("Grid", grid_row)
        form.addRow("Minimum land", self.min_land)
        form.addRow("", self.name_neighbours)
        form.addRow("", self.draft)
        form.addRow("", self.local_names)
        left = QVBoxLayout()
        left.addWidget(self.preview, 1)
        left.addWidget(self.summary)
        left.addWidget(self.preview_button)
        right = QVBoxLayout()
        right.addWidget(QLabel("City candidates (biggest first) and their role on the map:"))
        right.addWidget(self.table, 1)
        body = QHBoxLayout()
        body.addLayout(left, 1)
        body.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(body, 1)
        layout.addWidget(self.buttons)

        self.source: Any = None
        self.result_: Any = None
        self._default_roles: list[str] = []
        self._generation = 0
        self._signals = _ImportSignals(self)
        self._signals.done.connect(self._on_done)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.PREVIEW_DELAY_MS)
        self._timer.timeout.connect(self.run_preview)
        self.geojson.clicked.connect(self._pick_geojson)
        self.preview_button.clicked.connect(self.run_preview)
        self.by_columns.toggled.connect(self._grid_mode_changed)
        self.by_km.toggled.connect(self._grid_mode_changed)
        self.name_neighbours.toggled.connect(self._draw_preview)
        for signal in (
            self.columns.valueChanged,
            self.km.valueChanged,
            self.squares.valueChanged,
            self.min_land.valueChanged,
            self.country.currentTextChanged,
            self.local_names.toggled,
        ):
            signal.connect(self._schedule)
        # The last country and grid (the dialog used to start at Germany every time).
        self.remembered = remember_fields(
            self,
            "new_from_country",
            {
                "country": self.country,
                "by_squares": self.by_squares,
                "by_columns": self.by_columns,
                "by_km": self.by_km,
                "squares": self.squares,
                "columns": self.columns,
                "km": self.km,
                "min_land": self.min_land,
                "name_neighbours": self.name_neighbours,
                "draft": self.draft,
                "local_names": self.local_names,
            },
        )
        self._schedule()

    # -- inputs --------------------------------------------------------------------------------

    def _grid_mode_changed(self, *_args: object) -> None:
        self.columns.setEnabled(self.by_columns.isChecked())
        self.km.setEnabled(self.by_km.isChecked())
        self.squares.setEnabled(self.by_squares.isChecked())
        self._schedule()
        self._schedule()

    def _pick_geojson(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Country outline", str(start_dir()), "GeoJSON (*.json *.geojson)"
        )
        if path:
            remember_dir(Path(path))
            self.set_geojson(Path(path))

    def set_geojson(self, path: Path) -> None:
        """Use a GeoJSON outline instead of a named country."""
        self.source = path
        self.country.setEditText(str(path))
        self._schedule()

    def _current_source(self) -> Any:
        text = self.country.currentText().strip()
        if self.source is not None and str(self.source) == text:
            return self.source
        return text

    def _schedule(self, *_args: object) -> None:
        """Preview again shortly after the last change (typing a name does not rasterise per key)."""
        if not self.live:
            return
        source = self._current_source()
        if isinstance(source, str) and not self._known(source) and not Path(source).is_file():
            return  # a half-typed name: wait for a real one (or "Preview now")
        self._timer.start()

    def _known(self, text: str) -> bool:
        """Whether ``text`` names a country: listed, or a native or common name (Sverige)."""
        if text in self._names:
            return True
        return bool(self._names) and known_country(text) is not None

    def import_options(self) -> dict[str, Any]:
        """The keyword arguments for :func:`engine.geo.country.import_country`."""
        kwargs: dict[str, Any] = {
            "min_land": self.min_land.value() / 100,
            "crop": 1,
            "keep_small_parts": True,
        }
        if not self.local_names.isChecked():
            kwargs["local_names"] = False
        if self.by_km.isChecked():
            kwargs["km"] = self.km.value()
        elif self.by_columns.isChecked():
            kwargs["columns"] = self.columns.value()
        else:
            kwargs["squares"] = self.squares.value()
        return kwargs

    def run_preview(self) -> None:
        """Rasterise in the helper process (:mod:`mapeditor.offload`: the dialog stays
        responsive while you type); :meth:`_on_done` shows the result."""
        self._timer.stop()
        source = self._current_source()
        if not source:
            self.preview.setText("Choose a country or a GeoJSON file.")
            return
        self._generation += 1
        self.preview.setText("Rasterising…")
        self.ok_button.setEnabled(False)
        from engine.geo.country import import_country

        offload.run_to_signal(
            functools.partial(import_country, **self.import_options()),
            (source,),
            self._signals.done,
            self._generation,
        )

    # -- results -------------------------------------------------------------------------------

    def _on_done(self, generation: int, result: Any) -> None:
        if generation != self._generation:
            return  # an older request finished after a newer one was started
        if isinstance(result, Exception):
            self.result_ = None
            self.preview.setPixmap(QPixmap())
            self.preview.setText(f"Cannot import: {result}")
            self.summary.setText("")
            self.table.setRowCount(0)
            return
        self.result_ = result
        m = result.map
        names = Counter(result.neighbours.values())
        neighbours = ", ".join(f"{n} ({k})" for n, k in sorted(names.items()))
        parts = land_parts(m)
        advice = size_advice(len(m.land))
        warning = f"<br><b>Warning:</b> {advice.message}." if advice.too_many else ""
        self.summary.setText(
            f"<b>{len(m.land)} map squares</b> on a {m.width}×{m.height} grid, "
            f"{result.projection.km:.1f} km per square; "
            f"{len(parts)} land part{'s' if len(parts) != 1 else ''} "
            f"({', '.join(str(len(p)) for p in parts[:8])}{'…' if len(parts) > 8 else ''})."
            + f"<br>Printed: {size_summary(m)}."
            + (f"<br>Border edges facing: {neighbours}." if neighbours else "")
            + warning
            + (f"<br>{len(result.notes)} notes (hover here)." if result.notes else "")
        )
        self.summary.setToolTip("\n".join(result.notes))
        self._default_roles = default_roles(m, result.cities)
        self.table.setRowCount(0)
        for i, city in enumerate(result.cities[:30]):
            self.table.insertRow(i)
            self.table.setItem(i, 0, QTableWidgetItem(city.name))
            pop = QTableWidgetItem(f"{city.population:,}")
            pop.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(i, 1, pop)
            self.table.setItem(i, 2, QTableWidgetItem(f"{city.square[0]}, {city.square[1]}"))
            role = QComboBox()
            role.addItems(ROLES)
            role.setCurrentText(self._default_roles[i])
            role.currentTextChanged.connect(self._draw_preview)
            self.table.setCellWidget(i, 3, role)
        self.table.resizeColumnsToContents()
        self._draw_preview()
        self.ok_button.setEnabled(True)

    def _draw_preview(self, *_args: object) -> None:
        """Land squares, border edges facing a neighbour, and the chosen city roles."""
        if self.result_ is None:
            return
        m = self.result_.map
        box = _ScaledPreview.DRAWN
        scale = max(2, min(box.width() // max(1, m.width), box.height() // max(1, m.height)))
        image = QImage(m.width * scale, m.height * scale, QImage.Format.Format_RGB32)
        image.fill(_SEA)
        painter = QPainter(image)
        gap = 1 if scale > 4 else 0
        for x, y in m.land:
            painter.fillRect(x * scale, y * scale, scale - gap, scale - gap, _LAND)
        if self.name_neighbours.isChecked():
            painter.setPen(QPen(_BORDER, max(1.0, scale / 6)))
            for edge in self.result_.neighbours:
                x, y = edge.x * scale, edge.y * scale
                a, b = {
                    Side.N: ((x, y), (x + scale, y)),
                    Side.S: ((x, y + scale), (x + scale, y + scale)),
                    Side.W: ((x, y), (x, y + scale)),
                    Side.E: ((x + scale, y), (x + scale, y + scale)),
                }[edge.side]
                painter.drawLine(QLineF(*a, *b))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("white"), 1))
        for i, role in self.roles().items():
            colour = _ROLE_COLOURS.get(role)
            if colour is None:
                continue
            x, y = self.result_.cities[i].square
            painter.setBrush(colour)
            r = max(2.0, scale * 0.32)
            painter.drawEllipse(
                int(x * scale + scale / 2 - r),
                int(y * scale + scale / 2 - r),
                int(2 * r),
                int(2 * r),
            )
        painter.end()
        self.preview.set_image(QPixmap.fromImage(image))
        self.preview.setToolTip(f"{len(m.land)} map squares on a {m.width}×{m.height} grid")

    def roles(self) -> dict[int, str]:
        """The role chosen for each city row."""
        out: dict[int, str] = {}
        for i in range(self.table.rowCount()):
            widget = self.table.cellWidget(i, 3)
            if isinstance(widget, QComboBox):
                out[i] = widget.currentText()
        return out

    def set_role(self, row: int, role: str) -> None:
        widget = self.table.cellWidget(row, 3)
        if isinstance(widget, QComboBox):
            widget.setCurrentText(role)

    def build_map(self) -> MapDef:
        """The imported land plus the chosen large cities, start squares and towns, and the
        neighbour names (editor settings) when asked for."""
        if self.result_ is None:
            raise EngineError("nothing imported yet: press Preview now")
        if self.draft.isChecked():
            roles = list(self._default_roles)
            roles[: len(self.roles())] = [self.roles()[i] for i in range(len(self.roles()))]
            return make_draft(self.result_, roles=roles).map
        m: MapDef = self.result_.map.copy()
        for i, role in self.roles().items():
            city = self.result_.cities[i]
            sq = city.square
            if sq not in m.land or m.city_at(sq) or sq in m.start_squares or sq in m.towns:
                continue
            if role == "large city":
                cid = "".join(c for c in city.name.lower() if c.isalnum()) or f"city-{i}"
                while cid in m.large_cities:
                    cid += "-2"
                # Open towards the land around it; the designer narrows it to the real sides.
                edges = {
                    e: EdgeKind.CITY
                    for e in LargeCity(cid, city.name, {sq}).outer_edges()
                    if e.outer_square in m.land
                }
                m.large_cities[cid] = LargeCity(cid, city.name, {sq}, 2, edges)
            elif role == "start square":
                m.start_squares[sq] = StartSquare(city.name)
            elif role == "town":
                m.towns[sq] = Town(city.name)
        set_projection(m, self.result_.projection)
        if self.result_.language:
            m.editor[LANGUAGE_KEY] = self.result_.language
        lo, hi = default_tile_pool(len(m.placeable_squares()))
        m.setup.tile_pool_min, m.setup.tile_pool_max = lo, hi
        if self.name_neighbours.isChecked() and self.result_.neighbours:
            m.editor[NEIGHBOURS_KEY] = neighbours_to_editor(self.result_.neighbours)
            m.land_borders = set(self.result_.land_borders)
        return m
