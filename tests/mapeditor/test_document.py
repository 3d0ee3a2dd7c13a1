"""The editable document: save/open round trip, clean state, signals, selection, snapshots."""

from __future__ import annotations

from pathlib import Path

from engine.mapdef import MapDef
from mapeditor.commands import change_entries
from mapeditor.document import MapDocument


def a_map() -> MapDef:
    m = MapDef("t", "T", 4, 3)
    m.land = {(0, 0), (1, 0)}
    return m


def test_save_marks_clean_and_open_reads_it_back(qapp, tmp_path: Path) -> None:
    doc = MapDocument(a_map())
    assert not doc.modified and doc.display_name == "T (unsaved)"
    change_entries(doc, "land", {(2, 2): True}, "Paint")
    assert doc.modified
    doc.save(tmp_path / "t.json")
    assert not doc.modified and doc.display_name == "t.json"
    again = MapDocument.open(tmp_path / "t.json")
    assert again.map == doc.map


def test_changes_signal_the_squares_they_touch(qapp) -> None:
    doc = MapDocument(a_map())
    seen: list[object] = []
    doc.squaresChanged.connect(seen.append)
    change_entries(doc, "land", {(3, 2): True}, "Paint")
    assert seen and (3, 2) in seen[-1]


def test_a_snapshot_is_independent_of_later_edits(qapp) -> None:
    doc = MapDocument(a_map())
    snap = doc.snapshot()
    change_entries(doc, "land", {(3, 2): True}, "Paint")
    assert (3, 2) not in snap.land and (3, 2) in doc.map.land


def test_selection_changes_emit_and_change_no_data(qapp) -> None:
    doc = MapDocument(a_map())
    hits: list[int] = []
    doc.selectionChanged.connect(lambda: hits.append(1))
    doc.select([(0, 0), (1, 0)])
    assert doc.selection == {(0, 0), (1, 0)} and hits
    assert not doc.modified and doc.undo_stack.count() == 0
