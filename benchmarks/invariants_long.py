"""Game-invariant long run: random games per rule set, invariants checked after every action.

``python benchmarks/invariants_long.py [--games 10000] [--until 23:05] [--rule-sets a,b]``

Rule sets: the classic board, ``none`` on the example map (the three town variants and the
large-city options drawn at random), and every Map-Chips rule set on its shipped map (module
options, farmers and town variants drawn at random). Rule sets are played round-robin, so a
time cap (``--until HH:MM`` UTC, or ``--seconds``) leaves balanced counts. After every action
the checks of ``tests/engine/test_invariants.py`` run (meeples conserved and on their features,
scores never drop unless town variant b is on), tiles are conserved (board + pile + set aside +
in hand + Benelux stacks hold the same tiles as at the start) and, for Map-Chips games,
``engine.rules.chips_common.invariant_violations`` (chips and meeples conserved); at the end of
each game, scores equal the sum of their events and the record replays to the identical state.

Prints one line per rule set: games, actions, violations (the aim is 0); exit 1 on any.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine")]

from test_invariants import _check_end, _check_turn  # noqa: E402

from benchmarks.deadline import deadline  # noqa: E402
from engine.game import Game, GameOptions  # noqa: E402
from engine.mapio import load_map  # noqa: E402
from engine.resources import bundled_map  # noqa: E402
from engine.rules.chips_common import invariant_violations  # noqa: E402

MAPS = {
    "none": "example-small",
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
}
MODULE_OPTIONS: dict[str, list[dict[str, object]]] = {
    "france": [{}, {"wine_limit": "turn"}, {"export_road_needs_coa": False}],
    "benelux": [{}, {"stack_size": 3}],
    "great_britain": [{}, {"hand_in_without_meeples": False}],
    "iberica": [{}, {"treat_squares": "setup"}],
    "deutschland": [{}],
}
RULE_SETS = ("classic", *MAPS)


def new_game(rule_set: str, seed: int) -> tuple[Game, bool]:
    """A game of ``rule_set`` with options drawn from ``seed``; and whether scores may drop."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    towns = {
        "town_extra_tile": rng.random() < 0.3,
        "town_cost": rng.random() < 0.3,
        "town_road_bonus": rng.random() < 0.3,
    }
    if rule_set == "classic":
        opts = GameOptions(farmers=rng.random() < 0.8)
        return Game(None, players=players, seed=seed, options=opts), False
    m = _map(rule_set)
    if rule_set == "none":
        opts = GameOptions(
            rule_set="none",
            farmers=rng.random() < 0.8,
            large_city_connect=rng.choice(["any_edge", "city_edge"]),
            large_city_road_tile=rng.random() < 0.5,
            fields_touch_large_city=rng.random() < 0.5,
            **towns,
        )
    else:
        ro = dict(rng.choice(MODULE_OPTIONS[rule_set]))
        ro["ones_per_colour"] = rng.randint(0, 10)
        opts = GameOptions(rule_options=ro, farmers=rng.random() < 0.8, **towns)
    # only town variant b (covering a town costs 2 points) makes a score drop
    return Game(m, players=players, seed=seed, options=opts), towns["town_cost"]


_MAPS: dict[str, object] = {}


def _map(rule_set: str):  # type: ignore[no-untyped-def]
    if rule_set not in _MAPS:
        _MAPS[rule_set] = load_map(bundled_map(MAPS[rule_set]))
    return _MAPS[rule_set]


def tiles_of(g: Game) -> Counter[str]:
    """Every tile of the game wherever it is: on the board, in the pile, set aside, in hand, in a
    rule set's stacks (Benelux islands)."""
    tiles: Counter[str] = Counter(t.tile_id for t in g.board.tiles.values())
    tiles.update(g.pile)
    tiles.update(g.set_aside)
    if g.current_tile is not None:
        tiles[g.current_tile] += 1
    for state in g.rule_state.values():
        for stack in (getattr(state, "stacks", None) or {}).values():
            tiles.update(stack)
    return tiles


def play_one(rule_set: str, seed: int) -> tuple[int, list[str]]:
    """Play one game; the number of actions and the violations found."""
    g, may_drop = new_game(rule_set, seed)
    rng = random.Random(seed ^ 0x5EED)
    actions = 0
    tiles = tiles_of(g)
    try:
        while not g.is_over():
            before = g.scores[:]
            action = rng.choice(g.legal_moves().list())
            g.play(action)
            actions += 1
            isle = getattr(g.rule_state.get(rule_set), "isle", None)
            _check_turn(g, before, action, may_drop, isle)
            bad = invariant_violations(g)
            if tiles_of(g) != tiles:
                bad.append(
                    f"tiles not conserved: {tiles_of(g) - tiles} appeared, "
                    f"{tiles - tiles_of(g)} vanished"
                )
            if bad:
                return actions, [f"{rule_set} seed {seed} turn {g.turn}: {b}" for b in bad]
        _check_end(g)
    except AssertionError:
        tb = traceback.format_exc(limit=3).strip().splitlines()[-3:]
        return actions, [f"{rule_set} seed {seed} turn {g.turn}: " + " | ".join(tb)]
    except Exception as exc:  # noqa: BLE001 - an engine crash is a violation too
        return actions, [f"{rule_set} seed {seed} turn {g.turn}: {type(exc).__name__}: {exc}"]
    return actions, []


def _deadline(args: argparse.Namespace) -> float:
    if args.seconds is not None:
        return time.time() + args.seconds
    return deadline(args.until)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000, help="games per rule set")
    ap.add_argument("--first-seed", type=int, default=0, help="seed of the first game")
    ap.add_argument("--rule-sets", default=",".join(RULE_SETS))
    ap.add_argument("--until", help="stop starting games at this UTC time (HH:MM)")
    ap.add_argument("--seconds", type=float, help="stop starting games after this many seconds")
    ap.add_argument("--report-every", type=float, default=120.0, help="progress line interval (s)")
    args = ap.parse_args(argv)
    rule_sets = [r for r in args.rule_sets.split(",") if r]
    stop_at = _deadline(args)
    games: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    violations: dict[str, list[str]] = {r: [] for r in rule_sets}
    start = last = time.time()
    seed = args.first_seed
    while seed < args.first_seed + args.games and time.time() < stop_at:
        for r in rule_sets:
            n, bad = play_one(r, seed)
            games[r] += 1
            actions[r] += n
            violations[r].extend(bad)
            for b in bad:
                print("VIOLATION", b, flush=True)
        seed += 1
        if time.time() - last > args.report_every:
            last = time.time()
            print(f"[{last - start:.0f} s] {seed - args.first_seed} games per rule set", flush=True)
    elapsed = time.time() - start
    print(f"invariant long run: {elapsed:.0f} s, target {args.games} games per rule set")
    for r in rule_sets:
        print(
            f"  {r:14s} games {games[r]:6d}  actions {actions[r]:9d}  "
            f"violations {len(violations[r])}"
        )
    return 1 if any(violations.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
