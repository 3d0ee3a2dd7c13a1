"""A Qt list model over the validator's issues (the list is the source of truth)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from engine.validation import Issue, Severity

_Index = QModelIndex | QPersistentModelIndex


class IssuesModel(QAbstractListModel):
    """Errors first, then warnings; each row ``"code: message"``."""

    IssueRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self) -> None:
        super().__init__()
        self.issues: list[Issue] = []

    def set_issues(self, issues: list[Issue]) -> None:
        self.beginResetModel()
        self.issues = sorted(issues, key=lambda i: (i.severity is not Severity.ERROR, i.code))
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self.issues)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        issue = self.issues[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            mark = "✖" if issue.severity is Severity.ERROR else "⚠"
            return f"{mark} {issue.code}: {issue.message}"
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor(190, 20, 20) if issue.severity is Severity.ERROR else QColor(170, 100, 0)
        if role == Qt.ItemDataRole.ToolTipRole:
            return issue.message
        if role == self.IssueRole:
            return issue
        return None

    def counts(self) -> tuple[int, int]:
        errors = sum(1 for i in self.issues if i.severity is Severity.ERROR)
        return errors, len(self.issues) - errors
