"""The later sheets' presets (Taiwan, Ukraine, Nordics) play in the playtest window on their
own shipped maps: bots finish a short game whose record replays to the same position."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.mapio import load_map
from engine.replaying import replay
from engine.resources import bundled_map
from mapeditor.playtest import PlaytestSetup, Seat
from mapeditor.playtest.setup import default_setup


@pytest.mark.parametrize("name", ["taiwan", "ukraine", "nordics"])
def test_a_later_preset_plays_in_the_playtest_on_its_map(qtbot, make_playtest, name) -> None:
    m = load_map(bundled_map(name))
    options = replace(default_setup(m, seed=4).options, tile_count=24)
    assert options.rule_set == name  # the map's own preset, not plain Maps rules
    setup = PlaytestSetup(
        seats=[Seat("Red", "#d7301f", "random"), Seat("Blue", "#2b6cc4", "random")],
        seed=4,
        options=options,
    )
    w = make_playtest(name, setup)
    qtbot.waitUntil(lambda: w.game.is_over(), timeout=120_000)
    assert any(r.name == name for r in w.game.rules)
    again = replay(w.game.record())
    assert again.state_summary() == w.game.state_summary()
