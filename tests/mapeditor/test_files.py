"""Files in the editor: save/load, the unsaved-changes prompt, broken files, autosave recovery."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor import files
from mapeditor.document import MapDocument
from mapeditor.tools import BrushTool
from tests.mapeditor._editor_input import drag, square_point


def small_map() -> MapDef:
    m = MapDef("t", "T", 8, 6)
    m.land = {(x, y) for x in range(8) for y in range(6)}
    return m


def crash(window) -> None:
    """The window's process dies: its lock is free, its recovery files stay (a real kill -9:
    tests/mapeditor/test_work_lost.py)."""
    window.files._lock.unlock()


def paint(window) -> None:
    window.set_tool(BrushTool)
    drag(window, [square_point(window, (0, 0)), square_point(window, (3, 0))])


def test_save_and_reload_round_trip(make_editor, tmp_path: Path) -> None:
    window = make_editor(MapDef("t", "T", 8, 6))
    paint(window)
    assert window.windowTitle().startswith("*")
    target = tmp_path / "painted.json"
    assert window._save_to(target)
    assert not window.windowTitle().startswith("*")
    assert load_map(target) == window.document.map
    assert window.open_path(target, ask_save=False)
    assert window.document.map.land == {(x, 0) for x in range(4)}


def test_closing_unsaved_work_asks_first(make_editor, monkeypatch) -> None:
    window = make_editor(MapDef("t", "T", 8, 6))
    paint(window)
    answers = [QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard]
    asked: list[str] = []

    def question(parent, title, text, *args, **kwargs):
        asked.append(title)
        return answers.pop(0)

    monkeypatch.setattr(QMessageBox, "question", question)
    assert not window.close()  # Cancel keeps the window and the work
    assert window.isVisible() and window.document.modified
    assert window.close()  # Discard closes
    assert asked == ["Unsaved changes", "Unsaved changes"]


def test_a_broken_file_shows_why_and_the_editor_stays_usable(
    make_editor, tmp_path, monkeypatch
) -> None:
    window = make_editor(MapDef("t", "T", 8, 6))
    before = window.document
    bad = tmp_path / "broken.json"
    bad.write_text(
        '{"format": "carcassonne-map", "format_version": 1, "grid": [1, 2]', encoding="utf-8"
    )
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a: shown.append(text))
    assert not window.open_path(bad, ask_save=False)
    assert len(shown) == 1 and "broken.json" in shown[0]
    assert window.document is before
    paint(window)  # still editable
    assert window.document.modified


def test_autosave_is_offered_back_after_a_crash(make_editor, tmp_path, monkeypatch) -> None:
    path = tmp_path / "work.json"
    MapDocument(MapDef("t", "T", 8, 6)).save(path)
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    paint(window)
    recovery = window.autosave()
    assert recovery is not None and recovery.is_file()
    assert load_map(path).land == set()  # the map file itself is untouched
    crash(window)
    # "Crash": a new editor opens the same file and is offered the autosave.
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    other = make_editor()
    assert other.open_path(path, ask_save=False)
    assert other.document.map.land == {(x, 0) for x in range(4)}
    assert other.document.modified


@pytest.mark.parametrize("name", ["example-small", "deutschland"])
def test_opens_shipped_maps_with_no_errors(make_editor, qtbot, name: str) -> None:
    window = make_editor()
    assert window.open_path(bundled_map(name), ask_save=False)
    with qtbot.waitSignal(window.validation.validated, timeout=20000):
        window.validation.run_now()
    assert window.validation.model.counts()[0] == 0
    assert files.recovery_dir().name == "recovery"


def test_same_file_name_in_two_folders_never_share_a_recovery(
    make_editor, tmp_path, monkeypatch
) -> None:
    a, b = tmp_path / "A" / "france.json", tmp_path / "B" / "france.json"
    for p in (a, b):
        p.parent.mkdir()
        MapDocument(MapDef("t", "T", 8, 6)).save(p)
    window = make_editor()
    assert window.open_path(a, ask_save=False)
    paint(window)
    recovery_a = window.autosave()  # then "crash" while editing A
    assert recovery_a is not None
    crash(window)
    asked: list[str] = []

    def question(*args, **kwargs):
        asked.append(args[1])
        return QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", question)
    other = make_editor()
    assert other.open_path(b, ask_save=False)  # B: nothing offered, A's recovery kept
    assert asked == [] and recovery_a.is_file()
    assert other.document.map.land == set() and not other.document.modified
    assert files.recovery_path(b, "x") != recovery_a
    # A's recovery still comes back for A
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    third = make_editor()
    assert third.open_path(a, ask_save=False)
    assert third.document.map.land == {(x, 0) for x in range(4)}
    assert "autosave_of" not in third.document.map.editor


def test_a_recovery_naming_another_file_is_not_offered_nor_deleted(
    make_editor, tmp_path, monkeypatch
) -> None:
    from mapeditor import recovery

    path = tmp_path / "work.json"
    MapDocument(MapDef("t", "T", 8, 6)).save(path)
    slot = files.recovery_path(path, "x")
    intruder = MapDef("t", "T", 8, 6)
    intruder.land = {(0, 0)}
    recovery.write(intruder, slot, tmp_path / "elsewhere.json")  # e.g. a hash collision
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: pytest.fail("offered"))
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    assert slot.is_file() and window.document.map.land == set()
    window.close()
    assert slot.is_file()


def test_unsaved_maps_have_their_own_recovery_slots(make_editor) -> None:
    one, two = make_editor(MapDef("new-map", "N", 8, 6)), make_editor(MapDef("new-map", "N", 8, 6))
    paint(one)
    paint(two)
    a, b = one.autosave(), two.autosave()
    assert a is not None and b is not None and a != b
    assert a.is_file() and b.is_file()


def test_declining_a_recovery_deletes_only_that_files_own(make_editor, tmp_path, monkeypatch):
    path = tmp_path / "work.json"
    MapDocument(MapDef("t", "T", 8, 6)).save(path)
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    paint(window)
    mine = window.autosave()
    crash(window)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    other = make_editor()
    assert other.open_path(path, ask_save=False)
    assert mine is not None and not mine.exists()


def test_background_autosave_writes_a_snapshot(make_editor, tmp_path, qtbot) -> None:
    from mapeditor import recovery

    path = tmp_path / "work.json"
    MapDocument(MapDef("t", "T", 8, 6)).save(path)
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    paint(window)
    expected = set(window.document.map.land)
    with qtbot.waitSignal(window.files.autosaved, timeout=10000):
        window.autosave_in_background()
    slot = window._recovery()
    m = recovery.read(slot, path)
    assert m is not None and m.land == expected


def test_a_background_autosave_finishing_after_a_save_leaves_no_recovery(
    make_editor, tmp_path, monkeypatch
) -> None:
    from mapeditor import recovery
    from mapeditor.files import _AutosaveJob

    path = tmp_path / "work.json"
    MapDocument(MapDef("t", "T", 8, 6)).save(path)
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    paint(window)
    job = _AutosaveJob(
        window.document.snapshot(),
        window._recovery(),
        path,
        window.files.owner,
        window.files._signals,
    )
    window.files._autosave_dropped = job.dropped
    assert window._save_to(path)  # saved while the autosave job has not run yet
    job.run()  # ...and now it writes
    assert not window._recovery().exists()
    assert recovery.read(window._recovery(), path) is None
