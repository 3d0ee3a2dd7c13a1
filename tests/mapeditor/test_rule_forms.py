"""The Rule set dock's structured widgets: a rule with nested conditions and a quantity built
with the mouse and keys, undone and redone step by step; a colour and an icon picked; the saved
map holds what was built."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.document import MapDocument


def _content(window: Any) -> dict[str, Any]:
    content = window.ruleset.content()
    assert content is not None
    return content


def _find(dock: Any, kind: type, name: str) -> Any:
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # a rebuilt form's old one
    widget = dock.findChild(kind, name)
    assert widget is not None, name
    return widget


def _click(dock: Any, widget: QWidget) -> None:
    dock.ensureWidgetVisible(widget)
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())


def _type(dock: Any, edit: QWidget, text: str) -> None:
    _click(dock, edit)
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def _menu_pick(dock: Any, name: str, data: Any) -> None:
    """Open the menu of button ``name`` with a click and choose the action holding ``data``
    with the keys (the menu runs its own loop: the keys are sent once it is open)."""
    button = _find(dock, QPushButton, name)
    menu = button.menu()
    action = next(a for a in menu.actions() if a.data() == data)

    def choose() -> None:
        menu.setActiveAction(action)
        QTest.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose)
    _click(dock, button)
    QApplication.processEvents()  # the press queued the menu's popup: it opens and is chosen


def _pick(dock: Any, name: str, data: Any) -> None:
    """Choose the item holding ``data`` in combo ``name`` with the keyboard."""
    combo = _find(dock, QComboBox, name)
    _click(dock, combo)
    QTest.keyClick(combo, Qt.Key.Key_Escape)  # the click opened the popup
    target = next(i for i in range(combo.count()) if combo.itemData(i) == data)
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(target):
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert combo.itemData(combo.currentIndex()) == data


BUILT_RULE = {
    "id": "rule",
    "title": "Rule",
    "when": "tile_placed",
    "if": [
        {
            "kind": "any",
            "of": [
                {"kind": "not", "of": {"kind": "round", "at_least": 3}},
                {"kind": "on", "print": "sea"},
            ],
        }
    ],
    "then": [
        {
            "kind": "gain",
            "resource": "salt",
            "amount": {"count": "held", "resource": "chips", "times": 2, "max": 5},
        }
    ],
    "choice": "compulsory",
    "chooser": "current",
}
"""What the dock builds (a valid rule set is written without its empty lists)."""


def test_a_rule_with_nested_conditions_and_a_quantity_from_scratch(
    make_editor, qtbot, monkeypatch, tmp_path: Path
) -> None:
    window = make_editor(load_map(bundled_map("example-small")))
    dock, stack = window.ruleset, window.document.undo_stack
    dock.use_preset("deutschland")
    start = stack.count()

    # a resource: its id, a colour from the colour dialog, an icon by name
    _click(dock, _find(dock, QPushButton, "ruleset_add_resources"))
    _type(dock, _find(dock, QLineEdit, "rs:resources[0].id"), "salt")
    asked: list[str] = []

    def get_color(initial: QColor, _parent: Any, title: str) -> QColor:
        asked.append(f"{initial.name()} {title}")
        return QColor("#d8d8d0")

    monkeypatch.setattr("mapeditor.widgets.rule_forms.QColorDialog.getColor", get_color)
    _click(dock, _find(dock, QPushButton, "rs:resources[0].colour"))
    assert asked == ["#808080 Colour of resources[0].colour"]
    _pick(dock, "rs:resources[0].icon", "salt")
    resource = _content(window)["resources"][0]
    assert (resource["colour"], resource["icon"]) == ("#d8d8d0", "salt")
    assert _find(dock, QPushButton, "rs:resources[0].colour").text() == "#d8d8d0"

    # a rule: if any of (on the sea, not (round at least 3)), gain salt: twice the chips held
    _click(dock, _find(dock, QPushButton, "ruleset_add_rules"))
    _menu_pick(dock, "ruleset_add_if", "any")
    assert _content(window)["rules"][0]["if"] == [{"kind": "any", "of": [{"kind": "is_current"}]}]
    _pick(dock, "rs:rules[0].if[0].of[0].kind", "on")
    _pick(dock, "rs:rules[0].if[0].of[0].print", "sea")
    _menu_pick(dock, "ruleset_add_rules[0].if[0].of", "not")
    deepest = _find(dock, QComboBox, "rs:rules[0].if[0].of[1].of.kind")
    kinds = {deepest.itemData(i) for i in range(deepest.count())}
    assert "round" in kinds and not kinds & {"all", "any", "not"}  # the schema's depth
    _pick(dock, "rs:rules[0].if[0].of[1].of.kind", "round")
    _type(dock, _find(dock, QSpinBox, "rs:rules[0].if[0].of[1].of.at_least"), "3")
    _click(dock, _find(dock, QPushButton, "rs-up:rules[0].if[0].of[1]"))
    assert not _find(dock, QPushButton, "rs-up:rules[0].if[0].of[0]").isEnabled()

    _pick(dock, "rs:rules[0].then[0].kind", "gain")
    _pick(dock, "rs:rules[0].then[0].amount.count", "held")
    _pick(dock, "rs:rules[0].then[0].amount.resource", "chips")
    _type(dock, _find(dock, QSpinBox, "rs:rules[0].then[0].amount.times"), "2")
    _type(dock, _find(dock, QSpinBox, "rs:rules[0].then[0].amount.max"), "5")

    built = _content(window)
    assert built["rules"][0] == BUILT_RULE
    assert window.document.map.rule_set.spec is not None  # the checker accepts it
    assert _find(dock, QLabel, "rs-problems:rules[0]").text() == ""

    texts = [stack.text(i) for i in range(start, stack.count())]
    assert "Move rules[0].if[0].of[1] up" in texts
    assert texts[-1] == "Change rules[0].then[0].amount.max"
    while stack.index() > start:
        stack.undo()
    assert "resources" not in _content(window) or _content(window)["resources"] == []
    while stack.canRedo():
        stack.redo()
    assert _content(window) == built
    assert _find(dock, QSpinBox, "rs:rules[0].then[0].amount.times").value() == 2

    target = tmp_path / "salt.json"
    window.document.save(target)
    saved = json.loads(target.read_text(encoding="utf-8"))["rule_set"]
    assert saved["rules"][0]["if"] == BUILT_RULE["if"]
    assert saved["rules"][0]["then"] == BUILT_RULE["then"]
    assert saved["resources"][0]["icon"] == "salt"
    again = MapDocument.open(target)
    spec = again.map.rule_set.spec
    assert spec is not None and spec.resources[0].colour == "#d8d8d0"


def test_a_quantity_switches_between_a_number_and_a_count(make_editor, qtbot) -> None:
    window = make_editor(load_map(bundled_map("example-small")))
    dock, stack = window.ruleset, window.document.undo_stack
    dock.use_preset("deutschland")
    _click(dock, _find(dock, QPushButton, "ruleset_add_rules"))
    amount = ("rules", 0, "then", 0, "amount")
    number = _find(dock, QSpinBox, "rs:rules[0].then[0].amount")
    assert (number.minimum(), number.maximum(), number.value()) == (-50, 50, 1)
    _type(dock, number, "-4")
    assert _content(window)["rules"][0]["then"][0]["amount"] == -4

    _pick(dock, "rs:rules[0].then[0].amount.count", "feature_tiles")
    assert _content(window)["rules"][0]["then"][0]["amount"] == {"count": "feature_tiles"}
    # a tile placed fills no feature: the checker's line names the quantity's field
    problems = _find(dock, QLabel, "rs-problems:rules[0]").text()
    assert "rules[0].then[0].amount" in problems
    what = dock.field_widget((*amount, "count"))
    assert what is not None and what.property("invalid")

    _pick(dock, "rs:rules[0].then[0].kind", "table")
    assert _content(window)["rules"][0]["then"][0] == {
        "kind": "table",
        "by": "count",
        "points": [1],
    }
    _click(dock, _find(dock, QPushButton, "rs-more:rules[0].then[0].points"))
    _type(dock, _find(dock, QSpinBox, "rs:rules[0].then[0].points[1]"), "7")
    assert _content(window)["rules"][0]["then"][0]["points"] == [1, 7]
    _click(dock, _find(dock, QPushButton, "rs-fewer:rules[0].then[0].points"))
    assert _content(window)["rules"][0]["then"][0]["points"] == [1]
    stack.undo()
    assert _content(window)["rules"][0]["then"][0]["points"] == [1, 7]
