"""The tuner's rows as a table model: ``PARAM=LOW..HIGH`` searched, ``FIGURE=VALUE±TOL`` aimed at.

Each row is three cells (a name and two numbers) and a fourth, read-only, that says what the
engine's own parser (:func:`engine.analysis.tune.parse_tune`, :func:`~engine.analysis.tune.parse_target`)
makes of it: ``ok`` or its error, also the row's tooltip. A name the parser accepts is taken,
so new kinds of parameter in the tuner need no change here. A start square's choice
(``start.NAME``) is not a range: its squares go in the second cell, ``x,y|x,y|...``, and the
third stays empty.

>>> row_item("{}={}..{}", ["start.Bari", "21,17 | 19,15", ""])
'start.Bari=21,17 | 19,15'
>>> row_item("{}={}..{}", ["ruleset/supply/per_colour", "4", "8"])
'ruleset/supply/per_colour=4..8'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.analysis.candidate import START
from engine.analysis.tune import FIGURES, PARAMS, TuneParam, parse_target, parse_tune
from engine.errors import EngineError

__all__ = ["TuneRowsModel", "params_model", "remembered_rows", "row_item", "targets_model"]

Index = QModelIndex | QPersistentModelIndex
SpaceCheck = Callable[[TuneParam], None]
"""``check(param)`` raises :class:`EngineError` when the map refuses one of the parameter's
values (:func:`engine.analysis.tune.check_space`: every choice, every number of a rule-set
range, the ends of the others)."""
MAX_ROWS = 12
"""More rows than the tuner takes are refused by its parser; the table stops a little above."""
BAD = QColor(255, 225, 225)
MAX_CELL = 100
MAX_SAID = 200
"""Rows' checks kept at most (one per row text tried)."""
"""Characters in a remembered cell (a settings file edited by hand may hold anything)."""


def remembered_rows(value: Any) -> list[list[str]] | None:
    """Rows read back from the settings (a list of three short strings each), or ``None``
    when ``value`` is not such a list.

    >>> remembered_rows([["tile_count", "80", "114"]])
    [['tile_count', '80', '114']]
    >>> remembered_rows([["tile_count", 80]]) is None
    True
    """
    if not isinstance(value, list) or len(value) > MAX_ROWS:
        return None
    for row in value:
        if not (isinstance(row, list) and len(row) == 3):
            return None
        if not all(isinstance(c, str) and len(c) <= MAX_CELL for c in row):
            return None
    return [list(r) for r in value]


def row_item(fmt: str, row: list[str]) -> str:
    """A row as the command line writes it: ``fmt`` with its cells, or ``start.NAME=SQUARES``
    for a start square's choice (no range)."""
    name, a, b = (t.strip() for t in row)
    if name.startswith(START) and fmt.startswith("{}={}.."):
        return f"{name}={a}"
    return fmt.format(name, a, b)


class TuneRowsModel(QAbstractTableModel):
    """Rows of ``[name, a, b]``, each written as ``fmt.format(name, a, b)`` and checked by
    ``parse([item, ...])``; ``space`` (optional) checks a parsed row's values against the map
    (the tuner's values must be playable)."""

    def __init__(
        self,
        headers: tuple[str, str, str],
        fmt: str,
        parse: Callable[[list[str]], list[Any]],
        hint: str,
        rows: list[list[str]] | None = None,
        space: SpaceCheck | None = None,
    ) -> None:
        super().__init__()
        self.headers = (*headers, "Check")
        self.fmt = fmt
        self.parse = parse
        self.hint = hint
        self.space = space
        self.rows: list[list[str]] = [list(r) for r in rows or []]
        self.errors: list[str] = []
        self._space_said: dict[str, str] = {}
        """The map's word on each row checked (a rule-set range plays up to 200 set-ups), kept
        until the settings it depends on change (:meth:`recheck`)."""
        self._check()

    # -- the rows as the tuner takes them ---------------------------------------------------------

    def item(self, row: int) -> str:
        """Row ``row`` as the command line writes it (``tile_count=80..114``)."""
        return row_item(self.fmt, self.rows[row])

    def items(self) -> list[str]:
        return [self.item(r) for r in range(len(self.rows))]

    def values(self) -> list[Any]:
        """The parsed rows (:class:`TuneParam` or :class:`Target`), or the parser's error
        (the first row's that has one, or the list's own, e.g. no rows)."""
        self._check()
        for r, error in enumerate(self.errors):
            if error:
                raise EngineError(f"row {r + 1}: {error}")
        return self.parse(self.items())

    def _row_error(self, row: int) -> str:
        item = self.item(row)
        name = self.rows[row][0].strip()
        earlier = [self.item(r) for r in range(row) if self.rows[r][0].strip() == name]
        try:
            (parsed,) = self.parse([item])
            self.parse([*earlier[:1], item])  # the same name twice: the parser's words
        except EngineError as exc:
            return str(exc)
        if self.space is None or not isinstance(parsed, TuneParam):
            return ""
        if item not in self._space_said:
            if len(self._space_said) > MAX_SAID:
                self._space_said.clear()
            try:
                self.space(parsed)
                self._space_said[item] = ""
            except EngineError as exc:
                self._space_said[item] = str(exc)
        return self._space_said[item]

    def _check(self) -> None:
        self.errors = [self._row_error(r) for r in range(len(self.rows))]

    def recheck(self) -> None:
        """Check every row again (the map's settings changed)."""
        self._space_said.clear()
        self._refresh()

    def _refresh(self) -> None:
        """Check every row again, the map's word on a row already checked taken as said."""
        self._check()
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 3))

    # -- Qt's model -------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's names
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 4

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.ToolTipRole:
            return self.hint
        return super().headerData(section, orientation, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return base | Qt.ItemFlag.ItemIsEditable if index.column() < 3 else base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        error = self.errors[row]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col < 3:
                return self.rows[row][col]
            return error or "ok"
        if role == Qt.ItemDataRole.ToolTipRole:
            return error or f"{self.item(row)}: ok"
        if role == Qt.ItemDataRole.BackgroundRole and error:
            return BAD
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if not index.isValid() or index.column() >= 3 or role != Qt.ItemDataRole.EditRole:
            return False
        self.rows[index.row()][index.column()] = str(value).strip()
        self._refresh()  # a name given twice marks the other row too
        return True

    def set_rows(self, rows: list[list[str]]) -> None:
        """Replace every row (each of three cells; at most :data:`MAX_ROWS`)."""
        self.beginResetModel()
        self.rows = [list(r) for r in rows[:MAX_ROWS]]
        self._check()
        self.endResetModel()

    def add_row(self, name: str = "", a: str = "", b: str = "") -> bool:
        """Append a row (``False`` when the table is full)."""
        if len(self.rows) >= MAX_ROWS:
            return False
        end = len(self.rows)
        self.beginInsertRows(QModelIndex(), end, end)
        self.rows.append([name, a, b])
        self.errors.append("")
        self.endInsertRows()
        self._refresh()
        return True

    def remove_row(self, row: int) -> None:
        if not 0 <= row < len(self.rows):
            return
        self.beginRemoveRows(QModelIndex(), row, row)
        del self.rows[row]
        del self.errors[row]
        self.endRemoveRows()
        self._refresh()


def params_model(rows: list[list[str]], space: SpaceCheck | None = None) -> TuneRowsModel:
    """The searched numbers: ``PARAM=LOW..HIGH``, or ``start.NAME`` and its squares."""
    known = ", ".join(PARAMS)
    return TuneRowsModel(
        ("Parameter", "Low / squares", "High"),
        "{}={}..{}",
        parse_tune,
        f"What to search: {known}, rule.NAME (a numeric option of the map's rule set) or "
        "ruleset/PATH (a number inside its rule-set file or embedded rule set), between Low "
        "and High; or start.NAME (where start square NAME lies) with its squares x,y|x,y|... "
        "under Low and High left empty",
        rows,
        space,
    )


def targets_model(rows: list[list[str]]) -> TuneRowsModel:
    """The targets: ``FIGURE=VALUE±TOL``."""
    known = ", ".join(FIGURES)
    return TuneRowsModel(
        ("Figure", "Value", "Tolerance"),
        "{}={}±{}",
        parse_target,
        f"What to aim at: {known}, or share.KIND (KIND's share of the points, e.g. share.field), "
        "within Value ± Tolerance",
        rows,
    )
