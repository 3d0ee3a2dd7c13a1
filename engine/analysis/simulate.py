"""Batch playtests: play many full games of a map with bots, in parallel, and collect facts.

:func:`simulate` plays ``config.games`` games and returns a :class:`SimResult` whose ``games`` list
holds one compact, JSON-able *facts* dict per game (see :func:`game_facts`), in game order.
:mod:`engine.analysis.balance` turns them into the balance report.

Reproducibility: game ``i`` of a run is fully determined by ``game_seed(run_seed, i)`` (the deal,
the start squares and every bot's seed derive from it), and results are put back in game order,
so the same seed gives the same facts whatever the number of workers or the chunking.

Parallelism: ``workers > 1`` runs chunks of games in a :mod:`multiprocessing` pool (``spawn``
context by default, which is safe from a GUI process with threads). Cancelling (the ``cancel``
callable returns true) terminates the pool, so running workers stop at once.
"""

from __future__ import annotations

import copy
import hashlib
import multiprocessing
import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from engine.analysis.candidate import candidate_map
from engine.analysis.cluster import DaskRun, run_on_dask
from engine.analysis.quality import game_quality
from engine.analysis.rule_usage import RuleWatch
from engine.analysis.workers import chunks, main_hidden
from engine.bots.mcts_bot import DEFAULT_ITERATIONS
from engine.bots.spec import BotSpec
from engine.errors import EngineError
from engine.game import Game, GameOptions
from engine.moves import Draw, Move, Pass
from engine.rules.registry import rules_for
from engine.scoring import KINDS

if TYPE_CHECKING:
    from engine.game import Game
    from engine.mapdef import MapDef

BOTS = ("random", "greedy", "mcts")
FACTS_VERSION = 1

ProgressFn = Callable[[int, int], None]
"""``progress(done, total)``: games finished so far."""
CancelFn = Callable[[], bool]
"""Returns true when the run should stop."""


class Cancelled(EngineError):
    """The run was cancelled; ``games`` holds the facts finished before that (in game order)."""

    def __init__(self, games: list[dict[str, Any]]) -> None:
        super().__init__(f"simulation cancelled after {len(games)} games")
        self.games = games


@dataclass(frozen=True)
class SimConfig:
    """What to play. ``players`` may list several counts: game ``i`` has ``players[i % len]``."""

    games: int = 100
    players: tuple[int, ...] = (2,)
    bot: str = "greedy"
    """The bot of every seat: ``random``, ``greedy``, ``mcts``, a play style ``greedy:STYLE``
    or a strength level ``mcts@LEVEL`` (:mod:`engine.bots.spec`)."""
    rules: bool = True
    """Play the map's Map-Chips rule set (``False``: plain Maps rules)."""
    seed: int = 0
    mcts_iterations: int = DEFAULT_ITERATIONS
    """Iteration budget of the ``mcts`` bot per move (the bot's default, about 0.3 s a move:
    see docs/bots.md)."""
    seats: tuple[str, ...] = ()
    """A mixed table: the bot of each seat (e.g. ``("mcts", "greedy", "greedy", "greedy")``),
    turned by one seat each game so every bot sits in every seat equally often (see
    :meth:`bots_of`). Empty: ``bot`` in every seat."""
    tile_pool: str | None = None
    """Tile pool name (``GameOptions.tile_pool``); ``None``: the map's default."""
    tile_count: int | None = None
    """Tiles played (``GameOptions.tile_count``); ``None``: the map's recommendation."""
    start_squares_used: int | None = None
    """Start squares a game uses (the map's ``setup.start_squares_used`` when ``None``)."""
    rule_options: tuple[tuple[str, Any], ...] = ()
    """Options of the rule set (``GameOptions.rule_options``) as sorted ``(name, value)`` pairs."""
    map_edits: tuple[tuple[str, Any], ...] = ()
    """Values that change the map itself, as sorted ``(PARAM, value)`` pairs: numbers inside its
    data rule set (``ruleset/PATH``) and start squares moved (``start.NAME``), see
    :mod:`engine.analysis.candidate`. :func:`new_game` and :func:`simulate` play the changed
    copy (``simulate`` makes it once per run)."""
    paired: bool = True
    """Mixed tables (``seats``): play each deal (tile order, start squares, chip layout) once per
    seat rotation, so every bot meets the same tiles in every seat and the luck of the draw
    cancels out of the comparison (see :meth:`slot`). ``False``: a new deal every game. Without
    ``seats`` every game has its own deal either way."""

    def __post_init__(self) -> None:
        if not isinstance(self.games, int) or self.games < 1:
            raise EngineError(f"games: {self.games!r} is not a positive number of games")
        if not self.players or any(not 2 <= p <= 6 for p in self.players):
            raise EngineError(f"players: {list(self.players)!r}: each count must be 2 to 6")
        try:
            BotSpec.parse(self.bot)
        except EngineError as exc:
            raise EngineError(f"bot: {exc}") from None
        if self.mcts_iterations < 1:
            raise EngineError(f"mcts_iterations: {self.mcts_iterations} is not positive")
        for s in self.seats:
            try:
                BotSpec.parse(s)
            except EngineError as exc:
                raise EngineError(f"seats: {exc}") from None
        if self.tile_count is not None and not 2 <= self.tile_count <= 1000:
            raise EngineError(f"tile_count: {self.tile_count!r} is not in 2..1000")
        if self.start_squares_used is not None and not 1 <= self.start_squares_used <= 6:
            raise EngineError(f"start_squares_used: {self.start_squares_used!r} is not in 1..6")

    def slot(self, index: int) -> tuple[int, int, int]:
        """``(players, rotation, deal)`` of game ``index``: its player count, how many seats its
        lineup is turned by, and the index of its deal (its game seed is
        ``game_seed(seed, deal)``). Paired mixed tables play in blocks: for each player count in
        turn, that many games of one deal, the lineup turned by one seat each game; otherwise
        game ``i`` has ``players[i % len]`` players, rotation ``i % players`` and deal ``i``."""
        if not (self.paired and self.seats):
            p = self.players[index % len(self.players)]
            return p, index % p, index
        cycle, r = divmod(index, sum(self.players))
        for k, p in enumerate(self.players):
            if r < p:
                return p, r, cycle * len(self.players) + k
            r -= p
        raise AssertionError("unreachable: r < sum(players)")

    def bots_of(self, index: int, players: int) -> list[str]:
        """The bot name of each seat in game ``index``: ``seats`` (cut to the players, or filled
        up with ``bot``) turned by :meth:`slot`'s rotation, so each bot sits in every seat."""
        if not self.seats:
            return [self.bot] * players
        lineup = [*self.seats[:players], *[self.bot] * (players - len(self.seats))]
        k = self.slot(index)[1] % players
        return lineup[-k:] + lineup[:-k] if k else lineup

    def game_options(self, rule_set: str) -> Any:
        """The :class:`engine.game.GameOptions` of this run's games."""
        return GameOptions(
            rule_set=rule_set,
            tile_pool=self.tile_pool,
            tile_count=self.tile_count,
            rule_options=dict(self.rule_options),
        )

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        d["seats"] = list(self.seats)
        d["rule_options"] = dict(self.rule_options)
        d["map_edits"] = dict(self.map_edits)
        if not self.map_edits:  # reports of unchanged maps stay as they were
            del d["map_edits"]
        return d


@dataclass
class SimResult:
    """Facts of every game played, in game order, plus how the run went."""

    config: SimConfig
    map_id: str
    rule_set: str
    """The rule set played (``"none"`` for plain Maps rules)."""
    games: list[dict[str, Any]] = field(default_factory=list)
    rules_missing: str | None = None
    """A Map-Chips rule set the map asks for but the engine does not have (played without)."""
    workers: int = 1
    seconds: float = 0.0


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game ``index`` of a run: a hash, so neighbouring runs share no games."""
    digest = hashlib.blake2b(f"{run_seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def rule_set_for(m: MapDef, rules: bool) -> tuple[str, str | None]:
    """The rule set to play and, if the map's is not available in the engine, its name."""
    name = m.rule_set.name
    if not rules or name == "none":
        return "none", None
    try:
        rules_for(name, m)
    except EngineError:
        return "none", name
    return name, None


def new_game(
    m: MapDef, players: int, seed: int, rule_set: str, config: SimConfig | None = None
) -> Game:
    """The game a simulation plays for ``seed`` (the map's setup, start squares drawn by seed;
    ``config``'s tile pool, tile count, start squares, rule options and map values when given).

    :raises engine.analysis.candidate.CandidateRefused: the map values make a rule set the
        checker refuses, or put a start square where it cannot lie.
    """
    if config is None:
        return Game(m, players=players, seed=seed, options=GameOptions(rule_set=rule_set))
    m = candidate_map(m, config.map_edits)
    if config.start_squares_used is not None:
        m = _with_start_squares(m, config.start_squares_used)
    return Game(m, players=players, seed=seed, options=config.game_options(rule_set))


def _with_start_squares(m: MapDef, used: int) -> MapDef:
    """``m`` with its setup's ``start_squares_used`` set to ``used`` (a shallow copy: cheap
    enough per game, and the caller's map is left as it is)."""
    if m.setup.start_squares_used == used:
        return m
    out = copy.copy(m)
    out.setup = copy.copy(m.setup)
    out.setup.start_squares_used = used
    return out


def make_bots(config: SimConfig, players: int, seed: int, index: int = 0) -> list[Any]:
    """One bot per seat (see :meth:`SimConfig.bots_of`; each a bot spec such as
    ``greedy:farmer`` or ``mcts@4``, :mod:`engine.bots.spec`), seeded from the game seed."""
    return [
        BotSpec.parse(name).make((seed * 7 + i + 1) % (1 << 62), config.mcts_iterations)
        for i, name in enumerate(config.bots_of(index, players))
    ]


def _chip_state(game: Game) -> Any:
    for state in game.rule_state.values():
        if hasattr(state, "down") and hasattr(state, "chips"):
            return state
    return None


def _jsonable(value: Any) -> Any:
    """Only JSON types, with dict keys as strings (facts go straight into the report file)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [_jsonable(v) for v in items]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def play_one(m: MapDef, config: SimConfig, index: int, rule_set: str) -> dict[str, Any]:
    """Play game ``index`` of a run to the end and return its facts."""
    players, _rotation, deal = config.slot(index)
    seed = game_seed(config.seed, deal)
    game = new_game(m, players, seed, rule_set, config)
    chips = _chip_state(game)
    down_at_start = dict(chips.down) if chips is not None else {}
    bots = make_bots(config, players, seed, index)
    watch = RuleWatch(game)
    guard = 0
    while not game.is_over():
        action = bots[game.decider].choose(game)
        watch.before(game, action)
        # bots return legal actions; apply() skips the re-check that play() would repeat
        game.apply(action)
        watch.after(game)
        guard += 1
        if guard > 100_000:
            raise EngineError(f"game {index} (seed {seed}) is not over after {guard} actions")
    facts = game_facts(game, index=index, seed=seed, chips_at_start=down_at_start)
    if config.seats:
        facts["bots"] = config.bots_of(index, players)
        facts["deal"] = deal
    if watch.active:
        facts["rule_usage"] = watch.facts()
        facts["resources_held"] = watch.held(game)
    return facts


def game_facts(
    game: Game,
    *,
    index: int = 0,
    seed: int | None = None,
    chips_at_start: dict[Any, int] | None = None,
) -> dict[str, Any]:
    """The compact facts of a finished game that the balance report is built from.

    Keys: ``index``, ``seed``, ``players`` (count), ``scores``, ``winners`` (seats, ties all win),
    ``turns``, ``start`` (start squares, the start tile's first), ``placed`` (``[x, y, n]``: the
    ``n``-th tile placed, start tiles ``0``), ``set_aside`` (tile ids), ``points`` (kind -> points
    scored, all seats), ``seat_points`` (per seat, kind -> points), ``cities`` (large city id ->
    ``completed`` | ``connected`` | ``dormant``), ``borders`` (``[x, y, side]`` of connected
    border features), ``ferries`` (ids used), ``chips`` (colour -> chips collected), ``seat_chips``,
    ``actions`` (rule action type -> count), ``rule_events`` (kind -> ``[count, points]``),
    ``rule_actions`` (each rule action's record form with the turn it was taken), ``rules`` (the
    rule modules' final state summaries).
    """
    board = game.board
    out = game.outcome()
    n_start = len(game.start_tiles)
    placed: list[list[int]] = []
    for k, sq in enumerate(board.order):
        placed.append([sq[0], sq[1], max(0, k - n_start + 1)])
    points: Counter[str] = Counter()
    rule_events: dict[str, list[int]] = {}
    seat_chips = [0] * len(game.players)
    for e in game.events:
        points[e.kind] += e.points * len(e.players)
        if e.kind not in KINDS:
            c = rule_events.setdefault(e.kind, [0, 0])
            c[0] += 1
            c[1] += e.points * len(e.players)
        if e.kind == "chip":
            for p in e.players:
                seat_chips[p] += 1
    cities: dict[str, str] = {}
    m = game.map
    if m is not None:
        f = board.features
        for cid in sorted(m.large_cities):
            node = board.city_node.get(cid)
            if node is not None and f.find(node) in f.done:
                cities[cid] = "completed"
            elif cid in board.active_cities:
                cities[cid] = "connected"
            else:
                cities[cid] = "dormant"
    borders = []
    if m is not None:
        for edge, bf in sorted(m.border_features.items()):
            if str(bf.kind) != "field" and edge.square in board.tiles:
                borders.append([edge.x, edge.y, str(edge.side)])
    chips: Counter[str] = Counter()
    state = _chip_state(game)
    if state is not None and chips_at_start:
        for sq, chip_id in chips_at_start.items():
            if sq not in state.down:
                chips[str(state.chips[chip_id].colour.value)] += 1
    actions: Counter[str] = Counter()
    rule_actions: list[dict[str, Any]] = []
    turn = 0
    last: list[int] | None = None
    for a in game.history:
        if isinstance(a, Move):
            turn += 1
            last = [a.square[0], a.square[1]]
            continue
        if isinstance(a, Pass | Draw):
            continue
        data = a.to_dict()
        kind = str(data.get("type", type(a).__name__))
        actions[kind] += 1
        # "placed": the square of the tile placed last before the action (where a wine was sold)
        rule_actions.append({"turn": turn, "placed": last, **_jsonable(data)})
    rules = {}
    for r in game.rules:
        try:
            summary = _jsonable(r.state_summary(game))
        except Exception as exc:  # noqa: BLE001 - a module's summary must not lose the game
            summary = {"error": str(exc)}
        if isinstance(summary, dict):
            summary.pop("chips", None)  # the fixed 30-chip set: the same in every game
        rules[r.name] = summary
    return {
        "index": index,
        "seed": game.seed if seed is None else seed,
        "players": len(game.players),
        "scores": list(game.scores),
        "winners": list(out.winners) if out else [],
        "turns": game.turn,
        "start": [[sq[0], sq[1]] for sq, _t, _r in game.start_tiles],
        "placed": placed,
        "set_aside": list(game.set_aside),
        "points": dict(sorted(points.items())),
        "seat_points": [dict(sorted(b.items())) for b in game.breakdown],
        "cities": cities,
        "borders": borders,
        "ferries": sorted(board.opened_ferries),
        "chips": dict(sorted(chips.items())),
        "seat_chips": seat_chips,
        "actions": dict(sorted(actions.items())),
        "rule_events": dict(sorted(rule_events.items())),
        "rule_actions": rule_actions,
        "rules": rules,
        "quality": game_quality(game),
    }


# -- running many games --------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(m: MapDef, config: SimConfig, rule_set: str) -> None:
    _WORKER.update(map=m, config=config, rule_set=rule_set)


def _play_checked(m: MapDef, config: SimConfig, index: int, rule_set: str) -> dict[str, Any]:
    """:func:`play_one`, with any failure named by its game index and seed (reproducible)."""
    try:
        return play_one(m, config, index, rule_set)
    except Exception as exc:  # noqa: BLE001 - re-raised with the game that failed
        seed = game_seed(config.seed, config.slot(index)[2])
        raise EngineError(f"game {index} (seed {seed}) failed: {exc}") from exc


def _run_chunk(indices: Sequence[int]) -> list[dict[str, Any]]:
    m, config, rule_set = _WORKER["map"], _WORKER["config"], _WORKER["rule_set"]
    return [_play_checked(m, config, i, rule_set) for i in indices]


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def simulate(
    m: MapDef,
    config: SimConfig,
    *,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    context: str | None = None,
    processes: bool = False,
    scheduler: str | DaskRun | None = None,
) -> SimResult:
    """Play ``config.games`` games of ``m`` and return their facts, in game order.

    ``workers``: processes (default: every core; 1 plays in this process). ``progress`` is called
    after each chunk; when ``cancel()`` turns true the pool is terminated and :class:`Cancelled`
    raised (holding the games finished so far). ``context``: the multiprocessing start method;
    default ``fork`` from a single-threaded process on Linux (fast), else ``spawn`` (forking a
    process with threads, e.g. the editor, can deadlock the child). ``processes``: play in worker
    processes even with one worker (a GUI must: games in its own interpreter hold the GIL and
    freeze the UI). ``scheduler``: send the games to a Dask cluster instead (the ``cluster``
    extra): a scheduler address (``tcp://HOST:8786``), ``"local"`` for a local cluster of
    ``workers`` processes started for these games, or a cluster kept for many simulations
    (:func:`engine.analysis.cluster.cluster_for_run`); see
    :func:`engine.analysis.cluster.run_on_dask`.
    """
    asked = config
    if config.map_edits:  # the candidate's map, made once: its games need not make it again
        m = candidate_map(m, config.map_edits)
        config = replace(config, map_edits=())
    rule_set, missing = rule_set_for(m, config.rules)
    k = default_workers() if workers is None else workers
    if k < 1:
        raise EngineError(f"workers: {k} is not a positive number")
    k = min(k, config.games)
    # set a first game up here: a map that cannot be played fails at once, with a clear error
    new_game(m, config.slot(0)[0], game_seed(config.seed, 0), rule_set, config)
    result = SimResult(asked, m.id, rule_set, rules_missing=missing, workers=k)
    t0 = time.perf_counter()
    total = config.games
    done: dict[int, dict[str, Any]] = {}

    def finished() -> list[dict[str, Any]]:
        return [done[i] for i in sorted(done)]

    if scheduler is not None:
        result.workers = run_on_dask(
            scheduler,
            _play_checked,
            m,
            config,
            rule_set,
            done,
            workers=k,
            progress=progress,
            cancel=cancel,
        )
        if cancel is not None and len(done) < total:
            raise Cancelled(finished())
    elif k == 1 and not processes:
        for i in range(total):
            if cancel is not None and cancel():
                raise Cancelled(finished())
            done[i] = _play_checked(m, config, i, rule_set)
            if progress is not None:
                progress(len(done), total)
    else:
        if context is None:
            single = threading.active_count() == 1
            context = "fork" if single and sys.platform.startswith("linux") else "spawn"
        ctx = multiprocessing.get_context(context)
        with main_hidden(context != "fork"):
            pool = ctx.Pool(k, initializer=_init_worker, initargs=(m, config, rule_set))
        try:
            pending = pool.imap_unordered(_run_chunk, chunks(total, k))
            while len(done) < total:
                if cancel is not None and cancel():
                    pool.terminate()
                    raise Cancelled(finished())
                try:
                    batch = pending.next(timeout=0.1)
                except multiprocessing.TimeoutError:
                    continue
                for facts in batch:
                    done[facts["index"]] = facts
                if progress is not None:
                    progress(len(done), total)
            pool.close()
        finally:
            pool.terminate()
            pool.join()
    result.games = finished()
    result.seconds = time.perf_counter() - t0
    return result


__all__ = [
    "BOTS",
    "Cancelled",
    "SimConfig",
    "SimResult",
    "game_facts",
    "game_seed",
    "play_one",
    "simulate",
]
