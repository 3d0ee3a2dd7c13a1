"""Paired games: deals shared by the games compared, and the statistics of pairs."""

from __future__ import annotations

import math
import random

import pytest

from engine.analysis.compare import compare_runs, runs_pair
from engine.analysis.paired import block_rate, mcnemar_p, mean_ci, paired_difference, welch_ci
from engine.analysis.simulate import SimConfig, simulate
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.fixture(scope="module")
def small():
    return load_map(bundled_map("example-small"))


def test_mean_ci_is_students_t() -> None:
    from scipy.stats import t

    xs = [3.0, 5.0, 4.0, 8.0, 6.0]
    mean, lo, hi = mean_ci(xs)
    half = t.ppf(0.975, 4) * (math.sqrt(3.7) / math.sqrt(5))
    assert (mean, lo, hi) == (5.2, round(5.2 - half, 4), round(5.2 + half, 4))
    assert math.isnan(mean_ci([1.0])[1])


def test_mcnemar_counts_only_the_pairs_that_disagree() -> None:
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(5, 5) == 1.0
    assert mcnemar_p(10, 0) == pytest.approx(2 / 2**10)


def test_pairing_narrows_the_interval_of_a_difference_the_deal_dominates() -> None:
    rng = random.Random(3)
    luck = [rng.gauss(0, 20) for _ in range(200)]  # the draw: shared by A and B
    a = [100 + x + rng.gauss(0, 2) for x in luck]
    b = [101 + x + rng.gauss(0, 2) for x in luck]
    d = paired_difference(a, b)
    lo, hi = d["ci"]
    ulo, uhi = d["unpaired_ci"]
    assert lo > 0  # the paired interval sees the point B gains
    assert ulo < 0 < uhi  # the unpaired one, on the same games, does not
    assert (hi - lo) * 5 < uhi - ulo
    assert d["p_value"] < 0.01
    assert welch_ci(a, b) == (ulo, uhi)


def test_block_rate_takes_its_interval_over_deals() -> None:
    split = block_rate([[1.0, 0.0]] * 20)  # every deal: one win in each seat
    assert split["rate"] == 0.5 and split["deals"] == 20 and split["games"] == 40
    assert 0.4 < split["ci"][0] < 0.5 < split["ci"][1] < 0.6  # never zero width
    swept = block_rate([[1.0, 1.0]] * 10 + [[0.0, 0.0]] * 10)  # the deal decides
    assert swept["rate"] == 0.5 and swept["ci"][0] < 0.3 and swept["ci"][1] > 0.7
    lost = block_rate([[0.0, 0.0]] * 20)
    assert lost["ci"][0] == 0.0 < lost["ci"][1] < 0.2


def test_paired_mixed_tables_play_each_deal_in_every_rotation() -> None:
    config = SimConfig(games=12, players=(2, 3), seats=("mcts", "random"))
    slots = [config.slot(i) for i in range(10)]
    assert slots == [
        (2, 0, 0),
        (2, 1, 0),
        (3, 0, 1),
        (3, 1, 1),
        (3, 2, 1),
        (2, 0, 2),
        (2, 1, 2),
        (3, 0, 3),
        (3, 1, 3),
        (3, 2, 3),
    ]
    assert [config.bots_of(i, p) for i, (p, _, _) in enumerate(slots[2:5], 2)] == [
        ["mcts", "random", "greedy"],
        ["greedy", "mcts", "random"],
        ["random", "greedy", "mcts"],
    ]
    unpaired = SimConfig(games=12, players=(2, 3), seats=("mcts", "random"), paired=False)
    assert [unpaired.slot(i) for i in range(4)] == [(2, 0, 0), (3, 1, 1), (2, 0, 2), (3, 0, 3)]
    # without a mixed table every game has its own deal, paired or not
    assert [SimConfig(players=(2,)).slot(i)[2] for i in range(4)] == [0, 1, 2, 3]


def test_a_paired_head_to_head_swaps_the_seats_on_one_deal(small) -> None:
    config = SimConfig(games=4, players=(2,), seats=("greedy", "random"), seed=5)
    games = simulate(small, config, workers=1).games
    assert games[0]["seed"] == games[1]["seed"] != games[2]["seed"] == games[3]["seed"]
    assert [g["deal"] for g in games] == [0, 0, 1, 1]
    assert games[0]["bots"] == ["greedy", "random"] and games[1]["bots"] == ["random", "greedy"]
    assert games[0]["start"] == games[1]["start"]  # the same start squares: the same deal


def test_comparisons_of_one_seed_are_paired(small) -> None:
    a = simulate(small, SimConfig(games=6, seed=4), workers=1)
    b = simulate(small, SimConfig(games=6, seed=4, start_squares_used=2), workers=1)
    other = simulate(small, SimConfig(games=6, seed=9), workers=1)
    assert runs_pair(a.games, b.games) and not runs_pair(a.games, other.games)
    cmp = compare_runs(small, a, small, b)
    assert cmp["paired"] is True
    turns = next(f for f in cmp["scores"] if f["figure"] == "turns")
    diffs = [y["turns"] - x["turns"] for x, y in zip(a.games, b.games, strict=True)]
    assert turns["diff"] == round(sum(diffs) / 6, 4)
    lo, hi = turns["ci"]
    assert lo <= turns["diff"] <= hi
    seat = cmp["seats"][0]["seats"][0]
    assert {"diff", "ci", "unpaired_ci"} <= set(seat)
    assert compare_runs(small, a, small, other)["paired"] is False


def test_sweep_points_are_compared_with_the_first_game_by_game(small) -> None:
    from engine.analysis.sweep import sweep, sweep_blocks

    def run(config: SimConfig):
        return simulate(small, config, workers=1)

    got = sweep(small, SimConfig(games=6, seed=2), {"start_squares": [2, 3]}, run=run)
    first, second = got["rows"]
    assert "vs_first" not in first
    a = run(SimConfig(games=6, seed=2, start_squares_used=2)).games
    b = run(SimConfig(games=6, seed=2, start_squares_used=3)).games
    diff = sum(max(y["scores"]) - max(x["scores"]) for x, y in zip(a, b, strict=True)) / 6
    assert second["vs_first"]["winning_score"]["diff"] == round(diff, 4)
    assert "## Against the first grid point (paired games)" in [
        f"## {blk[1]}" for blk in sweep_blocks(got, {}) if blk[0] == "h2"
    ]
    players = sweep(small, SimConfig(games=4, seed=2), {"players": [2, 3]}, run=run)
    assert players["rows"][1]["vs_first"] is None  # other player counts: no pairs
