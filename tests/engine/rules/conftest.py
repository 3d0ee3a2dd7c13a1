"""``module_or_preset``: run a rules test twice, against the country modules and against their
presets played as data (a sheet test module opts in with
``pytestmark = pytest.mark.usefixtures("module_or_preset")``). Puts ``tests/fuzz`` on the
import path: its rule-set generator (``rulegen``) serves the rule language's tests too; and
``tests/engine``, for its ``_greedy_checks``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import engine.rules.registry as rules_registry
from engine.rules.base import Rules
from engine.rules.data import data_rules_class, preset_names, preset_spec

# the one rule-set generator (tests/fuzz/rulegen.py) serves the rule language's tests too
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fuzz"))
# and the engine tests' greedy checks (tests/engine/_greedy_checks.py) the rule sets' own
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture(params=["module", "preset"])
def module_or_preset(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """In ``"preset"`` runs, every game a test makes by a country's name (``rule_set="france"``
    or a map made for it) plays that country's preset through the generic data class instead
    (:func:`engine.rules.data.data_rules_class`)."""
    if request.param == "preset":
        real = rules_registry.get_rules

        def preset_rules(name: str) -> type[Rules]:
            if name in preset_names():
                return data_rules_class(preset_spec(name))
            return real(name)

        monkeypatch.setattr(rules_registry, "get_rules", preset_rules)
    return str(request.param)
