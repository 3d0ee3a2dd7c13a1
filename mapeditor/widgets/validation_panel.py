"""The validation dock: re-validates after every change (debounced, in the helper process of
:mod:`mapeditor.offload`, so the UI never waits for it) and lists the issues; clicking one selects
and centres what it is about. A data rule set with mistakes is listed field by field
(:func:`mapeditor.ruleset_data.validate`)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QListView, QVBoxLayout, QWidget

from engine.geometry import Square
from engine.mapdef import MapDef
from engine.validation import Issue, Severity, Where
from mapeditor import offload, ruleset_data
from mapeditor.document import MapDocument
from mapeditor.issues_model import IssuesModel


class _Signals(QObject):
    done = Signal(int, object)


def where_squares(m: MapDef, where: Where) -> set[Square]:
    """Every square an issue is about (squares, edges, city, ferry, island)."""
    out = set(where.squares) | {e.square for e in where.edges}
    if where.city and where.city in m.large_cities:
        out |= m.large_cities[where.city].squares
    if where.ferry and where.ferry in m.ferries:
        f = m.ferries[where.ferry]
        out |= {f.a.square, f.b.square}
    if where.island and where.island in m.islands:
        out |= set(m.islands[where.island].squares)
    return out


class ValidationPanel(QWidget):
    """Lists the issues of the document's map; ``activated(set_of_squares)`` on click."""

    activated = Signal(object)
    map_issue_activated = Signal(str)
    """An issue about the map as a whole (no square) was clicked; carries its code."""
    rule_set_issue_activated = Signal(object)
    """An issue about the rule set's data (no square: ``ruleset-invalid``) was clicked; carries
    the :class:`Issue`."""
    validated = Signal()
    DELAY_MS = 250

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = IssuesModel()
        self.summary = QLabel("Validating…")
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.clicked.connect(self._on_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(self.view)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.DELAY_MS)
        self._timer.timeout.connect(self.run_now)
        self._signals = _Signals()
        self._signals.done.connect(self._on_done)
        self._generation = 0
        self.document = document
        self.set_document(document)

    def set_document(self, document: MapDocument) -> None:
        self.document = document
        document.squaresChanged.connect(self._on_changed)
        # The previous map's issues (and their markers) go at once; answers still on their way
        # for it are dropped by the generation check.
        self._generation += 1
        self.model.set_issues([])
        self.summary.setText("Validating…")
        self.validated.emit()
        self.schedule()

    def _on_changed(self, _squares: object) -> None:
        self.schedule()

    def schedule(self) -> None:
        self._timer.start()

    def run_now(self) -> None:
        """Validate a snapshot of the map in the validation helper process (a thread of Qt's
        pool only when no helper process can run, see :mod:`mapeditor.offload`)."""
        self._generation += 1
        offload.run_to_signal(
            ruleset_data.validate, (self.document.snapshot(),), self._signals.done, self._generation
        )

    def _on_done(self, generation: int, issues: list[Issue] | Exception) -> None:
        if generation != self._generation:
            return  # a newer edit is being validated
        if isinstance(issues, Exception):  # never lose the panel to a validator bug
            issues = [Issue(Severity.ERROR, "validator-failure", str(issues), Where())]
        self.model.set_issues(list(self.document.load_issues) + list(issues))
        errors, warnings = self.model.counts()
        self.summary.setText(
            "No problems found."
            if not (errors or warnings)
            else f"{errors} error(s), {warnings} warning(s)"
        )
        self.validated.emit()

    def _on_clicked(self, index: QModelIndex) -> None:
        issue: Issue = self.model.data(index, IssuesModel.IssueRole)
        where = issue.where
        squares = where_squares(self.document.map, where)
        if not squares:
            if issue.code.startswith("ruleset-"):
                self.rule_set_issue_activated.emit(issue)
            else:
                self.map_issue_activated.emit(issue.code)
            return
        self.document.select(
            squares,
            edge=where.edges[0] if where.edges else None,
            city=where.city,
            ferry=where.ferry,
            island=where.island,
        )
        self.activated.emit(squares)

    def marker_squares(self) -> tuple[set[Square], set[Square]]:
        errors: set[Square] = set()
        warnings: set[Square] = set()
        for issue in self.model.issues:
            target = errors if issue.severity is Severity.ERROR else warnings
            target |= where_squares(self.document.map, issue.where)
        return errors, warnings - errors
