"""Message fuzzing of the host: malformed, oversized, out-of-turn and replayed messages get one
error reply each and change nothing; the host keeps serving and its record still replays.

Mutants come from tests/fuzz/fuzzlib.py (value and text mutations) applied to valid messages.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path

from _online_helpers import Browser, first_choice, make_table, serving, settings
from aiohttp import WSMsgType

from engine import load_record, replay
from mapeditor.online.protocol import MAX_MESSAGE_BYTES
from mapeditor.online.server import MAX_FRAME_BYTES, Host

sys.path.insert(0, str(Path(__file__).parents[2] / "fuzz"))
from fuzzlib import mutate_text, mutate_value  # noqa: E402

MUTANTS = 400


def _corpus(table, state) -> list[dict]:  # noqa: ANN001
    move = first_choice(state)
    return [
        {"type": "join", "token": table.seats[0].token},
        {"type": "play", "seen": state["actions"], "action": move},
        {"type": "play", "seen": state["actions"], "action": {"type": "pass"}},
        {"type": "chat", "text": "hello"},
        {"type": "sync"},
        {"type": "record", "since": 0},
    ]


def _mutant(corpus: list[dict], rng: random.Random) -> str:
    data = json.loads(json.dumps(rng.choice(corpus)))
    for _ in range(rng.randint(1, 3)):
        data = mutate_value(data, rng)
    text = json.dumps(data)
    return mutate_text(text, rng) if rng.random() < 0.3 else text


def test_mutated_messages_get_one_answer_and_change_nothing_they_should_not(tmp_path):
    table = make_table(("human", "human"))
    host = Host(settings(tmp_path, rate=10_000, burst=10_000), [table])
    rng = random.Random(28)
    counts = {"error": 0, "accepted": 0, "closed": 0}

    async def go():  # noqa: C901
        async with serving(host) as client:
            ann, bob = await Browser.seats(client, table, 0, 1)
            for i in range(MUTANTS):
                sender = ann if i % 2 == 0 else bob
                state = (
                    (await sender.until(lambda m: m["type"] == "state", 5))
                    if i == 0
                    else sender.state
                )
                corpus = _corpus(table, ann.state if ann.state["moves"] else bob.state)
                before = table.game.state_summary()
                actions = len(table.game.history)
                chat = len(table.chat)
                version = table.version
                text = _mutant(corpus, rng)
                await sender.send(text)
                if len(text.encode()) > MAX_FRAME_BYTES:
                    # past aiohttp's frame limit: the connection is closed, the game untouched
                    closed = await sender.ws.receive(timeout=5)
                    assert closed.type == WSMsgType.CLOSE and closed.data == 1009
                    assert table.game.state_summary() == before
                    counts["closed"] += 1
                    seat = 0 if sender is ann else 1
                    again = await Browser.open(client, "deutschland", table.seats[seat].token)
                    if seat == 0:
                        ann = again
                    else:
                        bob = again
                    continue
                reply = await sender.receive(5)
                if reply["type"] == "error":
                    counts["error"] += 1
                    assert table.game.state_summary() == before, reply
                    assert len(table.chat) == chat
                else:
                    counts["accepted"] += 1
                    assert reply["type"] in ("state", "welcome", "record")
                    if reply["type"] == "record":  # a read: the game is unchanged
                        assert table.game.state_summary() == before
                    if len(table.game.history) != actions:
                        # a mutant that is still a legal action of the player to move
                        assert len(table.game.history) == actions + 1
                # the other connection hears of every change: drain it
                other = bob if sender is ann else ann
                while table.version != version:
                    try:
                        await other.receive(0.05)
                    except TimeoutError:
                        break
                assert state is not None
            assert not ann.ws.closed and not bob.ws.closed
            await ann.send({"type": "sync"})
            assert (await ann.until(lambda m: m["type"] == "state"))["actions"] == len(
                table.game.history
            )

    asyncio.run(go())
    assert counts["error"] > MUTANTS // 2  # most mutants are refused...
    assert counts["accepted"] > 0  # ...and some still are good messages
    assert replay(load_record(tmp_path / "deutschland" / "record.json")).state_summary() == (
        table.game.state_summary()
    )


def test_oversized_messages(tmp_path):
    table = make_table(("human", "human"))

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            before = table.game.state_summary()
            big = json.dumps({"type": "chat", "text": "x" * MAX_MESSAGE_BYTES})
            await ann.send(big)
            assert (await ann.error()).startswith("message too large")
            await ann.send(json.dumps({"type": "chat", "text": "x" * 301}))
            assert await ann.error() == f"text: '{'x' * 26}[...]{'x' * 26}' is too long"
            # past aiohttp's frame limit the connection is closed; the game is untouched
            await ann.send("x" * (MAX_FRAME_BYTES + 1))
            msg = await ann.ws.receive(timeout=5)
            assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.ERROR)
            assert table.game.state_summary() == before and not table.chat
            again = await Browser.open(client, "deutschland", table.seats[0].token)
            assert again.state["moves"] is not None

    asyncio.run(go())


def test_specific_malformed_messages_are_named(tmp_path):
    table = make_table(("human", "human"))
    cases = {
        "not json": "not JSON: Expecting value: line 1 column 1 (char 0)",
        "[1, 2]": "(message): [1, 2] is not of type 'object'",
        '{"type": "fly"}': "type: 'fly' is not one of ['join', 'play', 'chat', 'sync', 'record']",
        '{"type": "play", "seen": 0.0, "action": {"type": "pass"}}': "seen: 0.0 is not of type 'integer'",
        '{"type": "play", "seen": 0, "action": {"type": "pass"}, "file": "/etc/passwd"}': (
            "(message): Additional properties are not allowed ('file' was unexpected)"
        ),
        '{"type": "play", "seen": 0, "action": {"type": "pass", "x": {"y": 1}}}': (
            "action/x: {'y': 1} is not valid under any of the given schemas"
        ),
        '{"type": "play", "seen": 0, "action": {"type": "fly"}}': "unknown action type 'fly'",
        '{"type": "sync", "n": NaN}': "not JSON: NaN is not JSON",
        '{"type": "join", "token": "short"}': "token: 'short' does not match '^[A-Za-z0-9_-]{16,64}$'",
        '{"type": "record"}': "(message): 'since' is a required property",
        '{"type": "record", "since": -1}': "since: -1 is less than the minimum of 0",
        '{"type": "record", "since": 0, "path": "x"}': (
            "(message): Additional properties are not allowed ('path' was unexpected)"
        ),
    }

    async def go():
        async with serving(Host(settings(tmp_path), [table])) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            before = table.game.state_summary()
            for text, expected in cases.items():
                await ann.send(text)
                assert await ann.error() == expected, text
            assert table.game.state_summary() == before

    asyncio.run(go())


def test_a_flooding_client_is_throttled_then_disconnected(tmp_path):
    table = make_table(("human", "human"))

    async def go():
        host = Host(settings(tmp_path, rate=5.0, burst=5.0, kick_after=40), [table])
        async with serving(host) as client:
            ann = await Browser.open(client, "deutschland", table.seats[0].token)
            for _ in range(100):
                await ann.send({"type": "sync"})
            kinds = []
            while True:
                msg = await ann.ws.receive(timeout=5)
                if msg.type != WSMsgType.TEXT:
                    break
                kinds.append(json.loads(msg.data)["type"])
            assert kinds.count("state") < 20  # the burst and a little refill
            assert "error" in kinds
            assert ann.ws.closed
            # others are not affected
            bob = await Browser.open(client, "deutschland", table.seats[1].token)
            assert bob.state["you"] == 1

    asyncio.run(go())
