"""Tables derived from a map are built once per map object and rebuilt when the map changes."""

from __future__ import annotations

import gc

from engine import mapcache
from engine.game import Game
from engine.mapio import load_map
from engine.resources import bundled_map


def test_games_on_one_map_share_its_layout() -> None:
    m = load_map(bundled_map("deutschland"))
    a = Game(m, players=2, seed=1)
    b = Game(m, players=3, seed=2)
    assert a.board.layout is b.board.layout
    # another object with the same content gets its own (nothing is shared by content)
    c = Game(m.copy(), players=2, seed=1)
    assert c.board.layout is not a.board.layout
    assert c.board.layout.placeable == a.board.layout.placeable


def test_a_changed_map_gets_fresh_tables() -> None:
    m = load_map(bundled_map("example-small"))
    before = Game(m, players=2, seed=1).board.layout
    assert before is not None
    gone = max(before.placeable)
    m.land.discard(gone)  # the editor's kind of change: a square less
    after = Game(m, players=2, seed=1).board.layout
    assert after is not before and gone not in after.placeable
    # an in-place change the guard cannot see is handled by forget()
    tables = mapcache.derived(m)
    mapcache.forget(m)
    assert mapcache.derived(m) is not tables


def test_the_cache_lets_maps_go() -> None:
    m = load_map(bundled_map("example-small"))
    Game(m, players=2, seed=1)
    key = id(m)
    assert key in mapcache._CACHE
    del m
    gc.collect()
    assert key not in mapcache._CACHE
