"""The registry: one class per rule set name, import errors kept and shown, the names a map may
give taken from it."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import engine.rules as rules_package
import engine.rules.registry as registry
from engine.errors import EngineError
from engine.game import Game
from engine.mapdef import EmbeddedRuleSet
from engine.mapio import load_map, loads_map, map_to_dict
from engine.resources import bundled_map
from engine.rules.data import data_rules_class, preset_dict, preset_names, preset_spec
from engine.rules.data.ruleset import RuleSetSpec
from engine.rules.registry import (
    class_for_spec,
    get_rules,
    import_errors,
    map_rule_set_names,
    rules_for,
)
from engine.validation import validate_map


@pytest.mark.parametrize("name", preset_names())
def test_a_preset_and_its_name_are_one_rule_set(name: str) -> None:
    cls = get_rules(name)
    assert get_rules(f"data:{name}") is cls
    assert class_for_spec(preset_spec(name)) is cls
    # the generic class of the same spec is another identity: not what the registry gives
    assert data_rules_class(preset_spec(name)) is not cls


def test_a_rule_set_file_under_a_registered_name_keeps_that_identity() -> None:
    d = preset_dict("france")
    d["title"] = "France, house rules"
    spec = RuleSetSpec.from_dict(d)
    cls = class_for_spec(spec)
    france = get_rules("france")
    assert issubclass(cls, france) and cls is not france
    assert cls.spec == spec and cls.name == "france"
    assert cls.report_figures == france.report_figures  # same mechanics, same figures
    assert cls.issue_codes == france.issue_codes
    d["mechanics"][0]["id"] = "vin"
    renamed = class_for_spec(RuleSetSpec.from_dict(d))
    assert {"vin_taken", "wines_sold"} <= set(renamed.report_figures)
    assert "wine_taken" in france.report_figures and "wine_taken" not in renamed.report_figures
    assert class_for_spec(spec) is cls  # made once


def test_a_map_with_its_own_france_file_plays_the_france_class(tmp_path: Path) -> None:
    m = load_map(bundled_map("france"))
    m.rule_set = EmbeddedRuleSet(preset_spec("france"))
    assert rules_for(None, m) is get_rules("france")
    g = Game(m, players=2, seed=3)
    assert type(g.rules[0]) is get_rules("france")


def test_unknown_names_say_which_are_known() -> None:
    with pytest.raises(EngineError, match=r"unknown rule set 'atlantis'; known: .*france"):
        get_rules("atlantis")
    with pytest.raises(EngineError, match=r"unknown preset 'atlantis'.*presets: france"):
        get_rules("data:atlantis")


@pytest.fixture
def broken_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A rule module in the package's path that fails to import; the registry reloads."""
    (tmp_path / "broken_for_tests.py").write_text(
        "from engine.rules.base import Rules, register\n"
        "raise RuntimeError('the module is broken on purpose')\n"
    )
    monkeypatch.setattr(rules_package, "__path__", [*rules_package.__path__, str(tmp_path)])
    monkeypatch.setattr(registry, "_loaded", False)
    monkeypatch.setattr(registry, "_import_errors", {})
    yield "broken_for_tests"
    sys.modules.pop("engine.rules.broken_for_tests", None)


def test_a_rule_module_that_fails_to_import_says_why(broken_module: str) -> None:
    errors = import_errors()
    assert list(errors) == [broken_module]
    assert "RuntimeError: the module is broken on purpose" in errors[broken_module]
    assert "broken_for_tests.py, line 2" in errors[broken_module]
    with pytest.raises(EngineError) as caught:
        get_rules(broken_module)
    assert "rule module engine.rules.broken_for_tests failed to import: RuntimeError" in str(
        caught.value
    )
    assert get_rules("france").name == "france"  # the others are still found


def test_a_map_naming_a_rule_set_nobody_registered_loads_and_is_invalid() -> None:
    d = map_to_dict(load_map(bundled_map("france")))
    d["rule_set"] = "atlantis"
    m = loads_map(json.dumps(d), source="t.json")
    assert m.rule_set.name == "atlantis"
    found = [i for i in validate_map(m) if i.code == "ruleset-invalid"]
    assert len(found) == 1 and "unknown rule set 'atlantis'; known:" in found[0].message


def test_a_sixth_rule_set_is_named_by_a_map_file_without_changing_the_core() -> None:
    import sample_rule_set as sample  # registers sample_atlantis

    assert "sample_atlantis" in map_rule_set_names()
    d = map_to_dict(load_map(bundled_map("iberica")))
    d["rule_set"] = "sample_atlantis"
    m = loads_map(json.dumps(d), source="t.json")
    assert rules_for(None, m) is sample.AtlantisRules
    assert map_to_dict(m)["rule_set"] == "sample_atlantis"  # saved back as it was read


def test_the_editor_list_is_the_registrys_map_chips_rule_sets() -> None:
    names = map_rule_set_names()
    assert names[: 1 + len(preset_names())] == ["none", *preset_names()]
    assert "towns" not in names  # a variant of the base game, not a Map-Chips rule set
