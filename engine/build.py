"""Which build of the engine is running: pure Python, or the optional compiled build.

The compiled build (docs/performance.md, "The compiled build") is the same source compiled by
Cython in pure-Python mode into a wheel, with the C types of the ``.pxd`` files beside the
hottest modules: the modules named in :data:`COMPILED_MODULES` are
extension modules there. An editable install (``pip install -e .``) is always pure Python.
This module imports nothing from the engine: ``setup.py`` reads the list from it.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import platform

COMPILED_MODULES: tuple[str, ...] = (
    "engine.board.tiletables",
    "engine.board.state",
    "engine.board.preview",
    "engine.board.counting",
    "engine.board.placing",
    "engine.features",
    "engine.game",
    "engine.legal",
    "engine.moves",
    "engine.scoring",
    "engine.draws",
    "engine.rules.context",
    "engine.rules.chips_common",
    "engine.rules.data.rules",
    "engine.bots.greedy_bot",
    "engine.bots.mcts_bot",
    "engine.bots.evaluation",
)
"""The hot modules the compiled build compiles: a random, greedy or Monte-Carlo game spends
most of its time in them (the board's layers, the game and its move views, the bots, the
Map-Chips rule sets). Set-up, input and output stay pure Python: compiling them would lengthen
the build for little."""


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED_MODULES` that are extension modules in this process."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for name in COMPILED_MODULES:
        path = getattr(importlib.import_module(name), "__file__", None) or ""
        if path.endswith(suffixes):
            out.append(name)
    return out


def build_name() -> str:
    """``"compiled"`` when every module of :data:`COMPILED_MODULES` is compiled, ``"pure
    Python"`` when none is, else ``"mixed"`` (a broken install)."""
    n = len(compiled_modules())
    if n == 0:
        return "pure Python"
    return "compiled" if n == len(COMPILED_MODULES) else "mixed"


def build_summary() -> str:
    """What ``python -m engine info`` prints without a map: the build and its modules."""
    name = build_name()
    python = f"{platform.python_implementation()} {platform.python_version()}"
    if name == "pure Python":
        return f"Engine build: pure Python ({python})"
    done = compiled_modules()
    pure = [m for m in COMPILED_MODULES if m not in done]
    lines = [f"Engine build: {name} ({python}), compiled: {', '.join(done)}"]
    if pure:
        lines.append(f"not compiled: {', '.join(pure)}")
    return "\n".join(lines)
