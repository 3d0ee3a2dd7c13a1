"""The Rule set dock: what Map-Chips rules the map plays, and the editor of its data rule set.

A map plays a Map-Chips module, nothing, or its own data rule set (a Map-Chips mini-expansion
as data: :mod:`engine.rules.data`), embedded or kept in a ``*.ruleset.json`` file beside it.
The dock copies in a preset, edits every number of it (spin boxes bounded by the schema), adds
and removes mechanics (kinds and parameters from ``MECHANIC_KINDS``), and moves the rule set
into its own file or back. Every change is a command (:mod:`mapeditor.ruleset_edits`); the
form only shows the document, so undo and redo show up here by themselves. Fields with a
mistake are marked red with the reason, as the issues list reports them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.mapdef import NamedRuleSet, UnreadableRuleSet
from engine.rules.data import (
    MECHANIC_KINDS,
    PRINT_NAMES,
    RuleSetError,
    RuleSetProblem,
    preset_names,
    preset_spec,
)
from engine.rules.data.lang import (
    ICONS,
    LIMIT_PER,
    MAX_MARKS,
    MAX_RESOURCES,
    MAX_RULES,
    TRIGGERS,
)
from engine.rules.registry import map_rule_set_names
from engine.validation import Issue
from mapeditor import ruleset_edits as edits
from mapeditor.document import MapDocument
from mapeditor.folders import start_dir
from mapeditor.ruleset_data import (
    FILE_SUFFIX,
    SHEET_SETUP,
    TERM_TABLES,
    Path_,
    bounds,
    content_of,
    description,
    entry_summary,
    get,
    id_choices,
    kind_params,
    mechanic_summary,
    path_text,
    problems_of,
)
from mapeditor.ruleset_files import write_atomically
from mapeditor.widgets.field_guard import guard_fields

RULE_SET_FILTER = f"Rule sets (*{FILE_SUFFIX});;JSON files (*.json);;All files (*)"
INVALID = QColor(255, 196, 196)
"""The background of a field with a mistake (a palette colour: a style sheet would resize it)."""
MODULE_TITLES = {
    "none": "No Map-Chips rules",
    "france": "France (module)",
    "benelux": "Benelux (module)",
    "great_britain": "Great Britain (module)",
    "iberica": "Península Ibérica (module)",
    "deutschland": "Deutschland (module)",
}
MAX_WIDTH = 340
"""The dock grows to fit its form up to this width (pixels); beyond, the form scrolls."""
DATA = "data"
"""The source combo's entry for the map's own data rule set."""


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
LANG_WORDS = {"resources": "resource", "marks": "mark", "rules": "rule"}
LANG_MAX = {"resources": MAX_RESOURCES, "marks": MAX_MARKS, "rules": MAX_RULES}
TERM_WORDS = {"if": "condition", "cost": "cost", "then": "effect"}
PROBLEM_LINES = 3
"""Lines kept for the checker's words under a form (and at the top), shown or not."""
PLACES = {"border_coa": "at the border", "town_colour": "at a town", "anywhere": "anywhere"}


def _label(text: str) -> str:
    return WORDS.get(text, text.replace("_", " "))


def _compact(combo: QComboBox) -> QComboBox:
    """A combo box that fits a narrow dock (long labels are cut, shown whole in the popup)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)
    return combo


def _form(box: QWidget) -> QFormLayout:
    """A form whose long rows put the label above the field in a narrow dock."""
    form = QFormLayout(box)
    form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
    return form


_NOT_BUILT = object()
"""The form's shape before it is built for the current document."""


@dataclass
class _Field:
    """One editor widget bound to a field of the rule-set dict."""

    path: Path_
    widget: QWidget
    show: Callable[[Any], None]
    """Put a value from the dict into the widget (signals are blocked meanwhile)."""
    default: Any = None


class RuleSetDock(QScrollArea):
    """The map's rule set; a data rule set's fields as forms (see the module docstring)."""

    status = Signal(str)
    """A message for the status bar (what a file action did)."""

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.document = document
        self.fields: list[_Field] = []
        self.problems: list[RuleSetProblem] = []
        self.mechanic_index = 0
        self._shape: object = None
        self.mechanics_model = QStandardItemModel(self)
        self.lang_models: dict[str, QStandardItemModel] = {}
        self.lang_index: dict[str, int] = {}
        self.problem_lines: list[tuple[str, QLabel]] = []
        self.text_errors: dict[str, RuleSetProblem] = {}
        """Fields whose text is not JSON: the reason, by field (the document is unchanged)."""
        self.problem_label = QLabel(self)  # replaced by the form's own (a child: never leaks)
        self.problem_label.hide()
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self._fit_width)
        root = QWidget()
        self.root_layout = QVBoxLayout(root)
        self._build_source()
        self.editor = QWidget()
        self.editor_layout = QVBoxLayout(self.editor)
        self.editor_layout.setContentsMargins(0, 0, 0, 0)
        self.root_layout.addWidget(self.editor)
        self.root_layout.addStretch(1)
        self.setWidget(root)
        self.set_document(document)
        self._fit_width()

    # -- the document ------------------------------------------------------------------------

    def set_document(self, document: MapDocument) -> None:
        old = self.document
        if old is not document:
            # the old map's edits must not refresh the dock any more
            old.ruleSetChanged.disconnect(self.refresh)
            old.fileChanged.disconnect(self._show_source)
        self.document = document
        document.ruleSetChanged.connect(self.refresh)  # mapReplaced emits it too
        document.fileChanged.connect(self._show_source)
        # Never equal to a shape: the form is always rebuilt for a new map, also one without a
        # rule set (whose shape is None) after one with a rule set.
        self._shape = _NOT_BUILT
        self.mechanic_index = 0
        self.lang_index = {}
        self.text_errors = {}
        self.refresh()

    def content(self) -> dict[str, Any] | None:
        return edits.content(self.document)

    # -- the source: module, preset, file ---------------------------------------------------------

    def _build_source(self) -> None:
        box = QGroupBox("Map-Chips rules")
        layout = QVBoxLayout(box)
        self.source = _compact(QComboBox())
        self.source.setObjectName("ruleset_source")
        self.source.setToolTip(
            "A Map-Chips module, no rules, or the map's own data rule set (edited below)"
        )
        self.source.activated.connect(self._source_chosen)
        layout.addWidget(self.source)
        self.source_note = QLabel()
        self.source_note.setWordWrap(True)
        self.source_note.setMinimumWidth(120)
        self.source_note.setObjectName("ruleset_note")
        layout.addWidget(self.source_note)
        row = QHBoxLayout()
        self.preset_button = QPushButton("From preset")
        self.preset_button.setToolTip(
            "Copy an official mini-expansion into the map as its own rule set, to change"
        )
        menu = QMenu(self.preset_button)
        for name in preset_names():
            action = menu.addAction(preset_spec(name).display_title)
            action.setData(name)
            action.triggered.connect(lambda _=False, n=name: self.use_preset(n))
        self.preset_button.setMenu(menu)
        self.load_button = QPushButton("Load file…")
        self.load_button.setToolTip(f"Use a rule-set file (*{FILE_SUFFIX})")
        self.load_button.clicked.connect(self.load_dialog)
        self.file_button = QPushButton("Save to file…")
        self.file_button.setToolTip(
            "Keep the rule set in its own file beside the map (the map names it)"
        )
        self.file_button.clicked.connect(self.save_to_file_dialog)
        self.embed_button = QPushButton("Embed")
        self.embed_button.setToolTip("Keep the rule set inside the map file again")
        self.embed_button.clicked.connect(self.embed)
        second = QHBoxLayout()
        row.addWidget(self.preset_button)
        row.addWidget(self.load_button)
        second.addWidget(self.file_button)
        second.addWidget(self.embed_button)
        for r in (row, second):
            r.addStretch(1)
            layout.addLayout(r)
        self.root_layout.addWidget(box)

    def _show_source(self) -> None:
        ref = self.document.map.rule_set
        content = content_of(ref)
        self.source.blockSignals(True)
        self.source.clear()
        for name in map_rule_set_names():
            self.source.addItem(MODULE_TITLES.get(name, name), name)
        if isinstance(ref, NamedRuleSet):
            self.source.setCurrentIndex(max(0, self.source.findData(ref.name)))
        else:
            title = get(content, ("title",)) or ref.name
            self.source.addItem(f"Data rule set: {title}", DATA)
            self.source.setCurrentIndex(self.source.count() - 1)
        self.source.blockSignals(False)
        if isinstance(ref, NamedRuleSet):
            note = (
                "The map plays no Map-Chips rules."
                if ref.name == "none"
                else f"The map plays the {ref.name} module. Pick a preset to make a "
                "mini-expansion of your own."
            )
        else:
            where = (
                f"kept in its own file <b>{ref.file}</b> beside the map"
                if ref.file is not None
                else "embedded in the map file"
            )
            based = get(content, ("based_on",))
            note = f"The map's own rule set, {where}" + (f", based on {based}." if based else ".")
            if isinstance(ref, UnreadableRuleSet) and content is None:
                note += f"<br><span style='color:#b00020'>{ref.error}</span>"
        self.source_note.setText(note)
        self.file_button.setEnabled(content is not None)
        self.embed_button.setEnabled(ref.file is not None and content is not None)

    def _source_chosen(self, index: int) -> None:
        value = self.source.itemData(index)
        if value != DATA:
            edits.use_module(self.document, str(value))

    def use_preset(self, name: str) -> None:
        edits.use_preset(self.document, name)

    def load_dialog(self) -> None:
        start = str(start_dir(self.document.path))
        path, _ = QFileDialog.getOpenFileName(self, "Load rule set", start, RULE_SET_FILTER)
        if path:
            self.load(Path(path))

    def load(self, path: Path) -> bool:
        """Use the rule-set file ``path``; one line saying why when it cannot be used."""
        try:
            said = edits.load_file(self.document, path)
        except RuleSetError as exc:
            QMessageBox.warning(self, "Load rule set", str(exc))
            return False
        self.status.emit(said)
        return True

    def save_to_file_dialog(self) -> None:
        doc = self.document
        if doc.path is None:
            QMessageBox.information(
                self,
                "Save rule set",
                "Save the map first: a rule-set file is kept beside its map.",
            )
            return
        start = str(doc.path.parent / edits.default_file_name(doc))
        path, _ = QFileDialog.getSaveFileName(self, "Save rule set", start, RULE_SET_FILTER)
        if path:
            self.save_to_file(Path(path))

    def save_to_file(self, path: Path) -> bool:
        """Write the rule set to ``path`` (in the map's folder) and make the map name it."""
        doc, content = self.document, self.content()
        if content is None or doc.path is None:
            return False
        if path.resolve().parent != doc.path.parent.resolve():
            QMessageBox.warning(
                self,
                "Save rule set",
                f"{path.name}: a map names rule-set files in its own folder only "
                f"({doc.path.parent}); save it there.",
            )
            return False
        from mapeditor.ruleset_data import file_text

        try:
            write_atomically(path, file_text(content))
        except OSError as exc:
            QMessageBox.critical(self, "Save rule set", str(exc))
            return False
        edits.keep_in_file(doc, path.name)
        self.status.emit(f"Saved {path.name}; the map names it (save the map to keep that)")
        return True

    def embed(self) -> None:
        edits.embed(self.document)

    # -- the data rule set's form -----------------------------------------------------------------

    def _shape_of(self, content: dict[str, Any] | None) -> object:
        if content is None:
            return None
        mechanics = get(content, ("mechanics",), [])
        mechanics = mechanics if isinstance(mechanics, list) else []
        m = mechanics[self.mechanic_index] if self.mechanic_index < len(mechanics) else None
        return (
            len(mechanics),
            self.mechanic_index,
            get(m, ("pay", "kind")),
            get(m, ("reward", "kind")),
            repr(get(m, ("reward", "where"))),
            repr(get(content, ("collect", "kind"))),
            tuple(get(x, ("id",)) for x in mechanics),
            get(content, ("sheet_setup",)) is not None,
            tuple(sorted(self.lang_index.items())),
            tuple(tuple(id_choices(content, key)) for key in LANG_WORDS),
            self._rule_shape(content),
        )

    def _rule_shape(self, content: dict[str, Any]) -> object:
        """What the selected rule's form is made of: its terms' kinds and its limits."""
        rule = get(content, ("rules", self.lang_index.get("rules", 0)))
        return tuple(
            tuple(repr(get(t, ("kind",))) for t in get(rule, (group,), []) or [])
            for group in ("if", "cost", "then", "limits")
        )

    def refresh(self) -> None:
        """Show the document's rule set: rebuild the form when its shape changed, else only put
        the values in (a field being typed in keeps its focus)."""
        self._show_source()
        content = self.content()
        mechanics = get(content, ("mechanics",), [])
        if not isinstance(mechanics, list) or self.mechanic_index >= len(mechanics):
            self.mechanic_index = max(0, len(mechanics) - 1) if isinstance(mechanics, list) else 0
        for key in LANG_WORDS:
            count = len(self._entries(key))
            if self.lang_index.get(key, 0) >= count:
                self.lang_index[key] = max(0, count - 1)
        shape = self._shape_of(content)
        if shape != self._shape:
            self._shape = shape
            self._rebuild(content)
            guard_fields(self.editor)
        self._show_values(content)
        self._fit_timer.start()  # shown or hidden problems change the width the form needs

    def _rebuild(self, content: dict[str, Any] | None) -> None:
        while self.editor_layout.count():
            item = self.editor_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()  # out of sight now: deleted only when the event loop next runs
                widget.deleteLater()
        self.fields = []
        self.problem_lines = []
        self.mechanics_model.deleteLater()  # its view goes with the old form
        self.mechanics_model = QStandardItemModel(self)
        if content is None:
            return
        self.problem_label = QLabel()
        self.problem_label.setObjectName("ruleset_problems")
        self.problem_label.setWordWrap(True)
        self.problem_label.setMinimumWidth(120)  # wraps, never widens the dock
        self.editor_layout.addWidget(self._general_box())
        self.editor_layout.addWidget(self._setup_box())
        self.editor_layout.addWidget(self._chips_box())
        self.editor_layout.addWidget(self._lang_box("resources", "Resources", self._resource_form))
        self.editor_layout.addWidget(self._lang_box("marks", "Marks", self._mark_form))
        self.editor_layout.addWidget(self._lang_box("rules", "Rules", self._rule_form))
        self.editor_layout.addWidget(self._mechanics_box(content))
        self.editor_layout.addWidget(self._scoring_box())
        # Below the form and always shown: a mistake appearing or going never moves the field
        # being typed in (each field is marked red with its reason as well).
        self.editor_layout.addWidget(self.problem_label)

    def _fit_width(self) -> None:
        """The dock as wide as its form needs, within :data:`MAX_WIDTH` (measured once new widgets
        are shown: they count in the layout only then)."""
        root = self.widget()
        if root is not None:
            bar = self.verticalScrollBar().sizeHint().width()
            need = root.minimumSizeHint().width() + bar + 2 * self.frameWidth()
            self.setMinimumWidth(min(need, MAX_WIDTH))  # wider forms scroll, the window stays

    def _show_values(self, content: dict[str, Any] | None) -> None:
        self.problems = problems_of(self.document.map.rule_set) if content is not None else []
        if content is None:
            return
        for f in self.fields:
            f.widget.blockSignals(True)
            try:
                f.show(get(content, f.path, f.default))
            finally:
                f.widget.blockSignals(False)
        mechanics = get(content, ("mechanics",), [])
        for row in range(self.mechanics_model.rowCount()):
            item = self.mechanics_model.item(row)
            item.setText(mechanic_summary(mechanics[row]) if row < len(mechanics) else "")
        for key, model in self.lang_models.items():
            entries = self._entries(key)
            for row in range(model.rowCount()):
                text = entry_summary(key, entries[row]) if row < len(entries) else ""
                model.item(row).setText(text)
        self._mark_problems()

    # -- marking mistakes ------------------------------------------------------------------------

    def _mark_problems(self) -> None:
        marks: dict[int, list[str]] = {}
        problems = self.problems + list(self.text_errors.values())
        for p in problems:
            for i in self._fields_of(p.path):
                marks.setdefault(i, []).append(p.message)
        for prefix, label in self.problem_lines:
            about = [
                str(p)
                for p in problems
                if p.path == prefix or p.path.startswith((prefix + ".", prefix + "["))
            ]
            more = (
                [f"… and {len(about) - PROBLEM_LINES + 1} more"]
                if len(about) > PROBLEM_LINES
                else []
            )
            label.setText("\n".join(about[: PROBLEM_LINES - len(more)] + more))
            label.setToolTip("\n".join(about))
        for i, f in enumerate(self.fields):
            tip = "\n".join(marks.get(i, []))
            f.widget.setProperty("invalid", bool(tip))
            parent = f.widget.parentWidget()
            palette = parent.palette() if parent is not None else QPalette()
            if tip:
                for role in (QPalette.ColorRole.Base, QPalette.ColorRole.Button):
                    palette.setColor(role, INVALID)
            f.widget.setPalette(palette)
            f.widget.setToolTip(tip or description(f.path))
        for row in range(self.mechanics_model.rowCount()):
            bad = [p.message for p in self.problems if p.path.startswith(f"mechanics[{row}]")]
            item = self.mechanics_model.item(row)
            if bad:
                item.setForeground(QColor(176, 0, 32))
            else:
                item.setData(None, Qt.ItemDataRole.ForegroundRole)  # the theme's colour
            item.setToolTip("\n".join(bad))
        lines = [str(p) for p in problems[:8]]
        if len(problems) > 8:
            lines.append(f"… and {len(problems) - 8} more")
        self.problem_label.setText("\n".join(lines) or "No mistakes: the rule set can be played.")
        self.problem_label.setStyleSheet("color: #b00020;" if lines else "color: #2e6b30;")
        self.problem_label.setToolTip("\n".join(str(p) for p in problems))

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

    def show_problem(self, issue: Issue) -> QWidget | None:
        """Bring the field an issue of the rule set is about into view and focus it."""
        for p in self.problems:
            if str(p) in issue.message or (p.path and p.path in issue.message):
                match = p.path.split("]")[0] if p.path.startswith("mechanics[") else ""
                if match:
                    index = int(match[len("mechanics[") :])
                    if index != self.mechanic_index:
                        self.select_mechanic(index)
                hits = self._fields_of(p.path)
                if hits:
                    widget = self.fields[hits[0]].widget
                    self.ensureWidgetVisible(widget)
                    widget.setFocus()
                    return widget
        return None

    # -- form parts ------------------------------------------------------------------------------

    def _bind(
        self, path: Path_, widget: QWidget, show: Callable[[Any], None], default: Any = None
    ) -> QWidget:
        widget.setObjectName("rs:" + path_text(path))
        self.fields.append(_Field(path, widget, show, default))
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
        combo = _compact(QComboBox())
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

    def _kind_setter(self, index: int, group: str) -> Callable[[Any], None]:
        def commit(kind: Any) -> None:
            edits.set_kind(self.document, index, group, str(kind))

        return commit

    def _kinds(self, group: str) -> list[tuple[str, str]]:
        return [(str(info["label"]), kind) for kind, info in MECHANIC_KINDS[group].items()]

    def _general_box(self) -> QGroupBox:
        box = QGroupBox("Rule set")
        form = _form(box)
        form.addRow("Name", self._line(("name",)))
        form.addRow("Title", self._line(("title",)))
        form.addRow("Description", self._line(("description",)))
        return box

    def _chips_box(self) -> QGroupBox:
        box = QGroupBox("Chips")
        form = _form(box)
        colours = QHBoxLayout()
        for colour in ("purple", "light_blue", "orange"):
            check = QCheckBox(_label(colour))
            check.toggled.connect(lambda on, c=colour: self._set_colour(c, on))
            self._bind(
                ("supply", "colours", colour),
                check,
                self._shows_member(check, colour, self._colours),
            )
            colours.addWidget(check)
        form.addRow("Colours", colours)
        per_colour = ("supply", "per_colour")
        form.addRow(
            "Chips per colour",
            # the sheet's chip count follows the supply's size
            self._spin(per_colour, commit=lambda v: edits.set_supply(self.document, per_colour, v)),
        )
        values = QGridLayout()
        for v in range(1, 6):
            values.addWidget(QLabel(f"worth {v}"), 0, v - 1, Qt.AlignmentFlag.AlignCenter)
            values.addWidget(self._spin(("supply", "values", str(v))), 1, v - 1)
        form.addRow("Chips of each colour", values)
        # The set-up the sheet is designed for: a supply smaller than 30 needs its chip count.
        for field, label in (
            ("chips", "Chips on the sheet"),
            ("start_squares", "Start squares (sheet)"),
            ("start_squares_used", "Start squares used (sheet)"),
        ):
            commit = partial(edits.set_sheet_setup, self.document, field)
            form.addRow(label, self._spin(("sheet_setup", field), commit=commit))
        form.addRow("Layout", self._choice(("layout", "kind"), self._kinds("layout")))
        form.addRow("Chips laid out", self._spin(("layout", "count"), special="the map's setup"))
        gated = QCheckBox("Keep ferry-gated islands free")
        gated.toggled.connect(
            lambda on: self._commit(("layout", "exclude"))(["gated_islands"] if on else [])
        )
        self._bind(("layout", "exclude"), gated, lambda v: gated.setChecked(bool(v)), [])
        form.addRow("", gated)
        form.addRow(
            "Collecting",
            self._choice(("collect", "kind"), self._kinds("collect"), self._set_collect),
        )
        form.addRow("Points per chip value", self._spin(("collect", "points_factor")))
        if get(self.content(), ("collect", "kind")) == "treat":
            form.addRow("Treat scores value ×", self._spin(("collect", "treat_factor")))
            squares = kind_params("collect", "treat")["treat_squares"]["choices"]
            form.addRow(
                "Treat squares",
                self._choice(("collect", "treat_squares"), [(_label(c), c) for c in squares]),
            )
        return box

    def _colours(self) -> list[str]:
        got = get(self.content(), ("supply", "colours"), [])
        return [c for c in got if isinstance(c, str)] if isinstance(got, list) else []

    def _set_colour(self, colour: str, on: bool) -> None:
        now = self._colours()
        new = [
            c
            for c in ("purple", "light_blue", "orange")
            if (c in now and c != colour) or (c == colour and on)
        ]
        edits.set_supply(self.document, ("supply", "colours"), new)

    def _set_collect(self, kind: Any) -> None:
        current = self.content()
        if current is None or get(current, ("collect", "kind")) == kind:
            return
        collect = {"kind": kind, "points_factor": get(current, ("collect", "points_factor"), 1)}
        for name, info in kind_params("collect", str(kind)).items():
            collect[name] = info["default"]
        edits.set_field(self.document, ("collect",), collect)

    def _mechanics_box(self, content: dict[str, Any]) -> QGroupBox:
        box = QGroupBox("Mechanics")
        layout = QVBoxLayout(box)
        mechanics = get(content, ("mechanics",), [])
        for m in mechanics if isinstance(mechanics, list) else []:
            item = QStandardItem(mechanic_summary(m))
            item.setEditable(False)
            self.mechanics_model.appendRow(item)
        self.mechanics_view = QListView()
        self.mechanics_view.setObjectName("ruleset_mechanics")
        self.mechanics_view.setModel(self.mechanics_model)
        self.mechanics_view.setMaximumHeight(80)
        self.mechanics_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.mechanics_view.setTextElideMode(Qt.TextElideMode.ElideRight)
        if self.mechanics_model.rowCount():
            self.mechanics_view.setCurrentIndex(self.mechanics_model.index(self.mechanic_index, 0))
        self.mechanics_view.clicked.connect(lambda i: self.select_mechanic(i.row()))
        layout.addWidget(self.mechanics_view)
        row = QHBoxLayout()
        self.add_button = QPushButton("Add mechanic")
        menu = QMenu(self.add_button)
        for kind, info in MECHANIC_KINDS["reward"].items():
            action = menu.addAction(str(info["label"]))
            action.triggered.connect(lambda _=False, k=kind: self.add_mechanic(k))
        self.add_button.setMenu(menu)
        self.add_button.setEnabled(len(mechanics) < 8)
        self.remove_button = QPushButton("Remove")
        self.remove_button.setEnabled(bool(mechanics))
        self.remove_button.clicked.connect(lambda: self.remove_mechanic(self.mechanic_index))
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        layout.addLayout(row)
        if isinstance(mechanics, list) and self.mechanic_index < len(mechanics):
            index = self.mechanic_index
            layout.addWidget(self._mechanic_form(index, mechanics[index]))
        return box

    def select_mechanic(self, index: int) -> None:
        self.mechanic_index = index
        self._shape = None
        self.refresh()

    def add_mechanic(self, reward: str) -> None:
        index = edits.add_mechanic(self.document, reward)
        if index is not None:
            self.select_mechanic(index)

    def remove_mechanic(self, index: int) -> None:
        if edits.remove_mechanic(self.document, index):
            self.select_mechanic(max(0, index - 1))

    def _mechanic_form(self, index: int, m: Any) -> QWidget:
        box = QGroupBox(f"Mechanic {index + 1}")
        form = _form(box)
        at: Path_ = ("mechanics", index)
        form.addRow("Id", self._line((*at, "id")))
        form.addRow("Title", self._line((*at, "title")))
        form.addRow("Record action", self._line((*at, "action")))
        form.addRow("When", self._choice((*at, "when"), self._kinds("when")))
        form.addRow("Limit", self._choice((*at, "limit"), self._kinds("limit")))
        for group, title in (("pay", "Pays"), ("reward", "Reward")):
            kind = str(get(m, (group, "kind"), ""))
            form.addRow(
                title,
                self._choice(
                    (*at, group, "kind"),
                    self._kinds(group),
                    self._kind_setter(index, group),
                ),
            )
            for name, info in kind_params(group, kind).items():
                self._param_rows(form, (*at, group), name, info)
        return box

    def _param_rows(self, form: QFormLayout, at: Path_, name: str, info: dict[str, Any]) -> None:
        path = (*at, name)
        text = _label(name).capitalize()
        kind = info["type"]
        if kind == "int":
            form.addRow(f"  {text}", self._spin(path))
        elif kind == "bool":
            form.addRow("", self._check(path, _label(name), bool(info["default"])))
        elif kind == "choice":
            form.addRow(f"  {text}", self._choice(path, [(_label(c), c) for c in info["choices"]]))
        elif kind == "mechanic":
            mechanics = get(self.content(), ("mechanics",), [])
            ids = [x.get("id") for x in mechanics if isinstance(x, dict)]
            items = [("(none)", None)] + [(str(i), i) for i in ids if isinstance(i, str)]
            form.addRow(f"  {text}", self._choice(path, items))
        elif kind == "list":  # a points reward's places
            row = QVBoxLayout()
            for choice in info["choices"]:
                check = QCheckBox(_label(choice))
                check.toggled.connect(lambda on, c=choice: self._set_where(at, c, on))
                self._bind(
                    (*path, choice),
                    check,
                    self._shows_member(check, choice, lambda: self._where(at)),
                )
                row.addWidget(check)
            form.addRow(f"  {text}", row)
        elif kind == "points":
            for where in self._where(at):
                form.addRow(f"  Points {PLACES.get(where, where)}", self._spin((*path, where)))

    def _where(self, at: Path_) -> list[str]:
        got = get(self.content(), (*at, "where"), [])
        return [w for w in got if isinstance(w, str)] if isinstance(got, list) else []

    def _set_where(self, at: Path_, place: str, on: bool) -> None:
        current = self.content()
        reward = dict(get(current, at, {}))
        where = [w for w in self._where(at) if w != place] + ([place] if on else [])
        points = dict(reward.get("points", {})) if isinstance(reward.get("points"), dict) else {}
        points = {w: points.get(w, 3) for w in where}
        reward.update(where=where, points=points)
        edits.set_field(self.document, at, reward)

    def _scoring_box(self) -> QGroupBox:
        box = QGroupBox("Scoring and map prints")
        form = _form(box)
        form.addRow("Island coat of arms points", self._spin(("island_coat_points",)))
        form.addRow("Held chips at the end, per value", self._spin(("end", "held_chip_points")))
        prints = QGridLayout()
        for i, name in enumerate(PRINT_NAMES):  # one column: the dock stays narrow
            check = QCheckBox(_label(name))
            check.toggled.connect(lambda on, n=name: self._set_print(n, on))
            self._bind(
                ("prints", name),
                check,
                self._shows_member(check, name, self._prints),
            )
            prints.addWidget(check, i, 0)
        form.addRow("Also needs printed", prints)
        return box

    def _prints(self) -> list[str]:
        got = get(self.content(), ("prints",), [])
        return [p for p in got if isinstance(p, str)] if isinstance(got, list) else []

    def _set_print(self, name: str, on: bool) -> None:
        now = self._prints()
        new = [p for p in PRINT_NAMES if (p in now and p != name) or (p == name and on)]
        edits.set_field(self.document, ("prints",), new)

    # -- sheet setup ------------------------------------------------------------------------------

    def _setup_box(self) -> QGroupBox:
        box = QGroupBox("Designed for")
        form = _form(box)
        given = QCheckBox("A setup of the sheet (a map that differs gets a warning)")
        given.setObjectName("rs:sheet_setup")
        given.toggled.connect(self._set_setup)
        self.fields.append(
            _Field(("sheet_setup",), given, lambda v: given.setChecked(v is not None))
        )
        form.addRow(given)  # its numbers are fields of the Chips box
        return box

    def _set_setup(self, on: bool) -> None:
        if on:
            edits.set_field(self.document, ("sheet_setup",), dict(SHEET_SETUP))
        else:
            edits.clear_field(self.document, ("sheet_setup",))

    # -- the rule language: resources, marks, rules -----------------------------------------------

    def _entries(self, key: str) -> list[Any]:
        got = get(self.content(), (key,), [])
        return got if isinstance(got, list) else []

    def _lang_box(self, key: str, title: str, form: Callable[[int, Any], QWidget]) -> QGroupBox:
        """A list of the rule set's resources, marks or rules, buttons to add and remove one,
        and the form of the one selected."""
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        entries = self._entries(key)
        model = QStandardItemModel(box)
        for entry in entries:
            item = QStandardItem(entry_summary(key, entry))
            item.setEditable(False)
            model.appendRow(item)
        self.lang_models[key] = model
        view = QListView()
        view.setObjectName(f"ruleset_{key}")
        view.setModel(model)
        view.setMaximumHeight(80)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.setTextElideMode(Qt.TextElideMode.ElideRight)
        index = self.lang_index.get(key, 0)
        if entries:
            view.setCurrentIndex(model.index(index, 0))
        view.clicked.connect(lambda i: self.select_entry(key, i.row()))
        layout.addWidget(view)
        row = QHBoxLayout()
        add = QPushButton(f"Add {LANG_WORDS[key]}")
        add.setObjectName(f"ruleset_add_{key}")
        add.setEnabled(len(entries) < LANG_MAX[key])
        add.clicked.connect(lambda: self.add_entry(key))
        remove = QPushButton("Remove")
        remove.setObjectName(f"ruleset_remove_{key}")
        remove.setEnabled(bool(entries))
        remove.clicked.connect(lambda: self.remove_entry(key))
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        layout.addLayout(row)
        if 0 <= index < len(entries):
            layout.addWidget(form(index, entries[index]))
            layout.addWidget(self._problem_line((key, index)))
        return box

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

    def select_entry(self, key: str, index: int) -> None:
        self.lang_index[key] = index
        self._shape = None
        self.refresh()

    def add_entry(self, key: str) -> None:
        index = edits.add_entry(self.document, key)
        if index is not None:
            self.select_entry(key, index)

    def remove_entry(self, key: str) -> None:
        index = self.lang_index.get(key, 0)
        if edits.remove_item(self.document, (key, index)):
            self.select_entry(key, max(0, index - 1))

    def _named_form(self, at: Path_) -> tuple[QWidget, QFormLayout]:
        """The form of a resource or a mark, with the rows both have: id, name, colour, icon."""
        box = QWidget()
        form = _form(box)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Id", self._line((*at, "id")))
        form.addRow("Name", self._line((*at, "name")))
        form.addRow("Colour", self._line((*at, "colour")))
        form.addRow("Icon", self._choice((*at, "icon"), [(i, i) for i in ICONS]))
        return box, form

    def _resource_form(self, index: int, _entry: Any) -> QWidget:
        at: Path_ = ("resources", index)
        box, form = self._named_form(at)
        form.addRow("Each player starts with", self._spin((*at, "start")))
        form.addRow("Supply", self._spin((*at, "supply"), special="as many as needed"))
        return box

    def _mark_form(self, index: int, _entry: Any) -> QWidget:
        at: Path_ = ("marks", index)
        box, form = self._named_form(at)
        form.addRow("", self._check((*at, "takes_tile"), "a tile may be placed on it", True))
        form.addRow("", self._check((*at, "closes"), "closes the features facing it", True))
        opens = [("never", "never"), ("when reached", "when_reached")]
        form.addRow("Opens", self._choice((*at, "opens"), opens))
        form.addRow("Chips at setup", self._spin((*at, "chips", "count")))
        face = [("face down", "down"), ("face up", "up")]
        form.addRow("  lying", self._choice((*at, "chips", "face"), face))
        return box

    def _rule_form(self, index: int, rule: Any) -> QWidget:
        box = QWidget()
        form = _form(box)
        form.setContentsMargins(0, 0, 0, 0)
        at: Path_ = ("rules", index)
        form.addRow("Id", self._line((*at, "id")))
        form.addRow("Title", self._line((*at, "title")))
        triggers = [(t.label, k) for k, t in TRIGGERS.items()]
        form.addRow("When", self._choice((*at, "when"), triggers))
        for group, title in (("if", "If"), ("cost", "Cost"), ("then", "Then")):
            form.addRow(QLabel(f"<b>{title}</b>"))
            terms = get(rule, (group,), [])
            for j, term in enumerate(terms if isinstance(terms, list) else []):
                self._term_rows(form, (*at, group, j), group, term)
            add = _compact(QComboBox())
            add.setObjectName(f"ruleset_add_{group}")
            add.addItem(f"Add {TERM_WORDS[group]}…", None)
            for kind, info in TERM_TABLES[group].items():
                add.addItem(info.label, kind)
            add.activated.connect(lambda i, c=add, g=group: self._add_term(index, g, c.itemData(i)))
            form.addRow(add)
        choices = [("compulsory: it happens", "compulsory"), ("optional: an offer", "optional")]
        form.addRow("Choice", self._choice((*at, "choice"), choices))
        form.addRow("Chooser", self._choice((*at, "chooser"), [("the player to move", "current")]))
        limits = get(rule, ("limits",), [])
        for j, _limit in enumerate(limits if isinstance(limits, list) else []):
            row = QHBoxLayout()
            row.addWidget(QLabel("at most"))
            row.addWidget(self._spin((*at, "limits", j, "times")))
            row.addWidget(QLabel("per"))
            row.addWidget(self._choice((*at, "limits", j, "per"), [(p, p) for p in LIMIT_PER]))
            row.addWidget(self._remove_button((*at, "limits", j)))
            form.addRow("Limit", row)
        add_limit = QPushButton("Add limit")
        add_limit.setObjectName("ruleset_add_limit")
        add_limit.clicked.connect(lambda: edits.add_limit(self.document, index))
        form.addRow(add_limit)
        return box

    def _add_term(self, rule: int, group: str, kind: Any) -> None:
        if kind is not None:  # not the combo's title
            edits.add_term(self.document, rule, group, str(kind))

    def _remove_button(self, path: Path_) -> QPushButton:
        button = QPushButton("✕")
        button.setObjectName("rs-remove:" + path_text(path))
        button.setToolTip(f"Remove {path_text(path)}")
        button.setFixedWidth(button.fontMetrics().horizontalAdvance("✕") + 16)
        button.clicked.connect(lambda: edits.remove_item(self.document, path))
        return button

    def _term_rows(self, form: QFormLayout, path: Path_, group: str, term: Any) -> None:
        """A condition, cost or effect: its kind, then a field per parameter."""
        table = TERM_TABLES[group]
        row = QHBoxLayout()
        row.addWidget(
            self._choice(
                (*path, "kind"),
                [(info.label, kind) for kind, info in table.items()],
                lambda kind: edits.set_term_kind(self.document, path, group, str(kind)),
            ),
            1,
        )
        row.addWidget(self._remove_button(path))
        form.addRow(row)
        kind = table.get(str(get(term, ("kind",))))
        for name, info in (kind.params if kind is not None else {}).items():
            required = name in kind.required if kind is not None else True
            form.addRow(f"  {_label(name)}", self._param((*path, name), name, info, required))

    def _param(self, path: Path_, name: str, info: dict[str, Any], required: bool) -> QWidget:
        """A field for a term's parameter, from its schema fragment: a choice, a number, a
        check box, or JSON (a quantity, a table, nested conditions)."""
        content = self.content()
        optional = [] if required else [("(default)", None)]
        commit = self._commit_or_clear(path)
        if "enum" in info:
            items = optional + [(_label(v), v) for v in info["enum"]]
            return self._choice(path, items, commit)
        if info.get("type") == "integer":
            spin = QSpinBox()
            lo, hi = int(info.get("minimum", 0)), int(info.get("maximum", 99))
            spin.setRange(lo if required else lo - 1, hi)
            if not required:
                spin.setSpecialValueText("(default)")
            spin.setKeyboardTracking(False)
            spin.valueChanged.connect(lambda v: commit(None if v < lo else v))

            def show(v: Any) -> None:
                spin.setValue(
                    v if isinstance(v, int) and not isinstance(v, bool) else spin.minimum()
                )

            return self._bind(path, spin, show)
        if info.get("type") == "boolean":
            return self._check(path, _label(name))
        if info.get("type") == "string":
            key = "marks" if name == "mark" else "resources"
            ids = id_choices(content, key)
            extra = {"what": ["points", "chips"], "of": ["chips"]}.get(name, [])
            if name == "resource" and "chips" in str(info.get("description", "")):
                extra = ["chips"]
            items = optional + [(i, i) for i in ids + extra]
            return self._choice(path, items, commit)
        return self._json(path, commit)

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
