"""``python -m engine new-from-country``: writes a loadable map; clear one-line errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from engine.cli import main
from engine.geo.country import EARTH_RADIUS_KM
from engine.mapio import load_map

DEG_KM = EARTH_RADIUS_KM * math.pi / 180.0


def square_geojson(path: Path) -> Path:
    """A 400 x 300 km box centred on the equator (exact in the projection)."""
    half = math.degrees(math.asin(150.0 / EARTH_RADIUS_KM))
    w = 400.0 / DEG_KM
    ring = [[0, -half], [w, -half], [w, half], [0, half], [0, -half]]
    path.write_text(json.dumps({"type": "Polygon", "coordinates": [ring]}), encoding="utf-8")
    return path


def test_geojson_to_map(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    src = square_geojson(tmp_path / "Box.geojson")
    out = tmp_path / "box.json"
    code = main(["new-from-country", str(src), "--columns", "8", "-o", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    m = load_map(out)
    # Cropped to the land with one square of margin all round.
    assert (m.width, m.height, len(m.land)) == (10, 8, 48) and m.name == "Box"
    assert "10x8 grid, 48 squares of 50.0 km" in text
    assert main(["new-from-country", str(src), "--columns", "8", "--no-crop", "-o", str(out)]) == 0
    assert (load_map(out).width, load_map(out).height) == (8, 6)


def test_country_by_name_json_summary(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "de.json"
    code = main(
        ["new-from-country", "Germany", "--km", "40", "--min-land", "0.5", "-o", str(out), "--json"]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["map"] == "germany"
    assert data["cities"][0]["name"] == "Berlin"
    assert {"Polen", "Frankreich", "Dänemark"} <= set(data["neighbours"])  # in German
    m = load_map(out)
    assert len(m.land) == data["squares"] and m.width == data["width"]


def test_several_countries_joined_with_plus(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "bnl.json"
    argv = ["new-from-country", "Belgium+Netherlands+Luxembourg", "--km", "25", "-o", str(out)]
    assert main([*argv, "--bbox", "2.4,49.3,7.3,53.7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["neighbours"]) == {"France", "Germany"}  # three languages: English


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["Germny", "--columns", "10"], "unknown country 'Germny'"),
        (["nope.geojson", "--columns", "10"], "no such file"),
        (["Germany", "--km", "0.001"], "larger than 400x400"),
        (["Germany", "--columns", "10", "--min-land", "2"], "within 0..1"),
        (["Germany", "--columns", "10", "--bbox", "1,2,3"], "W,S,E,N"),
    ],
)
def test_bad_input_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    out = tmp_path / "x.json"
    code = main(["new-from-country", *argv, "-o", str(out)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith("error: ") and captured.err.count("\n") == 1
    assert message in captured.err
    assert not out.exists()


def test_cli_keeps_neighbour_names_land_borders_and_projection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "ch.json"
    assert main(["new-from-country", "Schweiz", "--squares", "120", "-o", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    m = load_map(out)
    assert abs(data["squares"] - 120) <= 6 and data["parts"][0] <= data["squares"]
    names = {e["name"] for e in m.editor["neighbours"]}
    assert {"Germany", "France", "Italy", "Austria"} <= names
    assert len(m.land_borders) == len(m.editor["neighbours"])
    assert {"lon0", "lat0", "km", "x0", "y0"} <= set(m.editor["projection"])


def test_cli_warns_about_far_too_many_squares(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "pl.json"
    assert main(["new-from-country", "Poland", "--km", "10", "-o", str(out), "--cities", "0"]) == 0
    err = capsys.readouterr().err
    assert "far more than a tile pool can fill" in err


def test_local_city_names_or_geonames_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "it.json"
    argv = ["new-from-country", "Italia", "--km", "60", "--cities", "3", "-o", str(out), "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in data["cities"]] == ["Roma", "Milano", "Napoli"]
    assert any("Rome → Roma" in n for n in data["notes"])
    assert main([*argv, "--geonames-names"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [c["name"] for c in data["cities"]] == ["Rome", "Milan", "Naples"]
    assert not any("→" in n for n in data["notes"])


@pytest.mark.parametrize(
    ("ring", "says"),
    [
        ([[1e308, 1e308], [-1e308, 1e308], [-1e308, -1e308], [1e308, -1e308]], "(1e+308, 1e+308)"),
        ([[0, 0], [1e308, 0], [1e308, 1], [0, 1]], "(1e+308, 0)"),
        ([[10, 40], [11, 40], [11, 95], [10, 41]], "(11, 95)"),
    ],
)
def test_an_outline_that_is_not_in_degrees_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ring: list[list[float]], says: str
) -> None:
    # coordinates near 1e308 raised a GEOS traceback deep inside the projection
    outline = tmp_path / "huge.geojson"
    polygon = {"type": "Polygon", "coordinates": [[*ring, ring[0]]]}
    outline.write_text(json.dumps({"type": "Feature", "geometry": polygon}), encoding="utf-8")
    out = tmp_path / "huge.json"
    assert main(["new-from-country", str(outline), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {outline}: geometry 0: {says} is no longitude, latitude")
    assert len(err.splitlines()) == 1 and not out.exists()
