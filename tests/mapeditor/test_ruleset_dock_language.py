"""The Rule set dock composes the rule language: resources, marks and when/if/then rules,
the sheet's setup; every change one undo step, the checker's lines beside the fields."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from engine.mapio import load_map
from engine.resources import bundled_map


def _window(make_editor: Any) -> Any:
    window = make_editor(load_map(bundled_map("example-small")))
    window.ruleset.use_preset("deutschland")
    return window


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
    """Select what the field holds, type ``text`` and press Enter, as a designer does."""
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


def _pick(dock: Any, combo: QComboBox, data: Any) -> None:
    """Choose the item holding ``data`` with the keyboard (Down until it is current)."""
    _click(dock, combo)
    QTest.keyClick(combo, Qt.Key.Key_Escape)  # the click opened the popup
    target = next(i for i in range(combo.count()) if combo.itemData(i) == data)
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(target):
        QTest.keyClick(combo, Qt.Key.Key_Down)


def test_a_rule_is_built_from_the_dock_with_mouse_and_keys(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock, stack = window.ruleset, window.document.undo_stack
    start = stack.count()

    _click(dock, _find(dock, QPushButton, "ruleset_add_resources"))
    _type(dock, _find(dock, QLineEdit, "rs:resources[0].id"), "herring")
    _type(dock, _find(dock, QLineEdit, "rs:resources[0].name"), "Herring")
    assert _content(window)["resources"][0]["id"] == "herring"
    assert stack.count() == start + 3

    _click(dock, _find(dock, QPushButton, "ruleset_add_rules"))
    _type(dock, _find(dock, QLineEdit, "rs:rules[0].title"), "Fishing")
    _pick(dock, _find(dock, QComboBox, "rs:rules[0].when"), "tile_placed")
    _menu_pick(dock, "ruleset_add_if", "on")
    _pick(dock, _find(dock, QComboBox, "rs:rules[0].if[0].print"), "sea")
    _pick(dock, _find(dock, QComboBox, "rs:rules[0].then[0].kind"), "gain")
    rule = _content(window)["rules"][0]
    assert rule["title"] == "Fishing"
    assert rule["if"] == [{"kind": "on", "print": "sea"}]
    assert rule["then"] == [{"kind": "gain", "resource": "herring", "amount": 1}]
    _type(dock, _find(dock, QSpinBox, "rs:rules[0].then[0].amount"), "2")
    assert _content(window)["rules"][0]["then"][0]["amount"] == 2
    _click(dock, _find(dock, QPushButton, "ruleset_add_limit"))
    assert _content(window)["rules"][0]["limits"] == [{"per": "game", "times": 1}]
    spec = window.document.map.rule_set.spec
    assert spec is not None and spec.rules[0].title == "Fishing"
    assert spec.resources[0].name == "Herring"

    texts = [stack.text(i) for i in range(start, stack.count())]
    assert texts[-1] == "Add a limit to rules[0].limits"
    while stack.index() > start + 3:  # undo back to the resource, the rule gone
        stack.undo()
    assert "rules" not in _content(window) or _content(window)["rules"] == []
    stack.redo()
    assert _content(window)["rules"][0]["id"] == "rule"


def test_a_supply_smaller_than_30_is_set_in_the_sheet_setup(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock = window.ruleset
    assert "sheet_setup" in _content(window)  # the preset has the sheet's 30
    given = _find(dock, QCheckBox, "rs:sheet_setup")
    _click(dock, given)  # off: no setup
    assert "sheet_setup" not in _content(window)
    _click(dock, _find(dock, QCheckBox, "rs:sheet_setup"))
    chips = _find(dock, QSpinBox, "rs:sheet_setup.chips")
    assert (chips.minimum(), chips.maximum(), chips.value()) == (0, 60, 30)
    _type(dock, chips, "20")
    assert _content(window)["sheet_setup"]["chips"] == 20
    assert window.document.map.rule_set.spec.sheet_setup.chips == 20
    window.document.undo_stack.undo()
    assert _content(window)["sheet_setup"]["chips"] == 30


def test_a_mistake_is_shown_beside_its_form_and_nothing_moves(make_editor, qtbot) -> None:
    window = _window(make_editor)
    dock = window.ruleset
    _click(dock, _find(dock, QPushButton, "ruleset_add_rules"))
    _pick(dock, _find(dock, QComboBox, "rs:rules[0].then[0].kind"), "extra_turn")

    def below() -> Any:  # the form's last button: where it is shows whether the form moved
        button = _find(dock, QPushButton, "ruleset_add_limit")
        return button.mapTo(dock.widget(), button.rect().topLeft())

    def line() -> str:
        return str(_find(dock, QLabel, "rs-problems:rules[0]").text())

    where = below()
    assert line() == "" and window.document.map.rule_set.spec is not None
    _pick(dock, _find(dock, QComboBox, "rs:rules[0].when"), "end_of_round")
    expected = "rules[0].then: an extra turn at 'end_of_round' has no turn to follow"
    assert line() == expected
    assert expected in dock.problem_label.text()
    assert window.document.map.rule_set.spec is None  # kept as written, not refused
    assert below() == where

    _pick(dock, _find(dock, QComboBox, "rs:rules[0].then[0].kind"), "points")
    assert line() == ""
    _click(dock, _find(dock, QCheckBox, "ruleset_advanced"))  # the rule as JSON text
    before = _content(window)
    text = _find(dock, QLineEdit, "rs:rules[0]")
    _type(dock, text, '{"id": ')
    assert _content(window) == before  # text that is not JSON changes nothing
    assert "rules[0]: not JSON" in line()
    assert text.palette().color(text.backgroundRole()).red() == 255
    rule = {"id": "pasted", "when": "tile_placed", "then": [{"kind": "points", "amount": 2}]}
    _type(dock, _find(dock, QLineEdit, "rs:rules[0]"), json.dumps(rule))
    assert _content(window)["rules"][0] == {**rule, "choice": "compulsory", "chooser": "current"}
    assert line() == ""
