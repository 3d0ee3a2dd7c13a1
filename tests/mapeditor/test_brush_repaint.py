"""A brush step repaints only around what it changed, not every chunk of the map in view."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from mapeditor.painting import SQUARE
from mapeditor.tools import BrushTool
from tests.mapeditor._editor_input import blank, square_point

SLACK_PX = 5  # the view rounds a dirty rectangle out to whole pixels, plus 2 for antialiasing


def _record_paints(monkeypatch) -> list[QRectF]:
    """The regions the map chunks paint from now on (any repaint of the view, the overlay's
    too, repaints the chunks under it)."""
    import mapeditor.widgets.map_scene as map_scene

    painted: list[QRectF] = []
    original = map_scene.paint_map

    def paint_map(painter, m, options, region=None) -> None:
        painted.append(QRectF(region))
        original(painter, m, options, region=region)

    monkeypatch.setattr(map_scene, "paint_map", paint_map)
    return painted


def _within(view, rect: QRectF, squares: set[tuple[int, int]]) -> bool:
    """``rect`` lies inside one of the 3×3 blocks around ``squares`` (a change there shows
    there), give or take a few pixels of the view."""
    slack = SLACK_PX / view.transform().m11()
    for x, y in squares:
        block = QRectF((x - 1) * SQUARE, (y - 1) * SQUARE, 3 * SQUARE, 3 * SQUARE)
        if block.adjusted(-slack, -slack, slack, slack).contains(rect):
            return True
    return False


def test_a_brush_step_repaints_only_the_chunks_and_region_around_the_changed_square(
    make_editor, monkeypatch, qtbot
) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    window = make_editor(blank(64, 64, land=False))
    window.set_tool(BrushTool)
    scene, viewport = window.scene, window.view.viewport()
    window.view.fit()
    qtbot.wait(50)
    start, step = (30, 30), (31, 30)
    QTest.mouseMove(viewport, square_point(window, start))
    QTest.mousePress(
        viewport,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        square_point(window, start),
    )
    QApplication.processEvents()
    painted = _record_paints(monkeypatch)
    assert len(scene._chunks) == 16  # a 64×64 map is 4×4 chunks, all in view

    QTest.mouseMove(viewport, square_point(window, step))
    qtbot.waitUntil(lambda: bool(painted))
    qtbot.wait(20)  # anything else the step made dirty

    assert step in window.document.map.land
    for rect in painted:  # the changed square's block, in the chunks it overlaps
        assert _within(window.view, rect, {step}), rect
    QTest.mouseRelease(
        viewport,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        square_point(window, step),
    )
    assert window.document.undo_stack.count() == 1  # the stroke is one undoable edit


def test_the_hover_mark_is_erased_where_it_was(make_editor, monkeypatch, qtbot) -> None:
    """Moving the cursor repaints where the hover edge was and is: no mark is left behind, and
    the rest of the map is not repainted."""
    window = make_editor(blank(64, 64, land=True))
    window.set_tool(BrushTool)
    scene = window.scene
    scene.show_hover_edge = True
    qtbot.wait(50)
    from PySide6.QtTest import QTest

    viewport = window.view.viewport()
    QTest.mouseMove(viewport, square_point(window, (10, 10)))
    QApplication.processEvents()
    painted = _record_paints(monkeypatch)
    QTest.mouseMove(viewport, square_point(window, (40, 40)))
    qtbot.waitUntil(lambda: bool(painted))
    qtbot.wait(20)
    # Qt paints the bounding rectangle of what is dirty in one paint event: where the mark was
    # (so it is erased) to where it is, and no more (the whole overlay would be the whole map)
    old_mark = QRectF(10 * SQUARE, 10 * SQUARE, SQUARE, 1)
    assert any(r.contains(old_mark) for r in painted)
    slack = SLACK_PX / window.view.transform().m11()
    span = QRectF(9 * SQUARE, 9 * SQUARE, 33 * SQUARE, 33 * SQUARE)
    for rect in painted:
        assert span.adjusted(-slack, -slack, slack, slack).contains(rect), rect


def test_new_validation_markers_repaint_only_their_squares(monkeypatch, qtbot) -> None:
    """Validation runs after each edit and mostly finds the same issues: the same markers repaint
    nothing, a new one only its square. (A bare view: no dock reacts to anything here.)"""
    from mapeditor.document import MapDocument
    from mapeditor.widgets.map_scene import MapScene
    from mapeditor.widgets.map_view import MapView

    scene = MapScene(MapDocument(blank(64, 64, land=True)))
    view = MapView(scene)
    qtbot.addWidget(view, before_close_func=lambda _v: scene.document.undo_stack.setClean())
    view.resize(700, 700)
    view.show()
    qtbot.waitExposed(view)
    view.fit()
    painted = _record_paints(monkeypatch)
    qtbot.waitUntil(lambda: bool(painted))  # the first paint
    qtbot.wait(50)
    scene.set_markers({(5, 5)}, set())
    qtbot.wait(50)
    painted.clear()
    scene.set_markers({(5, 5)}, set())
    qtbot.wait(50)
    assert painted == []
    scene.set_markers({(5, 5)}, {(30, 20)})
    qtbot.waitUntil(lambda: bool(painted))
    qtbot.wait(20)
    for rect in painted:
        assert _within(view, rect, {(30, 20)}), rect
    assert scene.marker_warnings == {(30, 20)}
