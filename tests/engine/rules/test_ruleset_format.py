"""The rule-set file format (engine/rules/data/ruleset.py, schemas/ruleset.schema.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.rules.data import (
    MECHANIC_KINDS,
    RuleSetError,
    RuleSetSpec,
    check_ruleset_dict,
    load_ruleset,
    preset_dict,
    preset_names,
    save_ruleset,
)
from engine.rules.data.ruleset import MAX_FILE_BYTES, preset_spec


def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(Path("schemas/ruleset.schema.json").read_text("utf-8"))
    return schema


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(_schema())


def test_presets_are_valid_and_round_trip() -> None:
    assert preset_names() == [
        *("france", "benelux", "great_britain", "iberica", "deutschland"),
        *("taiwan", "ukraine", "nordics"),
    ]
    for name in preset_names():
        d = preset_dict(name)
        assert check_ruleset_dict(d) == []
        spec = RuleSetSpec.from_dict(d)
        assert spec.name == name
        again = spec.to_dict()
        assert check_ruleset_dict(again) == []
        assert RuleSetSpec.from_dict(again) == spec


def test_preset_dict_is_a_fresh_copy() -> None:
    d = preset_dict("france")
    d["mechanics"].clear()
    assert preset_dict("france")["mechanics"]


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RuleSetError, match="unknown preset 'italia'; known: france, benelux"):
        preset_dict("italia")


def test_mechanic_kinds_describe_every_kind_of_the_schema() -> None:
    defs = _schema()["$defs"]
    assert set(MECHANIC_KINDS["pay"]) == set(defs["pay"]["properties"]["kind"]["enum"])
    assert set(MECHANIC_KINDS["reward"]) == set(defs["reward"]["properties"]["kind"]["enum"])
    props = _schema()["properties"]
    assert set(MECHANIC_KINDS["collect"]) == set(props["collect"]["properties"]["kind"]["enum"])
    assert set(MECHANIC_KINDS["layout"]) == set(props["layout"]["properties"]["kind"]["enum"])
    assert set(MECHANIC_KINDS["limit"]) == set(defs["mechanic"]["properties"]["limit"]["enum"])
    assert set(MECHANIC_KINDS["when"]) == set(defs["mechanic"]["properties"]["when"]["enum"])
    for group in MECHANIC_KINDS.values():
        for kind in group.values():
            assert kind["label"]
            for param in kind["params"].values():
                assert {"type", "default", "description"} <= set(param)


def _france(**changes: Any) -> dict[str, Any]:
    d = preset_dict("france")
    for path, value in changes.items():
        target: Any = d
        *parts, last = path.split("__")
        for p in parts:
            target = target[int(p)] if p.isdigit() else target[p]
        if value is _DEL:
            del target[last]
        else:
            target[int(last) if last.isdigit() else last] = value
    return d


_DEL = object()

BAD: list[tuple[dict[str, Any], str, str]] = [
    (_france(format="other"), "format", "carcassonne-maps-ruleset"),
    (_france(name="Italia!"), "name", "does not match"),
    (_france(supply__per_colour=21), "supply.per_colour", "21 is greater than the maximum of 20"),
    (_france(supply__values={"1": 3, "2": 5}), "supply.values", "add up to 8, not per_colour 10"),
    (_france(supply__values={"7": 10}), "supply.values.7", "unknown field"),
    (_france(supply__colours=["red"]), "supply.colours[0]", "'red' is not one of"),
    (_france(layout__count=31), "layout.count", "31 is more than the 30 chips"),
    (_france(mechanics__0__pay__value=16), "mechanics[0].pay.value", "largest total 15"),
    (_france(mechanics__0__pay__value=2.0), "mechanics[0].pay.value", "is not of type 'integer'"),
    (_france(mechanics__0__pay__size=3), "mechanics[0].pay.size", "not a field of kind"),
    (
        _france(mechanics__0__reward__points={"border_coa": 5}),
        "mechanics[0].reward.points",
        "no points for 'town_colour'",
    ),
    (
        _france(mechanics__0__reward__points__border_coa=99),
        "mechanics[0].reward.points.border_coa",
        "maximum of 50",
    ),
    (_france(mechanics__0__when="draw"), "mechanics[0].when", "island tiles"),
    (_france(mechanics__0__action="pass"), "mechanics[0].action", "reserved"),
    (_france(mechanics__0__limit="week"), "mechanics[0].limit", "'week' is not one of"),
    (_france(mechanics__0__id=_DEL), "mechanics[0]", "'id' is a required property"),
    (_france(collect__treat_factor=3), "collect.treat_factor", "only for collect kind 'treat'"),
    (_france(island_coat_points=11), "island_coat_points", "maximum of 10"),
    (_france(expression="1+1"), "expression", "unknown field"),
]


@pytest.mark.parametrize(("data", "path", "reason"), BAD, ids=[b[1] + ":" + b[2][:20] for b in BAD])
def test_a_bad_rule_set_gets_one_line_naming_the_field(
    data: dict[str, Any], path: str, reason: str
) -> None:
    problems = check_ruleset_dict(data)
    assert problems and problems[0].path == path, problems
    assert reason in problems[0].message
    with pytest.raises(RuleSetError) as info:
        RuleSetSpec.from_dict(data, source="italia.ruleset.json")
    text = str(info.value)
    assert text.startswith(f"italia.ruleset.json: {path}: ") and "\n" not in text


def test_cross_mechanic_problems_name_their_field() -> None:
    d = preset_dict("great_britain")
    d["mechanics"][0]["reward"]["freed_by"] = "wine"
    d["mechanics"][1]["id"] = "double_turn"
    d["mechanics"][1]["pay"]["size"] = 4
    d["mechanics"][1]["pay"]["same"] = "colour_all_different"
    assert [str(p) for p in check_ruleset_dict(d)] == [
        "mechanics[1].id: 'double_turn' is the id of mechanics[0] too",
        "mechanics[0].reward.freed_by: no mechanic has the id 'wine'",
        "mechanics[1].pay.size: the supply holds no set of 4 chips (colour all different)",
    ]
    d = preset_dict("great_britain")
    del d["mechanics"][0]
    assert [str(p) for p in check_ruleset_dict(d)] == [
        "mechanics[0].reward.kind: frees nothing: no extra_turn mechanic parks meeples"
    ]


def test_an_unreachable_exact_value_is_refused() -> None:
    d = preset_dict("deutschland")
    d["supply"]["values"] = {"2": 10}
    d["mechanics"][0]["pay"]["value"] = 5
    assert [str(p) for p in check_ruleset_dict(d)] == [
        "mechanics[0].pay.value: no chips add up to 5"
    ]


@pytest.mark.parametrize("garbage", [None, [], "france", 3, {"format": []}])
def test_the_checker_never_raises(garbage: Any) -> None:
    problems = check_ruleset_dict(garbage)
    assert problems and all("\n" not in str(p) for p in problems)


def test_load_and_save_a_file(tmp_path: Path) -> None:
    path = tmp_path / "italia.ruleset.json"
    spec = preset_spec("deutschland")
    save_ruleset(spec, path)
    assert load_ruleset(path) == spec
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"^.*italia\.ruleset\.json: .*line 1"):
        load_ruleset(path)
    path.write_text(json.dumps(_france(supply__per_colour=0)), encoding="utf-8")
    with pytest.raises(RuleSetError, match=r"italia\.ruleset\.json: supply\.per_colour: 0 is less"):
        load_ruleset(path)


def test_a_file_over_the_size_bound_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.ruleset.json"
    path.write_bytes(b" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(RuleSetError, match="big.ruleset.json: .*too large"):
        load_ruleset(path)


def test_every_field_of_the_schema_is_described() -> None:
    """The editor's rule-set dock shows the schema's descriptions."""
    missing: list[str] = []

    def walk(node: Any, path: str) -> None:
        if not isinstance(node, dict):
            return
        for key in ("properties", "patternProperties"):
            for name, sub in node.get(key, {}).items():
                if isinstance(sub, dict) and "description" not in sub and "$ref" not in sub:
                    missing.append(f"{path}.{name}")
                walk(sub, f"{path}.{name}")
        for name, sub in node.get("$defs", {}).items():
            walk(sub, f"{path}.$defs.{name}")
        walk(node.get("items"), f"{path}[]")

    walk(_schema(), "$")
    assert missing == []


def test_saving_a_rule_set_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a save that fails half way leaves the old file whole and no temporary file behind
    import os

    path = tmp_path / "mine.ruleset.json"
    save_ruleset(preset_spec("france"), path)
    before = path.read_bytes()

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        save_ruleset(preset_spec("deutschland"), path)
    assert path.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["mine.ruleset.json"]
    assert load_ruleset(path) == preset_spec("france")
