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
from engine.gameoptions import GameOptions
from engine.mapdef import EmbeddedRuleSet
from engine.mapio import load_map, loads_map, map_to_dict
from engine.resources import bundled_map, schema_path
from engine.rules.data import data_rules_class, preset_dict, preset_names, preset_spec
from engine.rules.data.ruleset import RuleSetSpec
from engine.rules.registry import (
    class_for_spec,
    get_rules,
    import_errors,
    map_rule_set_names,
    map_schema,
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


@pytest.mark.parametrize("name", ["atlantis", "towns"])
def test_a_map_naming_a_rule_set_it_cannot_play_loads_and_is_invalid(name: str) -> None:
    """Any unknown name, and a registered rule set that is not a Map-Chips one (the towns
    variant): one message listing the names a map may give."""
    d = map_to_dict(load_map(bundled_map("france")))
    d["rule_set"] = name
    m = loads_map(json.dumps(d), source="t.json")
    assert m.rule_set.name == name
    found = [i for i in validate_map(m) if i.code == "ruleset-invalid"]
    known = ", ".join(map_rule_set_names())
    assert [i.message for i in found] == [f"rule_set: unknown rule set {name!r}; known: {known}"]
    with pytest.raises(EngineError, match=f"unknown rule set '{name}'; known: none, france"):
        Game(m, players=2, seed=1)
    assert [r.name for r in Game(m, players=2, options=GameOptions(rule_set="none")).rules] == []


def test_the_map_schema_takes_the_registrys_names() -> None:
    import jsonschema
    import sample_rule_set  # noqa: F401 - registers sample_atlantis

    schema = map_schema()
    assert schema["properties"]["rule_set"]["anyOf"][0]["enum"] == map_rule_set_names()
    d = map_to_dict(load_map(bundled_map("france")))
    for name in ("france", "sample_atlantis", "none"):
        jsonschema.validate({**d, "rule_set": name}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**d, "rule_set": "towns"}, schema)
    bundled = json.loads(schema_path("map").read_text(encoding="utf-8"))
    jsonschema.validate({**d, "rule_set": "towns"}, bundled)  # the reader's: the pattern only
    assert map_schema()["properties"]["grid"] == bundled["properties"]["grid"]


def test_the_command_line_prints_the_map_schema(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.cli import main

    assert main(["info", "--map-schema"]) == 0
    assert json.loads(capsys.readouterr().out) == map_schema()


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
