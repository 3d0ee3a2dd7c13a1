"""engine.mapio: the map file format, its schema, migrations and every kind of bad input."""

from __future__ import annotations

import json
import os
import re
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import MapFormatError
from engine.geometry import Edge, Side
from engine.mapdef import (
    FORMAT_VERSION,
    BorderFeature,
    Colour,
    EdgeKind,
    Ferry,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    NamedRuleSet,
    RuleSet,
    Setup,
    StartSquare,
    Town,
    Track,
)
from engine.mapio import (
    MAX_FILE_BYTES,
    MIGRATIONS,
    dumps_map,
    load_map,
    loads_map,
    map_from_dict,
    map_to_dict,
    read_map,
    save_map,
)
from engine.resources import bundled_map, schema_path


def small_map() -> MapDef:
    m = MapDef(
        id="t",
        name="Test",
        width=5,
        height=4,
        land={(x, y) for x in range(5) for y in range(4)} - {(0, 0)},
    )
    m.start_squares = {(1, 1): StartSquare("A"), (3, 2): StartSquare("B")}
    m.towns = {(2, 1): Town("T", Colour.ORANGE), (2, 3): Town("U")}
    m.large_cities = {
        "c": LargeCity("c", "City", {(4, 1), (4, 2)}, 2, {Edge(4, 1, Side.W): EdgeKind.CITY})
    }
    m.border_features = {Edge(1, 0, Side.N): BorderFeature(EdgeKind.ROAD, 1, "Denmark")}
    m.ferries = {"f": Ferry("f", Edge(0, 1, Side.N), Edge(2, 0, Side.N), 1)}
    m.islands = {"i": Island("i", "Isle", Colour.PURPLE, {(0, 3): IslandSquare(IslandRole.STACK)})}
    m.waves = {(1, 3)}
    m.chip_squares = {(3, 3): Colour.LIGHT_BLUE}
    m.tracks = {1: Track(1, (0, 1)), 5: Track(5, (2, 3))}
    m.isle_of_man = (0, 0)
    m.editor = {"underlay": {"path": "x.png", "opacity": 0.5}}
    return m


def write(tmp_path: Path, text: str | bytes, name: str = "m.json") -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


# -- round trip and layout ---------------------------------------------------------------------


def test_round_trip_of_a_map_with_every_element() -> None:
    m = small_map()
    assert loads_map(dumps_map(m)) == m
    assert map_from_dict(map_to_dict(m)) == m


def test_output_is_deterministic_whatever_the_insertion_order() -> None:
    a = small_map()
    b = small_map()
    b.start_squares = dict(reversed(list(b.start_squares.items())))
    b.towns = dict(reversed(list(b.towns.items())))
    b.land = set(sorted(b.land, reverse=True))
    assert dumps_map(a) == dumps_map(b)


def test_each_element_object_is_on_one_line() -> None:
    text = dumps_map(small_map())
    lines = text.splitlines()
    assert '    {"x": 1, "y": 1, "name": "A"},' in lines
    assert (
        '    {"x": 1, "y": 0, "side": "N", "kind": "road", "coats_of_arms": 1, "neighbour": "Denmark"}'
        in lines
    )
    assert '  "squares": [' in lines
    assert '    ".####",' in lines
    # Elements sorted row by row: (2, 1) before (2, 3).
    assert text.index('"name": "T"') < text.index('"name": "U"')
    assert text.endswith("}\n")


def test_example_map_file_is_in_canonical_form() -> None:
    path = bundled_map("example-small")
    text = path.read_text(encoding="utf-8")
    assert dumps_map(loads_map(text)) == text


def test_save_and_load(tmp_path: Path) -> None:
    m = small_map()
    p = tmp_path / "out.json"
    save_map(m, p)
    assert load_map(p) == m
    assert p.read_text(encoding="utf-8") == dumps_map(m)
    assert [f.name for f in tmp_path.iterdir()] == ["out.json"]


def test_save_is_atomic_when_writing_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "out.json"
    save_map(small_map(), p)
    before = p.read_bytes()
    changed = small_map()
    changed.name = "Changed"

    def boom(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        save_map(changed, p)
    assert p.read_bytes() == before
    assert [f.name for f in tmp_path.iterdir()] == ["out.json"]  # no temp file left behind


def test_save_refuses_a_map_no_file_could_hold(tmp_path: Path) -> None:
    m = small_map()
    m.id = ""
    p = tmp_path / "out.json"
    with pytest.raises(MapFormatError, match=r"\$\.id"):
        save_map(m, p)
    assert not p.exists()
    m = small_map()
    m.land.add((7, 1))
    with pytest.raises(MapFormatError, match=r"map squares \(7, 1\) lie outside the 5x4 grid"):
        save_map(m, p)
    assert not p.exists()
    m = small_map()
    m.name = "bad \ud800"
    with pytest.raises(MapFormatError, match="UTF-8 cannot store"):
        save_map(m, p)
    assert not p.exists()
    m = small_map()
    m.editor = {"bad": object()}
    with pytest.raises(MapFormatError, match="editor"):
        save_map(m, p)
    assert not p.exists()


# -- migrations ------------------------------------------------------------------------------


def version0(**extra: Any) -> dict[str, Any]:
    return {
        "format": "carcassonne-map",
        "format_version": 0,
        "id": "old",
        "name": "Old map",
        "width": 3,
        "height": 2,
        "land": [[0, 0], [1, 0], [2, 1], [9, 9]],
        "start_squares": [{"x": 0, "y": 0, "name": "A"}],
        **extra,
    }


def test_version_0_is_migrated() -> None:
    assert 0 in MIGRATIONS
    m = map_from_dict(version0())
    assert (m.width, m.height) == (3, 2)
    assert m.land == {(0, 0), (1, 0), (2, 1)}  # (9, 9) lay outside the grid: dropped
    assert m.start_squares == {(0, 0): StartSquare("A")}
    assert map_to_dict(m)["format_version"] == FORMAT_VERSION
    assert map_to_dict(m)["squares"] == ["##.", "..#"]


def test_version_0_with_bad_land_names_the_path() -> None:
    with pytest.raises(MapFormatError, match=r"old\.json: \$\.land\[1\]: .*\[x, y\] pair"):
        map_from_dict(version0(land=[[0, 0], [1, "a"]]), source="old.json")


def test_newer_version_is_rejected_clearly() -> None:
    data = map_to_dict(small_map())
    data["format_version"] = FORMAT_VERSION + 1
    with pytest.raises(MapFormatError, match="newer than this program supports"):
        map_from_dict(data, source="new.json")


def test_version_must_be_an_integer() -> None:
    data = map_to_dict(small_map())
    data["format_version"] = "1"
    with pytest.raises(MapFormatError, match=r"\$\.format_version.*integer"):
        map_from_dict(data)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "the file is empty"),
        ("  \n\t", "the file is empty"),
        ("{nope", "not valid JSON"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"\xff\xfe{}", "invalid UTF-8"),
        ("[1, 2, 3]", "an array, expected a JSON object"),
        ('"hello"', "a string, expected a JSON object"),
        ("42", "a number, expected a JSON object"),
        ('{"id": "x"}', "not a Carcassonne map"),
        ('{"format": "carcassonne-tileset"}', "not a Carcassonne map"),
        ('{"format": "carcassonne-map", "format_version": NaN}', "NaN is not allowed"),
        ("[" * 100000 + "]" * 100000, "not valid JSON"),
    ],
)
def test_bad_content_is_one_clear_error_naming_the_file(
    tmp_path: Path, content: str | bytes, message: str
) -> None:
    p = write(tmp_path, content)
    with pytest.raises(MapFormatError) as info:
        load_map(p)
    text = str(info.value)
    assert text.startswith(str(p) + ": ")
    assert message in text
    assert "\n" not in text


def test_wrong_type_deep_inside_names_the_json_path(tmp_path: Path) -> None:
    data = map_to_dict(small_map())
    data["large_cities"][0]["edges"][0]["kind"] = "castle"
    p = write(tmp_path, json.dumps(data))
    with pytest.raises(MapFormatError) as info:
        load_map(p)
    assert info.value.path == "$.large_cities[0].edges[0].kind"
    assert str(info.value).startswith(f"{p}: $.large_cities[0].edges[0].kind: ")
    data = map_to_dict(small_map())
    data["towns"][1]["x"] = "2"
    with pytest.raises(MapFormatError) as info:
        map_from_dict(data, source="m.json")
    assert info.value.path == "$.towns[1].x"
    assert "is not of type 'integer'" in str(info.value)


def test_unknown_field_is_reported_with_its_path() -> None:
    data = map_to_dict(small_map())
    data["ferries"][0]["coats"] = 1
    with pytest.raises(MapFormatError) as info:
        map_from_dict(data)
    assert info.value.path == "$.ferries[0]"
    assert "coats" in str(info.value)


def test_rows_must_match_the_grid() -> None:
    data = map_to_dict(small_map())
    data["squares"][2] = "###"
    with pytest.raises(MapFormatError, match=r"\$\.squares\[2\]: row 2 has 3 squares, expected 5"):
        map_from_dict(data, source="m.json")
    data = map_to_dict(small_map())
    data["squares"].pop()
    with pytest.raises(MapFormatError, match=r"\$\.squares: expected 4 rows"):
        map_from_dict(data)
    data = map_to_dict(small_map())
    data["squares"][0] = "#x###"
    with pytest.raises(MapFormatError, match=r"\$\.squares\[0\]"):
        map_from_dict(data)


def test_too_large_file_is_refused_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "huge.json"
    with open(p, "wb") as fh:  # sparse: no 50 MB actually written
        fh.truncate(50 * 1024 * 1024)
    assert p.stat().st_size > MAX_FILE_BYTES
    with pytest.raises(MapFormatError, match=r"huge\.json: file is too large \(50\.0 MB"):
        load_map(p)


def test_directory_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MapFormatError, match="is a directory"):
        load_map(tmp_path)
    with pytest.raises(MapFormatError, match=r"nope\.json: no such file"):
        load_map(tmp_path / "nope.json")


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    m = small_map()
    p = write(tmp_path, b"\xef\xbb\xbf" + dumps_map(m).encode())
    assert load_map(p) == m


# -- load-time issues ------------------------------------------------------------------------


def test_read_map_reports_duplicates_and_keeps_the_last(tmp_path: Path) -> None:
    data = map_to_dict(small_map())
    data["start_squares"].append({"x": 1, "y": 1, "name": "A2"})
    data["waves"].append({"x": 1, "y": 3})
    data["border_features"].append(
        {"x": 1, "y": 0, "side": "N", "kind": "city", "coats_of_arms": 0, "neighbour": "X"}
    )
    data["large_cities"][0]["squares"].append({"x": 4, "y": 1})
    data["large_cities"][0]["edges"].append({"x": 4, "y": 1, "side": "W", "kind": "road"})
    data["ferries"].append(dict(data["ferries"][0], coats_of_arms=3))
    data["tracks"].append({"number": 1, "rows": [3]})
    p = write(tmp_path, json.dumps(data))
    m, issues = read_map(p)
    codes = sorted(i.code for i in issues)
    assert codes == [
        "duplicate-edge",
        "duplicate-edge",
        "duplicate-id",
        "duplicate-id",
        "duplicate-square",
        "duplicate-square",
        "duplicate-square",
    ]
    assert m.start_squares[(1, 1)].name == "A2"
    assert m.border_features[Edge(1, 0, Side.N)].kind is EdgeKind.CITY
    assert m.large_cities["c"].edges[Edge(4, 1, Side.W)] is EdgeKind.ROAD
    assert m.ferries["f"].coats_of_arms == 3
    assert m.tracks[1].rows == (3,)
    start_issue = next(i for i in issues if "start_squares" in i.message)
    assert start_issue.where.squares == ((1, 1),)
    assert all(i.severity == "warning" for i in issues)
    _, clean = read_map(write(tmp_path, dumps_map(small_map()), "clean.json"))
    assert clean == []


# -- schema ----------------------------------------------------------------------------------


def _walk_properties(node: Any, path: str = "$") -> list[str]:
    missing: list[str] = []
    if isinstance(node, dict):
        for name, sub in node.get("properties", {}).items():
            if "description" not in sub:
                missing.append(f"{path}.{name}")
        for key, sub in node.items():
            missing += _walk_properties(sub, f"{path}.{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            missing += _walk_properties(sub, f"{path}[{i}]")
    return missing


def test_schema_is_2020_12_with_id_title_and_descriptions_everywhere() -> None:
    import jsonschema

    schema = json.loads(schema_path("map").read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("map.schema.json")
    assert schema["title"]
    jsonschema.Draft202012Validator.check_schema(schema)
    assert _walk_properties(schema) == []
    props = schema["properties"]
    # any rule set name (the registry's are checked by the validator): the rule-set files' pattern
    from engine.rules.data.ruleset import NAME_PATTERN
    from engine.rules.registry import map_rule_set_names

    assert props["rule_set"]["anyOf"][0]["pattern"] == f"^{NAME_PATTERN}$"
    names = [r.value for r in RuleSet] + map_rule_set_names()
    assert all(re.fullmatch(NAME_PATTERN, name) for name in names)
    sides = props["border_features"]["items"]["properties"]["side"]["enum"]
    assert sides == [s.value for s in Side]
    kinds = props["large_cities"]["items"]["properties"]["edges"]["items"]["properties"]["kind"]
    assert kinds["enum"] == [k.value for k in EdgeKind]
    roles = props["islands"]["items"]["properties"]["squares"]["items"]["properties"]["role"]
    assert roles["enum"] == [r.value for r in IslandRole]
    colours = props["chip_squares"]["items"]["properties"]["colour"]["enum"]
    assert colours == [c.value for c in Colour]


def test_every_written_map_passes_the_schema() -> None:
    import jsonschema

    schema = json.loads(schema_path("map").read_text(encoding="utf-8"))
    jsonschema.validate(map_to_dict(small_map()), schema)


# -- property test -----------------------------------------------------------------------------

coord = st.integers(min_value=-3, max_value=14)
names = st.text(max_size=12)
ids = st.text(alphabet=string.ascii_lowercase + string.digits + "-", min_size=1, max_size=8)
squares = st.tuples(coord, coord)
edges = st.builds(Edge, coord, coord, st.sampled_from(list(Side)))
colours = st.sampled_from(list(Colour))
small = st.integers(min_value=0, max_value=9)
json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
json_value = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def map_defs(draw: st.DrawFn) -> MapDef:
    width = draw(st.integers(min_value=1, max_value=12))
    height = draw(st.integers(min_value=1, max_value=12))
    grid = st.tuples(
        st.integers(min_value=0, max_value=width - 1),
        st.integers(min_value=0, max_value=height - 1),
    )
    cities: dict[str, LargeCity] = {}
    for cid in draw(st.lists(ids, max_size=3, unique=True)):
        cities[cid] = LargeCity(
            cid,
            draw(names),
            draw(st.sets(squares, max_size=4)),
            draw(small),
            draw(st.dictionaries(edges, st.sampled_from(list(EdgeKind)), max_size=4)),
        )
    islands: dict[str, Island] = {}
    for iid in draw(st.lists(ids, max_size=3, unique=True)):
        islands[iid] = Island(
            iid,
            draw(names),
            draw(st.none() | colours),
            draw(
                st.dictionaries(
                    squares,
                    st.builds(IslandSquare, st.sampled_from(list(IslandRole)), small),
                    max_size=4,
                )
            ),
        )
    ferries = {
        fid: Ferry(fid, draw(edges), draw(edges), draw(small))
        for fid in draw(st.lists(ids, max_size=3, unique=True))
    }
    tracks = {
        n: Track(n, tuple(draw(st.lists(coord, max_size=4))))
        for n in draw(st.lists(st.integers(min_value=-2, max_value=14), max_size=4, unique=True))
    }
    return MapDef(
        id=draw(ids),
        name=draw(names),
        width=width,
        height=height,
        author=draw(names),
        description=draw(st.text(max_size=40)),
        rule_set=NamedRuleSet(draw(st.sampled_from([r.value for r in RuleSet]))),
        setup=Setup(draw(small), draw(small), draw(small), draw(small), draw(small)),
        square_size_mm=draw(st.floats(min_value=0.1, max_value=1000, allow_nan=False)),
        land=draw(st.sets(grid, max_size=width * height)),
        start_squares=draw(st.dictionaries(squares, st.builds(StartSquare, names), max_size=4)),
        towns=draw(
            st.dictionaries(squares, st.builds(Town, names, st.none() | colours), max_size=4)
        ),
        large_cities=cities,
        border_features=draw(
            st.dictionaries(
                edges,
                st.builds(
                    BorderFeature, st.sampled_from([EdgeKind.ROAD, EdgeKind.CITY]), small, names
                ),
                max_size=4,
            )
        ),
        ferries=ferries,
        islands=islands,
        waves=draw(st.sets(squares, max_size=4)),
        chip_squares=draw(st.dictionaries(squares, colours, max_size=4)),
        tracks=tracks,
        isle_of_man=draw(st.none() | squares),
        editor=draw(st.dictionaries(st.text(max_size=5), json_value, max_size=3)),
    )


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(map_defs())
def test_property_load_of_save_is_identity(m: MapDef) -> None:
    text = dumps_map(m)
    again = loads_map(text)
    assert again == m
    assert dumps_map(again) == text


@settings(max_examples=25, deadline=None)
@given(map_defs())
def test_property_save_map_round_trips_through_a_file(tmp_path_factory: Any, m: MapDef) -> None:
    p = tmp_path_factory.mktemp("rt") / "m.json"
    save_map(m, p)
    assert load_map(p) == m


# -- packaging -------------------------------------------------------------------------------


@pytest.mark.slow
def test_wheel_ships_the_schemas_and_maps(tmp_path: Path) -> None:
    """A non-editable install must find schemas/ and maps/ (as engine._schemas / engine._maps)."""
    import shutil
    import subprocess
    import sys
    import zipfile

    repo = Path(__file__).resolve().parents[2]
    src = tmp_path / "src"
    src.mkdir()
    # Build from a copy so the build never writes build/ or *.egg-info into the checkout.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(repo / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in ("engine", "mapeditor", "schemas", "maps"):
        shutil.copytree(repo / name, src / name, ignore=ignore)
    out = tmp_path / "dist"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(src),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    (wheel,) = out.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "engine/_schemas/map.schema.json" in names
    assert "engine/_maps/example-small.json" in names
    assert "engine/mapio.py" in names and "engine/validation.py" in names
    # every sub-package ships (pyproject lists them one by one); the repository's build tool not
    for module in ("board/placing", "analysis/simulate", "geo/draft", "rules/registry"):
        assert f"engine/{module}.py" in names, module
    assert not any(n.startswith("engine/geo/mapbuild/") for n in names)
    # And the installed layout resolves through engine.resources: unpack and load from there.
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "from engine.resources import bundled_map, schema_path\n"
        "from engine.mapio import load_map\n"
        "assert 'site' in str(schema_path('map')), schema_path('map')\n"
        "import engine.game, engine.analysis.simulate, engine.replaying\n"
        "print(load_map(bundled_map('example-small')).id)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(site), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "example-small"


def test_grid_limit_is_one_constant_that_the_schema_shares() -> None:
    """The schema's grid bounds and the engine's MAX_GRID (mapio, gridshape, country) agree."""
    from engine import gridshape, mapdef
    from engine.geo import country
    from engine.resources import bundled_map, schema_path

    schema = json.loads(schema_path("map").read_text(encoding="utf-8"))
    grid = schema["properties"]["grid"]["properties"]
    assert grid["width"]["maximum"] == grid["height"]["maximum"] == mapdef.MAX_GRID
    assert gridshape.MAX_GRID is country.MAX_GRID is mapdef.MAX_GRID
    data = json.loads(Path(bundled_map("example-small")).read_text(encoding="utf-8"))
    data["grid"]["width"] = mapdef.MAX_GRID + 1
    with pytest.raises(MapFormatError, match=f"grid.*{mapdef.MAX_GRID}"):
        map_from_dict(data)
