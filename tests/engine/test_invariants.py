"""Property tests: thousands of random games on the example map and the classic board, with the
invariants checked after every turn (hypothesis picks seeds, player counts and options)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Game, GameOptions
from engine.mapio import load_map
from engine.moves import Move
from engine.record import GameRecord, dumps_record, loads_record
from engine.replaying import replay
from engine.resources import bundled_map

EXAMPLE = load_map(bundled_map())
SETTINGS = settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def _check_turn(
    g: Game,
    before_scores: list[int],
    move: object,
    scores_may_drop: bool,
    elsewhere: list[int] | None = None,
) -> None:
    """``elsewhere``: each player's meeples neither in supply nor on the board (Isle of Man)."""
    f = g.board.features
    # meeples conserved
    on_board = Counter(m[0] for m in g.meeples.values())
    for p in range(len(g.players)):
        away = elsewhere[p] if elsewhere else 0
        assert g.supply[p] + on_board[p] + away == g.meeples_per_player
        assert g.supply[p] >= 0
    # the meeple just placed went on a feature nobody else held
    if isinstance(move, Move) and move.meeple is not None:
        mid = max(g.meeples, default=-1)
        if mid >= 0 and g.meeples[mid][1] == move.square:
            node = g.meeples[mid][3]
            if node >= 0:
                assert f.meeples[f.find(node)] == (mid,)
    # meeples sit on the feature index consistently
    for mid, (_p, sq, _loc, node, _s) in g.meeples.items():
        if node < 0:
            assert g.monks[sq] == mid
        else:
            assert mid in f.meeples[f.find(node)]
    # a completed feature never keeps meeples during the game (it was scored, they came back);
    # a rule set with an action after the tile (Iberica, Deutschland) scores when that is done
    if not g.is_over() and g.phase.value == "place":
        for root in f.done:
            assert root not in f.meeples
    # scores never decrease
    if not scores_may_drop:
        assert all(a >= b for a, b in zip(g.scores, before_scores, strict=True))


def _check_end(g: Game) -> None:
    mid_game = Counter(e.feature for e in g.events if e.feature is not None and not e.final)
    assert all(n == 1 for n in mid_game.values()), mid_game
    final = Counter(e.feature for e in g.events if e.feature is not None and e.final)
    assert all(n == 1 for n in final.values()), final
    assert not set(mid_game) & set(final)
    monks = Counter(e.squares for e in g.events if e.kind == "monastery")
    assert all(n == 1 for n in monks.values())
    assert sum(e.points * len(e.players) for e in g.events) == sum(g.scores)
    for p in range(len(g.players)):
        assert sum(g.breakdown[p].values()) == g.scores[p]
    # the record replays to the identical state
    text = dumps_record(g.record())
    assert replay(loads_record(text)).state_summary() == g.state_summary()


def _play(g: Game, seed: int, scores_may_drop: bool = False) -> Game:
    rng = random.Random(seed)
    while not g.is_over():
        before = g.scores[:]
        move = rng.choice(g.legal_moves().list())
        g.play(move)
        _check_turn(g, before, move, scores_may_drop)
    _check_end(g)
    return g


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**31), players=st.integers(2, 6), farmers=st.booleans())
def test_random_classic_games_keep_every_invariant(seed: int, players: int, farmers: bool) -> None:
    g = Game(None, players=players, seed=seed, options=GameOptions(farmers=farmers))
    _play(g, seed)
    assert g.turn + len(g.set_aside) == 71


@pytest.mark.slow
@SETTINGS
@given(
    seed=st.integers(0, 2**31),
    players=st.integers(2, 6),
    town_a=st.booleans(),
    town_b=st.booleans(),
    town_c=st.booleans(),
    connect=st.sampled_from(["any_edge", "city_edge"]),
    road_tile=st.booleans(),
    fields_touch=st.booleans(),
)
def test_random_map_games_keep_every_invariant(
    seed: int,
    players: int,
    town_a: bool,
    town_b: bool,
    town_c: bool,
    connect: str,
    road_tile: bool,
    fields_touch: bool,
) -> None:
    opts = GameOptions(
        rule_set="none",
        town_extra_tile=town_a,
        town_cost=town_b,
        town_road_bonus=town_c,
        large_city_connect=connect,
        large_city_road_tile=road_tile,
        fields_touch_large_city=fields_touch,
    )
    g = Game(EXAMPLE, players=players, seed=seed, options=opts)
    _play(g, seed, scores_may_drop=town_b)
    # every placed tile is on a placeable square of the map
    assert set(g.board.tiles) <= EXAMPLE.placeable_squares()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31), cut=st.integers(0, 200))
def test_saving_mid_game_continues_exactly(seed: int, cut: int) -> None:
    full = _play(Game(EXAMPLE, seed=seed, options=GameOptions(rule_set="none")), seed)
    cut = min(cut, len(full.history))
    rec = full.record()
    partial = GameRecord.from_dict({**rec.to_dict(), "actions": rec.to_dict()["actions"][:cut]})
    resumed = replay(loads_record(dumps_record(partial)))
    for action in full.history[cut:]:
        resumed.play(action)
    assert resumed.state_summary() == full.state_summary()
