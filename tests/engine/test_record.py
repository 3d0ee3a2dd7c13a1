"""Game records: round-trip, mid-game save and continue, replay errors, the replay CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import RecordError
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.moves import Move
from engine.record import (
    GameRecord,
    dumps_record,
    load_record,
    loads_record,
    record_of,
    save_record,
)
from engine.replaying import replay
from engine.resources import bundled_map


def _random_game(seed: int, *, upto: int | None = None, on_map: bool = False) -> Game:
    if on_map:
        g = Game(
            load_map(bundled_map()),
            seed=seed,
            options=GameOptions(rule_set="none"),
            map_path=str(bundled_map()),
        )
    else:
        g = Game(None, seed=seed)
    rng = random.Random(seed)
    while not g.is_over() and (upto is None or len(g.history) < upto):
        g.play(rng.choice(g.legal_moves().list()))
    return g


@pytest.mark.parametrize("on_map", [False, True])
def test_record_round_trips_and_replays_to_the_same_state(on_map: bool, tmp_path: Path) -> None:
    g = _random_game(5, on_map=on_map)
    path = tmp_path / "game.json"
    save_record(g.record(), path)
    rec = load_record(path)
    assert dumps_record(rec) == dumps_record(g.record())
    assert replay(rec).state_summary() == g.state_summary()


def test_embedded_map_record_replays_without_the_map_file(tmp_path: Path) -> None:
    g = _random_game(2, on_map=True)
    rec = record_of(g, embed_map=True)
    assert rec.map_data is not None and rec.map_path is None
    text = dumps_record(rec)
    assert replay(loads_record(text)).state_summary() == g.state_summary()


def test_saving_mid_game_and_loading_continues_exactly(tmp_path: Path) -> None:
    full = _random_game(11, on_map=True)
    half = _random_game(11, upto=30, on_map=True)
    path = tmp_path / "half.json"
    save_record(half.record(), path)
    resumed = replay(load_record(path))
    assert resumed.state_summary() == half.state_summary()
    # continue with the same actions as the full game: same end
    for action in full.history[30:]:
        resumed.play(action)
    assert resumed.state_summary() == full.state_summary()


def test_forced_draw_order_and_end_are_top_level_fields() -> None:
    g = Game(None, options=GameOptions(draw_order=("U", "V", "E"), end_after_turns=2))
    g.play(next(iter(g.legal_moves())))
    g.play(next(iter(g.legal_moves())))
    assert g.is_over()
    d = g.record().to_dict()
    assert d["draw_order"] == ["U", "V", "E"] and d["end_after_turns"] == 2
    assert "draw_order" not in d["options"]
    assert replay(GameRecord.from_dict(d)).state_summary() == g.state_summary()


def test_illegal_action_names_the_turn_and_reason() -> None:
    g = _random_game(1, upto=6)
    d = g.record().to_dict()
    d["actions"][4] = {"type": "place", "x": 50, "y": 50, "rotation": 0, "meeple": None}
    with pytest.raises(
        RecordError, match=r"action 5: turn 5 \(Red\): square \(50, 50\) is not next"
    ):
        replay(GameRecord.from_dict(d))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="nope"), "not a game record"),
        (lambda d: d.update(format_version=9), "format_version"),
        (lambda d: d.update(players=["A"]), "players"),
        (lambda d: d["actions"].append({"type": "place", "x": 1}), "actions/"),
        (lambda d: d["options"].update(bogus=1), "options"),
    ],
)
def test_bad_records_raise_record_error_naming_the_field(mutate, message: str) -> None:
    d = Game(None).record().to_dict()
    mutate(d)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(d, source="x.json")


def test_unknown_action_type_is_a_record_error() -> None:
    d = Game(None).record().to_dict()
    d["actions"] = [{"type": "teleport"}]
    with pytest.raises(RecordError, match="unknown action type 'teleport'"):
        replay(GameRecord.from_dict(d))


def test_replay_cli_prints_scores_with_breakdown(tmp_path: Path, capsys) -> None:
    g = _random_game(3, on_map=True)
    path = tmp_path / "r.json"
    save_record(g.record(), path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for i, name in enumerate(g.players):
        assert f"{name}: {g.scores[i]} (city {g.breakdown[i]['city']}" in out
    assert main(["replay", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["score"] for p in data["players"]] == g.scores
    assert len(data["events"]) == len(g.events)
    assert data["events"][0]["text"] == g.events[0].text
    assert sum(e["points"] * len(e["players"]) for e in data["events"]) == sum(g.scores)


def test_replay_cli_illegal_action_exit_1_and_unreadable_exit_2(tmp_path: Path, capsys) -> None:
    g = _random_game(4, upto=8)
    d = g.record().to_dict()
    d["actions"][6] = Move((40, 40), 0).to_dict()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d))
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "action 7: turn 7" in err and "(40, 40)" in err
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{nope")
    assert main(["replay", str(garbage)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "not valid JSON" in err and "\n" not in err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
