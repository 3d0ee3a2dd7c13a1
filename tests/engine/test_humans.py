"""``simulate --humans``: people's game records measured beside the bots' games."""

from __future__ import annotations

import json

import pytest

from engine import Game, GameOptions, load_map, save_record
from engine.analysis import humans
from engine.analysis.simulate import SimConfig, simulate
from engine.bots import make_bot, play_game
from engine.cli import main as engine_main
from engine.errors import EngineError
from engine.resources import bundled_map


def _human_records(folder, count, *, seats=("human", "human"), finish=True):  # noqa: ANN001, ANN202
    """Records tagged as people's games (random bots stand in for the people here: they play
    far worse than greedy bots, so the figures must differ)."""
    m = load_map(bundled_map("example-small"))
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        game = Game(m, players=2, seed=100 + i, options=GameOptions(rule_set="none"))
        if finish:
            play_game(game, [make_bot("random", seed=i), make_bot("random", seed=i + 50)])
        else:
            game.play(game.legal_moves().list()[0])
        rec = game.record()
        rec.result = {**(rec.result or {}), "seats": list(seats)}
        (folder / f"g{i}").mkdir()
        save_record(rec, folder / f"g{i}" / "record.json")


def test_finished_human_games_are_replayed_and_measured(tmp_path):
    _human_records(tmp_path / "people", 12)
    _human_records(tmp_path / "bots-only", 2, seats=("greedy", "random"))
    _human_records(tmp_path / "unfinished", 1, finish=False)
    m = load_map(bundled_map("example-small"))
    games, notes = humans.human_games(m, tmp_path)
    assert len(games) == 12  # the bot-only records are not people's games
    assert [n.split(": ", 1)[1] for n in notes] == ["left out: not finished (turn 1)"]
    config = SimConfig(games=24, players=(2,), bot="greedy", rules=False, seed=1)
    result = simulate(m, config, workers=1)
    cmp = humans.compare(m, result, games)
    (row,) = cmp["rows"]
    assert row["humans"]["games"] == 12 and row["bots"]["games"] == 24
    assert row["humans"]["mean_score"] < row["bots"]["mean_score"]
    assert any("people score" in d for d in cmp["differences"])


def test_the_command_writes_humans_md_beside_the_report(tmp_path, capsys):
    _human_records(tmp_path / "people", 8)
    out = tmp_path / "rep"
    argv = ["simulate", "example-small", "--games", "16", "--workers", "1", "--rules", "off"]
    argv += ["--humans", str(tmp_path / "people"), "--out", str(out), "--quiet", "--no-charts"]
    assert engine_main(argv) == 0
    printed = capsys.readouterr().out
    assert "people beside bots: 8 human games" in printed
    text = (out / "humans.md").read_text()
    assert "| 2 | humans | 8 |" in text and "| 2 | bots | 16 |" in text
    assert json.loads((out / "humans.json").read_text())["human_games"] == 8


def test_a_missing_folder_is_one_error_line(tmp_path):
    m = load_map(bundled_map("example-small"))
    with pytest.raises(EngineError, match="is not a folder"):
        humans.human_games(m, tmp_path / "nowhere")
