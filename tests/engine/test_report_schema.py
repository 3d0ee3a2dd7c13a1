"""The balance report's published shape: schemas/report.schema.json accepts real reports (new
ones of every kind of run, and the example reports in docs/) and rejects broken ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.analysis.balance import balance_report
from engine.analysis.report import report_json
from engine.analysis.simulate import SimConfig, simulate
from engine.mapio import load_map
from engine.resources import bundled_map

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "report.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def _errors(report: Any) -> list[str]:
    return [f"{'/'.join(map(str, e.path))}: {e.message}" for e in VALIDATOR.iter_errors(report)]


def test_the_schema_is_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize(
    ("map_name", "config"),
    [
        ("example-small", SimConfig(games=6, players=(2, 3), bot="random", seed=1)),
        ("example-small", SimConfig(games=4, players=(3,), seats=("greedy", "random"), seed=2)),
        ("deutschland", SimConfig(games=2, bot="greedy", seed=3)),
        ("france", SimConfig(games=2, bot="greedy", seed=4)),
        ("benelux", SimConfig(games=2, bot="random", seed=5)),
        ("great-britain", SimConfig(games=2, bot="random", seed=6)),
        ("iberica", SimConfig(games=2, bot="random", seed=7)),
        # a tuning candidate's map: a number inside the rule-set file and a start square moved
        (
            "italia",
            SimConfig(
                games=2,
                bot="random",
                seed=8,
                map_edits=(
                    ("ruleset/mechanics/vino/reward/points/town_colour", 12),
                    ("start.Bari", "19,15"),
                ),
            ),
        ),
    ],
)
def test_new_reports_validate(map_name: str, config: SimConfig) -> None:
    m = load_map(bundled_map(map_name))
    report = json.loads(report_json(balance_report(m, simulate(m, config, workers=1))))
    assert _errors(report) == []
    assert ("bots" in report) == bool(config.seats)


def test_broken_reports_are_rejected() -> None:
    m = load_map(bundled_map("example-small"))
    result = simulate(m, SimConfig(games=3, bot="random"), workers=1)
    report = json.loads(report_json(balance_report(m, result)))
    assert _errors(report) == []
    for change, where in (
        (lambda r: r.pop("wins"), "'wins' is a required property"),
        (lambda r: r["wins"]["2"]["seats"][0].update(rate=1.5), "1.5 is greater than"),
        (lambda r: r["scores"].update({"9": r["scores"]["2"]}), "'9' does not match"),
        (lambda r: r["run"].update(bot="clever"), "'clever' does not match"),
        (lambda r: r["run"].update(bot="mcts@11"), "'mcts@11' does not match"),
        (lambda r: r.update(extra=1), "Additional properties"),
    ):
        broken = copy.deepcopy(report)
        change(broken)
        assert any(where in e for e in _errors(broken)), where
