"""Real mouse and key input on the Rule set dock's fields, addressed by their object names."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QPushButton, QWidget


def content(window: Any) -> dict[str, Any]:
    """The rule set the window's dock holds now."""
    held = window.ruleset.content()
    assert held is not None
    return held


def find(dock: Any, kind: type, name: str) -> Any:
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # a rebuilt form's old one
    widget = dock.findChild(kind, name)
    assert widget is not None, name
    return widget


def click(dock: Any, widget: QWidget) -> None:
    dock.ensureWidgetVisible(widget)
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.rect().center())


def type_into(dock: Any, edit: QWidget, text: str) -> None:
    """Select what the field holds, type ``text`` and press Enter, as a designer does."""
    click(dock, edit)
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)


def menu_pick(dock: Any, name: str, data: Any) -> None:
    """Open the menu of button ``name`` with a click and choose the action holding ``data``
    with the keys (the menu runs its own loop: the keys are sent once it is open)."""
    button = find(dock, QPushButton, name)
    menu = button.menu()
    action = next(a for a in menu.actions() if a.data() == data)

    def choose() -> None:
        menu.setActiveAction(action)
        QTest.keyClick(menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, choose)
    click(dock, button)
    QApplication.processEvents()  # the press queued the menu's popup: it opens and is chosen


def pick(dock: Any, combo: QComboBox, data: Any) -> None:
    """Choose the item holding ``data`` with the keyboard (Down until it is current)."""
    click(dock, combo)
    QTest.keyClick(combo, Qt.Key.Key_Escape)  # the click opened the popup
    target = next(i for i in range(combo.count()) if combo.itemData(i) == data)
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Home)
    for _ in range(target):
        QTest.keyClick(combo, Qt.Key.Key_Down)
    assert combo.itemData(combo.currentIndex()) == data


def pick_named(dock: Any, name: str, data: Any) -> None:
    """:func:`pick` in the combo box called ``name``."""
    pick(dock, find(dock, QComboBox, name), data)
