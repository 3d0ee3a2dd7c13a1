"""The greedy bot judges on the game itself what it used to judge on copies, and plays the very
same games: placements on the game re-dealt in place (``Game.push_redeal``) instead of a re-dealt
copy, rule-set choices on a held turn (``Game.push_placement``) instead of a full push.

The reference is the unskipped path, kept here: a copy re-dealt with the bot's generator for
every placing decision, a full ``push`` for every rule-set choice. Both bots play whole games in
lockstep on maps with face-down values (Map-Chips), island stacks, rule choices and none; every
action, the bots' generators and the order of the next legal moves must stay equal.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import engine.bots.greedy_bot as greedy
from engine.analysis.simulate import new_game, rule_set_for
from engine.bots.greedy_bot import GreedyBot
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Action
from engine.resources import bundled_map


class _Copying(GreedyBot):
    """The greedy bot as it was: every placing decision on a re-dealt copy, every rule-set
    choice judged after a full push."""

    def _lookahead(self, game: Game, move: Action, me: int, plain: bool = False) -> float:
        game.push(move)
        if not (game.phase is Phase.PLACE and game.to_move == me):
            value = greedy.evaluate(game, me, self.meeple_value)
            game.pop()
            return value
        game.pop()
        return self._sampled(game, move, me)

    def choose(self, game: Game) -> Action:
        moves = game.legal_moves().list()
        if len(moves) == 1:
            return moves[0]
        me = game.decider
        if game.phase is Phase.PLACE:
            view = game.copy(shuffle=self.rng)
            values = greedy.placement_values(view, moves, me, self.meeple_value)
        else:
            values = [self._lookahead(game, move, me) for move in moves]
        return self.rng.choice(greedy._ties(moves, values))


def _lockstep(make: Callable[[], Game], seed: int) -> tuple[int, int]:
    """Play one game with both bots side by side; returns (placing decisions, rule choices)."""
    fast, slow = make(), make()
    rng = random.Random(seed)
    seeds = [rng.randrange(1 << 30) for _ in fast.players]
    fast_bots = [GreedyBot(seed=s) for s in seeds]
    slow_bots = [_Copying(seed=s) for s in seeds]
    placing = choices = 0
    while not fast.is_over():
        moves = fast.legal_moves().list()
        assert moves == slow.legal_moves().list(), f"turn {fast.turn}: moves in another order"
        if len(moves) > 1:
            if fast.phase is Phase.PLACE:
                placing += 1
            else:
                choices += 1
        who = fast.to_move
        a, b = fast_bots[who].choose(fast), slow_bots[who].choose(slow)
        assert a == b, f"turn {fast.turn}: in place {a}, on copies {b}"
        assert fast_bots[who].rng.getstate() == slow_bots[who].rng.getstate()
        fast.apply(a)
        slow.apply(b)
    assert fast.record().to_dict() == slow.record().to_dict()
    return placing, choices


@pytest.mark.parametrize(
    ("name", "players", "rules_on"),
    [
        ("deutschland", 4, True),  # face-down chips, upgrades: plain rules
        ("deutschland", 2, False),  # no rule set: nothing hidden
        ("france", 3, True),
        ("benelux", 2, True),  # island stacks
        ("great-britain", 3, True),
        ("iberica", 2, True),
        ("italia", 3, True),
        (None, 2, False),  # the classic table
    ],
)
def test_in_place_judging_plays_the_games_copies_play(
    name: str | None, players: int, rules_on: bool
) -> None:
    if name is None:

        def make() -> Game:
            return Game(None, players=players, seed=7, options=GameOptions())

    else:
        m = load_map(bundled_map(name))
        rule_set, _ = rule_set_for(m, rules_on)

        def make() -> Game:
            return new_game(m, players, 7, rule_set)

    placing, choices = _lockstep(make, 7)
    assert placing > 20
    if rules_on and name == "deutschland":
        assert choices > 5  # the held-turn path was taken


def test_rules_that_are_not_plain_keep_the_copies() -> None:
    """Towns (their road bonus adjusts scorings: not plain) judge with full pushes, which leave
    a compacted copy of the board behind: on the game itself they would reorder later moves."""
    m = load_map(bundled_map("france"))
    opts = GameOptions(rule_set="none", town_extra_tile=True, town_cost=True, town_road_bonus=True)

    def make() -> Game:
        return Game(m, players=3, seed=5, options=opts)

    assert not all(r.bot_hints.plain_scoring for r in make().rules)
    placing, choices = _lockstep(make, 5)
    assert placing > 20


def test_push_redeal_is_the_copy_redealt_and_pop_undoes_it() -> None:
    """``push_redeal`` re-deals exactly as ``copy(shuffle=...)``: the same pile, face-down
    chips and generator afterwards; ``pop`` gives the game back unchanged."""
    m = load_map(bundled_map("deutschland"))
    rule_set, _ = rule_set_for(m, True)
    game = new_game(m, 4, 3, rule_set)
    bot = GreedyBot(seed=3)
    while game.turn < 12:
        game.apply(bot.choose(game))
    before = game.state_summary()
    pile = game.pile[:]
    state = game.rule_state["deutschland"]
    down = dict(state.down)
    copy_rng, rng = random.Random(11), random.Random(11)
    copied = game.copy(shuffle=copy_rng)
    game.push_redeal(rng)
    assert rng.getstate() == copy_rng.getstate()
    assert game.pile == copied.pile != pile
    assert game.rule_state["deutschland"].down == copied.rule_state["deutschland"].down
    assert game.rule_state["deutschland"].down != down  # something was re-dealt
    game.pop()
    assert game.pile == pile
    assert game.rule_state["deutschland"].down == down
    assert game.state_summary() == before


def test_a_rule_drawing_inside_push_redeal_draws_as_on_the_copy() -> None:
    """No rule set draws from ``ctx.rng`` in play today; one that did would draw on the
    re-dealt position exactly what it draws on the copy (trials do not undo draws, as on a
    copy), and ``pop`` leaves the game's generator where it was."""
    from engine.rules.context import RuleContext

    m = load_map(bundled_map("deutschland"))
    rule_set, _ = rule_set_for(m, True)
    game = new_game(m, 2, 4, rule_set)
    before = game.rng.getstate()
    move = game.legal_moves().list()[0]

    def draws(position: Game) -> list[float]:
        ctx = RuleContext.of(position)
        got = [ctx.rng.random()]
        position.push_placement(move)
        got.append(ctx.rng.random())
        position.pop()
        got.append(ctx.rng.random())
        return got

    on_copy = draws(game.copy(shuffle=random.Random(2)))
    game.push_redeal(random.Random(2))
    in_place = draws(game)
    game.pop()
    assert in_place == on_copy
    assert game.rng.getstate() == before
    assert draws(game) == on_copy  # the game itself draws the same from there
