"""Information-set Monte-Carlo tree search (ISMCTS) with greedy-guided playouts.

Hidden information: every iteration searches a *determinisation*, a copy of the game whose hidden
draw pile (and whatever a rule set keeps face down) is re-dealt from what the bot cannot see
(``Game.copy(shuffle=...)``). The bot never peeks at the real order.

The tree (single-observer ISMCTS, Cowling, Powley & Whitehouse 2012): one tree for the whole
information set. A node's children are keyed by the action taken and, for a placing move, the tile
that was placed, so one node holds the same position in every determinisation that reaches it.
An action is *available* in a determinisation when it is legal there; selection is UCB1 with the
availability count in place of the parent's visits. Every seat's decisions are in the tree, and
rule-set actions (wine, island tiles, the Isle of Man, treats, upgrades, extra turns) are children
like placing moves.

The root: sequential halving with common random numbers (Karnin, Koren & Somekh 2013; Cazenave
2015). The ``root_candidates`` best moves by the greedy evaluation are compared in rounds; in a
round every surviving move is tried once in the same determinisation with the same playout
draws, so two moves are judged on the same tiles and most of the luck of the draw cancels out.
Each phase spends an equal share of the budget and keeps the better half (the greedy evaluation
counts as ``prior_visits`` tries, as below). Under plain UCB1 the root spread a few hundred
iterations almost evenly over 25 moves, a dozen noisy playouts each. Below the root, and at the
root with a time budget, the tree is searched with UCB1 as follows.

Progressive widening: a node offers its moves in the order of the greedy evaluation
(:func:`engine.bots.greedy_bot.placement_values` for placing moves) and lets a new child in only
when ``widening * sqrt(visits)`` grows past the number it has, so a small budget goes to the moves
a sensible player would consider first and more are tried as the node is visited more.

Progressive bias: each child starts from the mover's mean reward at its node, less what the
greedy evaluation says the move loses against the best one, counted as ``prior_visits`` visits;
so a few noisy playouts do not pull the bot far from the greedy choice, and the search moves away
from it when the playouts say so. (Relative, not absolute: with an absolute prior the least
visited child looks best whenever the mover is behind.)

Playouts: epsilon-greedy (the greedy evaluation, a random action with probability ``epsilon``)
for ``playout_turns`` turns (2 by default: short playouts and many iterations beat long ones and
few at the same CPU), then the position is judged by the final margin the learned evaluation
expects (:mod:`engine.bots.evaluation`; ``evaluation="projected"``: the projected scores, a
meeple in supply worth ``meeple_value``): ``0.5 + 0.5 * tanh(margin / scale)`` for each seat
(1, 0.5 or 0 with a small margin term when the game ended).

Search reuse: after the bot moves, the subtree under the actions played since (its own and the
other seats') is kept, so the next search starts with the statistics already gathered there.

Budgets are iteration counts (deterministic: the same seed gives the same game on any machine);
``seconds`` is there for interactive use. :func:`level_options` maps strength levels 1..10 onto
budgets (``make_bot("mcts", level=5)``).
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from engine.bots.base import register_bot
from engine.bots.evaluation import seat_values
from engine.bots.greedy_bot import (
    GreedyBot,
    best_placements,
    judged_placements,
    placement_values,
)
from engine.bots.styles import style_named
from engine.errors import EngineError
from engine.game import Phase
from engine.moves import Move

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterator

    from engine.game import Game
    from engine.moves import Action

    Judged = tuple[list[tuple[tuple[int, int], int, list[str | None]]], list[list[float]]]
    """A placement's moves and their values (:func:`engine.bots.greedy_bot.judged_placements`)."""

DEFAULT_ITERATIONS = 250
"""The default budget per move, about 0.25 s of CPU per move on the classic table and 0.4 s on
Deutschland (docs/bots.md has the measured figures against greedy)."""

EVALUATIONS = ("projected", "learned")
"""The ways a playout's last position can be judged (``MCTSBot(evaluation=...)``)."""

DEFAULT_EVALUATION = "learned"
"""The learned evaluation (:mod:`engine.bots.evaluation`): with it the default won 147 of 200
classic games (5 ties) and 168 of 201 Deutschland games against the default of a1cce19, which
judged by the projected scores (docs/bots.md, "Against the default of issue 31")."""

DEFAULT_PLAYOUT_TURNS = 2
"""Greedy turns played out before a position is judged. At the same CPU, 200 iterations of 2
turns won 35 of 40 quick classic games against greedy where 60 iterations of 10 turns won 26,
and 35 against 34 of the first 49 games of the long benchmark (docs/bots.md)."""

LEVELS: dict[int, dict[str, Any]] = {
    1: {"iterations": 1, "playout_turns": 0, "blunder": 0.5},
    2: {"iterations": 2, "playout_turns": 1, "blunder": 0.3},
    3: {"iterations": 4, "playout_turns": 2, "blunder": 0.15},
    4: {"iterations": 8, "playout_turns": 3, "blunder": 0.1},
    5: {"iterations": 8, "playout_turns": 3},
    6: {"iterations": 16, "playout_turns": 4},
    7: {"iterations": 48, "playout_turns": 2, "root_candidates": 8},
    8: {"iterations": DEFAULT_ITERATIONS},
    9: {"iterations": 2 * DEFAULT_ITERATIONS, "root_candidates": 24},
    10: {"iterations": 4 * DEFAULT_ITERATIONS, "root_candidates": 24, "epsilon": 0.0},
}
"""Strength levels 1..10 as budgets (options of :class:`MCTSBot`; the rest default). Level 8 is the
default bot; levels 1-3 search almost nothing and play a random move now and then (``blunder``),
as a beginner would, and level 4 still does now and then: the budgets alone could not space
levels 4-8 (from 8 iterations to the default about 20 points a game in all, 100 iterations no
step above 48; 24 and 40 iterations with long playouts had won 109 and 106 of 200 games against
the level below). Level 7 compares 8 root moves in several rounds each with short playouts (over
12 moves a small budget pays one round per phase and the greedy prior decides). Levels 9 and 10
spend their larger budgets on twice as many root moves: four times the default's iterations over
its 12 moves won 10 of 23 classic games against it, over 24 moves 49 of 81. Level 10's playouts
are greedy throughout (``epsilon`` 0): its comparisons are sharp enough that the random moves in
the playouts only blur them (see docs/bots.md, "Strength levels", for its games against the
default; the default itself did not gain from greedy playouts)."""


def level_options(level: int) -> dict[str, Any]:
    """The :class:`MCTSBot` options of strength ``level`` (1..10)."""
    if level not in LEVELS:
        raise EngineError(f"strength level {level!r} is not one of 1..10")
    return dict(LEVELS[level])


SEARCH_GC_YOUNG = 50_000
"""The collector's young-generation threshold during a search (:func:`tuned_collector`). A
search allocates hundreds of thousands of short-lived tuples and lists, nearly all freed by
reference counting, while the tree and the remembered previews it keeps grow; under the
default threshold (700) the collector traversed those again and again, in young, middle and
full collections: about 50-75 ms of a 550-900 ms default move, and about 20 ms under this one
(docs/performance.md, "Bots"). The older generations keep the caller's thresholds: raised
too, their counts ran past the caller's during the search and forced a full collection as
soon as those were back."""


_COLLECTOR_LOCK = threading.Lock()
_collector_users = 0
"""Searches inside :func:`tuned_collector` now (bots may search in several threads, e.g. the
online host's seats)."""
_collector_saved: tuple[int, int, int] = (700, 10, 10)
"""The thresholds the first of them found, restored when the last leaves."""


@contextmanager
def tuned_collector() -> Iterator[None]:
    """Collect the young generation less often inside the block (:data:`SEARCH_GC_YOUNG`,
    never more often than the caller's threshold), and restore the caller's thresholds on
    leaving it, also when the block raises. The collector stays on: cycles are still freed.
    The thresholds are the process's: with searches in several threads at once, the first to
    enter saves them and the last to leave restores them."""
    global _collector_users, _collector_saved
    with _COLLECTOR_LOCK:
        if _collector_users == 0:
            _collector_saved = old = gc.get_threshold()
            if old[0] > 0:  # 0: the caller turned automatic collection off; leave it off
                gc.set_threshold(max(old[0], SEARCH_GC_YOUNG), *old[1:])
        _collector_users += 1
    try:
        yield
    finally:
        with _COLLECTOR_LOCK:
            _collector_users -= 1
            if _collector_users == 0:
                gc.set_threshold(*_collector_saved)


def _halving_cost(n: int) -> int:
    """The fewest iterations sequential halving over ``n`` moves needs: one round per phase."""
    cost = 0
    while n > 1:
        cost += n
        n = (n + 1) // 2
    return cost


def _key(game: Game, action: Action) -> Hashable:
    """A child's key: the action, and for a placing move the tile placed (different tiles
    lead to different positions)."""
    if isinstance(action, Move):
        return (game.current_tile, action)
    try:
        hash(action)
    except TypeError:
        return repr(action)
    return action


class _Node:
    """A node of the search tree: the statistics of the iterations through it and its children
    (a slotted record; an extension type with C fields on the compiled build)."""

    __slots__ = ("player", "visits", "total", "avail", "children", "orders", "prior", "sums")

    def __init__(self, player: int = -1, avail: int = 0, prior: float = 0.0) -> None:
        self.player = player
        """The seat that took the action leading here (its reward is what this node
        collects)."""
        self.visits = 0
        self.total = 0.0
        self.avail = avail
        self.children: dict[Hashable, _Node] = {}
        self.orders: dict[Hashable, list[tuple[Hashable, Action, float]] | Judged] = {}
        """Position signature (phase, tile, seat) -> moves in greedy order with their prior
        reward (from the greedy evaluation), computed once; or, for a placement visited once,
        its placements and their values, ordered when it is visited again
        (:meth:`MCTSBot._first_visit`)."""
        self.prior = prior
        """How much worse than the best move the greedy evaluation judges the action leading
        here, on the reward scale (0 for the best, negative for the others)."""
        self.sums: list[float] | None = None
        """Every seat's rewards summed over the iterations through this node."""

    def mean(self, player: int) -> float:
        """The mean reward of ``player`` over the iterations through here (0.5 before any)."""
        return self.sums[player] / self.visits if self.sums and self.visits else 0.5


def _ucb_pick(
    ordered: list[tuple[Hashable, Action, float]],
    children: dict[Hashable, _Node],
    allowed: int,
    expanded: int,
    c: float,
    n0: float,
    base: float,
) -> tuple[Hashable, Action, float, bool]:
    """:meth:`MCTSBot._select`'s choice among the ``ordered`` moves of a node with
    ``children``: the first move not expanded while widening allows (new), else the
    expanded child available here with the best UCB1 score (each counted available once
    more), its prior mean ``base`` plus the move's prior counted as ``n0`` visits."""
    best: tuple[Hashable, Action, float] | None = None
    best_score = -math.inf
    for rank, (key, action, prior) in enumerate(ordered):
        child = children.get(key)
        if child is None:
            if rank < allowed and expanded < allowed:
                return key, action, prior, True
            continue
        child.avail += 1
        n = child.visits + n0
        q = (child.total + n0 * (base + prior)) / n
        score = q + c * math.sqrt(math.log(child.avail + 1) / n)
        if score > best_score:
            best_score, best = score, (key, action, prior)
    if best is None:  # nothing expanded is available here and widening is full: widen
        key, action, prior = ordered[0]
        return key, action, prior, True
    return best[0], best[1], best[2], False


def _expanded(
    ordered: list[tuple[Hashable, Action, float]], children: dict[Hashable, _Node]
) -> int:
    """How many of the moves ``ordered`` (:meth:`MCTSBot._ordered`) have a child already: a
    loop, not ``sum()`` over a generator (typed in the compiled build: ``mcts_bot.pxd``)."""
    n = 0
    for key, _a, _q in ordered:
        if key in children:
            n += 1
    return n


def _backup(path: list[_Node], rewards: list[float]) -> None:
    """Count an iteration's ``rewards`` (every seat's) in each node of its ``path``."""
    for n in path:
        n.visits += 1
        if n.player >= 0:
            n.total += rewards[n.player]
        sums = n.sums
        if sums is None:
            n.sums = list(rewards)
        else:
            for p, r in enumerate(rewards):
                sums[p] += r


class MCTSBot:
    """ISMCTS with sequential halving at the root, progressive widening below it, epsilon-greedy
    playouts and search reuse.

    Give ``iterations`` (deterministic, the default) or ``seconds``, or a strength ``level``
    1..10 (see :data:`LEVELS`).
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        seed: int | None = 0,
        exploration: float = 0.7,
        playout_turns: int | None = DEFAULT_PLAYOUT_TURNS,
        epsilon: float = 0.1,
        widening: float = 1.5,
        scale: float = 12.0,
        reuse: bool = True,
        prior_visits: float = 3.0,
        meeple_value: float = 1.0,
        blunder: float = 0.0,
        level: int | None = None,
        root_candidates: int = 12,
        halving: bool = True,
        candidates: int | None = None,
        margin_weight: float | None = None,
        evaluation: str = DEFAULT_EVALUATION,
        style: str | None = None,
    ) -> None:
        del candidates, margin_weight  # options of the old flat bot, accepted for old callers
        if level is not None:
            opts = level_options(level)
            iterations = opts.get("iterations", iterations)
            playout_turns = opts.get("playout_turns", playout_turns)
            epsilon = opts.get("epsilon", epsilon)
            blunder = opts.get("blunder", blunder)
            root_candidates = opts.get("root_candidates", root_candidates)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise EngineError(f"iterations: {iterations} is not positive")
        self.iterations = iterations
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout_turns = playout_turns
        self.epsilon = epsilon
        self.widening = widening
        self.scale = scale
        self.reuse = reuse
        self.prior_visits = prior_visits
        self.blunder = blunder
        self.root_candidates = root_candidates
        """How many of the root's moves (best greedy evaluation first) sequential halving
        compares."""
        self.halving = halving
        """Sequential halving with common random numbers at the root (iteration budgets only);
        off: UCB1 at the root as below it."""
        self.meeple_value = meeple_value
        """Points a meeple in supply is worth when a playout is judged before the end."""
        """Chance of playing a random legal action instead of searching (weak levels)."""
        """Weight of the greedy evaluation, as that many visits of each child (progressive bias)."""
        if evaluation not in EVALUATIONS:
            raise EngineError(f"evaluation: {evaluation!r} is not one of {', '.join(EVALUATIONS)}")
        self.evaluation = evaluation
        """How a playout's last position is judged: ``projected`` (the projected scores, a
        meeple in supply worth ``meeple_value``) or ``learned`` (each seat's value, whose
        differences are the expected final margins, :mod:`engine.bots.evaluation`)."""
        self.style = style_named(style) if style is not None else None
        """A play style (:mod:`engine.bots.styles`): its bonuses join the greedy evaluation
        that orders and biases the bot's own moves in the tree; the playouts and the judging
        stay the same, so styles meet at equal strength."""
        if self.style is not None:
            self.name = f"mcts:{self.style.name}"
        self._me = -1
        """The seat the bot searches for (set by :meth:`choose`)."""
        self.policy = GreedyBot(seed=self.rng.randrange(1 << 30), samples=1)
        """The playout policy (and the judge of rule-set choices inside playouts)."""
        self._root: _Node | None = None
        self._history: int = -1
        """Length of the game's history when ``_root`` was searched (for reuse)."""
        self.last_iterations = 0
        """Iterations run by the last :meth:`choose` (0: a forced move)."""
        self._previews: dict[Any, Any] | None = None
        """The previews the iterations of one :meth:`choose` share (``Board.remember_previews``)."""

    # -- the tree ------------------------------------------------------------------------------

    def _ordered(self, node: _Node, sim: Game) -> list[tuple[Hashable, Action, float]]:
        """The moves of ``sim`` at ``node``, best greedy evaluation first, each with its prior:
        0 for the best, less by how many points the greedy evaluation loses (on the scale of
        :meth:`_rewards`). Rule-set choices keep their order, all priors 0, but where a
        styled bot moves, the style's bonuses join the evaluation of every choice."""
        sig = (sim.phase, sim.current_tile, sim.decider)
        got = node.orders.get(sig)
        if isinstance(got, list):
            return got
        judged: list[float] | None = None
        if got is not None:  # judged on the first visit (_first_visit): order it now
            entries, table = got
            new = tuple.__new__  # as Game._list_moves: cheaper than a call through Move's __new__
            moves: list[Action] = [
                new(Move, (sq, rot, loc)) for sq, rot, names in entries for loc in names
            ]
            judged = [v for values in table for v in values]
        else:
            moves = sim.legal_moves().list()
        priors = [0.0] * len(moves)
        styled = self.style is not None and sim.decider == self._me and len(moves) > 1
        if (sim.phase is Phase.PLACE or styled) and len(moves) > 1:
            if judged is not None:
                values = judged
            elif sim.phase is Phase.PLACE:
                # a style's price of a meeple kept (thrifty: a point) replaces the greedy one
                mv = self.style.meeple_value if styled and self.style else self.policy.meeple_value
                values = placement_values(sim, moves, sim.to_move, mv)
            else:
                values = [0.0] * len(moves)
            if styled:
                assert self.style is not None
                bonuses = self.style.bonuses(sim, moves)
                values = [v + b for v, b in zip(values, bonuses, strict=True)]
            # best first, ties in the moves' order (a reversed sort keeps equals in order): the
            # values' own __getitem__ as the key, no lambda called per move
            ranked = sorted(range(len(moves)), key=values.__getitem__, reverse=True)
            top = values[ranked[0]]
            moves = [moves[k] for k in ranked]
            tanh = math.tanh
            scale = self.scale
            priors = [0.5 * tanh((values[k] - top) / scale) for k in ranked]
        if sim.phase is Phase.PLACE:
            # every move is a placing move: _key's (tile, move), made here without a call
            tile = sim.current_tile
            got = [((tile, a), a, q) for a, q in zip(moves, priors, strict=True)]
        else:
            got = [(_key(sim, a), a, q) for a, q in zip(moves, priors, strict=True)]
        node.orders[sig] = got
        return got

    def _first_visit(self, node: _Node, sim: Game) -> tuple[Hashable, Action, float] | None:
        """The child :meth:`_select` takes in a placement ``node`` has not ordered yet, with
        no child of its tile expanded (the usual case: the tile in hand is the
        determinisation's): the first of the moves the greedy evaluation judges best, prior 0,
        found without building and sorting every move. The judged placements are kept for
        :meth:`_ordered` should the placement come again. ``None`` where this does not apply
        (a placement seen before, a styled bot's own move, a rule-set choice, a lone move)."""
        if sim.phase is not Phase.PLACE or (self.style is not None and sim.decider == self._me):
            return None
        sig = (Phase.PLACE, sim.current_tile, sim.decider)
        if sig in node.orders:
            return None
        tile = sim.current_tile
        for key in node.children:
            # a placing move's key is (tile, move): one of this tile may be among the moves
            if isinstance(key, tuple) and key and key[0] == tile:
                return None
        entries, table = judged_placements(sim, sim.to_move, self.policy.meeple_value)
        if not table:  # a lone move
            return None
        node.orders[sig] = (entries, table)
        # the best by loops, not max() over a generator (a generator step costs more than the
        # comparison on the compiled build): the first of equal bests, as max() finds it
        top = -math.inf
        for values in table:
            for value in values:
                if value > top:
                    top = value
        # the first best in the moves' order, where _ordered's stable sort ranks it
        for (sq, rot, names), values in zip(entries, table, strict=False):  # one length
            for loc, value in zip(names, values, strict=False):
                if value == top:
                    action = Move(sq, rot, loc)
                    return (tile, action), action, 0.5 * math.tanh((value - top) / self.scale)
        return None

    def _select(self, node: _Node, sim: Game) -> tuple[Hashable, Action, float, bool]:
        """The child to follow in ``sim``, its prior and whether it is new."""
        first = self._first_visit(node, sim)
        if first is not None:
            return first[0], first[1], first[2], True
        ordered = self._ordered(node, sim)
        allowed = max(1, int(self.widening * math.sqrt(node.visits + 1)))
        children = node.children
        # widening counts the children available here: those of other tiles (or of moves that
        # are not legal in this determinisation) do not use up this position's budget
        expanded = _expanded(ordered, children)
        # priors are relative to how the mover fares here so far: an absolute prior (say 0.5)
        # would make the least visited child look best whenever the mover is losing
        base = node.mean(sim.decider)
        return _ucb_pick(
            ordered, children, allowed, expanded, self.exploration, self.prior_visits, base
        )

    def _iterate(
        self,
        root: _Node,
        game: Game,
        rng: random.Random | None = None,
        first: tuple[Hashable, Action, float] | None = None,
        dealt: bool = False,
    ) -> list[float]:
        """One iteration: deal a determinisation with ``rng`` (the bot's own by default; with
        ``dealt``, ``game`` is one already, and the iteration plays on it), descend the tree
        (through the root's child ``first`` when given), play out, back up. Returns every
        seat's reward."""
        rng = rng or self.rng
        # the game is not played on during the search: a copy may draw from its generator
        sim = game if dealt else game.copy(shuffle=rng, share_rng=True)
        # the iterations judge the same placements over and over, with the board changed
        # elsewhere: their previews are remembered for the move (each checked on use)
        sim.board.remember_previews(self._previews)
        node = root
        path = [root]
        while not sim.is_over():
            mover = sim.decider  # who chooses here: the player to move, or a rule's chooser
            if first is not None:
                key, action, prior = first
                new = key not in node.children
                first = None
            else:
                key, action, prior, new = self._select(node, sim)
            sim.apply(action)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node(player=mover, avail=1, prior=prior)
            node = child
            path.append(node)
            if new:
                break
        self._playout(sim, rng)
        rewards = self._rewards(sim)
        if not dealt:
            sim.release_rng()
        _backup(path, rewards)
        return rewards

    def _halving(self, root: _Node, game: Game) -> tuple[Hashable, Action] | None:
        """Sequential halving at the root over the ``root_candidates`` best moves by the greedy
        evaluation, with common random numbers: in each round every surviving move is tried in
        the same determinisation with the same playout draws, so the moves are compared on the
        same tiles. Each phase spends an equal share of the budget and keeps the better half.
        A budget too small for every candidate compares fewer; ``None`` when it cannot
        compare two (or there is only one), and the caller searches with UCB1."""
        budget = self.iterations or 0
        # a reused root's order was worked out in a determinisation: keep what is legal here
        legal = {_key(game, a) for a in game.legal_moves()}
        cands = [c for c in self._ordered(root, game) if c[0] in legal][: self.root_candidates]
        while len(cands) > 2 and _halving_cost(len(cands)) > budget:
            cands = cands[:-1]  # a small budget compares fewer moves rather than overspend
        if len(cands) < 2 or _halving_cost(len(cands)) > budget:
            return None
        phases = max(1, math.ceil(math.log2(len(cands))))
        n0 = self.prior_visits
        sums = dict.fromkeys((key for key, _a, _q in cands), 0.0)
        tries = 0
        me = game.decider
        alive = list(cands)
        spent = 0
        for phase in range(phases):
            rounds = max(1, (budget - spent) // ((phases - phase) * len(alive)))
            for _ in range(rounds):
                # the round's determinisation is dealt once; each move starts from a copy of
                # it (the last from the deal itself) with the dealer's draws where the deal
                # left them: the same games as a deal of its own per move, without re-dealing.
                # The copies draw from the game's generator, put back after each (the game is
                # not played on during the search)
                deal = random.Random(self.rng.getrandbits(64))
                dealt = game.copy(shuffle=deal, share_rng=True)
                after = deal.getstate()
                last = len(alive) - 1
                for i, cand in enumerate(alive):
                    deal.setstate(after)
                    sim = dealt if i == last else dealt.copy(share_rng=True)
                    sums[cand[0]] += self._iterate(root, sim, deal, cand, dealt=True)[me]
                    sim.release_rng()
                spent += len(alive)
            tries += rounds

            def score(cand: tuple[Hashable, Action, float], tries: int = tries) -> float:
                # every survivor has the same number of paired tries: the greedy prior counts
                # as n0 of them, as in the tree
                return (sums[cand[0]] + n0 * cand[2]) / (tries + n0)

            alive.sort(key=score, reverse=True)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        # what rounding left goes below the chosen move: its subtree is the one reused next
        for _ in range(budget - spent):
            self._iterate(root, game, None, alive[0])
        self.last_iterations = budget
        return alive[0][0], alive[0][1]

    def _playout(self, sim: Game, rng: random.Random | None = None) -> None:
        """Epsilon-greedy for ``playout_turns`` turns. ``sim`` is already a determinisation, so
        the greedy evaluation is run on it directly (no copy per decision, as the greedy bot
        makes to hide face-down values), and a random action is drawn from the live move view
        without listing the moves."""
        turns = self.playout_turns
        start = sim.turn
        rng = rng or self.rng
        eps = self.epsilon
        policy = self.policy
        mv = policy.meeple_value
        while not sim.is_over() and (turns is None or sim.turn - start < turns):
            if rng.random() < eps:
                sim.apply(rng.choice(sim.legal_moves()))
                continue
            if sim.phase is not Phase.PLACE:
                sim.apply(policy.choose(sim))
                continue
            best = best_placements(sim, sim.to_move, mv)
            sim.apply(best[0] if len(best) == 1 else rng.choice(best))

    def _rewards(self, sim: Game) -> list[float]:
        """Each seat's reward: from its projected margin over the best other seat. Before the
        end a meeple in supply counts ``meeple_value`` points: without it a short playout
        rewards tying every meeple up in fields and long features, which the horizon never
        sees pay back."""
        over = sim.is_over()
        if not over and self.evaluation == "learned":
            scores: list[float] = seat_values(sim)
        else:
            scores = list(sim.projected_scores())
        if not over and self.evaluation == "projected":
            mv = self.meeple_value
            scores = [s + mv * sim.supply[p] for p, s in enumerate(scores)]
        # every seat's best other is the best seat, but for the best seat (the first of the
        # best, as max finds it) the best of the others
        top = max(scores)
        first = scores.index(top)
        second = max(scores[:first] + scores[first + 1 :])
        out = []
        for p, mine in enumerate(scores):
            margin = mine - (second if p == first else top)
            if over:
                base = 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
                out.append(0.9 * base + 0.1 * (0.5 + 0.5 * math.tanh(margin / self.scale)))
            else:
                out.append(0.5 + 0.5 * math.tanh(margin / self.scale))
        return out

    def _reused_root(self, game: Game) -> _Node:
        """The subtree for ``game`` from the last search, if the actions since are in it."""
        root = self._root
        start = self._history
        if not self.reuse or root is None or start < 0 or len(game.history) < start:
            return _Node()
        tiles = {sq: t for sq, t, _r in game.placed_tiles()}
        node = root
        for action in game.history[start:]:
            if isinstance(action, Move):
                key: Hashable = (tiles.get(action.square), action)
            else:
                try:
                    hash(action)
                    key = action
                except TypeError:
                    key = repr(action)
            nxt = node.children.get(key)
            if nxt is None:
                return _Node()
            node = nxt
        node.player = -1
        return node

    def choose(self, game: Game) -> Action:
        moves: list[Action] = game.legal_moves().list()
        self.last_iterations = 0
        if len(moves) == 1:
            return moves[0]
        if self.blunder and self.rng.random() < self.blunder:
            self._root = None
            return self.rng.choice(moves)
        self._me = game.decider
        self._previews = {}
        with tuned_collector():
            try:
                return self._search(game, moves)
            finally:
                # freed between moves, and before the collector's thresholds are back: the
                # first young collection after a search then traverses the tree kept for
                # reuse, not the search's remembered previews too
                self._previews = None

    def _search(self, game: Game, moves: list[Action]) -> Action:
        """:meth:`choose` past the forced, blundered and trivial cases."""
        root = self._reused_root(game)
        if self.halving and self.iterations is not None:
            chosen = self._halving(root, game)
            if chosen is not None:
                self._root = root
                self._history = len(game.history)
                return chosen[1]
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and done >= 1 and time.perf_counter() >= deadline:
                break
            self._iterate(root, game)
            done += 1
        self.last_iterations = done
        legal = {_key(game, a): a for a in moves}
        n0 = self.prior_visits
        base = root.mean(game.decider)

        def value(k: Hashable) -> tuple[float, int]:
            c = root.children[k]
            return ((c.total + n0 * (base + c.prior)) / (c.visits + n0), c.visits)

        # the best mean (the greedy prior counted as prior_visits visits): with a few dozen
        # noisy iterations, the most visited child is often just the first tried
        best_key = max((k for k in root.children if k in legal), key=value, default=None)
        if best_key is None:
            return moves[0]
        self._root = root
        self._history = len(game.history)
        return legal[best_key]


register_bot("mcts")(MCTSBot)
