"""Neighbour names along the border, kept as editor settings (names only, never map data).

"New map from country…" records which country lies beyond each border edge in
``MapDef.editor["neighbours"]`` as ``[{"x", "y", "side", "name"}, ...]``. The editor shows them
beside the border, and a border road or city drawn on such an edge can take the name from here.
Pure Python (no Qt).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.geo.country import neighbours_to_editor as _to_editor
from engine.geometry import Edge, Side
from engine.mapdef import MapDef

NEIGHBOURS_KEY = "neighbours"
"""Key in ``MapDef.editor``."""


def neighbours_to_editor(neighbours: Mapping[Edge, str]) -> list[dict[str, object]]:
    """The saved form, sorted (diff-friendly)."""
    return _to_editor(dict(neighbours))


def neighbour_names(m: MapDef) -> dict[Edge, str]:
    """The neighbour names saved with ``m``: edge → name. Unreadable entries are skipped: editor
    settings never stop a map from opening."""
    out: dict[Edge, str] = {}
    raw = m.editor.get(NEIGHBOURS_KEY)
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, dict):
            continue
        x, y, side, name = (item.get(k) for k in ("x", "y", "side", "name"))
        if (
            isinstance(x, int)
            and isinstance(y, int)
            and side in ("N", "E", "S", "W")
            and isinstance(name, str)
            and name
        ):
            out[Edge(x, y, Side(side))] = name
    return out


def neighbour_of(m: MapDef, edge: Edge) -> str:
    """The saved neighbour name beyond ``edge`` (``""`` when none): what a new border feature on
    that edge should be called."""
    return neighbour_names(m).get(edge, "")


def label_runs(names: Mapping[Edge, str]) -> list[tuple[str, list[Edge]]]:
    """Border edges grouped into connected runs per neighbour (squares touching, diagonals too),
    biggest first: one label per run rather than one per edge."""
    runs: list[tuple[str, list[Edge]]] = []
    by_name: dict[str, set[Edge]] = {}
    for edge, name in names.items():
        by_name.setdefault(name, set()).add(edge)
    for name, edges in sorted(by_name.items()):
        left = set(edges)
        while left:
            seed = min(left)
            run, stack = [], [seed]
            left.discard(seed)
            while stack:
                e = stack.pop()
                run.append(e)
                near = [f for f in left if abs(f.x - e.x) <= 1 and abs(f.y - e.y) <= 1]
                for f in near:
                    left.discard(f)
                    stack.append(f)
            runs.append((name, sorted(run)))
    runs.sort(key=lambda r: (-len(r[1]), r[0], r[1][0]))
    return runs
