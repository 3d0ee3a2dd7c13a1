"""The balance report: aggregate the per-game facts of :mod:`engine.analysis.simulate` into figures.

:func:`balance_report` returns one JSON-able dict with the keys ``format``/``format_version``,
``map``, ``run`` (the options and the rule set played), ``scores`` and ``wins`` (per player count,
per seat), ``start_choices``, ``fill`` (share filled, ``built_rate`` and ``mean_placement`` grids
indexed ``[y][x]`` with ``null`` off the placeable squares, unreached squares and regions, tiles
set aside), ``features``, ``chips``, ``rules`` (the rule set's own figures), ``length`` and
``warnings`` (``code``, ``message`` and the figures behind it). Every figure is computed from the
per-game facts only. Conventions:

* *win*: a seat wins a game when it has the best score; tied best scores all count as wins
  (``ties`` counts those games), so win rates of one player count may add up to more than 1.
* Confidence intervals are Wilson score intervals at 95 %.
* *placement*: the n-th tile placed by a player in the game (start tiles are placement 0); the
  heat map's "how early" is the mean placement of a square over the games that built it.
* Warnings use significance tests with a Bonferroni correction over the comparisons made
  (``alpha`` = 0.01 overall), plus a minimum effect size, so a few hundred games of a fair map
  raise none by chance.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from engine.analysis.paired import block_rate
from engine.analysis.rule_usage import KEYS, TURN_KEYS
from engine.errors import EngineError
from engine.geo.naming import PlaceNames
from engine.gridgraph import components
from engine.rules.registry import rules_for
from engine.rules.spec import ActionCount, EventStat, Figure, SummarySum

if TYPE_CHECKING:
    from engine.analysis.report_types import (
        BalanceReport,
        BorderFigure,
        ChipFigures,
        ChoiceSeatRate,
        Describe,
        FeatureFigures,
        FerryFigure,
        FillFigures,
        LargeCityFigure,
        LengthFigures,
        PlayerScores,
        PlayerWins,
        QualityFigures,
        Rate,
        ReportWarning,
        SeatDescribe,
        SeatRate,
        StartChoice,
    )
    from engine.analysis.simulate import SimResult
    from engine.mapdef import MapDef

REPORT_FORMAT = "carcassonne-balance-report"
REPORT_VERSION = 1
ALPHA = 0.01
"""Overall significance level of the warnings (Bonferroni-corrected per family of tests)."""
MIN_EFFECT = 0.10
"""A win-rate difference must also be at least this large (10 points) to warn."""
RARE = 0.05
"""A square built in fewer than this share of games counts as rarely reached."""
MIN_REGION = 3
"""Never-filled regions smaller than this many squares are not warned about."""
CITY_RARELY = 0.10
ALWAYS_WINS_GAMES = 10
"""A rule whose heaviest user won every game it ran in, over at least this many games, is
warned about (``rule-always-wins``); fewer games say too little."""
"""A large city completed in fewer than this share of games is warned about."""


# -- statistics ----------------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); ``(0, 1)`` when ``n == 0``."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def binomial_p_value(successes: int, n: int, p: float) -> float:
    """Exact two-sided binomial test: probability of an outcome at most as likely as this one."""
    if n <= 0:
        return 1.0
    if p <= 0.0:
        return 1.0 if successes == 0 else 0.0
    if p >= 1.0:
        return 1.0 if successes == n else 0.0
    lp, lq = math.log(p), math.log1p(-p)
    lg_n = math.lgamma(n + 1)

    def logpmf(k: int) -> float:
        return lg_n - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq

    observed = logpmf(successes)
    total = 0.0
    for k in range(n + 1):
        lk = logpmf(k)
        if lk <= observed + 1e-7:
            total += math.exp(lk)
    return min(1.0, total)


def two_proportion_p_value(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided z-test that two proportions are equal (pooled variance)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return 1.0
    z = (k1 / n1 - k2 / n2) / math.sqrt(var)
    return math.erfc(abs(z) / math.sqrt(2))


def describe(values: Sequence[float]) -> Describe:
    """Count, mean, standard deviation, min, quartiles and max of ``values``."""
    vals = sorted(values)
    n = len(vals)
    if n == 0:
        return {"n": 0}
    q = statistics.quantiles(vals, n=4, method="inclusive") if n > 1 else [vals[0]] * 3
    return {
        "n": n,
        "mean": _r(statistics.fmean(vals)),
        "sd": _r(statistics.stdev(vals)) if n > 1 else 0.0,
        "min": vals[0],
        "q1": _r(q[0]),
        "median": _r(q[1]),
        "q3": _r(q[2]),
        "max": vals[-1],
    }


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def _rate(k: int, n: int) -> Rate:
    lo, hi = wilson(k, n)
    return {"count": k, "games": n, "rate": _r(k / n) if n else 0.0, "ci": [_r(lo), _r(hi)]}


# -- the report -----------------------------------------------------------------------------------


def balance_report(m: MapDef, result: SimResult) -> BalanceReport:
    """Every figure of the balance report of ``result`` (a run of :func:`engine.analysis.simulate`); its
    shape: :class:`engine.analysis.report_types.BalanceReport` and ``schemas/report.schema.json``."""
    games = result.games
    report: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "format_version": REPORT_VERSION,
        "map": {
            "id": m.id,
            "name": m.name,
            "rule_set": m.rule_set.name,
            "width": m.width,
            "height": m.height,
            "placeable_squares": len(m.placeable_squares()),
        },
        "run": {
            **result.config.to_dict(),
            "rule_set_played": result.rule_set,
            "rules_missing": result.rules_missing,
            "games_played": len(games),
        },
    }
    report["scores"] = score_figures(games)
    report["wins"] = win_figures(games)
    report["start_choices"] = start_choice_figures(m, games)
    report["fill"] = fill_figures(m, games)
    report["features"] = feature_figures(m, games)
    report["chips"] = chip_figures(m, result, games)
    report["rules"] = rule_figures(m, result, games)
    report["length"] = length_figures(games)
    if all("quality" in g for g in games):
        report["quality"] = quality_figures(games)
    if result.rule_set != "none":
        report["rule_leader"] = rule_leader_figure(games)
    if any(g.get("bots") for g in games):
        report["bots"] = bot_figures(games)
    typed = cast("BalanceReport", report)
    typed["warnings"] = warnings(m, typed)
    return typed


def bot_figures(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mixed tables: win share of each bot (games where it sat, ties count as wins), with its
    95 % interval: over deals when the games were paired (facts with a ``deal``,
    :func:`engine.analysis.paired.block_rate`), else Wilson's over the seats played."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    by_deal: dict[str, dict[int, list[float]]] = {}
    for g in games:
        bots = g.get("bots")
        if not bots:
            continue
        for s, name in enumerate(bots):
            played[name] += 1
            won[name] += s in g["winners"]
            if "deal" in g:
                by_deal.setdefault(name, {}).setdefault(g["deal"], []).append(
                    float(s in g["winners"])
                )
    out = []
    for name in sorted(played):
        seats = sum(1 for g in games if g.get("bots") and name in g["bots"])
        fig: dict[str, Any] = {
            "bot": name,
            "seats_played": played[name],
            "wins": won[name],
            "rate_per_seat": _r(won[name] / played[name]),
            "games": seats,
        }
        if name in by_deal:
            blocks = block_rate(list(by_deal[name].values()))
            fig.update(ci=[_r(x) for x in blocks["ci"]], deals=blocks["deals"])
        else:
            fig["ci"] = [_r(x) for x in wilson(won[name], played[name])]
        out.append(fig)
    return out


def _by_players(games: Iterable[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        out.setdefault(g["players"], []).append(g)
    return dict(sorted(out.items()))


def score_figures(games: Sequence[dict[str, Any]]) -> dict[str, PlayerScores]:
    """Score distribution per seat, per player count (and the winning score)."""
    out: dict[str, PlayerScores] = {}
    for p, gs in _by_players(games).items():
        seats: list[SeatDescribe] = [
            {**describe([g["scores"][s] for g in gs]), "seat": s} for s in range(p)
        ]
        out[str(p)] = {
            "games": len(gs),
            "seats": seats,
            "all": describe([sc for g in gs for sc in g["scores"]]),
            "winning": describe([max(g["scores"]) for g in gs]),
            "margin": describe([margin(g["scores"]) for g in gs]),
            "values": [[g["scores"][s] for g in gs] for s in range(p)],
        }
    return out


def margin(scores: Sequence[int]) -> int:
    """The winner's lead over the second score (a one-player game: the score itself)."""
    top = sorted(scores, reverse=True)
    return top[0] - top[1] if len(top) > 1 else top[0]


def win_figures(games: Sequence[dict[str, Any]]) -> dict[str, PlayerWins]:
    """Win rate per seat (first-player advantage) with Wilson intervals and a test against 1/P."""
    out: dict[str, PlayerWins] = {}
    for p, gs in _by_players(games).items():
        n = len(gs)
        wins = Counter(s for g in gs for s in g["winners"])
        ties = sum(1 for g in gs if len(g["winners"]) > 1)
        seats: list[SeatRate] = []
        for s in range(p):
            # fair share of wins: 1/P of the games (ties make the true share a little higher)
            fig: SeatRate = {
                **_rate(wins[s], n),
                "p_value": _r(binomial_p_value(wins[s], n, 1 / p), 6),
                "seat": s,
            }
            seats.append(fig)
        out[str(p)] = {"games": n, "ties": ties, "fair": _r(1 / p), "seats": seats}
    return out


def _choice_key(g: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((x, y) for x, y in g["start"]))


def start_choice_figures(m: MapDef, games: Sequence[dict[str, Any]]) -> list[StartChoice]:
    """Per choice of start squares: games, mean score, winning score, and seat win rates tested
    against the other choices (two-proportion z-test)."""
    groups: dict[tuple[tuple[int, int], ...], list[dict[str, Any]]] = {}
    for g in games:
        groups.setdefault(_choice_key(g), []).append(g)
    out: list[StartChoice] = []
    names = PlaceNames(m)
    for key, gs in sorted(groups.items()):
        others = [g for g in games if _choice_key(g) != key]
        seats: list[ChoiceSeatRate] = []
        for p, sub in _by_players(gs).items():
            rest = [g for g in others if g["players"] == p]
            for s in range(p):
                k = sum(1 for g in sub if s in g["winners"])
                k2 = sum(1 for g in rest if s in g["winners"])
                fig: ChoiceSeatRate = {
                    **_rate(k, len(sub)),
                    "players": p,
                    "seat": s,
                    "others_rate": _r(k2 / len(rest)) if rest else None,
                    "p_value": _r(two_proportion_p_value(k, len(sub), k2, len(rest)), 6),
                }
                seats.append(fig)
        out.append(
            {
                "squares": [list(sq) for sq in key],
                "names": [
                    (m.start_squares[sq].name if sq in m.start_squares else "")
                    or _capital(names.square(sq))
                    for sq in key
                ],
                "games": len(gs),
                "mean_score": _r(statistics.fmean(s for g in gs for s in g["scores"])),
                "mean_winning_score": _r(statistics.fmean(max(g["scores"]) for g in gs)),
                "mean_fill": _r(
                    statistics.fmean(len(g["placed"]) for g in gs)
                    / max(1, len(m.placeable_squares()))
                ),
                "seats": seats,
            }
        )
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def fill_figures(m: MapDef, games: Sequence[dict[str, Any]]) -> FillFigures:
    """How full the map gets, the per-square heat map, unreached squares, set-aside tiles."""
    placeable = m.placeable_squares()
    n = len(games)
    built: Counter[tuple[int, int]] = Counter()
    when: dict[tuple[int, int], int] = {}
    shares = []
    for g in games:
        shares.append(len(g["placed"]) / max(1, len(placeable)))
        for x, y, k in g["placed"]:
            built[(x, y)] += 1
            when[(x, y)] = when.get((x, y), 0) + k
    rate_grid: list[list[float | None]] = []
    early_grid: list[list[float | None]] = []
    for y in range(m.height):
        rrow: list[float | None] = []
        erow: list[float | None] = []
        for x in range(m.width):
            sq = (x, y)
            if sq not in placeable:
                rrow.append(None)
                erow.append(None)
                continue
            c = built[sq]
            rrow.append(_r(c / n) if n else 0.0)
            erow.append(_r(when[sq] / c, 2) if c else None)
        rate_grid.append(rrow)
        early_grid.append(erow)
    never = sorted(sq for sq in placeable if built[sq] == 0)
    rare = sorted(sq for sq in placeable if n and 0 < built[sq] / n < RARE)
    regions = _regions(set(never))
    rare_regions = [r for r in _regions(set(never) | set(rare)) if not r <= set(never)]
    names = PlaceNames(m)
    set_aside = Counter(t for g in games for t in g["set_aside"])
    return {
        "placeable_squares": len(placeable),
        "share": describe([_r(s) for s in shares]),
        "tiles_placed": describe([len(g["placed"]) for g in games]),
        "built_rate": rate_grid,
        "mean_placement": early_grid,
        "never_reached": [list(sq) for sq in never],
        "rarely_reached": [list(sq) for sq in rare],
        "never_filled_regions": [
            {"size": len(r), "squares": [list(sq) for sq in sorted(r)], "place": names.squares(r)}
            for r in regions
        ],
        "rarely_filled_regions": [
            {"size": len(r), "squares": [list(sq) for sq in sorted(r)], "place": names.squares(r)}
            for r in rare_regions
        ],
        "set_aside": {
            "per_game": describe([len(g["set_aside"]) for g in games]),
            "games_with_any": sum(1 for g in games if g["set_aside"]),
            "by_tile": dict(sorted(set_aside.items())),
        },
    }


def _regions(squares: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """Orthogonally connected groups of ``squares``, largest first."""
    return sorted(components(squares), key=lambda c: (-len(c), min(c)))


def feature_figures(m: MapDef, games: Sequence[dict[str, Any]]) -> FeatureFigures:
    """Large cities completed/connected, border features connected, ferries used, points by kind."""
    n = len(games)
    cities: list[LargeCityFigure] = []
    for cid, city in sorted(m.large_cities.items()):
        done = sum(1 for g in games if g["cities"].get(cid) == "completed")
        touched = sum(1 for g in games if g["cities"].get(cid) in ("completed", "connected"))
        cities.append(
            {
                "id": cid,
                "name": city.name or cid,
                "squares": len(city.squares),
                "completed": _rate(done, n),
                "connected": _rate(touched, n),
            }
        )
    connected = Counter(tuple(b) for g in games for b in g["borders"])
    names = PlaceNames(m)
    borders: list[BorderFigure] = []
    for edge, bf in sorted(m.border_features.items()):
        if str(bf.kind) == "field":
            continue
        key = (edge.x, edge.y, str(edge.side))
        borders.append(
            {
                "x": edge.x,
                "y": edge.y,
                "side": str(edge.side),
                "kind": str(bf.kind),
                "neighbour": bf.neighbour,
                "place": names.border(edge, str(bf.kind), bf.neighbour),
                "coats_of_arms": bf.coats_of_arms,
                "connected": _rate(connected[key], n),
            }
        )
    ferries: list[FerryFigure] = [
        {
            "id": fid,
            "place": names.ferry(m.ferries[fid].a, m.ferries[fid].b, fid),
            "used": _rate(sum(1 for g in games if fid in g["ferries"]), n),
        }
        for fid in sorted(m.ferries)
    ]
    kinds = sorted({k for g in games for k in g["points"]})
    points = {k: _r(sum(g["points"].get(k, 0) for g in games) / n) if n else 0.0 for k in kinds}
    return {
        "large_cities": cities,
        "borders": borders,
        "borders_connected_per_game": describe([len(g["borders"]) for g in games]),
        "ferries": ferries,
        "points_per_game": points,
        "seat_points_per_game": _seat_points(games),
    }


def _seat_points(games: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, float]]]:
    """Per player count and seat: mean points per game by kind (the score breakdown)."""
    out: dict[str, list[dict[str, float]]] = {}
    for p, gs in _by_players(games).items():
        kinds = sorted({k for g in gs for sp in g["seat_points"] for k in sp})
        out[str(p)] = [
            {k: _r(statistics.fmean(g["seat_points"][s].get(k, 0) for g in gs)) for k in kinds}
            for s in range(p)
        ]
    return out


def chip_figures(m: MapDef, result: SimResult, games: Sequence[dict[str, Any]]) -> ChipFigures:
    """Map-Chips collected per game and per colour (``available`` false without chips)."""
    if result.rule_set == "none":
        why = (
            f"the engine has no {result.rules_missing!r} rule module"
            if result.rules_missing
            else "played without Map-Chips rules"
            if m.rule_set.name != "none"
            else "the map has no Map-Chips rule set"
        )
        return {"available": False, "why": why}
    n = len(games)
    colours = sorted({c for g in games for c in g["chips"]})
    by_seat: dict[str, list[float]] = {}
    for p, gs in _by_players(games).items():
        by_seat[str(p)] = [_r(statistics.fmean(g["seat_chips"][s] for g in gs)) for s in range(p)]
    return {
        "available": True,
        "per_game": describe([sum(g["chips"].values()) for g in games]),
        "by_colour": {
            c: _r(sum(g["chips"].get(c, 0) for g in games) / n) if n else 0.0 for c in colours
        },
        "by_seat": by_seat,
    }


def rule_figures(m: MapDef, result: SimResult, games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The rule set's own figures: its actions and scoring events per game, and what its module
    reports (its class's ``report_figures``, :mod:`engine.rules.spec`)."""
    name = result.rule_set
    if name == "none":
        return {
            "rule_set": m.rule_set.name,
            "played": False,
            "missing": result.rules_missing,
        }
    n = max(1, len(games))
    actions = sorted({a for g in games for a in g["actions"]})
    kinds = sorted({k for g in games for k in g["rule_events"]})
    out: dict[str, Any] = {
        "rule_set": name,
        "played": True,
        "missing": None,
        "actions_per_game": {
            a: _r(sum(g["actions"].get(a, 0) for g in games) / n) for a in actions
        },
        "events_per_game": {
            k: {
                "count": _r(sum(g["rule_events"].get(k, [0, 0])[0] for g in games) / n),
                "points": _r(sum(g["rule_events"].get(k, [0, 0])[1] for g in games) / n),
            }
            for k in kinds
        },
    }
    figures = _declared_figures(name, m)
    if figures:
        out["figures"] = {key: _figure(m, name, spec, games) for key, spec in figures.items()}
    usage = rule_usage_figures(m, games)
    if usage:
        out["by_rule"] = usage
    held = resource_figures(m, games)
    if held:
        out["resources"] = held
    return out


def resource_figures(m: MapDef, games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per resource of the rule language, as the designer named and drew it: what a player
    held at the end of a game, on average, and the most any player held."""
    spec = m.rule_set.spec
    played = [g["resources_held"] for g in games if "resources_held" in g]
    if spec is None or not played or not spec.resources:
        return []
    out = []
    for r in spec.resources:
        ends = [n for g in played for n in g.get(r.id, [])]
        out.append(
            {
                "id": r.id,
                "name": r.name,
                "colour": r.colour,
                "icon": r.icon,
                "held_at_end": _r(sum(ends) / len(ends)) if ends else 0,
                "most_held": max(ends, default=0),
            }
        )
    return out


def rule_usage_figures(m: MapDef, games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per rule of the rule language, in the designer's words (its title): per game how often
    it was offered, taken, declined and ran, the points, chips and turns it moved (extra turns
    granted and played, turns missed); the games where it ran, and in how many of them the
    player who ran it most won."""
    played = [g for g in games if "rule_usage" in g]
    if not played:
        return []
    spec = m.rule_set.spec
    titles = {r.id: r.title or r.id for r in spec.rules} if spec is not None else {}
    n = len(played)
    out = []
    for rid in dict.fromkeys(r for g in played for r in g["rule_usage"]):
        facts = [g["rule_usage"].get(rid, {}) for g in played]
        used = [(g, f) for g, f in zip(played, facts, strict=True) if f.get("fired", 0) > 0]
        won = sum(
            1
            for g, f in used
            if max(range(len(f["seat_fired"])), key=lambda p: f["seat_fired"][p]) in g["winners"]
        )
        row: dict[str, Any] = {"id": rid, "title": titles.get(rid, rid)}
        for key in (*KEYS, *TURN_KEYS):
            row[key] = _r(sum(f.get(key, 0) for f in facts) / n)
        row["points"] = _r(sum(g["rule_events"].get(rid, [0, 0])[1] for g in played) / n)
        row["games_fired"] = len(used)
        row["top_user_won"] = won
        out.append(row)
    return out


def _count_actions(games: Sequence[dict[str, Any]], *types: str) -> Describe:
    return describe([sum(g["actions"].get(t, 0) for t in types) for g in games])


def _events(games: Sequence[dict[str, Any]], kind: str, what: int = 0) -> Describe:
    """``describe`` of a rule event kind per game: its count (``what=0``) or points (1)."""
    return describe([g["rule_events"].get(kind, [0, 0])[what] for g in games])


def _summary_sum(games: Sequence[dict[str, Any]], rule: str, key: str) -> Describe:
    """``describe`` per game of a number (or the sum of a list of numbers) in the module's final
    state summary."""
    vals: list[float] = []
    for g in games:
        summary = g["rules"].get(rule)
        v = summary.get(key) if isinstance(summary, dict) else None
        if isinstance(v, list):
            v = sum(x for x in v if isinstance(x, int | float))
        if isinstance(v, int | float):
            vals.append(v)
    return describe(vals)


def _tally(games: Sequence[dict[str, Any]], kind: str, label: Any) -> dict[str, int]:
    """Rule actions of record type ``kind`` counted by ``label(action)``, most frequent first."""
    c: Counter[str] = Counter()
    for g in games:
        for a in g["rule_actions"]:
            if a.get("type") == kind:
                c[str(label(a))] += 1
    return dict(c.most_common())


def _square_name(m: MapDef, sq: Any) -> str:
    if not sq:
        return "?"
    x, y = sq
    town = m.towns.get((x, y))
    if town is not None and town.name:
        return f"{town.name} ({x}, {y})"
    return f"({x}, {y})"


def _island_of(m: MapDef, a: dict[str, Any]) -> str:
    found = m.island_square((a.get("x"), a.get("y")))  # type: ignore[arg-type]
    return (found[0].name or found[0].id) if found else f"({a.get('x')}, {a.get('y')})"


def _declared_figures(name: str, m: MapDef) -> Mapping[str, Figure]:
    try:
        cls = rules_for(name, m)
    except EngineError:
        return {}
    return cls.report_figures if cls is not None else {}


def _figure(m: MapDef, rule: str, spec: Figure, games: Sequence[dict[str, Any]]) -> Any:
    """One declared report figure of rule set ``rule`` over ``games``."""
    if isinstance(spec, ActionCount):
        return _count_actions(games, *spec.types)
    if isinstance(spec, EventStat):
        return _events(games, spec.kind, 1 if spec.what == "points" else 0)
    if isinstance(spec, SummarySum):
        return _summary_sum(games, rule, spec.key)
    key = spec.key
    labels: dict[str, Callable[[dict[str, Any]], Any]] = {
        "field": lambda a: a.get(key),
        "joined": lambda a: "+".join(str(v) for v in a.get(key, [])),
        "square": lambda a: _square_name(m, a.get(key)),
        "island": lambda a: _island_of(m, a),
    }
    return _tally(games, spec.type, labels[spec.label])


BASE_KINDS = frozenset({"city", "road", "field", "monastery"})
"""Points every Carcassonne game scores; the other kinds come from the map's rule set."""


def rule_leader_figure(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How often the one player who scored most from the rule set's own points (chips, wine,
    ...) won: ``count`` of ``games`` (games with one such player), the ``rate`` with its
    interval, the ``fair`` rate if those points did not matter (1 / players, averaged) and the
    exact binomial test against it."""
    led = won = 0
    fair_sum = 0.0
    for g in games:
        own = [sum(v for k, v in sp.items() if k not in BASE_KINDS) for sp in g["seat_points"]]
        top = max(own, default=0)
        leaders = [s for s, v in enumerate(own) if v == top]
        if top <= 0 or len(leaders) > 1:
            continue
        led += 1
        won += leaders[0] in g["winners"]
        fair_sum += 1 / len(own)
    fair = fair_sum / led if led else 0.0
    return {
        **_rate(won, led),
        "fair": _r(fair),
        "p_value": _r(binomial_p_value(won, led, fair), 6) if led else 1.0,
    }


def length_figures(games: Sequence[dict[str, Any]]) -> LengthFigures:
    """Game length in turns (tile placements by players), per player count."""
    out: dict[str, Any] = {"all": describe([g["turns"] for g in games])}
    for p, gs in _by_players(games).items():
        out[str(p)] = describe([g["turns"] for g in gs])
    out["values"] = [g["turns"] for g in games]
    return out


def quality_figures(games: Sequence[dict[str, Any]]) -> QualityFigures:
    """Game quality over the games (:mod:`engine.analysis.quality`): lead changes, drama and
    decisiveness described, and the share of games whose leader the final scoring changed."""
    q = [g["quality"] for g in games]
    return {
        "lead_changes": describe([x["lead_changes"] for x in q]),
        "drama": describe([x["drama"] for x in q]),
        "decisive_share": describe([x["decisive_share"] for x in q]),
        "final_flip": _rate(sum(1 for x in q if x["final_flip"]), len(q)),
    }


# -- warnings ------------------------------------------------------------------------------------


def warnings(m: MapDef, report: BalanceReport) -> list[ReportWarning]:
    """Figures that suggest a problem, each with a code, a sentence and the figures behind it."""
    out: list[ReportWarning] = []
    # seat advantage: exact binomial test against 1/P, Bonferroni over every seat tested
    wins = report["wins"]
    tests = sum(len(v["seats"]) for v in wins.values())
    for p, v in wins.items():
        for s in v["seats"]:
            if s["p_value"] * tests < ALPHA and abs(s["rate"] - v["fair"]) >= MIN_EFFECT:
                out.append(
                    {
                        "code": "seat-advantage",
                        "message": (
                            f"with {p} players, seat {s['seat'] + 1} wins {s['rate']:.0%} of games "
                            f"(fair: {v['fair']:.0%}; 95% CI {s['ci'][0]:.0%}-{s['ci'][1]:.0%}, "
                            f"p = {s['p_value']:.2g})"
                        ),
                        "players": int(p),
                        "seat": s["seat"],
                    }
                )
    # start-square choices: seat win rates against the other choices
    choices = report["start_choices"]
    tests = sum(len(c["seats"]) for c in choices if len(choices) > 1)
    for c in choices:
        if len(choices) < 2:
            break
        for s in c["seats"]:
            if s["others_rate"] is None:
                continue
            diff = s["rate"] - s["others_rate"]
            if s["p_value"] * tests < ALPHA and abs(diff) >= MIN_EFFECT:
                names = " + ".join(
                    n or f"({x}, {y})" for n, (x, y) in zip(c["names"], c["squares"], strict=True)
                )
                out.append(
                    {
                        "code": "start-choice",
                        "message": (
                            f"with start squares {names} and {s['players']} players, seat "
                            f"{s['seat'] + 1} wins {s['rate']:.0%} of games against "
                            f"{s['others_rate']:.0%} with the other choices (p = {s['p_value']:.2g})"
                        ),
                        "squares": c["squares"],
                        "players": s["players"],
                        "seat": s["seat"],
                    }
                )
    fill = report["fill"]
    for region in fill["never_filled_regions"]:
        if region["size"] >= MIN_REGION:
            out.append(
                {
                    "code": "region-never-filled",
                    "message": (
                        f"{region['size']} connected squares {region['place']} were never "
                        "built in "
                        f"{report['run']['games_played']} games"
                    ),
                    "squares": region["squares"],
                }
            )
    for region in fill.get("rarely_filled_regions", []):
        if region["size"] >= MIN_REGION:
            out.append(
                {
                    "code": "region-rarely-filled",
                    "message": (
                        f"{region['size']} connected squares {region['place']} were built "
                        f"in under {RARE:.0%} of "
                        f"{report['run']['games_played']} games"
                    ),
                    "squares": region["squares"],
                }
            )
    games = report["run"]["games_played"]
    for rule in report["rules"].get("by_rule", []):
        title = rule["title"]
        if rule["games_fired"] == 0:
            offered = f" (offered {rule['offered']} times a game)" if rule["offered"] else ""
            out.append(
                {
                    "code": "rule-never-fires",
                    "message": f"rule {title} never ran in {games} games{offered}",
                }
            )
        elif (
            rule["games_fired"] >= ALWAYS_WINS_GAMES and rule["top_user_won"] == rule["games_fired"]
        ):
            out.append(
                {
                    "code": "rule-always-wins",
                    "message": (
                        f"rule {title}: the player who ran it most won all "
                        f"{rule['games_fired']} games it ran in"
                    ),
                }
            )
    for city in report["features"]["large_cities"]:
        done = city["completed"]
        if done["games"] and done["rate"] < CITY_RARELY:
            out.append(
                {
                    "code": "city-rarely-completed",
                    "message": (
                        f"large city {city['name']} was completed in {done['count']} of "
                        f"{done['games']} games ({done['rate']:.0%})"
                    ),
                    "city": city["id"],
                }
            )
    return out


__all__ = [
    "REPORT_FORMAT",
    "balance_report",
    "binomial_p_value",
    "describe",
    "two_proportion_p_value",
    "warnings",
    "wilson",
]
