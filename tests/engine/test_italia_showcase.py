"""The showcase map Italia and its mini-expansion Olio e Vino, a rule set designed as data
(maps/italia.ruleset.json): the map validates, names its rule-set file, and seeded games under
that rule set play to the end with every mechanic taken and scored as the file says."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.bots import make_bot
from engine.game import Game
from engine.mapdef import MapDef
from engine.mapio import load_map, map_to_dict
from engine.resources import bundled_map, find_map, maps_dir, shipped_maps
from engine.rules.data import load_ruleset
from engine.validation import Severity, validate_map

SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def italia() -> MapDef:
    return load_map(bundled_map("italia"))


@pytest.fixture(scope="module")
def games(italia: MapDef) -> list[Game]:
    out = []
    for seed in SEEDS:
        game = Game(italia, players=2, seed=seed)
        bots = [make_bot("greedy", seed=seed * 7 + i + 1) for i in range(2)]
        while not game.is_over():
            game.play(bots[game.to_move].choose(game))
        out.append(game)
    return out


def test_italia_validates_without_errors_or_warnings(italia: MapDef) -> None:
    issues = validate_map(italia)
    assert [str(i) for i in issues if i.severity is Severity.ERROR] == []
    assert [str(i) for i in issues] == []


def test_italia_names_its_rule_set_file(italia: MapDef) -> None:
    spec = load_ruleset(maps_dir() / "italia.ruleset.json")
    assert italia.rule_set.file == "italia.ruleset.json"
    assert italia.rule_set.spec == spec
    assert (spec.name, spec.title) == ("italia", "Olio e Vino")
    assert [m.id for m in spec.mechanics] == ["vino", "olio", "espresso"]
    assert set(spec.prints) == {"town_colours", "border_coa"}
    # saved back in the same form: the file is named, not embedded
    assert map_to_dict(italia)["rule_set"] == {"file": "italia.ruleset.json"}


def test_the_map_has_the_prints_a_real_map_has(italia: MapDef) -> None:
    assert all(town.grape is not None for town in italia.towns.values())
    colours = Counter(town.grape.value for town in italia.towns.values() if town.grape)
    assert set(colours) == {"purple", "light_blue", "orange"} and min(colours.values()) >= 7
    assert len(italia.start_squares) == 3 and len(italia.large_cities) == 6
    assert sum(f.coats_of_arms > 0 for f in italia.border_features.values()) >= 6
    islands = {i.name: i for i in italia.islands.values()}
    assert {"Sardegna", "Sicilia", "Elba", "Isole Eolie"} <= set(islands)
    assert len(italia.ferries) >= 5


def test_the_rule_set_file_is_not_listed_as_a_map() -> None:
    names = [p.name for p in shipped_maps()]
    assert "italia.json" in names
    assert not [n for n in names if n.endswith(".ruleset.json")]
    assert find_map("italia") == bundled_map("italia")


def test_a_game_on_italia_plays_its_data_rule_set_by_default(italia: MapDef) -> None:
    game = Game(italia, players=2, seed=5)
    assert [r.name for r in game.rules] == ["italia"]
    assert game.rules[0].title == "Olio e Vino"


def test_seeded_games_play_to_the_end_and_take_every_mechanic(games: list[Game]) -> None:
    taken: Counter[str] = Counter()
    for game in games:
        assert game.is_over()
        state = game.rule_state["italia"]
        for mech, per_player in state.taken.items():
            taken[mech] += sum(per_player)
    assert taken["vino"] > 0 and taken["olio"] > 0 and taken["espresso"] > 0


def test_mechanics_score_and_cost_what_the_file_says(games: list[Game]) -> None:
    data = json.loads((maps_dir() / "italia.ruleset.json").read_text(encoding="utf-8"))
    vino, olio, _espresso = data["mechanics"]
    town_wine = vino["reward"]["points"]["town_colour"]
    oil_prices = set(olio["reward"]["points"].values())
    for game in games:
        state = game.rule_state["italia"]
        for p in range(2):
            # every wine sale is in a town of its colour: points = sales x the town price
            assert game.breakdown[p].get("vino", 0) == town_wine * state.taken["vino"][p]
            oil = game.breakdown[p].get("olio", 0)
            sales = state.taken["olio"][p]
            assert min(oil_prices) * sales <= oil <= max(oil_prices) * sales
            # espresso costs chips worth exactly 6: three chips or more each time
            assert state.paid["espresso"][p] >= 3 * state.taken["espresso"][p]


def test_the_balance_report_shows_each_mechanics_own_figures(italia: MapDef) -> None:
    from engine.analysis.balance import balance_report
    from engine.analysis.simulate import SimConfig, simulate

    result = simulate(italia, SimConfig(games=3, players=(2,), bot="greedy", seed=2), workers=1)
    rules = balance_report(italia, result)["rules"]
    figures = rules["figures"]
    for mech in ("vino", "olio", "espresso"):
        assert f"{mech}_taken" in figures and f"chips_paid_{mech}" in figures
    assert "vino_points" in figures and "olio_points" in figures
    assert "espresso_points" not in figures  # an extra turn scores nothing itself
    # where oil was sold (it has two prices) and which wine colours sold (one colour pays)
    by_market = figures["olio_by_market"]
    assert set(by_market) <= {"town", "export"}
    assert sum(by_market.values()) == round(figures["olio_taken"]["mean"] * 3)
    assert sum(figures["vino_by_colour"].values()) == round(figures["vino_taken"]["mean"] * 3)
    # one place to sell (vino), or any colours paying (olio): no tally that would say nothing
    assert "vino_by_market" not in figures and "olio_by_colour" not in figures


def test_records_of_italia_games_replay_alone(games: list[Game]) -> None:
    from engine.record import dumps_record, loads_record, record_of
    from engine.replaying import replay

    types: Counter[str] = Counter()
    for game in games:
        text = dumps_record(record_of(game))
        data = json.loads(text)
        assert data["map"]["embedded"]["rule_set"]["name"] == "italia"  # embedded: no file to find
        types.update(a.get("type") for a in data["actions"] if isinstance(a, dict))
        again = replay(loads_record(text))
        assert again.scores == game.scores and again.breakdown == game.breakdown
    assert types["sell_vino"] and types["sell_olio"] and types["drink_espresso"]
