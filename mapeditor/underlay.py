"""The tracing underlay: a scan or photo of a printed map shown under the grid, as plain data.

An :class:`Underlay` says which image to show, how opaque, whether at all, and where: its
``transform`` maps image pixels to *map units* (one unit = one square; square ``(x, y)`` spans
``[x, x+1] × [y, y+1]``), so it does not depend on how large the editor draws a square. It is saved
in ``MapDef.editor["underlay"]`` (editor settings, never map data) as::

    {"path": "scan.jpg", "opacity": 0.5, "visible": true, "transform": [m11, m12, m21, m22, dx, dy]}

``transform`` uses Qt's ``QTransform`` convention: ``x' = m11*u + m21*v + dx`` and
``y' = m12*u + m22*v + dy`` for an image pixel ``(u, v)``.

The two-point alignment (:func:`align_two_points`) turns two image points clicked at two known
square corners into that transform: a similarity (uniform scale, rotation, offset), which is what a
straight scan or photo of a flat board needs. Pure Python; no Qt here.
"""

from __future__ import annotations

import cmath
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine import boundedio

MAX_IMAGE_BYTES = 50 * 1024 * 1024
"""Largest underlay image file read (a 600 dpi scan of a board is a few MB as JPEG)."""
MAX_IMAGE_PIXELS = 100_000_000
"""Largest decoded image (width x height): a small file may decode to a huge picture."""

Point = tuple[float, float]
Transform = tuple[float, float, float, float, float, float]
"""``(m11, m12, m21, m22, dx, dy)``: image pixel → map units (see the module docstring)."""

IDENTITY: Transform = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
EDITOR_KEY = "underlay"
"""The key of the underlay in :attr:`engine.mapdef.MapDef.editor`."""


class UnderlayError(ValueError):
    """Bad underlay settings or an alignment that cannot be solved."""


@dataclass(frozen=True)
class Alignment:
    """A similarity transform described by its parts (for display: "scale 0.031, rotated 1.2°")."""

    scale: float
    """Map units (squares) per image pixel."""
    rotation_deg: float
    """Clockwise on screen (y grows downwards), in degrees."""
    offset: Point
    """Where the image's pixel ``(0, 0)`` lands, in map units."""

    @property
    def transform(self) -> Transform:
        c = self.scale * math.cos(math.radians(self.rotation_deg))
        s = self.scale * math.sin(math.radians(self.rotation_deg))
        return (c, s, -s, c, self.offset[0], self.offset[1])


def align_two_points(
    image_points: tuple[Point, Point], map_points: tuple[Point, Point]
) -> Alignment:
    """The similarity taking ``image_points[i]`` to ``map_points[i]`` (square corners, map units).

    Treating points as complex numbers, the map is ``z ↦ a·z + b`` with
    ``a = (q2 - q1) / (p2 - p1)``: ``|a|`` is the scale and ``arg a`` the rotation.

    >>> al = align_two_points(((100, 100), (300, 100)), ((1, 1), (3, 1)))
    >>> round(al.scale, 6), round(al.rotation_deg, 6), al.offset
    (0.01, 0.0, (0.0, 0.0))

    :raises UnderlayError: if the two image points or the two map points coincide.
    """
    p1, p2 = (complex(*p) for p in image_points)
    q1, q2 = (complex(*q) for q in map_points)
    if abs(p2 - p1) < 1e-9:
        raise UnderlayError("the two image points are the same: click two different corners")
    if abs(q2 - q1) < 1e-9:
        raise UnderlayError("the two square corners are the same: give two different corners")
    a = (q2 - q1) / (p2 - p1)
    b = q1 - a * p1
    return Alignment(
        scale=abs(a), rotation_deg=math.degrees(cmath.phase(a)), offset=(b.real, b.imag)
    )


def decompose(transform: Transform) -> Alignment:
    """The scale, rotation and offset of a similarity transform (the inverse of ``.transform``)."""
    m11, m12, _m21, _m22, dx, dy = transform
    return Alignment(
        scale=math.hypot(m11, m12), rotation_deg=math.degrees(math.atan2(m12, m11)), offset=(dx, dy)
    )


def apply(transform: Transform, point: Point) -> Point:
    """Map an image pixel ``point`` to map units."""
    m11, m12, m21, m22, dx, dy = transform
    u, v = point
    return (m11 * u + m21 * v + dx, m12 * u + m22 * v + dy)


def fit_width(image_size: tuple[int, int], map_width: int) -> Transform:
    """A first guess before alignment: the image scaled to the map's width, top-left at (0, 0)."""
    w = max(1, image_size[0])
    s = map_width / w
    return (s, 0.0, 0.0, s, 0.0, 0.0)


@dataclass(frozen=True)
class Underlay:
    """Which image lies under the grid and how."""

    path: str
    opacity: float = 0.5
    visible: bool = True
    transform: Transform = IDENTITY

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "opacity": self.opacity,
            "visible": self.visible,
            "transform": list(self.transform),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Underlay:
        """Read the saved form; a precise :class:`UnderlayError` names the bad field."""
        where = f'editor["{EDITOR_KEY}"]'
        if not isinstance(data, dict):
            raise UnderlayError(f"{where}: expected an object, got {type(data).__name__}")
        path = data.get("path")
        if not isinstance(path, str) or not path:
            raise UnderlayError(f"{where}.path: expected a non-empty string")
        opacity = data.get("opacity", 0.5)
        if isinstance(opacity, bool) or not isinstance(opacity, int | float):
            raise UnderlayError(f"{where}.opacity: expected a number, got {opacity!r}")
        if not 0.0 <= opacity <= 1.0:
            raise UnderlayError(f"{where}.opacity: {opacity} is outside 0..1")
        visible = data.get("visible", True)
        if not isinstance(visible, bool):
            raise UnderlayError(f"{where}.visible: expected true or false, got {visible!r}")
        raw = data.get("transform", list(IDENTITY))
        if (
            not isinstance(raw, list | tuple)
            or len(raw) != 6
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in raw)
            or not all(math.isfinite(v) for v in raw)
        ):
            raise UnderlayError(f"{where}.transform: expected 6 finite numbers, got {raw!r}")
        m11, m12, m21, m22 = raw[:4]
        if abs(m11 * m22 - m12 * m21) < 1e-15:
            raise UnderlayError(f"{where}.transform: not invertible (scale 0)")
        transform: Transform = tuple(float(v) for v in raw)  # type: ignore[assignment]
        return cls(path=path, opacity=float(opacity), visible=visible, transform=transform)

    def with_(self, **changes: Any) -> Underlay:
        """A copy with some fields changed."""
        return replace(self, **changes)


def underlay_of(editor: dict[str, Any]) -> Underlay | None:
    """The underlay saved in a map's editor settings, or ``None`` (also for unreadable settings:
    an underlay is a convenience, never a reason to refuse a map)."""
    data = editor.get(EDITOR_KEY)
    if data is None:
        return None
    try:
        return Underlay.from_dict(data)
    except UnderlayError:
        return None


def resolve_image_path(path: str, map_path: str | os.PathLike[str] | None) -> Path:
    """Where the image is: a relative ``path`` is relative to the map file's folder."""
    p = Path(path).expanduser()
    if p.is_absolute() or map_path is None:
        return p
    return Path(map_path).resolve().parent / p


def storable_path(image: str | os.PathLike[str], map_path: str | os.PathLike[str] | None) -> str:
    """The path to save: relative to the map file's folder when the image sits at or below it,
    so a map and its scan can move together; absolute otherwise."""
    img = Path(image).resolve()
    if map_path is not None:
        base = Path(map_path).resolve().parent
        try:
            return img.relative_to(base).as_posix()
        except ValueError:
            pass
    return str(img)


def image_file(path: str, map_path: str | os.PathLike[str] | None) -> Path:
    """The underlay image a map's settings name: relative to the map file's folder, which it may
    not leave (paths in data files never lead elsewhere). For a map not yet saved, the path was
    picked in this session's dialog and is used as it is.

    :raises UnderlayError: one line saying why (the dock shows it; pick the image again).
    """
    try:
        if map_path is None:
            return Path(boundedio.check_path(path))
        return boundedio.inside_folder(path, map_path, what="underlay image")
    except boundedio.InputFileError as exc:
        raise UnderlayError(str(exc)) from None


def read_image_bytes(image: str | os.PathLike[str]) -> bytes:
    """The bytes of an image file: a regular file of at most :data:`MAX_IMAGE_BYTES` (a FIFO or
    a device is refused at once instead of freezing the editor)."""
    try:
        return boundedio.read_bytes(image, limit=MAX_IMAGE_BYTES, what="image")
    except boundedio.InputFileError as exc:
        raise UnderlayError(str(exc)) from None
