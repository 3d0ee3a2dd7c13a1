"""Carcassonne Maps Studio: the Qt map editor and playtest window, built on :mod:`engine`."""

import sys

if sys.version_info < (3, 12):  # pragma: no cover - depends on the interpreter
    # PySide6 6.12 returns None from void methods (QPainter.save, drawLine, ...) without adding a
    # reference: harmless from Python 3.12 (None is immortal), but on 3.11 every call takes one
    # reference away and after a few thousand Qt calls the process aborts with "none_dealloc:
    # deallocating None". Give None so many references that no session can use them up.
    import ctypes

    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 48
