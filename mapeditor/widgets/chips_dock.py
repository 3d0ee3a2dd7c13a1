"""Chip layouts in the editor: a generated even layout as an overlay, re-rolled on demand, and
the exact feasibility (most chips that fit) for every choice of used start squares. A rule set
that lays no random layout gets a sentence saying where its chips go instead; chips on the
designer's marks are shown on the map like a layout."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.chips import ChipReading, evenness, generate_layout
from engine.errors import EngineError
from engine.geometry import Square
from engine.mapdef import MapDef
from engine.rules.data.interpret import mark_chip_counts
from engine.rules.data.rules import DataRules
from engine.rules.data.ruleset import RuleSetSpec
from engine.rules.registry import map_chip_layout, map_rules
from engine.rules.spec import LayoutKind
from engine.startchoices import chip_proof, first_choices
from mapeditor import offload
from mapeditor.document import MapDocument


def _layout_note(m: MapDef | str) -> str | None:
    """Where ``m``'s rule set puts its chips when it has no random layout to show, or ``None``
    if it has one."""
    try:
        rules = map_rules(m)
    except EngineError as exc:  # a data rule set with mistakes: the validation lists them
        text = str(exc)
        return text[:1].upper() + text[1:]
    if rules is None:
        return "Choose a Map-Chips rule set that lays out chips (map properties)."
    layout = rules.chip_layout
    if layout.random:
        return None
    if layout.kind is LayoutKind.FIXED:
        return f"{rules.title} places its chips on the map's printed chip squares, by colour."
    spec = rules.spec if issubclass(rules, DataRules) else None
    if spec is not None and spec.layout.kind == "marks":
        return _marks_note(spec, m if isinstance(m, MapDef) else None)
    if spec is not None and spec.layout.kind == "supply":
        return (
            f"{rules.title} keeps its chips face down in a supply beside the map: "
            "none lie on the map."
        )
    return f"{rules.title} puts no chips on the map."


def _marks_note(spec: RuleSetSpec, m: MapDef | None) -> str:
    """What a rule set that lays its chips on the designer's marks does with ``m``'s marks."""
    carrying = [k for k in spec.marks if k.chips]
    each = "; ".join(f"{k.chips} face {k.chips_face} on each {k.name}" for k in carrying)
    text = f"{spec.display_title} lays its chips on its marks, not in a layout: {each or 'none'}."
    if m is None or not carrying:
        return text
    total = spec.supply.total
    counts = _mark_chips(spec, m)
    marked = sum(1 for mk in m.marks.values() if mk.mark in {k.id for k in carrying})
    if not marked:
        names = " or ".join(k.name for k in carrying)
        return f"{text} The map has no {names} yet (the Designer marks tool paints them)."
    placed = sum(counts.values())
    rest = f"{total - placed} lie beside the map" if placed < total else "none is left over"
    text += f" On this map {len(counts)} marked squares take {placed} of the {total} chips; {rest}."
    if len(counts) < marked:
        text += f" {marked - len(counts)} marked squares get none: the chips run out."
    return text


def _mark_chips(spec: RuleSetSpec, m: MapDef) -> dict[Square, int]:
    """The chips on each of ``m``'s marked squares at set-up (as the game lays them)."""
    return mark_chip_counts(spec, {sq: mk.mark for sq, mk in m.marks.items()}, spec.supply.total)


class _Signals(QObject):
    done = Signal(int, object)


class ChipsDock(QWidget):
    """Shows a chip layout for the chosen start squares; ``layoutChanged(list)`` for the overlay."""

    layoutChanged = Signal(object)

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.starts = QComboBox()
        self.reading = QComboBox()
        for r in ChipReading:
            self.reading.addItem(r.value.replace("_", " "), r)
        self.seed = QSpinBox()
        self.seed.setRange(0, 1_000_000)
        self.show_button = QPushButton("Show layout")
        self.reroll = QPushButton("Re-roll")
        self.hide_button = QPushButton("Hide")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.feasible = QLabel()
        self.feasible.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Used start squares", self.starts)
        form.addRow("Large-city reading", self.reading)
        form.addRow("Seed", self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        for b in (self.show_button, self.reroll, self.hide_button):
            layout.addWidget(b)
        layout.addWidget(self.status)
        self.heading = QLabel()
        layout.addWidget(self.heading)
        layout.addWidget(self.feasible)
        layout.addStretch(1)
        self.show_button.clicked.connect(self.show_layout)
        self.reroll.clicked.connect(self._reroll)
        self.hide_button.clicked.connect(lambda: self.layoutChanged.emit([]))
        self.reading.currentIndexChanged.connect(self._on_index_changed)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(400)
        self._timer.timeout.connect(self.refresh)
        self._signals = _Signals()
        self._signals.done.connect(self._on_feasibility)
        self._generation = 0
        self.set_document(document)

    def set_document(self, document: MapDocument) -> None:
        self.document = document
        document.undo_stack.indexChanged.connect(self._on_index_changed)
        document.mapReplaced.connect(self._timer.start)
        self.refresh()

    def _on_index_changed(self, _index: int) -> None:
        self._timer.start()  # debounced: one refresh after a burst of edits

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._timer.start()

    def _names(self, choice: tuple[Square, ...]) -> str:
        m = self.document.map
        return ", ".join(
            m.start_squares[s].name if s in m.start_squares else str(s) for s in choice
        )

    def refresh(self) -> None:
        m = self.document.map
        current = self.starts.currentData()
        self.starts.blockSignals(True)
        self.starts.clear()
        try:
            choices = first_choices(m)  # never every one of C(40, 20) choices
        except EngineError:
            choices = []
        for choice in choices:
            self.starts.addItem(self._names(choice), choice)
        index = self.starts.findData(current)
        self.starts.setCurrentIndex(max(0, index))
        self.starts.blockSignals(False)
        note = _layout_note(m)
        marks = self._marks_spec()
        for w in (self.starts, self.reading, self.seed, self.reroll):
            w.setEnabled(note is None)  # they shape a random layout only
        self.show_button.setEnabled(note is None or marks is not None)
        self.show_button.setText("Show chips on marks" if marks is not None else "Show layout")
        self.heading.setText(
            "<b>Feasibility</b> (most chips that fit, exact):"
            if note is None
            else "<b>Where the chips go</b>"
        )
        if note is not None:
            self.feasible.setText(note)
            return
        if not self.isVisible():
            return  # computed when the dock is shown
        self._generation += 1
        self.feasible.setText("Computing…")
        # the exact proof is a matching per start choice: seconds on a 200x200 map, so it runs
        # in the helper process, never on the UI thread or beside it
        offload.run_to_signal(
            chip_proof,
            (m.copy(), self.reading.currentData(), map_chip_layout(m)),
            self._signals.done,
            self._generation,
        )

    def _on_feasibility(self, generation: int, result: object) -> None:
        if generation != self._generation:
            return  # the map changed meanwhile
        if isinstance(result, Exception):  # EngineError: a map the proof cannot read
            self.feasible.setText(str(result) or type(result).__name__)
            return
        need = self.document.map.setup.chip_count
        lines = [
            f"{'✔' if most >= need else '✖'} {self._names(choice)}: {most}"
            for choice, most in result.items()  # type: ignore[attr-defined]
        ]
        self.feasible.setText(
            "<br>".join(lines) + f"<br>(needs {need})" if lines else "No start squares yet."
        )

    def _marks_spec(self) -> RuleSetSpec | None:
        """The map's rule set when it lays its chips on the designer's marks, else ``None``."""
        try:
            rules = map_rules(self.document.map)
        except EngineError:
            return None
        if rules is None or not issubclass(rules, DataRules):
            return None
        return rules.spec if rules.spec.layout.kind == "marks" else None

    def show_layout(self) -> list[Square]:
        m = self.document.map
        spec = self._marks_spec()
        if spec is not None:
            counts = _mark_chips(spec, m)
            shown = sorted(counts)
            self.status.setText(
                f"{sum(counts.values())} chips on {len(shown)} marked squares, as a game lays them"
                if shown
                else "No marked square takes chips yet."
            )
            self.layoutChanged.emit(shown)
            return shown
        choice = self.starts.currentData()
        if choice is None:
            self.status.setText("The map needs start squares first.")
            return []
        try:
            layout = generate_layout(
                m,
                choice,
                m.setup.chip_count,
                seed=self.seed.value(),
                reading=self.reading.currentData(),
                chip_layout=map_chip_layout(m),
            )
        except EngineError as exc:
            self.status.setText(str(exc))
            self.layoutChanged.emit([])
            return []
        self.status.setText(
            f"{len(layout)} chips, evenness {evenness(m, layout):.2f} (1.0 = a perfect lattice)"
        )
        self.layoutChanged.emit(layout)
        return layout

    def _reroll(self) -> None:
        self.seed.setValue(self.seed.value() + 1)
        self.show_layout()
