"""The optional compiled build: which build is running, and no compiled module in the sources."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import build
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_no_compiled_module_lies_next_to_a_source() -> None:
    # a compiled module beside its source would be imported instead of it, edits unseen
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    stale = [p for p in (ROOT / "engine").rglob("*") if p.name.endswith(suffixes)]
    assert stale == []


@pytest.mark.parametrize("compiled", [0, 3, len(build.COMPILED_MODULES)])
def test_the_build_is_named_from_the_modules_that_are_extension_modules(
    monkeypatch: pytest.MonkeyPatch, compiled: int
) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in build.COMPILED_MODULES:
        module = importlib.import_module(name)
        path = str(Path(module.__file__ or "").with_suffix(".py"))
        monkeypatch.setattr(module, "__file__", path)
    for name in build.COMPILED_MODULES[:compiled]:
        module = importlib.import_module(name)
        monkeypatch.setattr(
            module, "__file__", str(Path(module.__file__ or "").with_suffix(suffix))
        )
    assert build.compiled_modules() == list(build.COMPILED_MODULES[:compiled])
    expected = {0: "pure Python", len(build.COMPILED_MODULES): "compiled"}.get(compiled, "mixed")
    assert build.build_name() == expected
    summary = build.build_summary()
    assert summary.startswith(f"Engine build: {expected} (")
    if compiled == 3:
        assert "not compiled: " + ", ".join(build.COMPILED_MODULES[3:]) in summary


def test_engine_info_without_a_map_names_the_running_build(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Engine build: {build.build_name()} (")
    # CI's run on the compiled build sets CMS_EXPECT_BUILD (tests/conftest.py)
    assert build.build_name() == os.environ.get("CMS_EXPECT_BUILD", build.build_name())


@pytest.mark.parametrize("command", [["editable_wheel", "--dist-dir"], ["build_ext", "--inplace"]])
def test_setup_refuses_a_compiled_build_beside_the_sources(
    command: list[str], tmp_path: Path
) -> None:
    env = dict(os.environ, CMS_COMPILE="1")
    args = [*command, str(tmp_path)] if command[-1] == "--dist-dir" else command
    out = subprocess.run(
        [sys.executable, "setup.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode != 0
    assert "shadow the sources" in out.stderr
    assert not list((ROOT / "engine").rglob("*.c"))


def test_every_package_but_the_country_map_builder_is_in_the_packaged_list() -> None:
    # a wheel (the compiled build's too) holds only the packages pyproject.toml lists; the
    # builder of the country maps is a repository tool, not shipped (test_country_designs)
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(pyproject["tool"]["setuptools"]["packages"])
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("engine", "mapeditor")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert found - listed == {"engine.geo.mapbuild"}
