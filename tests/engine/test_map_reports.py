"""Reports a designer reads on the map (issue #27): heat maps drawn on the map, features named
by place, comparisons that name both files and what differs, a re-run command that works beside
the report, plain verdicts with the games needed, sweeps with seats apart per player count."""

from __future__ import annotations

import json
import math
import shlex
import subprocess
import sys
from pathlib import Path
from statistics import NormalDist

import pytest

from engine.analysis.balance import balance_report, rule_leader_figure
from engine.analysis.compare import built_difference, compare_runs, verdicts, write_comparison
from engine.analysis.mapdiff import map_differences
from engine.analysis.mapfigure import MapLayer, grid_values, map_figure
from engine.analysis.report import (
    bots_text,
    report_blocks,
    rerun_command,
    to_markdown,
    write_report,
)
from engine.analysis.simulate import SimConfig, simulate
from engine.analysis.sweep import parse_sweep, sweep
from engine.analysis.verdicts import about, games_needed, games_needed_two, plain_verdicts
from engine.geo.naming import PlaceNames
from engine.geometry import Edge, Side
from engine.mapdef import MapDef, StartSquare, Town
from engine.mapio import load_map, save_map
from engine.resources import bundled_map

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def small() -> MapDef:
    return load_map(bundled_map("example-small"))


@pytest.fixture(scope="module")
def small_run(small: MapDef):
    return simulate(small, SimConfig(games=12, bot="random", seed=3), workers=1)


def _plain(width: int = 12, height: int = 6) -> MapDef:
    return MapDef(
        "demo", "Demo", width, height, land={(x, y) for x in range(width) for y in range(height)}
    )


# -- features named by place ---------------------------------------------------------------------


def test_squares_are_named_from_the_nearest_names() -> None:
    m = _plain()
    m.towns[(2, 2)] = Town("Kassel")
    m.towns[(9, 2)] = Town("Erfurt")
    names = PlaceNames(m)
    assert names.square((2, 2)) == "at Kassel"
    assert names.square((3, 3)) == "near Kassel"
    assert names.square((5, 2)) == "between Kassel and Erfurt"
    assert names.square((2, 5)) == "south of Kassel"
    assert names.square((11, 0)) == "north-east of Erfurt"
    assert names.squares([(1, 1), (2, 2), (3, 3)]) == "around Kassel"


def test_a_large_city_is_named_before_a_town_and_a_start_square_is_a_name_too() -> None:
    m = load_map(bundled_map("example-small"))
    names = PlaceNames(m)
    assert names.square((6, 3)) == "at Grandville"  # a large city square
    assert names.square((3, 2)) == "at Northtown"  # a start square's name
    assert names.square((5, 1)) == "at Vineby"


def test_border_features_are_named_by_place_and_neighbour() -> None:
    m = _plain()
    m.towns[(1, 2)] = Town("Kassel")
    names = PlaceNames(m)
    assert (
        names.border(Edge(0, 2, Side.W), "road", "Netherlands")
        == "the road from Kassel into the Netherlands"
    )
    assert (
        names.border(Edge(0, 3, Side.W), "city", "Belgium")
        == "the city near Kassel on the border with Belgium"
    )


def test_ferries_are_named_by_their_ends() -> None:
    m = _plain()
    m.towns[(1, 1)] = Town("Genova")
    m.towns[(10, 4)] = Town("Olbia")
    names = PlaceNames(m)
    assert names.ferry(Edge(1, 2, Side.S), Edge(10, 3, Side.N), "g-o") == (
        "the ferry from Genova to Olbia"
    )
    assert names.ferry(Edge(1, 2, Side.S), Edge(2, 1, Side.E), "g-g") == "the ferry near Genova"
    assert names.ferry(Edge(6, 0, Side.N), Edge(6, 5, Side.S), "mid") == "the ferry mid"


def test_without_names_a_place_falls_back_to_its_coordinates() -> None:
    names = PlaceNames(_plain())
    assert names.square((4, 1)) == "(4, 1)"
    assert names.border(Edge(0, 1, Side.W), "road", "") == "the border road (0, 1)"


def test_the_report_names_deutschlands_border_features_by_place() -> None:
    m = load_map(bundled_map("deutschland"))
    result = simulate(m, SimConfig(games=2, bot="random", seed=1), workers=1)
    report = balance_report(m, result)
    places = [b["place"] for b in report["features"]["borders"]]
    assert len(places) == len(m.border_features)
    assert all("(" not in p for p in places), places  # never coordinates where names exist
    assert "the road from Saarbrücken into France" in places
    md = to_markdown(report_blocks(report, {}))
    assert "| the road from Saarbrücken into France |" in md
    assert "(1, 8) W" not in md


def test_never_built_regions_are_named_by_place_in_the_page(small: MapDef) -> None:
    # 3 tiles a game leave most of the map unbuilt: the never-built regions are named
    result = simulate(small, SimConfig(games=2, bot="random", seed=1, tile_count=3), workers=1)
    report = balance_report(small, result)
    regions = report["fill"]["never_filled_regions"]
    assert regions and all(r["place"] for r in regions)
    md = to_markdown(report_blocks(report, {}))
    line = next(x for x in md.splitlines() if x.startswith("Never built: "))
    assert regions[0]["place"] in line
    assert "(" not in line.partition(":")[2] or "at (" in line  # names, else coordinates


# -- heat maps on the map ------------------------------------------------------------------------


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_the_heat_map_is_drawn_on_the_map_with_its_names_and_legend(small, small_run) -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    from matplotlib.collections import PolyCollection

    report = balance_report(small, small_run)
    values = grid_values(report["fill"]["built_rate"])
    never = frozenset((x, y) for x, y in report["fill"]["never_reached"])
    fig = map_figure(
        plt, small, [MapLayer("built", values, "viridis", 0.0, 1.0, "share", crossed=never)]
    )
    try:
        ax = fig.axes[0]
        heat = [
            c for c in ax.collections if isinstance(c, PolyCollection) and c.get_array() is not None
        ]
        assert len(heat) == 1
        # one coloured square per placeable square, in its place and with its figure
        assert len(heat[0].get_paths()) == len(small.placeable_squares())
        first = min(values)
        assert heat[0].get_paths()[0].vertices[0].tolist() == [first[0], first[1]]
        assert heat[0].get_array()[0] == pytest.approx(values[first])
        texts = _texts(fig)
        for name in ("Grandville", "Vineby", "Orchard", "Northtown", "Westford"):
            assert name in texts
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert {"sea", "start square", "large city", "town"} <= set(legend)
        assert ("never built" in legend) == bool(never)
        assert ax.get_ylim() == (small.height, 0)  # the board's y runs down
    finally:
        plt.close(fig)


def test_a_landlocked_map_is_drawn_among_its_neighbours(small) -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    m = load_map(bundled_map("deutschland"))
    fig = map_figure(plt, m, [MapLayer("t", {(x, y): 0.5 for x, y in m.land}, "viridis", 0, 1, "")])
    try:
        texts = _texts(fig)
        assert {"Netherlands", "Poland", "Austria"} <= set(texts)  # neighbour names outside
        assert "München" in texts and "Berlin" in texts
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert "neighbouring land" in legend and "clouds: land border" in legend
    finally:
        plt.close(fig)


def test_the_report_writes_the_heat_map_png_on_the_map(small, small_run, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    files = write_report(balance_report(small, small_run), tmp_path, small)
    png = files["chart:heatmap"].read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert (
        "![How often and how early each square is built](heatmap.png)"
        in files["markdown"].read_text()
    )


# -- the re-run command --------------------------------------------------------------------------


def _run_beside(line: str, folder: Path) -> None:
    """Run the page's command (the code span of ``line``) in ``folder``, on one worker."""
    argv = shlex.split(line.split("`")[1])
    assert argv[:3] == ["python", "-m", "engine"]
    done = subprocess.run(
        [sys.executable, *argv[1:], "--workers", "1", "--quiet", "--no-charts"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def test_the_rerun_command_names_the_map_file_and_works_beside_the_report(tmp_path: Path) -> None:
    m = load_map(bundled_map("example-small"))
    maps = tmp_path / "my maps"
    maps.mkdir()
    map_file = maps / "v2.json"
    save_map(m, map_file)
    out = tmp_path / "reports" / "v2"
    config = SimConfig(games=3, bot="random", seed=5)
    report = balance_report(m, simulate(m, config, workers=1))
    files = write_report(report, out, m, charts=False, map_file=map_file)
    md = files["markdown"].read_text()
    line = next(x for x in md.splitlines() if x.startswith("Same figures again"))
    assert "'../../my maps/v2.json'" in line  # the file, from the report's folder, quoted
    _run_beside(line, out)
    again = json.loads((out / "balance-report" / "report.json").read_text())
    assert again == json.loads(files["json"].read_text())


@pytest.mark.parametrize(
    ("bot", "seats", "budget"),
    [
        ("mcts", (), True),
        ("mcts@4", (), False),
        ("mcts:cities@6", (), False),
        ("greedy", ("mcts@2", "mcts"), True),  # an MCTS seat without a level: its budget
        ("greedy", ("mcts@2", "greedy:farmer"), False),
    ],
)
def test_the_rerun_command_gives_the_budget_of_every_mcts_bot_without_a_level(
    bot: str, seats: tuple[str, ...], budget: bool
) -> None:
    run = SimConfig(bot=bot, seats=seats, mcts_iterations=40).to_dict()
    cmd = rerun_command({"run": run}, "m.json")
    assert f"--bot {bot} " in cmd
    assert ("--mcts-iterations 40" in cmd) is budget
    assert (f"--seats {','.join(seats)}" in cmd) is bool(seats)
    assert bots_text(run) == ("/".join(seats) if seats else bot)


def test_a_shipped_map_is_named_by_its_name(small, small_run, tmp_path) -> None:
    files = write_report(balance_report(small, small_run), tmp_path, small, charts=False)
    assert "`python -m engine simulate example-small --games 12" in files["markdown"].read_text()


# -- plain verdicts ------------------------------------------------------------------------------


def _power(fair: float, true: float, n: int) -> float:
    """The normal-approximation power of the two-sided test at n games."""
    z = NormalDist().inv_cdf(0.975)
    se0, se1 = math.sqrt(fair * (1 - fair) / n), math.sqrt(true * (1 - true) / n)
    return NormalDist().cdf((abs(true - fair) - z * se0) / se1)


def test_games_needed_reaches_the_power_and_no_fewer() -> None:
    for fair, true in ((1 / 3, 0.40), (0.5, 0.55), (0.25, 0.1)):
        n = games_needed(fair, true)
        assert _power(fair, true, n) >= 0.8 > _power(fair, true, n - 2)
    assert games_needed(0.5, 0.5) == 1_000_000
    assert games_needed_two(0.4, 0.6) == pytest.approx(95, abs=2)  # textbook: 97 (Fleiss)
    assert about(402) == "about 400" and about(1_234) == "about 1,200"


def _wins_report(rate: float, games: int, players: int = 3, p_value: float = 0.2) -> dict:
    fair = 1 / players
    seats = [
        {"seat": s, "rate": fair, "ci": [0.2, 0.45], "games": games, "count": 0, "p_value": 1.0}
        for s in range(players)
    ]
    seats[2] = {**seats[2], "rate": rate, "p_value": p_value}
    return {
        "wins": {str(players): {"games": games, "ties": 0, "fair": fair, "seats": seats}},
        "start_choices": [],
        "rules": {"played": False},
        "length": {"all": {"n": 0}},
    }


def test_a_seat_verdict_says_what_was_seen_against_fair_and_how_many_games_would_tell() -> None:
    (v,) = plain_verdicts(_wins_report(0.40, 100, p_value=0.15))
    assert v["question"] == "seats"
    assert v["text"].startswith("3 players: seat 3 wins 40 % against a fair 33 %")
    assert "not significant at 100 games; about 400 games would tell." in v["text"]
    (v,) = plain_verdicts(_wins_report(0.45, 1000, p_value=0.0001))
    assert "significant at 1,000 games (p = 0.0003)" in v["text"]  # 3 seats looked at


def test_a_real_report_has_a_verdict_per_question(small) -> None:
    result = simulate(small, SimConfig(games=20, bot="random", seed=2, players=(2, 3)), workers=1)
    report = balance_report(small, result)
    found = plain_verdicts(report)
    questions = [v["question"] for v in found]
    assert questions.count("seats") == 2  # one per player count
    assert {"start squares", "length", "quality"} <= set(questions)
    md = to_markdown(report_blocks(report, {}))
    assert "## Verdicts" in md
    for v in found:
        assert f"- {v['text']}" in md


def test_the_rule_leader_figure_counts_who_led_the_rule_sets_points() -> None:
    games = [
        {"seat_points": [{"city": 10, "chip": 5}, {"city": 30, "chip": 1}], "winners": [1]},
        {"seat_points": [{"city": 10, "chip": 5}, {"city": 3}], "winners": [0]},
        {"seat_points": [{"chip": 2}, {"chip": 2}], "winners": [0]},  # tie: not counted
        {"seat_points": [{"road": 9}, {"field": 1}], "winners": [0]},  # no rule points
    ]
    fig = rule_leader_figure(games)
    assert (fig["count"], fig["games"], fig["rate"], fig["fair"]) == (1, 2, 0.5, 0.5)


def test_a_rule_set_report_says_whether_its_points_pick_the_winner() -> None:
    m = load_map(bundled_map("deutschland"))
    report = balance_report(m, simulate(m, SimConfig(games=4, bot="random", seed=1), workers=1))
    assert report["rule_leader"]["games"] >= 1
    assert any(v["question"] == "rules" for v in plain_verdicts(report))


# -- comparisons ---------------------------------------------------------------------------------


def test_map_differences_name_what_changed() -> None:
    a = load_map(bundled_map("example-small"))
    b = a.copy()
    del b.start_squares[(7, 5)]  # Southtown
    b.start_squares[(2, 2)] = b.start_squares.pop((3, 2))  # Northtown moved
    b.start_squares[(9, 6)] = StartSquare("Eastmoor")
    b.towns[(5, 1)] = Town("Winehill")
    b.land.discard((11, 8))
    b.setup.chip_count = 12
    lines = map_differences(a, b)
    assert "start square Northtown moved near Westford" in lines
    assert "start square Southtown removed" in lines
    assert "start square Eastmoor added" in lines
    assert "town Vineby renamed Winehill" in lines
    assert f"setup: chip_count {a.setup.chip_count} → 12" in lines
    assert any(x.startswith("1 square removed") for x in lines)
    assert map_differences(a, a) == []


def test_rule_set_numbers_that_differ_are_listed() -> None:
    a = load_map(bundled_map("italia"))
    b = a.copy()
    spec = b.rule_set.spec
    assert spec is not None
    import dataclasses

    more = dataclasses.replace(spec, held_chip_points=spec.held_chip_points + 2)
    b.rule_set = dataclasses.replace(b.rule_set, spec=more)
    assert (
        f"rule set: end.held_chip_points {spec.held_chip_points} → {spec.held_chip_points + 2}"
        in (map_differences(a, b))
    )


def _cmp_seats(p1: float, p2: float) -> dict:
    seat = {"a_rate": 0.6, "b_rate": 0.5, "p_value": p1}
    return {
        "seats": [
            {
                "players": 2,
                "fair": 0.5,
                "seats": [{**seat, "seat": 0}, {**seat, "seat": 1, "a_rate": 0.4, "p_value": p2}],
            }
        ],
        "start_spread": {"a": {"matters_p": 1.0}, "b": {"matters_p": 1.0}},
    }


def test_a_two_player_seat_change_is_said_once() -> None:
    found = verdicts(_cmp_seats(0.01, 0.01))
    assert len(found) == 1 and "seat 1" in found[0]["text"]


def test_a_comparison_names_both_files_draws_the_difference_map_and_repeats_nothing(
    small, tmp_path
) -> None:
    b_map = small.copy()
    del b_map.start_squares[(7, 5)]
    b_map.land -= {(0, 8), (1, 8)}
    config = SimConfig(games=16, bot="random", seed=1)
    a, b = simulate(small, config, workers=1), simulate(b_map, config, workers=1)
    files_given = ("maps/v1.json", "../v2 draft.json")
    cmp = compare_runs(small, a, b_map, b, files=files_given)
    diff, only = built_difference((small, b_map), a.games, b.games)
    assert {sq for sq, what in only.items() if what == "only in A"} == (
        small.placeable_squares() - b_map.placeable_squares()
    )
    files = write_comparison(cmp, a.games, b.games, tmp_path, (small, b_map))
    md = files["markdown"].read_text()
    title = md.splitlines()[0]
    assert "maps/v1.json (A)" in title and "../v2 draft.json (B)" in title
    assert "- start square Southtown removed" in md
    lines = [x for x in md.splitlines() if x.strip()]
    verdict_lines = [
        x.strip("*- ") for x in lines if x.strip("*- ") in {v["text"] for v in cmp["verdicts"]}
    ]
    assert len(verdict_lines) == len(set(verdict_lines)) == len(cmp["verdicts"])
    assert md.count(cmp["headline"]) == 1
    if "chart:difference" in files:
        assert "](difference.png)" in md
    sq = min(diff)
    share = lambda games: sum(1 for g in games if [sq[0], sq[1]] in [p[:2] for p in g["placed"]])  # noqa: E731
    assert diff[sq] == pytest.approx(share(b.games) / 16 - share(a.games) / 16, abs=1e-4)


def test_the_difference_map_is_drawn_with_sign_on_map_b(small) -> None:
    plt = pytest.importorskip("matplotlib.pyplot")
    from engine.analysis import compare

    b_map = small.copy()
    del b_map.start_squares[(7, 5)]
    config = SimConfig(games=8, bot="random", seed=4)
    a, b = simulate(small, config, workers=1), simulate(b_map, config, workers=1)
    fig = compare._chart_difference(plt, (small, b_map), a.games, b.games)  # noqa: SLF001
    try:
        from matplotlib.collections import PolyCollection

        (heat,) = [
            c
            for c in fig.axes[0].collections
            if isinstance(c, PolyCollection) and c.get_array() is not None
        ]
        low, high = heat.get_clim()
        assert low == -high and high >= 0.05  # centred on no change
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        assert "start square of A only" in legend
    finally:
        plt.close(fig)


# -- sweeps --------------------------------------------------------------------------------------


def test_sweeps_keep_seat_shares_apart_per_player_count_with_intervals(small) -> None:
    base = SimConfig(games=12, bot="random", seed=1, players=(2, 3))
    played = []

    def run(c: SimConfig):
        r = simulate(small, c, workers=1)
        played.append(r)
        return r

    rep = sweep(small, base, parse_sweep(["tile_count=30,40"]), run=run)
    for row, result in zip(rep["rows"], played, strict=True):
        assert sorted(row["seats"]) == ["2", "3"]
        for p, block in row["seats"].items():
            games = [g for g in result.games if g["players"] == int(p)]
            assert block["games"] == len(games) == 6
            assert len(block["seats"]) == int(p)
            for seat in block["seats"]:
                wins = sum(1 for g in games if seat["seat"] in g["winners"])
                assert seat["wins"] == wins
                lo, hi = seat["ci"]
                assert lo <= seat["rate"] <= hi
    from engine.analysis.sweep import sweep_blocks

    md = to_markdown(sweep_blocks(rep, {}))
    assert "2p: " in md and "3p: " in md


def test_the_comparisons_rerun_command_works_beside_the_page(small, tmp_path: Path) -> None:
    from engine.__main__ import main

    b_map = small.copy()
    del b_map.start_squares[(7, 5)]
    save_map(b_map, tmp_path / "v2.json")
    out = tmp_path / "cmp"
    common = ["--games", "2", "--bot", "random", "--workers", "1", "--quiet", "--no-charts"]
    args = ["simulate", "--compare", "example-small", str(tmp_path / "v2.json"), *common]
    assert main([*args, "--out", str(out)]) == 0
    md = (out / "comparison.md").read_text()
    line = next(x for x in md.splitlines() if x.startswith("Same figures again"))
    assert shlex.split(line.split("`")[1])[4:7] == ["--compare", "example-small", "../v2.json"]
    _run_beside(line, out)
    again = json.loads((out / "balance-report" / "comparison.json").read_text())
    first = json.loads((out / "comparison.json").read_text())
    assert again["b"]["file"] == "../v2.json"  # as this command named it
    again["b"]["file"] = first["b"]["file"]
    assert again == first
