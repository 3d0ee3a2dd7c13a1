"""The command-line options that set a game up, shared by ``play`` and ``host``: seats
(``--players``), seed, meeples, tile pool, rules and town variants, and the map named on the
command line (a file or a shipped map's name), refused with its errors.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from engine.errors import EngineError
from engine.mapdef import MapDef, UnreadableRuleSet

if TYPE_CHECKING:
    from mapeditor.playtest.setup import PlaytestSetup, Seat

USAGE_EXIT = 2


class UsageError(Exception):
    """A bad command-line value; the message names it."""


def parse_players(text: str) -> list[Seat]:
    """Seats from ``"Ann=human,Bob=greedy,mcts:6"``: ``[NAME=]KIND[:STRENGTH]`` per player.

    :raises UsageError: naming the bad item.
    """
    from engine.game import PLAYER_NAMES
    from mapeditor.playtest.setup import BOT_KINDS, DEFAULT_COLOURS, Seat

    items = [t.strip() for t in text.split(",") if t.strip()]
    if not 2 <= len(items) <= 6:
        raise UsageError(f"--players: {len(items)} players given; a game has 2 to 6")
    seats = []
    for i, item in enumerate(items):
        name, _, kind = item.rpartition("=")
        name = name.strip() or PLAYER_NAMES[i]
        kind, _, strength_text = kind.strip().lower().partition(":")
        if kind == "bot":
            kind = "greedy"
        if kind not in BOT_KINDS:
            known = ", ".join(BOT_KINDS)
            raise UsageError(f"--players: item {i + 1} {item!r}: unknown kind {kind!r} ({known})")
        strength = 3
        if strength_text:
            if kind != "mcts" or not strength_text.isdigit() or not 1 <= int(strength_text) <= 10:
                raise UsageError(
                    f"--players: item {i + 1} {item!r}: a strength 1..10 goes with mcts only"
                )
            strength = int(strength_text)
        seats.append(Seat(name, DEFAULT_COLOURS[i], kind, strength))
    names = [s.name for s in seats]
    for n in names:
        if names.count(n) > 1:
            raise UsageError(f"--players: the name {n!r} is used twice")
    return seats


def _load(path: Path) -> MapDef:
    from engine.mapio import load_map
    from mapeditor.playtest.launch import map_errors

    m = load_map(path)
    errors = map_errors(m)
    if errors:
        lines = "\n".join(f"  {e}" for e in errors)
        raise EngineError(f"{path}: the map has errors; fix them before playing:\n{lines}")
    return m


class Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line (a :class:`UsageError`)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def add_game_arguments(ap: argparse.ArgumentParser) -> None:
    """The options that set a game up (seed, seats, rules, tile pool), shared with ``host``."""
    ap.add_argument("--seed", type=int, default=None, help="the game's seed (default: random)")
    ap.add_argument(
        "--players",
        default=None,
        help='seats as "[NAME=]KIND[:STRENGTH],...", KIND human|random|greedy|mcts '
        '(default "human,greedy")',
    )
    ap.add_argument("--meeples", type=int, default=None, help="meeples per player")
    ap.add_argument(
        "--pool", choices=("base", "base+ic", "base+ic+tb"), default=None, help="tile pool"
    )
    ap.add_argument("--tiles", type=int, default=None, help="play this many tiles of the pool")
    ap.add_argument("--no-chips", action="store_true", help="plain Maps rules (no Map-Chips)")
    ap.add_argument("--towns", default="", help="town variants to switch on, e.g. 'a' or 'a,b,c'")


def setup_from(args: argparse.Namespace, m: MapDef) -> PlaytestSetup:
    """The setup the game options of ``args`` (:func:`add_game_arguments`) give on ``m``.

    :raises UsageError: a bad option value; :raises EngineError: a setup that does not fit.
    """
    from dataclasses import replace

    from mapeditor.playtest.setup import PlaytestSetup, default_setup, rule_set_available

    base = default_setup(m, seed=args.seed)
    seats = parse_players(args.players) if args.players else base.seats
    towns = {t.strip().lower() for t in args.towns.split(",") if t.strip()}
    bad = towns - {"a", "b", "c"}
    if bad:
        raise UsageError(f"--towns: unknown variant(s) {', '.join(sorted(bad))} (a, b, c)")
    if args.meeples is not None and not 1 <= args.meeples <= 30:
        raise UsageError(f"--meeples: {args.meeples} is not in 1..30")
    rule_set = base.options.rule_set
    if args.no_chips:
        rule_set = "none"
    elif isinstance(m.rule_set, UnreadableRuleSet):
        print(f"note: {m.rule_set.error}; playing plain Maps rules")
    elif m.rule_set.name != "none" and not rule_set_available(m.rule_set.name, m):
        print(f"note: the engine has no {m.rule_set.name} rules yet; playing plain Maps rules")
    options = replace(
        base.options,
        rule_set=rule_set,
        meeples=args.meeples,
        tile_pool=args.pool,
        tile_count=args.tiles,
        town_extra_tile="a" in towns,
        town_cost="b" in towns,
        town_road_bonus="c" in towns,
    )
    return PlaytestSetup(seats=seats, seed=base.seed, options=options)


def load_playable(text: str) -> MapDef:
    """The map a command line names (a file or a shipped map's name), refused with its errors.

    :raises EngineError: an unreadable map or one with validation errors.
    """
    from engine.resources import find_map

    return _load(find_map(text))
