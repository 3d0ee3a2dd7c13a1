"""Copy and paste of selected squares with their elements, within a map and between maps."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from engine.geometry import Edge, Side
from engine.mapdef import BorderFeature, EdgeKind, LargeCity, MapDef, Town
from engine.validation import validate_map
from mapeditor.tools import SelectTool
from mapeditor.tools.clipboard import MIME_TYPE, copy_fragment, pasted_map
from tests.mapeditor._editor_input import drag, square_point


def source_map() -> MapDef:
    m = MapDef("src", "Source", 10, 8)
    m.land = {(x, y) for x in range(1, 4) for y in range(1, 4)}
    m.towns[(1, 1)] = Town("Ashby")
    m.large_cities["york"] = LargeCity("york", "York", {(2, 2), (3, 2)})
    m.border_features[Edge(1, 3, Side.W)] = BorderFeature(EdgeKind.ROAD)
    return m


def _active(qtbot, window):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.view.setFocus()
    return window


def _keys(window, key) -> None:
    QTest.keyClick(window.view, key, Qt.KeyboardModifier.ControlModifier)


def test_copy_and_paste_within_a_map_with_real_input(make_editor, qtbot) -> None:
    window = _active(qtbot, make_editor(source_map()))
    window.set_tool(SelectTool)
    drag(window, [square_point(window, (1, 1)), square_point(window, (3, 3))])
    assert len(window.document.selection) == 9
    _keys(window, Qt.Key.Key_C)
    QTest.mouseMove(window.view.viewport(), square_point(window, (6, 2)))
    QTest.mouseMove(window.view.viewport(), square_point(window, (6, 3)))
    _keys(window, Qt.Key.Key_V)
    m = window.document.map
    assert {(x, y) for x in range(6, 9) for y in range(3, 6)} <= m.land
    # The pasted places get names of their own (issue #27): no two places are called alike.
    assert m.towns[(6, 3)].name == "Ashby 2" and m.towns[(1, 1)].name == "Ashby"
    copies = [c for c in m.large_cities.values() if c.name.startswith("York")]
    assert sorted(c.name for c in copies) == ["York", "York 2"]
    assert {(7, 4), (8, 4)} in [c.squares for c in copies]
    assert len({c.id for c in copies}) == 2  # the copy got a free id
    assert not [i for i in validate_map(m) if i.code == "duplicate-name"]
    assert m.border_features[Edge(6, 5, Side.W)].kind is EdgeKind.ROAD
    assert window.document.selection == {(x, y) for x in range(6, 9) for y in range(3, 6)}
    assert window.document.undo_stack.count() == 1
    QTest.mouseMove(window.view.viewport(), square_point(window, (6, 0)))
    QTest.mouseMove(window.view.viewport(), square_point(window, (5, 0)))
    _keys(window, Qt.Key.Key_V)  # again: the next free number
    assert window.document.map.towns[(5, 0)].name == "Ashby 3"
    _keys(window, Qt.Key.Key_Z)
    _keys(window, Qt.Key.Key_Z)
    assert window.document.map == source_map()


def test_paste_into_another_map(make_editor, qtbot) -> None:
    first = _active(qtbot, make_editor(source_map()))
    first.document.select({(x, y) for x in range(1, 4) for y in range(1, 4)})
    assert first.copy_selection()
    other = MapDef("dst", "Other", 6, 6)
    other.large_cities["york"] = LargeCity("york", "Old York", {(5, 5)})
    other.land = {(5, 5)}
    second = make_editor(other)
    second.paste()  # the cursor is not over the map: pasted where it was copied from
    m = second.document.map
    assert m.towns[(1, 1)].name == "Ashby"
    assert m.large_cities["york"].name == "Old York"  # the old one kept its id
    assert any(c.name == "York" and c.squares == {(2, 2), (3, 2)} for c in m.large_cities.values())


def test_paste_overwrites_the_target_and_clips_to_the_grid() -> None:
    m = source_map()
    fragment = copy_fragment(m, {(x, y) for x in range(1, 4) for y in range(1, 4)})
    target = MapDef("t", "T", 5, 5)
    target.land = {(x, y) for x in range(5) for y in range(5)}
    target.towns[(4, 4)] = Town("Gone")
    out, squares = pasted_map(target, fragment, (3, 3))
    assert squares == {(3, 3), (4, 3), (3, 4), (4, 4)}
    assert (4, 4) not in out.towns  # the target squares are replaced by the copied ones
    assert out.towns[(3, 3)].name == "Ashby"
    assert out.large_cities == {}  # York would stick out of the grid: left out


def test_broken_clipboard_data_is_refused_with_a_message(make_editor, monkeypatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    window = make_editor(source_map())
    mime = QMimeData()
    mime.setData(MIME_TYPE, b'{"squares": "nonsense"}')
    QGuiApplication.clipboard().setMimeData(mime)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _p, _t, text: shown.append(text))
    before = window.document.map.copy()
    assert window.paste() == set()
    assert shown and shown[0].startswith("clipboard:")
    assert window.document.map == before
