"""Dock fields that keep still: the wheel scrolls the dock, Escape hands the keys back to the map.

Qt lets a spin box, combo box or slider take the mouse wheel whenever the pointer is over it, so
scrolling a dock turned whatever field passed under the pointer (the printed square went from 45
to 44 mm). A dock calls :func:`guard_fields` on what it built: such a field then changes with the
wheel only while it has the keyboard focus (clicked or tabbed into); otherwise the wheel scrolls
the dock. Escape in a guarded field gives the keyboard focus back to the window's canvas, where
the single-key tool shortcuts work (they work only there: they never type into a field and a
field's letters never switch tools).

The filter sits on the fields themselves, not on the application: it sees only their events.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QGraphicsView,
    QLineEdit,
    QMainWindow,
    QScrollBar,
    QStackedWidget,
    QWidget,
)

_WHEELED = (QAbstractSpinBox, QComboBox, QAbstractSlider)
_TYPED = (QLineEdit, QAbstractButton)


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QGraphicsView):
            return parent
        parent = parent.parentWidget()
    return None


def _canvas(widget: QWidget) -> QWidget | None:
    """The main window's canvas: its central widget (the page shown, when pages are stacked)."""
    window = widget.window()
    central = window.centralWidget() if isinstance(window, QMainWindow) else None
    if isinstance(central, QStackedWidget):
        central = central.currentWidget()
    return central


class FieldGuard(QObject):
    """The event filter of the guarded fields (see the module's docstring)."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(obj, QWidget):
            return False
        kind = event.type()
        if kind == QEvent.Type.Wheel and isinstance(obj, _WHEELED) and not obj.hasFocus():
            area = _scroll_area(obj)
            if area is not None:
                # The dock scrolls as if the field were not there; the field keeps its value.
                QCoreApplication.sendEvent(area.verticalScrollBar(), event)
                return True
        if (
            kind == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
        ):
            canvas = _canvas(obj)
            if canvas is not None and canvas.isVisible():
                canvas.setFocus(Qt.FocusReason.ShortcutFocusReason)
                return True
        return False


_GUARD: FieldGuard | None = None


def guard_fields(root: QWidget) -> None:
    """Guard every field below ``root`` (call again after building new fields; guarding a field
    twice changes nothing)."""
    global _GUARD  # noqa: PLW0603 - one filter object for the whole application
    if _GUARD is None:
        _GUARD = FieldGuard(QCoreApplication.instance())
    for widget in root.findChildren(QWidget):
        if isinstance(widget, QScrollBar):
            continue
        if isinstance(widget, _WHEELED):
            if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel gives no focus
            widget.installEventFilter(_GUARD)
        elif isinstance(widget, _TYPED):
            widget.installEventFilter(_GUARD)
