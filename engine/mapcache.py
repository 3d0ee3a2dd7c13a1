"""What games derive from a map, computed once per map object and reused by later games.

Setting up a game on a map needs tables that depend only on the map: the board's
:class:`~engine.board.MapLayout`, the squares a Map-Chip may take, the placeable squares as an
array. Building them is most of a game's set-up (a random game on Deutschland is ~15 ms; the
layout alone was ~2 ms), so :func:`derived` keeps them per :class:`~engine.mapdef.MapDef` object.

The tables are keyed by the map object and its :attr:`~engine.mapdef.MapDef.revision`, which
every in-place edit bumps with :meth:`~engine.mapdef.MapDef.touch`: the editor's document does it
for every edit command (``tests/mapeditor/test_mapcache_commands.py`` edits a map through each
command kind and checks the layout). Code that edits a map in place by hand must call
``m.touch()`` too (or give games ``m.copy()``); as a backstop, a change of the grid, the land
squares, the rule set, the setup or the number of any element is noticed without it.
"""

from __future__ import annotations

import weakref
from typing import Any

from engine.mapdef import MapDef

_CACHE: dict[int, tuple[weakref.ref[MapDef], tuple[Any, ...], dict[Any, Any]]] = {}


def _guard(m: MapDef) -> tuple[Any, ...]:
    return (
        m.revision,
        m.width,
        m.height,
        m.rule_set,
        repr(m.setup),
        hash(frozenset(m.land)),
        len(m.land),
        len(m.waves),
        len(m.start_squares),
        len(m.towns),
        len(m.large_cities),
        len(m.border_features),
        len(m.ferries),
        len(m.islands),
        len(m.chip_squares),
        len(m.tracks),
        m.isle_of_man,
    )


def derived(m: MapDef) -> dict[Any, Any]:
    """The cache of tables derived from ``m`` (empty at first, or after ``m`` changed): keys
    are chosen by the modules that fill it."""
    key = id(m)
    guard = _guard(m)
    entry = _CACHE.get(key)
    if entry is not None and entry[0]() is m and entry[1] == guard:
        return entry[2]
    tables: dict[Any, Any] = {}
    cache = _CACHE  # bound now: the callback may run while the interpreter shuts down

    def drop(_ref: weakref.ref[MapDef]) -> None:
        cache.pop(key, None)

    _CACHE[key] = (weakref.ref(m, drop), guard, tables)
    return tables


def forget(m: MapDef) -> None:
    """Drop what was derived from ``m`` now (``m.touch()`` has the same effect on next use)."""
    _CACHE.pop(id(m), None)
