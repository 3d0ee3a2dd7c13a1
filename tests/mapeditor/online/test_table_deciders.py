"""A rule that asks a player other than the one to move for a choice, at an online table: the
deciding seat is offered the decision (and may decline it), the others wait, a bot seat decides
by itself."""

from __future__ import annotations

import pytest

from engine.mapdef import MapDef
from engine.moves import Move, Pass
from mapeditor.online import view
from mapeditor.online.launch import new_table
from mapeditor.online.table import Table, TableError, TableOptions
from mapeditor.playtest.setup import DEFAULT_COLOURS, PlaytestSetup, Seat, default_setup


def _table(m: MapDef, kinds: tuple[str, ...]) -> Table:
    seats = [Seat(f"P{i}", DEFAULT_COLOURS[i], k) for i, k in enumerate(kinds)]
    setup = PlaytestSetup(seats=seats, seed=4, options=default_setup(m, seed=4).options)
    return new_table("gift", m, setup, TableOptions(takeover_after=None))


def _until_a_choice(table: Table) -> None:
    """Play placements with no meeple until a rule asks another player."""
    g = table.game
    for _ in range(60):
        if g.decider != g.to_move:
            return
        seat = g.decider
        move = next((a for a in g.legal_moves() if isinstance(a, Move) and a.meeple is None), None)
        table.act(seat, len(g.history), (move or Pass()).to_dict())
    raise AssertionError("no road tile in 60 actions")


def test_the_deciding_seat_is_offered_the_choice_and_the_others_wait(gift_map: MapDef) -> None:
    table = _table(gift_map, ("human", "human"))
    _until_a_choice(table)
    g = table.game
    mover, decider = g.to_move, g.decider
    state = view.board(table)
    assert (state["to_move"], state["decider"]) == (mover, decider)
    labels = [a["label"] for a in view.choices(table)["actions"]]
    assert labels == ["Decline", "Road gift"]
    assert table.bot_turn(0.0) is None  # a human decides
    before = g.state_summary()
    with pytest.raises(TableError, match=f"P{decider} is choosing now, not P{mover}"):
        table.act(mover, len(g.history), {"type": "pass"})
    assert g.state_summary() == before
    table.act(decider, len(g.history), {"type": "rule", "rule": "gift", "offer": 0, "option": 0})
    assert g.scores[decider] == 2 and g.decider == g.to_move
    assert f"P{decider}: Road gift" in table.log


def test_a_bot_seat_decides_by_itself(gift_map: MapDef) -> None:
    table = _table(gift_map, ("human", "greedy"))
    g = table.game
    while not (g.decider == 1 and g.to_move == 0):
        _until_a_choice(table)
        if g.decider != 1:
            table.act(g.decider, len(g.history), {"type": "pass"})
    due = table.bot_turn(0.0)
    assert due is not None and due.player == 1 and not due.stand_in
