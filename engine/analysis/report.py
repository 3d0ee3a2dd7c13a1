"""Write a balance report: ``report.json`` (every figure), ``report.md`` and ``report.html``.

The JSON needs nothing beyond the standard library. PNG charts are drawn when matplotlib is
importable (the optional extra ``pip install 'carcassonne-maps-studio[report]'``); without it the
pages hold the tables only and say how to get the charts.

The JSON file is deterministic: the same report dict gives the same bytes (no timings, no paths),
so a run is reproducible from its seed down to the file.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.analysis.mapfigure import MapLayer, grid_values, map_figure
from engine.analysis.plans import winning_styles
from engine.analysis.verdicts import plain_verdicts
from engine.bots.spec import BotSpec
from engine.boundedio import write_bytes_atomically, write_text_atomically
from engine.rules.data.icons import icon_svg

if TYPE_CHECKING:
    from engine.analysis.report_types import BalanceReport, Describe, Rate
    from engine.mapdef import MapDef

Block = tuple[Any, ...]
"""``("h1"|"h2"|"p", text)``, ``("table", headers, rows)``, ``("img", file, alt)``,
``("list", items)``."""

CHARTS_EXTRA = "pip install 'carcassonne-maps-studio[report]'"


def has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def report_json(report: Mapping[str, Any]) -> str:
    """The report as deterministic JSON text."""
    return json.dumps(report, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_report(
    report: BalanceReport,
    out_dir: str | Path,
    m: MapDef,
    *,
    charts: bool = True,
    map_file: str | Path | None = None,
) -> dict[str, Path]:
    """Write the JSON, Markdown and HTML report of map ``m`` (and PNG charts when possible) into
    ``out_dir``. ``map_file``: the map's file, so the page's re-run command names it (a path
    from ``out_dir``, so the command works run beside the report); ``None`` for a shipped map,
    named by its id.

    Returns the written files by role (``json``, ``markdown``, ``html``, ``chart:<name>``).
    """
    map_arg = map_argument(map_file, out_dir) if map_file is not None else report["map"]["id"]
    return write_pages(
        out_dir,
        "report",
        report,
        title=f"Balance report: {report['map']['name']}",
        draw=lambda out: draw_charts(report, out, m),
        icons={
            icon_file(r): icon_svg(r["icon"], r["colour"])
            for r in report["rules"].get("resources", [])
        },
        blocks=lambda images: report_blocks(report, images, charts_wanted=charts, map_arg=map_arg),
        charts=charts,
    )


def map_argument(map_file: str | Path, out_dir: str | Path) -> str:
    """``map_file`` as a command line run in ``out_dir`` names it: the path from there, quoted
    for a POSIX shell when it must be (``../my maps/v2.json`` → ``'../my maps/v2.json'``)."""
    rel = os.path.relpath(Path(map_file).resolve(), Path(out_dir).resolve())
    return shlex.quote(Path(rel).as_posix())


def bots_text(run: Mapping[str, Any]) -> str:
    """The run's bot spec, or at a mixed table the bot of each seat: what a report's, a
    comparison's, a sweep's and a tuning's header name.

    >>> bots_text({"bot": "mcts@4", "seats": []})
    'mcts@4'
    >>> bots_text({"bot": "greedy", "seats": ["mcts:cities@6", "greedy"]})
    'mcts:cities@6/greedy'
    """
    return "/".join(run["seats"]) if run.get("seats") else str(run["bot"])


def rerun_command(report: Mapping[str, Any], map_arg: str) -> str:
    """The command that plays the same games again (run in the report's folder when
    ``map_arg`` is a path from it): a report's, or a comparison's with ``map_arg`` =
    ``--compare A B``."""
    run = report["run"]
    players = ",".join(str(p) for p in run["players"])
    cmd = (
        f"python -m engine simulate {map_arg} --games {run['games']} --players {players} "
        f"--bot {run['bot']} --rules {'on' if run['rules'] else 'off'} --seed {run['seed']}"
    )
    # the budget of every MCTS bot without a level (one at a mixed table too)
    specs = [BotSpec.parse(b) for b in (run["bot"], *run.get("seats", ()))]
    if any(s.name == "mcts" and s.level is None for s in specs):
        cmd += f" --mcts-iterations {run['mcts_iterations']}"
    if run.get("seats"):
        cmd += f" --seats {','.join(run['seats'])}" + (
            "" if run.get("paired", True) else " --unpaired"
        )
    if "styles" in report:
        cmd += f" --styles {report['styles']['deals']}"
    if "skill_trace" in report:
        levels = ",".join(str(r["level"]) for r in report["skill_trace"]["levels"])
        cmd += f" --skill-trace {levels} --skill-deals {report['skill_trace']['deals']}"
    return cmd


def write_pages(
    out_dir: str | Path,
    stem: str,
    data: Any,
    *,
    title: str,
    draw: Callable[[Path], dict[str, Path]],
    blocks: Callable[[dict[str, str]], list[Block]],
    charts: bool = True,
    icons: Mapping[str, str] | None = None,
) -> dict[str, Path]:
    """Write ``stem.json`` (``data``), the PNG charts ``draw`` makes when matplotlib is there,
    and ``stem.md`` and ``stem.html`` from ``blocks(images)``: what a report, a comparison and a
    sweep each write. Returns the files by role (``json``, ``markdown``, ``html``,
    ``chart:<name>``, ``icon:<file>``: ``icons``, SVG text by file name, written beside)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)

    def write(name: str, text: str) -> Path:
        # the file names are the program's: a link planted under one is replaced, not followed
        path = out / name
        write_text_atomically(path, text, follow_links=False)
        return path

    files: dict[str, Path] = {"json": write(f"{stem}.json", report_json(data))}
    for name, svg in (icons or {}).items():
        files[f"icon:{name}"] = write(name, svg)
    images: dict[str, str] = {}
    if charts and has_matplotlib():
        for name, p in draw(out).items():
            files[f"chart:{name}"] = p
            images[name] = p.name
    page_blocks = blocks(images)
    files["markdown"] = write(f"{stem}.md", to_markdown(page_blocks))
    files["html"] = write(f"{stem}.html", to_html(page_blocks, title=title))
    return files


# -- the page ------------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{x * 100:.1f}%"


def _ci(fig: Rate) -> str:
    return f"{fig['ci'][0] * 100:.0f}-{fig['ci'][1] * 100:.0f}%"


def _p(p: float | None) -> str:
    """A p-value to two significant digits (``-`` when there is none)."""
    return "-" if p is None else f"{p:.2g}"


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.2f}".rstrip("0").rstrip(".") if not math.isnan(x) else "-"
    return str(x)


def report_blocks(
    report: BalanceReport,
    images: dict[str, str],
    *,
    charts_wanted: bool = True,
    map_arg: str | None = None,
) -> list[Block]:
    """The page as blocks (rendered to Markdown or HTML), section by section; ``map_arg`` is
    how the re-run command names the map (its id by default)."""
    b = _intro_blocks(report, images, charts_wanted, map_arg or report["map"]["id"])
    for section in SECTIONS:
        b += section(report, images)
    return b


def _intro_blocks(
    report: BalanceReport, images: dict[str, str], charts_wanted: bool, map_arg: str
) -> list[Block]:
    """The title, what was played, how to get the same figures again, the charts note."""
    m = report["map"]
    run = report["run"]
    b: list[Block] = [("h1", f"Balance report: {m['name']}")]
    players = ",".join(str(p) for p in run["players"])
    rules = run["rule_set_played"]
    rules_text = "plain Maps rules" if rules == "none" else f"Map-Chips rules '{rules}'"
    b.append(
        (
            "p",
            f"{run['games_played']} games of map `{m['id']}` ({m['placeable_squares']} placeable "
            f"squares) with {players} players, bot `{bots_text(run)}`, {rules_text}, seed "
            f"{run['seed']}.",
        )
    )
    cmd = rerun_command(report, map_arg)
    b.append(
        (
            "p",
            f"Same figures again (any number of workers), run in this report's folder: `{cmd}`",
        )
    )
    if run.get("rules_missing"):
        b.append(
            (
                "p",
                f"**The engine has no '{run['rules_missing']}' rule module yet**: these games "
                "were played with plain Maps rules.",
            )
        )
    if not images:
        b.append(
            (
                "p",
                "Charts need matplotlib: " + f"`{CHARTS_EXTRA}`."
                if charts_wanted
                else "Charts were not drawn.",
            )
        )
    return b


def _verdict_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """One plain verdict per question (:mod:`engine.analysis.verdicts`)."""
    found = plain_verdicts(report)
    if not found:
        return []
    return [("h2", "Verdicts"), ("list", [v["text"] for v in found])]


def _warnings_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """The warnings, then the overview chart."""
    b: list[Block] = []
    b.append(("h2", "Warnings"))
    warns = report["warnings"]
    b.append(("list", [w["message"] for w in warns]) if warns else ("p", "None."))
    if "overview" in images:
        b.append(("img", images["overview"], "Scores, win rates, game length, points"))
    return b


def _scores_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Scores and win rate per seat, per player count."""
    b: list[Block] = []
    b.append(("h2", "Scores and win rate per seat"))
    for p, sc in report["scores"].items():
        w = report["wins"][p]
        rows = []
        for s, seat in enumerate(sc["seats"]):
            wf = w["seats"][s]
            rows.append(
                [
                    str(s + 1),
                    _num(seat["mean"]),
                    _num(seat["sd"]),
                    f"{seat['min']}-{seat['max']}",
                    _num(seat["median"]),
                    _pct(wf["rate"]),
                    _ci(wf),
                    f"{wf['p_value']:.3g}",
                ]
            )
        b.append(
            (
                "p",
                f"{p} players, {sc['games']} games ({w['ties']} tied for first; tied winners all "
                f"count as winners). Mean winning score {_num(sc['winning']['mean'])}, mean "
                f"margin {_num(sc['margin']['mean'])}. Fair win rate {_pct(w['fair'])}; p: exact "
                "binomial test against it.",
            )
        )
        b.append(
            (
                "table",
                ["seat", "mean", "sd", "range", "median", "wins", "95% CI", "p"],
                rows,
            )
        )
    return b


def _start_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Each choice of start squares."""
    b: list[Block] = []
    b.append(("h2", "Start squares"))
    rows = []
    for c in report["start_choices"]:
        names = " + ".join(
            n or f"({x},{y})" for n, (x, y) in zip(c["names"], c["squares"], strict=True)
        )
        seats = ", ".join(
            f"{s['seat'] + 1}: {_pct(s['rate'])}"
            + (f" ({s['players']}p)" if len(report["scores"]) > 1 else "")
            for s in c["seats"]
        )
        best_p = min((s["p_value"] for s in c["seats"]), default=1.0)
        rows.append(
            [
                names,
                str(c["games"]),
                _num(c["mean_score"]),
                _num(c["mean_winning_score"]),
                _pct(c["mean_fill"]),
                seats,
                f"{best_p:.3g}",
            ]
        )
    b.append(
        (
            "table",
            ["start squares", "games", "mean score", "winning score", "fill", "seat wins", "min p"],
            rows,
        )
    )
    return b


def _fill_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """How full the map gets: share filled, heat map, unreached squares, set-aside tiles."""
    b: list[Block] = []
    f = report["fill"]
    b.append(("h2", "How full the map gets"))
    b.append(
        (
            "p",
            f"Mean share of the {f['placeable_squares']} placeable squares filled: "
            f"{_pct(f['share'].get('mean'))} (min {_pct(f['share'].get('min'))}, max "
            f"{_pct(f['share'].get('max'))}). Squares never built: {len(f['never_reached'])}; "
            f"built in under 5% of games: {len(f['rarely_reached'])}. Tiles set aside because "
            f"they fitted nowhere: {_num(f['set_aside']['per_game'].get('mean'))} per game "
            f"({f['set_aside']['games_with_any']} games had any).",
        )
    )
    if "heatmap" in images:
        b.append(("img", images["heatmap"], "How often and how early each square is built"))
    regions = f["never_filled_regions"]
    if regions:
        places = [
            f"{r['size']} square{'s' if r['size'] > 1 else ''} "
            + (r.get("place") or "at " + ", ".join(f"({x}, {y})" for x, y in r["squares"]))
            for r in regions[:30]
        ]
        more = f" and {len(regions) - 30} more places" if len(regions) > 30 else ""
        b.append(("p", "Never built: " + "; ".join(places) + more + "."))
    by_tile = sorted(f["set_aside"]["by_tile"].items(), key=lambda kv: (-kv[1], kv[0]))
    if by_tile:
        shown = ", ".join(f"{t} x{n}" for t, n in by_tile[:15])
        more = f" and {len(by_tile) - 15} more tile types" if len(by_tile) > 15 else ""
        b.append(("p", f"Tiles set aside most often (times, all games): {shown}{more}."))
    return b


def _features_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Large cities, border features, ferries, points by kind (all and per seat)."""
    b: list[Block] = []
    feat = report["features"]
    b.append(("h2", "Features"))
    if "features" in images:
        b.append(("img", images["features"], "Large cities, border features and ferries"))
    if feat["large_cities"]:
        b.append(
            (
                "table",
                ["large city", "squares", "completed", "95% CI", "connected"],
                [
                    [
                        c["name"],
                        str(c["squares"]),
                        _pct(c["completed"]["rate"]),
                        _ci(c["completed"]),
                        _pct(c["connected"]["rate"]),
                    ]
                    for c in feat["large_cities"]
                ],
            )
        )
    if feat["borders"]:
        b.append(
            (
                "p",
                f"Border features connected per game: "
                f"{_num(feat['borders_connected_per_game'].get('mean'))} of {len(feat['borders'])}.",
            )
        )
        b.append(
            (
                "table",
                ["border feature", "connected"],
                [[_border_name(x), _pct(x["connected"]["rate"])] for x in feat["borders"]],
            )
        )
    if feat["ferries"]:
        b.append(
            (
                "table",
                ["ferry", "used"],
                [[x.get("place", x["id"]), _pct(x["used"]["rate"])] for x in feat["ferries"]],
            )
        )
    b.append(
        (
            "table",
            ["points by kind (all players)", "per game"],
            [[k, _num(v)] for k, v in feat["points_per_game"].items()],
        )
    )
    for p, seats in feat.get("seat_points_per_game", {}).items():
        kinds = sorted({k for sp in seats for k in sp})
        if kinds:
            b.append(
                (
                    "table",
                    [f"{p} players: mean points per game", *kinds],
                    [
                        [f"seat {s + 1}", *(_num(sp.get(k, 0)) for k in kinds)]
                        for s, sp in enumerate(seats)
                    ],
                )
            )
    return b


def _border_name(x: Any) -> str:
    """A border feature by place, or by its edge in reports made before places had names."""
    place: str = x.get("place") or (
        f"({x['x']}, {x['y']}) {x['side']} {x['kind']} {x['neighbour'] or ''}".rstrip()
    )
    return place


def _chips_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Map-Chips collected."""
    b: list[Block] = []
    b.append(("h2", "Map-Chips"))
    chips = report["chips"]
    if not chips["available"]:
        b.append(("p", f"No chip figures: {chips['why']}."))
    else:
        cols = ", ".join(f"{c} {_num(v)}" for c, v in chips["by_colour"].items()) or "none"
        b.append(
            (
                "p",
                f"Chips collected per game: {_num(chips['per_game'].get('mean'))} "
                f"(by colour: {cols}).",
            )
        )
    return b


def _rules_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """The rule set's own figures (or why there are none)."""
    b: list[Block] = []
    run = report["run"]
    rules_fig = report["rules"]
    if rules_fig["played"]:
        rows = [[a, _num(v)] for a, v in rules_fig["actions_per_game"].items()]
        rows += [
            [f"event {k} (points)", f"{_num(v['count'])} ({_num(v['points'])})"]
            for k, v in rules_fig["events_per_game"].items()
        ]
        if rows:
            b.append(("table", [f"{rules_fig['rule_set']}: per game", "mean"], rows))
        by_rule = rules_fig.get("by_rule", [])
        if by_rule:
            head = [
                "rule (per game)",
                "offered",
                "taken",
                "declined",
                "ran",
                "points",
                "chips",
                "extra turns (played)",
                "turns missed",
            ]
            cells = [
                [
                    r["title"],
                    *(_num(r[k]) for k in ("offered", "taken", "declined")),
                    _num(r["fired"]),
                    _num(r["points"]),
                    _num(r["chips"]),
                    f"{_num(r.get('extra_turns', 0))} ({_num(r.get('extra_turns_played', 0))})",
                    _num(r.get("turns_skipped", 0)),
                ]
                for r in by_rule
            ]
            b.append(("table", head, cells))
        held = rules_fig.get("resources", [])
        if held:
            rows = [
                [
                    f"![{r['icon']}]({icon_file(r)}) {r['name']}",
                    _num(r["held_at_end"]),
                    str(r["most_held"]),
                ]
                for r in held
            ]
            b.append(("table", ["resource", "held at the end (mean)", "most held"], rows))
        for name, fig in rules_fig.get("figures", {}).items():
            if isinstance(fig, dict) and fig.get("n") == 0:
                b.append(("p", f"{name.replace('_', ' ')}: no data."))
            elif isinstance(fig, dict) and "mean" in fig:
                b.append(
                    (
                        "p",
                        f"{name.replace('_', ' ')}: mean {_num(fig['mean'])} per game "
                        f"(max {_num(fig['max'])}).",
                    )
                )
            elif isinstance(fig, dict) and fig:
                ranked = sorted(fig.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
                items = ", ".join(f"{k} {v}" for k, v in ranked)
                label = name.replace("_", " ")
                b.append(("p", f"{label} (totals over all {run['games_played']} games): {items}."))
    elif rules_fig.get("missing"):
        b.append(
            (
                "p",
                f"The '{rules_fig['missing']}' rule module is missing from the engine, so its "
                "figures (wines, island tiles, double turns, treats, upgrades) are not available.",
            )
        )
    elif rules_fig["rule_set"] != "none":
        b.append(("p", "Played with plain Maps rules (--rules off): no rule-set figures."))
    return b


def _length_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Game length in turns."""
    b: list[Block] = []
    ln = report["length"]["all"]
    b.append(("h2", "Game length"))
    b.append(
        (
            "p",
            f"Turns per game: mean {_num(ln.get('mean'))}, min {ln.get('min')}, max "
            f"{ln.get('max')}.",
        )
    )
    return b


def _quality_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Game quality: lead changes, drama, decisiveness, leaders changed by the final scoring."""
    q = report.get("quality")
    if not q:
        return []

    def row(label: str, d: Describe, unit: str = "") -> list[str]:
        return [label, f"{_num(d.get('mean'))}{unit}", _num(d.get("median")), _num(d.get("max"))]

    flip = q["final_flip"]
    return [
        ("h2", "Game quality"),
        (
            "table",
            ["figure", "mean", "median", "max"],
            [
                row("lead changes per game", q["lead_changes"]),
                row("drama: points the winner was behind", q["drama"]),
                row("decided after this share of the game", q["decisive_share"]),
            ],
        ),
        (
            "p",
            f"The final scoring changed the leader in {_pct(flip['rate'])} of games "
            f"({flip['count']} of {flip['games']}, 95% interval {_ci(flip)}). Lead changes and "
            "drama are counted on the scores at the end of each turn, before the final scoring "
            "(definitions: docs/balance-reports.md, *Game quality*).",
        ),
    ]


def _styles_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Which plan wins on this map, and the seat effect each bot brings (engine.analysis.plans)."""
    st = report.get("styles")
    if not st:
        return []
    b: list[Block] = [
        ("h2", "Which plan wins on this map"),
        (
            "p",
            f"Each play style against the balanced greedy bot, 2 players, {st['deals']} deals "
            "each played twice with the seats swapped (paired games). The styles share the "
            "greedy bot's search and differ only in what their plan adds to it, so they meet at "
            "equal strength: a style that wins well over 50 % is a plan this map rewards.",
        ),
        (
            "table",
            ["style", "games", "wins", "95% interval (over deals)", "mean margin", "p"],
            [
                [
                    f["bot"].partition(":")[2],
                    str(f["games"]),
                    _pct(f["rate"]),
                    f"{f['ci'][0] * 100:.0f}-{f['ci'][1] * 100:.0f}%",
                    f"{f['margin']:+.1f} ({_num(f['margin_ci'][0])} to {_num(f['margin_ci'][1])})",
                    _p(f["p_value"]),
                ]
                for f in st["styles"]
            ],
        ),
        *(
            [("img", images["styles"], "Each style's win rate against the balanced bot")]
            if "styles" in images
            else []
        ),
        ("h2", "Seat effect of the bot"),
        (
            "p",
            "The first seat's win rate in 2-player self-play of each bot, on the same deals. "
            "The random bot has no plan: its figure is the map's and the rules' own seat "
            "effect. What a bot adds to it is its habit, not the map's: do not move start "
            "squares to fix it.",
        ),
        (
            "table",
            ["bot", "games", "seat 1 wins", "95% interval", "against random", "p"],
            [
                [
                    f["bot"],
                    str(f["games"]),
                    _pct(f["rate"]),
                    f"{f['ci'][0] * 100:.0f}-{f['ci'][1] * 100:.0f}%",
                    f"{f['vs_random'] * 100:+.0f} points" if "vs_random" in f else "-",
                    _p(f.get("p_value")),
                ]
                for f in st["seat_effect"]
            ],
        ),
    ]
    return b


def _skill_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """The skill trace: each MCTS level against the level below it."""
    sk = report.get("skill_trace")
    if not sk:
        return []
    return [
        ("h2", "Skill trace"),
        (
            "p",
            f"Each MCTS strength level against the level below it, 2 players, {sk['deals']} "
            "paired deals each. Rates well above 50 % all the way up: skill decides games on "
            "this map; rates near 50 %: the draw does.",
        ),
        (
            "table",
            ["level", "against", "games", "wins", "95% interval (over deals)", "mean margin"],
            [
                [
                    str(r["level"]),
                    str(r["level"] - 1),
                    str(r["games"]),
                    _pct(r["rate"]),
                    f"{r['ci'][0] * 100:.0f}-{r['ci'][1] * 100:.0f}%",
                    f"{r['margin']:+.1f}",
                ]
                for r in sk["levels"]
            ],
        ),
    ]


def _bots_blocks(report: BalanceReport, images: dict[str, str]) -> list[Block]:
    """Mixed tables: each bot's wins over the seats it played."""
    bots = report.get("bots")
    if not bots:
        return []
    return [
        ("h2", "Bots at a mixed table"),
        (
            "p",
            "Each game turns the table by one seat, so every bot plays every seat equally "
            "often"
            + (
                "; each deal is played once per turn of the table (paired games), so every "
                "bot meets the same tiles in every seat and the interval is taken over deals"
                if report["run"].get("paired") and any("deals" in f for f in bots)
                else ""
            )
            + ". A strong bot that wins far more than its share shows how much a better "
            "player can get out of the map.",
        ),
        (
            "table",
            ["bot", "seats played", "wins", "wins per seat played", "95% interval"],
            [
                [
                    f["bot"],
                    str(f["seats_played"]),
                    str(f["wins"]),
                    _pct(f["rate_per_seat"]),
                    f"{f['ci'][0] * 100:.0f}-{f['ci'][1] * 100:.0f}%" if "ci" in f else "-",
                ]
                for f in bots
            ],
        ),
    ]


SECTIONS: tuple[Callable[[BalanceReport, dict[str, str]], list[Block]], ...] = (
    _verdict_blocks,
    _warnings_blocks,
    _scores_blocks,
    _bots_blocks,
    _start_blocks,
    _fill_blocks,
    _features_blocks,
    _chips_blocks,
    _rules_blocks,
    _length_blocks,
    _quality_blocks,
    _skill_blocks,
    _styles_blocks,
)
"""The report's sections after the introduction, in page order."""


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(blocks: Sequence[Block]) -> str:
    lines: list[str] = []
    for blk in blocks:
        kind = blk[0]
        if kind == "h1":
            lines += [f"# {blk[1]}", ""]
        elif kind == "h2":
            lines += [f"## {blk[1]}", ""]
        elif kind == "p":
            lines += [blk[1], ""]
        elif kind == "list":
            lines += [f"- {item}" for item in blk[1]] + [""]
        elif kind == "img":
            lines += [f"![{blk[2]}]({blk[1]})", ""]
        elif kind == "table":
            headers, rows = blk[1], blk[2]
            lines.append("| " + " | ".join(_md_cell(h) for h in headers) + " |")
            lines.append("|" + "|".join("---" for _ in headers) + "|")
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
            lines.append("")
    return "\n".join(lines)


_ICON = re.compile(r"!\[([a-z]+)\]\((icon-[a-z][a-z0-9_]*\.svg)\)")
"""A resource's icon in a cell: ``![fish](icon-herring.svg)`` (the names the page writes)."""


def icon_file(resource: Mapping[str, Any]) -> str:
    """The file name of a resource's icon beside the report (its id is a plain name)."""
    return f"icon-{resource['id']}.svg"


_EMPHASIS = re.compile(r"(?<![\w*])\*(?![\s*])([^*]+?)(?<![\s*])\*(?![\w*])")
"""``*word*`` (not ``**``, not ``a * b``): emphasis."""


def _inline(text: str) -> str:
    """Markdown code spans, bold, emphasis and the resources' icons to HTML (the only inline
    marks the pages use).

    >>> _inline("A candidate is *met*, **not** `a*b*c` or 2 * 3 * 4")
    'A candidate is <em>met</em>, <strong>not</strong> <code>a*b*c</code> or 2 * 3 * 4'
    """
    out = _ICON.sub(r'<img src="\2" alt="\1" width="16" height="16">', html.escape(text))
    parts = out.split("`")
    out = "".join(
        f"<code>{p}</code>" if i % 2 else _EMPHASIS.sub(r"<em>\1</em>", p)
        for i, p in enumerate(parts)
    )
    parts = out.split("**")
    return "".join(f"<strong>{p}</strong>" if i % 2 else p for i, p in enumerate(parts))


def _header(text: str) -> str:
    """A table header; a plain one may wrap at its slashes (a tuner's ``ruleset/...`` path
    would push the figures off the page)."""
    cell = _inline(text)
    return cell.replace("/", "/<wbr>") if cell == html.escape(text) else cell


def to_html(blocks: Sequence[Block], *, title: str) -> str:
    body: list[str] = []
    for blk in blocks:
        kind = blk[0]
        if kind in ("h1", "h2"):
            body.append(f"<{kind}>{_inline(blk[1])}</{kind}>")
        elif kind == "p":
            body.append(f"<p>{_inline(blk[1])}</p>")
        elif kind == "list":
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in blk[1]) + "</ul>")
        elif kind == "img":
            body.append(f'<p><img src="{html.escape(blk[1])}" alt="{html.escape(blk[2])}"></p>')
        elif kind == "table":
            head = "".join(f"<th>{_header(h)}</th>" for h in blk[1])
            rows = "".join(
                "<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>" for row in blk[2]
            )
            body.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px}"
        "th{background:#eee}img{max-width:100%}"
    )
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


# -- charts ----------------------------------------------------------------------------------------


def draw_charts(
    report: BalanceReport, out_dir: Path, m: MapDef, *, dpi: int = 72
) -> dict[str, Path]:
    """Draw the PNG charts of the report of map ``m`` (matplotlib, Agg backend); returns them
    by name."""
    # the optional report extra (may be absent)
    import matplotlib

    matplotlib.use("Agg", force=False)
    # the optional report extra (may be absent)
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    with plt.rc_context({"font.size": 8, "axes.titlesize": 9}):
        for name, draw in (
            ("overview", _chart_overview),
            ("heatmap", lambda plt, report: _chart_heatmap(plt, report, m)),
            ("features", _chart_features),
            ("styles", _chart_styles),
        ):
            fig = draw(plt, report)
            if fig is None:
                continue
            files[name] = save_chart(plt, fig, out_dir / f"{name}.png", dpi)
    return files


def save_chart(plt: Any, fig: Any, path: Path, dpi: int) -> Path:
    """Save a matplotlib figure as a small PNG at ``path`` (palette-quantised, no Software tag),
    close it and return ``path``: every report, comparison and sweep chart goes through here.
    Written atomically, and a link planted at ``path`` is replaced, never followed."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    plt.close(fig)
    write_bytes_atomically(path, _shrink_png(buffer.getvalue()), follow_links=False)
    return path


def _shrink_png(png: bytes) -> bytes:
    """A chart re-saved with a 128-colour palette: a third of the size, no visible change for
    flat charts. Pillow comes with matplotlib; without it the chart stays as drawn."""
    try:
        # the optional report extra (Pillow, with matplotlib; may be absent)
        from PIL import Image
    except ImportError:  # pragma: no cover - matplotlib requires pillow
        return png
    with Image.open(io.BytesIO(png)) as im:
        small = im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
    out = io.BytesIO()
    small.save(out, "PNG", optimize=True)
    return out.getvalue()


def _chart_overview(plt: Any, report: BalanceReport) -> Any:
    fig, axes = plt.subplots(2, 2, figsize=(9, 6.2), layout="constrained")
    ax = axes[0][0]
    labels, data = [], []
    for p, sc in report["scores"].items():
        for s, vals in enumerate(sc["values"]):
            labels.append(f"{p}p s{s + 1}" if len(report["scores"]) > 1 else f"seat {s + 1}")
            data.append(vals)
    ax.boxplot(data, tick_labels=labels) if data else None
    ax.set_title("Final score per seat")
    ax.set_ylabel("points")
    ax = axes[0][1]
    x = 0.0
    ticks, tick_labels = [], []
    for p, w in report["wins"].items():
        for seat in w["seats"]:
            lo, hi = seat["ci"]
            ax.bar(x, seat["rate"], color="#4c72b0")
            ax.errorbar(
                x,
                seat["rate"],
                yerr=[[seat["rate"] - lo], [hi - seat["rate"]]],
                color="k",
                capsize=3,
            )
            ticks.append(x)
            tick_labels.append(
                f"{p}p s{seat['seat'] + 1}"
                if len(report["wins"]) > 1
                else f"seat {seat['seat'] + 1}"
            )
            x += 1
        ax.hlines(
            w["fair"], x - len(w["seats"]) - 0.4, x - 0.6, colors="#c44e52", linestyles="dashed"
        )
        x += 0.5
    ax.set_xticks(ticks, tick_labels)
    ax.set_ylim(0, 1)
    ax.set_title("Win rate per seat (95% CI; dashed: fair)")
    ax = axes[1][0]
    turns = report["length"].get("values") or []
    if turns:
        lo, hi = min(turns), max(turns)
        # whole turns per bin when the spread is small, else at most 30 bins
        bins = [t - 0.5 for t in range(lo, hi + 2)] if hi - lo < 30 else 30
        ax.hist(turns, bins=bins, color="#55a868")
    ax.set_title("Game length (turns)")
    ax.set_ylabel("games")
    ax = axes[1][1]
    pts = report["features"]["points_per_game"]
    if pts:
        ax.barh(list(pts), list(pts.values()), color="#8172b2")
        ax.invert_yaxis()
    ax.set_title("Points per game by kind (all players)")
    return fig


def _chart_heatmap(plt: Any, report: BalanceReport, m: MapDef) -> Any:
    """How often and how early each square is built, drawn on the map."""
    fill = report["fill"]
    placement = grid_values(fill["mean_placement"])
    never = frozenset((x, y) for x, y in fill["never_reached"])
    layers = [
        # the share is drawn on a fixed 0..1 scale so maps and runs compare at a glance
        MapLayer(
            "Share of games each square is built",
            grid_values(fill["built_rate"]),
            "viridis",
            0.0,
            1.0,
            "share of games",
            crossed=never,
        ),
        MapLayer(
            "When each square is built (mean placement; low = early)",
            placement,
            "magma_r",
            min(placement.values(), default=0.0),
            max(placement.values(), default=1.0),
            "mean placement",
            crossed=never,
        ),
    ]
    return map_figure(plt, m, layers)


def _chart_features(plt: Any, report: BalanceReport) -> Any:
    feat = report["features"]
    items: list[tuple[str, Rate, float | None]] = [
        (c["name"], c["completed"], c["connected"]["rate"]) for c in feat["large_cities"]
    ]
    items += [(f.get("place", f"ferry {f['id']}"), f["used"], None) for f in feat["ferries"]]
    borders = feat["borders"]
    if not items and not borders:
        return None
    fig, axes = plt.subplots(
        1, 2, figsize=(9, max(2.5, 0.3 * max(len(items), len(borders)) + 1)), layout="constrained"
    )
    ax = axes[0]
    if items:
        names = [n for n, _, _ in items]
        rates = [r["rate"] for _, r, _ in items]
        err = [
            [r["rate"] - r["ci"][0] for _, r, _ in items],
            [r["ci"][1] - r["rate"] for _, r, _ in items],
        ]
        ax.barh(
            names,
            [c if c is not None else 0 for _, _, c in items],
            color="#dddddd",
            label="connected",
        )
        ax.barh(names, rates, xerr=err, color="#dd8452", capsize=2, label="completed / used")
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Large cities completed, ferries used (95% CI)")
    ax = axes[1]
    if borders:
        names = [_border_name(b) for b in borders]
        ax.barh(names, [b["connected"]["rate"] for b in borders], color="#4c72b0")
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
    ax.set_title("Border features connected")
    return fig


StyleBar = tuple[str, float, float, float, bool]
"""A style's bar in the styles chart: name, win rate, 95 % interval low and high, and whether
it is a winning plan (the ``style-wins`` warning)."""


def style_bars(styles: Mapping[str, Any]) -> list[StyleBar]:
    """The bars of the styles chart, in the table's order, from a report's ``styles`` figures.

    >>> farmer = {"bot": "greedy:farmer", "rate": 0.75, "ci": [0.6, 0.86], "p_value": 0.0001}
    >>> roads = {"bot": "greedy:roads", "rate": 0.5, "ci": [0.35, 0.65], "p_value": 1.0}
    >>> style_bars({"styles": [farmer, roads]})
    [('farmer', 0.75, 0.6, 0.86, True), ('roads', 0.5, 0.35, 0.65, False)]
    """
    winners = {f["bot"] for f in winning_styles(styles)}
    return [
        (f["bot"].partition(":")[2], f["rate"], f["ci"][0], f["ci"][1], f["bot"] in winners)
        for f in styles["styles"]
    ]


def _chart_styles(plt: Any, report: BalanceReport) -> Any:
    """Which plan wins: each style's win rate against the balanced bot with its 95 % interval,
    against the even 50 % line; a winning plan (the ``style-wins`` warning) drawn in another
    colour and named above its bar."""
    st = report.get("styles")
    if not st or not st["styles"]:
        return None
    bars = style_bars(st)
    fig, ax = plt.subplots(figsize=(7, 3.3), layout="constrained")
    for x, (_name, rate, lo, hi, wins) in enumerate(bars):
        ax.bar(x, rate, color="#dd8452" if wins else "#4c72b0")
        ax.errorbar(x, rate, yerr=[[rate - lo], [hi - rate]], color="k", capsize=3)
        if wins:
            ax.annotate("wins", (x, hi), xytext=(0, 2), textcoords="offset points", ha="center")
    ax.axhline(0.5, color="#c44e52", linestyle="dashed")
    ax.set_xticks(range(len(bars)), [b[0] for b in bars])
    # room above 100 % for an interval's cap and the mark
    ax.set_ylim(0, 1.12)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1], ["0%", "25%", "50%", "75%", "100%"])
    ax.set_ylabel("win rate")
    marked = "; orange: a plan the map rewards" if any(b[4] for b in bars) else ""
    ax.set_title(
        f"Each style against the balanced bot, {st['deals']} paired deals "
        f"(95% CI; dashed: even{marked})"
    )
    return fig


__all__ = [
    "bots_text",
    "draw_charts",
    "has_matplotlib",
    "map_argument",
    "report_blocks",
    "report_json",
    "rerun_command",
    "style_bars",
    "write_report",
]
