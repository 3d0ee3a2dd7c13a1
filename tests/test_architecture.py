"""The engine never imports Qt or the editor; the editor keeps its layers."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"
EDITOR = ENGINE.parent / "mapeditor"
PYPROJECT = ENGINE.parent / "pyproject.toml"


def _contract(contract_id: str) -> dict[str, object]:
    config = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    return next(
        c for c in config["tool"]["importlinter"]["contracts"] if c.get("id") == contract_id
    )


# Top first; each may import only from those after it (pyproject.toml, contract "editor-layers");
# "a | b" are siblings of one layer.
EDITOR_LAYERS = [
    [name.strip() for name in str(layer).split("|")]
    for layer in _contract("editor-layers")["layers"]
]
WIDGET_FREE = [str(m) for m in _contract("no-widgets-in-the-model")["source_modules"]]


def test_no_engine_module_imports_qt_or_the_editor() -> None:
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in {"PySide6", "PyQt5", "PyQt6", "shiboken6", "mapeditor"}:
                    offenders.append(f"{path.relative_to(ENGINE.parent)}: imports {name}")
    assert offenders == []


def test_importing_the_whole_engine_loads_no_qt() -> None:
    code = (
        "import importlib, pkgutil, sys, engine\n"
        "for m in pkgutil.walk_packages(engine.__path__, 'engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'mapeditor'))]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)


def _editor_imports(path: Path) -> set[str]:
    """The ``mapeditor`` modules ``path`` imports (anywhere in it, relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ["mapeditor", *path.relative_to(EDITOR).parent.parts]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)
    return {name for name in found if name.split(".")[0] == "mapeditor"}


def _layer(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) < 2:
        return None
    return next((i for i, names in enumerate(EDITOR_LAYERS) if parts[1] in names), None)


def test_every_editor_module_is_in_a_layer() -> None:
    outside = [
        p.name
        for p in sorted(EDITOR.iterdir())
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
        if _layer(f"mapeditor.{p.stem}") is None
    ]
    assert outside == []


def test_the_model_side_runs_without_qtwidgets() -> None:
    # The contract "no-widgets-in-the-model", checked by what Python really loads.
    code = (
        "import importlib, sys\n"
        f"for name in {WIDGET_FREE!r}:\n"
        "    importlib.import_module(name)\n"
        "assert 'PySide6.QtWidgets' not in sys.modules, 'QtWidgets loaded'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parent)


def test_editor_modules_import_only_lower_layers() -> None:
    # lint-imports checks indirect imports too; this quick check runs with the tests.
    offenders = []
    for path in EDITOR.rglob("*.py"):
        rel = path.relative_to(EDITOR.parent).with_suffix("")
        own = _layer(".".join(rel.parts))
        if own is None:
            continue
        for name in sorted(_editor_imports(path)):
            other = _layer(name)
            if other is not None and other < own:
                offenders.append(f"{rel}: imports {name}")
    assert offenders == []


def test_the_layer_check_sees_an_upward_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "mapeditor"
    (fake / "tools").mkdir(parents=True)
    (fake / "tools" / "x.py").write_text("from ..widgets import map_view\nfrom . import base\n")
    monkeypatch.setattr(sys.modules[__name__], "EDITOR", fake)
    assert _editor_imports(fake / "tools" / "x.py") >= {"mapeditor.widgets.map_view"}
    assert _layer("mapeditor.widgets.map_view") < _layer("mapeditor.tools.x")
