"""No work lost in the editor (issue 29): two windows on one file, crashes during saves and
while editing untitled maps, helpers of a killed editor, a full disk and a read-only folder.
Tested with the real main window; crashes are real ``kill -9`` of editor subprocesses."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from engine.mapdef import MapDef
from engine.mapio import load_map, read_map
from mapeditor import files, recovery, ruleset_files
from mapeditor.commands import change_attribute
from mapeditor.document import MapDocument
from mapeditor.ruleset_edits import keep_in_file, set_field, use_preset
from tests.mapeditor._dialogs import answer_next_message_box

ROOT = Path(__file__).resolve().parents[2]


def small_map(name: str = "T") -> MapDef:
    m = MapDef("t", name, 8, 6)
    m.land = {(x, y) for x in range(8) for y in range(6)}
    return m


@pytest.fixture
def recovery_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own recovery folder (other test runs on the machine share Qt's)."""
    folder = tmp_path / "recovery"
    monkeypatch.setattr(files, "recovery_dir", lambda: folder)
    return folder


def _editor_script(body: str, folder: Path) -> str:
    """A Python program that runs a real main window (offscreen) with ``folder`` for recovery."""
    return textwrap.dedent(
        f"""
        import os, sys, time
        from pathlib import Path
        from PySide6.QtCore import QStandardPaths
        from PySide6.QtWidgets import QApplication
        from mapeditor import files
        QStandardPaths.setTestModeEnabled(True)
        files.recovery_dir = lambda: Path({str(folder)!r})
        app = QApplication([])
        from mapeditor.widgets.main_window import MainWindow
        """
    ) + textwrap.dedent(body)


def _run_editor(code: str) -> subprocess.Popen[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )


def _read_line(proc: subprocess.Popen[str], timeout: float = 120.0) -> str:
    """The child's next line of output (it says when it is ready to be killed)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line:
            return line.strip()
        if proc.poll() is not None:
            break
    raise AssertionError(f"the editor subprocess said nothing (exit {proc.poll()})")


# -- two windows on one file ---------------------------------------------------------------------


def test_two_windows_on_one_file_ask_before_overwriting(
    make_editor, tmp_path, recovery_folder
) -> None:
    path = tmp_path / "shared.json"
    MapDocument(small_map("Old name")).save(path)
    a, b = make_editor(), make_editor()
    assert a.open_path(path, ask_save=False) and b.open_path(path, ask_save=False)
    change_attribute(a.document, "name", "A's name")
    assert a.save()
    change_attribute(b.document, "author", "B")
    seen: list[str] = []
    answer_next_message_box(QMessageBox.StandardButton.Cancel, seen)
    assert not b.save()  # asked, and cancelled: nothing written
    assert len(seen) == 1 and "changed on disk" in seen[0] and "shared.json" in seen[0]
    assert load_map(path).name == "A's name" and b.document.modified
    answer_next_message_box(QMessageBox.StandardButton.Save, seen)  # "Overwrite"
    assert b.save()
    assert load_map(path).author == "B" and not b.document.modified
    change_attribute(b.document, "author", "B again")
    assert b.save()  # its own save since: no question
    assert len(seen) == 2


def test_each_window_has_its_own_recovery_slot(
    make_editor, tmp_path, recovery_folder, monkeypatch
) -> None:
    path = tmp_path / "shared.json"
    MapDocument(small_map()).save(path)
    a, b = make_editor(), make_editor()
    assert a.open_path(path, ask_save=False) and b.open_path(path, ask_save=False)
    change_attribute(a.document, "name", "A")
    change_attribute(b.document, "author", "B's unsaved work")
    slot_a, slot_b = a.autosave(), b.autosave()
    assert slot_a is not None and slot_b is not None and slot_a != slot_b
    assert a.save()
    assert not slot_a.exists()
    kept = recovery.read(slot_b, path)  # A's Save left B's autosave alone
    assert kept is not None and kept.author == "B's unsaved work"
    # B still runs: its autosave is not offered to a third window on the same file
    c = make_editor()
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", lambda _p, title, *a, **k: asked.append(title))
    assert c.open_path(path, ask_save=False)
    assert asked == [] and c.document.map.author == ""


# -- crashes ---------------------------------------------------------------------------------


def test_an_untitled_maps_autosave_is_listed_after_a_crash(
    make_editor, qtbot, recovery_folder
) -> None:
    crashed = _run_editor(
        _editor_script(
            """
            from engine.resources import bundled_map
            from mapeditor.commands import change_attribute
            window = MainWindow()
            window.open_path(bundled_map("example-small"), ask_save=False)  # an untitled copy
            change_attribute(window.document, "name", "My island, never saved")
            print(window.autosave(), flush=True)
            time.sleep(600)
            """,
            recovery_folder,
        )
    )
    try:
        slot = Path(_read_line(crashed))
        assert slot.is_file()
    finally:
        crashed.send_signal(signal.SIGKILL)
        crashed.wait()
    window = make_editor()  # the start page of the next session
    locks = sorted(p.name for p in recovery_folder.glob("window-*.lock"))
    assert locks == [f"window-{window.files.owner}.lock"]  # the dead window's lock is gone
    listed = window.start_page.recoverable
    assert window.start_page.recovery_box.isVisibleTo(window)
    texts = [listed.item(i).text() for i in range(listed.count())]
    assert len(texts) == 1 and texts[0].startswith("My island, never saved\n    never saved, ")
    listed.setCurrentRow(0)
    listed.itemActivated.emit(listed.item(0))
    doc = window.document
    assert window.pages.currentWidget() is window.view
    assert doc.map.name == "My island, never saved" and doc.path is None and doc.modified
    assert not slot.exists()  # adopted: now in this window's own slot
    assert recovery.read(window._recovery(), None) is not None


def _paired_save_script(folder: Path, saves: int) -> str:
    return textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from engine.mapdef import MapDef
        from mapeditor.commands import change_attribute
        from mapeditor.document import MapDocument
        from mapeditor.ruleset_edits import keep_in_file, set_field, use_preset
        folder = Path({str(folder)!r})
        m = MapDef("t", "v0", 8, 6)
        m.land = {{(x, y) for x in range(8) for y in range(6)}}
        doc = MapDocument(m)
        use_preset(doc, "france")
        set_field(doc, ("title",), "v0")
        keep_in_file(doc, "pair.ruleset.json")
        doc.save(folder / "pair.json")
        print("ready", flush=True)
        for i in range(1, {saves}):
            change_attribute(doc, "name", f"v{{i}}")
            set_field(doc, ("title",), f"v{{i}}")
            doc.save()
        """
    )


def _saved_pair(folder: Path) -> tuple[str, str]:
    """The map's name and the title of the rule set it plays, read as the engine reads them."""
    m, _issues = read_map(folder / "pair.json")
    assert m.rule_set.spec is not None, m.rule_set
    return m.name, m.rule_set.spec.title


def test_kill_9_during_paired_saves_leaves_a_matching_pair(tmp_path: Path) -> None:
    delays = [0.0, 0.003, 0.007, 0.011, 0.016, 0.023, 0.031, 0.045]
    for run, delay in enumerate(delays):
        folder = tmp_path / f"run{run}"
        folder.mkdir()
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
        proc = subprocess.Popen(
            [sys.executable, "-c", _paired_save_script(folder, 100_000)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert _read_line(proc) == "ready"
            time.sleep(0.05 + delay)  # somewhere inside a later save
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        name, title = _saved_pair(folder)
        assert name == title, f"run {run}: the map of save {name} plays the rule set of {title}"
        # the editor opens it naming its file again (the next save writes the file)
        doc = MapDocument.open(folder / "pair.json")
        assert doc.map.rule_set.file == "pair.ruleset.json"
        assert doc.map.rule_set.spec is not None and doc.map.rule_set.spec.title == name


def test_a_crash_between_the_writes_of_a_paired_save(tmp_path: Path, monkeypatch) -> None:
    """The same, without timing luck: the save stops at each of its writes in turn."""
    real = ruleset_files.write_text_atomically
    for stop_at in range(3):
        folder = tmp_path / f"stop{stop_at}"
        folder.mkdir()
        doc = MapDocument(small_map("v0"))
        use_preset(doc, "france")
        set_field(doc, ("title",), "v0")
        keep_in_file(doc, "pair.ruleset.json")
        doc.save(folder / "pair.json")
        change_attribute(doc, "name", "v1")
        set_field(doc, ("title",), "v1")
        writes: list[str] = []

        def writer(path, text, writes=writes, stop_at=stop_at):
            if len(writes) == stop_at:
                raise KeyboardInterrupt  # the process dies here
            writes.append(str(path))
            real(path, text)

        monkeypatch.setattr(ruleset_files, "write_text_atomically", writer)
        monkeypatch.setattr("engine.mapio.write_text_atomically", writer)
        with pytest.raises(KeyboardInterrupt):
            doc.save()
        monkeypatch.undo()
        name, title = _saved_pair(folder)
        assert name == title, f"stopped at write {stop_at}: {name} beside {title}"


def test_helpers_exit_when_the_editor_is_killed(tmp_path: Path) -> None:
    editor = _run_editor(
        _editor_script(
            """
            from engine.resources import bundled_map
            from mapeditor import offload
            from mapeditor.playtest.bot_worker import _BotProcess
            window = MainWindow()
            window.open_path(bundled_map("example-small"), ask_save=False)
            window.validation.run_now()  # the validation helper
            bots = _BotProcess.acquire()  # the playtest's bot process
            deadline = time.monotonic() + 120
            while not offload.helper_pids() and time.monotonic() < deadline:
                app.processEvents()
                time.sleep(0.05)
            print(sorted(offload.helper_pids() | {bots.proc.pid}), flush=True)
            time.sleep(600)
            """,
            tmp_path / "recovery",
        )
    )
    try:
        started = json.loads(_read_line(editor))
        helpers = _descendants(editor.pid)
        assert set(started) <= helpers and len(helpers) >= 3  # helpers and resource tracker
    finally:
        editor.send_signal(signal.SIGKILL)
        editor.wait()
    deadline = time.monotonic() + 60  # each helper looks twice a second; the machine is shared
    alive = helpers
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = {pid for pid in helpers if _running(pid)}
    assert alive == set(), f"still running after the editor was killed: {sorted(alive)}"


def _descendants(pid: int) -> set[int]:
    """The processes under ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        children = {p for p, pp in parents.items() if pp == parent}
        todo.extend(children - found)
        found |= children
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie (a container's first process may never reap orphans)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text[text.rindex(")") + 2] != "Z"


# -- a full disk, a read-only folder ---------------------------------------------------------


def _failing_writer(code: int, folder: Path):
    """The atomic writer, failing in ``folder`` as the OS does (a full disk mounted there)."""
    from engine import mapio

    real = mapio.write_text_atomically

    def writer(path, text):
        if Path(path).parent == folder:
            tmp = folder / f".{Path(path).name}.x.tmp"
            raise OSError(code, os.strerror(code), str(tmp))
        real(path, text)

    return writer


@pytest.mark.parametrize(
    ("code", "words"),
    [(errno.ENOSPC, "the disk is full"), (errno.EACCES, "is read-only for you")],
)
def test_a_failed_save_loses_nothing_and_says_why_once(
    make_editor, tmp_path, recovery_folder, monkeypatch, code, words
) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    path = disk / "work.json"
    MapDocument(small_map("Before")).save(path)
    before = path.read_bytes()
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    change_attribute(window.document, "name", "After")
    if code == errno.EACCES and os.geteuid() != 0:
        disk.chmod(0o555)  # a real read-only folder (root writes anyway: then patched)
    else:
        monkeypatch.setattr("engine.mapio.write_text_atomically", _failing_writer(code, disk))
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *a: shown.append(text))
    try:
        assert not window.save()
    finally:
        disk.chmod(0o755)
    assert len(shown) == 1
    assert shown[0].startswith(str(path)[:60]) and "work.json was not saved: " in shown[0]
    assert words in shown[0] and ".tmp" not in shown[0]
    assert "autosaved to" in shown[0]
    assert path.read_bytes() == before  # the old file whole
    doc = window.document
    assert doc.modified and doc.map.name == "After"  # the work still open
    kept = recovery.read(window._recovery(), path)
    assert kept is not None and kept.name == "After"  # ...and on disk elsewhere
    monkeypatch.undo()
    monkeypatch.setattr(files, "recovery_dir", lambda: recovery_folder)
    assert window.save()  # space freed: the same Save works, no question asked
    assert load_map(path).name == "After"


def test_start_page_discard_deletes_only_that_recovery(make_editor, recovery_folder) -> None:
    recovery_folder.mkdir(parents=True)
    old = recovery.slot(recovery_folder, None, "abc")
    recovery.write(small_map("Left over"), old, None)  # no window id: an older version's file
    window = make_editor()
    listed = window.start_page.recoverable
    assert listed.count() == 1
    listed.setCurrentRow(0)
    QTest.mouseClick(window.start_page.discard_button, Qt.MouseButton.LeftButton)
    assert not old.exists() and not window.start_page.recovery_box.isVisibleTo(window)


def test_autosave_keeps_trying_when_a_map_cannot_be_copied(make_editor, qtbot, recovery_folder):
    """A map nested too deeply to copy (the engine bounds nesting when it parses; this one is
    built in memory): each autosave says it failed, and autosave works again once it can."""
    m = small_map()
    deep: dict[str, object] = {}
    m.editor = {"deep": deep}
    for _ in range(5000):
        deep["x"] = deep = {}
    window = make_editor(m)
    change_attribute(window.document, "name", "Deep")
    messages: list[str] = []
    window.files.status.connect(messages.append)
    window.autosave_in_background()
    window.autosave_in_background()
    assert messages == ["Autosave failed: the map is nested too deeply to be copied"] * 2
    window.document.map.editor = {}  # (the user removed what was nested)
    with qtbot.waitSignal(window.files.autosaved, timeout=20000) as done:
        window.autosave_in_background()
    assert done.args == [None]
    kept = recovery.read(window._recovery(), None)
    assert kept is not None and kept.name == "Deep"


def test_start_page_reopens_a_saved_maps_work_on_its_file(
    make_editor, tmp_path, recovery_folder
) -> None:
    path = tmp_path / "work.json"
    MapDocument(small_map("Saved")).save(path)
    gone = make_editor()
    assert gone.open_path(path, ask_save=False)
    change_attribute(gone.document, "name", "Unsaved edit")
    assert gone.autosave() is not None
    gone.files._lock.unlock()  # its process died (a real kill -9: the untitled test above)
    window = make_editor()
    listed = window.start_page.recoverable
    assert listed.count() == 1 and listed.item(0).text().startswith("Unsaved edit\n    work.json, ")
    listed.itemActivated.emit(listed.item(0))
    doc = window.document
    assert doc.path == path and doc.modified and doc.map.name == "Unsaved edit"
    assert window.save()  # no "changed on disk" question: the file is as it was opened
    assert load_map(path).name == "Unsaved edit"


def test_discarding_unsaved_changes_deletes_their_autosave(
    make_editor, tmp_path, recovery_folder, monkeypatch
) -> None:
    path = tmp_path / "work.json"
    MapDocument(small_map()).save(path)
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    change_attribute(window.document, "name", "Thrown away")
    slot = window.autosave()
    assert slot is not None and slot.is_file()
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Discard)
    assert window.open_path(path)  # asks; Discard
    assert not slot.exists() and window.document.map.name == "T"
