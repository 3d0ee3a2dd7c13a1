"""Studies beside a balance report: which plan wins on a map, how much seat effect the bot
brings, and how much skill decides a game.

Each study plays its own paired 2-player games (the same deals for every bot compared, seats
swapped within a deal, :attr:`engine.analysis.simulate.SimConfig.paired`) through ``run(config)``, so it
runs wherever the report's games run (local workers or a Dask cluster):

* :func:`style_figures`: every play style (:mod:`engine.bots.styles`) against the balanced
  greedy bot, at equal strength (one search, different weights); a style that wins
  significantly more than half its games is a plan the map rewards. Beside it, the first
  seat's win rate in self-play of each bot and of the random bot on the same deals: the
  difference is the seat effect the bot's habits bring, not the map's.
* :func:`skill_trace`: each MCTS strength level against the level below it (Ludii's
  ``SkillTrace``): a map where the stronger keeps winning rewards skill; one near 50 % is
  decided by the draw.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.analysis.balance import wilson
from engine.analysis.paired import block_rate, mcnemar_p, mean_ci
from engine.bots.styles import STYLES
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.analysis.report_types import ReportWarning
    from engine.analysis.simulate import SimConfig, SimResult

Run = Callable[["SimConfig"], "SimResult"]
ALPHA = 0.01
"""Overall significance of the style warning, Bonferroni-corrected over the styles."""
MIN_EFFECT = 0.10
"""A style must also win at least this much more than half its games to be warned about."""


def _r(x: float) -> float:
    return round(float(x), 4)


def _config(base: SimConfig, games: int, **changes: Any) -> SimConfig:
    """``base`` (its map settings, rules and seed) for a 2-player paired study."""
    settings: dict[str, Any] = {"bot": "greedy", "seats": (), **changes}
    return dataclasses.replace(base, games=games, players=(2,), paired=True, **settings)


def head_to_head(run: Run, base: SimConfig, a: str, b: str, deals: int) -> dict[str, Any]:
    """Bot ``a`` against bot ``b`` over ``deals`` deals, each played with a in seat 1 then in
    seat 2: a's win rate (a shared win counts half) with its interval over deals, a's mean
    margin with its interval, and McNemar's p over the deals one side won more often."""
    result = run(_config(base, 2 * deals, seats=(a, b)))
    by_deal: dict[int, list[tuple[float, int]]] = {}
    for g in result.games:
        me = g["bots"].index(a)
        other = 1 - me
        won = 0.5 if len(g["winners"]) > 1 else float(me in g["winners"])
        by_deal.setdefault(g["deal"], []).append((won, g["scores"][me] - g["scores"][other]))
    blocks = [[w for w, _m in v] for v in by_deal.values()]
    rate = block_rate(blocks)
    a_more = sum(1 for blk in blocks if statistics.fmean(blk) > 0.5)
    b_more = sum(1 for blk in blocks if statistics.fmean(blk) < 0.5)
    margin, lo, hi = mean_ci([statistics.fmean(m for _w, m in v) for v in by_deal.values()])
    return {
        "bot": a,
        "against": b,
        "games": rate["games"],
        "deals": rate["deals"],
        "rate": rate["rate"],
        "ci": [_r(x) for x in rate["ci"]],
        "margin": margin,
        "margin_ci": [None if math.isnan(x) else x for x in (lo, hi)],
        "p_value": round(mcnemar_p(a_more, b_more), 6),
    }


def seat_effect(run: Run, base: SimConfig, bots: Sequence[str], deals: int) -> list[dict[str, Any]]:
    """Per bot, 2-player self-play on the same ``deals`` deals: the first seat's win rate, and
    its difference from the random bot's on the same deals (McNemar's p): the seat effect the
    bot's habits add to the map's own."""
    wins: dict[str, list[float]] = {}
    for bot in ("random", *[b for b in bots if b != "random"]):
        games = run(_config(base, deals, bot=bot)).games
        wins[bot] = [float(0 in g["winners"]) for g in games]
    ref = wins["random"]
    out = []
    for bot, won in wins.items():
        k = int(sum(won))
        rate = k / len(won)
        fig: dict[str, Any] = {"bot": bot, "games": len(won), "seat1_wins": k, "rate": _r(rate)}
        fig["ci"] = [_r(x) for x in wilson(k, len(won))]
        if bot != "random":
            only_bot = sum(1 for x, y in zip(won, ref, strict=True) if x > y)
            only_ref = sum(1 for x, y in zip(won, ref, strict=True) if y > x)
            fig["vs_random"] = _r(rate - statistics.fmean(ref))
            fig["p_value"] = round(mcnemar_p(only_bot, only_ref), 6)
        out.append(fig)
    return out


def style_figures(
    run: Run, base: SimConfig, deals: int, styles: Sequence[str] | None = None
) -> dict[str, Any]:
    """Which plan wins: every style (default: all but ``balanced``) against the balanced greedy
    bot over ``deals`` deals, and the seat effect of each (:func:`seat_effect`)."""
    names = _style_names(styles)
    matches = [head_to_head(run, base, f"greedy:{s}", "greedy", deals) for s in names]
    seats = seat_effect(run, base, ["greedy", *(f"greedy:{s}" for s in names)], deals)
    return {"deals": deals, "against": "greedy", "styles": matches, "seat_effect": seats}


def _style_names(styles: Sequence[str] | None) -> list[str]:
    return [s for s in (styles or sorted(STYLES)) if s != "balanced"]


def style_games(deals: int, styles: Sequence[str] | None = None) -> int:
    """The games :func:`style_figures` plays: two per deal for each style's match, one per deal
    for each bot's seat effect (the random bot, the greedy bot and each style).

    >>> style_games(10)  # five styles
    170
    """
    n = len(_style_names(styles))
    return 2 * n * deals + (n + 2) * deals


def winning_styles(figures: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The styles' rows of ``figures`` (:func:`style_figures`) that win significantly more than
    half their games against the balanced bot (McNemar's p, Bonferroni over the styles) by at
    least ``MIN_EFFECT``: those the report warns about and its chart marks."""
    matches = figures["styles"]
    return [
        f for f in matches if f["p_value"] * len(matches) < ALPHA and f["rate"] - 0.5 >= MIN_EFFECT
    ]


def style_warnings(figures: Mapping[str, Any]) -> list[ReportWarning]:
    """A ``style-wins`` warning for each of the :func:`winning_styles`."""
    return [
        {
            "code": "style-wins",
            "message": (
                f"the {f['bot'].partition(':')[2]} plan wins {f['rate']:.0%} of 2-player "
                f"games against the balanced bot at equal strength (95% CI "
                f"{f['ci'][0]:.0%}-{f['ci'][1]:.0%}, p = {f['p_value']:.2g}): the map "
                "rewards it"
            ),
        }
        for f in winning_styles(figures)
    ]


SKILL_DEALS = 20
"""Paired deals per level of a skill trace unless told (``--skill-deals``)."""


def parse_levels(text: str) -> list[int]:
    """The levels of a skill trace written ``2-6`` or ``2,4,8`` (``--skill-trace``), or an
    error naming ``text``.

    >>> parse_levels("2-4,8")
    [2, 3, 4, 8]
    >>> parse_levels("1-3")
    Traceback (most recent call last):
    ...
    engine.errors.EngineError: --skill-trace: '1-3': levels are 2..10 (each plays the one below)
    """
    levels: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            levels.extend(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise EngineError(f"--skill-trace: {text!r} is not a list of levels like 2-6") from None
    if not levels or any(not 2 <= k <= 10 for k in levels):
        raise EngineError(f"--skill-trace: {text!r}: levels are 2..10 (each plays the one below)")
    return levels


def skill_games(levels: Sequence[int], deals: int) -> int:
    """The games :func:`skill_trace` plays: two per deal for each level.

    >>> skill_games([2, 3, 4], 5)
    30
    """
    return 2 * deals * len(levels)


def skill_trace(run: Run, base: SimConfig, levels: Sequence[int], deals: int) -> dict[str, Any]:
    """Each MCTS level in ``levels`` (2..10) against the level below it over ``deals`` deals."""
    bad = [k for k in levels if not 2 <= k <= 10]
    if bad:
        raise EngineError(f"skill trace: levels {bad} are not in 2..10 (each plays the one below)")
    rows = [head_to_head(run, base, f"mcts@{k}", f"mcts@{k - 1}", deals) for k in levels]
    rates = [r["rate"] for r in rows]
    return {
        "deals": deals,
        "levels": [
            {"level": k, **{key: r[key] for key in ("games", "rate", "ci", "margin", "p_value")}}
            for k, r in zip(levels, rows, strict=True)
        ],
        "mean_rate": _r(statistics.fmean(rates)) if rates else None,
    }


__all__ = [
    "SKILL_DEALS",
    "head_to_head",
    "parse_levels",
    "seat_effect",
    "skill_games",
    "skill_trace",
    "style_figures",
    "style_games",
    "style_warnings",
    "winning_styles",
]
