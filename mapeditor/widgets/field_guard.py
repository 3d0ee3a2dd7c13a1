"""Dock fields that keep still: the wheel scrolls the dock, Escape hands the keys back to the map.

Qt lets a spin box, combo box or slider take the mouse wheel whenever the pointer is over it, so
scrolling a dock turned whatever field passed under the pointer (the printed square went from 45
to 44 mm). Once :func:`install_field_guard` has run, such a field inside a scroll area changes
with the wheel only while it has the keyboard focus (clicked or tabbed into); otherwise the wheel
scrolls the dock. Escape in a dock field gives the keyboard focus back to the map's canvas, where
the single-key tool shortcuts work (they work only there: they never type into a field and a
field's letters never switch tools).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QAbstractSlider,
    QAbstractSpinBox,
    QComboBox,
    QDockWidget,
    QGraphicsView,
    QScrollBar,
    QWidget,
)

_FIELDS = (QAbstractSpinBox, QComboBox, QAbstractSlider)


def _field(obj: QObject) -> QWidget | None:
    """The spin box, combo box or slider ``obj`` is (or is the line edit of)."""
    for widget in (obj, obj.parent() if isinstance(obj, QWidget) else None):
        if isinstance(widget, _FIELDS) and not isinstance(widget, QScrollBar):
            return widget
    return None


def _scroll_area(widget: QWidget) -> QAbstractScrollArea | None:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QGraphicsView):
            return parent
        parent = parent.parentWidget()
    return None


class FieldGuard(QObject):
    """The application-wide event filter (see the module's docstring)."""

    def __init__(self, canvas: QWidget) -> None:
        super().__init__(canvas)
        self.canvas = canvas

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.Polish:
            field = _field(obj)
            if field is not None and field.focusPolicy() == Qt.FocusPolicy.WheelFocus:
                field.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # the wheel gives no focus
        elif kind == QEvent.Type.Wheel:
            field = _field(obj)
            if field is not None and not field.hasFocus():
                area = _scroll_area(field)
                if area is not None:
                    # The dock scrolls as if the field were not there; the field keeps its value.
                    QCoreApplication.sendEvent(area.verticalScrollBar(), event)
                    return True
        elif (
            kind == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and isinstance(obj, QWidget)
            and obj.window() is self.canvas.window()
            and _dock_of(obj) is not None
            and self.canvas.isVisible()
        ):
            self.canvas.setFocus(Qt.FocusReason.ShortcutFocusReason)
            return True
        return False


def _dock_of(widget: QWidget) -> QDockWidget | None:
    parent: QWidget | None = widget
    while parent is not None:
        if isinstance(parent, QDockWidget):
            return parent
        parent = parent.parentWidget()
    return None


def install_field_guard(canvas: QWidget) -> FieldGuard:
    """Guard every field of the application (a window's canvas gets the keys back on Escape);
    removed when ``canvas`` goes."""
    guard = FieldGuard(canvas)
    app = QCoreApplication.instance()
    if app is not None:
        app.installEventFilter(guard)
    return guard
