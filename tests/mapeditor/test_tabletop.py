"""Virtual-tabletop exports: the image pack and the Tabletop Simulator save."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import jsonschema
from PySide6.QtGui import QImage

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor import tabletop
from mapeditor.export_cli import main as export_main

SCHEMA = json.loads((Path(__file__).parent / "data" / "tts-save.schema.json").read_text())


def _objects(items):  # noqa: ANN001, ANN202
    for o in items:
        yield o
        yield from _objects(o.get("ContainedObjects", []))


def test_the_tts_save_follows_the_declarations_and_holds_the_game(qapp, tmp_path):
    m = load_map(bundled_map("deutschland"))
    path = tabletop.export_tts(m, tmp_path, seed=3)
    save = json.loads(path.read_text())
    jsonschema.Draft202012Validator(SCHEMA).validate(save)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    # a snap point on every placeable square, on the board, one per square
    points = {(p["Position"]["x"], p["Position"]["z"]) for p in save["SnapPoints"]}
    assert len(save["SnapPoints"]) == len(points) == len(m.placeable_squares())
    objects = list(_objects(save["ObjectStates"]))
    guids = [o["GUID"] for o in objects if "GUID" in o]
    assert len(guids) == len(set(guids))
    board = save["ObjectStates"][0]
    assert (
        board["Locked"] and board["Transform"]["scaleX"] / board["Transform"]["scaleZ"] == 16 / 21
    )
    # the whole tile pool: start tiles on the board, the others in the bag, face down
    (bag,) = [o for o in save["ObjectStates"] if o["Name"] == "Bag"]
    pool = sum(t["count"] for t in manifest["tiles"])
    assert len(bag["ContainedObjects"]) + len(manifest["start_tiles"]) == pool
    assert all(t["Transform"]["rotZ"] == 180.0 for t in bag["ContainedObjects"])
    # Deutschland's 30 chips face down on the layout's squares, every value of the supply
    chips = [
        o
        for o in save["ObjectStates"]
        if o.get("CustomImage", {}).get("CustomTile", {}).get("Type") == 2
    ]
    assert len(chips) == len(manifest["chips"]["layout"]) == 30
    assert sorted(c["Nickname"] for c in chips) == sorted(
        f"{f['colour']} {f['value']}"
        for f in manifest["chips"]["fronts"]
        for _ in range(f["count"])
    )
    pawns = [o for o in save["ObjectStates"] if o["Name"] == "PlayerPawn"]
    assert len(pawns) == 5 * manifest["meeples_per_player"]
    assert save["TabStates"]["0"]["body"].startswith("Carcassonne Maps: Deutschland")
    # every image the save names exists, is RGB and at most 4,096 px a side
    urls = {
        o["CustomImage"][k]
        for o in objects
        if "CustomImage" in o
        for k in ("ImageURL", "ImageSecondaryURL")
    }
    for url in urls:
        image = QImage(unquote(urlparse(url).path))
        assert not image.isNull(), url
        assert not image.hasAlphaChannel(), url  # RGB: TTS loads no CMYK, and no alpha here
        assert max(image.width(), image.height()) <= tabletop.MAX_SIDE


def test_the_asset_pack_has_a_known_pixel_size_per_square(qapp, tmp_path):
    assert export_main(["france", str(tmp_path / "pack"), "--format", "assets"]) == 0
    manifest = json.loads((tmp_path / "pack" / "manifest.json").read_text())
    board = QImage(str(tmp_path / "pack" / manifest["board"]["file"]))
    px = manifest["board"]["px_per_square"]
    assert (board.width(), board.height()) == (23 * px, 22 * px)
    assert not board.hasAlphaChannel()
    assert manifest["chips"]["back"] == "chip-back.png"  # France has chips
    assert all((tmp_path / "pack" / t["file"]).is_file() for t in manifest["tiles"])


def test_a_url_base_names_the_uploaded_pack(qapp, tmp_path):
    m = load_map(bundled_map("example-small"))
    save = json.loads(
        tabletop.export_tts(m, tmp_path, url_base="https://example.org/pack").read_text()
    )
    board = save["ObjectStates"][0]
    assert board["CustomImage"]["ImageURL"] == "https://example.org/pack/board.png"


def test_tabletop_formats_write_a_folder(tmp_path, capsys):
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert export_main(["france", str(f), "--format", "tts"]) == 2
    assert "not a folder" in capsys.readouterr().err
