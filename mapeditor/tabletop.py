"""Exports for virtual tabletops: an image pack with a manifest, and a Tabletop Simulator save.

:func:`export_assets` writes what Screentop or Tabletopia build a game from: the board at a known
pixel size per square, one image per tile type with its count in the pool, a tile back, chip
fronts and backs with their counts, and ``manifest.json`` listing them. :func:`export_tts` writes
the same pack plus a Tabletop Simulator save (``<map id>.tts.json``, to copy into TTS's
``Saves`` folder): the board locked on the table with a snap point on every placeable square,
the start tiles on their squares, the rest of the pool in a bag, the chips face down where the
rule set lays them out, meeples per seat, and the rules summary as a notebook page.

Every image is RGB (TTS does not load CMYK, and Screentop flattens transparency anyway) and at
most :data:`MAX_SIDE` pixels a side. The save names its images by ``file://`` URLs; pass
``url_base`` once the pack is uploaded somewhere (TTS players each need to reach the images).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen

from engine.game import Game
from engine.mapdef import MapDef

MAX_SIDE = 4096
"""Largest image side in pixels (TTS's advice for custom images)."""
TILE_PX = 256
CHIP_PX = 128
UNITS_PER_SQUARE = 2.0
"""TTS world units per map square: the side of a Custom_Tile at scale 1."""
SEAT_COLOURS = {
    "Red": (0.86, 0.1, 0.1),
    "Blue": (0.12, 0.34, 0.85),
    "Green": (0.19, 0.7, 0.16),
    "Yellow": (0.9, 0.9, 0.17),
    "Black": (0.25, 0.25, 0.25),
}
"""TTS's seat colours (names and tints) of the meeple sets, one per player."""


def _game(m: MapDef, seed: int) -> Game:
    """A game set up as the playtest would: the map's own rules, its tile pool and chips."""
    from mapeditor.playtest.setup import default_setup

    return default_setup(m, seed=seed).make_game(m)


def _save_rgb(image: QImage, path: Path) -> None:
    """``image`` flattened on white, as an RGB PNG."""
    flat = QImage(image.size(), QImage.Format.Format_RGB888)
    flat.fill(QColor("white"))
    p = QPainter(flat)
    p.drawImage(0, 0, image)
    p.end()
    if not flat.save(str(path), "PNG"):  # type: ignore[call-overload]
        raise OSError(f"{path}: could not write the image")


def _chip_image(colour: QColor, value: int | None) -> QImage:
    image = QImage(CHIP_PX, CHIP_PX, QImage.Format.Format_RGB888)
    image.fill(QColor("white"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    r = CHIP_PX / 2 - 4
    c = QPointF(CHIP_PX / 2, CHIP_PX / 2)
    p.setPen(QPen(QColor(30, 30, 30), 4))
    p.setBrush(colour)
    p.drawEllipse(c, r, r)
    if value is not None:
        f = QFont("DejaVu Sans")
        f.setPixelSize(round(CHIP_PX * 0.5))
        f.setBold(True)
        p.setFont(f)
        p.setPen(QColor("white"))
        p.drawText(QRectF(0, 0, CHIP_PX, CHIP_PX), Qt.AlignmentFlag.AlignCenter, str(value))
    p.end()
    return image


def _tile_back() -> QImage:
    image = QImage(TILE_PX, TILE_PX, QImage.Format.Format_RGB888)
    image.fill(QColor("#6b5430"))
    p = QPainter(image)
    p.setPen(QPen(QColor("#e9dcc0"), 6))
    p.drawRect(12, 12, TILE_PX - 24, TILE_PX - 24)
    f = QFont("DejaVu Serif")
    f.setPixelSize(TILE_PX // 3)
    p.setFont(f)
    p.drawText(QRectF(0, 0, TILE_PX, TILE_PX), Qt.AlignmentFlag.AlignCenter, "C")
    p.end()
    return image


def _supply(game: Game) -> list[tuple[str, int]]:
    """The chips of the rule set in play as ``(colour, value)`` (from the game's state summary;
    empty for plain Maps rules)."""
    out = []
    for summary in game.state_summary()["rules"].values():
        for item in summary.get("chips", []) if isinstance(summary, dict) else []:
            if isinstance(item, list | tuple) and len(item) == 2:
                out.append((str(item[0]), int(item[1])))
    return out


def export_assets(m: MapDef, out_dir: str | Path, *, seed: int = 0) -> dict[str, Any]:
    """Write the image pack and ``manifest.json`` into ``out_dir``; returns the manifest."""
    from mapeditor.export import render_image
    from mapeditor.playtest import rule_view
    from mapeditor.playtest.board_scene import chip_colour
    from mapeditor.tile_painter import tile_image

    out = Path(out_dir)
    (out / "tiles").mkdir(parents=True, exist_ok=True)
    game = _game(m, seed)
    px = int(min(128, MAX_SIDE // max(m.width, m.height, 1)))
    _save_rgb(render_image(m, px_per_square=px), out / "board.png")
    pool = Counter(game.pile)
    pool.update(t for _sq, t, _r in game.start_tiles)
    if game.current_tile is not None:
        pool[game.current_tile] += 1
    tiles = []
    for tile_id in sorted(pool):
        name = f"tiles/{tile_id}.png"
        _save_rgb(tile_image(game.tileset[tile_id], 0, TILE_PX), out / name)
        tiles.append({"id": tile_id, "file": name, "count": pool[tile_id]})
    _save_rgb(_tile_back(), out / "tile-back.png")
    supply = Counter(_supply(game))
    fronts = []
    for (colour, value), count in sorted(supply.items()):
        name = f"chip-{colour}-{value}.png"
        _save_rgb(_chip_image(chip_colour(colour), value), out / name)
        fronts.append({"colour": colour, "value": value, "file": name, "count": count})
    if supply:
        _save_rgb(_chip_image(chip_colour(None), None), out / "chip-back.png")
    layout = [list(c.square) for c in rule_view.pieces(game).chips]
    manifest = {
        "format": "carcassonne-maps-assets",
        "format_version": 1,
        "map": {"id": m.id, "name": m.name},
        "board": {
            "file": "board.png",
            "px_per_square": px,
            "squares": [m.width, m.height],
            "placeable": [list(sq) for sq in sorted(m.placeable_squares())],
        },
        "tiles": tiles,
        "tile_back": "tile-back.png",
        "start_tiles": [[sq[0], sq[1], t, r] for sq, t, r in game.start_tiles],
        "chips": {"fronts": fronts, "back": "chip-back.png" if supply else None, "layout": layout},
        "meeples_per_player": game.meeples_per_player,
        "rules": rules_summary(m, game),
        "seed": seed,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def rules_summary(m: MapDef, game: Game) -> str:
    """A short text for the table: set-up and the rule set in play."""
    rules = ", ".join(r.title or r.name for r in game.rules) or "plain Maps rules"
    return (
        f"Carcassonne Maps: {m.name}\n"
        f"Rules: {rules}.\n"
        f"Set-up: {game.tiles_left() + 1 + len(game.start_tiles)} tiles "
        f"({len(game.start_tiles)} start tile(s) already on the map), "
        f"{game.meeples_per_player} meeples per player, "
        f"{len(rule_view_chips(game))} chips face down on their squares.\n"
        "Place tiles on the map's squares only; the map's printed edges, towns, large cities and "
        "ferries count as in the rule sheet (see the Studio's docs/rule-sets.md)."
    )


def rule_view_chips(game: Game) -> list[Any]:
    from mapeditor.playtest import rule_view

    return list(rule_view.pieces(game).chips)


def _guid(rng: random.Random, used: set[str]) -> str:
    while True:
        g = f"{rng.randrange(16**6):06x}"
        if g not in used:
            used.add(g)
            return g


def _transform(
    x: float, y: float, z: float, scale: float = 1.0, *, flip: bool = False
) -> dict[str, float]:
    return {
        "posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4),
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0 if flip else 0.0,
        "scaleX": scale, "scaleY": 1.0, "scaleZ": scale,
    }  # fmt: skip


def export_tts(
    m: MapDef, out_dir: str | Path, *, seed: int = 0, url_base: str | None = None, players: int = 5
) -> Path:
    """Write the image pack and a Tabletop Simulator save into ``out_dir``; returns the save.

    ``url_base``: where the pack's files will be reachable (``https://.../pack/``); by default
    ``file://`` URLs of ``out_dir`` (enough on the machine that exported it).
    """
    out = Path(out_dir).resolve()
    manifest = export_assets(m, out, seed=seed)
    base = url_base.rstrip("/") + "/" if url_base else out.as_uri() + "/"
    rng = random.Random(seed)
    used: set[str] = set()
    w, h = m.width, m.height
    u = UNITS_PER_SQUARE

    def world(x: float, y: float) -> tuple[float, float]:
        """The table position of square (x, y)'s centre (the board centred; rows go south)."""
        return ((x + 0.5 - w / 2) * u, -(y + 0.5 - h / 2) * u)

    def tile(
        name: str, front: str, back: str, at: tuple[float, float, float], **kw: Any
    ) -> dict[str, Any]:
        shape = kw.pop("shape", 0)
        return {
            "GUID": _guid(rng, used),
            "Name": "Custom_Tile",
            "Nickname": name,
            "Transform": _transform(*at, kw.pop("scale", 1.0), flip=kw.pop("flip", False)),
            "Locked": kw.pop("locked", False),
            "Grid": False,
            "Snap": True,
            "CustomImage": {
                "ImageURL": base + front,
                "ImageSecondaryURL": base + back,
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
                "CustomTile": {"Type": shape, "Thickness": 0.1, "Stackable": True, "Stretch": True},
            },
        }

    board = tile(m.name or m.id, "board.png", "board.png", (0.0, 1.0, 0.0), locked=True)
    board["Transform"].update({"scaleX": w * u / 2, "scaleZ": h * u / 2})
    board["CustomImage"]["CustomTile"]["Stackable"] = False
    objects: list[dict[str, Any]] = [board]
    for x, y, tile_id, rot in manifest["start_tiles"]:
        px, pz = world(x, y)
        t = tile(tile_id, f"tiles/{tile_id}.png", "tile-back.png", (px, 1.2, pz))
        t["Transform"]["rotY"] = (180.0 + rot) % 360
        objects.append(t)
    bag_tiles = []
    start_ids = Counter(t for *_xy, t, _r in manifest["start_tiles"])
    for entry in manifest["tiles"]:
        for _ in range(entry["count"] - start_ids.get(entry["id"], 0)):
            bag_tiles.append(
                tile(entry["id"], entry["file"], "tile-back.png", (0, 0, 0), flip=True)
            )
    rng.shuffle(bag_tiles)
    objects.append(
        {
            "GUID": _guid(rng, used),
            "Name": "Bag",
            "Nickname": "Tiles",
            "Description": f"{len(bag_tiles)} tiles, face down",
            "Transform": _transform((w / 2 + 2) * u, 1.5, h / 2 * u - 2 * u),
            "ContainedObjects": bag_tiles,
        }
    )
    chips = [
        (f["colour"], f["value"], f["file"])
        for f in manifest["chips"]["fronts"]
        for _ in range(f["count"])
    ]
    rng.shuffle(chips)
    for (x, y), (colour, value, front) in zip(manifest["chips"]["layout"], chips, strict=False):
        px, pz = world(x, y)
        objects.append(
            tile(
                f"{colour} {value}",
                front,
                "chip-back.png",
                (px, 1.3, pz),
                scale=0.35,
                flip=True,
                shape=2,
            )
        )
    per = manifest["meeples_per_player"]
    for i, (colour, (r, g, b)) in enumerate(list(SEAT_COLOURS.items())[:players]):
        for k in range(per):
            objects.append(
                {
                    "GUID": _guid(rng, used),
                    "Name": "PlayerPawn",
                    "Nickname": f"{colour} meeple",
                    "Transform": _transform(
                        -(w / 2 + 2 + 0.6 * (k % 3)) * u,
                        1.5,
                        (h / 2 - 2 - 1.2 * i) * u + 0.6 * (k // 3),
                        0.5,
                    ),
                    "ColorDiffuse": {"r": r, "g": g, "b": b},
                }
            )
    save = {
        "SaveName": f"Carcassonne Maps: {m.name or m.id}",
        "GameMode": f"Carcassonne Maps: {m.name or m.id}",
        "Date": "",
        "VersionNumber": "",
        "Gravity": 0.5,
        "PlayArea": 1.0,
        "Table": "Table_Custom",
        "Note": "Exported by Carcassonne Maps Studio",
        "Rules": manifest["rules"],
        "TabStates": {
            "0": {
                "title": "Rules",
                "body": manifest["rules"],
                "color": "Grey",
                "visibleColor": {"r": 0.5, "g": 0.5, "b": 0.5},
                "id": 0,
            }
        },
        "Grid": {
            "Type": 0,
            "Lines": False,
            "Snapping": False,
            "Offset": False,
            "xSize": u,
            "ySize": u,
        },
        "SnapPoints": [
            {
                "Position": {
                    "x": round(world(x, y)[0], 4),
                    "y": 1.1,
                    "z": round(world(x, y)[1], 4),
                },
                "Rotation": {"x": 0.0, "y": 0.0, "z": 0.0},
            }
            for x, y in manifest["board"]["placeable"]
        ],
        "ObjectStates": objects,
    }
    path = out / f"{m.id or 'map'}.tts.json"
    path.write_text(json.dumps(save, indent=1) + "\n", encoding="utf-8")
    return path
