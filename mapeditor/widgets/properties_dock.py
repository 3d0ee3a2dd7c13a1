"""Properties of the map and of what is selected; every edit becomes a command."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.geometry import Square
from engine.mapdef import Colour, EdgeKind, IslandRole, MapDef, NamedRuleSet
from engine.rules.registry import map_rule_set_names
from mapeditor.commands import change_attribute, change_entries
from mapeditor.dialog_buttons import ok_cancel
from mapeditor.document import MapDocument
from mapeditor.export import size_summary
from mapeditor.print_size import square_mm_to_fit
from mapeditor.ruleset_edits import use_module
from mapeditor.widgets.field_guard import guard_fields

_COLOURS = [("none", None)] + [(c.value.replace("_", " "), c) for c in Colour]
MIXED = "(mixed)"
"""A many-element field's value while the elements differ (choosing it changes nothing)."""


def _line(value: str, commit: Callable[[str], None]) -> QLineEdit:
    edit = QLineEdit(value)
    edit.editingFinished.connect(lambda: commit(edit.text()))
    return edit


def _spin(value: int, lo: int, hi: int, commit: Callable[[int], None]) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(lo, hi)
    spin.setValue(value)
    spin.valueChanged.connect(commit)
    return spin


def _combo(items: list[tuple[str, Any]], current: Any, commit: Callable[[Any], None]) -> QComboBox:
    combo = QComboBox()
    for label, data in items:
        combo.addItem(label, data)
    index = next((i for i, (_l, d) in enumerate(items) if d == current), 0)
    combo.setCurrentIndex(index)
    combo.currentIndexChanged.connect(lambda i: commit(items[i][1]))
    return combo


class FitBoardDialog(QDialog):
    """ "Fit N × M cm": the board size asked for, and the square (and the result) shown live."""

    def __init__(self, m: MapDef, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fit_board_dialog")
        self.setWindowTitle("Fit the board to a size")
        self.map = m
        form = QFormLayout(self)
        self.width_cm = QDoubleSpinBox()
        self.height_cm = QDoubleSpinBox()
        for spin, value in (
            (self.width_cm, m.width * m.square_size_mm / 10),
            (self.height_cm, m.height * m.square_size_mm / 10),
        ):
            spin.setRange(1.0, 1000.0)
            spin.setDecimals(1)
            spin.setSuffix(" cm")
            spin.setValue(value)
            spin.valueChanged.connect(self._update)
        form.addRow("Board width", self.width_cm)
        form.addRow("Board height", self.height_cm)
        self.outcome = QLabel()
        self.outcome.setWordWrap(True)
        form.addRow(self.outcome)
        buttons, _ok = ok_cancel(self, "Fit")
        form.addRow(buttons)
        self._update()

    def square_mm(self) -> float:
        return square_mm_to_fit(self.map, self.width_cm.value(), self.height_cm.value())

    def _update(self) -> None:
        fitted = dataclasses.replace(self.map, square_size_mm=self.square_mm())
        self.outcome.setText(f"Squares of {fitted.square_size_mm:g} mm: {size_summary(fitted)}")


class PropertiesDock(QScrollArea):
    """Rebuilt when the selection or the map changes; fields commit through commands."""

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.document = document
        self._building = False
        self._summary: tuple[object, str] = (None, "")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(120)
        self._timer.timeout.connect(self.rebuild)
        self.set_document(document)

    def set_document(self, document: MapDocument) -> None:
        self.document = document
        document.selectionChanged.connect(self.rebuild)
        document.mapReplaced.connect(self.rebuild)
        document.undo_stack.indexChanged.connect(self._on_index_changed)
        self.rebuild()

    # -- helpers -------------------------------------------------------------------------------

    def _attr(self, name: str) -> Callable[[Any], None]:
        def set_value(value: Any) -> None:
            if not self._building:
                change_attribute(self.document, name, value)

        return set_value

    def _use_module(self, name: Any) -> None:
        if not self._building and name != "data":
            use_module(self.document, str(name))

    def _entry(self, attr: str, key: Any, field: str) -> Callable[[Any], None]:
        def commit(value: Any) -> None:
            if self._building:
                return
            current = getattr(self.document.map, attr).get(key)
            if current is None or getattr(current, field) == value:
                return
            change_entries(
                self.document,
                attr,
                {key: dataclasses.replace(current, **{field: value})},
                f"Change {field.replace('_', ' ')}",
                merge_key=("prop", attr, key, field),
            )

        return commit

    def _on_index_changed(self, _index: int) -> None:
        self._timer.start()  # one rebuild after a burst of edits (a brush stroke)

    def rebuild(self) -> None:
        self._building = True
        try:
            root = self._build()
            self.setWidget(root)
            guard_fields(root)
        finally:
            self._building = False

    # -- content -------------------------------------------------------------------------------

    def _build(self) -> QWidget:
        doc, m = self.document, self.document.map
        root = QWidget()
        layout = QVBoxLayout(root)
        layout.addWidget(self._selection_box())
        box = QGroupBox("Map")
        form = QFormLayout(box)
        form.addRow("Id", _line(m.id, self._attr("id")))
        form.addRow("Name", _line(m.name, self._attr("name")))
        form.addRow("Author", _line(m.author, self._attr("author")))
        form.addRow("Description", _line(m.description, self._attr("description")))
        # a data rule set is edited in the Rule set dock; here a module can be picked instead
        rules: list[tuple[str, Any]] = [(name, name) for name in map_rule_set_names()]
        data = not isinstance(m.rule_set, NamedRuleSet)
        if data:
            rules.append((f"{m.rule_set.name} (data: Rule set dock)", "data"))
        form.addRow(
            "Map-Chips rules",
            _combo(rules, "data" if data else m.rule_set.name, self._use_module),
        )
        form.addRow(
            "Start squares used",
            _spin(m.setup.start_squares_used, 1, 10, self._attr("setup.start_squares_used")),
        )
        form.addRow(
            "Chips laid out", _spin(m.setup.chip_count, 0, 30, self._attr("setup.chip_count"))
        )
        form.addRow(
            "Tile pool min", _spin(m.setup.tile_pool_min, 1, 500, self._attr("setup.tile_pool_min"))
        )
        form.addRow(
            "Tile pool max", _spin(m.setup.tile_pool_max, 1, 500, self._attr("setup.tile_pool_max"))
        )
        form.addRow(
            "Meeples per player",
            _spin(m.setup.meeples_per_player, 1, 20, self._attr("setup.meeples_per_player")),
        )
        size = QDoubleSpinBox()
        size.setRange(10.0, 200.0)
        size.setSuffix(" mm")
        size.setValue(m.square_size_mm)
        size.valueChanged.connect(self._attr("square_size_mm"))
        form.addRow("Printed square", size)
        form.addRow("Grid", QLabel(f"{m.width} × {m.height} squares, {len(m.land)} map squares"))
        printed = QLabel(self._size_summary())
        printed.setObjectName("printed_size")
        printed.setWordWrap(True)
        form.addRow("Printed size", printed)
        fit = QPushButton("Fit N × M cm…")
        fit.setObjectName("fit_board")
        fit.setToolTip("Choose the printed square so the whole grid fits a board of this size")
        fit.clicked.connect(self.ask_fit)
        form.addRow("", fit)
        layout.addWidget(box)
        layout.addStretch(1)
        self.map_box = box
        self.map_fields: dict[str, QWidget] = {}
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            name = label.widget() if label is not None else None
            widget = field.widget() if field is not None else None
            if isinstance(name, QLabel) and widget is not None:
                self.map_fields[name.text()] = widget
        del doc
        return root

    def _size_summary(self) -> str:
        """:func:`size_summary`, worked out again only when the grid, the square or the land
        changed (the dock is rebuilt after every edit and on every selection)."""
        m = self.document.map
        key = (m.width, m.height, m.square_size_mm, len(m.land), hash(frozenset(m.land)))
        if self._summary[0] != key:
            self._summary = (key, size_summary(m, ("A4",)))
        return self._summary[1]

    def ask_fit(self) -> None:
        """Ask for a board size in cm and set the printed square so the grid fits it."""
        dialog = FitBoardDialog(self.document.map, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            change_attribute(self.document, "square_size_mm", dialog.square_mm())

    def show_map_properties(self, code: str = "") -> QWidget:
        """Bring the map's properties into view and focus the field an issue ``code`` is about
        (the first field when none matches). Returns the focused field."""
        self.document.select([])
        self.rebuild()
        words = {
            "tile-pool": "Tile pool max",
            "chip": "Chips laid out",
            "start": "Start squares used",
            "meeple": "Meeples per player",
            "rule": "Map-Chips rules",
            "id": "Id",
            "name": "Name",
        }
        key = next((label for word, label in words.items() if word in code), "Id")
        field = self.map_fields.get(key) or next(iter(self.map_fields.values()))
        self.ensureWidgetVisible(field)
        field.setFocus()
        return field

    def _many_rows(self, form: QFormLayout, squares: list[Square]) -> None:
        """Fields that set a value on every selected town or chip square at once (one step)."""
        m = self.document.map
        towns = [sq for sq in squares if sq in m.towns]
        chips = [sq for sq in squares if sq in m.chip_squares]
        if len(towns) > 1:
            grapes = {m.towns[sq].grape for sq in towns}
            commit = partial(self._set_many, "towns", towns, "grape")
            combo = self._many_combo(_COLOURS, grapes, commit, "many_grapes")
            form.addRow(f"Grape of {len(towns)} towns", combo)
        if len(chips) > 1:
            colours = {m.chip_squares[sq] for sq in chips}
            items = [(label, c) for label, c in _COLOURS if c is not None]
            commit = partial(self._set_many, "chip_squares", chips, "")
            combo = self._many_combo(items, colours, commit, "many_chip_colours")
            form.addRow(f"Colour of {len(chips)} chip squares", combo)

    @staticmethod
    def _many_combo(
        items: list[tuple[str, Any]], values: set[Any], commit: Callable[[Any], None], name: str
    ) -> QComboBox:
        """A choice for many elements: their one value, or "(mixed)" first while they differ."""
        mixed = len(values) > 1
        combo = _combo(
            [(MIXED, MIXED), *items] if mixed else items,
            MIXED if mixed else next(iter(values)),
            commit,
        )
        combo.setObjectName(name)
        return combo

    def _set_many(self, attr: str, keys: list[Square], field: str, value: Any) -> None:
        if self._building or value is MIXED:
            return
        entries = getattr(self.document.map, attr)
        changes = {
            key: dataclasses.replace(entries[key], **{field: value}) if field else value
            for key in keys
        }
        what = {"towns": "towns", "chip_squares": "chip squares"}[attr]
        change_entries(self.document, attr, changes, f"Change {len(keys)} {what}")

    def _selection_box(self) -> QWidget:
        doc, m = self.document, self.document.map
        box = QGroupBox("Selection")
        form = QFormLayout(box)
        squares = sorted(doc.selection)
        if not squares and doc.selected_edge is None:
            form.addRow(QLabel("Nothing selected. Use the Select tool (V) or click an issue."))
            return box
        if len(squares) > 1:
            form.addRow("Squares", QLabel(str(len(squares))))
            self._many_rows(form, squares)
        square = squares[0] if squares else doc.selected_edge.square  # type: ignore[union-attr]
        form.addRow("Square", QLabel(f"({square[0]}, {square[1]})"))
        if square in m.start_squares:
            form.addRow(
                "Start square",
                _line(m.start_squares[square].name, self._entry("start_squares", square, "name")),
            )
        if square in m.towns:
            town = m.towns[square]
            form.addRow("Town", _line(town.name, self._entry("towns", square, "name")))
            form.addRow(
                "Grape", _combo(_COLOURS, town.grape, self._entry("towns", square, "grape"))
            )
        if square in m.chip_squares:
            form.addRow("Chip square", QLabel(m.chip_squares[square].value))
        city = m.large_cities.get(doc.selected_city or "") or m.city_at(square)
        if city is not None:
            form.addRow(
                "Large city", _line(city.name, self._entry("large_cities", city.id, "name"))
            )
            form.addRow(
                "Coats of arms",
                _spin(
                    city.coats_of_arms, 0, 20, self._entry("large_cities", city.id, "coats_of_arms")
                ),
            )
            sides = ", ".join(str(e) for e in city.open_sides()) or "none (Ctrl+click an edge)"
            form.addRow("Open sides", QLabel(sides))
        edge = doc.selected_edge
        if edge is not None and edge in m.border_features:
            feature = m.border_features[edge]
            form.addRow("Border feature", QLabel(str(edge)))
            form.addRow(
                "Kind",
                _combo(
                    [("road", EdgeKind.ROAD), ("city", EdgeKind.CITY)],
                    feature.kind,
                    self._entry("border_features", edge, "kind"),
                ),
            )
            form.addRow(
                "Coats of arms",
                _spin(
                    feature.coats_of_arms,
                    0,
                    9,
                    self._entry("border_features", edge, "coats_of_arms"),
                ),
            )
            form.addRow(
                "Neighbour",
                _line(feature.neighbour, self._entry("border_features", edge, "neighbour")),
            )
        ferry = m.ferries.get(doc.selected_ferry or "")
        if ferry is not None:
            form.addRow("Ferry", QLabel(f"{ferry.a} ↔ {ferry.b}"))
            form.addRow(
                "Coats of arms",
                _spin(ferry.coats_of_arms, 0, 9, self._entry("ferries", ferry.id, "coats_of_arms")),
            )
        hit = m.island_square(square)
        if hit is not None:
            island, info = hit
            form.addRow("Island", _line(island.name, self._entry("islands", island.id, "name")))
            form.addRow(
                "Colour",
                _combo(_COLOURS, island.colour, self._entry("islands", island.id, "colour")),
            )

            def set_square(field: str) -> Callable[[Any], None]:
                def commit(value: Any) -> None:
                    if self._building:
                        return
                    current = m.islands[island.id]
                    squares_ = dict(current.squares)
                    squares_[square] = dataclasses.replace(squares_[square], **{field: value})
                    change_entries(
                        doc,
                        "islands",
                        {island.id: dataclasses.replace(current, squares=squares_)},
                        f"Change island square {field}",
                        merge_key=("prop", "island", square, field),
                    )

                return commit

            form.addRow(
                "Role", _combo([(r.value, r) for r in IslandRole], info.role, set_square("role"))
            )
            form.addRow(
                "Square coats of arms", _spin(info.coats_of_arms, 0, 9, set_square("coats_of_arms"))
            )
        return box
