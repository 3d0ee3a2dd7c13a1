"""The balance report's figures (engine.analysis.balance) on hand-written game facts, with every expected
value computed by hand, and the statistics helpers against textbook values."""

from __future__ import annotations

import math

import pytest

from engine.analysis.balance import (
    balance_report,
    binomial_p_value,
    describe,
    two_proportion_p_value,
    wilson,
)
from engine.analysis.simulate import SimConfig, SimResult
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


NORTH, WEST, SOUTH = (3, 2), (1, 4), (7, 5)


def facts(
    scores: list[int],
    *,
    start: tuple = (NORTH, WEST),
    placed: tuple = (),
    turns: int = 50,
    set_aside: tuple = (),
    city: str = "connected",
    borders: tuple = (),
    ferries: tuple = (),
    points: dict | None = None,
) -> dict:
    best = max(scores)
    squares = [*start, *placed]
    return {
        "index": 0,
        "seed": 0,
        "players": len(scores),
        "scores": list(scores),
        "winners": [i for i, s in enumerate(scores) if s == best],
        "turns": turns,
        "start": [list(s) for s in start],
        "placed": [
            [x, y, 0 if k < len(start) else k - len(start) + 1] for k, (x, y) in enumerate(squares)
        ],
        "set_aside": list(set_aside),
        "points": points or {},
        "seat_points": [{} for _ in scores],
        "cities": {"grandville": city},
        "borders": [list(b) for b in borders],
        "ferries": list(ferries),
        "chips": {},
        "seat_chips": [0] * len(scores),
        "actions": {},
        "rule_events": {},
        "rule_actions": [],
        "rules": {},
    }


def run(m, games: list[dict], players: tuple[int, ...] = (2,)) -> dict:
    for i, g in enumerate(games):
        g["index"] = i
    result = SimResult(SimConfig(games=len(games), players=players), m.id, "none", games=games)
    return balance_report(m, result)


# -- statistics -----------------------------------------------------------------------------------


def test_wilson_interval_textbook_values() -> None:
    lo, hi = wilson(8, 10)  # Newcombe (1998): 0.4902 - 0.9433
    assert lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_binomial_test_exact() -> None:
    # 9 or more (or 1 or fewer) heads in 10 fair tosses: 22/1024
    assert binomial_p_value(9, 10, 0.5) == pytest.approx(22 / 1024)
    assert binomial_p_value(5, 10, 0.5) == pytest.approx(1.0)
    # one-in-three chance, 0 of 6: P(0) = (2/3)^6, and every outcome at most that likely
    p0 = (2 / 3) ** 6
    others = [math.comb(6, k) * (1 / 3) ** k * (2 / 3) ** (6 - k) for k in range(1, 7)]
    expected = p0 + sum(p for p in others if p <= p0 + 1e-12)
    assert binomial_p_value(0, 6, 1 / 3) == pytest.approx(expected)


def test_two_proportion_test() -> None:
    # 30/50 vs 20/50: pooled 0.5, z = 0.2 / sqrt(0.25 * 0.04) = 2 -> p = 0.0455
    assert two_proportion_p_value(30, 50, 20, 50) == pytest.approx(0.04550, abs=1e-4)
    assert two_proportion_p_value(5, 10, 5, 10) == pytest.approx(1.0)
    assert two_proportion_p_value(1, 0, 1, 5) == 1.0


def test_describe() -> None:
    d = describe([1, 2, 3, 4, 10])
    assert (d["n"], d["mean"], d["min"], d["median"], d["max"]) == (5, 4.0, 1, 3, 10)
    assert d["q1"] == 2 and d["q3"] == 4
    assert d["sd"] == pytest.approx(3.5355, abs=1e-4)
    assert describe([]) == {"n": 0}


# -- figures --------------------------------------------------------------------------------------


def test_scores_and_wins_by_hand(small) -> None:
    games = [facts([30, 20]), facts([25, 25]), facts([10, 40]), facts([50, 45])]
    r = run(small, games)
    seats = r["scores"]["2"]["seats"]
    assert seats[0]["mean"] == pytest.approx((30 + 25 + 10 + 50) / 4)
    assert seats[1]["mean"] == pytest.approx((20 + 25 + 40 + 45) / 4)
    assert (seats[0]["min"], seats[0]["max"]) == (10, 50)
    assert r["scores"]["2"]["winning"]["mean"] == pytest.approx((30 + 25 + 40 + 50) / 4)
    assert r["scores"]["2"]["margin"]["mean"] == pytest.approx((10 + 0 + 30 + 5) / 4)
    w = r["wins"]["2"]
    assert w["ties"] == 1
    assert w["seats"][0]["count"] == 3  # games 1, 2 (tie), 4
    assert w["seats"][1]["count"] == 2  # games 2 (tie), 3
    assert w["seats"][0]["rate"] == 0.75
    assert w["seats"][0]["ci"] == [pytest.approx(v, abs=1e-4) for v in wilson(3, 4)]
    assert w["seats"][0]["p_value"] == pytest.approx(binomial_p_value(3, 4, 0.5), abs=1e-6)
    assert r["length"]["all"]["mean"] == 50


def test_player_counts_are_kept_apart(small) -> None:
    games = [facts([10, 20]), facts([5, 6, 7]), facts([30, 1])]
    r = run(small, games, players=(2, 3))
    assert r["scores"]["2"]["games"] == 2
    assert r["scores"]["3"]["games"] == 1
    assert r["wins"]["3"]["seats"][2]["count"] == 1
    assert r["wins"]["3"]["fair"] == pytest.approx(1 / 3, abs=1e-4)


def test_start_choices_by_hand(small) -> None:
    games = [
        facts([30, 20], start=(NORTH, WEST)),
        facts([20, 30], start=(WEST, NORTH)),  # same choice, other start-tile square
        facts([40, 10], start=(NORTH, SOUTH)),
    ]
    r = run(small, games)
    by_key = {tuple(tuple(s) for s in c["squares"]): c for c in r["start_choices"]}
    nw = by_key[(WEST, NORTH)]
    assert nw["games"] == 2
    assert nw["names"] == ["Westford", "Northtown"]
    assert nw["mean_score"] == pytest.approx(25)
    assert nw["mean_winning_score"] == pytest.approx(30)
    seat0 = nw["seats"][0]
    assert (seat0["count"], seat0["others_rate"]) == (1, 1.0)
    assert seat0["p_value"] == pytest.approx(two_proportion_p_value(1, 2, 1, 1), abs=1e-6)
    assert by_key[(NORTH, SOUTH)]["games"] == 1


def test_fill_heat_map_by_hand(small) -> None:
    a, b = (4, 2), (5, 2)
    games = [
        facts([1, 0], placed=(a, b), set_aside=("B", "B")),
        facts([1, 0], placed=(b,)),
    ]
    r = run(small, games)
    f = r["fill"]
    n = len(small.placeable_squares())
    assert f["share"]["mean"] == pytest.approx(((4 / n) + (3 / n)) / 2, abs=1e-4)
    grid = f["built_rate"]
    assert grid[2][4] == 0.5 and grid[2][5] == 1.0 and grid[2][3] == 1.0  # Northtown: a start
    # how early: a was the 1st placement; b the 2nd, then the 1st -> mean 1.5; starts 0
    assert f["mean_placement"][2][4] == 1.0
    assert f["mean_placement"][2][5] == 1.5
    assert f["mean_placement"][2][3] == 0.0
    assert grid[0][0] is None  # outside the map
    assert grid[3][6] is None  # Grandville: a large city square, not placeable
    built = {NORTH, WEST, a, b}
    assert f["never_reached"] == sorted([x, y] for x, y in small.placeable_squares() - built)
    assert f["set_aside"]["by_tile"] == {"B": 2}
    assert f["set_aside"]["per_game"]["mean"] == 1
    assert f["set_aside"]["games_with_any"] == 1
    sizes = sorted((reg["size"] for reg in f["never_filled_regions"]), reverse=True)
    assert sum(sizes) == len(f["never_reached"])


def test_features_by_hand(small) -> None:
    games = [
        facts(
            [1, 0],
            city="completed",
            borders=((4, 0, "N"),),
            ferries=("ferry-east",),
            points={"city": 10, "road": 3},
        ),
        facts([1, 0], city="connected", points={"city": 4}),
        facts([1, 0], city="dormant", borders=((4, 0, "N"), (0, 3, "W"))),
        facts([1, 0], city="completed"),
    ]
    r = run(small, games)
    feat = r["features"]
    city = feat["large_cities"][0]
    assert city["name"] == "Grandville"
    assert city["completed"]["count"] == 2 and city["completed"]["rate"] == 0.5
    assert city["connected"]["count"] == 3
    borders = {(b["x"], b["y"], b["side"]): b for b in feat["borders"]}
    assert borders[(4, 0, "N")]["connected"]["count"] == 2
    assert borders[(4, 0, "N")]["kind"] == "road"
    assert borders[(0, 3, "W")]["connected"]["rate"] == 0.25
    assert feat["borders_connected_per_game"]["mean"] == pytest.approx(3 / 4)
    assert feat["ferries"] == [
        {
            "id": "ferry-east",
            "place": "ferry-east",  # one end far from any name: the designer's id
            "used": {
                "count": 1,
                "games": 4,
                "rate": 0.25,
                "ci": [pytest.approx(v, abs=1e-4) for v in wilson(1, 4)],
            },
        }
    ]
    assert feat["points_per_game"] == {"city": 3.5, "road": 0.75}


def test_points_by_kind_per_seat_by_hand(small) -> None:
    a, b = facts([12, 3]), facts([4, 9])
    a["seat_points"] = [{"city": 10, "road": 2}, {"field": 3}]
    b["seat_points"] = [{"city": 4}, {"road": 6, "field": 3}]
    seats = run(small, [a, b])["features"]["seat_points_per_game"]["2"]
    assert seats[0] == {"city": 7.0, "field": 0.0, "road": 1.0}
    assert seats[1] == {"city": 0.0, "field": 3.0, "road": 3.0}


# -- warnings -------------------------------------------------------------------------------------


def test_a_start_choice_that_wins_far_more_often_is_warned(small) -> None:
    # with North+West seat 1 wins 60 of 60; with the other choices seat 2 wins 60 of 60
    games = [facts([30, 10], start=(NORTH, WEST)) for _ in range(60)]
    games += [facts([10, 30], start=(NORTH, SOUTH)) for _ in range(30)]
    games += [facts([10, 30], start=(WEST, SOUTH)) for _ in range(30)]
    codes = [w["code"] for w in run(small, games)["warnings"]]
    assert "start-choice" in codes


def test_fair_start_choices_are_not_warned(small) -> None:
    games = []
    for start in ((NORTH, WEST), (NORTH, SOUTH), (WEST, SOUTH)):
        for k in range(40):
            games.append(facts([30, 10] if k % 2 else [10, 30], start=start, city="completed"))
    warnings = run(small, games)["warnings"]
    assert [w["code"] for w in warnings if w["code"] != "region-never-filled"] == []


def test_seat_advantage_is_warned(small) -> None:
    games = [facts([30, 10]) for _ in range(40)] + [facts([10, 30]) for _ in range(10)]
    warnings = run(small, games)["warnings"]
    seat = [w for w in warnings if w["code"] == "seat-advantage"]
    assert len(seat) == 2  # seat 1 wins too often, seat 2 too rarely
    assert "80%" in seat[0]["message"]


def test_rarely_completed_city_and_unfilled_region_are_warned(small) -> None:
    games = [facts([1, 0], city="completed")] + [facts([1, 0]) for _ in range(19)]
    warnings = run(small, games)["warnings"]
    city = [w for w in warnings if w["code"] == "city-rarely-completed"]
    assert city and city[0]["city"] == "grandville" and "1 of 20" in city[0]["message"]
    regions = [w for w in warnings if w["code"] == "region-never-filled"]
    assert regions and all(len(w["squares"]) >= 3 for w in regions)
    # a city completed in half the games is no warning
    games = [facts([1, 0], city="completed" if k % 2 else "connected") for k in range(20)]
    assert not [w for w in run(small, games)["warnings"] if w["code"] == "city-rarely-completed"]


def test_missing_rule_module_is_said(small) -> None:
    m = load_map(bundled_map("deutschland"))
    result = SimResult(
        SimConfig(games=1), m.id, "none", games=[facts([1, 0], start=())], rules_missing="x"
    )
    result.games[0]["start"] = [[s[0], s[1]] for s in list(m.start_squares)[:2]]
    r = balance_report(m, result)
    assert r["chips"] == {"available": False, "why": "the engine has no 'x' rule module"}
    assert r["rules"]["missing"] == "x"


def test_a_region_built_in_few_games_is_warned(small) -> None:
    # (9, 0) (9, 1) (9, 2) built in 1 game of 25: under 5%, a connected region of 3 squares
    region = ((9, 0), (9, 1), (9, 2))
    others = tuple(sq for sq in sorted(small.placeable_squares()) if sq not in region)
    others = tuple(sq for sq in others if sq not in (NORTH, WEST))
    games = [facts([1, 0], placed=others + region)] + [
        facts([1, 0], placed=others) for _ in range(24)
    ]
    r = run(small, games)
    assert r["fill"]["never_reached"] == []
    assert sorted(r["fill"]["rarely_reached"]) == sorted(list(sq) for sq in region)
    warned = [w for w in r["warnings"] if w["code"] == "region-rarely-filled"]
    assert len(warned) == 1 and sorted(warned[0]["squares"]) == sorted(list(sq) for sq in region)
    assert not [w for w in r["warnings"] if w["code"] == "region-never-filled"]
