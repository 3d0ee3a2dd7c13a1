"""Underlay image paths in a map file: resolved in the map's folder, never followed elsewhere,
and never a FIFO or a device (which froze the editor as soon as the map opened)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from engine.mapdef import MapDef
from engine.mapio import save_map
from mapeditor.underlay import (
    EDITOR_KEY,
    IDENTITY,
    Underlay,
    UnderlayError,
    image_file,
    read_image_bytes,
)


def _map_with_underlay(folder: Path, image_path: str) -> Path:
    m = MapDef("t", "T", 6, 4)
    m.land = {(x, y) for x in range(6) for y in range(4)}
    m.editor = {EDITOR_KEY: Underlay(image_path, 0.5, True, IDENTITY).to_dict()}
    path = folder / "m.json"
    save_map(m, path)
    return path


def test_image_paths_stay_in_the_map_folder(tmp_path: Path) -> None:
    map_path = tmp_path / "maps" / "m.json"
    map_path.parent.mkdir()
    assert image_file("scans/a.png", map_path) == (map_path.parent / "scans/a.png").resolve()
    for bad in ("../a.png", "/etc/passwd", "scans/../../a.png"):
        with pytest.raises(UnderlayError, match="leads outside the folder"):
            image_file(bad, map_path)
    assert image_file("/tmp/picked.png", None) == Path("/tmp/picked.png")  # unsaved map


def test_special_and_oversized_images_are_refused(tmp_path: Path, monkeypatch) -> None:
    os.mkfifo(tmp_path / "pipe.png")
    with pytest.raises(UnderlayError, match="not a regular file"):
        read_image_bytes(tmp_path / "pipe.png")
    with pytest.raises(UnderlayError, match="not a regular file"):
        read_image_bytes("/dev/zero")
    import mapeditor.underlay as underlay

    monkeypatch.setattr(underlay, "MAX_IMAGE_BYTES", 10)
    (tmp_path / "big.png").write_bytes(b"x" * 11)
    with pytest.raises(UnderlayError, match="too large"):
        read_image_bytes(tmp_path / "big.png")


def test_a_map_whose_underlay_is_a_fifo_opens_at_once(make_editor, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "scan.png")
    path = _map_with_underlay(tmp_path, "scan.png")
    window = make_editor()
    assert window.open_path(path, ask_save=False)  # returns: the FIFO is never opened blocking
    assert "not a regular file" in window.underlay.status.text()
    assert not window.underlay.item.isVisible() or window.underlay.item.pixmap().isNull()


def test_a_map_whose_underlay_leaves_its_folder_says_so(make_editor, tmp_path: Path) -> None:
    image = QImage(60, 40, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    image.save(str(tmp_path / "outside.png"))
    folder = tmp_path / "maps"
    folder.mkdir()
    path = _map_with_underlay(folder, "../outside.png")
    window = make_editor()
    assert window.open_path(path, ask_save=False)
    text = window.underlay.status.text()
    assert "outside the map's folder" in text and "Load image" in text
    assert "leads outside the folder" in window.underlay.status.toolTip()
    assert window.underlay.item.pixmap().isNull()
    # the user can still pick it in the dialog
    window.underlay.load(tmp_path / "outside.png")
    assert not window.underlay.item.pixmap().isNull()
