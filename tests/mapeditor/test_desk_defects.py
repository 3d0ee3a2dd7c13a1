"""Defects a designer hit at the desk (issue 27), each driven with real mouse and key events:
a chip supply under 30, the chip-square colour and track number, the wheel over dock fields,
the Rule set dock after opening a map without one, and keyboard focus between docks and canvas."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

from engine.mapdef import Colour, EmbeddedRuleSet, MapDef
from engine.mapio import load_map, save_map
from engine.resources import bundled_map
from engine.validation import validate_map
from mapeditor.ruleset_data import data_state, preset_content, with_value
from mapeditor.tools.marks import ChipSquareTool, TrackTool
from mapeditor.tools.paint import EraserTool
from tests.mapeditor._editor_input import click, square_point


def _example() -> MapDef:
    return load_map(bundled_map("example-small"))


def _active(qtbot, window):
    """The window active (keys and focus work as for a user), the canvas focused."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.view.setFocus()
    return window


def _type_into(spin: QSpinBox, text: str) -> None:
    """Click into a spin box, replace its text and press Enter, as a user does."""
    line = spin.lineEdit()
    QTest.mouseClick(line, Qt.MouseButton.LeftButton)
    QTest.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(line, text)
    QTest.keyClick(line, Qt.Key.Key_Return)


def _wheel(widget, notches: int) -> None:
    """Mouse wheel over the middle of ``widget`` (through the application, like a real one)."""
    point = widget.rect().center()
    for _ in range(abs(notches)):
        event = QWheelEvent(
            QPointF(point),
            QPointF(widget.mapToGlobal(point)),
            QPoint(),
            QPoint(0, -120 if notches < 0 else 120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(widget, event)


# -- 1: a chip supply smaller than 30 ---------------------------------------------------------------


def test_a_smaller_chip_supply_is_made_in_the_dock(make_editor, qtbot) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    window.show_rule_set()
    dock.use_preset("france")
    assert window.document.map.rule_set.spec.sheet_setup.chips == 30
    _type_into(dock.spin_box(("supply", "per_colour")), "4")
    values = [dock.spin_box(("supply", "values", v)) for v in ("1", "2")]
    _type_into(values[0], "2")
    _type_into(values[1], "2")
    m = window.document.map
    assert isinstance(m.rule_set, EmbeddedRuleSet)
    spec = m.rule_set.spec
    assert (spec.supply.per_colour, spec.sheet_setup.chips) == (4, 12)
    # The sheet's own chip count has a field too.
    _type_into(dock.spin_box(("sheet_setup", "chips")), "9")
    assert window.document.map.rule_set.spec.sheet_setup.chips == 9
    assert isinstance(window.document.map.rule_set, EmbeddedRuleSet)
    window.document.undo_stack.undo()
    assert window.document.map.rule_set.spec.sheet_setup.chips == 12


# -- 2: the chip-square colour and the track number ----------------------------------------------


def test_chip_square_colour_and_track_number_are_chosen_on_the_options_bar(
    make_editor, qtbot
) -> None:
    m = _example()
    window = _active(qtbot, make_editor(m))
    square = next(iter(sorted(m.land - set(m.chip_squares))))
    QTest.keyClick(window.view, Qt.Key.Key_C)
    assert isinstance(window.scene.tool, ChipSquareTool)
    combo = window.tool_options.findChild(QComboBox, "tool_colour")
    qtbot.waitUntil(combo.isVisible)
    combo.setFocus()
    for _ in range(combo.count()):
        if combo.currentText() == "orange":
            break
        QTest.keyClick(combo, Qt.Key.Key_Down)
    click(window, square_point(window, square))
    assert window.document.map.chip_squares[square] is Colour.ORANGE

    QTest.keyClick(window.view, Qt.Key.Key_K)
    assert isinstance(window.scene.tool, TrackTool)
    spin = window.tool_options.findChild(QSpinBox, "tool_track_number")
    qtbot.waitUntil(lambda: spin.isVisible() and not combo.isVisible())
    _type_into(spin, "7")
    assert window.scene.tool.number == 7
    click(window, square_point(window, square))
    assert square[1] in window.document.map.tracks[7].rows


# -- 3: the wheel over a dock field scrolls the dock -----------------------------------------------


def test_the_wheel_over_a_dock_field_scrolls_instead_of_changing_it(make_editor, qtbot) -> None:
    window = _active(qtbot, make_editor(_example()))
    window.resize(900, 420)  # a short window: the Properties dock scrolls
    props = window.properties
    size = next(
        w for w in props.findChildren(QDoubleSpinBox) if w.suffix() == " mm" and w.isVisible()
    )
    props.ensureWidgetVisible(size)
    qtbot.waitUntil(lambda: props.verticalScrollBar().maximum() > 0)
    bar = props.verticalScrollBar()
    bar.setValue(bar.maximum())
    props.ensureWidgetVisible(size)
    before = bar.value()
    _wheel(size, 2)  # away from the user: scroll up
    assert size.value() == 45.0 and window.document.map.square_size_mm == 45.0
    assert bar.value() < before  # the dock scrolled
    # Clicked into, the field takes the wheel: that is choosing a value on purpose.
    QTest.mouseClick(size.lineEdit(), Qt.MouseButton.LeftButton)
    assert size.hasFocus()
    _wheel(size, -1)
    assert window.document.map.square_size_mm == 44.0


# -- 4: the Rule set dock after opening a map without a rule set -------------------------------


def test_opening_a_map_without_a_rule_set_clears_the_dock(make_editor, qtbot, tmp_path) -> None:
    window = make_editor(load_map(bundled_map("italia")))
    dock = window.ruleset
    window.show_rule_set()
    assert dock.findChild(QLineEdit, "rs:name") is not None
    plain = tmp_path / "plain.json"
    save_map(_example(), plain)
    assert window.open_path(Path(plain), ask_save=False)
    qtbot.waitUntil(lambda: dock.findChild(QLineEdit, "rs:name") is None)
    assert dock.fields == []
    assert dock.source.currentData() == "none"
    assert window.document.map.rule_set.spec is None


# -- 5: keyboard focus: tool keys on the canvas only -----------------------------------------------


def test_letters_in_a_dock_field_never_switch_tools(make_editor, qtbot) -> None:
    window = _active(qtbot, make_editor(_example()))
    before = type(window.scene.tool)
    name = window.properties.map_fields["Name"]
    QTest.mouseClick(name, Qt.MouseButton.LeftButton)
    QTest.keyClick(name, Qt.Key.Key_End)
    QTest.keyClicks(name, " bert")  # b and e are the brush and the eraser on the canvas
    assert type(window.scene.tool) is before
    assert name.text().endswith(" bert")
    # Tab walks the dock's fields and never lands on the canvas, so typing goes on safely.
    for _ in range(12):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert QApplication.focusWidget() is not window.view
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_E)
        assert type(window.scene.tool) is before
    # Escape in a dock field hands the keys back to the canvas, where E picks the eraser.
    QTest.mouseClick(name, Qt.MouseButton.LeftButton)
    QTest.keyClick(name, Qt.Key.Key_Escape)
    assert window.view.hasFocus()
    QTest.keyClick(window.view, Qt.Key.Key_E)
    assert isinstance(window.scene.tool, EraserTool)


# -- 10: rule-set text -------------------------------------------------------------------------------


def test_the_set_up_warning_counts_the_chips_the_rule_set_lays_out() -> None:
    m = load_map(bundled_map("france"))
    content = with_value(preset_content("france"), ("layout", "count"), 20)
    content = with_value(content, ("sheet_setup", "chips"), 20)
    m.rule_set = data_state(content)
    assert m.setup.chip_count == 30  # the map's own setup says 30; the rule set lays out 20
    codes = {i.code: i.message for i in validate_map(m)}
    assert "rule-set-setup" not in codes
    m.rule_set = data_state(with_value(content, ("sheet_setup", "chips"), 25))
    message = {i.code: i.message for i in validate_map(m)}["rule-set-setup"]
    assert "25 chips" in message and "and 20 chips" in message and "30" not in message


def test_a_mistake_appearing_never_moves_the_field_being_typed_in(make_editor, qtbot) -> None:
    window = _active(qtbot, make_editor(_example()))
    window.show_rule_set()
    dock = window.ruleset
    dock.use_preset("france")
    spin = dock.spin_box(("supply", "per_colour"))
    qtbot.waitUntil(spin.isVisible)
    root = dock.widget()
    before = spin.mapTo(root, QPoint(0, 0))
    _type_into(spin, "12")  # the values no longer add up: a mistake
    qtbot.waitUntil(lambda: "supply.values" in dock.problem_label.text())
    assert dock.spin_box(("supply", "per_colour")).mapTo(root, QPoint(0, 0)) == before


# -- 12: small things ----------------------------------------------------------------------------------


def test_the_start_page_title_and_the_file_menu_end_with_quit(qtbot) -> None:
    from mapeditor.widgets.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window, before_close_func=lambda w: w.document.undo_stack.setClean())
    window.show()
    qtbot.waitExposed(window)
    assert window.windowTitle() == "Carcassonne Maps Studio"  # not "New map (unsaved)"
    entries = [a for a in window.menus["File"].actions() if not a.isSeparator()]
    assert entries[-1] is window.quit_action


def test_select_all_with_ctrl_a_and_the_shortcut_sheet_lists_print(make_editor, qtbot) -> None:
    from mapeditor.widgets.help_menu import about_html, shortcuts_html

    window = _active(qtbot, make_editor(_example()))
    QTest.keyClick(window.view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert set(window.document.selection) == window.document.map.land
    sheet = shortcuts_html(window._listed_actions())
    for keys in ("Ctrl+P", "Ctrl+Shift+P", "Ctrl+A", "Ctrl+click"):
        assert keys in sheet
    about = about_html()
    assert "Carcassonne Maps Studio 0." in about  # the version
    assert "<h3>Shipped maps: sources and credits</h3>" in about  # NOTICE's titles as headings
    assert "=====" not in about


def test_a_pasted_town_gets_a_name_of_its_own_and_a_typed_twin_is_flagged() -> None:
    from engine.mapdef import Town
    from mapeditor.tools.clipboard import copy_fragment, pasted_map

    m = MapDef("demo", "Demo", 6, 4)
    m.land = {(0, 0), (1, 0), (3, 2), (4, 2)}
    m.towns[(0, 0)] = Town("Ashby")
    assert not [i for i in validate_map(m) if i.code == "duplicate-name"]
    out, _ = pasted_map(m, copy_fragment(m, {(0, 0)}), (3, 2))
    assert out.towns[(3, 2)].name == "Ashby 2"
    assert not [i for i in validate_map(out) if i.code == "duplicate-name"]
    out.towns[(3, 2)] = Town("ashby")  # typed again: one message naming both squares
    (issue,) = [i for i in validate_map(out) if i.code == "duplicate-name"]
    assert "'Ashby'" in issue.message and "(0, 0)" in issue.message and "(3, 2)" in issue.message


# -- 9: one value on many elements -------------------------------------------------------------------


def test_one_colour_on_every_selected_town_in_one_step(make_editor, qtbot) -> None:
    from engine.mapdef import Town
    from mapeditor.tools.select import SelectTool
    from tests.mapeditor._editor_input import drag

    m = MapDef("many", "Many", 6, 4)
    m.land = {(x, y) for x in range(6) for y in range(4)}
    for sq, name in (((1, 1), "Ashby"), ((2, 1), "Brook"), ((3, 1), "Crane")):
        m.towns[sq] = Town(name)
    window = _active(qtbot, make_editor(m))
    window.set_tool(SelectTool)
    drag(window, [square_point(window, (1, 1)), square_point(window, (3, 1))])
    assert window.document.selection == {(1, 1), (2, 1), (3, 1)}
    props = window.properties
    qtbot.waitUntil(lambda: props.findChild(QComboBox, "many_grapes") is not None)
    combo = props.findChild(QComboBox, "many_grapes")
    steps = window.document.undo_stack.count()
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # none → purple
    towns = window.document.map.towns
    assert {towns[sq].grape for sq in ((1, 1), (2, 1), (3, 1))} == {Colour.PURPLE}
    assert window.document.undo_stack.count() == steps + 1
    window.document.undo_stack.undo()
    assert {towns[sq].grape for sq in ((1, 1), (2, 1), (3, 1))} == {None}
