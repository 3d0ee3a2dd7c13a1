"""The host through aiohttp's test client: joining, refereeing, saving, resuming, bots."""

from __future__ import annotations

import asyncio
import json

import pytest
from _online_helpers import Browser, first_choice, make_table, serving, settings

from engine import load_record, replay
from mapeditor.online import store
from mapeditor.online.server import Host
from mapeditor.online.table import TableOptions


def run(coro):  # noqa: ANN001, ANN201
    return asyncio.run(coro)


def test_a_seat_token_joins_that_seat_and_a_wrong_token_joins_nothing(tmp_path):
    table = make_table()

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            stranger = await Browser.open(client, "deutschland")
            await stranger.send({"type": "join", "token": "x" * 24})
            assert await stranger.error() == "this link opens no seat of this game"
            await stranger.send({"type": "sync"})
            assert await stranger.error() == "join first (with the token of your link)"
            bob = await Browser.open(client, "deutschland", table.seats[1].token)
            assert bob.state["you"] == 1 and bob.state["moves"] is None  # P0 is to move
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            assert ann.state["you"] == 0 and ann.state["moves"]["placements"]
            watcher = await Browser.open(client, "deutschland", table.spectator_token)
            assert watcher.state["you"] == -1 and watcher.state["moves"] is None
            await watcher.play(first_choice(ann.state))
            assert await watcher.error() == "spectators only watch"
            assert table.game.history == []

    run(go())


def test_the_bot_seat_has_no_token_that_joins(tmp_path):
    table = make_table()
    assert table.seat_of(table.seats[2].token) is None
    assert table.seat_of(table.seats[0].token) == 0
    assert len({s.token for s in table.seats} | {table.spectator_token}) == 4


def test_a_move_is_refereed_saved_and_sent_to_everyone(tmp_path):
    table = make_table()

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann, bob = await Browser.seats(client, table, 0, 1)
            # an illegal square: the engine's reason comes back, nothing changes
            await ann.play({"type": "place", "x": 0, "y": 0, "rotation": 0, "meeple": None})
            assert "square (0, 0)" in await ann.error()
            assert table.game.history == []
            move = first_choice(ann.state)
            await ann.play(move)
            seen = await bob.until(lambda m: m["type"] == "state" and m["actions"] >= 1)
            assert seen["tiles"][-1][:2] == [move["x"], move["y"]]
            assert any("P0 placed" in line for line in seen["log"])

    run(go())
    saved = load_record(tmp_path / "deutschland" / "record.json")
    assert saved.actions[0]["x"] == table.game.history[0].square[0]
    assert saved.result["seats"] == ["human", "human", "greedy"]  # for simulate --humans
    assert replay(saved).state_summary() == table.game.state_summary()


def test_the_record_reply_rebuilds_the_game_and_its_later_actions(tmp_path):
    """A client that keeps its own copy of the game (the Studio's window) asks for the actions
    it lacks; from 0 the reply carries the record's head with the map embedded."""
    from engine.record import GameRecord

    table = make_table(("human", "greedy"))

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            [ann] = await Browser.seats(client, table, 0)
            await ann.play(first_choice(ann.state))
            await ann.my_turn()  # the bot answered
            n = len(table.game.history)
            await ann.send({"type": "record", "since": 0})
            head = await ann.until(lambda m: m["type"] == "record")
            record = GameRecord.from_dict({**head["record"], "actions": head["actions"]})
            assert record.map_data is not None and record.map_path is None
            assert replay(record).state_summary() == table.game.state_summary()
            await ann.send({"type": "record", "since": 1})
            tail = await ann.until(lambda m: m["type"] == "record")
            assert "record" not in tail and tail["since"] == 1
            assert tail["actions"] == head["actions"][1:] and len(head["actions"]) == n
            await ann.send({"type": "record", "since": 20000})  # past the end: nothing more
            past = await ann.until(lambda m: m["type"] == "record")
            assert (past["since"], past["actions"]) == (n, [])

    run(go())


def test_out_of_turn_and_replayed_messages_change_nothing(tmp_path):
    table = make_table()

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann, bob = await Browser.seats(client, table, 0, 1)
            move = first_choice(ann.state)
            await bob.play(move)
            assert await bob.error() == "it is P0's turn, not P1's"
            old = dict(ann.state)
            await ann.play(move)
            await ann.until(lambda m: m["type"] == "state" and m["actions"] == 1)
            before = table.game.state_summary()
            # the same message again (a double click, a replay): it answers an older position
            await ann.send({"type": "play", "seen": old["actions"], "action": move})
            assert (await ann.error()).startswith("that answers an older position")
            assert table.game.state_summary() == before

    run(go())


def test_chat_lines_reach_everyone_and_are_kept(tmp_path):
    table = make_table()

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            watcher = await Browser.open(client, "deutschland", table.spectator_token)
            await ann.send({"type": "chat", "text": "  hello   there "})
            got = await watcher.until(lambda m: m["type"] == "state" and m["chat"])
            assert got["chat"][-1]["from"] == "P0" and got["chat"][-1]["text"] == "hello there"
            await watcher.send({"type": "chat", "text": "boo"})
            assert await watcher.error() == "spectators only watch"
            assert len(table.chat) == 1

    run(go())
    data = json.loads((tmp_path / "deutschland" / "table.json").read_text())
    assert data["chat"][-1]["text"] == "hello there"


def test_a_restarted_host_resumes_the_game_with_its_seats(tmp_path):
    table = make_table()

    async def first_host():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            await ann.play(first_choice(ann.state))
            await ann.until(lambda m: m["type"] == "state" and m["actions"] >= 1)

    run(first_host())
    tables, problems = store.load_tables(tmp_path)
    assert problems == []
    (again,) = tables
    assert again.game.state_summary() == table.game.state_summary()
    assert [s.token for s in again.seats] == [s.token for s in table.seats]
    assert again.spectator_token == table.spectator_token
    assert list(again.log) == list(table.log)
    assert (tmp_path / "deutschland" / "table.json").stat().st_mode & 0o077 == 0


def test_a_broken_table_file_is_named_and_others_still_resume(tmp_path):
    good = make_table(game_id="deutschland")
    store.save_table(good, tmp_path)
    bad = make_table(game_id="broken")
    store.save_table(bad, tmp_path)
    (tmp_path / "broken" / "table.json").write_text('{"format": "carcassonne-online-table"}')
    tables, problems = store.load_tables(tmp_path)
    assert [t.game_id for t in tables] == ["deutschland"]
    assert problems == [f"{tmp_path / 'broken' / 'table.json'}: game_id: missing or not a str"]


def test_the_bot_seat_plays_its_turns(tmp_path):
    table = make_table(("human", "greedy"))

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            for _ in range(3):
                await ann.play(first_choice(await ann.my_turn()))
            await ann.my_turn()

    run(go())
    players = [table.game.players.index(n) for n in ("P0", "P1")]
    assert players == [0, 1]
    assert table.game.turn >= 6  # three turns each: the bot answered every one


def test_a_bot_stands_in_for_an_absent_player_and_hands_the_seat_back(tmp_path):
    table = make_table(("human", "human"), options=TableOptions(takeover_after=0.2))

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann, bob = await Browser.seats(client, table, 0, 1)
            await bob.close()
            # Ann plays; Bob is away: after the takeover delay a bot plays Bob's turns
            for _ in range(2):
                await ann.play(first_choice(await ann.my_turn()))
            stand_in = await ann.until(
                lambda m: m["type"] == "state" and any("bot standing in" in x for x in m["log"])
            )
            assert stand_in["players"][1]["here"] is False
            # Bob comes back: his seat is his again, no bot plays it
            bob = await Browser.open(client, "deutschland", table.seats[1].token)
            await ann.play(first_choice(await ann.my_turn()))
            mine = await bob.my_turn()
            assert mine["to_move"] == 1 and mine["players"][1]["stand_in"] is False
            await asyncio.sleep(0.5)  # no bot takes the turn from a player who is here
            assert table.game.to_move == 1

    run(go())


def test_the_move_clock_hands_a_slow_turn_to_a_bot(tmp_path):
    table = make_table(("human", "human"), options=TableOptions(None, move_clock=0.3))

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            assert ann.state["players"][0]["clock"] in (0, 1)
            await ann.until(lambda m: m["type"] == "state" and m["actions"] >= 1)

    run(go())
    assert "(a bot standing in)" in next(x for x in table.log if x.startswith("P0 placed"))


def test_the_page_and_art_are_served_and_nothing_else(tmp_path):
    table = make_table()

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            page = await client.get("/play/deutschland")
            assert page.status == 200
            assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
            assert table.seats[0].token not in await page.text()
            tile = await client.get("/g/deutschland/tiles/D.png")
            assert tile.status == 200 and (await tile.read()).startswith(b"\x89PNG")
            board = await client.get("/g/deutschland/map.png")
            assert board.status == 200
            icons = await client.get("/static/icons.svg")
            assert icons.content_type == "image/svg+xml"
            assert '<symbol id="icon-fish"' in await icons.text()
            for path in (
                "/play/nowhere",
                "/static/server.py",
                "/static/..%2f..%2fengine%2fgame.py",
                "/g/deutschland/tiles/..%2fmap.png",
                "/g/deutschland/tiles/ZZ.png",
                "/ws/nowhere",
            ):
                assert (await client.get(path)).status == 404, path

    run(go())


def test_the_state_carries_the_designers_marks_and_kinds_within_their_schema():
    import jsonschema

    from engine.resources import schema_path
    from mapeditor.online import view

    table = make_table(map_name="nordics", game_id="nordics")
    state = view.board(table)
    schema = json.loads(schema_path("online-designer").read_text(encoding="utf-8"))
    jsonschema.validate(state, schema)
    m = table.game.map
    assert {(x, y): mark for x, y, mark in state["marks"]} == {
        sq: mk.mark for sq, mk in m.marks.items()
    }
    assert state["mark_kinds"]["highlight"] == {
        "name": "Highlight",
        "colour": "#2e8b57",
        "icon": "star",
    }
    assert state["resource_kinds"] == {}  # Nordics' chips are no designer's resources
    bad = dict(state, mark_kinds={"highlight": {"name": "x", "colour": "red", "icon": "star"}})
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
