"""Chip layouts in the editor: a generated even layout as an overlay, re-rolled on demand, and
the exact feasibility (most chips that fit) for every choice of used start squares."""

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
from engine.rules.registry import map_chip_layout, map_rules
from engine.rules.spec import ChipLayout, LayoutKind
from engine.startchoices import chip_proof, first_choices
from mapeditor import offload
from mapeditor.document import MapDocument


def _layout_note(m: MapDef | str) -> str | None:
    """Why there is no random layout to show for ``m``'s rule set, or ``None`` if there is one."""
    try:
        rules = map_rules(m)
    except EngineError as exc:  # a data rule set with mistakes: the validation lists them
        text = str(exc)
        return text[:1].upper() + text[1:]
    layout = rules.chip_layout if rules is not None else ChipLayout()
    if layout.random:
        return None
    if rules is not None and layout.kind is LayoutKind.FIXED:
        return f"{rules.title} places chips on its marked squares."
    return "Choose a Map-Chips rule set that lays out chips (map properties)."


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
        layout.addWidget(QLabel("<b>Feasibility</b> (most chips that fit, exact):"))
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

    def show_layout(self) -> list[Square]:
        m = self.document.map
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
