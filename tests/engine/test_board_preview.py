"""Board trials (place, then undo) and previews (judge a placement without placing) against the
plain path: a trial leaves the board exactly as it was, and a preview equals what ``place``
builds, for every legal placement of every turn of whole games on every shipped map."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import build
from engine.board import Board, PreviewFeature
from engine.bots.greedy_bot import GreedyBot
from engine.bots.mcts_bot import MCTSBot
from engine.errors import EngineError
from engine.features import CITY, FIELD, MONASTERY, ROAD
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move, Pass
from engine.resources import bundled_map

MAPS = ["example-small", "france", "benelux", "great-britain", "iberica", "deutschland", "italia"]


def board_state(b: Board) -> object:
    """Everything of a board, orders included (iteration order decides the order of moves)."""
    f = b.features
    return (
        list(b.tiles.items()),
        list(b.nodes.items()),
        list(b.order),
        sorted(b.req.items()),
        list(b._front.items()),
        [(p, list(g)) for p, g in b._groups.items() if g],
        sorted(b.monasteries.items()),
        sorted(b._mon_watch.items()),
        (f.parent[:], f.kind[:], f.open[:], f.tiles[:], f.coa[:]),
        sorted(f.meeples.items()),
        sorted(f.cities.items()),
        sorted(f.label.items()),
        sorted(f.done),
        sorted(b.active_cities),
        sorted(b.opened_ferries),
    )


def _check_preview(
    b: Board, sq, tile: str, rot: int, problems: list[str], lone: dict[Any, Any] | None = None
) -> int:
    """Compare the preview of ``tile`` at ``sq``, ``rot`` with placing it; with ``lone``
    (``(tile, rot, group) -> feature``), count the groups that join nothing and are the very
    feature an earlier preview gave (previews share those)."""
    sides = b.preview_sides(sq)
    if sides is None:
        return 0
    groups_of, groups, joined = b.preview(sq, tile, rot, sides)
    shared = 0
    if lone is not None:
        for g, pv in enumerate(groups):
            if not pv.roots:
                key = (tile, rot, g)
                if key in lone:
                    shared += lone[key] is pv
                else:
                    lone[key] = pv
    # the root -> group table: every joined root, in the order of the groups and their roots
    table = [(r, g) for g, pv in enumerate(groups) for r in pv.roots]
    if list(joined.items()) != table:
        problems.append(f"{tile}@{sq} r{rot}: joined {joined} != {table}")
    mark = b.begin_trial()
    completed, _monks = b.place(sq, tile, rot)
    f = b.features
    nodes = b.nodes[sq]
    post = {}  # preview group -> root after placing
    for i, g in enumerate(groups_of):
        if g < 0:
            assert nodes[i] < 0
            continue
        root = f.find(nodes[i])
        if post.setdefault(g, root) != root:
            problems.append(f"{tile}@{sq} r{rot}: segments of group {g} are apart")
    if len(set(post.values())) != len(post):
        problems.append(f"{tile}@{sq} r{rot}: two groups are one feature")

    def after(root: int) -> int:  # a board root as it is after placing
        for g, pv in enumerate(groups):
            if root in pv.roots:
                return post[g]
        return root

    for g, pv in enumerate(groups):
        root = post[g]
        where = f"{tile}@{sq} r{rot} group {g}"
        got = (pv.kind, sorted(pv.meeples), sorted(after(r) for r in pv.roots))
        want = (f.kind[root], sorted(f.meeples.get(root, ())), [root] * len(pv.roots))
        if got != want:
            problems.append(f"{where}: kind/meeples/roots {got} != {want}")
        if pv.kind in (CITY, ROAD):
            real = (f.open[root], len(f.tiles[root]), f.coa[root], root in completed)
            seen = (pv.open, pv.tiles, pv.coa, pv.open == 0)
            if real != seen:
                problems.append(f"{where}: open/tiles/coa/done {seen} != {real}")
        elif pv.kind == FIELD:
            real_c = {f.find(c) for c in f.cities_of(root)}
            seen_c = {after(f.find(c)) for c in pv.cities} | {post[c] for c in pv.own_cities}
            if real_c != seen_c:
                problems.append(f"{where}: cities {sorted(seen_c)} != {sorted(real_c)}")
    b.end_trial(mark)
    return shared


@pytest.mark.parametrize("name", MAPS)
def test_trials_undo_exactly_and_previews_match_placing(name: str) -> None:
    m = load_map(bundled_map(name))
    rng = random.Random(7)
    problems: list[str] = []
    checked = shared = 0
    lone: dict[Any, Any] = {}
    for seed in range(2):
        game = Game(m, players=2, seed=seed, options=GameOptions(rule_set="none"))
        while not game.is_over():
            board = game.board
            if game.phase is Phase.PLACE:
                before = board_state(board)
                tile = game.current_tile
                assert tile is not None
                for sq, rot in board.placements(tile):
                    shared += _check_preview(board, sq, tile, rot, problems, lone)
                    checked += 1
                assert board_state(board) == before, "a trial changed the board"
            moves = game.legal_moves().list()
            game.apply(rng.choice(moves))
    assert checked > 500
    # the groups that join nothing, shared between previews, checked like the others
    assert shared > checked // 2, (shared, checked)
    assert problems == []


@pytest.mark.parametrize("name", MAPS)
def test_game_push_placement_pop_restores_the_whole_game(name: str) -> None:
    """Every rule set (the map's own, the town variants on too), meeple moves and passes."""
    m = load_map(bundled_map(name))
    options = GameOptions(town_extra_tile=True, town_cost=True, town_road_bonus=True)
    game = Game(m, players=3, seed=3, options=options)
    rng = random.Random(3)
    trials = 0
    while not game.is_over() and trials < 400:
        if game.phase is Phase.PLACE:
            summary = game.state_summary()
            before = board_state(game.board)
            for move in game.legal_moves().list():
                game.push_placement(move)
                assert game.phase in (Phase.ACTION, Phase.AFTER, Phase.TURN_END)
                if game.phase is Phase.ACTION and Pass() in game.legal_moves():
                    game.apply(Pass())
                    assert game.phase in (Phase.TURN_END, Phase.AFTER)
                game.pop()
                trials += 1
            assert game.state_summary() == summary
            assert board_state(game.board) == before
        game.apply(rng.choice(game.legal_moves().list()))
    assert trials >= 400


def test_a_board_is_not_copied_inside_a_trial() -> None:
    game = Game(None, players=2, seed=1)
    move = next(iter(game.legal_moves()))
    game.push_placement(move)
    with pytest.raises(EngineError, match="trial"):
        game.copy()
    game.pop()
    game.copy()  # fine again


def test_monastery_preview_kind() -> None:
    """A monastery segment has no group: previews leave it to the caller."""
    game = Game(None, players=2, seed=1, options=GameOptions(draw_order=("B",)))
    board = game.board
    sq, rot = board.placements("B")[0]
    sides = board.preview_sides(sq)
    assert sides is not None
    groups_of, _, _ = board.preview(sq, "B", rot, sides)
    o = board.oriented("B", rot)
    assert [g for g, k in zip(groups_of, o.kinds, strict=True) if k == MONASTERY] == [-1]


def test_move_is_judged_in_turn_end_phase() -> None:
    game = Game(None, players=2, seed=2)
    move = Move(*board_first(game), None)
    turn = game.turn
    game.push_placement(move)
    assert game.phase is Phase.TURN_END and game.turn == turn and game.current_tile is None
    game.pop()
    assert game.phase is Phase.PLACE and game.current_tile is not None


def board_first(game: Game):
    tile = game.current_tile
    assert tile is not None
    return game.board.placements(tile)[0]


def test_board_trials_nest() -> None:
    game = Game(load_map(bundled_map("france")), players=2, seed=5)
    board = game.board
    tile = game.current_tile
    assert tile is not None
    original = board_state(board)
    (sq1, rot1), *_ = board.placements(tile)
    outer = board.begin_trial()
    board.place(sq1, tile, rot1)
    after_first = board_state(board)
    second = next(p for p in board.placements("D") if p[0] != sq1)
    inner = board.begin_trial()
    board.place(second[0], "D", second[1])
    assert board_state(board) != after_first
    board.end_trial(inner)
    assert board_state(board) == after_first
    board.end_trial(outer)
    assert board_state(board) == original


def _fresh_sides(b: Board, sq) -> object:
    kept = b._side_cache
    b._side_cache = {}
    try:
        return b._sides(sq)
    finally:
        b._side_cache = kept


@pytest.mark.parametrize("name", ["france", "deutschland", "italia"])
def test_kept_side_cache_equals_fresh_sides(name: str) -> None:
    """The sides an empty square's cache keeps across placements, trials and copies (roots
    merged away noticed when read) equal a fresh computation at every turn of greedy games."""
    m = load_map(bundled_map(name))
    checked = 0
    for seed in range(2):
        game = Game(m, players=3, seed=seed)
        bot = GreedyBot(seed=seed)
        while not game.is_over():
            board = game.board
            if game.phase is Phase.PLACE:
                squares = list(board._front)
                for sq in squares:
                    assert board._sides(sq) == _fresh_sides(board, sq), (seed, game.turn, sq)
                    checked += 1
                tile = game.current_tile
                assert tile is not None
                for sq, rot in board.placements(tile)[:6]:  # a trial, then the cache again
                    mark = board.begin_trial()
                    board.place(sq, tile, rot)
                    for q in squares:
                        if q in board._front:
                            assert board._sides(q) == _fresh_sides(board, q), (seed, sq, q)
                    board.end_trial(mark)
                for sq in squares:
                    assert board._sides(sq) == _fresh_sides(board, sq), (seed, game.turn, sq)
                if game.turn % 7 == 3:
                    game = game.copy()  # a copy shares the cache until either board changes
            game.apply(bot.choose(game))
    assert checked > 1000


@pytest.mark.parametrize(("name", "players"), [("deutschland", 4), ("iberica", 3), (None, 2)])
def test_remembered_previews_agree_on_both_builds(name: str | None, players: int) -> None:
    """Without patching (a compiled class takes no patch): at every turn of a game of greedy
    and Monte-Carlo moves, each placement's preview given by the board that remembers (its
    memo shared with the bots' copies and trials) equals one worked out with no memo, and
    many were given from the memo."""
    m = load_map(bundled_map(name)) if name else None
    game = Game(m, players=players, seed=2)
    memo: dict[Any, Any] = {}
    game.board.remember_previews(memo)
    greedy = GreedyBot(seed=2)
    mcts = MCTSBot(seed=2, iterations=40)
    asked = given = 0
    while not game.is_over():
        board = game.board
        tile = game.current_tile
        if tile is not None:
            for sq, rot in board.placements(tile):
                sides = board.preview_sides(sq)
                if sides is None:
                    continue
                before = memo.get((sq, tile, rot))
                got = board.preview(sq, tile, rot, sides)
                asked += 1
                given += before is not None and memo.get((sq, tile, rot)) is before
                board.remember_previews(None)
                fresh = board.preview(sq, tile, rot, sides)
                board.remember_previews(memo)
                assert (list(got[0]), got[1], list(got[2].items())) == (
                    list(fresh[0]),
                    fresh[1],
                    list(fresh[2].items()),
                ), (sq, tile, rot)
        bot = mcts if game.turn % 9 == 4 else greedy
        game.apply(bot.choose(game))
    assert asked > 500
    assert given > 0


@pytest.mark.skipif(
    build.build_name() != "pure Python",
    reason="patches Board's methods, which a compiled class refuses; on the compiled build "
    "test_remembered_previews_agree_on_both_builds and the seeded Monte-Carlo digest cover it",
)
@pytest.mark.parametrize(("name", "players"), [("deutschland", 4), ("iberica", 3), (None, 2)])
def test_remembered_previews_equal_fresh_ones(
    name: str | None, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every preview a game of greedy and Monte-Carlo moves asks for equals one worked out
    anew on that board, and most were remembered: the game's board remembers (shared with the
    greedy bot's copies and trials) and each Monte-Carlo move's iterations share their own."""
    asked = [0, 0]  # previews asked for, previews worked out by the board
    remembering = Board.preview
    real = Board._preview

    def counted(self: Board, *args: Any) -> Any:
        asked[1] += 1
        return real(self, *args)

    def checked(self: Board, square: Any, tile_id: str, rotation: int, sides: Any) -> Any:
        asked[0] += 1
        got = remembering(self, square, tile_id, rotation, sides)
        fresh = real(self, square, tile_id, rotation, sides)
        assert (list(got[0]), got[1], list(got[2].items())) == (
            list(fresh[0]),
            fresh[1],
            list(fresh[2].items()),
        ), (square, tile_id, rotation)
        return got

    monkeypatch.setattr(Board, "_preview", counted)
    monkeypatch.setattr(Board, "preview", checked)
    m = load_map(bundled_map(name)) if name else None
    game = Game(m, players=players, seed=2)
    game.board.remember_previews({})
    greedy = GreedyBot(seed=2)
    mcts = MCTSBot(seed=2, iterations=40)
    while not game.is_over():
        bot = mcts if game.turn % 9 == 4 else greedy
        game.apply(bot.choose(game))
    assert asked[0] > 2000
    assert asked[0] - asked[1] > asked[0] // 2  # remembered


def test_preview_features_compare_by_their_fields() -> None:
    """A record, not a tuple: equal (and hashing alike) exactly when every field is, on both
    builds (an extension type on the compiled one)."""
    fields = (FIELD, (4, 9), 0, 0, 1, (2,), frozenset({7}), (0,))
    a = PreviewFeature(*fields)
    assert a == PreviewFeature(*fields)
    assert hash(a) == hash(PreviewFeature(*fields))
    assert a.fields() == fields
    assert (a.kind, a.roots, a.open, a.tiles, a.coa) == (FIELD, (4, 9), 0, 0, 1)
    assert (a.meeples, a.cities, a.own_cities) == ((2,), frozenset({7}), (0,))
    for i in range(len(fields)):
        other = list(fields)
        other[i] = (99,) if isinstance(fields[i], tuple) else 99
        assert a != PreviewFeature(*other), i
    assert a != fields  # not a tuple any more
    assert repr(a).startswith("PreviewFeature(kind=2, roots=(4, 9), open=0,")
