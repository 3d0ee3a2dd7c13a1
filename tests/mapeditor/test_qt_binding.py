"""The installed Qt binding must not leak references to None.

PySide6 6.12.0 returns None from void methods without adding a reference; on Python 3.11 the
process aborts ("none_dealloc") after a few thousand painter calls. pyproject.toml excludes it;
this test catches a binding that brings the bug back.
"""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtGui import QGuiApplication, QImage, QPainter
app = QGuiApplication([])
image = QImage(8, 8, QImage.Format.Format_ARGB32)
painter = QPainter(image)
before = sys.getrefcount(None)
for _ in range(20000):
    painter.save()
    painter.restore()
painter.end()
print(sys.getrefcount(None) - before)
"""


def test_void_qt_calls_keep_none_alive() -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
    # None's count may drift by a handful from unrelated allocations, never by thousands.
    assert abs(int(result.stdout.strip())) < 100
