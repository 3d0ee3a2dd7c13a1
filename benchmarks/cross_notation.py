"""This engine's tiles, squares, rotations and meeple places in 33fred33/CarcassonneAI's notation.

The peer's tile table comes in as data: the dictionaries of its ``Carcassonne_Game/Tile_dict.py``
in JSON form (``benchmarks/cross_peer_worker.py`` sends them; the tests keep a copy). Nothing
is matched by name or number: a peer tile at a rotation is this engine's tile type whose
cities, roads, fields and monastery cover the same sides and half-sides at some rotation.

The peer's conventions: sides 0 left (W), 1 top (N), 2 right (E), 3 bottom (S); ``y`` grows
upwards (this engine's grows downwards); rotations are clockwise degrees, as here, but a tile
turns only through its ``AvailableRotations``. A field opening is ``(side, line)``: lines 0 and
2 are the two halves of a side in clockwise order (this engine's ``L`` and ``R``), line 1 the
whole side. A move is ``(tile index, X, Y, rotation, meeple key or None)`` with meeple keys
``("C", i)``, ``("R", i)``, ``("G", i)`` (the ``i``-th city, road or field of the tile) and
``("Monastery", 0)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.tiles import HALVES, SIDES, TileSet, TileType

PEER_SIDES = ("W", "N", "E", "S")
"""This engine's side for each peer side number."""

Part = tuple[str, frozenset[str]]
"""A feature of a placed tile: its kind and the sides (cities, roads) or half-sides (fields)."""
Shape = frozenset[tuple[str, frozenset[str], int]]
"""A placed tile's features with their coats of arms: equal shapes play the same."""
PeerMove = tuple[int, int, int, int, tuple[str, int] | None]

_PEER_KINDS = {"C": "city", "R": "road", "G": "field", "Monastery": "monastery"}


class NotationError(ValueError):
    """A tile, rotation or meeple place has no counterpart in the other engine."""


@dataclass(frozen=True)
class PeerTile:
    """One tile type of the peer's table, at its rotation 0."""

    index: int
    count: int
    rotations: tuple[int, ...]
    cities: tuple[tuple[int, ...], ...]
    roads: tuple[tuple[int, ...], ...]
    fields: tuple[tuple[tuple[int, int], ...], ...]
    double: bool
    monastery: bool

    def parts(self, rotation: int) -> dict[tuple[str, int], Part]:
        """Each meeple key's feature after a clockwise turn, in this engine's side names."""
        k = rotation // 90

        def side(s: int) -> str:
            return PEER_SIDES[(s + k) % 4]

        out: dict[tuple[str, int], Part] = {}
        for i, sides in enumerate(self.cities):
            out["C", i] = ("city", frozenset(side(s) for s in sides))
        for i, sides in enumerate(self.roads):
            out["R", i] = ("road", frozenset(side(s) for s in sides))
        for i, openings in enumerate(self.fields):
            halves: set[str] = set()
            for s, line in openings:
                halves.update(side(s) + h for h in {0: "L", 1: "LR", 2: "R"}[line])
            out["G", i] = ("field", frozenset(halves))
        if self.monastery:
            out["Monastery", 0] = ("monastery", frozenset())
        return out

    def shape(self, rotation: int) -> Shape:
        coats = 1 if self.double else 0
        return frozenset(
            (kind, where, coats if kind == "city" else 0)
            for kind, where in self.parts(rotation).values()
        )


def _ints(items: Iterable[Any]) -> tuple[int, ...]:
    return tuple(int(x) for x in items)


def peer_tiles(table: Mapping[str, Any]) -> dict[int, PeerTile]:
    """The peer's tile types from its ``Tile_dict`` dictionaries (JSON keys are strings).

    :raises NotationError: naming the dictionary and tile when the table is not understood.
    """
    try:
        counts = {int(k): int(v) for k, v in table["TILE_COUNT_DICT"].items()}
        none, one = set(_ints(table["NO_ROTATIONS"])), set(_ints(table["ONE_ROTATION"]))
        out = {}
        for t, count in sorted(counts.items()):
            key = str(t)
            out[t] = PeerTile(
                index=t,
                count=count,
                rotations=(0,) if t in none else (0, 90) if t in one else (0, 90, 180, 270),
                cities=tuple(_ints(c) for c in table["CITY_OPENINGS_DICT"].get(key, ())),
                roads=tuple(_ints(r) for r in table["ROAD_OPENINGS_DICT"].get(key, ())),
                fields=tuple(
                    tuple((int(s), int(line)) for s, line in f)
                    for f in table["FARM_OPENINGS_DICT"].get(key, ())
                ),
                double=t in set(_ints(table["IS_DOUBLE"])),
                monastery=t in set(_ints(table["HAS_MONASTERY"])),
            )
    except KeyError as exc:
        raise NotationError(f"the peer's tile table: no {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise NotationError(f"the peer's tile table: {exc}") from None
    return out


def our_parts(tile: TileType, rotation: int) -> list[tuple[str, Part]]:
    """Each segment's canonical meeple place and its feature, in board orientation."""
    out = []
    for seg in tile.segments_at(rotation):
        where = frozenset(seg.edges)
        if seg.kind == "monastery":
            name = "C"
        elif seg.kind == "field":
            name = min(seg.edges, key=HALVES.index) if seg.edges else "I"
        else:
            name = min(seg.edges, key=SIDES.index)
        out.append((name, (seg.kind, where)))
    return out


def our_shape(tile: TileType, rotation: int) -> Shape:
    return frozenset(
        (s.kind, frozenset(s.edges), s.coats_of_arms) for s in tile.segments_at(rotation)
    )


class Notation:
    """Both ways between this engine's base tiles and the peer's table.

    :raises NotationError: when a peer tile matches none of the base tiles or two, or a base
        tile none of the peer's. The boxes may hold different numbers of a tile
        (:meth:`box_differences`): a deal is dealt from this engine's box.
    """

    def __init__(self, tileset: TileSet, table: Mapping[str, Any]) -> None:
        self.peer = peer_tiles(table)
        ours = [t for t in tileset if t.expansion == "base"]
        self.type_of: dict[int, str] = {}
        self._to_ours: dict[tuple[int, int], tuple[str, int]] = {}
        self._to_peer: dict[tuple[str, int], tuple[int, int]] = {}
        for p in self.peer.values():
            for r in p.rotations:
                shape = p.shape(r)
                found = [
                    (t.id, q) for t in ours for q in (0, 90, 180, 270) if our_shape(t, q) == shape
                ]
                if not found:
                    raise NotationError(
                        f"peer tile {p.index} at rotation {r}: no base tile of this engine "
                        "has its cities, roads, fields and monastery"
                    )
                self._to_ours[p.index, r] = found[0]
                for tid, q in found:
                    self._to_peer.setdefault((tid, q), (p.index, r))
                tid = found[0][0]
                if self.type_of.setdefault(p.index, tid) != tid:
                    raise NotationError(f"peer tile {p.index} matches tiles {tid} and another")
        self.index_of = {tid: t for t, tid in self.type_of.items()}
        missing = sorted({t.id for t in ours} - set(self.index_of))
        if missing:
            raise NotationError(f"tiles {', '.join(missing)}: not in the peer's table")
        self._tiles = {t.id: t for t in ours}

    def box_differences(self) -> list[str]:
        """Tiles whose number in the peer's box differs from this engine's base box."""
        return [
            f"{tid} (peer tile {t}): {self._tiles[tid].count} here, {self.peer[t].count} there"
            for tid, t in sorted(self.index_of.items())
            if self.peer[t].count != self._tiles[tid].count
        ]

    def canonical(self, tile_id: str, rotation: int) -> tuple[str, int]:
        """The smallest rotation of ``tile_id`` that looks like ``rotation`` (symmetric tiles)."""
        return self.to_ours(*self.to_peer(tile_id, rotation))

    def to_peer(self, tile_id: str, rotation: int) -> tuple[int, int]:
        """The peer's tile index and a rotation it offers, for this engine's placed tile."""
        try:
            return self._to_peer[tile_id, rotation % 360]
        except KeyError:
            raise NotationError(f"tile {tile_id} at rotation {rotation}: not a base tile") from None

    def to_ours(self, index: int, rotation: int) -> tuple[str, int]:
        """This engine's tile id and smallest rotation for the peer's placed tile."""
        try:
            return self._to_ours[index, rotation]
        except KeyError:
            raise NotationError(
                f"peer tile {index} at rotation {rotation}: not in its table"
            ) from None

    def key_of(self, tile_id: str, rotation: int, place: str) -> tuple[str, int]:
        """The peer's meeple key for this engine's meeple place on a placed tile."""
        index, r = self.to_peer(tile_id, rotation)
        tile = self._tiles[tile_id]
        part = next(
            (
                (s.kind, frozenset(s.edges))
                for s in tile.segments_at(rotation)
                if place in s.edges
                or (place == "C" and s.kind == "monastery")
                or (place == "I" and s.kind == "field" and not s.edges)
            ),
            None,
        )
        for key, peer_part in self.peer[index].parts(r).items():
            if peer_part == part:
                return key
        raise NotationError(
            f"tile {tile_id} at rotation {rotation}: no meeple place {place!r} in the peer's "
            f"tile {index}"
        )

    def place_of(self, index: int, rotation: int, key: tuple[str, int]) -> str:
        """This engine's canonical meeple place for the peer's key on a placed tile."""
        tile_id, r = self.to_ours(index, rotation)
        part = self.peer[index].parts(rotation).get((key[0], key[1]))
        for name, ours in our_parts(self._tiles[tile_id], r):
            if part is not None and ours == part:
                return name
        raise NotationError(f"peer tile {index} at rotation {rotation}: no meeple key {key!r}")

    def move_to_peer(self, tile_id: str, action: Mapping[str, Any]) -> PeerMove:
        """The peer's move for this engine's placement in record form (``Move.to_dict``)."""
        if action.get("type") != "place":
            raise NotationError(f"the peer plays only placements, not {action!r}")
        index, r = self.to_peer(tile_id, int(action["rotation"]))
        place = action.get("meeple")
        key = None if place is None else self.key_of(tile_id, int(action["rotation"]), place)
        return (index, int(action["x"]), -int(action["y"]), r, key)

    def move_to_ours(self, move: Iterable[Any]) -> tuple[str, dict[str, Any]]:
        """This engine's tile id and placement in record form for the peer's move."""
        index, x, y, r, key = move
        tile_id, rotation = self.to_ours(int(index), int(r))
        place = None if key is None else self.place_of(int(index), int(r), (key[0], int(key[1])))
        return tile_id, {
            "type": "place",
            "x": int(x),
            "y": -int(y),
            "rotation": rotation,
            "meeple": place,
        }
