"""The five presets played as data reproduce their country modules game for game.

Seeded games with random and greedy bots, 2-4 players, on each shipped country map, under
``GameOptions(rule_set="data:<name>")`` and ``rule_set="<name>"``: identical actions, rule-state
summaries and scores; and both identical to the module's games recorded before the presets
existed (``data/module_games.json``, written by ``_equivalence.py`` at commit 4a09b67).
"""

from __future__ import annotations

import json

import pytest
from _equivalence import CASES, GOLDEN, MAPS, key, signature

from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map
from engine.rules.data import DataRules, preset_spec
from engine.rules.registry import get_rules

GOLDEN_GAMES = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("name", "seed", "players", "bot"), CASES, ids=[key(*c) for c in CASES])
def test_a_preset_plays_its_module_game(name: str, seed: int, players: int, bot: str) -> None:
    module = signature(name, name, seed, players, bot)
    data = signature(f"data:{name}", name, seed, players, bot)
    assert data == module
    assert data == GOLDEN_GAMES[key(name, seed, players, bot)]
    assert data["rule_actions"], "the game used the rule set's own actions"


@pytest.mark.parametrize("name", list(MAPS))
def test_state_summaries_and_records_agree(name: str) -> None:
    m = load_map(bundled_map(MAPS[name]))
    games = [
        Game(m, players=3, seed=9, options=GameOptions(rule_set=rs))
        for rs in (name, f"data:{name}")
    ]
    from engine.bots import make_bot, play_game

    for g in games:
        play_game(g, [make_bot("random", seed=i) for i in range(3)])
    module, data = games
    assert isinstance(data.rules[0], DataRules) and data.rules[0].name == name
    assert data.state_summary() == module.state_summary()
    rec_module, rec_data = (json.loads(dumps_record(record_of(g))) for g in games)
    assert rec_data["actions"] == rec_module["actions"]
    assert (
        replay(loads_record(dumps_record(record_of(data)))).state_summary() == data.state_summary()
    )


def test_a_preset_class_declares_what_its_spec_says() -> None:
    cls = get_rules("data:benelux")
    assert cls.spec == preset_spec("benelux") and cls.title == "Benelux"
    assert cls.blocking_prints == ("waves", "island_stacks")
    assert get_rules("data:great_britain").chip_layout.kind == "fixed"
    assert get_rules("data:iberica").chip_layout.excluded == ("gated_islands",)
    assert get_rules("data:france") is get_rules("data:france")  # made once per spec


def test_sheet_tests_in_preset_runs_play_the_generic_class(module_or_preset: str) -> None:
    from _chips_helpers import make_map, new_game

    g = new_game(make_map(["###"]), ["B", "B"], "great_britain", chips=[])
    cls = type(g.rules[0])
    assert cls.__name__ == (
        "DataRules_great_britain" if module_or_preset == "preset" else "GreatBritainRules"
    )


@pytest.mark.parametrize("name", list(MAPS))
def test_the_playtest_view_of_a_preset_is_the_modules(name: str) -> None:
    m = load_map(bundled_map(MAPS[name]))
    from engine.bots import make_bot
    from engine.rules.context import RuleContext

    views = []
    for rs in (name, f"data:{name}"):
        g = Game(m, players=2, seed=4, options=GameOptions(rule_set=rs, end_after_turns=30))
        bots = [make_bot("random", seed=k) for k in range(2)]
        while not g.is_over():
            g.play(bots[g.to_move].choose(g))
        views.append(g.rules[0].view(RuleContext.of(g)))
    assert views[0] == views[1]
    assert views[1].chips or views[1].held != [[], []]
