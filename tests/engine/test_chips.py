"""Map-Chips setup: allowed squares, checker (one test per rule), generator, exact maximum."""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.chips import (
    RULE_CODES,
    ChipReading,
    _Board,
    allowed_squares,
    check_layout,
    evenness,
    feasibility,
    forbidden_squares,
    generate_layout,
    max_chips,
    maximum_layout,
    start_choices,
)
from engine.errors import EngineError
from engine.geometry import Edge, Side, Square, orthogonal_neighbours
from engine.mapdef import (
    EdgeKind,
    Island,
    IslandRole,
    IslandSquare,
    LargeCity,
    MapDef,
    NamedRuleSet,
    StartSquare,
    Town,
)
from engine.rules.registry import chip_rule_codes, map_chip_layout

OPEN = ChipReading.OPEN_SIDES
ANY = ChipReading.ANY_CITY_SQUARE


def grid_map(width: int = 12, height: int = 10, rule_set: str = "deutschland") -> MapDef:
    """An all-land map with 3 start squares, a town and a 2-square city open to the north only."""
    m = MapDef(id="t", name="T", width=width, height=height, rule_set=NamedRuleSet(rule_set))
    m.land = {(x, y) for x in range(width) for y in range(height)}
    m.start_squares = {(1, 1): StartSquare("Rostock"), (10, 1): StartSquare("Erfurt")}
    m.start_squares[(1, 8)] = StartSquare("Stuttgart")
    m.towns = {(8, 8): Town("Ulm")}
    city = LargeCity("berlin", "Berlin", {(5, 5), (6, 5)})
    city.edges = {Edge(5, 5, Side.N): EdgeKind.CITY, Edge(6, 5, Side.E): EdgeKind.ROAD}
    m.large_cities = {"berlin": city}
    return m


def rules_of(violations: list) -> set[tuple[str, Square | None]]:
    return {(v.rule, v.square) for v in violations}


def brute_max_independent(squares: set[Square]) -> int:
    """Maximum independent set of the orthogonal-adjacency graph, by exhaustive branching."""

    @cache
    def best(rest: frozenset[Square]) -> int:
        if not rest:
            return 0
        v = min(rest)
        without = best(rest - {v})
        with_v = 1 + best(rest - {v} - set(orthogonal_neighbours(v)))
        return max(without, with_v)

    return best(frozenset(squares))


# -- allowed squares and the two readings -----------------------------------------------------


def test_allowed_squares_exclude_towns_starts_cities_and_their_surroundings() -> None:
    m = grid_map()
    used = [(1, 1), (10, 1)]
    allowed = allowed_squares(m, used, OPEN)
    for sq in [(1, 1), (10, 1), (1, 8), (8, 8), (5, 5), (6, 5)]:
        assert sq not in allowed  # towns (every start square, used or not) and the city
    for sq in orthogonal_neighbours((1, 1)) + orthogonal_neighbours((10, 1)):
        assert sq not in allowed  # next to a used start square
    assert (1, 7) in allowed  # next to the unused start square Stuttgart: fine
    assert (5, 4) not in allowed  # across Berlin's open (city) side
    assert (7, 5) in allowed  # across a road side
    assert (5, 6) in allowed  # across a field side
    assert forbidden_squares(m, used, OPEN) == m.land - allowed


def test_any_city_square_reading_forbids_every_square_next_to_the_city() -> None:
    m = grid_map()
    allowed = allowed_squares(m, [(1, 1), (10, 1)], ANY)
    for sq in [(5, 4), (6, 4), (4, 5), (7, 5), (5, 6), (6, 6)]:
        assert sq not in allowed
    assert allowed < allowed_squares(m, [(1, 1), (10, 1)], OPEN)


def test_reading_accepts_its_string_value() -> None:
    m = grid_map()
    assert allowed_squares(m, [(1, 1)], "any_city_square") == allowed_squares(m, [(1, 1)], ANY)


def test_unknown_used_start_is_a_clear_error() -> None:
    m = grid_map()
    with pytest.raises(EngineError, match=r"\(3, 3\) is not a start square.*Rostock"):
        allowed_squares(m, [(3, 3)], OPEN)


def test_waves_stacks_and_balearics_only_on_iberica() -> None:
    m = grid_map(rule_set="benelux")
    m.waves = {(3, 3)}
    m.islands = {
        "a": Island("a", "A", squares={(9, 5): IslandSquare(IslandRole.STACK)}),
        "b": Island("b", "Mallorca", squares={(10, 7): IslandSquare(IslandRole.GATED, 2)}),
    }
    allowed = allowed_squares(m, [], OPEN, chip_layout=map_chip_layout(m))
    assert (3, 3) not in allowed and (9, 5) not in allowed
    assert (10, 7) in allowed  # gated squares are only barred on Península Ibérica
    m.rule_set = NamedRuleSet("iberica")
    iberica = map_chip_layout(m)
    assert iberica is not None and iberica.excluded_code == "chip-on-balearic"
    assert (10, 7) not in allowed_squares(m, [], OPEN, chip_layout=iberica)
    # the layout is a value: the same map without it excludes nothing
    assert (10, 7) in allowed_squares(m, [], OPEN)


def test_squares_outside_the_grid_are_never_allowed() -> None:
    m = grid_map(4, 4)
    m.start_squares = {}
    m.towns = {}
    m.large_cities = {}
    m.land.add((7, 7))
    assert (7, 7) not in allowed_squares(m, [], OPEN)


# -- checker: one test per rule ---------------------------------------------------------------


def test_valid_layout_has_no_violations() -> None:
    m = grid_map()
    assert check_layout(m, [(3, 3), (4, 4), (0, 6)], [(1, 1), (10, 1)], OPEN, expected=3) == []


@pytest.mark.parametrize(
    ("chips", "rule", "square"),
    [
        ([(3, 3), (3, 3)], "chip-duplicate", (3, 3)),
        ([(12, 3)], "chip-off-map", (12, 3)),
        ([(5, 5)], "chip-on-large-city", (5, 5)),
        ([(8, 8)], "chip-on-town", (8, 8)),
        ([(1, 8)], "chip-on-town", (1, 8)),  # an unused start square is still a town
        ([(1, 2)], "chip-next-to-start", (1, 2)),
        ([(5, 4)], "chip-next-to-open-side", (5, 4)),
        ([(3, 3), (3, 4)], "chip-adjacent", (3, 3)),
    ],
)
def test_each_broken_rule_is_named_with_its_square(
    chips: list[Square], rule: str, square: Square
) -> None:
    m = grid_map()
    found = check_layout(m, chips, [(1, 1), (10, 1)], OPEN)
    assert (rule, square) in rules_of(found)
    assert all(v.rule in RULE_CODES for v in found)
    assert RULE_CODES.keys() < chip_rule_codes().keys()
    message = next(v.message for v in found if v.rule == rule)
    assert str(square) in message


def test_adjacent_pair_is_reported_once_naming_both_squares() -> None:
    found = check_layout(grid_map(), [(3, 4), (3, 3)], [], OPEN)
    assert [(v.rule, v.square) for v in found] == [("chip-adjacent", (3, 3))]
    assert "(3, 4)" in found[0].message


def test_chip_next_to_unused_start_is_fine() -> None:
    assert check_layout(grid_map(), [(1, 7)], [(1, 1), (10, 1)], OPEN) == []


def test_chip_across_road_or_field_side_is_fine_in_open_sides_reading_only() -> None:
    m = grid_map()
    assert check_layout(m, [(7, 5), (5, 6)], [], OPEN) == []
    found = check_layout(m, [(7, 5), (5, 6)], [], ANY)
    assert rules_of(found) == {
        ("chip-next-to-large-city", (7, 5)),
        ("chip-next-to-large-city", (5, 6)),
    }
    assert "Berlin" in found[0].message


def test_chip_on_wave_stack_and_balearic() -> None:
    m = grid_map(rule_set="iberica")
    m.waves = {(3, 3)}
    m.islands = {
        "a": Island("a", "A", squares={(9, 5): IslandSquare(IslandRole.STACK)}),
        "b": Island("b", "Mallorca", squares={(10, 7): IslandSquare(IslandRole.GATED, 2)}),
    }
    layout = map_chip_layout(m)
    found = rules_of(check_layout(m, [(3, 3), (9, 5), (10, 7)], [], OPEN, chip_layout=layout))
    assert found == {
        ("chip-on-wave", (3, 3)),
        ("chip-on-stack", (9, 5)),
        ("chip-on-balearic", (10, 7)),
    }


def test_chip_on_a_square_of_the_grid_that_is_not_map() -> None:
    m = grid_map()
    m.land.discard((0, 0))
    found = check_layout(m, [(0, 0), (-1, 4)], [], OPEN)
    assert rules_of(found) == {("chip-off-map", (0, 0)), ("chip-off-map", (-1, 4))}


def test_wrong_count_against_expected() -> None:
    found = check_layout(grid_map(), [(3, 3)], [], OPEN, expected=30)
    assert [(v.rule, v.square) for v in found] == [("chip-count", None)]
    assert "expected 30" in found[0].message


def test_checker_and_allowed_squares_agree_on_single_chips() -> None:
    m = grid_map()
    used = [(1, 1), (10, 1)]
    for reading in ChipReading:
        allowed = allowed_squares(m, used, reading)
        for sq in sorted(m.land):
            assert (check_layout(m, [sq], used, reading) == []) == (sq in allowed)


# -- exact maximum ----------------------------------------------------------------------------


def test_max_chips_of_a_full_grid_is_half_rounded_up() -> None:
    m = MapDef(id="g", name="G", width=5, height=5)
    m.land = {(x, y) for x in range(5) for y in range(5)}
    assert max_chips(m, [], OPEN) == 13
    layout = maximum_layout(m, [], OPEN)
    assert len(layout) == 13 and check_layout(m, layout, [], OPEN) == []


@st.composite
def small_maps(draw: st.DrawFn) -> MapDef:
    width = draw(st.integers(1, 6))
    height = draw(st.integers(1, 6))
    cells = [(x, y) for y in range(height) for x in range(width)]
    land = draw(st.sets(st.sampled_from(cells), max_size=len(cells)))
    m = MapDef(id="r", name="R", width=width, height=height, rule_set=NamedRuleSet("france"))
    m.land = set(land)
    ordered = sorted(land)
    if ordered and draw(st.booleans()):
        m.start_squares = {draw(st.sampled_from(ordered)): StartSquare("S")}
    if ordered and draw(st.booleans()):
        sq = draw(st.sampled_from(ordered))
        if sq not in m.start_squares:
            city = LargeCity("c", "C", {sq})
            city.edges = {
                Edge(*sq, side): EdgeKind.CITY
                for side in draw(st.sets(st.sampled_from(list(Side))))
            }
            m.large_cities = {"c": city}
    return m


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_maps(), st.sampled_from(list(ChipReading)))
def test_max_chips_equals_brute_force(m: MapDef, reading: ChipReading) -> None:
    used = list(m.start_squares)
    allowed = allowed_squares(m, used, reading)
    best = brute_max_independent(allowed)
    assert max_chips(m, used, reading) == best
    witness = maximum_layout(m, used, reading)
    assert len(witness) == best
    assert check_layout(m, witness, used, reading) == []


def test_max_chips_on_random_larger_grids_matches_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(20):
        m = MapDef(id="r", name="R", width=7, height=5)
        m.land = {(x, y) for x in range(7) for y in range(5) if rng.random() < 0.75}
        assert max_chips(m, [], OPEN) == brute_max_independent(allowed_squares(m, [], OPEN))


def test_max_chips_handles_a_long_path_without_recursion_limits() -> None:
    # A 1-wide snake of 6000 squares: a deep alternating structure for a recursive matcher.
    m = MapDef(id="snake", name="Snake", width=3000, height=3)
    m.land = {(x, 0) for x in range(3000)} | {(x, 2) for x in range(3000)} | {(2999, 1)}
    assert max_chips(m, [], OPEN) == 3001  # a path of 6001 squares: every other one


# -- start choices and feasibility ------------------------------------------------------------


def test_start_choices_are_all_combinations_of_the_used_count() -> None:
    m = grid_map()
    m.setup.start_squares_used = 2
    assert start_choices(m) == [((1, 1), (1, 8)), ((1, 1), (10, 1)), ((1, 8), (10, 1))]
    m.setup.start_squares_used = 3  # Great Britain: all three
    assert start_choices(m) == [((1, 1), (1, 8), (10, 1))]
    m.setup.start_squares_used = 4
    assert start_choices(m) == []


def test_feasibility_is_exact_per_choice() -> None:
    m = grid_map()
    m.setup.start_squares_used = 2
    result = feasibility(m, OPEN)
    assert set(result) == set(start_choices(m))
    for choice, best in result.items():
        assert best == max_chips(m, choice, OPEN)
        assert best == len(maximum_layout(m, choice, OPEN))


def test_feasibility_on_random_maps_matches_max_chips() -> None:
    rng = random.Random(3)
    for _ in range(10):
        m = MapDef(id="r", name="R", width=9, height=7, rule_set=NamedRuleSet("france"))
        m.land = {(x, y) for x in range(9) for y in range(7) if rng.random() < 0.8}
        for i, sq in enumerate(rng.sample(sorted(m.land), 3)):
            m.start_squares[sq] = StartSquare(f"S{i}")
        m.setup.start_squares_used = 2
        for reading in ChipReading:
            assert feasibility(m, reading) == {
                c: brute_max_independent(allowed_squares(m, c, reading)) for c in start_choices(m)
            }


# -- generator --------------------------------------------------------------------------------


def test_generated_layout_is_valid_and_has_the_count() -> None:
    m = grid_map(30, 24)
    used = [(1, 1), (10, 1)]
    for reading in ChipReading:
        layout = generate_layout(m, used, 30, seed=5, reading=reading)
        assert len(layout) == 30
        assert check_layout(m, layout, used, reading, expected=30) == []


def test_same_seed_same_layout_other_seed_other_layout() -> None:
    m = grid_map(30, 24)
    used = [(1, 1), (10, 1)]
    a = generate_layout(m, used, 20, seed=42)
    assert a == generate_layout(m.copy(), list(reversed(used)), 20, seed=42)
    assert a != generate_layout(m, used, 20, seed=43)


def test_generated_layouts_are_more_even_than_random_valid_ones() -> None:
    m = grid_map(40, 30)
    used = [(1, 1), (10, 1)]
    allowed = sorted(allowed_squares(m, used, OPEN))
    rng = random.Random(0)
    randoms = []
    while len(randoms) < 10:
        layout = rng.sample(allowed, 30)
        if check_layout(m, layout, used, OPEN) == []:
            randoms.append(evenness(m, layout))
    generated = [evenness(m, generate_layout(m, used, 30, seed=s)) for s in range(10)]
    assert min(generated) > max(randoms)
    assert min(generated) > 0.85  # close to a perfect lattice (1.0)


def test_evenness_of_a_perfect_lattice_is_near_one() -> None:
    m = MapDef(id="g", name="G", width=30, height=30)
    m.land = {(x, y) for x in range(30) for y in range(30)}
    lattice = [(x, y) for x in range(2, 30, 5) for y in range(2, 30, 5)]  # 36 chips, 5x5 cells
    assert evenness(m, lattice) == pytest.approx(1.0, abs=0.05)
    clumped = [(x, y) for x in range(0, 12, 2) for y in range(0, 12, 2)]
    assert evenness(m, clumped) < 0.5
    assert evenness(m, []) == 0.0


def test_generator_reaches_the_exact_maximum_when_asked() -> None:
    m = grid_map(9, 7)
    used = [(1, 1)]
    best = max_chips(m, used, OPEN)
    layout = generate_layout(m, used, best, seed=1)
    assert len(layout) == best
    assert check_layout(m, layout, used, OPEN) == []


def test_infeasible_count_raises_clearly() -> None:
    m = grid_map(6, 4)
    m.start_squares = {(1, 1): StartSquare("A")}
    m.towns = {}
    m.large_cities = {}
    best = max_chips(m, [(1, 1)], OPEN)
    with pytest.raises(EngineError, match=rf"cannot lay out {best + 1} chips.*at most {best} fit"):
        generate_layout(m, [(1, 1)], best + 1, seed=0)
    with pytest.raises(EngineError, match="at most 0 fit"):
        generate_layout(MapDef(id="e", name="E", width=3, height=3), [], 1, seed=0)
    with pytest.raises(EngineError, match="chip count"):
        generate_layout(m, [], -1, seed=0)
    assert generate_layout(m, [], 0, seed=0) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_maps(),
    st.sampled_from(list(ChipReading)),
    st.integers(0, 2**32 - 1),
    st.floats(0.0, 1.0),
)
def test_every_generated_layout_passes_the_checker(
    m: MapDef, reading: ChipReading, seed: int, share: float
) -> None:
    used = list(m.start_squares)
    best = max_chips(m, used, reading)
    count = round(best * share)
    layout = generate_layout(m, used, count, seed=seed, reading=reading)
    assert check_layout(m, layout, used, reading, expected=count) == []
    with pytest.raises(EngineError, match="cannot lay out"):
        generate_layout(m, used, best + 1, seed=seed, reading=reading)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_generated_layouts_on_a_larger_random_map_pass(seed: int, count: int) -> None:
    rng = random.Random(seed)
    m = MapDef(id="r", name="R", width=25, height=20, rule_set=NamedRuleSet("deutschland"))
    m.land = {(x, y) for x in range(25) for y in range(20) if rng.random() < 0.85}
    for i, sq in enumerate(rng.sample(sorted(m.land), 3)):
        m.start_squares[sq] = StartSquare(f"S{i}")
    free = sorted(m.land - set(m.start_squares))
    for i, sq in enumerate(rng.sample(free, 4)):
        city = LargeCity(f"c{i}", f"C{i}", {sq})
        city.edges = {e: rng.choice(list(EdgeKind)) for e in city.outer_edges()}
        m.large_cities[city.id] = city
    used = list(itertools.islice(m.start_squares, 2))
    for reading in ChipReading:
        count_here = min(count, max_chips(m, used, reading))
        layout = generate_layout(m, used, count_here, seed=seed, reading=reading)
        assert check_layout(m, layout, used, reading, expected=count_here) == []


@pytest.mark.parametrize("name", ["deutschland", "grid"])
def test_layouts_from_the_distance_tables_equal_the_computed_ones(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Small grids look squared distances up in tables (best-candidate sampling, Lloyd
    passes); bigger ones compute them: both must give the same layouts."""
    import engine.chips as chips_module
    from engine.mapcache import derived
    from engine.mapio import load_map
    from engine.resources import bundled_map

    m = load_map(bundled_map("deutschland")) if name == "deutschland" else grid_map(30, 24)
    starts = sorted(m.start_squares)[:2] if m.start_squares else [(1, 1), (10, 1)]
    seeds = range(12)
    tabled = [generate_layout(m, starts, 30, seed=s) for s in seeds]
    monkeypatch.setattr(chips_module, "_TABLE_CELLS", 0)
    monkeypatch.setattr(chips_module, "_TABLE_ENTRIES", 0)
    derived(m).clear()
    assert [generate_layout(m, starts, 30, seed=s) for s in seeds] == tabled


def test_distance_tables_are_compact_exact_integers() -> None:
    """The tables hold the squared distances the float formulas give, as int16 (or int32 when
    a value needs it): a quarter of the memory, the same comparisons and sums."""
    import numpy as np

    from engine.chips import _Board, _cell_distances, _point_distances, _small_ints

    table = _cell_distances(7, 9)
    assert table.dtype == np.int16
    rows, cols = np.divmod(np.arange(63, dtype=np.float64), 9)
    floats = (cols[None, :] - cols[:, None]) ** 2 + (rows[None, :] - rows[:, None]) ** 2
    assert np.array_equal(table.astype(np.float64), floats)
    board = _Board({(x, y) for x in range(3, 9) for y in range(2, 6)})
    points = np.array([[0.0, 0.0], [3.0, 2.0], [40.0, 1.0]])
    table = _point_distances(board, points)
    assert table is not None and table.dtype == np.int16
    h, w = board.shape
    for cell in range(h * w):
        r, c = divmod(cell, w)
        for k, (x, y) in enumerate(points):
            assert table[cell, k] == (c + board.x0 - x) ** 2 + (r + board.y0 - y) ** 2
    assert _small_ints(np.array([40_000], dtype=np.int64)).dtype == np.int32


def _random_board(rng: random.Random, tries: int) -> tuple[_Board, set[tuple[int, int]]]:
    """A 14x11 board of about 80 % land with chips on up to ``tries`` random free squares."""
    from engine.chips import _Board

    squares = {(x, y) for x in range(14) for y in range(11) if rng.random() < 0.8}
    board = _Board(squares)
    for sq in rng.sample(sorted(squares), tries):
        if board.block[board.cell(sq)[0] * board.shape[1] + board.cell(sq)[1]] == 0:
            board.place(board.cell(sq))
    return board, squares


def test_nearest_free_with_a_bound_finds_what_the_full_search_finds() -> None:
    rng = random.Random(3)
    for _ in range(200):
        board, _squares = _random_board(rng, 12)
        free = [
            (r, c)
            for r in range(board.shape[0])
            for c in range(board.shape[1])
            if board.block[r * board.shape[1] + c] == 0
        ]
        if not free:
            continue
        tx, ty = rng.uniform(0, board.shape[1]), rng.uniform(0, board.shape[0])
        r, c = rng.choice(free)  # a free cell known to be there, as a chip's own cell is
        radius = max(abs(c - int(tx)), abs(r - int(ty))) + 1
        dx, dy = c - tx, r - ty
        assert board.nearest_free(tx, ty, radius, dx * dx + dy * dy) == board.nearest_free(
            tx, ty, radius
        )


def test_a_chip_close_to_its_centroid_is_where_the_search_would_put_it() -> None:
    """Lloyd passes skip the search for a chip within ``_STAYS`` (per axis) of its centroid:
    the full search must find that chip's own cell."""
    from engine.chips import _STAYS

    rng = random.Random(5)
    for _ in range(300):
        board, squares = _random_board(rng, 20)
        r, c = board.cell(rng.choice(sorted(squares)))
        if board.block[r * board.shape[1] + c] != 0:
            continue
        edge = rng.choice([_STAYS, -_STAYS, rng.uniform(-_STAYS, _STAYS)])
        tx, ty = c + rng.uniform(-_STAYS, _STAYS), r + edge
        assert board.nearest_free(tx, ty, board.shape[0] + board.shape[1]) == (r, c)


def test_best_candidate_draws_the_same_with_any_random_class() -> None:
    """The inlined draws for ``random.Random`` equal ``_randbelow``'s (a subclass takes the
    general path)."""
    from engine.chips import _best_candidate, _Board

    class OtherRandom(random.Random):
        pass

    m = grid_map(30, 24)
    allowed = set(m.placeable_squares())
    for seed in range(5):
        a = _best_candidate(_Board(allowed), 40, random.Random(seed), 8)
        b = _best_candidate(_Board(allowed), 40, OtherRandom(seed), 8)
        assert a == b
