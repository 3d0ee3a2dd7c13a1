"""Studies beside a report (engine.analysis.plans): which plan wins, the bot's seat effect, skill."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.analysis import report as report_module
from engine.analysis.balance import balance_report
from engine.analysis.plans import (
    head_to_head,
    seat_effect,
    skill_trace,
    style_figures,
    style_games,
    style_warnings,
)
from engine.analysis.report import style_bars, write_report
from engine.analysis.simulate import SimConfig, SimResult, simulate
from engine.cli import main
from engine.errors import EngineError
from engine.mapio import load_map
from engine.resources import bundled_map

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "schemas/report.schema.json").read_text()
)


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


def test_a_head_to_head_plays_each_deal_in_both_seats(small) -> None:
    configs: list[SimConfig] = []

    def run(config: SimConfig) -> SimResult:
        configs.append(config)
        return simulate(small, config, workers=1)

    got = head_to_head(run, SimConfig(seed=2, players=(3,)), "greedy:farmer", "greedy", 3)
    (config,) = configs
    assert (config.games, config.players, config.seats) == (6, (2,), ("greedy:farmer", "greedy"))
    games = run(config).games
    results = []
    for g in games:
        me = g["bots"].index("greedy:farmer")
        results.append(0.5 if len(g["winners"]) > 1 else float(me in g["winners"]))
    assert (got["games"], got["deals"]) == (6, 3)
    assert got["rate"] == round(sum(results) / 6, 4)
    assert got["ci"][0] <= got["rate"] <= got["ci"][1]


def _games(seat0_wins: list[bool]) -> list[dict[str, Any]]:
    return [
        {
            "index": i,
            "seed": i,
            "players": 2,
            "scores": [9, 1] if w else [1, 9],
            "winners": [0 if w else 1],
        }
        for i, w in enumerate(seat0_wins)
    ]


def test_the_seat_effect_of_a_bot_is_measured_against_the_random_bot_on_the_same_deals() -> None:
    def run(config: SimConfig) -> SimResult:
        wins = [True] * 40 if config.bot == "greedy" else [i % 2 == 0 for i in range(40)]
        return SimResult(config, "m", "none", games=_games(wins))

    rows = {r["bot"]: r for r in seat_effect(run, SimConfig(), ["greedy"], 40)}
    assert rows["random"]["rate"] == 0.5 and "vs_random" not in rows["random"]
    assert rows["greedy"]["rate"] == 1.0 and rows["greedy"]["vs_random"] == 0.5
    assert rows["greedy"]["p_value"] < 0.001  # 20 deals only greedy's first seat won


def test_style_games_counts_the_games_the_styles_study_plays() -> None:
    played: list[int] = []

    def run(config: SimConfig) -> SimResult:
        played.append(config.games)
        deal = [i // 2 if config.seats else i for i in range(config.games)]
        games = [
            {**g, "deal": deal[i], "bots": list(config.seats or ("x", "y"))}
            for i, g in enumerate(_games([i % 3 == 0 for i in range(config.games)]))
        ]
        return SimResult(config, "m", "none", games=games)

    style_figures(run, SimConfig(), 3)
    assert sum(played) == style_games(3)  # the dialog's progress bar counts on it
    played.clear()
    style_figures(run, SimConfig(), 2, styles=["farmer", "roads"])
    assert sum(played) == style_games(2, ["farmer", "roads"]) == 2 * 2 * 2 + 4 * 2


def test_a_style_that_wins_significantly_is_warned_about() -> None:
    def style(name: str, rate: float, p: float) -> dict[str, Any]:
        return {"bot": f"greedy:{name}", "rate": rate, "ci": [rate - 0.1, rate + 0.1], "p_value": p}

    figures = {
        "styles": [
            style("farmer", 0.72, 0.0001),
            style("cities", 0.58, 0.0001),  # significant, but too small an effect
            style("roads", 0.70, 0.02),  # large, but not significant over five styles
            style("chips", 0.5, 1.0),
            style("thrifty", 0.4, 0.3),
        ]
    }
    warned = style_warnings(figures)
    assert [w["code"] for w in warned] == ["style-wins"]
    assert warned[0]["message"].startswith("the farmer plan wins 72% of 2-player games")


def test_the_skill_trace_plays_each_level_against_the_one_below(small) -> None:
    seats: list[tuple[str, ...]] = []

    def run(config: SimConfig) -> SimResult:
        seats.append(config.seats)
        return simulate(small, config, workers=1)

    trace = skill_trace(run, SimConfig(seed=1), [2, 3], 1)
    assert seats == [("mcts@2", "mcts@1"), ("mcts@3", "mcts@2")]
    assert [r["level"] for r in trace["levels"]] == [2, 3]
    assert trace["mean_rate"] == round(
        (trace["levels"][0]["rate"] + trace["levels"][1]["rate"]) / 2, 4
    )
    with pytest.raises(EngineError, match=r"levels \[1\] are not in 2..10"):
        skill_trace(run, SimConfig(), [1], 1)


def test_the_command_line_adds_the_studies_to_the_report(tmp_path, capsys) -> None:
    out = tmp_path / "rep"
    args = ["simulate", "example-small", "--games", "2", "--styles", "1", "--workers", "1"]
    assert main([*args, "--quiet", "--no-charts", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(report)) == []
    assert [s["bot"] for s in report["styles"]["styles"]] == [
        "greedy:chips",
        "greedy:cities",
        "greedy:farmer",
        "greedy:roads",
        "greedy:thrifty",
    ]
    md = (out / "report.md").read_text()
    assert "## Which plan wins on this map" in md and "## Seat effect of the bot" in md
    capsys.readouterr()
    assert main(["simulate", "example-small", "--skill-trace", "1-3", "--quiet"]) == 2
    assert "levels are 2..10" in capsys.readouterr().err
    assert main(["simulate", "--compare", "a", "b", "--styles", "3", "--quiet"]) == 2
    assert "not with --compare" in capsys.readouterr().err


# -- the styles chart ------------------------------------------------------------------------------


def _styles(farmer_rate: float, farmer_p: float) -> dict[str, Any]:
    """Styles figures as :func:`style_figures` writes them: the farmer at ``farmer_rate``."""

    def row(name: str, rate: float, lo: float, hi: float, p: float) -> dict[str, Any]:
        return {
            "bot": f"greedy:{name}",
            "against": "greedy",
            "games": 40,
            "deals": 20,
            "rate": rate,
            "ci": [lo, hi],
            "margin": 1.0,
            "margin_ci": [0.0, 2.0],
            "p_value": p,
        }

    return {
        "deals": 20,
        "against": "greedy",
        "styles": [
            row("cities", 0.45, 0.3, 0.6, 0.5),
            row("farmer", farmer_rate, farmer_rate - 0.12, min(1.0, farmer_rate + 0.1), farmer_p),
            row("roads", 0.55, 0.4, 0.7, 0.6),
        ],
        "seat_effect": [
            {"bot": "random", "games": 20, "seat1_wins": 10, "rate": 0.5, "ci": [0.3, 0.7]}
        ],
    }


def test_the_styles_chart_marks_the_plans_the_warning_names() -> None:
    winning = _styles(0.8, 0.0001)
    bars = style_bars(winning)
    assert bars == [
        ("cities", 0.45, 0.3, 0.6, False),
        ("farmer", 0.8, pytest.approx(0.68), 0.9, True),
        ("roads", 0.55, 0.4, 0.7, False),
    ]
    # the mark and the warning are one decision
    assert (
        [b[0] for b in bars if b[4]]
        == [w["message"].split()[1] for w in style_warnings(winning)]
        == ["farmer"]
    )
    assert not any(b[4] for b in style_bars(_styles(0.8, 0.2)))  # not significant: no mark


def _bar_figure(figures: dict[str, Any]):
    plt = pytest.importorskip("matplotlib.pyplot")
    return plt, report_module._chart_styles(plt, {"styles": figures})  # noqa: SLF001


def test_the_styles_chart_draws_each_rate_its_interval_and_the_even_line() -> None:
    from matplotlib.colors import to_hex

    plt, fig = _bar_figure(_styles(0.8, 0.0001))
    try:
        (ax,) = fig.axes
        bars = list(ax.patches)
        assert [round(b.get_height(), 4) for b in bars] == [0.45, 0.8, 0.55]
        assert [to_hex(b.get_facecolor()) for b in bars] == ["#4c72b0", "#dd8452", "#4c72b0"]
        assert [t.get_text() for t in ax.get_xticklabels()] == ["cities", "farmer", "roads"]
        # each interval bar runs from the interval's low end to its high end
        spans = sorted(
            (round(float(seg[0][1]), 4), round(float(seg[1][1]), 4))
            for c in ax.collections
            for seg in c.get_segments()
        )
        assert spans == [(0.3, 0.6), (0.4, 0.7), (0.68, 0.9)]
        even = [ln for ln in ax.lines if list(ln.get_ydata()) == [0.5, 0.5]]
        assert len(even) == 1 and even[0].get_linestyle() == "--"
        (mark,) = ax.texts
        assert mark.get_text() == "wins" and mark.xy == (1, 0.9)  # above the farmer's interval
    finally:
        plt.close(fig)
    plt, fig = _bar_figure(_styles(0.6, 0.2))
    try:
        assert not fig.axes[0].texts
        assert {to_hex(b.get_facecolor()) for b in fig.axes[0].patches} == {"#4c72b0"}
    finally:
        plt.close(fig)


def test_the_report_shows_the_styles_chart_in_its_section(small, tmp_path) -> None:
    pytest.importorskip("matplotlib")
    report = balance_report(small, simulate(small, SimConfig(games=2, seed=1), workers=1))
    files = write_report(report, tmp_path / "plain", small)
    assert "chart:styles" not in files  # no study, no chart
    report["styles"] = _styles(0.8, 0.0001)
    files = write_report(report, tmp_path / "styles", small)
    assert files["chart:styles"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = files["markdown"].read_text()
    section = md[md.index("## Which plan wins") : md.index("## Seat effect of the bot")]
    assert "![Each style's win rate against the balanced bot](styles.png)" in section
