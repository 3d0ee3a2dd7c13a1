"""Every ``>>>`` example in a module docstring (or a function's) of the engine and the editor runs
and shows what it says."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil

import pytest

import engine
import mapeditor


def _modules_with_examples() -> list[str]:
    names = []
    for package in (engine, mapeditor):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            spec = importlib.util.find_spec(info.name)
            origin = spec.origin if spec is not None else None
            if origin and origin.endswith(".py"):
                with open(origin, encoding="utf-8") as fh:
                    if ">>>" in fh.read():
                        names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_examples_are_found() -> None:
    assert {"engine.game", "engine.islands", "engine.gridshape"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_module_examples_run(name: str, qapp: object) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0
    assert result.failed == 0
