"""Real-input helpers for the playtest window tests (mouse, wheel, keys on the board view)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from engine.game import GameOptions
from mapeditor.painting import square_rect
from mapeditor.playtest import PlaytestSetup, PlaytestWindow, Seat

SMALL_ORDER = ("A", "B", "C", "E", "F", "U", "V", "K", "L", "E", "D", "J")
"""A short forced draw order for quick full games on the example map."""


def viewport_point(window: PlaytestWindow, scene_point: QPointF) -> QPoint:
    return window.view.mapFromScene(scene_point)


def click_scene(
    window: PlaytestWindow, scene_point: QPointF, button=Qt.MouseButton.LeftButton
) -> None:
    """A real mouse click on the board view's viewport at a scene point."""
    QTest.mouseClick(
        window.view.viewport(), button, Qt.KeyboardModifier.NoModifier,
        viewport_point(window, scene_point),
    )  # fmt: skip


def click_square(window: PlaytestWindow, square, button=Qt.MouseButton.LeftButton) -> None:
    click_scene(window, square_rect(square).center(), button)


def hover_square(window: PlaytestWindow, square) -> None:
    """Move the mouse onto ``square`` (from a nearby point: Qt sends no move to where it is)."""
    centre = viewport_point(window, square_rect(square).center())
    QTest.mouseMove(window.view.viewport(), centre + QPoint(3, 3))
    QTest.mouseMove(window.view.viewport(), centre)


def wheel(window: PlaytestWindow, square, delta: int = -120) -> None:
    pos = QPointF(viewport_point(window, square_rect(square).center()))
    event = QWheelEvent(
        pos, QPointF(window.view.viewport().mapToGlobal(pos.toPoint())), QPoint(0, 0),
        QPoint(0, delta), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    QApplication.sendEvent(window.view.viewport(), event)


def small_setup(bot: str = "random", **options) -> PlaytestSetup:
    opts = dict(rule_set="none", start_squares=((1, 4),), draw_order=SMALL_ORDER)
    opts.update(options)
    return PlaytestSetup(
        seats=[Seat("Red", "#d7301f", "human"), Seat("Blue", "#2b6cc4", bot)],
        seed=5,
        options=GameOptions(**opts),
    )


def wait_for_human(qtbot, window: PlaytestWindow) -> None:
    """Wait until a human is to move (or the game is over) and no bot is thinking."""
    qtbot.waitUntil(
        lambda: window.game.is_over() or (window.human_to_move() and not window.worker.busy),
        timeout=20_000,
    )


def play_first_placement(qtbot, window: PlaytestWindow):
    """As the human: click the first legal placement (turned to fit), place no meeple, and wait
    until the human is to move again. Returns the placement played."""
    p = window.game.legal_placements().list()[0]
    window.rotation = p.rotation
    click_square(window, p.square)
    if window.pending is not None:
        window.no_meeple()
    wait_for_human(qtbot, window)
    return p
