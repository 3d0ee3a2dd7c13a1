"""The engine's import graph: no cycle, no private name imported across modules, and every
import inside a function says why it is there (lint-imports checks the layers themselves)."""

from __future__ import annotations

import ast
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "mapeditor")


@dataclass
class Module:
    name: str
    path: Path
    tree: ast.Module
    lines: list[str]
    imports: set[str] = field(default_factory=set)
    """Modules of the same package imported anywhere (type-checking-only imports left out)."""


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of ``tree`` except those under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for orelse in child.orelse:
                    visit(orelse)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                found.append(child)
            visit(child)

    visit(tree)
    return found


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[: len(base) - node.level + (1 if is_package else 0)]
    return ".".join([*base, node.module] if node.module else base)


def load_modules(root: Path, package: str) -> dict[str, Module]:
    """The modules of ``package`` under ``root`` with the package modules each one imports."""
    modules: dict[str, Module] = {}
    for path in sorted((root / package).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = _module_name(path, root)
        modules[name] = Module(name, path, ast.parse(text, str(path)), text.splitlines())
    for mod in modules.values():
        is_package = mod.path.name == "__init__.py"
        for node in _runtime_imports(mod.tree):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = _absolute(node, mod.name, is_package)
                targets = [f"{base}.{a.name}" for a in node.names]
                if any(t not in modules for t in targets):  # a name of the module itself
                    targets.append(base)
            for target in targets:
                # the longest known module that the name starts with
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != mod.name:
                    mod.imports.add(target)
    return modules


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(modules[v].imports):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(modules):
        if v not in index:
            connect(v)
    return found


def private_imports(modules: dict[str, Module], package: str) -> list[str]:
    """``from <package module> import _name`` in another module of the package."""
    out = []
    for mod in modules.values():
        for node in _runtime_imports(mod.tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _absolute(node, mod.name, mod.path.name == "__init__.py")
            if source.split(".")[0] != package or source == mod.name:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    out.append(f"{mod.name}:{node.lineno} imports {source}.{alias.name}")
    return out


def _commented(lines: list[str], lineno: int) -> bool:
    """Whether the import on line ``lineno`` (1-based), or one of the imports right above it
    (a group), carries a comment, or the line above the group is one."""
    i = lineno - 1
    while i >= 0:
        line = lines[i].strip()
        if "#" in line:
            return True
        if not line.startswith(("import ", "from ")):
            return False
        i -= 1
    return False


def uncommented_function_imports(modules: dict[str, Module]) -> list[str]:
    """Imports inside functions: never of the engine itself, and any other (an optional extra,
    a library too slow to load for every command) with a comment on its line or just above."""
    out = []
    for mod in modules.values():
        for func in ast.walk(mod.tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in _runtime_imports(func):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                where = f"{mod.name}:{node.lineno}"
                relative = isinstance(node, ast.ImportFrom) and node.level > 0
                if relative or any(n.split(".")[0] == "engine" for n in names):
                    out.append(f"{where}: an engine import inside a function")
                    continue
                if not _commented(mod.lines, node.lineno):
                    out.append(f"{where}: import {', '.join(names)} without a comment saying why")
    return out


@pytest.fixture(scope="module")
def engine_modules() -> dict[str, Module]:
    return load_modules(ROOT, "engine")


def test_no_import_cycle_among_engine_modules(engine_modules: dict[str, Module]) -> None:
    assert len(engine_modules) > 80
    assert cycles(engine_modules) == []


def test_the_layers_contract_ignores_only_imports_for_annotations(
    engine_modules: dict[str, Module],
) -> None:
    """The engine-layers contract counts type-checking imports too; the few it ignores
    (``ignore_imports``: a type from a higher layer, for annotations) never run."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["importlinter"]["exclude_type_checking_imports"] is False
    contract = next(
        c for c in config["tool"]["importlinter"]["contracts"] if c.get("id") == "engine-layers"
    )
    ignored = [tuple(p.strip() for p in line.split("->")) for line in contract["ignore_imports"]]
    assert ignored
    at_run_time = [
        f"{source} -> {target}"
        for source, target in ignored
        if any(i == target or i.startswith(f"{target}.") for i in engine_modules[source].imports)
    ]
    assert at_run_time == []
    documented = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    assert [f"{s} -> {t}" for s, t in ignored if f"`{s} -> {t}`" not in documented] == []


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_imports_another_modules_private_name(package: str) -> None:
    assert private_imports(load_modules(ROOT, package), package) == []


def test_engine_imports_sit_at_the_top_of_their_modules(
    engine_modules: dict[str, Module],
) -> None:
    assert uncommented_function_imports(engine_modules) == []


def test_the_checks_see_what_they_look_for(tmp_path: Path) -> None:
    pkg = tmp_path / "engine"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from engine import c\n"
        "def f():\n    from engine.b import g\n    import json\n"
        "def h():\n    # optional: the extra may be absent\n    import numpy\n    import shapely\n"
    )
    (pkg / "b.py").write_text("from engine.sub.d import _hidden, shown\n")
    (pkg / "c.py").write_text("import engine.a\n")
    (pkg / "sub" / "d.py").write_text("from ..b import shown\nfrom . import e\n")
    (pkg / "sub" / "e.py").write_text("")
    modules = load_modules(tmp_path, "engine")
    assert modules["engine.a"].imports == {"engine.b"}  # the type-checking import left out
    assert modules["engine.sub.d"].imports == {"engine.b", "engine.sub.e"}
    assert cycles(modules) == [["engine.b", "engine.sub.d"]]
    assert private_imports(modules, "engine") == ["engine.b:1 imports engine.sub.d._hidden"]
    assert uncommented_function_imports(modules) == [
        "engine.a:5: an engine import inside a function",
        "engine.a:6: import json without a comment saying why",
    ]


def test_public_names_are_not_shadowed_by_submodules() -> None:
    """``engine.replay`` is the function, also once every submodule is imported (a submodule
    of the same name would replace it on the package)."""
    import importlib
    import pkgutil

    import engine

    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        importlib.import_module(info.name)
    lazy = engine._LAZY
    for name in engine.__all__:
        value = getattr(engine, name)
        assert not isinstance(value, type(engine)), f"engine.{name} is a module"
        if name in lazy:
            assert value is getattr(importlib.import_module(lazy[name]), name)
