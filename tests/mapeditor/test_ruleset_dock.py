"""The Rule set dock: presets, numbers and mechanics as undoable edits, live validation of the
rule set, its file beside the map, and games (playtest) under a data rule set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QMessageBox, QSpinBox

from engine.mapdef import EmbeddedRuleSet, MapDef, NamedRuleSet, UnreadableRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.rules.data import DataRules, preset_spec
from mapeditor import recovery
from mapeditor.document import MapDocument


def _example() -> MapDef:
    return load_map(bundled_map("example-small"))


def _spec(window):
    return window.document.map.rule_set.spec


def _spin(dock, path) -> QSpinBox:
    return dock.spin_box(path)


def _validated(window, qtbot) -> list:
    with qtbot.waitSignal(window.validation.validated, timeout=20000):
        window.validation.run_now()
    return window.validation.model.issues


def _click_issue(window, row: int) -> None:
    view = window.validation.view
    index = window.validation.model.index(row)
    view.scrollTo(index)
    QTest.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center()
    )


def test_picking_a_preset_copies_it_in_and_undo_restores_the_module(make_editor, qtbot) -> None:
    m = _example()
    m.rule_set = NamedRuleSet("deutschland")
    window = make_editor(m)
    dock = window.ruleset
    before = window.document.map.rule_set
    menu = dock.preset_button.menu()
    action = next(a for a in menu.actions() if a.data() == "france")
    action.trigger()
    spec = _spec(window)
    assert spec is not None and spec.based_on == "france"
    assert spec.mechanics == preset_spec("france").mechanics
    assert (
        window.document.map.rule_set.name == "france" and window.document.map.rule_set.file is None
    )
    assert dock.source.currentText() == "Data rule set: France"
    assert "embedded in the map file, based on france" in dock.source_note.text()
    window.document.undo_stack.undo()
    assert window.document.map.rule_set == before
    assert window.document.map.rule_set.name == "deutschland"
    qtbot.waitUntil(lambda: dock.source.currentData() == "deutschland")
    window.document.undo_stack.redo()
    assert _spec(window) == spec


def test_editing_a_number_is_one_undo_step_per_field(make_editor, qtbot) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("france")
    spin = _spin(dock, ("mechanics", 0, "reward", "points", "town_colour"))
    assert (spin.minimum(), spin.maximum(), spin.value()) == (0, 50, 9)  # the schema's bounds
    stack = window.document.undo_stack
    steps = stack.count()
    spin.setFocus()
    for _ in range(3):  # three clicks of the arrow: one undo step
        QTest.keyClick(spin, Qt.Key.Key_Down)
    assert _spec(window).mechanics[0].reward.points_at("town_colour") == 6
    assert stack.count() == steps + 1
    # the form was not rebuilt under the user: the same spin box shows the new value
    assert dock.field_widget(("mechanics", 0, "reward", "points", "town_colour")) is spin
    assert spin.value() == 6
    stack.undo()
    assert _spec(window).mechanics[0].reward.points_at("town_colour") == 9
    qtbot.waitUntil(lambda: spin.value() == 9)
    stack.redo()
    assert _spec(window).mechanics[0].reward.points_at("town_colour") == 6


def test_adding_and_removing_mechanics_undo_and_redo(make_editor, qtbot) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("france")
    stack = window.document.undo_stack
    action = next(a for a in dock.add_button.menu().actions() if "Upgrade" in a.text())
    action.trigger()
    spec = _spec(window)
    assert [m.id for m in spec.mechanics] == ["wine", "upgrade_meeple"]
    assert spec.mechanics[1].reward.kind == "upgrade_meeple"
    assert dock.mechanic_index == 1 and dock.mechanics_model.rowCount() == 2
    _spin(dock, ("mechanics", 1, "reward", "strength")).setValue(3)
    assert _spec(window).mechanics[1].reward.strength == 3
    dock.remove_mechanic(0)
    assert [m.id for m in _spec(window).mechanics] == ["upgrade_meeple"]
    qtbot.waitUntil(lambda: dock.mechanics_model.rowCount() == 1)
    stack.undo()  # the removal
    assert [m.id for m in _spec(window).mechanics] == ["wine", "upgrade_meeple"]
    stack.undo()  # the strength
    stack.undo()  # the addition
    assert _spec(window).mechanics == preset_spec("france").mechanics
    stack.redo()
    stack.redo()
    stack.redo()
    assert [m.id for m in _spec(window).mechanics] == ["upgrade_meeple"]
    assert _spec(window).mechanics[0].reward.strength == 3


def test_changing_a_pay_kind_and_switching_to_a_module_and_back(make_editor, qtbot) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("deutschland")
    data = window.document.map.rule_set
    combo = dock.field_widget(("mechanics", 0, "pay", "kind"))
    # (a set cannot buy an upgrade: the checker refuses it, engine/RULES.md)
    combo.activated.emit(combo.findData("exact_value_one_colour"))
    pay = _spec(window).mechanics[0].pay
    assert (pay.kind, pay.value) == ("exact_value_one_colour", 2)
    changed = window.document.map.rule_set
    dock.source.activated.emit(dock.source.findData("benelux"))
    assert window.document.map.rule_set.name == "benelux" and _spec(window) is None
    # the properties dock offers the modules too, and shows the data rule set when there is one
    window.document.undo_stack.undo()
    assert window.document.map.rule_set == changed
    window.properties.rebuild()
    field = window.properties.map_fields["Map-Chips rules"]
    assert field.currentData() == "data" and "Rule set dock" in field.currentText()
    window.document.undo_stack.undo()
    assert window.document.map.rule_set == data


def test_a_bad_value_is_listed_with_its_field_and_marked_in_the_dock(make_editor, qtbot) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("france")
    _spin(dock, ("supply", "per_colour")).setValue(12)  # the counts add up to 10
    _spin(dock, ("mechanics", 0, "pay", "value")).setValue(60)  # more than any colour's chips
    m = window.document.map
    assert (
        isinstance(m.rule_set, UnreadableRuleSet) and m.rule_set.raw is not None
    )  # kept as typed, not refused
    issues = [i for i in _validated(window, qtbot) if i.code == "ruleset-invalid"]
    assert sorted(i.message for i in issues) == [
        "rule_set.mechanics[0].pay.value: 60 is more than the largest total 15 of one colour's "
        "chips",
        "rule_set.supply.values: the counts add up to 10, not per_colour 12",
    ]
    marked = {f.widget.objectName() for f in dock.fields if f.widget.property("invalid")}
    assert marked == {
        "rs:supply.values.1",
        "rs:supply.values.2",
        "rs:supply.values.3",
        "rs:supply.values.4",
        "rs:supply.values.5",
        "rs:mechanics[0].pay.value",
    }
    assert "not per_colour 12" in dock.field_widget(("supply", "values", "1")).toolTip()
    assert "supply.values" in dock.problem_label.text()
    # Map ▸ Map-Chips rule set… brings the dock forward
    window.docks["Properties"].raise_()
    qtbot.waitUntil(lambda: window.docks["Rule set"].visibleRegion().isEmpty())
    window.rule_set_action.trigger()
    qtbot.waitUntil(lambda: not window.docks["Rule set"].visibleRegion().isEmpty())
    # clicking the issue shows the dock and focuses the field
    window.docks["Properties"].raise_()
    row = next(
        i for i, issue in enumerate(window.validation.model.issues) if "pay.value" in issue.message
    )
    _click_issue(window, row)
    qtbot.waitUntil(lambda: dock.field_widget(("mechanics", 0, "pay", "value")).hasFocus())
    # a playtest refuses it with the reason rather than playing other rules
    from mapeditor.playtest.launch import unplayable

    assert "rule set cannot be read" in (unplayable(window.document.snapshot()) or "")
    _spin(dock, ("mechanics", 0, "pay", "value")).setValue(2)
    _spin(dock, ("supply", "per_colour")).setValue(10)
    assert isinstance(window.document.map.rule_set, EmbeddedRuleSet)
    assert not any(f.widget.property("invalid") for f in dock.fields)
    assert not [i for i in _validated(window, qtbot) if i.code.startswith("ruleset-")]


def test_a_missing_print_is_listed_at_its_square(make_editor, qtbot) -> None:
    m = _example()
    town = next(iter(sorted(m.towns)))
    m.towns[town].grape = None
    window = make_editor(m)
    window.ruleset.use_preset("france")  # France pays at towns of the paid colour
    issues = _validated(window, qtbot)
    # the preset is the france rule set itself (one identity per name): France's own check
    row, issue = next((i, x) for i, x in enumerate(issues) if x.code == "france-town-without-grape")
    assert issue.where.squares == (town,)
    _click_issue(window, row)
    assert window.document.selection == {town}
    window.document.undo_stack.undo()  # no rule set, no such issue
    found = [i for i in _validated(window, qtbot) if i.code.startswith(("ruleset-", "france-"))]
    assert not found


def test_an_embedded_rule_set_round_trips(make_editor, qtbot, tmp_path: Path) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("iberica")
    _spin(dock, ("collect", "treat_factor")).setValue(3)
    spec = _spec(window)
    target = tmp_path / "map.json"
    window.document.save(target)
    assert json.loads(target.read_text())["rule_set"]["collect"]["treat_factor"] == 3
    again = MapDocument.open(target)
    assert again.map.rule_set.spec == spec and again.map.rule_set.file is None
    assert again.map.rule_set.name == "iberica" and isinstance(again.map.rule_set, EmbeddedRuleSet)


def test_a_rule_set_file_beside_the_map(make_editor, qtbot, tmp_path: Path, monkeypatch) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("france")
    target = tmp_path / "map.json"
    window.document.save(target)
    rules = tmp_path / "wine.ruleset.json"
    monkeypatch.setattr(
        "mapeditor.widgets.ruleset_dock.QFileDialog.getSaveFileName",
        lambda *a, **k: (str(rules), ""),
    )
    dock.file_button.click()
    assert rules.is_file() and window.document.map.rule_set.file == "wine.ruleset.json"
    assert "kept in its own file" in dock.source_note.text() and dock.embed_button.isEnabled()
    window.document.save()
    assert json.loads(target.read_text())["rule_set"] == {"file": "wine.ruleset.json"}
    written = rules.stat().st_mtime_ns
    # reopened: the map names the file and plays what it holds
    window.open_path(target, ask_save=False)
    dock = window.ruleset
    assert window.document.map.rule_set.file == "wine.ruleset.json"
    assert window.document.map.rule_set.spec.mechanics == preset_spec("france").mechanics
    window.document.save()
    assert rules.stat().st_mtime_ns == written  # unchanged: not written again
    _spin(dock, ("mechanics", 0, "reward", "points", "border_coa")).setValue(6)
    window.document.save()
    saved = json.loads(rules.read_text())
    assert saved["mechanics"][0]["reward"]["points"]["border_coa"] == 6
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob(".*"))  # atomic writes
    # embedding it again, then undo: the map names the file again
    dock.embed_button.click()
    assert window.document.map.rule_set.file is None
    window.document.undo_stack.undo()
    assert window.document.map.rule_set.file == "wine.ruleset.json"


def test_a_broken_rule_set_file_opens_with_one_line_and_can_be_fixed(
    make_editor, qtbot, tmp_path: Path
) -> None:
    window = make_editor(_example())
    window.ruleset.use_preset("france")
    target = tmp_path / "map.json"
    window.document.save(target)
    rules = tmp_path / "mine.ruleset.json"
    broken = window.document.map.rule_set.spec.to_dict()
    broken["supply"]["per_colour"] = 11
    rules.write_text(json.dumps(broken))
    data = json.loads(target.read_text())
    data["rule_set"] = {"file": "mine.ruleset.json"}
    target.write_text(json.dumps(data))
    assert window.open_path(target, ask_save=False)  # the map still opens
    m = window.document.map
    assert isinstance(m.rule_set, UnreadableRuleSet) and m.rule_set.file == "mine.ruleset.json"
    error = m.rule_set.error
    assert error.count("\n") == 0 and "supply.values" in error and "mine.ruleset.json" in error
    issues = [i for i in _validated(window, qtbot) if i.code == "ruleset-invalid"]
    assert len(issues) == 1 and "supply.values" in issues[0].message
    # the file's content is in the dock, to fix
    dock = window.ruleset
    _spin(dock, ("supply", "per_colour")).setValue(10)
    assert window.document.map.rule_set.spec is not None
    window.document.save()
    assert json.loads(rules.read_text())["supply"]["per_colour"] == 10


def test_loading_a_bad_rule_set_file_says_why_and_changes_nothing(
    make_editor, tmp_path: Path, monkeypatch
) -> None:
    window = make_editor(_example())
    bad = tmp_path / "bad.ruleset.json"
    bad.write_text('{"format": "carcassonne-maps-ruleset", "version": 1, "name": "Bad"}')
    before = window.document.map.rule_set
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: said.append(a[2]))
    assert not window.ruleset.load(bad)
    assert len(said) == 1 and "\n" not in said[0] and "bad.ruleset.json" in said[0]
    assert window.document.map.rule_set == before
    assert not window.document.undo_stack.count()


def test_loading_a_rule_set_file_from_another_folder_copies_it_in(
    make_editor, tmp_path: Path
) -> None:
    from engine.rules.data import save_ruleset

    window = make_editor(_example())
    path = tmp_path / "elsewhere" / "gb.ruleset.json"
    path.parent.mkdir()
    save_ruleset(preset_spec("great_britain"), path)
    assert window.ruleset.load(path)
    assert window.document.map.rule_set.file is None  # the map has no folder: embedded
    assert _spec(window) == preset_spec("great_britain")
    # beside a saved map, the map names the file instead
    window.document.save(tmp_path / "map.json")
    beside = tmp_path / "benelux.ruleset.json"
    save_ruleset(preset_spec("benelux"), beside)
    assert window.ruleset.load(beside)
    assert window.document.map.rule_set.file == "benelux.ruleset.json"
    assert _spec(window) == preset_spec("benelux")
    window.document.undo_stack.undo()
    assert window.document.map.rule_set.file is None
    assert _spec(window) == preset_spec("great_britain")


def test_autosave_keeps_unsaved_changes_of_a_rule_set_file(
    make_editor, tmp_path: Path, monkeypatch
) -> None:
    window = make_editor(_example())
    window.ruleset.use_preset("deutschland")
    target = tmp_path / "map.json"
    window.document.save(target)
    window.ruleset.save_to_file(tmp_path / "de.ruleset.json")
    _spin(window.ruleset, ("mechanics", 0, "pay", "value")).setValue(5)
    slot = tmp_path / "recovery" / "slot.autosave.json"
    recovery.write(window.document.map, slot, target)
    back = recovery.read(slot, target)
    assert back is not None and back.rule_set.file == "de.ruleset.json"
    assert back.rule_set.spec.mechanics[0].pay.value == 5
    assert "autosave_rule_set_file" not in back.editor


@pytest.mark.parametrize("form", ["embedded", "file"])
def test_playtest_plays_the_data_rule_set(make_editor, qtbot, monkeypatch, tmp_path, form) -> None:
    from mapeditor.playtest import PlaytestWindow, SetupDialog
    from mapeditor.playtest.rule_view import chips_held, pieces

    window = make_editor(load_map(bundled_map("france")))
    dock = window.ruleset
    dock.use_preset("france")
    _spin(dock, ("mechanics", 0, "reward", "points", "town_colour")).setValue(7)
    if form == "file":
        window.document.save(tmp_path / "map.json")
        assert dock.save_to_file(tmp_path / "fr.ruleset.json")
    seen: list[str] = []

    def accept(self) -> QDialog.DialogCode:
        seen.append(self.chips.text())
        assert self.chips.isChecked()
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(SetupDialog, "exec", accept)
    window.playtest_action.trigger()
    w = window._playtest
    assert isinstance(w, PlaytestWindow)
    qtbot.addWidget(w, before_close_func=lambda w: setattr(w, "ask_to_keep_game", False))
    assert seen == ["Map-Chips rules (France (data))"]
    rules = w.game.rules[0]
    assert isinstance(rules, DataRules)
    assert "(France)" in w.windowTitle()  # the rule set played, by its title
    assert rules.spec.mechanics[0].reward.points_at("town_colour") == 7
    view = pieces(w.game)  # the rule panel's pieces come from the data rule set's view
    assert len(view.chips) == w.game.map.setup.chip_count
    assert chips_held(w.game, 0) == []


def test_save_as_elsewhere_never_replaces_another_rule_set(make_editor, tmp_path: Path) -> None:
    from engine.errors import EngineError
    from engine.rules.data import save_ruleset

    window = make_editor(_example())
    window.ruleset.use_preset("france")
    window.document.save(tmp_path / "map.json")
    assert window.ruleset.save_to_file(tmp_path / "wine.ruleset.json")
    other = tmp_path / "other"
    other.mkdir()
    save_ruleset(preset_spec("benelux"), other / "wine.ruleset.json")
    kept = (other / "wine.ruleset.json").read_text()
    with pytest.raises(EngineError, match="another rule set has this name"):
        window.document.save(other / "map.json")
    assert (other / "wine.ruleset.json").read_text() == kept and not (other / "map.json").exists()
    assert window.document.modified  # the work is still there, unsaved
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    window.document.save(fresh / "map.json")  # a folder without one: written beside the map
    again = MapDocument.open(fresh / "map.json")
    assert again.map.rule_set.spec == _spec(window)


def test_renaming_the_rule_set_renames_what_the_map_plays(make_editor) -> None:
    window = make_editor(_example())
    dock = window.ruleset
    dock.use_preset("france")
    name = dock.field_widget(("name",))
    name.setText("vino")
    name.editingFinished.emit()
    assert window.document.map.rule_set.name == "vino" and _spec(window).name == "vino"
    name.setText("Vino!")  # not a name: kept as typed, reported
    name.editingFinished.emit()
    assert isinstance(window.document.map.rule_set, UnreadableRuleSet)
    assert window.document.map.rule_set.name == "invalid"
    assert window.document.map.rule_set.error.startswith("rule_set.name: ")
    assert name.property("invalid")
    window.document.undo_stack.undo()  # edits of one field in a row are one step
    assert window.document.map.rule_set.name == "france" and not name.property("invalid")
    assert name.text() == "france"


def test_the_balance_report_shows_each_mechanic_s_figures(qtbot) -> None:
    from mapeditor.ruleset_data import data_state, preset_content, with_value
    from mapeditor.widgets.balance_dialog import BalanceDialog

    m = load_map(bundled_map("france"))
    d = preset_content("france")
    d = with_value(d, ("mechanics", 0, "reward", "points", "town_colour"), 7)
    d = with_value(d, ("mechanics", 0, "id"), "vin")
    m.rule_set = data_state(d)
    dialog = BalanceDialog(m)
    qtbot.addWidget(dialog)
    assert dialog.rules.isEnabled() and dialog.rules.isChecked()
    assert dialog.rules.text() == "Map-Chips rules (France (data))"
    dialog.games.setValue(2)
    dialog.bot.setCurrentText("greedy")
    dialog.workers.setValue(1)
    with qtbot.waitSignal(dialog.run_ended, timeout=120_000) as blocker:
        dialog.start()
    assert blocker.args == ["done"]
    figures = dialog.report["rules"]["figures"]
    assert {"vin_taken", "chips_paid_vin", "vin_points", "collect_points"} <= set(figures)
    assert figures["vin_taken"]["n"] == 2
    text = dialog.summary.toPlainText()
    assert "vin taken" in text and "chips paid vin" in text and "vin points" in text


ODD_VALUES = [None, "x", -1, 10**6, [], {}, [1, "a"], {"kind": 7}, True]


def _paths(value, at=()):
    """Every path of a JSON value (dict keys and list indexes)."""
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*at, i))


@pytest.mark.parametrize("preset", ["france", "great_britain"])
def test_the_dock_shows_any_broken_rule_set_without_failing(make_editor, preset) -> None:
    from mapeditor.commands import set_rule_set
    from mapeditor.ruleset_data import data_state, preset_content, validate, with_value

    window = make_editor(_example())
    dock = window.ruleset
    base = preset_content(preset)
    shown = 0
    for n, path in enumerate(list(_paths(base))[1:]):
        for i, odd in enumerate(ODD_VALUES):
            if (n + i) % 3:  # a third of the pairs: every path, every value somewhere
                continue
            broken = with_value(base, path, odd)
            set_rule_set(window.document, data_state(broken), "Break it")
            # the dock shows it and lists its mistakes (a valid one, as read)
            if window.document.map.rule_set.spec is None:
                assert dock.content() == broken
                assert dock.problems and dock.problem_label.text()
            else:
                assert not dock.problems and dock.problem_label.isHidden()
            # the validation lists it without failing
            codes = {i.code for i in validate(window.document.snapshot())}
            assert ("ruleset-invalid" in codes) == (window.document.map.rule_set.spec is None)
            shown += 1
    assert shown > 50
