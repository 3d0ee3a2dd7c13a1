"""Fixtures for the playtest window tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from _playtest_helpers import small_setup

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestSetup, PlaytestWindow


@pytest.fixture
def make_playtest(qtbot) -> Callable[..., PlaytestWindow]:
    """``make_playtest(map_name, setup)``: a shown window whose bots play without pauses."""

    def make(map_name: str = "example-small", setup: PlaytestSetup | None = None):
        m = load_map(bundled_map(map_name))
        w = PlaytestWindow(m, setup or small_setup(), pace_ms=0)
        # closed by qtbot after the test: no "save the game?" question waits for an answer
        qtbot.addWidget(w, before_close_func=lambda w: setattr(w, "ask_to_keep_game", False))
        w.resize(1200, 800)
        w.show()
        qtbot.waitExposed(w)
        w.view.fit()
        return w

    return make
