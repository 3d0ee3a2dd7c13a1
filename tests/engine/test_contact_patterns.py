"""The board's fast paths for listing moves against the plain computations they replace.

- meeple options read from a square's (cached) contact pattern must equal the options worked
  out from the feature roots around the square, at every turn, and after trials are undone and
  boards copied (the caches are kept per board and checked on use);
- the placements found through the per-tile lists of fitting frontier patterns must equal the
  scan of every frontier group in the groups' order;
- a square's cached pattern id must name its pattern (``CompiledTiles.pattern_id``), and the
  moves counted by id (``Board.move_blocks``) must equal the list also when no id is left.
"""

from __future__ import annotations

import random

import pytest

import engine.board.tiletables as tiletables
from engine.board import Board
from engine.board.tiletables import free_locations
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move
from engine.resources import bundled_map


def _plain_placements(board: Board, tile: str) -> list[tuple[tuple[int, int], int]]:
    """Every frontier group in order, each square with each rotation that fits its pattern,
    rotations checked edge by edge."""
    out = []
    for pattern, squares in board._groups.items():
        rots = [
            o.rotation
            for o in board.compiled.oriented[tile]
            if all(p in ("?", e) for p, e in zip(pattern, o.edges, strict=True))
        ]
        out += [(sq, r) for sq in squares for r in rots]
    return out


def _check(board: Board, tiles: list[str]) -> int:
    """Compare both paths for ``tiles`` on every frontier square; return how many squares had
    a meeple nearby (so that a test can show it met some)."""
    meeples = board.features.meeples
    touched = 0
    for tile in tiles:
        assert board.placements(tile) == _plain_placements(board, tile)
        for sq, rot in board.placements(tile):
            side_roots, half_roots, occupied = board.contacts(sq)
            o = board.oriented(tile, rot)
            plain = free_locations(o, side_roots, half_roots, meeples)
            assert board.meeple_options(sq, tile, rot) == plain, (sq, tile, rot)
            pattern = board.contact_pattern(sq)
            assert (pattern is not None) == occupied
            touched += occupied
            if meeples:  # the id kept with the pattern names it
                pid = board._contact_src[sq][3]
                assert pid == board.compiled.pattern_id(pattern)
                assert pid == 0 if pattern is None else board.compiled._id_patterns[pid] == pattern
    return touched


@pytest.mark.parametrize(
    ("map_name", "players", "seed"),
    # a second Deutschland game reuses the printed contact nodes its layout keeps
    [
        (None, 2, 3),
        (None, 4, 8),
        ("deutschland", 4, 1),
        ("deutschland", 2, 5),
        ("iberica", 3, 2),
        ("great-britain", 3, 4),
    ],
)
def test_cached_options_equal_the_plain_ones_through_trials_and_copies(
    map_name: str | None, players: int, seed: int
) -> None:
    m = load_map(bundled_map(map_name)) if map_name else None
    g = Game(m, players=players, seed=seed, options=GameOptions(meeples=12))
    rng = random.Random(seed)
    other_rng = random.Random(-seed)
    tiles = sorted(g.tileset.types)
    touched = 0
    while not g.is_over():
        if g.phase is Phase.PLACE:
            sample = [g.current_tile, *rng.sample(tiles, 3)]
            touched += _check(g.board, sample)  # fills the caches
            moves = g.legal_moves().list()
            # a trial changes the board and is undone: the caches must follow both ways
            trial = rng.choice([mv for mv in moves if isinstance(mv, Move)])
            g.push_placement(trial)
            _check(g.board, sample[1:])
            g.pop()
            touched += _check(g.board, sample)
            copy = g.board.copy()
            _check(copy, sample)
            # a game copy keeps the patterns and moves on: neither may see the other's changes
            other = g.copy()
            _check(other.board, sample)
            while not other.is_over() and other.turn == g.turn:
                other.apply(other_rng.choice(other.legal_moves().list()))
            if other.phase is Phase.PLACE:
                _check(other.board, [other.current_tile, *sample[1:]])
            _check(g.board, sample)
        g.apply(rng.choice(g.legal_moves().list()))
    assert touched > 50  # the pattern path was really exercised


def test_moves_counted_by_pattern_id_equal_the_list_also_without_ids(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the id table full (``pattern_id`` gives -1), the patterns themselves are used."""
    g = Game(None, players=3, seed=5, options=GameOptions(meeples=12))
    compiled = g.board.compiled
    monkeypatch.setattr(tiletables, "_MAX_PATTERN_IDS", 8)
    monkeypatch.setattr(compiled, "_pattern_ids", {})
    monkeypatch.setattr(compiled, "_id_patterns", [()])
    monkeypatch.setattr(compiled, "_move_tables", {})
    rng = random.Random(5)
    without_id = 0
    while not g.is_over():
        view = g.legal_moves()
        moves = view.list()
        assert [view[i] for i in range(len(view))] == moves
        without_id += sum(entry[3] == -1 for entry in g.board._contact_src.values())
        g.apply(rng.choice(view))
    assert len(compiled._id_patterns) == 8
    assert without_id > 50  # the fallback was really exercised


def test_fitting_lists_follow_new_patterns_for_started_and_new_classes() -> None:
    # a class's list, once started, gets each new frontier pattern its tiles fit pushed to it
    # (CompiledTiles.fitters); a class asked for later scans the groups once: both must equal
    # the plain scan in the groups' order, turn after turn
    g = Game(load_map(bundled_map("deutschland")), players=4, seed=11)
    rng = random.Random(11)
    board = g.board
    compiled = board.compiled
    tiles = sorted(g.tileset.types)
    for p in ("CFR?", "????", "RRRR"):
        fit = [c for c, items in enumerate(compiled._fit_class_items) if p in items]
        assert [c for c, _item in compiled.fitters(p)] == fit
    asked: set[str] = set()
    while not g.is_over():
        if g.phase is Phase.PLACE:
            for tile in rng.sample(tiles, 2):  # some classes start late in the game
                asked.add(tile)
                assert board.placements(tile) == _plain_placements(board, tile)
            for tile in asked:
                plain = [
                    (p, rots) for p in board._groups for rots in [compiled.fits(tile, p)] if rots
                ]
                assert board._fitting(tile) == plain
        g.apply(rng.choice(g.legal_moves()))
    assert len({compiled._fit_class[t] for t in asked}) > 10
