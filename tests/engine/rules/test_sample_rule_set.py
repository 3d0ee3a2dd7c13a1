"""A sixth rule set, added as one file (``sample_rule_set.py``), works everywhere: validator,
chip layout, game and records, greedy bot (its hints hold and its fast path matches the plain
evaluation), balance report and playtest view."""

from __future__ import annotations

import random

import pytest
import sample_rule_set as sample
from _greedy_checks import check_greedy_values
from _hint_checks import hint_violations, traced_games

from engine.analysis.balance import balance_report
from engine.analysis.simulate import SimConfig, play_one, simulate
from engine.chips import allowed_squares, check_layout
from engine.game import Game, GameOptions
from engine.mapdef import MapDef, NamedRuleSet
from engine.mapio import load_map
from engine.record import dumps_record, loads_record
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.context import RuleContext
from engine.rules.registry import get_rules, map_chip_layout, rule_set_classes
from engine.validation import Severity, validate_map


def _map(name: str = "france") -> MapDef:
    m = load_map(bundled_map(name))
    m.rule_set = NamedRuleSet(sample.AtlantisRules.name)
    return m


def test_it_is_found_by_name_and_listed() -> None:
    assert get_rules("sample_atlantis") is sample.AtlantisRules
    assert sample.AtlantisRules in rule_set_classes()


def test_the_validator_asks_the_rule_set() -> None:
    m = _map()
    codes = {i.code: i for i in validate_map(m)}
    assert "atlantis-no-harbour" not in codes
    setup = codes["rule-set-setup"]  # the sheet's 12 chips, not the map's 30
    assert setup.severity is Severity.WARNING and "sample_atlantis sheet" in setup.message
    m.towns.clear()
    assert "atlantis-no-harbour" in {i.code for i in validate_map(m)}


def test_the_chip_layout_keeps_its_excluded_squares_free() -> None:
    m = _map("iberica")  # ferry-gated islands: Atlantis's reefs
    reefs = m.gated_squares()
    assert reefs
    used = list(m.start_squares)[:2]
    layout = map_chip_layout(m)
    assert layout == sample.AtlantisRules.chip_layout
    assert not reefs & allowed_squares(m, used, chip_layout=layout)
    reef = min(reefs)
    found = {v.rule for v in check_layout(m, [reef], used, chip_layout=layout)}
    assert "chip-on-reef" in found
    assert sample.AtlantisRules.chip_layout.excluded_code == "chip-on-reef"
    g = Game(m, seed=2)
    state = g.rule_state["sample_atlantis"]
    assert len(state.down) == m.setup.chip_count and not reefs & set(state.down)


def _random_game(seed: int) -> Game:
    # a map file names its rule set from the schema's list (records embed the map), so the
    # game names the sample rule set in its options
    m = load_map(bundled_map("france"))
    opts = GameOptions(rule_set="sample_atlantis", end_after_turns=70)
    return Game(m, seed=seed, options=opts)


def test_games_play_sell_and_replay_from_their_records() -> None:
    sold = 0
    for seed in range(3):
        g = _random_game(seed)
        rng = random.Random(seed)
        while not g.is_over():
            moves = g.legal_moves().list()
            sells = [mv for mv in moves if isinstance(mv, sample.SellFish)]
            g.play(sells[0] if sells else rng.choice(moves))
            sold += bool(sells)
        assert g.breakdown[0].get("fish", 0) + g.breakdown[1].get("fish", 0) == 4 * sum(
            isinstance(a, sample.SellFish) for a in g.history
        )
        again = replay(loads_record(dumps_record(g.record())))
        assert again.state_summary() == g.state_summary()
    assert sold > 0


def test_its_bot_hints_hold(monkeypatch) -> None:
    trace = traced_games(monkeypatch, _random_game, range(3))
    assert "apply" in trace.hooks_seen
    assert hint_violations(sample.AtlantisRules, trace) == []


def test_the_greedy_fast_path_matches_the_plain_evaluation(monkeypatch) -> None:
    decisions, mismatches = check_greedy_values(monkeypatch)
    facts = play_one(_map(), SimConfig(games=1, bot="greedy"), 0, "sample_atlantis")
    assert len(decisions) > 20 and mismatches == []
    assert facts["actions"].get("sell_fish", 0) > 0


def test_the_balance_report_shows_its_declared_figures() -> None:
    m = _map()
    result = simulate(m, SimConfig(games=4, bot="random", seed=1), workers=1)
    assert result.rule_set == "sample_atlantis"
    figures = balance_report(m, result)["rules"]["figures"]
    assert set(figures) == {"catches_sold", "fish_points", "catches_paid_with"}
    assert figures["catches_sold"]["mean"] >= 0


def test_the_playtest_view_is_plain_data() -> None:
    g = _random_game(0)
    view = g.rules[0].view(RuleContext.of(g))
    assert len(view.chips) == len(g.rule_state["sample_atlantis"].down)
    assert view.held == [[], []] and view.stacks == [] and view.isle_meeples == {}


@pytest.mark.parametrize("path", ["sample_rule_set.py"])
def test_nothing_outside_its_file_names_it(path: str) -> None:
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    out = subprocess.run(
        [
            "git",
            "grep",
            "-l",
            "-e",
            "sample_atlantis",
            "-e",
            "sample_rule_set",
            "--",
            "engine",
            "mapeditor",
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    assert out.stdout == ""
