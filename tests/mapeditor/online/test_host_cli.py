"""``python -m mapeditor host``: its refusals (one line, status 2) and what it sets up."""

from __future__ import annotations

import pytest

from mapeditor import host_cli as cli
from mapeditor.host_cli import build_host
from mapeditor.online import store


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deutschland", "--port", "0"], "error: --port: 0 is not a port number"),
        (["deutschland", "--takeover", "soon"], "'soon' is not a number of seconds or 'off'"),
        (["deutschland", "--clock", "-5"], "'-5' is not in 0..2592000 seconds"),
        (["deutschland", "--players", "human"], "--players: 1 players given; a game has 2 to 6"),
        (["atlantis"], "atlantis"),
    ],
)
def test_bad_command_lines_print_one_line(argv, message, tmp_path, capsys):
    assert cli.main([*argv, "--state", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_no_map_and_no_saved_game_is_a_usage_error(tmp_path, capsys):
    assert cli.main(["--state", str(tmp_path / "empty")]) == 2
    assert "no game to host: name a map" in capsys.readouterr().err


def test_a_map_gets_a_table_and_a_second_start_resumes_it(tmp_path):
    args = cli.build_parser().parse_args(
        ["deutschland", "--players", "Ann=human,mcts:4", "--seed", "4", "--takeover", "off"]
    )
    host, notes = build_host(args, tmp_path)
    (table,) = host.tables.values()
    assert notes == []
    assert [s.kind for s in table.seats] == ["human", "mcts"]
    assert table.seats[1].strength == 4
    assert table.options.takeover_after is None
    assert [r.name for r in table.game.rules] == ["deutschland"]  # the map's Map-Chips rules
    again, notes = build_host(args, tmp_path)
    assert notes == ["resumed deutschland at action 0"]
    (resumed,) = again.tables.values()
    assert resumed.seats[0].token == table.seats[0].token
    for h in (host, again):
        assert h.bot_pool is not None
        h.bot_pool.shutdown()
    assert store.GAME_ID.match(table.game_id)


def test_the_editor_hosts_its_map_and_shows_the_links(qtbot):
    from engine import load_map
    from engine.resources import bundled_map
    from mapeditor.online.host_dialog import HostDialog
    from mapeditor.online.screens import free_port

    dialog = HostDialog(load_map(bundled_map("example-small")))
    qtbot.addWidget(dialog)
    dialog.seats.setText("Ann=human,Bob=human,greedy")
    dialog.port.setValue(free_port())
    dialog.start()
    qtbot.waitUntil(lambda: "Listening on" in dialog.output.toPlainText(), timeout=60_000)
    links = dialog.links()
    assert [line.split(":")[0] for line in links] == ["Ann", "Bob", "spectators"]
    assert all(f":{dialog.port.value()}/play/" in line for line in links)
    proc = dialog.process
    assert proc is not None
    dialog.close()
    assert dialog.process is None or proc.state() == proc.ProcessState.NotRunning


def test_a_saved_game_continues_online(tmp_path, capsys):
    from engine import Game, load_map, save_record
    from engine.bots import make_bot
    from engine.resources import bundled_map

    game = Game(load_map(bundled_map("deutschland")), players=["Ann", "Bob"], seed=6)
    bot = make_bot("greedy", seed=1)
    for _ in range(6):
        game.play(bot.choose(game))
    save_record(game.record(), tmp_path / "saved.json")
    argv = ["--load", str(tmp_path / "saved.json"), "--players", "human,greedy"]
    host, _notes = build_host(cli.build_parser().parse_args(argv), tmp_path / "state")
    host.bot_pool.shutdown()
    (table,) = host.tables.values()
    assert table.game.state_summary() == game.state_summary()
    assert [(s.name, s.kind) for s in table.seats] == [("Ann", "human"), ("Bob", "greedy")]
    places = sum(1 for a in game.history if a.to_dict()["type"] == "place")
    assert len([line for line in table.log if " placed " in line]) == places  # the log rebuilt
    bad = ["--load", str(tmp_path / "saved.json"), "--players", "human,greedy,greedy"]
    bad += ["--state", str(tmp_path / "state2")]
    assert cli.main(bad) == 2
    assert "--players: 3 seats for the 2 players of" in capsys.readouterr().err
