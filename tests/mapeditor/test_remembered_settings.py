"""Defect 8 of issue #27: file dialogs start in the map's folder (else the last folder used,
else the documents folder, never the working directory), dialogs remember their settings, and
the main window its size and docks. Every test has its own settings folder (conftest.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QSpinBox, QToolBar

from engine.mapdef import MapDef
from engine.mapio import load_map, save_map
from engine.resources import bundled_map
from mapeditor.document import MapDocument
from mapeditor.folders import documents_dir, editor_settings, remember_dir, start_dir
from mapeditor.playtest.setup_dialog import SetupDialog
from mapeditor.remembered import RememberedFields
from mapeditor.widgets.balance_dialog import BalanceDialog
from mapeditor.widgets.export_dialog import export_dialog
from mapeditor.widgets.main_window import MainWindow


@pytest.fixture
def small() -> MapDef:
    return load_map(bundled_map("example-small"))


def test_the_settings_of_tests_are_not_the_users(tmp_path: Path) -> None:
    assert str(Path(editor_settings().fileName()).parent.parent).startswith(
        str(tmp_path.parent.parent)
    )
    assert ".config" not in editor_settings().fileName()


def test_start_folder_map_then_last_then_documents_never_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a source checkout, say
    assert start_dir() == documents_dir() != Path.cwd()
    used = tmp_path / "exports"
    used.mkdir()
    remember_dir(used / "board.pdf")
    assert start_dir() == used.resolve()
    maps = tmp_path / "maps"
    maps.mkdir()
    assert start_dir(maps / "m.json") == maps.resolve()
    remember_dir(tmp_path / "gone" / "x.json")  # a folder deleted since: documents again
    assert start_dir() == documents_dir()


def _capture_save(monkeypatch: pytest.MonkeyPatch, module: object) -> list[str]:
    asked: list[str] = []

    def fake(_parent: object, _title: str, start: str = "", _filter: str = "") -> tuple[str, str]:
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(fake))
    return asked


def test_export_and_open_start_in_the_maps_folder(
    make_editor, small: MapDef, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "designs"
    folder.mkdir()
    save_map(small, folder / "mine.json")
    window = make_editor()
    window.open_path(folder / "mine.json", ask_save=False)
    asked = _capture_save(monkeypatch, None)
    assert export_dialog(window, "pdf") is None
    assert Path(asked[-1]) == folder.resolve() / "mine.pdf"
    window.open_dialog()
    assert Path(asked[-1]) == folder.resolve()
    window.ruleset.load_dialog()
    assert Path(asked[-1]) == folder.resolve()
    window.set_document(MapDocument(small.copy()))  # unsaved: the last folder used
    assert export_dialog(window, "png") is None
    assert Path(asked[-1]).parent == folder.resolve()


def test_the_main_window_remembers_its_size_and_docks(make_editor, qtbot, small) -> None:
    window = make_editor(small)
    validation = window.docks["Validation"]
    assert validation.isVisible()
    validation.toggleViewAction().trigger()  # as View ▸ Validation does
    assert not validation.isVisible()
    window.close()
    fresh = MainWindow(MapDocument(small))  # before the factory resizes it
    qtbot.addWidget(fresh)
    assert fresh.height() == 760 != 860  # as it closed, not the default (the width fits the screen)
    again = make_editor(small)
    assert not again.docks["Validation"].isVisible()
    assert again.docks["Properties"].isVisible()
    settings = editor_settings()
    assert settings.contains("window/geometry") and settings.contains("window/state")
    # Closing from the start page (where docks and tool bars wait hidden) keeps the layout.
    start = make_editor()
    assert start.pages.currentWidget() is start.start_page
    start.close()
    last = make_editor(small)
    assert last.docks["Properties"].isVisible() and not last.docks["Validation"].isVisible()
    assert last.findChild(QToolBar, "toolbar-tools").isVisible()


def test_the_playtest_set_up_is_remembered_when_played(qtbot, small: MapDef) -> None:
    dialog = SetupDialog(small)
    qtbot.addWidget(dialog)
    dialog.player_count.selectAll()
    qtbot.keyClicks(dialog.player_count, "4")
    dialog.rows[2].name.selectAll()
    qtbot.keyClicks(dialog.rows[2].name, "Ada")
    dialog.rows[1].kind.setCurrentIndex(dialog.rows[1].kind.findData("greedy"))
    dialog.farmers.setChecked(not dialog.farmers.isChecked())
    farmers = dialog.farmers.isChecked()
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted, dialog.problems.text()
    again = SetupDialog(small)
    qtbot.addWidget(again)
    seats = again.setup().seats
    assert len(seats) == 4 and seats[2].name == "Ada" and seats[1].kind == "greedy"
    assert again.farmers.isChecked() is farmers
    cancelled = SetupDialog(small)
    qtbot.addWidget(cancelled)
    cancelled.player_count.setValue(2)
    qtbot.mouseClick(
        cancelled.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel),
        Qt.MouseButton.LeftButton,
    )
    last = SetupDialog(small)
    qtbot.addWidget(last)
    assert last.player_count.value() == 4  # Cancel keeps nothing


def test_a_balance_run_remembers_its_settings(qtbot, small: MapDef) -> None:
    dialog = BalanceDialog(small)
    qtbot.addWidget(dialog)
    dialog.games.selectAll()
    qtbot.keyClicks(dialog.games, "3")
    dialog.bot.setCurrentText("random")
    dialog.workers.setValue(1)
    dialog.seed.setValue(77)
    with qtbot.waitSignal(dialog.run_ended, timeout=60_000):
        qtbot.mouseClick(dialog.run_button, Qt.MouseButton.LeftButton)
    again = BalanceDialog(small)
    qtbot.addWidget(again)
    assert (again.games.value(), again.bot.currentText(), again.seed.value()) == (3, "random", 77)


def test_a_value_edited_into_nonsense_is_skipped(qtbot) -> None:
    spin = QSpinBox()
    qtbot.addWidget(spin)
    spin.setRange(0, 50)
    spin.setValue(7)
    settings: QSettings = editor_settings()
    settings.setValue("g/n", "many")
    RememberedFields("g", {"n": spin}).restore()
    assert spin.value() == 7
    settings.setValue("g/n", "12")
    RememberedFields("g", {"n": spin}).restore()
    assert spin.value() == 12
    assert os.environ.get("HOME") is None or ".qttest" not in settings.fileName()
