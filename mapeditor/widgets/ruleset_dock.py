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

from collections.abc import Callable
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
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.mapdef import NamedRuleSet, UnreadableRuleSet
from engine.rules.data import (
    MECHANIC_KINDS,
    PRINT_NAMES,
    RuleSetError,
    preset_names,
    preset_spec,
)
from engine.rules.registry import map_rule_set_names
from engine.validation import Issue
from mapeditor import ruleset_edits as edits
from mapeditor.document import MapDocument
from mapeditor.folders import start_dir
from mapeditor.ruleset_data import (
    FILE_SUFFIX,
    SHEET_SETUP,
    Path_,
    content_of,
    description,
    get,
    kind_params,
    mechanic_summary,
    problems_of,
)
from mapeditor.ruleset_files import write_atomically
from mapeditor.widgets.field_guard import guard_fields
from mapeditor.widgets.rule_forms import LANG_WORDS, LanguageForms
from mapeditor.widgets.ruleset_fields import (
    INVALID,
    PROBLEM_LINES,
    Field,
    compact,
    form_layout,
    label_of,
)

RULE_SET_FILTER = f"Rule sets (*{FILE_SUFFIX});;JSON files (*.json);;All files (*)"
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


_NOT_BUILT = object()
"""The form's shape before it is built for the current document."""
PLACES = {"border_coa": "at the border", "town_colour": "at a town", "anywhere": "anywhere"}


class RuleSetDock(LanguageForms):
    """The map's rule set; a data rule set's fields as forms (see the module docstring)."""

    status = Signal(str)
    """A message for the status bar (what a file action did)."""

    def __init__(self, document: MapDocument, parent: QWidget | None = None) -> None:
        super().__init__(document, parent)
        self.setWidgetResizable(True)
        self.mechanic_index = 0
        self._shape: object = None
        self.mechanics_model = QStandardItemModel(self)
        self.lang_models: dict[str, QStandardItemModel] = {}
        self.lang_index: dict[str, int] = {}
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

    # -- the source: module, preset, file ---------------------------------------------------------

    def _build_source(self) -> None:
        box = QGroupBox("Map-Chips rules")
        layout = QVBoxLayout(box)
        self.source = compact(QComboBox())
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
            self.lang_shape(content),
        )

    def _reshape(self) -> None:
        self._shape = None

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
                self.show_entry(key, entries[row] if row < len(entries) else None, model.item(row))
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

    def _kind_setter(self, index: int, group: str) -> Callable[[Any], None]:
        def commit(kind: Any) -> None:
            edits.set_kind(self.document, index, group, str(kind))

        return commit

    def _kinds(self, group: str) -> list[tuple[str, str]]:
        return [(str(info["label"]), kind) for kind, info in MECHANIC_KINDS[group].items()]

    def _general_box(self) -> QGroupBox:
        box = QGroupBox("Rule set")
        form = form_layout(box)
        form.addRow("Name", self._line(("name",)))
        form.addRow("Title", self._line(("title",)))
        form.addRow("Description", self._line(("description",)))
        return box

    def _chips_box(self) -> QGroupBox:
        box = QGroupBox("Chips")
        form = form_layout(box)
        colours = QHBoxLayout()
        for colour in ("purple", "light_blue", "orange"):
            check = QCheckBox(label_of(colour))
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
                self._choice(("collect", "treat_squares"), [(label_of(c), c) for c in squares]),
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
        self._reshape()
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
        form = form_layout(box)
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
        text = label_of(name).capitalize()
        kind = info["type"]
        if kind == "int":
            form.addRow(f"  {text}", self._spin(path))
        elif kind == "bool":
            form.addRow("", self._check(path, label_of(name), bool(info["default"])))
        elif kind == "choice":
            form.addRow(
                f"  {text}", self._choice(path, [(label_of(c), c) for c in info["choices"]])
            )
        elif kind == "mechanic":
            mechanics = get(self.content(), ("mechanics",), [])
            ids = [x.get("id") for x in mechanics if isinstance(x, dict)]
            items = [("(none)", None)] + [(str(i), i) for i in ids if isinstance(i, str)]
            form.addRow(f"  {text}", self._choice(path, items))
        elif kind == "list":  # a points reward's places
            row = QVBoxLayout()
            for choice in info["choices"]:
                check = QCheckBox(label_of(choice))
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
        form = form_layout(box)
        form.addRow("Island coat of arms points", self._spin(("island_coat_points",)))
        form.addRow("Held chips at the end, per value", self._spin(("end", "held_chip_points")))
        prints = QGridLayout()
        for i, name in enumerate(PRINT_NAMES):  # one column: the dock stays narrow
            check = QCheckBox(label_of(name))
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
        form = form_layout(box)
        given = QCheckBox("A setup of the sheet (a map that differs gets a warning)")
        given.setObjectName("rs:sheet_setup")
        given.toggled.connect(self._set_setup)
        self.fields.append(
            Field(("sheet_setup",), given, lambda v: given.setChecked(v is not None))
        )
        form.addRow(given)  # its numbers are fields of the Chips box
        return box

    def _set_setup(self, on: bool) -> None:
        if on:
            edits.set_field(self.document, ("sheet_setup",), dict(SHEET_SETUP))
        else:
            edits.clear_field(self.document, ("sheet_setup",))
