"""Editor commands for shaping a country map: crop, resize and shift the grid, accept suggested
ferries, mark land borders, and put real places (border features, towns) on the map.

Every function here is one undo step on a :class:`~mapeditor.document.MapDocument` (a
``QUndoCommand`` pushed on its stack) and returns what it did; the menu entries that call them
with dialogs live in :mod:`mapeditor.widgets.country_menu`. Grid changes go through
:func:`engine.gridshape.reshape`: elements move with their squares, and what would fall off the
grid is listed (:func:`grid_losses`) so the caller can ask first.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import gridshape
from engine.geo.neighbours import neighbour_names
from engine.geometry import Edge, Square
from engine.gridshape import Reshape, reshape, reshape_losses
from engine.islands import suggest_ferries
from engine.mapdef import BorderFeature, EdgeKind, Ferry, Town
from mapeditor.commands import ReplaceMap, change_entries
from mapeditor.document import MapDocument

__all__ = [
    "accept_ferries",
    "crop_arguments",
    "grid_losses",
    "mark_land_borders",
    "place_border_feature",
    "place_town",
    "reshape_document",
    "resize_arguments",
    "suggested_ferries",
]


def crop_arguments(document: MapDocument, margin: int = 1) -> Reshape:
    """The reshape that crops the map to its content plus ``margin`` squares."""
    return gridshape.crop_arguments(document.map, margin)


def resize_arguments(document: MapDocument, width: int, height: int, anchor: str = "nw") -> Reshape:
    """The reshape giving a ``width`` x ``height`` grid with ``anchor`` kept in place."""
    return gridshape.resize_arguments(document.map, width, height, anchor)


def grid_losses(document: MapDocument, args: Reshape) -> list[str]:
    """What the reshape ``args`` would drop (empty: nothing)."""
    return reshape_losses(document.map, *args)


def reshape_document(document: MapDocument, args: Reshape, text: str) -> bool:
    """Reshape the grid as one undo step; False when it would change nothing."""
    width, height, dx, dy = args
    m = document.map
    if (width, height, dx, dy) == (m.width, m.height, 0, 0):
        return False
    document.undo_stack.push(ReplaceMap(document, reshape(m, width, height, dx, dy), text))
    document.select()
    return True


def suggested_ferries(document: MapDocument) -> list[Ferry]:
    """Ferries over the shortest sea crossings that would reach every placeable square."""
    return suggest_ferries(document.map)


def accept_ferries(document: MapDocument, ferries: Iterable[Ferry]) -> int:
    """Add ``ferries`` as one undo step (ids renumbered to stay unique); how many were added."""
    m = document.map
    taken = set(m.ferries)
    changes: dict[str, Ferry] = {}
    for f in ferries:
        fid, n = f.id, 1
        while fid in taken:
            fid, n = f"ferry-{n}", n + 1
        taken.add(fid)
        changes[fid] = Ferry(fid, f.a, f.b, f.coats_of_arms)
    if not changes:
        return 0
    text = "Add suggested ferry" if len(changes) == 1 else f"Add {len(changes)} suggested ferries"
    change_entries(document, "ferries", changes, text)
    return len(changes)


def mark_land_borders(document: MapDocument) -> int:
    """Mark every edge with a saved neighbour name as a land border (clouds), one undo step."""
    m = document.map
    edges = {e: True for e in neighbour_names(m) if e.square in m.land and m.faces_outside(e)}
    new = {e: v for e, v in edges.items() if e not in m.land_borders}
    if new:
        change_entries(document, "land_borders", new, "Mark land borders")
    return len(new)


def place_border_feature(
    document: MapDocument,
    place: str | tuple[float, float],
    kind: EdgeKind = EdgeKind.ROAD,
    *,
    neighbour: str = "",
) -> tuple[Edge, BorderFeature]:
    """Put a border road or city at a named crossing or nearest a ``(lon, lat)`` (one undo
    step); GeoDataError when the map has no projection or the place is unknown."""
    from engine.geo.places import border_feature_at

    edge, feature = border_feature_at(document.map, place, kind=kind, neighbour=neighbour)
    change_entries(document, "border_features", {edge: feature}, f"Add border {kind.value}")
    document.select([edge.square], edge=edge)
    return edge, feature


def place_town(
    document: MapDocument, place: str | tuple[float, float], name: str = ""
) -> tuple[Square, str]:
    """Put a town at a real place, snapped to the nearest free placeable square (one undo step).

    Returns ``(square, name)``; GeoDataError when the place is unknown or not near any land.
    """
    from engine.geo.country import GeoDataError, snap_to_land
    from engine.geo.places import find_place, projection_of

    m = document.map
    if isinstance(place, str):
        found, lon, lat = find_place(place)
        name = name or place or found
    else:
        lon, lat = place
    free = m.placeable_squares() - set(m.towns) - set(m.start_squares)
    square = snap_to_land(projection_of(m).grid_point(lon, lat), free)
    if square is None:
        raise GeoDataError(f"{name or place}: no free map square near it")
    change_entries(document, "towns", {square: Town(name or "Town")}, "Add town at place")
    document.select([square])
    return square, name
