"""The board: compiled tiles, the frontier and legality, union-find features against a brute-force
flood fill after thousands of random placements."""

from __future__ import annotations

import random

import pytest

from engine.board import (
    DELTAS,
    H_CITY,
    H_CLOSED,
    H_FERRY,
    H_NORMAL,
    HALF_NAMES,
    Board,
    compiled,
    partner_half,
)
from engine.features import CITY, FIELD, ROAD
from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.resources import bundled_map
from engine.scoring import completed_cities, square_tiles
from engine.tiles import default_tileset


def test_partner_half_edges_follow_tiles_md() -> None:
    pairs = {"NL": "SR", "NR": "SL", "EL": "WR", "ER": "WL"}
    pairs |= {v: k for k, v in pairs.items()}
    for h, name in enumerate(HALF_NAMES):
        assert HALF_NAMES[partner_half(h)] == pairs[name]


def test_compiled_tiles_match_the_tile_set_at_every_rotation() -> None:
    ts = default_tileset()
    c = compiled(ts)
    for tid, tile in ts.types.items():
        for rot in (0, 90, 180, 270):
            o = c.oriented[tid][rot // 90]
            assert o.edges == tile.edges_at(rot)
            for i, seg in enumerate(tile.segments_at(rot)):
                if seg.kind in ("city", "road"):
                    assert {"NESW"[s] for s in o.sides[i]} == set(seg.edges)
                elif seg.kind == "field":
                    assert {HALF_NAMES[h] for h in o.halves[i]} == set(seg.edges)


def _random_states(game_count: int, on_map: bool):
    m = load_map(bundled_map()) if on_map else None
    for seed in range(game_count):
        g = Game(m, seed=seed, options=GameOptions(rule_set="none") if on_map else None)
        rng = random.Random(seed)
        while not g.is_over():
            yield g
            g.play(rng.choice(g.legal_moves().list()))
        yield g


def _brute_legal(board: Board, tile_id: str, square, rotation: int) -> bool:
    tiles = board.tiles
    if square in tiles:
        return False
    edges = board.compiled.oriented[tile_id][rotation // 90].edges
    adjacent = False
    for s, (dx, dy) in enumerate(DELTAS):
        q = (square[0] + dx, square[1] + dy)
        if q in tiles:
            adjacent = True
            if tiles[q].edges[(s + 2) % 4] != edges[s]:
                return False
    return adjacent


def test_classic_legal_placements_equal_a_brute_force_scan() -> None:
    checked = 0
    for g in _random_states(4, on_map=False):
        if g.is_over() or g.turn % 5:
            continue
        board, tile = g.board, g.current_tile
        xs = [x for x, _ in board.tiles]
        ys = [y for _, y in board.tiles]
        expected = {
            ((x, y), r)
            for x in range(min(xs) - 1, max(xs) + 2)
            for y in range(min(ys) - 1, max(ys) + 2)
            for r in (0, 90, 180, 270)
            if _brute_legal(board, tile, (x, y), r)
        }
        assert set(board.placements(tile)) == expected
        checked += 1
    assert checked > 40


def _flood(board: Board):
    """Independent features: flood fill over (square, segment) through sides, large cities
    (their city edges) and ferries; returns [(kind, squares, complete, a member)]."""
    tiles = board.tiles
    layout = board.layout
    handlers = layout.handlers if layout else {}
    city_members: dict[str, list] = {}
    ferry_members: dict[str, list] = {}
    for sq, o in tiles.items():
        for s in range(4):
            h = handlers.get(sq, (None,) * 4)[s]
            if h is None or o.side_seg[s] < 0:
                continue
            if h[0] == H_CITY and h[2] == "C":
                city_members.setdefault(h[1], []).append((sq, o.side_seg[s]))
            if h[0] == H_FERRY:
                ferry_members.setdefault(h[1], []).append((sq, o.side_seg[s]))
    seen: set = set()
    out = []
    for sq, o in tiles.items():
        for i, kind in enumerate(o.kinds):
            if kind not in (CITY, ROAD) or (sq, i) in seen:
                continue
            stack = [(sq, i)]
            seen.add((sq, i))
            squares: set = set()
            complete = True
            while stack:
                q, j = stack.pop()
                oo = tiles[q]
                squares.add(q)
                for s in oo.sides[j]:
                    h = handlers.get(q, (None,) * 4)[s]
                    nxt: list = []
                    if h is None or h[0] == H_NORMAL:
                        dx, dy = DELTAS[s]
                        n = (q[0] + dx, q[1] + dy)
                        if n in tiles:
                            nxt = [(n, tiles[n].side_seg[(s + 2) % 4])]
                        else:
                            complete = False
                    elif h[0] == H_CLOSED:
                        pass
                    elif h[0] == H_CITY and h[2] == "C":
                        nxt = city_members[h[1]]
                    elif h[0] == H_FERRY:
                        nxt = ferry_members[h[1]]
                        if len(nxt) < 2:
                            complete = False
                    for member in nxt:
                        if member not in seen:
                            seen.add(member)
                            stack.append(member)
            out.append((kind, frozenset(squares), complete, (sq, i)))
    return out


def _large_city_open(board: Board, cid: str) -> bool:
    layout = board.layout
    for sq in layout.city_neighbours[cid]:
        for h in layout.handlers[sq]:
            if h[0] == H_CITY and h[1] == cid and h[2] == "C" and sq not in board.tiles:
                return True
    return False


@pytest.mark.parametrize("on_map", [False, True])
def test_union_find_features_equal_a_flood_fill(on_map: bool) -> None:
    states = 0
    for g in _random_states(6, on_map=on_map):
        if g.turn % 7 and not g.is_over():
            continue
        board = g.board
        f = board.features
        for kind, squares, complete, (sq, i) in _flood(board):
            root = f.find(board.nodes[sq][i])
            assert f.kind[root] == kind
            real = set(square_tiles(f, root)) - set(board.layout.city_of if board.layout else ())
            assert real == squares
            if board.layout is not None:
                for cid in board.active_cities:
                    if f.find(board.city_node[cid]) == root and _large_city_open(board, cid):
                        complete = False
            assert (f.open[root] == 0) == complete, (sq, i, f.open[root])
        states += 1
    assert states > 30


@pytest.mark.parametrize("on_map", [False, True])
def test_monastery_neighbours_left_equal_a_count_from_the_map(on_map: bool) -> None:
    """The typed loop (compiled: C ints) against the definition, on every square next to a
    tile of random games: the empty neighbours a tile may still be placed on."""
    placeable = load_map(bundled_map()).placeable_squares() if on_map else None
    checked = 0
    for g in _random_states(3, on_map=on_map):
        if g.turn % 5 and not g.is_over():
            continue
        board = g.board
        around = {(x + dx, y + dy) for x, y in board.tiles for dx, dy in DELTAS}
        for x, y in sorted(around | set(board.tiles)):
            want = sum(
                1
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if (dx, dy) != (0, 0)
                and (x + dx, y + dy) not in board.tiles
                and (placeable is None or (x + dx, y + dy) in placeable)
            )
            assert board.monastery_neighbours_left((x, y)) == want, (x, y)
            checked += 1
    assert checked > 1000


def test_classic_fields_count_the_completed_cities_they_touch() -> None:
    for g in _random_states(3, on_map=False):
        if not g.is_over():
            continue
        board = g.board
        f = board.features
        tiles = board.tiles
        complete_city = {}
        for kind, _squares, complete, (sq, i) in _flood(board):
            if kind == CITY:
                complete_city[f.find(board.nodes[sq][i])] = complete
        seen: set = set()
        for sq, o in tiles.items():
            for i, kind in enumerate(o.kinds):
                if kind != FIELD or (sq, i) in seen:
                    continue
                stack, cities = [(sq, i)], set()
                seen.add((sq, i))
                while stack:
                    q, j = stack.pop()
                    oo = tiles[q]
                    for c in oo.cities[j]:
                        cities.add(f.find(board.nodes[q][c]))
                    for h in oo.halves[j]:
                        dx, dy = DELTAS[h >> 1]
                        n = (q[0] + dx, q[1] + dy)
                        if n in tiles:
                            m = (n, tiles[n].half_seg[partner_half(h)])
                            if m not in seen:
                                seen.add(m)
                                stack.append(m)
                root = f.find(board.nodes[sq][i])
                assert completed_cities(f, root) == sum(1 for c in cities if complete_city[c])


def test_board_copy_is_independent() -> None:
    b = Board(None, default_tileset())
    b.place((0, 0), "D", 0)
    c = b.copy()
    c.place((0, -1), "E", 180)
    assert (0, -1) not in b.tiles and (0, -1) in b.frontier
    assert b.features.open[b.features.find(b.nodes[(0, 0)][0])] == 1


def test_a_field_joined_through_a_sibling_field_of_the_same_tile_is_occupied() -> None:
    """Regression: V's two fields both touch A's (free) field, so V's small field joins the
    occupied field that only V's big field touches."""
    from engine.moves import Move

    g = Game(None, options=GameOptions(start_tile="A", draw_order=("E", "E", "V")))
    g.play(Move((1, 0), 180))  # Red: a city cap facing south, east of A
    g.play(Move((1, 1), 0, "WL"))  # Blue: the cap's partner; a farmer on its field
    assert g.current_tile == "V"
    assert g.board.meeple_options((0, 1), "V", 90) == ["N"]
    assert Move((0, 1), 90, "NL") not in g.legal_moves()
    assert Move((0, 1), 90, "N") in g.legal_moves()


def _brute_map_legal(g: Game, square, tile_id: str, rotation: int) -> bool:
    """Legality on a map from the map model alone (no board internals but placed tiles)."""
    m = g.map
    board = g.board
    tiles = board.tiles
    if square in tiles or square not in m.placeable_squares():
        return False
    gated = m.gated_squares()
    city_of = m.city_squares()
    edges = board.compiled.oriented[tile_id][rotation // 90].edges
    letter = {"city": "C", "road": "R", "field": "F"}
    ferry_ends = {}
    for f in m.ferries.values():
        ferry_ends[f.a] = f.b
        ferry_ends[f.b] = f.a
    reachable = False
    from engine.geometry import Edge, Side

    for s, side in enumerate((Side.N, Side.E, Side.S, Side.W)):
        edge = Edge(square[0], square[1], side)
        q = edge.outer_square
        if q in tiles:
            if tiles[q].edges[(s + 2) % 4] != edges[s]:
                return False
            if square not in gated or q in gated:
                reachable = True
        elif edge in m.border_features and q not in m.land:
            kind = m.border_features[edge].kind.value
            if kind != "field" and letter[kind] != edges[s]:
                return False
        elif edge in ferry_ends:
            if edges[s] != "R":
                return False
            far = ferry_ends[edge]
            if far.square in tiles and tiles[far.square].edges[far.side.ordinal] == "R":
                reachable = True
        elif q in city_of:
            city = m.large_cities[city_of[q]]
            if letter[city.edge_kind(edge.mirror()).value] != edges[s]:
                return False
            # a connected city: some tile already sits against one of its squares
            touched = any(
                (c[0] + dx, c[1] + dy) in tiles
                for c in city.squares
                for dx, dy in DELTAS
                if (c[0] + dx, c[1] + dy) not in city.squares
            )
            if touched and square not in gated:
                reachable = True
    return reachable


def test_map_legal_placements_equal_a_check_from_the_map_model() -> None:
    checked = 0
    for g in _random_states(5, on_map=True):
        if g.is_over() or g.turn % 3:
            continue
        tile = g.current_tile
        expected = {
            (sq, r)
            for sq in g.map.land
            for r in (0, 90, 180, 270)
            if _brute_map_legal(g, sq, tile, r)
        }
        assert set(g.board.placements(tile)) == expected, g.turn
        checked += 1
    assert checked > 50


def test_oriented_names_segments_by_location_both_ways() -> None:
    from engine.game import Game

    board = Game(None, players=2, seed=1).board
    for tile_id in ("D", "K", "V", "IC-L"):
        for rotation in (0, 90, 180, 270):
            o = board.oriented(tile_id, rotation)
            assert o.rotation == rotation and o.tile_id == tile_id
            for segment, name in enumerate(o.names):
                assert o.segment_at(name) == segment
                assert o.location_of(segment) == name
            assert o.segment_at("nowhere") is None
    # turning a tile turns its locations: D's city faces north unturned, east at 90
    assert board.oriented("D", 0).edges[0] == "C" and board.oriented("D", 90).edges[1] == "C"
