"""The greedy bot's fast placement values equal the plain "push every move, evaluate, pop" ones."""

from __future__ import annotations

import random

import pytest
from _greedy_checks import check_greedy_values

import engine.bots.greedy_bot as greedy
from engine.analysis.simulate import SimConfig, play_one, rule_set_for
from engine.game import Game, Phase
from engine.mapio import load_map
from engine.resources import bundled_map


@pytest.mark.parametrize(
    ("name", "rules_on"),
    [
        ("example-small", False),
        ("deutschland", True),
        ("deutschland", False),
        ("france", True),
        ("benelux", True),
        ("iberica", True),
        ("great-britain", True),
        ("italia", True),
    ],
)
def test_fast_values_match_the_plain_evaluation(monkeypatch, name: str, rules_on: bool) -> None:
    decisions, mismatches = check_greedy_values(monkeypatch)
    m = load_map(bundled_map(name))
    rule_set, _ = rule_set_for(m, rules_on)
    play_one(m, SimConfig(games=1, bot="greedy"), 0, rule_set)
    assert len(decisions) > 20
    assert mismatches == []


@pytest.mark.parametrize("name", ["deutschland", "france", "great-britain", "iberica", "italia"])
def test_rule_choices_judged_in_place_match_the_sampled_copies(monkeypatch, name: str) -> None:
    """A rule-set choice that does not lead to the same player placing is judged once on the
    game itself: equal to judging it on copies whose hidden information is re-dealt. (Benelux
    has none: taking an island tile always leads to placing it.)"""
    import random

    fast = greedy.GreedyBot._lookahead
    compared: list[int] = []
    mismatches: list[str] = []

    def checked(self, game, move, me, plain):
        got = fast(self, game, move, me, plain)
        sims = []
        for k in range(3):
            sim = game.copy(shuffle=random.Random(k))
            sim.apply(move)
            sims.append(sim)
        if not any(s.phase is Phase.PLACE and s.to_move == me for s in sims):
            values = {greedy.evaluate(s, me, self.meeple_value) for s in sims}
            compared.append(1)
            if values != {got}:
                mismatches.append(f"{move}: in place {got}, on copies {sorted(values)}")
        return got

    monkeypatch.setattr(greedy.GreedyBot, "_lookahead", checked)
    m = load_map(bundled_map(name))
    rule_set, _ = rule_set_for(m, True)
    for index in range(2):
        play_one(m, SimConfig(games=1, bot="greedy"), index, rule_set)
    assert compared, "no rule-set choice was judged"
    assert mismatches == []


def test_rotations_of_a_symmetric_tile_that_look_the_same_are_judged_once() -> None:
    from engine.game import Game, GameOptions

    # U is a straight road: turned by 180 degrees it looks the same
    game = Game(None, players=2, seed=1, options=GameOptions(draw_order=("U", "U")))
    moves = game.legal_moves().list()
    groups, twins = greedy._placement_groups(game, moves)
    assert twins, "no twin rotations found for a straight road"
    o = game.board.oriented
    for idxs, (sq, rot) in twins:
        twin_sq, twin_rot = moves[idxs[0]][0], moves[idxs[0]][1]
        assert twin_sq == sq and twin_rot != rot and (twin_rot - rot) % 180 == 0
        assert o("U", twin_rot).shape == o("U", rot).shape
        assert {moves[i][2] for i in idxs} == {moves[i][2] for i in groups[(sq, rot)]}
    assert sum(len(i) for i in groups.values()) + sum(len(i) for i, _ in twins) == len(moves)


@pytest.mark.parametrize(
    ("name", "meeples"), [("deutschland", 7), ("iberica", 4), ("example-small", 3), (None, 2)]
)
def test_best_placements_are_the_best_of_all_values(name: str | None, meeples: int) -> None:
    """The playouts' greedy step, judged from the move blocks, picks among exactly the moves
    the list and :func:`placement_values` give as best, in their order (ties, symmetric
    tiles and turns without a meeple in supply met on the way)."""
    import random

    from engine.game import Game, GameOptions

    m = load_map(bundled_map(name)) if name else None
    game = Game(m, players=3, seed=5, options=GameOptions(meeples=meeples))
    rng = random.Random(5)
    checked = ties = without_meeples = 0
    while not game.is_over():
        if game.phase is Phase.PLACE:
            me = game.to_move
            moves = game.legal_moves().list()
            want = moves
            if len(moves) > 1:
                values = greedy.placement_values(game, moves, me, 0.5)
                top = max(values) - 1e-9
                want = [mv for mv, v in zip(moves, values, strict=True) if v >= top]
            assert greedy.best_placements(game, me, 0.5) == want, game.turn
            checked += 1
            ties += len(want) > 1
            without_meeples += game.supply[me] == 0
        game.apply(rng.choice(game.legal_moves()))
    assert checked > 30 and ties > 3 and without_meeples > 3


def test_the_drawn_move_is_the_one_drawn_from_all_the_ties() -> None:
    """``GreedyBot._drawn`` (only the drawn move built) draws what ``rng.choice(_ties(...))``
    draws over every move, with the generator left in the same state: ties within 1e-9,
    values creeping up by less than 1e-9 (the ties are measured from the value that started
    them), a later best restarting them, a lone best."""
    import random

    from engine.moves import Move

    rng = random.Random(7)
    base = [0.0, 1.0, 2.5]
    for case in range(400):
        entries = []
        got = []
        for k in range(rng.randrange(1, 8)):
            names = [None, *("NESW"[: rng.randrange(4)])]
            entries.append(((k, -k), 90 * rng.randrange(4), names))
            got.append(
                [rng.choice(base) + rng.choice([0.0, 4e-10, 8e-10, 1.2e-9, -6e-10]) for _ in names]
            )
        moves = [Move(sq, rot, loc) for sq, rot, names in entries for loc in names]
        values = [v for vs in got for v in vs]
        bot = greedy.GreedyBot(seed=case)
        want_rng = random.Random(case)
        want = want_rng.choice(greedy._ties(moves, values))
        assert bot._drawn(entries, got) == want, case
        assert bot.rng.getstate() == want_rng.getstate()


def test_best_other_is_the_best_of_the_other_scores() -> None:
    for scores, player, want in (
        ([3, 9, 4], 1, 4),
        ([3, 9, 4], 0, 9),
        ([5], 0, 0),
        ([-2, -7], 0, -7),
        ([1.5, 2, 2.0], 0, 2),
    ):
        assert greedy._best_other(scores, player) == want
        others = scores[:player] + scores[player + 1 :]
        assert greedy._best_other(scores, player) == (max(others) if others else 0)


def test_placements_next_to_a_monk_value_as_played_out() -> None:
    """``_joined_value`` looks at the monks only for a square in ``near_monks``: every placing
    move on a square next to a monk (where a monk's points change) is valued as pushing it and
    evaluating does, on both builds (no patching), and many such moves were compared."""
    from engine.game import Game
    from engine.moves import Move

    near = 0
    for seed in range(3):
        game = Game(None, players=2, seed=seed)
        bot = greedy.GreedyBot(seed=seed)
        while not game.is_over():
            if game.phase is Phase.PLACE:
                monks = [sq for _p, sq, _loc, node, _s in game.meeples.values() if node < 0]
                moves = [
                    mv
                    for mv in game.legal_moves().list()
                    if isinstance(mv, Move)
                    and any(abs(mv[0][0] - x) <= 1 and abs(mv[0][1] - y) <= 1 for x, y in monks)
                ]
                if moves:
                    me = game.to_move
                    got = greedy.placement_values(game, moves, me, 0.5)
                    assert got == greedy.reference_values(game, moves, me, 0.5), game.turn
                    near += len(moves)
            game.apply(bot.choose(game))
    assert near > 100


@pytest.mark.parametrize("name", ["deutschland", "iberica", None])
def test_a_placements_locations_are_distinct_so_sets_compare_them(name: str | None) -> None:
    """``_same_locations`` compares two placements' meeple locations as sets: equal to the
    sorted comparison on every pair of placements of the same square in whole games, since a
    placement offers each location (and ``None``) once."""
    m = load_map(bundled_map(name)) if name else None
    game = Game(m, players=3, seed=7)
    rng = random.Random(7)
    pairs = differ = 0
    while not game.is_over():
        if game.phase is Phase.PLACE:
            by_square: dict[tuple[int, int], list[list[str | None]]] = {}
            for sq, _rot, names in greedy._placement_entries(game):
                assert len(set(names)) == len(names) and names[0] is None
                by_square.setdefault(sq, []).append(names)
            for lists in by_square.values():
                for a in lists:
                    for b in lists:
                        want = sorted(map(str, a)) == sorted(map(str, b))
                        assert greedy._same_locations(a, b) == want, (a, b)
                        pairs += 1
                        differ += not want
        game.apply(rng.choice(game.legal_moves()))
    assert pairs > 300 and differ > 30
