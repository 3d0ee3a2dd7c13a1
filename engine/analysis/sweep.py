"""Sweep a map's balance over a grid of parameters: one run per grid point, one report.

Parameters (``NAME=V1,V2,...``; several give the grid of every combination):

* ``players``: players per game (2-6);
* ``tile_count``: tiles played; ``tile_pool``: the tile pool's name;
* ``start_squares``: start squares used per game (``setup.start_squares_used``);
* ``bot``: the bot of every seat; ``seats``: a mixed table such as ``mcts/greedy/greedy``;
* ``rule.NAME``: an option of the map's rule set (``GameOptions.rule_options``), such as
  ``rule.wine_limit=round,turn`` on a France map;
* ``ruleset/PATH``: a number inside the map's data rule set (a rule-set file or an embedded
  one; see :mod:`engine.analysis.candidate`), ``ruleset/mechanics/vino/pay/value=1,2,3``;
* ``start.NAME``: where start square NAME lies, its squares separated by ``|`` (a square is
  ``x,y``): ``start.Bari=21,17|19,15``.

Every grid point plays ``config.games`` games with the same seed, so points differ only by the
parameter. :func:`sweep` returns the rows (one per point: win share per seat with the evenness
p-value, scores, fill, turns, set-aside tiles, rule events); :func:`write_sweep` writes
``sweep.json``, ``sweep.md``, ``sweep.html`` and one PNG chart per parameter (figures averaged
over the other parameters' values).
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.analysis.balance import wilson
from engine.analysis.candidate import RULESET, START, is_map_param, parse_square
from engine.analysis.compare import evenness_p, p_text, runs_pair
from engine.analysis.paired import mcnemar_p, paired_difference
from engine.analysis.report import bots_text, save_chart, write_pages
from engine.analysis.simulate import simulate
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.analysis.simulate import SimConfig, SimResult
    from engine.mapdef import MapDef

SWEEP_FORMAT = "carcassonne-balance-sweep"
SWEEP_VERSION = 1
MAX_POINTS = 200
"""A bound on the grid (every point is a whole run)."""

PARAMETERS = ("players", "tile_count", "tile_pool", "start_squares", "bot", "seats")


def _value(name: str, text: str) -> Any:
    text = text.strip()
    if name in ("players", "tile_count", "start_squares"):
        try:
            return int(text)
        except ValueError:
            raise EngineError(f"sweep {name}: {text!r} is not a whole number") from None
    if name == "seats":
        return tuple(t.strip() for t in text.split("/") if t.strip())
    if name.startswith(("rule.", RULESET)):
        for conv in (int, float):
            try:
                return conv(text)
            except ValueError:
                pass
        if name.startswith(RULESET):
            raise EngineError(f"sweep {name}: {text!r} is not a number")
        return {"true": True, "false": False}.get(text.lower(), text)
    return text


def _known(name: str) -> bool:
    return name in PARAMETERS or any(
        name.startswith(prefix) and len(name) > len(prefix) for prefix in ("rule.", RULESET, START)
    )


def parse_sweep(items: Sequence[str]) -> dict[str, list[Any]]:
    """``["players=2,3,4", "rule.wine_limit=round,turn"]`` -> the grid's axes.

    >>> parse_sweep(["ruleset/supply/per_colour=4,6", "start.Bari=21,17|19, 15"])
    {'ruleset/supply/per_colour': [4, 6], 'start.Bari': ['21,17', '19,15']}
    """
    axes: dict[str, list[Any]] = {}
    for item in items:
        name, sep, values = item.partition("=")
        name = name.strip()
        if not sep or not values.strip():
            raise EngineError(f"--sweep {item!r}: write NAME=V1,V2,... (e.g. players=2,3,4)")
        if not _known(name):
            raise EngineError(
                f"--sweep {item!r}: unknown parameter {name!r}; known: "
                f"{', '.join(PARAMETERS)}, rule.NAME, ruleset/PATH, start.NAME"
            )
        if name in axes:
            raise EngineError(f"--sweep: parameter {name!r} given twice")
        if name.startswith(START):  # a square is x,y: squares are separated by |
            try:
                axes[name] = [parse_square(name, v) for v in values.split("|") if v.strip()]
            except EngineError as exc:
                said = str(exc).partition(": ")[2]
                raise EngineError(f"--sweep {item!r}: {said}") from None
            continue
        axes[name] = [_value(name, v) for v in values.split(",") if v.strip()]
    points = 1
    for vals in axes.values():
        points *= len(vals)
    if points > MAX_POINTS:
        raise EngineError(f"--sweep: {points} grid points; at most {MAX_POINTS}")
    return axes


def config_at(base: SimConfig, point: dict[str, Any]) -> SimConfig:
    """``base`` with the parameters of one grid point."""
    changes: dict[str, Any] = {}
    rule_options = dict(base.rule_options)
    map_edits = dict(base.map_edits)
    for name, value in point.items():
        if name == "players":
            changes["players"] = (value,)
        elif name == "start_squares":
            changes["start_squares_used"] = value
        elif name.startswith("rule."):
            rule_options[name[5:]] = value
        elif is_map_param(name):
            map_edits[name] = value
        else:
            changes[name] = value
    if rule_options:
        changes["rule_options"] = tuple(sorted(rule_options.items()))
    if map_edits:
        changes["map_edits"] = tuple(sorted(map_edits.items()))
    return dataclasses.replace(base, **changes)


def grid(axes: dict[str, list[Any]]) -> list[dict[str, Any]]:
    names = list(axes)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*axes.values())]


def point_row(m: MapDef, point: dict[str, Any], result: SimResult) -> dict[str, Any]:
    """The figures of one grid point's run."""
    games = result.games
    n = len(games)
    squares = max(1, len(m.placeable_squares()))
    events: Counter[str] = Counter()
    for g in games:
        for kind, (count, _pts) in g["rule_events"].items():
            events[kind] += count
    return {
        "point": {k: list(v) if isinstance(v, tuple) else v for k, v in point.items()},
        "games": n,
        "rule_set_played": result.rule_set,
        "seats": seat_shares(games),
        "mean_score": round(statistics.fmean(s for g in games for s in g["scores"]), 3),
        "mean_winning_score": round(statistics.fmean(max(g["scores"]) for g in games), 3),
        "mean_fill": round(statistics.fmean(len(g["placed"]) / squares for g in games), 4),
        "mean_turns": round(statistics.fmean(g["turns"] for g in games), 2),
        "mean_set_aside": round(statistics.fmean(len(g["set_aside"]) for g in games), 3),
        "rule_events_per_game": {k: round(v / n, 3) for k, v in sorted(events.items())},
    }


def _shares(wins: Counter[int], games: int, players: int) -> dict[str, Any]:
    """Win share per seat of ``games`` with ``players`` players, with Wilson intervals."""
    seats = []
    for s in range(players):
        lo, hi = wilson(wins[s], games)
        seats.append(
            {
                "seat": s,
                "wins": wins[s],
                "rate": round(wins[s] / games, 4) if games else 0.0,
                "ci": [round(lo, 4), round(hi, 4)],
            }
        )
    return {
        "games": games,
        "fair": round(1 / players, 4),
        "evenness_p": round(evenness_p([wins[s] for s in range(players)]), 6),
        "seats": seats,
    }


def seat_shares(games: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per player count (never mixed: seat 3 of a 3-player game is not seat 3 of a 4-player
    one): games, the fair share, the chi-square p of evenness and each seat's wins, share and
    95 % interval."""
    out = {}
    for players in sorted({g["players"] for g in games}):
        these = [g for g in games if g["players"] == players]
        wins = Counter(s for g in these for s in g["winners"])
        out[str(players)] = _shares(wins, len(these), players)
    return out


def paired_row(first: Sequence[dict[str, Any]], games: Sequence[dict[str, Any]]) -> Any:
    """A grid point against the first point, game by game: every point plays the same seed,
    so game ``i`` of both had the same deal (when they pair, see
    :func:`engine.analysis.compare.runs_pair`). The first seat's win share and the winning
    score, each ``B - A`` with its paired interval and p (McNemar, Wilcoxon); ``None`` when the
    games do not pair (another player count)."""
    if not runs_pair(first, games):
        return None
    won_a = [float(0 in g["winners"]) for g in first]
    won_b = [float(0 in g["winners"]) for g in games]
    seat1 = paired_difference(won_a, won_b)
    a_only = sum(1 for x, y in zip(won_a, won_b, strict=True) if x > y)
    b_only = sum(1 for x, y in zip(won_a, won_b, strict=True) if y > x)
    seat1["p_value"] = round(mcnemar_p(a_only, b_only), 6)
    winning = paired_difference(
        [float(max(g["scores"])) for g in first], [float(max(g["scores"])) for g in games]
    )
    return {"seat1_wins": seat1, "winning_score": winning}


def sweep(
    m: MapDef,
    base: SimConfig,
    axes: dict[str, list[Any]],
    *,
    run: Callable[[SimConfig], SimResult] | None = None,
    on_point: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Play every grid point of ``axes`` (see :func:`parse_sweep`) and return the sweep report.

    ``run(config)`` plays one point (default: :func:`engine.analysis.simulate.simulate` on every core);
    ``on_point(k, total, point)`` is called before point ``k``."""
    if run is None:

        def run(config: SimConfig) -> SimResult:
            return simulate(m, config)

    points = grid(axes)
    rows = []
    for k, point in enumerate(points):
        if on_point is not None:
            on_point(k, len(points), point)
        result = run(config_at(base, point))
        row = point_row(m, point, result)
        if k == 0:
            first = result.games
        else:
            row["vs_first"] = paired_row(first, result.games)
        rows.append(row)
    return {
        "format": SWEEP_FORMAT,
        "format_version": SWEEP_VERSION,
        "map": {"id": m.id, "name": m.name},
        "run": base.to_dict(),
        "axes": {
            k: [list(v) if isinstance(v, tuple) else v for v in vals] for k, vals in axes.items()
        },
        "rows": rows,
    }


# -- the page -------------------------------------------------------------------------------------


def _label(v: Any) -> str:
    return "/".join(map(str, v)) if isinstance(v, list) else str(v)


def marginals(report: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """The rows' figures per value of parameter ``name``, over the other axes: the seats' wins
    pooled per player count (with intervals), scores and fill averaged."""
    out = []
    for value in report["axes"][name]:
        rows = [r for r in report["rows"] if r["point"][name] == value]
        seats: dict[str, Any] = {}
        for p in sorted({p for r in rows for p in r["seats"]}, key=int):
            blocks = [r["seats"][p] for r in rows if p in r["seats"]]
            wins: Counter[int] = Counter()
            for blk in blocks:
                for seat in blk["seats"]:
                    wins[seat["seat"]] += seat["wins"]
            seats[p] = _shares(wins, sum(blk["games"] for blk in blocks), int(p))
        out.append(
            {
                "value": value,
                "seats": seats,
                "mean_score": statistics.fmean(r["mean_score"] for r in rows),
                "mean_winning_score": statistics.fmean(r["mean_winning_score"] for r in rows),
                "mean_fill": statistics.fmean(r["mean_fill"] for r in rows),
            }
        )
    return out


def seats_text(seats: dict[str, Any]) -> str:
    """``2p: 51% (41-61%) / 49% (39-59%)``; without the player count when there is one."""
    parts = []
    for p, blk in seats.items():
        shares = " / ".join(
            f"{s['rate'] * 100:.0f}% ({s['ci'][0] * 100:.0f}-{s['ci'][1] * 100:.0f}%)"
            for s in blk["seats"]
        )
        parts.append(shares if len(seats) == 1 else f"{p}p: {shares}")
    return "; ".join(parts)


def evenness_text(seats: dict[str, Any]) -> str:
    return "; ".join(
        p_text(blk["evenness_p"]) if len(seats) == 1 else f"{p}p: {p_text(blk['evenness_p'])}"
        for p, blk in seats.items()
    )


def sweep_blocks(report: dict[str, Any], images: dict[str, str]) -> list[tuple[Any, ...]]:
    run = report["run"]
    names = list(report["axes"])
    out: list[tuple[Any, ...]] = [
        ("h1", f"Balance sweep: {report['map']['name']}"),
        (
            "p",
            f"Map `{report['map']['id']}`, {run['games']} games per grid point, seed "
            f"{run['seed']}, bot {bots_text(run)}; "
            f"parameters: {', '.join(f'{k} = ' + ', '.join(map(_label, v)) for k, v in report['axes'].items())}.",
        ),
        ("h2", "Every grid point"),
    ]
    rows = []
    for r in report["rows"]:
        events = ", ".join(f"{k} {v:g}" for k, v in r["rule_events_per_game"].items()) or "-"
        rows.append(
            [
                *(_label(r["point"][n]) for n in names),
                str(r["games"]),
                seats_text(r["seats"]),
                evenness_text(r["seats"]),
                f"{r['mean_score']:.1f}",
                f"{r['mean_winning_score']:.1f}",
                f"{r['mean_fill'] * 100:.0f}%",
                f"{r['mean_turns']:.0f}",
                f"{r['mean_set_aside']:.1f}",
                events,
            ]
        )
    out.append(
        (
            "table",
            [
                *names,
                "games",
                "wins per seat (95% interval)",
                "seats even?",
                "mean score",
                "winning score",
                "fill",
                "turns",
                "set aside",
                "rule events per game",
            ],
            rows,
        )
    )
    out.append(
        (
            "p",
            '"Seats even?" is the chi-square test of the seats\' wins against equal shares: a '
            "small p says the seats are not equally likely to win at that point. Seats are "
            "counted per number of players (2p, 3p, ...), never mixed.",
        )
    )
    paired = [r for r in report["rows"] if r.get("vs_first")]
    if paired:
        first = report["rows"][0]["point"]
        out.append(("h2", "Against the first grid point (paired games)"))
        out.append(
            (
                "p",
                "Every grid point plays the same seed, so game *i* of each point had the same "
                f"deal as game *i* of the first ({', '.join(f'{k} = {_label(v)}' for k, v in first.items())}): "
                "each difference is taken game by game, with its 95% interval and p "
                "(McNemar's test for the first seat's wins, Wilcoxon's for the winning score).",
            )
        )

        def cell(d: dict[str, Any], scale: float, unit: str) -> str:
            lo, hi = d["ci"]
            return (
                f"{d['diff'] * scale:+.3g}{unit} ({lo * scale:.3g} to {hi * scale:.3g}), "
                f"{p_text(d['p_value'])}"
            )

        out.append(
            (
                "table",
                [*names, "seat 1 wins, difference", "winning score, difference"],
                [
                    [
                        *(_label(r["point"][n]) for n in names),
                        cell(r["vs_first"]["seat1_wins"], 100, " pts"),
                        cell(r["vs_first"]["winning_score"], 1, ""),
                    ]
                    for r in paired
                ],
            )
        )
    for name in names:
        out.append(("h2", f"By {name}"))
        if name in images:
            out.append(("img", images[name], f"figures by {name}"))
        out.append(
            (
                "table",
                [name, "wins per seat (95% interval)", "mean score", "winning score", "fill"],
                [
                    [
                        _label(mg["value"]),
                        seats_text(mg["seats"]),
                        f"{mg['mean_score']:.1f}",
                        f"{mg['mean_winning_score']:.1f}",
                        f"{mg['mean_fill'] * 100:.0f}%",
                    ]
                    for mg in marginals(report, name)
                ],
            )
        )
    return out


def draw_sweep_charts(report: dict[str, Any], out_dir: Path, *, dpi: int = 72) -> dict[str, Path]:
    """One PNG per parameter: win share per seat, scores and fill against its values."""
    # the optional report extra (may be absent)
    import matplotlib

    matplotlib.use("Agg", force=False)
    # the optional report extra (may be absent)
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    with plt.rc_context({"font.size": 8, "axes.titlesize": 9}):
        for name in report["axes"]:
            margs = marginals(report, name)
            labels = [_label(mg["value"]) for mg in margs]
            xs = list(range(len(labels)))
            fig, axes = plt.subplots(1, 3, figsize=(9, 2.6))
            counts = sorted({p for mg in margs for p in mg["seats"]}, key=int)
            lines = [(p, s) for p in counts for s in range(int(p))]
            for k, (p, s) in enumerate(lines):
                # seats of each player count apart; a small offset keeps the bars readable
                dx = (k - (len(lines) - 1) / 2) * 0.06
                pts = [
                    (x, mg["seats"][p]["seats"][s])
                    for x, mg in zip(xs, margs, strict=True)
                    if p in mg["seats"]
                ]
                axes[0].errorbar(
                    [x + dx for x, _ in pts],
                    [f["rate"] for _, f in pts],
                    yerr=[
                        [f["rate"] - f["ci"][0] for _, f in pts],
                        [f["ci"][1] - f["rate"] for _, f in pts],
                    ],
                    marker="o",
                    ms=3,
                    capsize=2,
                    label=f"seat {s + 1}" if len(counts) == 1 else f"{p}p seat {s + 1}",
                )
            for p in counts:
                axes[0].axhline(1 / int(p), color="k", lw=0.6, ls="--")
            axes[0].set_title("win share per seat (95% interval; dashed: fair)")
            axes[0].legend(fontsize=6)
            axes[1].plot(xs, [mg["mean_score"] for mg in margs], marker="o", label="mean")
            axes[1].plot(xs, [mg["mean_winning_score"] for mg in margs], marker="o", label="winner")
            axes[1].set_title("score")
            axes[1].legend(fontsize=6)
            axes[2].plot(xs, [mg["mean_fill"] for mg in margs], marker="o")
            axes[2].set_title("fill")
            # shares on a fixed 0..1 scale: a small change must not look like a large one
            axes[0].set_ylim(0, 1)
            axes[2].set_ylim(0, 1)
            for ax in axes:
                ax.set_xticks(xs, labels)
                ax.set_xlabel(name)
            fig.tight_layout()
            path = out_dir / f"sweep-{name.replace('.', '-')}.png"
            files[name] = save_chart(plt, fig, path, dpi)
    return files


def write_sweep(
    report: dict[str, Any], out_dir: str | Path, *, charts: bool = True
) -> dict[str, Path]:
    """Write ``sweep.json``, ``sweep.md``, ``sweep.html`` (and a PNG chart per parameter)."""
    return write_pages(
        out_dir,
        "sweep",
        report,
        title=f"Balance sweep: {report['map']['name']}",
        draw=lambda out: draw_sweep_charts(report, out),
        blocks=lambda images: sweep_blocks(report, images),
        charts=charts,
    )


__all__ = ["PARAMETERS", "config_at", "parse_sweep", "seat_shares", "sweep", "write_sweep"]
