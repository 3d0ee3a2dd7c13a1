"""The Rule set dock's forms of the rule language: resources, marks and when/if/then rules.

Every part of a rule has a widget made from the vocabulary tables (:mod:`engine.rules.data.lang`)
and the schema: a term's kind is a choice of its table, its parameters fields by their schema
(a choice, a number, a check box, an id of the rule set); a **quantity** a choice of "a number"
or what to count (:data:`~engine.rules.data.lang.QUANTITIES`) with that count's own parameters,
its factor and its cap; ``all`` / ``any`` / ``not`` conditions nest their conditions (add,
remove, move up and down, nest again down to the schema's depth); a table's points and the
points per kind of side are rows of numbers. A new kind in a table gets its form without code
here. A colour is picked with Qt's colour dialog and an icon from the built-in set
(:mod:`engine.rules.data.icons`), both shown in the lists. Each change is one command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QCheckBox,
    QColorDialog,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QMenu,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.rules.data.lang import (
    ICONS,
    LIMIT_PER,
    MAX_ITEMS,
    MAX_MARKS,
    MAX_RESOURCES,
    MAX_RULES,
    QUANTITIES,
    TRIGGERS,
    Kind,
)
from mapeditor import ruleset_edits as edits
from mapeditor.designer_icons import icon
from mapeditor.ruleset_data import (
    NESTED,
    TERM_TABLES,
    Path_,
    choices,
    condition_table,
    entry_summary,
    get,
    id_choices,
    max_items,
    path_text,
    quantity_schema,
    quantity_value,
    skeleton,
)
from mapeditor.widgets.ruleset_fields import FieldForm, compact, form_layout, label_of

LANG_WORDS = {"resources": "resource", "marks": "mark", "rules": "rule"}
LANG_MAX = {"resources": MAX_RESOURCES, "marks": MAX_MARKS, "rules": MAX_RULES}
TERM_WORDS = {"if": "condition", "cost": "cost", "then": "effect"}
CHOOSER_WORDS = {"current": "the player to move"}
"""Words for the choosers the schema allows (another value shows as its name)."""
INDENT = 14
"""Pixels a nested condition's form is indented by."""


def _is_quantity(info: dict[str, Any]) -> bool:
    return str(info.get("$ref", "")).endswith("/quantity")


def _small_button(text: str, name: str, tip: str) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    button.setToolTip(tip)
    button.setFixedWidth(button.fontMetrics().horizontalAdvance("✕") + 16)
    return button


class LanguageForms(FieldForm):
    """The resources', marks' and rules' lists and forms (see the module docstring)."""

    lang_models: dict[str, QStandardItemModel]
    lang_index: dict[str, int]
    advanced = False
    """Whether a rule's form shows the rule as JSON text too (kept while the form is rebuilt)."""

    def refresh(self) -> None:
        raise NotImplementedError  # the dock shows the document

    def _reshape(self) -> None:
        raise NotImplementedError  # the dock rebuilds its form at the next refresh

    def lang_shape(self, content: dict[str, Any]) -> object:
        """What the selected entries' forms are made of (see :func:`skeleton`)."""
        return (
            tuple(sorted(self.lang_index.items())),
            tuple(tuple(id_choices(content, key)) for key in LANG_WORDS),
            skeleton(get(content, ("rules", self.lang_index.get("rules", 0)))),
        )

    # -- the lists -------------------------------------------------------------------------------

    def _entries(self, key: str) -> list[Any]:
        got = get(self.content(), (key,), [])
        return got if isinstance(got, list) else []

    def show_entry(self, key: str, entry: Any, item: QStandardItem) -> None:
        """A list row: the entry's name in the designer's words, its icon in its colour."""
        item.setText(entry_summary(key, entry))
        if key != "rules" and isinstance(entry, dict):
            item.setIcon(icon(str(entry.get("icon", "chip")), str(entry.get("colour", ""))))

    def _lang_box(self, key: str, title: str, form: Callable[[int, Any], QWidget]) -> QGroupBox:
        """A list of the rule set's resources, marks or rules, buttons to add and remove one,
        and the form of the one selected."""
        box = QGroupBox(title)
        layout = QVBoxLayout(box)
        entries = self._entries(key)
        model = QStandardItemModel(box)
        for entry in entries:
            item = QStandardItem()
            item.setEditable(False)
            self.show_entry(key, entry, item)
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

    def select_entry(self, key: str, index: int) -> None:
        self.lang_index[key] = index
        self._reshape()
        self.refresh()

    def add_entry(self, key: str) -> None:
        index = edits.add_entry(self.document, key)
        if index is not None:
            self.select_entry(key, index)

    def remove_entry(self, key: str) -> None:
        index = self.lang_index.get(key, 0)
        if edits.remove_item(self.document, (key, index)):
            self.select_entry(key, max(0, index - 1))

    # -- resources and marks ---------------------------------------------------------------------

    def _named_form(self, at: Path_) -> tuple[QWidget, QFormLayout]:
        """The form of a resource or a mark, with the rows both have: id, name, colour, icon."""
        box = QWidget()
        form = form_layout(box)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Id", self._line((*at, "id")))
        form.addRow("Name", self._line((*at, "name")))
        form.addRow("Colour", self._colour((*at, "colour")))
        form.addRow("Icon", self._icon_choice(at))
        return box, form

    def _colour(self, path: Path_) -> QPushButton:
        """A button showing the colour at ``path``; clicked, Qt's colour dialog picks another."""
        button = QPushButton()

        def pick() -> None:
            now = get(self.content(), path, "#808080")
            chosen = QColorDialog.getColor(QColor(str(now)), self, f"Colour of {path_text(path)}")
            if chosen.isValid():
                self._commit(path)(chosen.name())

        button.clicked.connect(pick)

        def show(v: Any) -> None:
            text = v if isinstance(v, str) else "#808080"
            swatch = QPixmap(14, 14)
            swatch.fill(QColor(text) if QColor.isValidColorName(text) else QColor("#808080"))
            button.setIcon(QIcon(swatch))
            button.setText(text)

        self._bind(path, button, show, "#808080")
        return button

    def _icon_choice(self, at: Path_) -> QComboBox:
        """The built-in icons by name, each drawn in the entry's colour."""
        combo = self._choice((*at, "icon"), [(label_of(i), i) for i in ICONS])
        bound = self.fields[-1]
        plain = bound.show

        def show(v: Any) -> None:
            plain(v)
            colour = str(get(self.content(), (*at, "colour"), "#808080"))
            for i in range(combo.count()):
                combo.setItemIcon(i, icon(str(combo.itemData(i)), colour))

        bound.show = show
        return combo

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

    # -- rules -----------------------------------------------------------------------------------

    def _rule_form(self, index: int, rule: Any) -> QWidget:
        box = QWidget()
        form = form_layout(box)
        form.setContentsMargins(0, 0, 0, 0)
        at: Path_ = ("rules", index)
        form.addRow("Id", self._line((*at, "id")))
        form.addRow("Title", self._line((*at, "title")))
        triggers = [(t.label, k) for k, t in TRIGGERS.items()]
        form.addRow("When", self._choice((*at, "when"), triggers))
        for group, title in (("if", "If"), ("cost", "Cost"), ("then", "Then")):
            form.addRow(QLabel(f"<b>{title}</b>"))
            table = condition_table(1) if group == "if" else TERM_TABLES[group]
            self._term_list(form, (*at, group), group, table, get(rule, (group,), []), 1)
        choice = [
            (f"{c}: {'it happens' if c == 'compulsory' else 'an offer'}", c)
            for c in choices((*at, "choice"))
        ]
        form.addRow("Choice", self._choice((*at, "choice"), choice))
        chooser = [(CHOOSER_WORDS.get(c, label_of(c)), c) for c in choices((*at, "chooser"))]
        form.addRow("Chooser", self._choice((*at, "chooser"), chooser))
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
        form.addRow(self._advanced(at))
        return box

    def _advanced(self, at: Path_) -> QWidget:
        """The rule as one line of JSON, behind a check box: to copy a rule, or paste one."""
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        toggle = QCheckBox("Advanced: the rule as JSON")
        toggle.setObjectName("ruleset_advanced")
        toggle.setChecked(self.advanced)
        text = self._json(at, self._commit(at))
        text.setVisible(self.advanced)

        def switch(on: bool) -> None:
            self.advanced = on
            text.setVisible(on)

        toggle.toggled.connect(switch)
        column.addWidget(toggle)
        column.addWidget(text)
        return box

    def _term_list(
        self,
        form: QFormLayout,
        at: Path_,
        group: str,
        table: dict[str, Kind],
        terms: Any,
        level: int,
    ) -> None:
        """The terms of the list at ``at`` (a rule's, or a nested condition's ``of``), each with
        buttons to move and remove it, then a choice to add one."""
        terms = terms if isinstance(terms, list) else []
        for j, term in enumerate(terms):
            self._term_rows(form, (*at, j), group, table, term, level, len(terms))
        add = QPushButton(f"Add {TERM_WORDS[group]}")
        add.setObjectName("ruleset_add_" + (group if level == 1 else path_text(at)))
        menu = QMenu(add)  # a menu, not a combo: moving through it with the keys adds nothing
        for kind, info in table.items():
            action = menu.addAction(info.label)
            action.setData(kind)
            action.triggered.connect(lambda _=False, k=kind: self._add_term(at, group, k))
        add.setMenu(menu)
        add.setEnabled(len(terms) < max_items(at, MAX_ITEMS))  # a rule: 4 costs, 6 effects
        form.addRow(add)

    def _add_term(self, at: Path_, group: str, kind: str) -> None:
        edits.add_term(self.document, at, group, kind)

    def _term_rows(
        self,
        form: QFormLayout,
        path: Path_,
        group: str,
        table: dict[str, Kind],
        term: Any,
        level: int,
        siblings: int = 0,
    ) -> None:
        """A condition, cost or effect: its kind, then a field per parameter; ``siblings``:
        the length of its list (0: the single condition of a ``not``)."""
        row = QHBoxLayout()
        row.addWidget(
            self._choice(
                (*path, "kind"),
                [(info.label, kind) for kind, info in table.items()],
                lambda kind: edits.set_term_kind(self.document, path, group, str(kind)),
            ),
            1,
        )
        if siblings:
            index = int(path[-1])
            for text, step, where in (("↑", -1, "up"), ("↓", 1, "down")):
                button = _small_button(
                    text, f"rs-{where}:{path_text(path)}", f"Move {path_text(path)} {where}"
                )
                button.setEnabled(0 <= index + step < siblings)
                button.clicked.connect(
                    lambda _=False, s=step: edits.move_item(self.document, path, s)
                )
                row.addWidget(button)
            row.addWidget(self._remove_button(path))
        form.addRow(row)
        kind = table.get(str(get(term, ("kind",))))
        if kind is None:
            return
        for name, info in kind.params.items():
            at = (*path, name)
            required = name in kind.required
            if group == "if" and str(get(term, ("kind",))) in NESTED and name == "of":
                self._nested(form, at, get(term, ("of",)), level + 1)
            elif _is_quantity(info):
                self._quantity(form, at, get(term, (name,)), required)
            else:
                form.addRow(f"  {label_of(name)}", self._param(at, name, info, required))

    def _nested(self, form: QFormLayout, at: Path_, of: Any, level: int) -> None:
        """The conditions of an ``all`` / ``any`` (a list) or a ``not`` (one), indented."""
        sub = QWidget()
        sub.setObjectName("rs-nested:" + path_text(at))
        inner = form_layout(sub)
        inner.setContentsMargins(INDENT, 0, 0, 0)
        table = condition_table(level)
        if isinstance(of, list):
            self._term_list(inner, at, "if", table, of, level)
        else:
            self._term_rows(inner, at, "if", table, of, level)
        form.addRow(sub)

    # -- quantities, tables, sides ---------------------------------------------------------------

    def _quantity(self, form: QFormLayout, at: Path_, value: Any, required: bool) -> None:
        """A number, or what to count (with its parameters) times a factor, at most a cap."""
        schema = quantity_schema()
        counted = value.get("count") if isinstance(value, dict) else None
        items: list[tuple[str, Any]] = [] if required else [("(default)", "")]
        items += [("a number", None)] + [(q.label, k) for k, q in QUANTITIES.items()]

        def commit(count: Any) -> None:
            if count == "":
                edits.clear_field(self.document, at)
            elif count != counted or not isinstance(value, dict):
                edits.set_field(self.document, at, quantity_value(self.content(), count))

        what = compact(QComboBox())
        for label, data in items:
            what.addItem(label, data)
        what.activated.connect(lambda i: commit(what.itemData(i)))

        def show(_v: Any) -> None:  # what the quantity at ``at`` is, not a field of it
            now = get(self.content(), at)
            data = now.get("count") if isinstance(now, dict) else ("" if now is None else None)
            what.setCurrentIndex(
                next((i for i in range(what.count()) if what.itemData(i) == data), 0)
            )

        self._bind((*at, "count"), what, show)
        form.addRow(f"  {label_of(str(at[-1]))}", what)
        if isinstance(value, int) and not isinstance(value, bool):
            lo, hi = int(schema["minimum"]), int(schema["maximum"])
            form.addRow("    number", self._number(at, lo, hi))
            return
        if not isinstance(value, dict):
            return
        info = QUANTITIES.get(str(counted))
        for name, param in (info.params if info is not None else {}).items():
            form.addRow(f"    {label_of(name)}", self._param((*at, name), name, param, True))
        for name in ("times", "max"):
            bound = schema["properties"][name]
            words = "times" if name == "times" else "at most"
            form.addRow(
                f"    {words}",
                self._number(
                    (*at, name), int(bound["minimum"]), int(bound["maximum"]), optional=True
                ),
            )

    def _number(self, path: Path_, lo: int, hi: int, *, optional: bool = False) -> QSpinBox:
        """A whole number ``lo..hi``; ``optional``: one below ``lo`` is the default (unset)."""
        spin = QSpinBox()
        spin.setRange(lo - 1 if optional else lo, hi)
        if optional:
            spin.setSpecialValueText("(default)")
        spin.setKeyboardTracking(False)
        commit = self._commit_or_clear(path)
        spin.valueChanged.connect(lambda v: commit(None if v < lo else v))

        def show(v: Any) -> None:
            number = isinstance(v, int) and not isinstance(v, bool)
            spin.setValue(int(v) if number else spin.minimum())

        self._bind(path, spin, show)
        return spin

    def _numbers(self, path: Path_, info: dict[str, Any]) -> QWidget:
        """A list of whole numbers (a table's points): a field each, a button to add one at
        the end and one to remove the last, within the schema's bounds."""
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        items = info.get("items", {})
        lo, hi = int(items.get("minimum", -50)), int(items.get("maximum", 50))
        values = get(self.content(), path, [])
        values = values if isinstance(values, list) else []
        for k in range(len(values)):
            row.addWidget(self._number((*path, k), lo, hi))
        name = path_text(path)
        more = _small_button("+", f"rs-more:{name}", f"One more number in {name}")
        more.setEnabled(len(values) < int(info.get("maxItems", 10)))
        more.clicked.connect(
            lambda: edits.set_field(self.document, path, [*self._list_at(path), 0])
        )
        fewer = _small_button("−", f"rs-fewer:{name}", f"The last number of {name} goes")
        fewer.setEnabled(len(values) > int(info.get("minItems", 0)))
        fewer.clicked.connect(
            lambda: edits.set_field(self.document, path, self._list_at(path)[:-1])
        )
        row.addWidget(more)
        row.addWidget(fewer)
        row.addStretch(1)
        return box

    def _list_at(self, path: Path_) -> list[Any]:
        got = get(self.content(), path, [])
        return list(got) if isinstance(got, list) else []

    def _per_key(self, path: Path_, info: dict[str, Any]) -> QWidget:
        """An object of whole numbers by name (points per kind of side): a field each."""
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        for key, bound in info["properties"].items():
            row.addWidget(QLabel(label_of(key)))
            lo, hi = int(bound.get("minimum", 0)), int(bound.get("maximum", 99))
            row.addWidget(self._number((*path, key), lo, hi))
        row.addStretch(1)
        return box

    def _param(self, path: Path_, name: str, info: dict[str, Any], required: bool) -> QWidget:
        """A field for a term's parameter, from its schema fragment: a choice, a number, a
        check box, an id of the rule set, a list of numbers or numbers by name (JSON text
        for a shape the language adds that has no widget yet)."""
        optional = [] if required else [("(default)", None)]
        commit = self._commit_or_clear(path)
        if "enum" in info:
            items = optional + [(label_of(v), v) for v in info["enum"]]
            return self._choice(path, items, commit)
        kind = info.get("type")
        if kind == "integer":
            lo, hi = int(info.get("minimum", 0)), int(info.get("maximum", 99))
            return self._number(path, lo, hi, optional=not required)
        if kind == "boolean":
            return self._check(path, label_of(name))
        if kind == "string":
            key = "marks" if name == "mark" else "resources"
            ids = id_choices(self.content(), key)
            extra = {"what": ["points", "chips"], "of": ["chips"]}.get(name, [])
            if name == "resource" and "chips" in str(info.get("description", "")):
                extra = ["chips"]
            items = optional + [(i, i) for i in ids + extra]
            return self._choice(path, items, commit)
        if kind == "array" and info.get("items", {}).get("type") == "integer":
            return self._numbers(path, info)
        if kind == "object" and "properties" in info:
            return self._per_key(path, info)
        return self._json(path, commit)
