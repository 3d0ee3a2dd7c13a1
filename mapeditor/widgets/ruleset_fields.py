"""A form bound to the fields of a rule-set dict: the Rule set dock's widgets, field by field.

Every widget edits one field (a JSON path of the dict: ``("rules", 0, "then", 0, "amount")``):
it shows the document's value, and an edit becomes a command (:mod:`mapeditor.ruleset_edits`);
the checker's problems, which name a JSON path, mark the field they name (red, with the
reason as its tooltip) and fill the line kept under each entry's form.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QWidget,
)

from engine.rules.data import RuleSetProblem
from mapeditor import ruleset_edits as edits
from mapeditor.document import MapDocument
from mapeditor.ruleset_data import Path_, bounds, path_text

INVALID = QColor(255, 196, 196)
"""The background of a field with a mistake (a palette colour: a style sheet would resize it)."""
WORDS = {
    "border_coa": "border road/city with coat of arms",
    "town_colour": "town of the paid colour",
    "gated_coa_islands": "gated islands with coats of arms",
    "border_road_needs_coa": "a border road needs a coat of arms",
    "when_nothing_parked": "also when nothing is parked",
    "park_meeple": "parks a meeple (Isle of Man)",
    "in_extra_turns": "offered in extra turns too",
}
"""Words for the names of fields and choices, where replacing ``_`` is not enough."""
PROBLEM_LINES = 3
"""Lines kept for the checker's words under a form (and at the top), shown or not."""


def label_of(text: str) -> str:
    """A field's or a choice's name in words."""
    return WORDS.get(text, text.replace("_", " "))


def compact(combo: QComboBox) -> QComboBox:
    """A combo box that fits a narrow dock (long labels are cut, shown whole in the popup)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)
    return combo


def form_layout(box: QWidget) -> QFormLayout:
    """A form whose long rows put the label above the field in a narrow dock."""
    form = QFormLayout(box)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    return form


@dataclass
class Field:
    """One editor widget bound to a field of the rule-set dict."""

    path: Path_
    widget: QWidget
    show: Callable[[Any], None]
    """Put a value from the dict into the widget (signals are blocked meanwhile)."""
    default: Any = None


class FieldForm(QScrollArea):
    """A scrolling form of fields of the document's data rule set (see the module docstring)."""

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.fields: list[Field] = []
        self.problems: list[RuleSetProblem] = []
        self.problem_lines: list[tuple[str, QLabel]] = []
        self.text_errors: dict[str, RuleSetProblem] = {}
        """Fields whose text is not JSON: the reason, by field (the document is unchanged)."""

    def content(self) -> dict[str, Any] | None:
        return edits.content(self.document)

    def _mark_problems(self) -> None:
        """Show the problems on their fields (the dock adds its own lists)."""

    # -- form parts ------------------------------------------------------------------------------

    def _bind(
        self, path: Path_, widget: QWidget, show: Callable[[Any], None], default: Any = None
    ) -> QWidget:
        widget.setObjectName("rs:" + path_text(path))
        self.fields.append(Field(path, widget, show, default))
        return widget

    def _commit(self, path: Path_) -> Callable[[Any], None]:
        def commit(value: Any) -> None:
            edits.set_field(self.document, path, value)

        return commit

    def _line(self, path: Path_) -> QWidget:
        edit = QLineEdit()
        edit.editingFinished.connect(lambda: self._commit(path)(edit.text()))

        def show(v: Any) -> None:
            text = v if isinstance(v, str) else ""
            if edit.text() != text:
                edit.setText(text)
                edit.setCursorPosition(0)  # a long description shows its beginning

        return self._bind(path, edit, show, "")

    def _spin(
        self, path: Path_, *, special: str = "", commit: Callable[[int], object] | None = None
    ) -> QSpinBox:
        """A spin box bounded by the schema; ``commit`` replaces the plain field edit."""
        spin = QSpinBox()
        lo, hi = bounds(path)
        if special:  # the lowest value stands for null (``layout.count``: the map's setup)
            spin.setRange(lo - 1, hi)
            spin.setSpecialValueText(special)
            spin.valueChanged.connect(lambda v: self._commit(path)(None if v < lo else v))
        else:
            spin.setRange(lo, hi)
            spin.valueChanged.connect(commit or self._commit(path))
        spin.setKeyboardTracking(False)

        def show(v: Any) -> None:
            number = isinstance(v, int) and not isinstance(v, bool)
            spin.setValue(int(v) if number else spin.minimum())

        self._bind(path, spin, show)
        return spin

    def _check(self, path: Path_, text: str, default: bool = False) -> QCheckBox:
        box = QCheckBox(text)
        box.toggled.connect(self._commit(path))
        self._bind(path, box, lambda v: box.setChecked(bool(v)), default)
        return box

    def _choice(
        self,
        path: Path_,
        items: list[tuple[str, Any]],
        commit: Callable[[Any], object] | None = None,
    ) -> QComboBox:
        combo = compact(QComboBox())
        for label, value in items:
            combo.addItem(label, value)
        done = commit or self._commit(path)
        combo.activated.connect(lambda i: done(combo.itemData(i)))

        def show(v: Any) -> None:
            i = next((k for k in range(combo.count()) if combo.itemData(k) == v), -1)
            if i < 0:
                combo.addItem(f"{v!r} (unknown)", v)
                i = combo.count() - 1
            combo.setCurrentIndex(i)

        self._bind(path, combo, show)
        return combo

    @staticmethod
    def _shows_member(
        check: QCheckBox, member: str, members: Callable[[], list[str]]
    ) -> Callable[[Any], None]:
        """A list field shown as one check box per member."""

        def show(_value: Any) -> None:
            check.setChecked(member in members())

        return show

    def field_widget(self, path: Path_) -> QWidget | None:
        """The widget editing ``path`` (tests, and focusing a problem)."""
        return next((f.widget for f in self.fields if f.path == path), None)

    def spin_box(self, path: Path_) -> QSpinBox:
        """The spin box editing the number at ``path``.

        :raises KeyError: no spin box edits it (the form shows another mechanic, or no data).
        """
        widget = self.field_widget(path)
        if not isinstance(widget, QSpinBox):
            raise KeyError(path_text(path))
        return widget

    def _fields_of(self, problem_path: str) -> list[int]:
        """The fields a problem at ``problem_path`` is about: the field itself, those inside it,
        or else the nearest field that holds it."""
        texts = [path_text(f.path) for f in self.fields]
        exact = [i for i, t in enumerate(texts) if t == problem_path]
        if exact:
            return exact
        inside = [
            i
            for i, t in enumerate(texts)
            if problem_path
            and (t.startswith(problem_path + ".") or t.startswith(problem_path + "["))
        ]
        if inside:
            return inside
        holders = [
            (len(t), i)
            for i, t in enumerate(texts)
            if problem_path.startswith(t + ".") or problem_path.startswith(t + "[")
        ]
        return [max(holders)[1]] if holders else []

    def _problem_line(self, at: Path_) -> QLabel:
        """The checker's lines about ``at`` (an entry's form), in a space kept for them: the
        form does not move when a mistake appears or goes."""
        label = QLabel()
        label.setObjectName("rs-problems:" + path_text(at))
        label.setWordWrap(True)
        label.setMinimumWidth(120)
        label.setStyleSheet("color: #b00020;")
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setFixedHeight(label.fontMetrics().lineSpacing() * PROBLEM_LINES + 4)
        self.problem_lines.append((path_text(at), label))
        return label

    def _remove_button(self, path: Path_) -> QPushButton:
        button = QPushButton("✕")
        button.setObjectName("rs-remove:" + path_text(path))
        button.setToolTip(f"Remove {path_text(path)}")
        button.setFixedWidth(button.fontMetrics().horizontalAdvance("✕") + 16)
        button.clicked.connect(lambda: edits.remove_item(self.document, path))
        return button

    def _commit_or_clear(self, path: Path_) -> Callable[[Any], None]:
        def commit(value: Any) -> None:
            if value is None:
                edits.clear_field(self.document, path)
            else:
                edits.set_field(self.document, path, value)

        return commit

    def _json(self, path: Path_, commit: Callable[[Any], None]) -> QWidget:
        """A parameter written as JSON (``2``, ``{"count": "held", "resource": "salt"}``); text
        that is not JSON is refused with the reason, the document unchanged."""
        edit = QLineEdit()

        def done() -> None:
            key = path_text(path)
            try:
                value = json.loads(edit.text()) if edit.text().strip() else None
            except ValueError as exc:
                self.text_errors[key] = RuleSetProblem(
                    key, f"not JSON ({exc}); nothing was changed"
                )
                self._mark_problems()
                return
            self.text_errors.pop(key, None)
            commit(value)
            self._mark_problems()

        edit.editingFinished.connect(done)

        def show(v: Any) -> None:
            if path_text(path) in self.text_errors:
                return  # the designer's text with a mistake stays until they fix it
            text = "" if v is None else json.dumps(v)
            if edit.text() != text:
                edit.setText(text)
                edit.setCursorPosition(0)

        return self._bind(path, edit, show)
