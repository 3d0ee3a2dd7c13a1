"""Figures drawn on the map itself: a figure per square, coloured over the print's geography.

A heat map of bare grid cells leaves the designer to find Köln by counting squares. Here every
figure is drawn where the map has it: the squares in their place, the sea, the neighbouring
land and the coast from :func:`engine.geo.backdrop.backdrop_of` (what the editor's print draws,
in its colours), the map's outline, the neighbours' names, and on top the start squares, the
large cities and the towns with their names. One function, :func:`map_figure`, draws every such
picture (the report's heat maps, a comparison's difference map) with matplotlib, the report
extra; the caller passes ``matplotlib.pyplot`` in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from engine.geo.backdrop import (
    COAST_COLOUR,
    NEIGHBOUR_LAND_COLOUR,
    SEA_COLOUR,
    Backdrop,
    backdrop_of,
    cloud_squares,
)
from engine.geometry import Square
from engine.mapdef import MapDef

OWN_LAND = "#efe9d3"
"""A map square with no figure (no tile can go there)."""
OUTLINE = "#3a2a10"
CITY_WALL = "#8b1a1a"
NEVER = "#d1201b"
CLOUDS = "#f3f1ea"
"""Squares beyond a land border: the print's clouds, pale over the neighbour's land."""


@dataclass(frozen=True)
class MapLayer:
    """One panel: a figure per square and how it is coloured."""

    title: str
    values: Mapping[Square, float]
    cmap: str
    vmin: float
    vmax: float
    label: str
    """What the colour bar measures."""
    crossed: frozenset[Square] = frozenset()
    """Squares marked with a red cross (e.g. never built)."""
    crossed_label: str = "never built"
    hatched: Mapping[Square, str] = field(default_factory=dict)
    """Squares drawn hatched, by what the hatching means (e.g. "only in A")."""


def _path(geom: BaseGeometry) -> Any:
    """A shapely (multi)polygon as one matplotlib path, holes included."""
    # deferred: matplotlib is the optional report extra (the caller has checked it is there)
    from matplotlib.path import Path as MplPath

    paths = []
    for poly in shapely.get_parts(geom):
        if poly.is_empty or poly.geom_type != "Polygon":
            continue
        for ring in (poly.exterior, *poly.interiors):
            paths.append(MplPath(list(ring.coords), closed=True))
    return MplPath.make_compound_path(*paths) if paths else None


def _lines(ax: Any, geom: BaseGeometry, **style: Any) -> None:
    for part in shapely.get_parts(geom):
        if part.is_empty:
            continue
        rings = [part.exterior, *part.interiors] if part.geom_type == "Polygon" else [part]
        for ring in rings:
            xs, ys = zip(*ring.coords, strict=True)
            ax.plot(xs, ys, **style)


def _box(sq: Square) -> list[tuple[int, int]]:
    x, y = sq
    return [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


def _draw_panel(ax: Any, m: MapDef, look: Backdrop, layer: MapLayer) -> Any:
    """Draw ``layer`` over the map on ``ax``; returns the coloured squares (for a colour bar)."""
    # deferred: matplotlib is the optional report extra (the caller has checked it is there)
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import PathPatch, Rectangle

    ax.add_patch(Rectangle((0, 0), m.width, m.height, facecolor=SEA_COLOUR, edgecolor="none"))
    land = _path(look.land)
    if land is not None:
        ax.add_patch(PathPatch(land, facecolor=NEIGHBOUR_LAND_COLOUR, edgecolor="none"))
    clouds = sorted(cloud_squares(m))
    if clouds:
        ax.add_collection(
            PolyCollection([_box(s) for s in clouds], facecolors=CLOUDS, edgecolors="none")
        )
    bare = sorted(set(m.land) - set(layer.values) - set(layer.hatched))
    if bare:
        ax.add_collection(
            PolyCollection([_box(s) for s in bare], facecolors=OWN_LAND, edgecolors="none")
        )
    squares = sorted(layer.values)
    heat = PolyCollection(
        [_box(s) for s in squares],
        array=[layer.values[s] for s in squares],
        cmap=layer.cmap,
        edgecolors="white",
        linewidths=0.3,
    )
    heat.set_clim(layer.vmin, layer.vmax)
    ax.add_collection(heat)
    for meaning, pattern in zip(
        sorted(set(layer.hatched.values())), ("////", "\\\\\\\\"), strict=False
    ):
        where = sorted(s for s, what in layer.hatched.items() if what == meaning)
        ax.add_collection(
            PolyCollection(
                [_box(s) for s in where],
                facecolors="white",
                edgecolors="#555555",
                hatch=pattern,
                linewidths=0.3,
                label=meaning,
            )
        )
    if not look.coast.is_empty:
        _lines(ax, look.coast, color=COAST_COLOUR, linewidth=0.6)
    own = shapely.union_all([shapely.box(x, y, x + 1, y + 1) for x, y in m.land])
    _lines(ax, own, color=OUTLINE, linewidth=1.0)
    for city in m.large_cities.values():
        walls = shapely.union_all([shapely.box(x, y, x + 1, y + 1) for x, y in city.squares])
        _lines(ax, walls, color=CITY_WALL, linewidth=1.8)
    if layer.crossed:
        xs, ys = zip(*((x + 0.5, y + 0.5) for x, y in sorted(layer.crossed)), strict=True)
        # a white rim keeps the cross visible on a red square and over a town's dot
        ax.scatter(xs, ys, marker="X", s=34, c=NEVER, edgecolors="white", linewidths=0.6, zorder=6)
    if m.start_squares:
        xs, ys = zip(*((x + 0.5, y + 0.5) for x, y in sorted(m.start_squares)), strict=True)
        ax.scatter(
            xs, ys, marker="*", s=70, c="white", edgecolors="black", linewidths=0.7, zorder=5
        )
    dots = sorted(set(m.towns) - set(m.start_squares))  # a start square's star says it all
    if dots:
        xs, ys = zip(*((x + 0.5, y + 0.5) for x, y in dots), strict=True)
        ax.scatter(xs, ys, marker="o", s=8, c="black", zorder=5)
    _names(ax, m, look)
    ax.set_xlim(0, m.width)
    ax.set_ylim(m.height, 0)  # the grid's y runs down, as on the board
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(layer.title)
    return heat


def _names(ax: Any, m: MapDef, look: Backdrop) -> None:
    """Large cities (bold), towns and named start squares beside their squares; the neighbours'
    names on their land."""
    # deferred: matplotlib is the optional report extra (the caller has checked it is there)
    from matplotlib import patheffects

    halo = [patheffects.withStroke(linewidth=1.6, foreground="white")]
    named: dict[Square, tuple[str, bool]] = {}
    for sq, start in m.start_squares.items():
        if start.name:
            named[sq] = (start.name, False)
    for sq, town in m.towns.items():
        if town.name:
            named[sq] = (town.name, False)
    for city in m.large_cities.values():
        if city.name and city.squares:
            xs = [x for x, _ in city.squares]
            top = min(y for _, y in city.squares)
            ax.text(
                (min(xs) + max(xs) + 1) / 2,
                top - 0.05,
                city.name,
                ha="center",
                va="bottom",
                fontsize=6,
                fontweight="bold",
                color=CITY_WALL,
                path_effects=halo,
                zorder=6,
            )
    for (x, y), (name, _) in sorted(named.items()):
        ax.text(
            x + 0.5,
            y + 0.92,
            name,
            ha="center",
            va="top",
            fontsize=5,
            color="black",
            path_effects=halo,
            zorder=6,
        )
    for label in look.labels:
        ax.text(
            label.x,
            label.y,
            label.name,
            ha="center",
            va="center",
            fontsize=7,
            style="italic",
            color="#6f6a55",
            zorder=3,
            clip_on=True,
        )


def _legend(fig: Any, m: MapDef, look: Backdrop, layers: Sequence[MapLayer]) -> None:
    # deferred: matplotlib is the optional report extra (the caller has checked it is there)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = [Patch(facecolor=SEA_COLOUR, label="sea")]
    if look.neighbour_squares or look.labels:
        handles.append(Patch(facecolor=NEIGHBOUR_LAND_COLOUR, label="neighbouring land"))
    if cloud_squares(m):
        handles.append(
            Patch(facecolor=CLOUDS, edgecolor="#bbbbbb", lw=0.5, label="clouds: land border")
        )
    if m.start_squares:
        handles.append(
            Line2D([], [], marker="*", ls="", mfc="white", mec="black", ms=9, label="start square")
        )
    if m.large_cities:
        handles.append(Patch(facecolor="none", edgecolor=CITY_WALL, lw=1.8, label="large city"))
    if m.towns:
        handles.append(Line2D([], [], marker="o", ls="", color="black", ms=3, label="town"))
    crossed = {layer.crossed_label for layer in layers if layer.crossed}
    for text in sorted(crossed):
        handles.append(Line2D([], [], marker="X", ls="", mfc=NEVER, mec="white", ms=7, label=text))
    hatches = sorted({what for layer in layers for what in layer.hatched.values()})
    for what, pattern in zip(hatches, ("////", "\\\\\\\\"), strict=False):
        handles.append(Patch(facecolor="white", edgecolor="#555555", hatch=pattern, label=what))
    fig.legend(handles=handles, loc="lower center", ncol=min(len(handles), 7), fontsize=7)


def map_figure(
    plt: Any, m: MapDef, layers: Sequence[MapLayer], *, look: Backdrop | None = None
) -> Any:
    """A figure with one map panel per layer side by side, each with its colour bar, and one
    legend of the map's symbols below."""
    look = look if look is not None else backdrop_of(m)
    panel_w = 6.0 if len(layers) > 1 else 7.5
    aspect = m.height / max(1, m.width)
    fig, axes = plt.subplots(
        1,
        len(layers),
        figsize=(panel_w * len(layers), max(3.0, panel_w * aspect * 0.82) + 0.7),
        squeeze=False,
    )
    for ax, layer in zip(axes[0], layers, strict=True):
        heat = _draw_panel(ax, m, look, layer)
        bar = fig.colorbar(heat, ax=ax, shrink=0.7, pad=0.01)
        bar.set_label(layer.label)
    _legend(fig, m, look, layers)
    fig.subplots_adjust(left=0.01, right=0.96, top=0.95, bottom=0.07, wspace=0.04)
    return fig


def grid_values(rows: Sequence[Sequence[float | None]]) -> dict[Square, float]:
    """A report's ``[y][x]`` grid (``None`` off the placeable squares) as square → value."""
    return {(x, y): v for y, row in enumerate(rows) for x, v in enumerate(row) if v is not None}


__all__ = ["MapLayer", "grid_values", "map_figure"]
