"""The warm-started grid matcher behind the chip proof against plain fresh matchings.

``_GridMatcher`` (compiled searches, warm starts, removal of squares) must give exactly the size
of a fresh Hopcroft-Karp matching (``matching_size``) of the same squares; ``feasibility``,
``every_choice`` and ``worst_choice`` must give exactly the per-choice counts computed one fresh
matching per choice.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine.chips
from engine.chips import (
    ChipReading,
    _GridMatcher,
    _matcher,
    allowed_squares,
    feasibility,
    matching_size,
    start_choices,
)
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
from engine.rules.registry import map_chip_layout
from engine.startchoices import every_choice, worst_choice


@pytest.fixture(params=["compiled", "plain"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test through the compiled matcher (every size) and through the pure-Python one."""
    limit = 0 if request.param == "compiled" else 10**9
    monkeypatch.setattr(engine.chips, "COMPILED_FROM", limit)
    monkeypatch.setattr(engine.chips, "COMPILED_WHEN_LOADED_FROM", limit)
    return str(request.param)


def is_matching(squares: set[Square], mates: tuple, matcher: _GridMatcher) -> int:
    """Check the matcher's mate arrays form a matching of ``squares``' graph; its size."""
    mate_l, mate_r = mates
    size = 0
    for u, v in enumerate(mate_l.tolist()):
        if v < 0:
            continue
        assert mate_r[v] == u
        cu, cv = int(matcher.lflat[u]), int(matcher.rflat[v])
        a = (cu % matcher.w + matcher.x0, cu // matcher.w + matcher.y0)
        b = (cv % matcher.w + matcher.x0, cv // matcher.w + matcher.y0)
        assert a in squares and b in squares and b in orthogonal_neighbours(a)
        size += 1
    assert size == int((mate_r >= 0).sum())
    return size


def random_squares(rng: random.Random, w: int, h: int, density: float) -> set[Square]:
    x0, y0 = rng.randint(-5, 5), rng.randint(-5, 5)  # negative coordinates too
    return {(x0 + x, y0 + y) for x in range(w) for y in range(h) if rng.random() < density}


@pytest.mark.parametrize("seed", range(40))
def test_fresh_and_warm_matchings_equal_a_fresh_hopcroft_karp(seed: int) -> None:
    rng = random.Random(seed)
    universe = random_squares(
        rng, rng.randint(1, 30), rng.randint(1, 30), rng.choice([0.3, 0.6, 0.8, 0.95, 1.0])
    )
    matcher = _GridMatcher(universe)
    size, mates = matcher.maximum()
    assert size == matching_size(universe)[0] == is_matching(universe, mates, matcher)
    ordered = sorted(universe)
    warm = mates
    for _ in range(8):
        removed = set(rng.sample(ordered, rng.randint(0, min(len(ordered), 12))))
        removed.add((10_000, 10_000))  # a square off the grid is ignored
        squares = universe - removed
        got, new = matcher.maximum(removed, warm)
        assert got == matching_size(squares)[0] == is_matching(squares, new, matcher)
        warm = new if rng.random() < 0.5 else warm  # warm starts from other subgraphs too


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.tuples(st.integers(-3, 8), st.integers(-3, 8)), max_size=80),
    st.sets(st.tuples(st.integers(-3, 8), st.integers(-3, 8)), max_size=20),
)
def test_property_matcher_equals_fresh_matching(
    universe: set[Square], removed: set[Square]
) -> None:
    matcher = _GridMatcher(universe)
    _, warm = matcher.maximum()
    squares = universe - removed
    assert matcher.maximum(removed)[0] == matching_size(squares)[0]
    assert matcher.maximum(removed, warm)[0] == matching_size(squares)[0]
    plain = _matcher(universe, compiled=False)
    _, plain_warm = plain.maximum(removed)
    assert plain.maximum((), plain_warm)[0] == matching_size(universe)[0]
    assert plain.maximum(removed, plain.maximum()[1])[0] == matching_size(squares)[0]


def feature_map(seed: int) -> MapDef:
    """A random map with holes, start squares, towns, large cities, waves and islands."""
    rng = random.Random(seed)
    w, h = rng.randint(6, 40), rng.randint(6, 40)
    m = MapDef(id="f", name="F", width=w, height=h)
    m.rule_set = NamedRuleSet(rng.choice(["france", "deutschland", "iberica"]))
    m.land = {(x, y) for x in range(w) for y in range(h) if rng.random() < 0.9}
    free = sorted(m.land)
    rng.shuffle(free)
    for i in range(rng.randint(0, 3)):  # large cities of 1 to 6 squares with random sides
        cx, cy = rng.randrange(w), rng.randrange(h)
        squares = {
            (x, y)
            for x in range(cx, cx + rng.randint(1, 3))
            for y in range(cy, cy + rng.randint(1, 2))
            if (x, y) in m.land
        }
        squares -= m.city_squares().keys()
        if squares:
            city = LargeCity(f"c{i}", f"C{i}", squares)
            city.edges = {
                Edge(x, y, side): rng.choice([EdgeKind.CITY, EdgeKind.ROAD, EdgeKind.FIELD])
                for x, y in squares
                for side in Side
                if rng.random() < 0.5
            }
            m.large_cities[city.id] = city
    taken = set(m.city_squares())
    free = [sq for sq in free if sq not in taken]
    n = rng.randint(1, 7)
    for sq in free[:n]:
        m.start_squares[sq] = StartSquare(f"s{sq}")
    m.towns = {sq: Town(f"t{sq}") for sq in free[n : n + rng.randint(0, 4)]}
    m.waves = set(free[n + 4 : n + 4 + rng.randint(0, 6)])
    rest = free[n + 10 :]
    m.islands = {
        "i": Island(
            "i",
            "Isla",
            squares={
                sq: IslandSquare(rng.choice([IslandRole.LAND, IslandRole.STACK, IslandRole.GATED]))
                for sq in rest[: rng.randint(0, 8)]
            },
        )
    }
    m.setup.start_squares_used = rng.randint(0, n)
    return m


def fresh_counts(m: MapDef, reading: ChipReading) -> dict[tuple[Square, ...], int]:
    """One independent fresh matching per choice: the plain computation."""
    out = {}
    for choice in start_choices(m):
        squares = allowed_squares(m, choice, reading, chip_layout=map_chip_layout(m))
        out[choice] = len(squares) - matching_size(squares)[0]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_feasibility_and_choice_search_equal_one_fresh_matching_per_choice(
    seed: int, path: str
) -> None:
    m = feature_map(seed)
    for reading in ChipReading:
        plain = fresh_counts(m, reading)
        layout = map_chip_layout(m)
        assert feasibility(m, reading, chip_layout=layout) == plain
        assert every_choice(m, reading, chip_layout=layout) == plain
        worst = worst_choice(m, reading, chip_layout=layout)
        if not plain:
            assert worst is None
            continue
        assert worst is not None and worst.exact
        assert worst.chips == min(plain.values()) == plain[worst.choice]


def test_the_benchmark_map_shape_is_exact_on_a_large_grid(path: str) -> None:
    """A 90x90 all-land map like the validation benchmark's: every choice against fresh runs."""
    m = MapDef(id="b", name="B", width=90, height=90, rule_set=NamedRuleSet("deutschland"))
    m.land = {(x, y) for x in range(90) for y in range(90)}
    for sq in [(10, 10), (49, 10), (10, 49), (49, 49), (80, 81)]:
        m.start_squares[sq] = StartSquare(str(sq))
    for i, (cx, cy) in enumerate([(20, 20), (38, 20), (29, 30), (70, 40)]):
        squares = {(cx + dx, cy + dy) for dx, dy in itertools.product((0, 1), repeat=2)}
        city = LargeCity(f"c{i}", f"C{i}", squares)
        city.edges = {Edge(cx, cy, Side.N): EdgeKind.CITY, Edge(cx + 1, cy, Side.E): EdgeKind.CITY}
        m.large_cities[city.id] = city
    m.setup.start_squares_used = 2
    plain = fresh_counts(m, ChipReading.OPEN_SIDES)
    layout = map_chip_layout(m)
    assert feasibility(m, chip_layout=layout) == plain == every_choice(m, chip_layout=layout)
    assert len(set(plain.values())) > 1  # the choices really differ


def test_squares_far_apart_fall_back_to_the_plain_matcher() -> None:
    universe = {(0, 0), (1, 0), (5000, 5000), (5000, 5001), (5001, 5001)}
    matcher = _matcher(universe, compiled=True)  # a 5002 x 5003 grid: too sparse for arrays
    assert not isinstance(matcher, _GridMatcher)
    assert matcher.maximum()[0] == matching_size(universe)[0] == 2
    assert isinstance(_matcher({(0, 0), (1, 0)}, compiled=True), _GridMatcher)


def test_start_choice_evaluator_is_exact_from_any_maximum_matching() -> None:
    """worst_choice's evaluator repairs one maximum matching per removed set; from the grid
    matcher's (equally maximum) matching of this map its repair alone counted 76 chips for a
    choice that takes 75. Whatever maximum matching it starts from, it must agree with a fresh
    matching for every choice."""
    import numpy as np

    import engine.startchoices as sc
    from engine.chips import _GridMatcher, candidate_squares, near_city

    m = feature_map(28)
    reading = ChipReading.OPEN_SIDES
    cand = candidate_squares(m, map_chip_layout(m)) - near_city(m, reading)
    g = _GridMatcher(cand)
    _, (ml, _mr) = g.maximum()
    u = np.flatnonzero(ml >= 0)
    other: dict[tuple[int, int], tuple[int, int]] = {}
    for a, b in zip(g.lflat[u], g.rflat[ml[u]], strict=True):
        other[(int(a % g.w + g.x0), int(a // g.w + g.y0))] = (
            int(b % g.w + g.x0),
            int(b // g.w + g.y0),
        )
    evaluator = sc._Evaluator(cand)
    evaluator.mate = {}
    for a, b in other.items():
        evaluator.mate[a] = b
        evaluator.mate[b] = a
    evaluator.size = len(other)
    removals = sc._removals(m, cand)
    fresh = fresh_counts(m, reading)
    for choice, count in fresh.items():
        removed = frozenset().union(*(removals[s] for s in choice))
        assert evaluator(removed) == count, choice
