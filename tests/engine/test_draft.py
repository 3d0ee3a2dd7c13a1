"""A playable first draft in one command: ``new-from-country NAME --draft`` for Italy, Poland,
Switzerland, Japan and Denmark writes a cropped map that validates without errors and plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.bots import make_bot, play_game
from engine.cli import main
from engine.game import Game, GameOptions
from engine.geo.country import import_country
from engine.geo.draft import default_roles, make_draft
from engine.geometry import all_neighbours
from engine.gridshape import content_bounds
from engine.islands import coastal_edges, land_parts
from engine.mapdef import MapDef
from engine.mapio import load_map
from engine.validation import Severity, reachable_squares, validate_map

COUNTRIES = ["Italia", "Polska", "Suisse", "Nippon", "Danmark"]


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[MapDef, dict]]:
    out: dict[str, tuple[MapDef, dict]] = {}
    folder = tmp_path_factory.mktemp("drafts")
    for name in COUNTRIES:
        path = folder / f"{name}.json"
        code = main(["new-from-country", name, "--draft", "-o", str(path), "--json"])
        assert code == 0
        out[name] = (load_map(path), {})
    return out


@pytest.mark.parametrize("name", COUNTRIES)
def test_draft_validates_and_is_cropped(drafts, name: str) -> None:
    m, _ = drafts[name]
    errors = [str(i) for i in validate_map(m) if i.severity is Severity.ERROR]
    assert errors == []
    # Cropped: one square of outside all round, no more.
    assert content_bounds(m) == (1, 1, m.width - 2, m.height - 2)
    placeable = m.placeable_squares()
    assert 140 <= len(placeable) <= 230  # sized for a 110-120 tile pool...
    assert m.setup.tile_pool_max <= len(placeable)  # ...and the pool follows the size
    assert 1.4 <= len(placeable) / ((m.setup.tile_pool_min + m.setup.tile_pool_max) / 2) <= 1.8
    assert len(m.start_squares) == 3 and len(m.large_cities) >= 2 and len(m.towns) >= 10
    assert reachable_squares(m) == placeable  # ferries reach every island
    assert m.editor.get("neighbours") or name == "Nippon"


@pytest.mark.parametrize("name", COUNTRIES)
def test_draft_plays_a_random_game(drafts, name: str) -> None:
    m, _ = drafts[name]
    game = Game(m, players=2, seed=5, options=GameOptions(rule_set="none"))
    play_game(game, [make_bot("random", seed=1), make_bot("random", seed=2)])
    assert game.is_over() and len(game.board.tiles) > 50


def test_islands_get_ferries_and_borders_get_roads(drafts) -> None:
    it, _ = drafts["Italia"]
    dk, _ = drafts["Danmark"]
    jp, _ = drafts["Nippon"]
    assert len(land_parts(it)) >= 3 and len(it.ferries) >= 2  # Sicily, Sardinia
    assert len(land_parts(jp)) >= 4 and len(jp.ferries) >= 3  # Kyushu, Shikoku, Hokkaido
    assert len(dk.ferries) >= 2  # Zealand, Funen, Bornholm
    neighbours = {f.neighbour for f in it.border_features.values()}
    assert {"Francia", "Svizzera", "Austria"} <= neighbours  # in the map's language
    pl, _ = drafts["Polska"]
    assert {"Niemcy", "Czechy"} <= {f.neighbour for f in pl.border_features.values()}
    assert {f.neighbour for f in dk.border_features.values()} == {"Tyskland"}  # not over the sea
    for m in (it, pl, dk):  # border features on land borders only
        assert set(m.border_features) <= m.land_borders
    for m in (it, pl):  # land borders recorded, and no ferry lands on one
        assert m.land_borders
        ends = {e for f in m.ferries.values() for e in (f.a, f.b)}
        assert not ends & m.land_borders


def test_default_roles_keep_large_cities_apart_and_spread_starts() -> None:
    imp = import_country("Japan", km=43.4, crop=1, keep_small_parts=True)
    roles = default_roles(imp.map, imp.cities)
    large = [c.square for c, r in zip(imp.cities, roles, strict=True) if r == "large city"]
    assert "Tokyo" in {c.name for c, r in zip(imp.cities, roles, strict=True) if r == "large city"}
    assert "Yokohama" not in {
        c.name for c, r in zip(imp.cities, roles, strict=True) if r == "large city"
    }
    for a in large:
        assert not set(all_neighbours(a)) & set(large)
    starts = [c.square for c, r in zip(imp.cities, roles, strict=True) if r == "start square"]
    assert len(starts) == 3
    main_part = land_parts(imp.map)[0]
    assert all(s in main_part for s in starts)
    closest = min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in starts for b in starts if a != b)
    assert closest >= 5


def test_draft_cli_prints_parts_and_notes(tmp_path: Path, capsys) -> None:
    out = tmp_path / "dk.json"
    assert main(["new-from-country", "Denmark", "--draft", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "land parts:" in text and "draft: 3 start squares" in text
    assert "ferry ferry-" in text and "notes:" in text
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format_version"] == 2 and data["land_borders"]


def test_draft_of_a_geojson_without_neighbours_still_validates(tmp_path: Path) -> None:
    from shapely.geometry import box

    imp = import_country(box(10.0, 45.0, 14.0, 47.5), km=25.0, crop=1, neighbours=False)
    d = make_draft(imp)
    assert [i for i in validate_map(d.map) if i.severity is Severity.ERROR] == []


def test_unreachable_square_issue_names_the_ferry_that_fixes_it() -> None:
    from engine.mapdef import StartSquare

    m = MapDef(id="m", name="M", width=9, height=3, land={(1, 1), (2, 1), (6, 1), (7, 1)})
    m.start_squares[(1, 1)] = StartSquare("A")
    issue = next(i for i in validate_map(m) if i.code == "unreachable-square")
    assert "a ferry from (2, 1) E to (6, 1) W would fix it" in issue.message
    m.land_borders = set(coastal_edges(m))
    issue = next(i for i in validate_map(m) if i.code == "unreachable-square")
    assert "ferry" not in issue.message  # only land borders around: no sea to cross
