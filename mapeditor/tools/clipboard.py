"""Copy and paste of selected squares with everything printed on them, within and between maps.

The clipboard holds a *fragment*: the selected squares (map squares and water alike) and a small
map with what is on them, moved so the selection's top-left corner is (0, 0). Pasting clears the
target squares and puts the fragment there (one undo step). Elements whose ids are taken get new
ones; what would fall off the grid is left out.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QMimeData

from engine.errors import MapFormatError
from engine.geometry import Square
from engine.mapdef import MapDef
from engine.mapio import map_from_dict, map_to_dict
from mapeditor.commands import ReplaceMap
from mapeditor.document import MapDocument
from mapeditor.tools.select import cleared_map, moved_map

MIME_TYPE = "application/x-carcassonne-map-fragment+json"
MAX_BYTES = 8 * 1024 * 1024
"""Clipboard data larger than this is not read (a 400×400 map fragment is far smaller)."""


@dataclass
class Fragment:
    """Selected squares relative to the selection's corner, the elements on them, and where the
    selection was (pasted there again when the cursor is not over the map)."""

    squares: set[Square]
    map: MapDef
    origin: Square


def _grid(m: MapDef) -> set[Square]:
    return {(x, y) for y in range(m.height) for x in range(m.width)}


def copy_fragment(m: MapDef, squares: set[Square]) -> Fragment:
    """The fragment of ``m`` on ``squares`` (cities and ferries only when wholly inside)."""
    inside = squares & _grid(m)
    if not inside:
        raise ValueError("nothing selected on the grid")
    x0 = min(x for x, _ in inside)
    y0 = min(y for _, y in inside)
    x1 = max(x for x, _ in inside)
    y1 = max(y for _, y in inside)
    kept = cleared_map(m, _grid(m) - inside)
    kept.tracks = {}
    kept.isle_of_man = None
    kept.editor = {}
    shifted = moved_map(kept, set(kept.land), -x0, -y0)
    shifted.width, shifted.height = x1 - x0 + 1, y1 - y0 + 1
    shifted.id, shifted.name = "fragment", "Copied squares"
    return Fragment({(x - x0, y - y0) for x, y in inside}, shifted, (x0, y0))


def _free_id(taken: set[str], wanted: str) -> str:
    if wanted not in taken:
        return wanted
    stem = wanted.rstrip("0123456789-") or "item"
    n = 2
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


def _free_name(taken: set[str], wanted: str) -> str:
    """``wanted``, or "Kassel 2", "Kassel 3"... when a place of the map has that name already
    (``taken`` holds the names casefolded; the new one is added)."""
    name = wanted
    if wanted and wanted.casefold() in taken:
        stem, _, number = wanted.rpartition(" ")
        stem = stem if number.isdigit() and stem else wanted
        n = 2
        while f"{stem} {n}".casefold() in taken:
            n += 1
        name = f"{stem} {n}"
    taken.add(name.casefold())
    return name


def _place_names(m: MapDef) -> set[str]:
    names = [t.name for t in m.towns.values()] + [s.name for s in m.start_squares.values()]
    return {n.casefold() for n in names + [c.name for c in m.large_cities.values()] if n}


def pasted_map(m: MapDef, fragment: Fragment, at: Square) -> tuple[MapDef, set[Square]]:
    """A copy of ``m`` with ``fragment`` pasted with its corner on ``at``, and the squares it took."""
    ax, ay = at
    grid = _grid(m)
    target = {(x + ax, y + ay) for x, y in fragment.squares} & grid
    out = cleared_map(m, target)
    piece = moved_map(fragment.map, set(fragment.map.land), ax, ay)
    out.land |= piece.land & target
    # A pasted place gets a name of its own ("Kassel 2"): two places are never called alike.
    taken = _place_names(out)
    for attr in ("start_squares", "towns"):
        getattr(out, attr).update(
            {
                k: dataclasses.replace(v, name=_free_name(taken, v.name))
                for k, v in getattr(piece, attr).items()
                if k in target
            }
        )
    out.chip_squares.update({k: v for k, v in piece.chip_squares.items() if k in target})
    out.waves |= piece.waves & target
    out.border_features.update(
        {e: f for e, f in piece.border_features.items() if e.square in target}
    )
    for city in piece.large_cities.values():
        if city.squares <= target:
            new_id = _free_id(set(out.large_cities), city.id)
            name = _free_name(taken, city.name)
            out.large_cities[new_id] = dataclasses.replace(city, id=new_id, name=name)
    for island in piece.islands.values():
        squares = {s: v for s, v in island.squares.items() if s in target}
        if squares:
            new_id = _free_id(set(out.islands), island.id)
            out.islands[new_id] = dataclasses.replace(island, id=new_id, squares=squares)
    for ferry in piece.ferries.values():
        if ferry.a.square in target and ferry.b.square in target:
            new_id = _free_id(set(out.ferries), ferry.id)
            out.ferries[new_id] = dataclasses.replace(ferry, id=new_id)
    return out, target


def to_mime(fragment: Fragment) -> QMimeData:
    data = {
        "squares": sorted([x, y] for x, y in fragment.squares),
        "origin": list(fragment.origin),
        "map": map_to_dict(fragment.map),
    }
    text = json.dumps(data)
    mime = QMimeData()
    mime.setData(MIME_TYPE, text.encode("utf-8"))
    return mime


def from_mime(mime: QMimeData) -> Fragment | None:
    """The fragment on the clipboard; ``None`` when it holds none.

    :raises MapFormatError: the data is there but broken (named, nothing pasted).
    """
    if not mime.hasFormat(MIME_TYPE):
        return None
    raw = bytes(mime.data(MIME_TYPE).data())
    if len(raw) > MAX_BYTES:
        raise MapFormatError(f"copied squares too large ({len(raw)} bytes)", source="clipboard")
    try:
        data: Any = json.loads(raw.decode("utf-8"))
        squares = {(int(x), int(y)) for x, y in data["squares"]}
        ox, oy = data["origin"]
        origin = (int(ox), int(oy))
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
        raise MapFormatError(f"not copied map squares ({exc})", source="clipboard") from None
    return Fragment(squares, map_from_dict(data["map"], source="clipboard"), origin)


def paste(document: MapDocument, fragment: Fragment, at: Square) -> set[Square]:
    """Paste ``fragment`` at ``at`` (one undo step) and select what was pasted."""
    new, target = pasted_map(document.map, fragment, at)
    if not target:
        return set()
    document.undo_stack.push(ReplaceMap(document, new, "Paste"))
    document.select(target)
    return target
