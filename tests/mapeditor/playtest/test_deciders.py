"""A rule that asks a player other than the one to move for a choice, in the playtest: a bot
seat decides by itself inside the human's turn, a human seat is asked inside a bot's turn."""

from __future__ import annotations

import pytest
from _playtest_helpers import small_setup

from engine.moves import Move, Pass
from engine.rules.data.interpret import RuleAction
from mapeditor.playtest.session import PlaytestSession


@pytest.fixture
def session(qtbot, gift_map):
    s = PlaytestSession(gift_map, small_setup("greedy", rule_set="gift"), pace_ms=0)
    s.begin()
    yield s
    s.close()


def _settled(qtbot, s: PlaytestSession) -> None:
    qtbot.waitUntil(
        lambda: s.game.is_over() or (s.human_to_move() and not s.worker.busy), timeout=30_000
    )


def test_the_deciding_seat_acts_whether_bot_or_human(qtbot, session) -> None:
    g = session.game
    for _ in range(10):
        _settled(qtbot, session)
        if g.is_over():
            break
        if g.decider != g.to_move:  # a bot's road: the human on its left is asked
            assert (g.decider, g.to_move) == (0, 1)
            session.play(RuleAction("gift", 0, 0))
            continue
        moves = [a for a in g.legal_moves() if isinstance(a, Move) and a.meeple is None]
        session.play(moves[0] if moves else Pass())
    _settled(qtbot, session)
    pairs = list(zip(session.actors, session.actors[1:], strict=False))
    # (player, turn) of consecutive actions: the other seat acting inside the same turn
    assert any(a == (0, t) and b == (1, t) for a, b in pairs for t in [a[1]])  # bot decided
    assert any(a == (1, t) and b == (0, t) for a, b in pairs for t in [a[1]])  # human asked
