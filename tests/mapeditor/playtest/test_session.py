"""The playtest session without any window: play, bots, undo, save and load."""

from __future__ import annotations

import pytest
from _playtest_helpers import small_setup
from PySide6.QtWidgets import QApplication

from engine.mapio import load_map
from engine.moves import Move
from engine.resources import bundled_map
from mapeditor.playtest.session import LogEntry, PlaytestSession


@pytest.fixture
def session(qtbot):
    s = PlaytestSession(load_map(bundled_map("example-small")), small_setup(), pace_ms=0)
    log: list[LogEntry] = []
    s.logged.connect(log.append)
    s.started.connect(lambda entries, _fit: log.extend(entries))
    s.log = log  # type: ignore[attr-defined]
    s.begin()
    yield s
    s.close()


def _human_turn(qtbot, s: PlaytestSession) -> None:
    qtbot.waitUntil(lambda: s.game.is_over() or (s.human_to_move() and not s.worker.busy))
    p = s.game.legal_placements().list()[0]
    s.play(Move(p.square, p.rotation, None))


def test_a_session_plays_with_a_bot_and_no_widget(qtbot, session) -> None:
    _human_turn(qtbot, session)
    qtbot.waitUntil(lambda: session.human_to_move() and not session.worker.busy, timeout=20_000)
    assert session.game.turn == 2  # the bot replied
    assert [p for p, _ in session.actors][:2] == [0, 1]
    assert session.log[0].text.startswith("New game on")
    assert any(e.player == 1 for e in session.log)  # the bot's move was logged
    assert QApplication.allWidgets() == []


def test_undo_save_and_load(qtbot, session, tmp_path) -> None:
    start = session.game.state_summary()
    _human_turn(qtbot, session)
    qtbot.waitUntil(lambda: session.human_to_move() and not session.worker.busy, timeout=20_000)
    assert session.has_unsaved_play()
    fits: list[bool] = []
    session.started.connect(lambda _entries, fit: fits.append(fit))
    assert session.undo()
    assert session.game.state_summary() == start and fits == [False]
    _human_turn(qtbot, session)
    qtbot.waitUntil(lambda: session.human_to_move() and not session.worker.busy, timeout=20_000)
    path = tmp_path / "g.json"
    session.save_to(path)
    assert not session.has_unsaved_play()
    played = session.game.state_summary()
    session.new_game(small_setup())
    assert session.game.state_summary() == start
    session.load_from(path)
    assert session.game.state_summary() == played
    assert not session.has_unsaved_play()
