"""``python -m mapeditor export`` runs without a display and fails cleanly on bad input."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from engine.mapio import load_map
from engine.resources import bundled_map

REPO = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    return subprocess.run(
        [sys.executable, "-m", "mapeditor", "export", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=env,
    )


def test_pdf_export_without_a_display(tmp_path: Path) -> None:
    out = tmp_path / "board.pdf"
    result = run(str(bundled_map("example-small")), str(out), "--paper", "A4")
    assert result.returncode == 0, result.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    # "wrote …: N pages of A4 …": the file has exactly the N pages the tool reports.
    match = re.search(r": (\d+) pages of A4", result.stdout)
    assert match, result.stdout
    assert len(re.findall(rb"/Type\s*/Page(?!s)", data)) == int(match.group(1)) >= 2


def test_png_export_size_follows_the_grid(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    result = run(str(bundled_map("example-small")), str(out), "--px-per-square", "10")
    assert result.returncode == 0, result.stderr
    m = load_map(bundled_map("example-small"))
    image = QImage(str(out))
    assert image.width() >= m.width * 10 and image.height() >= m.height * 10


def test_bad_map_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    result = run(str(bad), str(tmp_path / "x.png"))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "bad.json" in result.stderr
    missing = run(str(tmp_path / "nope.json"), str(tmp_path / "x.png"))
    assert missing.returncode == 2 and "nope.json" in missing.stderr
