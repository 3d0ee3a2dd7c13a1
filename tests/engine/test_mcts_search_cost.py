"""What makes an MCTS move cheaper changes nothing the bot chooses: a round's shared
determinisation, and the collector's thresholds (changed only during the search)."""

from __future__ import annotations

import gc
import math
import random
import threading
from collections.abc import Callable, Iterator

import pytest

from engine.bots import make_bot, play_game
from engine.bots.evaluation import seat_values
from engine.bots.greedy_bot import judged_placements, placement_values
from engine.bots.mcts_bot import SEARCH_GC_YOUNG, MCTSBot, _expanded, _Node, tuned_collector
from engine.game import Game, GameOptions, Phase
from engine.mapio import load_map
from engine.moves import Move
from engine.resources import bundled_map


@pytest.fixture
def thresholds() -> Iterator[tuple[int, int, int]]:
    """Unusual thresholds of the caller's, restored after the test whatever happens."""
    old = gc.get_threshold()
    gc.set_threshold(1234, 7, 8)
    try:
        yield (1234, 7, 8)
    finally:
        gc.set_threshold(*old)


def _deutschland(turns: int) -> Game:
    m = load_map(bundled_map("deutschland"))
    g = Game(m, players=3, seed=5, options=GameOptions(rule_set="deutschland"))
    bot = make_bot("greedy", seed=2)
    while g.turn < turns:
        g.play(bot.choose(g))
    return g


def test_search_collects_less_often_and_restores_the_callers_thresholds(
    thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[int, int, int]] = []
    real = MCTSBot._search

    def search(self: MCTSBot, game: Game, moves: list) -> object:
        seen.append(gc.get_threshold())
        return real(self, game, moves)

    monkeypatch.setattr(MCTSBot, "_search", search)
    g = Game(None, seed=3)
    move = MCTSBot(iterations=20, seed=1).choose(g)
    assert move in g.legal_moves()
    assert seen == [(SEARCH_GC_YOUNG, 7, 8)]  # the older generations' stay the caller's
    assert gc.get_threshold() == thresholds


def test_thresholds_restored_when_the_search_raises(
    thresholds: tuple[int, int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def search(self: MCTSBot, game: Game, moves: list) -> object:
        assert gc.get_threshold() == (SEARCH_GC_YOUNG, 7, 8)
        raise RuntimeError("in the middle of a search")

    monkeypatch.setattr(MCTSBot, "_search", search)
    with pytest.raises(RuntimeError, match="middle of a search"):
        MCTSBot(iterations=20, seed=1).choose(Game(None, seed=3))
    assert gc.get_threshold() == thresholds


def test_the_first_collection_after_a_search_finds_its_previews_freed() -> None:
    # the collection the caller's thresholds bring back right after a search traverses what
    # the search left alive: the remembered previews must be gone by then (the tree stays)
    bot = MCTSBot(iterations=40, seed=1)
    g = Game(None, seed=3)
    previews_alive: list[bool] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and gc.get_threshold()[0] == 1:  # the caller's, not the search's
            previews_alive.append(bool(bot._previews))

    old = gc.get_threshold()
    gc.set_threshold(1, 7, 8)
    gc.callbacks.append(watch)
    try:
        bot.choose(g)
    finally:
        gc.callbacks.remove(watch)
        gc.set_threshold(*old)
    assert previews_alive  # collections ran outside the search (threshold 1)
    assert not any(previews_alive)


def test_tuned_collector_never_collects_more_often_nor_turns_collection_on(
    thresholds: tuple[int, int, int],
) -> None:
    gc.set_threshold(2 * SEARCH_GC_YOUNG, 5, 500)
    with tuned_collector():
        assert gc.get_threshold() == (2 * SEARCH_GC_YOUNG, 5, 500)
    assert gc.get_threshold() == (2 * SEARCH_GC_YOUNG, 5, 500)
    gc.set_threshold(0, 10, 10)  # the caller turned automatic collection off
    with tuned_collector():
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)


def test_overlapping_searches_in_two_threads_restore_the_callers_thresholds(
    thresholds: tuple[int, int, int],
) -> None:
    # A enters, B enters, A leaves while B still searches, B leaves: not nested, as two
    # seats' bots searching in two threads of one process can be
    b_entered, a_left = threading.Event(), threading.Event()
    seen: dict[str, tuple[int, int, int]] = {}

    def a() -> None:
        with tuned_collector():
            b_entered.wait(5)
        seen["after A left"] = gc.get_threshold()
        a_left.set()

    def b() -> None:
        with tuned_collector():
            b_entered.set()
            a_left.wait(5)
            seen["B still searching"] = gc.get_threshold()

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen["after A left"] == (SEARCH_GC_YOUNG, 7, 8)
    assert seen["B still searching"] == (SEARCH_GC_YOUNG, 7, 8)
    assert gc.get_threshold() == thresholds


def _tree(node: _Node) -> object:
    """A tree's statistics, children in insertion order (which the selection depends on)."""
    return (
        node.player,
        node.visits,
        node.total,
        node.avail,
        node.sums,
        [(k, _tree(c)) for k, c in node.children.items()],
    )


@pytest.mark.parametrize("turns", [4, 12])
def test_a_shared_determinisation_plays_the_same_iterations_as_a_deal_per_move(
    turns: int,
) -> None:
    game = _deutschland(turns)
    bots = [MCTSBot(seed=9), MCTSBot(seed=9)]
    roots = [_Node(), _Node()]
    rewards: list[list[list[float]]] = [[], []]
    for bot in bots:
        bot._me = game.decider
        bot._previews = {}
    cands = bots[0]._ordered(roots[0], game)[:4]
    for round_seed in (11, 12, 13):
        for cand in cands:  # a deal of its own per move (as before)
            rewards[0].append(bots[0]._iterate(roots[0], game, random.Random(round_seed), cand))
        deal = random.Random(round_seed)
        dealt = game.copy(shuffle=deal)
        after = deal.getstate()
        for i, cand in enumerate(cands):
            deal.setstate(after)
            sim = dealt if i == len(cands) - 1 else dealt.copy()  # the last plays on the deal
            rewards[1].append(bots[1]._iterate(roots[1], sim, deal, cand, dealt=True))
    assert rewards[0] == rewards[1]
    assert _tree(roots[0]) == _tree(roots[1])
    assert len(roots[1].children) == len(cands)


@pytest.mark.parametrize("name", ["deutschland", None])
def test_judged_placements_are_placement_values_in_the_moves_order(name: str | None) -> None:
    """The placements judged without building the moves are the moves of the list, in its
    order, and their values are placement_values' to the last bit (ties, twins met)."""
    m = load_map(bundled_map(name)) if name else None
    game = Game(m, players=3, seed=6, options=GameOptions(meeples=4))
    rng = random.Random(6)
    checked = 0
    while not game.is_over():
        if game.phase is Phase.PLACE:
            me = game.to_move
            entries, table = judged_placements(game, me, 0.5)
            moves = game.legal_moves().list()
            assert [Move(sq, rot, loc) for sq, rot, names in entries for loc in names] == moves
            if len(moves) > 1:
                flat = [v for values in table for v in values]
                assert flat == placement_values(game, moves, me, 0.5), game.turn
                checked += 1
            else:
                assert table == []
        game.apply(rng.choice(game.legal_moves()))
    assert checked > 30


def test_a_first_visit_takes_the_move_the_full_ordering_ranks_first() -> None:
    """A placement seen for the first time: the child taken without ordering every move is
    the full ordering's first, with its prior; the ordering made later from what was judged
    then is the one made from scratch."""
    game = _deutschland(12)
    bots = [MCTSBot(seed=2), MCTSBot(seed=2)]
    nodes = [_Node(), _Node()]
    got = bots[0]._select(nodes[0], game)
    assert isinstance(nodes[0].orders[(Phase.PLACE, game.current_tile, game.decider)], tuple)
    full = bots[1]._ordered(nodes[1], game)
    assert got == (*full[0], True)
    assert bots[0]._ordered(nodes[0], game) == full  # completed from the first visit's values
    assert isinstance(nodes[0].orders[(Phase.PLACE, game.current_tile, game.decider)], list)


def _reference_rewards(bot: MCTSBot, scores: list[float], over: bool) -> list[float]:
    """Each seat's reward from its margin over the best other seat, seat by seat."""
    out = []
    for p, mine in enumerate(scores):
        margin = mine - max(s for q, s in enumerate(scores) if q != p)
        squashed = 0.5 + 0.5 * math.tanh(margin / bot.scale)
        if over:
            base = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            squashed = 0.9 * base + 0.1 * squashed
        out.append(squashed)
    return out


@pytest.mark.parametrize("evaluation", ["learned", "projected"])
def test_rewards_are_each_seats_margin_over_the_best_other(evaluation: str) -> None:
    bot = MCTSBot(evaluation=evaluation)
    tied = Game(None, players=3, seed=1)  # nothing placed: the projected values tie
    positions = [tied, _deutschland(4), _deutschland(12)]
    over = Game(None, seed=2)
    play_game(over, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    positions.append(over)
    for game in positions:
        if game.is_over():
            scores: list[float] = list(game.projected_scores())
        elif evaluation == "learned":
            scores = seat_values(game)
        else:
            scores = [s + game.supply[p] for p, s in enumerate(game.projected_scores())]
        assert bot._rewards(game) == _reference_rewards(bot, scores, game.is_over())


def test_a_copy_sharing_the_generator_draws_as_a_copy_and_puts_it_back() -> None:
    """``Game.copy(share_rng=True)``: no rule set draws from ``ctx.rng`` in play today; one
    that did would draw on the sharing copy what it draws on a copy (trials keep their draws,
    a re-deal's are undone, as on a copy), and ``release_rng`` puts the game's generator back."""
    from engine.rules.context import RuleContext

    game = _deutschland(6)
    before = game.rng.getstate()
    move = game.legal_moves().list()[0]

    def draws(position: Game) -> list[float]:
        """A rule's draw before the first step and after each (through ``ctx.rng``, which
        keeps the state at a sharing copy's first draw)."""
        ctx = RuleContext.of(position)
        steps: list[list[Callable[[], object]]] = [
            [],
            [lambda: position.push_placement(move)],  # a trial keeps its draws
            [position.pop, lambda: position.push_redeal(random.Random(3))],
            [position.pop],  # a re-deal's draws are undone
            [lambda: position.apply(move)],
        ]
        got = []
        for before_draw in steps:
            for step in before_draw:
                step()
            got.append(ctx.rng.random())
        return got

    on_copy = draws(game.copy(shuffle=random.Random(2)))
    assert len(set(on_copy)) == 4  # the re-deal's draw was undone: drawn again after it
    shared = game.copy(shuffle=random.Random(2), share_rng=True)
    assert shared.rng is game.rng
    assert draws(shared) == on_copy
    assert game.rng.getstate() != before
    shared.release_rng()
    assert game.rng.getstate() == before
    # a copy of a sharing copy shares too (the search's rounds), and one that drew nothing
    # gives back nothing
    dealt = game.copy(shuffle=random.Random(2), share_rng=True)
    inner = dealt.copy(share_rng=True)
    assert draws(inner) == on_copy
    inner.release_rng()
    dealt.release_rng()
    assert game.rng.getstate() == before
    assert draws(dealt) == on_copy
    dealt.release_rng()
    assert game.rng.getstate() == before


def test_the_search_draws_in_every_determinisation_what_a_copy_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rule drawing from ``ctx.rng`` in a playout would draw the same in every iteration's
    determinisation (each a copy of the game, sharing its generator), and the game's
    generator is where it was after the search."""
    from engine.rules.context import RuleContext

    game = _deutschland(8)
    before = game.rng.getstate()
    expected = game.copy().rng.random()
    seen: list[float] = []
    playout = MCTSBot._playout

    def drawing(self: MCTSBot, sim: Game, rng: random.Random | None = None) -> None:
        seen.append(RuleContext.of(sim).rng.random())
        playout(self, sim, rng)

    monkeypatch.setattr(MCTSBot, "_playout", drawing)
    MCTSBot(iterations=40, seed=3).choose(game)
    MCTSBot(iterations=10, seed=3, halving=False).choose(game)
    assert len(seen) == 50
    assert set(seen) == {expected}
    assert game.rng.getstate() == before


def test_expanded_counts_the_ordered_moves_with_a_child(monkeypatch) -> None:
    """``_expanded`` (a typed loop in the compiled build) against the count by definition, on
    the orderings and children a real search meets."""
    ordered_of = MCTSBot._ordered
    seen: list[tuple[int, int]] = []

    def checked(self, node, sim):
        ordered = ordered_of(self, node, sim)
        children = node.children
        want = sum(1 for key, _a, _q in ordered if key in children)
        seen.append((_expanded(ordered, children), want))
        return ordered

    monkeypatch.setattr(MCTSBot, "_ordered", checked)
    MCTSBot(seed=3, iterations=120).choose(_deutschland(20))
    assert len(seen) > 20 and any(want > 0 for _got, want in seen)
    assert all(got == want for got, want in seen)
