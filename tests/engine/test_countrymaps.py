"""The shipped maps: every file loads and validates; the five country maps carry what the rule
sheets name, are sized for their tile pool, take their chips for every start choice, and are
reproduced byte for byte by ``engine.geo.mapbuild.countrymaps`` from the committed import results."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.bots import make_bot, play_game
from engine.chips import ChipReading, check_layout, feasibility, generate_layout, start_choices
from engine.game import Game, GameOptions
from engine.geo.mapbuild.countrymaps import (
    COUNTRIES,
    build_all,
    dumps_rasters,
    import_all,
    load_rasters,
    main,
    rasters_path,
    readme_table,
)
from engine.geometry import Edge, Side
from engine.mapdef import Colour, EdgeKind, IslandRole, MapDef
from engine.mapio import load_map
from engine.resources import bundled_map, shipped_maps
from engine.validation import Severity, validate_map

COUNTRY_IDS = sorted(COUNTRIES)


def _map(cid: str) -> MapDef:
    return load_map(bundled_map(cid))


def _start_names(m: MapDef) -> set[str]:
    return {s.name for s in m.start_squares.values()}


def _city_names(m: MapDef) -> set[str]:
    return {c.name for c in m.large_cities.values()}


def _town_names(m: MapDef) -> set[str]:
    return {t.name for t in m.towns.values()}


def _city(m: MapDef, name: str):
    return next(c for c in m.large_cities.values() if c.name == name)


@pytest.mark.parametrize("path", shipped_maps(), ids=lambda p: p.stem)
def test_every_shipped_map_loads_and_validates_without_errors(path) -> None:
    m = load_map(path)
    errors = [i for i in validate_map(m) if i.severity is Severity.ERROR]
    assert errors == []


def test_all_five_country_maps_are_shipped() -> None:
    stems = {p.stem for p in shipped_maps()}
    assert set(COUNTRY_IDS) <= stems
    assert COUNTRY_IDS == ["benelux", "deutschland", "france", "great-britain", "iberica"]


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_country_maps_have_no_warnings_either(cid: str) -> None:
    # Their descriptions say so.
    assert validate_map(_map(cid)) == []
    assert "no errors and no warnings" in _map(cid).description


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_build_reproduces_the_shipped_file_byte_for_byte(cid: str) -> None:
    built = build_all(load_rasters(), only=[cid])
    assert built[cid] == bundled_map(cid).read_text(encoding="utf-8")


def test_importing_the_outlines_again_reproduces_the_rasters_and_the_maps() -> None:
    # Stage 1 (Natural Earth via the geo libraries of the test extra) gives the committed grid,
    # land and neighbours (the projection up to float rounding), and stage 2 the shipped files.
    fresh, committed = import_all(), load_rasters()
    assert sorted(fresh) == sorted(committed) == COUNTRY_IDS
    for cid in COUNTRY_IDS:
        a, b = fresh[cid], committed[cid]
        assert (a.width, a.height, a.land, a.neighbours) == (
            b.width,
            b.height,
            b.land,
            b.neighbours,
        )
        assert a.projection == pytest.approx(b.projection, rel=1e-9, abs=1e-6)
    shipped = {cid: bundled_map(cid).read_text(encoding="utf-8") for cid in COUNTRY_IDS}
    assert build_all(fresh) == shipped


def test_rasters_round_trip_through_their_json() -> None:
    committed = load_rasters()
    text = rasters_path().read_text(encoding="utf-8")
    assert dumps_rasters(committed) == text


def test_build_command_writes_the_same_files(tmp_path, capsys) -> None:
    assert main(["build", "--out", str(tmp_path), "--only", "benelux", "iberica"]) == 0
    for cid in ("benelux", "iberica"):
        assert (tmp_path / f"{cid}.json").read_bytes() == bundled_map(cid).read_bytes()
    assert main(["check"]) == 0
    assert capsys.readouterr().out.count("reproduced:") == 5


def test_check_command_reports_a_changed_file(tmp_path, capsys) -> None:
    assert main(["build", "--out", str(tmp_path), "--only", "france"]) == 0
    assert main(["check", "--out", str(tmp_path), "--only", "france"]) == 0
    path = tmp_path / "france.json"
    path.write_text(path.read_text(encoding="utf-8").replace("Nancy", "Nanci"), encoding="utf-8")
    assert main(["check", "--out", str(tmp_path), "--only", "france"]) == 1
    assert f"differs: {path}" in capsys.readouterr().out


def test_commands_reject_an_unknown_map(capsys) -> None:
    assert main(["check", "--only", "nowhere"]) == 1
    assert "unknown country map 'nowhere'" in capsys.readouterr().err


def test_readme_table_lists_every_country_map() -> None:
    table = readme_table({cid: _map(cid) for cid in COUNTRY_IDS})
    assert table.count("\n") == 2 + len(COUNTRY_IDS)
    assert "| [Deutschland](maps/deutschland.json) |" in table
    assert "30 on fixed chip squares" in table


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_description_says_it_is_our_rendition_and_which_rules(cid: str) -> None:
    m = _map(cid)
    assert "Our own rendition" in m.description
    assert "Map-Chips" in m.description
    assert m.author


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_board_size_suits_the_recommended_tile_pool(cid: str) -> None:
    m = _map(cid)
    placeable = len(m.placeable_squares())
    # Room to spare for the largest pool, yet filled up in a game with the smallest.
    assert 1.4 * m.setup.tile_pool_max <= placeable <= 1.8 * m.setup.tile_pool_min


@pytest.mark.parametrize("cid", [c for c in COUNTRY_IDS if c != "great-britain"])
@pytest.mark.parametrize("reading", list(ChipReading))
def test_chip_count_fits_every_choice_of_start_squares(cid: str, reading: ChipReading) -> None:
    m = _map(cid)
    result = feasibility(m, reading)
    n = len(m.start_squares)
    k = m.setup.start_squares_used
    assert len(result) == {(3, 2): 3, (4, 3): 4}[(n, k)]
    assert min(result.values()) >= m.setup.chip_count > 0


@pytest.mark.parametrize("cid", [c for c in COUNTRY_IDS if c != "great-britain"])
def test_an_even_chip_layout_exists_for_every_choice_of_start_squares(cid: str) -> None:
    m = _map(cid)
    for starts in start_choices(m):
        layout = generate_layout(m, starts, m.setup.chip_count, seed=3)
        assert len(layout) == m.setup.chip_count
        assert check_layout(m, layout, starts, ChipReading.OPEN_SIDES) == []


def test_deutschland_carries_the_sheet_names() -> None:
    m = _map("deutschland")
    assert m.rule_set.name == "deutschland"
    assert _start_names(m) == {"Rostock", "Erfurt", "Stuttgart"}
    assert _city_names(m) >= {"Hamburg", "Berlin", "Hannover", "Ruhrgebiet", "Frankfurt", "München"}
    assert _town_names(m) >= {"Bremen", "Saarbrücken", "Nürnberg"}
    berlin = _city(m, "Berlin")
    west = [e for e in berlin.outer_edges() if e.side is Side.W]
    assert any(berlin.edge_kind(e) in (EdgeKind.CITY, EdgeKind.ROAD) for e in west)
    denmark = [f for f in m.border_features.values() if f.neighbour == "Denmark"]
    assert any(f.kind is EdgeKind.ROAD and f.coats_of_arms > 0 for f in denmark)
    kinds = {f.kind for f in m.border_features.values()}
    assert kinds == {EdgeKind.ROAD, EdgeKind.CITY}
    assert (m.setup.start_squares_used, m.setup.chip_count) == (2, 30)


def test_france_carries_grapes_and_export_borders() -> None:
    m = _map("france")
    assert _start_names(m) == {"Nancy", "Le Mans", "Limoges"}
    assert "Paris" in _city_names(m) and len(m.large_cities) >= 3
    grapes = {t.name: t.grape for t in m.towns.values()}
    assert grapes["Nancy"] is Colour.ORANGE
    assert {"Bordeaux", "Strasbourg"} <= set(grapes)
    assert all(g is not None for g in grapes.values())
    assert {g for g in grapes.values()} == set(Colour)
    export = [f for f in m.border_features.values() if f.coats_of_arms > 0]
    assert len(export) >= 6
    assert {f.kind for f in export} == {EdgeKind.ROAD, EdgeKind.CITY}


def test_benelux_has_waves_and_three_frisian_islands() -> None:
    m = _map("benelux")
    assert _start_names(m) == {"Meppel", "Eindhoven", "Charleroi"}
    assert "Amsterdam" in _city_names(m)
    assert "Utrecht" in _town_names(m)
    assert len(m.waves) == 3
    stacks = {
        i.colour: [sq for sq, s in i.squares.items() if s.role is IslandRole.STACK]
        for i in m.islands.values()
    }
    assert set(stacks) == set(Colour)
    assert all(len(v) == 2 for v in stacks.values())
    assert m.setup.chip_count == 20


def test_great_britain_has_ferries_chip_squares_and_the_isle_of_man() -> None:
    m = _map("great-britain")
    assert _start_names(m) == {"Kilkenny", "Carlisle", "Bristol"}
    assert "London" in _city_names(m)
    assert "Oxford" in _town_names(m)
    assert {"holyhead-dublin", "stranraer-belfast"} <= set(m.ferries)
    for colour in Colour:
        assert sum(1 for c in m.chip_squares.values() if c is colour) == 10
    assert m.isle_of_man is not None and m.isle_of_man not in m.land
    assert (m.setup.start_squares_used, m.setup.tile_pool_min, m.setup.tile_pool_max) == (
        3,
        90,
        100,
    )
    # Scotland above England: every blue chip square lies north of every purple one.
    blue = [y for (_, y), c in m.chip_squares.items() if c is Colour.LIGHT_BLUE]
    purple = [y for (_, y), c in m.chip_squares.items() if c is Colour.PURPLE]
    orange = [x for (x, _), c in m.chip_squares.items() if c is Colour.ORANGE]
    assert max(blue) < min(purple)
    assert max(orange) < min(x for (x, _), c in m.chip_squares.items() if c is Colour.PURPLE)


def test_iberica_has_tracks_and_ferried_balearics() -> None:
    m = _map("iberica")
    assert _start_names(m) == {"León", "Pamplona", "Évora", "Murcia"}
    assert {"Barcelona", "Madrid", "Lisboa"} <= _city_names(m)
    assert "Salamanca" in _town_names(m)
    assert sorted(m.tracks) == list(range(1, 13))
    # Every row of the grid, in order: 1-4 (orange) on top, 9-12 (purple) at the bottom.
    covered = [r for t in sorted(m.tracks) for r in m.tracks[t].rows]
    assert covered == list(range(m.height))
    gated = m.gated_squares()
    assert gated and all(m.island_square(sq)[1].coats_of_arms > 0 for sq in gated)
    landings = {e.square for f in m.ferries.values() for e in (f.a, f.b)}
    for island in m.islands.values():
        assert set(island.squares) & landings, island.name
    assert (m.setup.start_squares_used, m.setup.chip_count) == (3, 30)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_full_random_bot_game_with_plain_maps_rules(cid: str, seed: int) -> None:
    m = _map(cid)
    game = Game(m, players=3, seed=seed, options=GameOptions(rule_set="none"))
    rng = random.Random(seed)
    while not game.is_over():
        game.play(rng.choice(list(game.legal_moves())))
    assert game.outcome() is not None
    assert game.tiles_left() == 0
    placed = set(game.board.tiles)
    # without Map-Chips the prints are ignored (engine/RULES.md): Benelux waves and stacks too
    placeable = set(game.board.layout.placeable)
    assert placed <= placeable and m.placeable_squares() <= placeable
    # The whole recommended pool (capped by the 114 tiles of base+ic+tb) was played out...
    assert len(placed) + len(game.set_aside) == min(114, m.setup.tile_pool_max)
    # ...on a board with room to spare.
    assert len(placed) < len(placeable)


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_a_bot_game_from_every_choice_of_start_squares(cid: str) -> None:
    m = _map(cid)
    choices = start_choices(m)
    assert choices
    for i, starts in enumerate(choices):
        options = GameOptions(rule_set="none", start_squares=starts)
        game = Game(m, players=2, seed=10 + i, options=options)
        rng = random.Random(i)
        while not game.is_over():
            game.play(rng.choice(list(game.legal_moves())))
        assert set(starts) <= set(game.board.tiles)
        assert game.tiles_left() == 0


def test_readme_shows_the_current_table() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert readme_table({cid: _map(cid) for cid in COUNTRIES}) in readme


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_greedy_bot_against_random_bot_with_plain_maps_rules(cid: str) -> None:
    m = _map(cid)
    game = Game(m, players=2, seed=3, options=GameOptions(rule_set="none"))
    play_game(game, [make_bot("greedy", seed=1), make_bot("random", seed=2)])
    assert game.is_over() and game.tiles_left() == 0
    assert len(game.board.tiles) + len(game.set_aside) == min(114, m.setup.tile_pool_max)
    assert game.scores[0] > game.scores[1]


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_full_bot_game_with_the_maps_own_map_chips_rules(cid: str) -> None:
    m = _map(cid)
    game = Game(m, players=3, seed=4)  # the map's rule set is the default
    state = game.rule_state[m.rule_set.name]
    used = [sq for sq, _, _ in game.start_tiles]
    assert len(used) == m.setup.start_squares_used
    if m.rule_set.name == "great_britain":
        assert {sq: state.chip(c).colour for sq, c in state.down.items()} == m.chip_squares
    else:
        assert len(state.down) == m.setup.chip_count
        assert check_layout(m, state.down, used, ChipReading.OPEN_SIDES) == []
    bots = [make_bot("greedy", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]
    play_game(game, bots)
    assert game.is_over() and game.tiles_left() == 0
    assert set(game.board.tiles) <= m.placeable_squares()
    assert sum(state.counts()) == 30
    assert any(e.kind == "chip" for e in game.events)
    if m.rule_set.name == "iberica":
        # Treats lie face up in the tracks of their colour.
        for sq, c in state.up.items():
            assert m.track_of_row(sq[1]).colour is state.chip(c).colour


@pytest.mark.parametrize("cid", COUNTRY_IDS)
def test_editor_settings_name_the_neighbour_beyond_every_border_feature(cid: str) -> None:
    m = _map(cid)
    names = {
        (i["x"], i["y"], i["side"]): i["name"] for i in m.editor["neighbours"]
    }  # the editor's saved form of "New map from country"
    for (x, y, side), name in names.items():
        assert (x, y) in m.land and name
        assert Edge(x, y, Side(side)).outer_square not in m.land
    for e, f in m.border_features.items():
        assert names[(e.x, e.y, e.side.value)] == f.neighbour
