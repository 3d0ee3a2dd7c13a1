"""The balance dialog's Tune page: what to search, what to aim at, the answer, and "Apply to map".

The rows are two :class:`~mapeditor.widgets.tune_rows.TuneRowsModel` tables with Add and Remove;
the search runs through the dialog's own run machinery (:class:`BalanceDialog.start` with
``"tune"``), so it plays in worker processes with the same progress and cancel. The answer is
the tuner's own page (:func:`engine.analysis.tune.tuning_blocks`).
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCompleter,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.analysis.report import to_html
from engine.analysis.tune import MAX_GAMES, MAX_TRIALS, tuning_blocks
from engine.errors import EngineError
from mapeditor.widgets.tune_rows import (
    SpaceCheck,
    TuneRowsModel,
    params_model,
    remembered_rows,
    targets_model,
)

__all__ = ["TunePage"]


class NamePicker(QStyledItemDelegate):
    """The name cell's editor offers the names this map can tune (typed freely too):
    completion by any part, so ``vino`` finds ``ruleset/mechanics/vino/...``."""

    def __init__(self, names: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # one completer, kept by the delegate: an editor's own child completer crashes Qt when
        # the view deletes the closed editor
        self.completer = QCompleter(names, self)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)

    def createEditor(  # noqa: N802 - Qt's name
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        if index.column() != 0:
            return super().createEditor(parent, option, index)
        editor = QLineEdit(parent)
        editor.setCompleter(self.completer)
        return editor


def _rows_box(
    title: str,
    model: TuneRowsModel,
    name: str,
    names: list[str] | None = None,
    widths: tuple[int, int, int] = (150, 56, 72),
) -> tuple[QGroupBox, QTableView]:
    """A titled table of ``model`` with Add and Remove buttons under it (``names``: what the
    name cell offers; ``widths``: the three cells')."""
    box = QGroupBox(title)
    view = QTableView()
    view.setObjectName(f"tune-{name}")
    view.setModel(model)
    if names:
        view.setItemDelegate(NamePicker(names, view))
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().setVisible(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
    for col, width in enumerate(widths):
        view.setColumnWidth(col, width)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # a rule-set path's both ends
    view.setMinimumHeight(90)
    view.setMaximumHeight(150)  # a few rows; the answer below gets the room
    problem = QLabel("")
    problem.setObjectName(f"tune-{name}-problem")
    problem.setWordWrap(True)
    problem.setStyleSheet("color: #b00020")

    def show_problem() -> None:
        # the whole message of the first row in error (the table's cell is short)
        first = next(((r, e) for r, e in enumerate(model.errors) if e), None)
        problem.setText(f"Row {first[0] + 1}: {first[1]}" if first else "")

    model.dataChanged.connect(show_problem)
    model.rowsRemoved.connect(show_problem)
    model.modelReset.connect(show_problem)  # remembered rows put back
    show_problem()
    add = QPushButton("Add")
    add.setObjectName(f"tune-{name}-add")
    remove = QPushButton("Remove")
    remove.setObjectName(f"tune-{name}-remove")

    def add_row() -> None:
        if model.add_row():
            view.setCurrentIndex(model.index(model.rowCount() - 1, 0))
            view.edit(view.currentIndex())

    def remove_row() -> None:
        model.remove_row(view.currentIndex().row())

    add.clicked.connect(add_row)
    remove.clicked.connect(remove_row)
    buttons = QHBoxLayout()
    buttons.addWidget(add)
    buttons.addWidget(remove)
    buttons.addStretch(1)
    layout = QVBoxLayout(box)
    layout.addWidget(view)
    layout.addWidget(problem)
    layout.addLayout(buttons)
    return box, view


class TunePage(QWidget):
    """Rows of numbers to search and targets, the search's settings, its answer and Apply."""

    def __init__(
        self,
        tiles: int,
        space: SpaceCheck | None = None,
        parent: QWidget | None = None,
        *,
        names: list[str] | None = None,
    ) -> None:
        """``tiles``: the tiles a game of the map plays now (the first row searches below
        it); ``space``: the map's check of a row's values; ``names``: the parameters this map
        has, offered as a parameter's name is typed."""
        super().__init__(parent)
        self.params = params_model([["tile_count", str(max(2, tiles - 30)), str(tiles)]], space)
        self.targets = targets_model([["seat1", "0.5", "0.05"]])
        params_box, self.params_view = _rows_box(
            "Search (PARAM = LOW..HIGH, or start.NAME = X,Y|X,Y|...)",
            self.params,
            "params",
            names,
            (190, 110, 44),
        )
        targets_box, self.targets_view = _rows_box(
            "Targets (FIGURE = VALUE ± TOL)", self.targets, "targets"
        )
        tables = QHBoxLayout()
        tables.addWidget(params_box, 3)  # a rule-set path and a start square's squares are long
        tables.addWidget(targets_box, 2)

        self.min_games = QSpinBox(minimum=2, maximum=MAX_GAMES, value=40)
        self.max_games = QSpinBox(minimum=2, maximum=MAX_GAMES, value=360)
        self.min_games.setToolTip(
            "Games a candidate plays first; three times as many at each later rung, up to the "
            "most. Every candidate's rung plays the same deals."
        )
        self.max_games.setToolTip(self.min_games.toolTip())
        self.trials = QSpinBox(minimum=1, maximum=MAX_TRIALS, value=30)
        self.trials.setToolTip("Candidates tried at most; the search stops at one that meets")
        self.check_games = QSpinBox(minimum=0, maximum=MAX_GAMES, value=0)
        self.check_games.setSpecialValueText("no check")
        self.check_games.setToolTip("Play the answer again on this many fresh games")
        form = QHBoxLayout()
        for label, widget in (
            ("Games per candidate", self.min_games),
            ("to", self.max_games),
            ("Candidates", self.trials),
            ("Check the answer on", self.check_games),
        ):
            form.addWidget(QLabel(label))
            form.addWidget(widget)
            form.addSpacing(8)
        form.addStretch(1)
        self.tune_button = QPushButton("Tune")
        self.tune_button.setObjectName("tune-run")
        self.tune_button.setToolTip(
            "Search the numbers with the settings above (players, bot, rules, workers, seed)"
        )
        self.apply_button = QPushButton("Apply to map")
        self.apply_button.setObjectName("tune-apply")
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Set the answer's numbers in the open map (one undo step)")
        settings = QHBoxLayout()
        settings.addLayout(form, 1)
        settings.addWidget(self.tune_button)
        settings.addWidget(self.apply_button)

        self.answer = QTextBrowser()
        self.answer.setObjectName("tune-answer")
        self.answer.setPlaceholderText("The answer: the values found and each target's figure.")
        self.applied = QLabel("")
        self.applied.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(tables)
        layout.addLayout(settings)
        layout.addWidget(self.answer, 1)
        layout.addWidget(self.applied)
        self.result: dict[str, Any] | None = None

    def rows_json(self) -> str:
        """Both tables' rows, to remember between sessions."""
        return json.dumps({"params": self.params.rows, "targets": self.targets.rows})

    def restore_rows(self, text: str) -> None:
        """Put remembered rows back; anything else (a hand-edited settings file) is skipped."""
        try:
            saved = json.loads(text)
        except ValueError:
            return
        if not isinstance(saved, dict):
            return
        for key, model in (("params", self.params), ("targets", self.targets)):
            rows = remembered_rows(saved.get(key))
            if rows:
                model.set_rows(rows)

    def settings(self) -> dict[str, Any]:
        """The tuner's arguments from the page, or the first row's error
        (:class:`EngineError`)."""
        params = self.params.values()
        targets = self.targets.values()
        if self.min_games.value() > self.max_games.value():
            raise EngineError(
                f"games per candidate: {self.min_games.value()} to {self.max_games.value()} "
                "must rise"
            )
        return {
            "params": params,
            "targets": targets,
            "trials": self.trials.value(),
            "min_games": self.min_games.value(),
            "max_games": self.max_games.value(),
            "check": self.check_games.value(),
        }

    def show_result(self, result: dict[str, Any], can_apply: bool) -> None:
        """Show the tuner's answer; Apply is offered when it found values and a map is open."""
        self.result = result
        self.answer.setHtml(to_html(tuning_blocks(result), title="Tuning"))
        self.apply_button.setEnabled(can_apply and result["best"] is not None)
        self.applied.setText("")
