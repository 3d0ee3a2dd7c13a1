"""Compare two balance runs (two versions of a map, or of its rules) with significance tests.

:func:`compare_runs` takes the facts of two runs played with the same settings and seed (see
:func:`engine.analysis.simulate.simulate`) and returns one JSON-able comparison: seat fairness, the spread of
start-square choices, fill, features, rule figures and scores side by side, each difference with
the p-value of a test (:mod:`scipy.stats`) and a plain verdict such as
"B is fairer to seat 1 (p = 0.01)".

Tests: win shares per seat, Fisher's exact test on the 2x2 table (wins and other games in A and
B); per-game numbers (scores, fill, points by kind, rule events), the two-sided Mann-Whitney U
test; fairness within a run, the chi-square goodness-of-fit of the seats' wins against equal
shares; whether the start-square choice matters, the chi-square test of independence of the
choice and the first seat's win. A difference is called one when ``p < ALPHA``; many figures are
compared at once, so a p just under 0.05 is weak evidence (the verdicts are sorted by p).
"""

from __future__ import annotations

import functools
import math
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.analysis.balance import bot_figures, fill_figures, margin
from engine.analysis.mapdiff import map_differences
from engine.analysis.mapfigure import MapLayer, grid_values, map_figure
from engine.analysis.paired import mcnemar_p, paired_difference
from engine.analysis.report import bots_text, map_argument, rerun_command, save_chart, write_pages
from engine.errors import EngineError
from engine.resources import find_map

if TYPE_CHECKING:
    from engine.analysis.simulate import SimResult
    from engine.mapdef import MapDef

COMPARE_FORMAT = "carcassonne-balance-comparison"
COMPARE_VERSION = 1
ALPHA = 0.05
"""A difference with a p-value below this is reported as one (and gets a verdict)."""

Facts = dict[str, Any]


def _r(x: float, digits: int = 4) -> float:
    return round(float(x), digits)


def _p(x: float) -> float:
    return 1.0 if math.isnan(x) else _r(x, 6)


def p_text(p: float) -> str:
    """``p = 0.01``, ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"


def fisher_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided Fisher exact test that two proportions ``k1/n1`` and ``k2/n2`` are equal."""
    # deferred: scipy costs ~0.3 s to import and only these computations need it
    from scipy.stats import fisher_exact

    if n1 <= 0 or n2 <= 0:
        return 1.0
    return float(fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue)


def mann_whitney_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided Mann-Whitney U test that the two samples come from one distribution."""
    # deferred: scipy costs ~0.3 s to import and only these computations need it
    from scipy.stats import mannwhitneyu

    if not a or not b or (len(set(a)) == 1 and set(a) == set(b)):
        return 1.0
    return float(mannwhitneyu(a, b, alternative="two-sided").pvalue)


def evenness_p(wins: Sequence[int]) -> float:
    """Chi-square goodness-of-fit of the seats' win counts against equal shares."""
    # deferred: scipy costs ~0.3 s to import and only these computations need it
    from scipy.stats import chisquare

    if sum(wins) == 0 or len(wins) < 2:
        return 1.0
    return float(chisquare(wins).pvalue)


def independence_p(table: Sequence[Sequence[int]]) -> float:
    """Chi-square test of independence of a contingency table (rows: groups)."""
    # deferred: scipy costs ~0.3 s to import and only these computations need it
    from scipy.stats import chi2_contingency

    rows = [list(r) for r in table if sum(r) > 0]
    cols = [j for j in range(len(rows[0]) if rows else 0) if any(r[j] for r in rows)]
    if len(rows) < 2 or len(cols) < 2:
        return 1.0
    return float(chi2_contingency([[r[j] for j in cols] for r in rows]).pvalue)


def _mean(xs: Sequence[float]) -> float | None:
    return _r(statistics.fmean(xs)) if xs else None


def _numbers(
    label: str,
    a: Sequence[float],
    b: Sequence[float],
    *,
    unit: str = "",
    higher: str = "",
    paired: bool = False,
) -> dict[str, Any]:
    """A per-game number side by side: means, medians and the p of a test. ``paired`` (game
    ``i`` of A and of B played the same deal): the Wilcoxon signed-rank test, and the paired
    interval of ``B - A`` beside the unpaired one (:func:`engine.analysis.paired.paired_difference`);
    otherwise the Mann-Whitney U test."""
    out: dict[str, Any] = {
        "figure": label,
        "a_mean": _mean(a),
        "b_mean": _mean(b),
        "a_median": _r(statistics.median(a)) if a else None,
        "b_median": _r(statistics.median(b)) if b else None,
        "p_value": _p(mann_whitney_p(a, b)),
        "unit": unit,
        "higher": higher,
    }
    if paired and a:
        diff = paired_difference(a, b)
        out.update(p_value=_p(diff["p_value"]), diff=diff["diff"], ci=diff["ci"])
        out["unpaired_ci"] = diff["unpaired_ci"]
    return out


def runs_pair(a: Sequence[Facts], b: Sequence[Facts]) -> bool:
    """Whether game ``i`` of ``a`` and of ``b`` played the same deal, for every ``i`` (same
    count, same game seeds and player counts: two runs of one seed and settings)."""
    return len(a) == len(b) > 1 and all(
        x.get("seed") is not None
        and x.get("seed") == y.get("seed")
        and x["players"] == y["players"]
        for x, y in zip(a, b, strict=True)
    )


def _by_players(games: Sequence[Facts]) -> dict[int, list[Facts]]:
    out: dict[int, list[Facts]] = {}
    for g in games:
        out.setdefault(g["players"], []).append(g)
    return dict(sorted(out.items()))


# -- the figures ---------------------------------------------------------------------------------


def seat_figures(
    a: Sequence[Facts], b: Sequence[Facts], *, paired: bool = False
) -> list[dict[str, Any]]:
    """Per player count and seat: win shares in A and B, the fair share and the p that they
    differ (Fisher's exact test; ``paired``: McNemar's on the deals, with the paired and
    unpaired intervals of the difference); and per player count how even the seats are in each
    run (chi-square p)."""
    out = []
    ga, gb = _by_players(a), _by_players(b)
    for p in sorted(set(ga) & set(gb)):
        xa, xb = ga[p], gb[p]
        wa = Counter(s for g in xa for s in g["winners"])
        wb = Counter(s for g in xb for s in g["winners"])
        seats = []
        for s in range(p):
            fig: dict[str, Any] = {
                "seat": s,
                "a_wins": wa[s],
                "b_wins": wb[s],
                "a_rate": _r(wa[s] / len(xa)),
                "b_rate": _r(wb[s] / len(xb)),
                "p_value": _p(fisher_p(wa[s], len(xa), wb[s], len(xb))),
            }
            if paired:
                won_a = [float(s in g["winners"]) for g in xa]
                won_b = [float(s in g["winners"]) for g in xb]
                a_only = sum(1 for x, y in zip(won_a, won_b, strict=True) if x > y)
                b_only = sum(1 for x, y in zip(won_a, won_b, strict=True) if y > x)
                diff = paired_difference(won_a, won_b)
                fig.update(p_value=_p(mcnemar_p(a_only, b_only)), diff=diff["diff"])
                fig.update(ci=diff["ci"], unpaired_ci=diff["unpaired_ci"])
            seats.append(fig)
        out.append(
            {
                "players": p,
                "a_games": len(xa),
                "b_games": len(xb),
                "fair": _r(1 / p),
                "a_evenness_p": _p(evenness_p([wa[s] for s in range(p)])),
                "b_evenness_p": _p(evenness_p([wb[s] for s in range(p)])),
                "seats": seats,
            }
        )
    return out


def _choice(g: Facts) -> str:
    return " + ".join(f"{x},{y}" for x, y in sorted((x, y) for x, y in g["start"]))


def start_spread(games: Sequence[Facts]) -> dict[str, Any]:
    """How the start-square choices of one run spread: choices seen, games per choice, the range
    of the first seat's win rate and of the mean score over choices, and whether the choice
    matters for the first seat's win (chi-square p)."""
    groups: dict[str, list[Facts]] = {}
    for g in games:
        groups.setdefault(_choice(g), []).append(g)
    rates = {k: sum(1 for g in v if 0 in g["winners"]) / len(v) for k, v in groups.items()}
    means = {k: statistics.fmean(s for g in v for s in g["scores"]) for k, v in groups.items()}
    table = [
        [sum(1 for g in v if 0 in g["winners"]), sum(1 for g in v if 0 not in g["winners"])]
        for v in groups.values()
    ]
    return {
        "choices": len(groups),
        "games_min": min((len(v) for v in groups.values()), default=0),
        "games_max": max((len(v) for v in groups.values()), default=0),
        "seat0_rate_min": _r(min(rates.values(), default=0.0)),
        "seat0_rate_max": _r(max(rates.values(), default=0.0)),
        "mean_score_min": _r(min(means.values(), default=0.0)),
        "mean_score_max": _r(max(means.values(), default=0.0)),
        "matters_p": _p(independence_p(table)),
    }


def _fill(m: MapDef | None, g: Facts) -> float:
    squares = len(m.placeable_squares()) if m is not None else 0
    return len(g["placed"]) / squares if squares else float(len(g["placed"]))


def _keys(a: Sequence[Facts], b: Sequence[Facts], field: str) -> list[str]:
    return sorted({k for g in (*a, *b) for k in g.get(field, {})})


def feature_figures(
    a: Sequence[Facts], b: Sequence[Facts], *, paired: bool = False
) -> list[dict[str, Any]]:
    """Points per game by kind (cities, roads, ...), large cities completed per game."""
    out = [
        _numbers(
            f"{kind} points per game",
            [g["points"].get(kind, 0) for g in a],
            [g["points"].get(kind, 0) for g in b],
            paired=paired,
        )
        for kind in _keys(a, b, "points")
    ]

    def completed(g: Facts) -> int:
        return sum(1 for v in g.get("cities", {}).values() if v == "completed")

    if any(g.get("cities") for g in (*a, *b)):
        out.append(
            _numbers(
                "large cities completed per game",
                [completed(g) for g in a],
                [completed(g) for g in b],
                paired=paired,
            )
        )
    return out


def rule_figures(
    a: Sequence[Facts], b: Sequence[Facts], *, paired: bool = False
) -> list[dict[str, Any]]:
    """Rule-set events (count per game, points per game) and rule actions per game."""
    out = []
    for kind in _keys(a, b, "rule_events"):
        for what, label in ((0, "times"), (1, "points")):
            out.append(
                _numbers(
                    f"{kind} {label} per game",
                    [g["rule_events"].get(kind, [0, 0])[what] for g in a],
                    [g["rule_events"].get(kind, [0, 0])[what] for g in b],
                    paired=paired,
                )
            )
    for kind in _keys(a, b, "actions"):
        out.append(
            _numbers(
                f"'{kind}' actions per game",
                [g["actions"].get(kind, 0) for g in a],
                [g["actions"].get(kind, 0) for g in b],
                paired=paired,
            )
        )
    return out


QUALITY_LABELS = {
    "lead_changes": "lead changes per game",
    "drama": "drama (points the winner was behind)",
    "decisive_share": "share of the game before it was decided",
    "final_flip": "share of games whose leader the final scoring changed",
}


def quality_figures(
    a: Sequence[Facts], b: Sequence[Facts], *, paired: bool = False
) -> list[dict[str, Any]]:
    """Game quality (:mod:`engine.analysis.quality`) side by side; nothing when a run's facts lack it."""
    if not all("quality" in g for g in (*a, *b)):
        return []
    return [
        _numbers(
            label,
            [float(g["quality"][key]) for g in a],
            [float(g["quality"][key]) for g in b],
            paired=paired,
        )
        for key, label in QUALITY_LABELS.items()
    ]


# -- verdicts ------------------------------------------------------------------------------------


def verdicts(cmp: dict[str, Any], alpha: float = ALPHA) -> list[dict[str, Any]]:
    """Plain sentences for every difference with ``p < alpha``, strongest evidence first (then
    the larger relative change); each with its ``p_value`` and ``effect``."""
    out: list[dict[str, Any]] = []
    for block in cmp["seats"]:
        fair = block["fair"]
        for s in block["seats"]:
            p = s["p_value"]
            if p >= alpha:
                continue
            da, db = abs(s["a_rate"] - fair), abs(s["b_rate"] - fair)
            who = "B" if db < da else "A"
            out.append(
                {
                    # two players: seat 2's change is seat 1's seen from the other side
                    "same_as": f"seats {block['players']}"
                    if block["players"] == 2
                    else f"seat {block['players']} {s['seat']}",
                    "p_value": p,
                    "effect": 1.0,  # seat fairness first among equally strong findings
                    "text": f"{who} is fairer to seat {s['seat'] + 1} ({p_text(p)}): "
                    f"it wins {s['a_rate'] * 100:.0f} % of {block['players']}-player games in A, "
                    f"{s['b_rate'] * 100:.0f} % in B (fair: {fair * 100:.0f} %).",
                }
            )
    for section in ("scores", "fill", "features", "rules", "quality"):
        for f in cmp.get(section, []):
            p = f["p_value"]
            if p >= alpha or f["a_mean"] is None or f["b_mean"] is None:
                continue
            way = "higher" if f["b_mean"] > f["a_mean"] else "lower"
            unit = f" {f['unit']}" if f["unit"] else ""
            figure = f["figure"][0].upper() + f["figure"][1:]
            out.append(
                {
                    "p_value": p,
                    "effect": _effect(f["a_mean"], f["b_mean"]),
                    "text": f"{figure}: {way} in B ({p_text(p)}): mean "
                    f"{_fmt(f['a_mean'])}{unit} in A, {_fmt(f['b_mean'])}{unit} in B.",
                }
            )
    a, b = cmp["start_spread"]["a"], cmp["start_spread"]["b"]
    for side, s in (("A", a), ("B", b)):
        if s["matters_p"] < alpha:
            out.append(
                {
                    "p_value": s["matters_p"],
                    "effect": 1.0,
                    "text": f"In {side} the start-square choice matters for seat 1 "
                    f"({p_text(s['matters_p'])}): it wins {s['seat0_rate_min'] * 100:.0f}-"
                    f"{s['seat0_rate_max'] * 100:.0f} % depending on the choice.",
                }
            )
    # strongest evidence first; among equal p-values (p < 0.001 is common), the larger change
    out.sort(key=lambda v: (v["p_value"], -v["effect"]))
    # each line once: with two players a seat's win share mirrors the other's, and a figure
    # may be listed under two sections; the page and the headline never say a thing twice
    seen: set[str] = set()
    unique = []
    for v in out:
        key = v.get("same_as", v["text"])
        if key not in seen:
            seen.add(key)
            unique.append(v)
    return unique


def _effect(a: float, b: float) -> float:
    """The relative size of a change from ``a`` to ``b`` (0..1)."""
    top = max(abs(a), abs(b))
    return round(abs(b - a) / top, 4) if top else 0.0


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def headline(cmp: dict[str, Any]) -> str:
    """One sentence: the strongest difference, or that none was found."""
    found = cmp["verdicts"]
    if not found:
        games = cmp["run"]["games"]
        return (
            f"No difference between A and B at p < {ALPHA} in {games} games each: "
            "more games may still find a small one."
        )
    text: str = found[0]["text"]
    return text


# -- the comparison -------------------------------------------------------------------------------


def compare_runs(
    a_map: MapDef,
    a: SimResult,
    b_map: MapDef,
    b: SimResult,
    *,
    labels: tuple[str, str] = ("", ""),
    files: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """Every figure of the comparison of run ``a`` (map ``a_map``) with run ``b``; ``files``:
    the two map files as the user named them (the page names them)."""
    ga, gb = a.games, b.games
    cmp: dict[str, Any] = {
        "format": COMPARE_FORMAT,
        "format_version": COMPARE_VERSION,
        "a": {
            "label": labels[0] or a_map.id,
            "map": a_map.id,
            "name": a_map.name,
            "rule_set_played": a.rule_set,
            "games": len(ga),
        },
        "b": {
            "label": labels[1] or b_map.id,
            "map": b_map.id,
            "name": b_map.name,
            "rule_set_played": b.rule_set,
            "games": len(gb),
        },
        "run": {**a.config.to_dict(), "b_config": b.config.to_dict()},
        "alpha": ALPHA,
        "differences": map_differences(a_map, b_map),
    }
    if files is not None:
        cmp["a"]["file"], cmp["b"]["file"] = files
    paired = runs_pair(ga, gb)
    cmp["paired"] = paired
    num = functools.partial(_numbers, paired=paired)
    cmp["seats"] = seat_figures(ga, gb, paired=paired)
    cmp["start_spread"] = {"a": start_spread(ga), "b": start_spread(gb)}
    cmp["scores"] = [
        num(
            "score per seat",
            [s for g in ga for s in g["scores"]],
            [s for g in gb for s in g["scores"]],
            unit="points",
        ),
        num(
            "winning score",
            [max(g["scores"]) for g in ga],
            [max(g["scores"]) for g in gb],
            unit="points",
        ),
        num(
            "winning margin",
            [margin(g["scores"]) for g in ga],
            [margin(g["scores"]) for g in gb],
            unit="points",
        ),
        num("turns", [g["turns"] for g in ga], [g["turns"] for g in gb]),
    ]
    cmp["fill"] = [
        num("fill", [_r(_fill(a_map, g)) for g in ga], [_r(_fill(b_map, g)) for g in gb]),
        num(
            "set-aside tiles per game",
            [len(g["set_aside"]) for g in ga],
            [len(g["set_aside"]) for g in gb],
        ),
    ]
    cmp["features"] = feature_figures(ga, gb, paired=paired)
    cmp["rules"] = rule_figures(ga, gb, paired=paired)
    cmp["quality"] = quality_figures(ga, gb, paired=paired)
    cmp["bots"] = {"a": bot_figures(ga), "b": bot_figures(gb)}
    cmp["verdicts"] = verdicts(cmp)
    cmp["headline"] = headline(cmp)
    return cmp


# -- the page -------------------------------------------------------------------------------------


def compare_command(cmp: dict[str, Any], out_dir: str | Path) -> str | None:
    """The command that plays the comparison again, run in ``out_dir`` (``None`` when the
    comparison does not know its files: the editor's unsaved map)."""
    names = []
    for side in ("a", "b"):
        given = cmp[side].get("file")
        if given is None:
            return None
        try:
            path = find_map(given)
        except EngineError:
            return None
        names.append(map_argument(path, out_dir) if path == Path(given) else given)
    return rerun_command(cmp, f"--compare {names[0]} {names[1]}")


def comparison_blocks(
    cmp: dict[str, Any], images: dict[str, str], *, command: str | None = None
) -> list[tuple[Any, ...]]:
    """The comparison page as report blocks (see :mod:`engine.analysis.report`); ``command``:
    how to play it again (:func:`compare_command`)."""
    a, b = cmp["a"], cmp["b"]
    run = cmp["run"]
    out: list[tuple[Any, ...]] = [
        (
            "h1",
            f"Balance comparison: {a.get('file', a['label'])} (A) and "
            f"{b.get('file', b['label'])} (B)",
        ),
        (
            "p",
            f"A: `{a.get('file', a['map'])}` ({a['name']}), rules '{a['rule_set_played']}', "
            f"{a['games']} games. B: `{b.get('file', b['map'])}` ({b['name']}), rules "
            f"'{b['rule_set_played']}', {b['games']} games. Same settings and seed for both: "
            f"players {','.join(map(str, run['players']))}, "
            f"bot {bots_text(run)}, seed {run['seed']}.",
        ),
        *(
            [("p", f"Same figures again, run in this page's folder: `{command}`")]
            if command
            else []
        ),
        ("h2", "What differs between the maps"),
        (
            ("list", cmp["differences"])
            if cmp.get("differences")
            else ("p", "Nothing: the two maps are the same; only the settings may differ.")
        ),
    ]
    if "difference" in images:
        out.append(("img", images["difference"], "difference map: B - A on the map"))
    out += [("h2", "Verdict"), ("p", f"**{cmp['headline']}**")]
    if len(cmp["verdicts"]) > 1:
        out.append(("list", [v["text"] for v in cmp["verdicts"][1:]]))
    tests = (
        "**paired games**: game *i* of A and of B played the same deal (tile order, start "
        "squares, chip layout), so each difference is tested on the pairs (McNemar's exact "
        "test for win shares, the Wilcoxon signed-rank test for per-game numbers) and given "
        "with its 95 % interval of B - A"
        if cmp.get("paired")
        else "Fisher's exact test for win shares, Mann-Whitney U for per-game numbers"
    )
    out.append(
        (
            "p",
            f"Each difference is tested (scipy.stats; {tests}) and called one at "
            f"p < {cmp['alpha']}. Many figures are compared at once: treat a p near the "
            "threshold as a hint, not proof.",
        )
    )
    out.append(("h2", "Seat fairness"))
    if "seats" in images:
        out.append(("img", images["seats"], "win share per seat, A and B"))
    rows = []
    for block in cmp["seats"]:
        for s in block["seats"]:
            rows.append(
                [
                    str(block["players"]),
                    str(s["seat"] + 1),
                    f"{s['a_rate'] * 100:.1f}% ({s['a_wins']}/{block['a_games']})",
                    f"{s['b_rate'] * 100:.1f}% ({s['b_wins']}/{block['b_games']})",
                    f"{block['fair'] * 100:.0f}%",
                    p_text(s["p_value"]),
                    *([_interval(s, 100, " pts")] if "ci" in s else []),
                ]
            )
    diff_head = ["B - A (95 %)"] if cmp.get("paired") else []
    out.append(
        ("table", ["players", "seat", "A wins", "B wins", "fair", "A vs B", *diff_head], rows)
    )
    even = [
        f"{blk['players']} players: seats even in A {p_text(blk['a_evenness_p'])}, "
        f"in B {p_text(blk['b_evenness_p'])} (chi-square against equal shares)"
        for blk in cmp["seats"]
    ]
    out.append(("list", even))
    out.append(("h2", "Start-square choices"))
    sa, sb = cmp["start_spread"]["a"], cmp["start_spread"]["b"]
    rows = [
        ["choices seen", str(sa["choices"]), str(sb["choices"])],
        [
            "games per choice",
            f"{sa['games_min']}-{sa['games_max']}",
            f"{sb['games_min']}-{sb['games_max']}",
        ],
        [
            "seat 1 win rate over choices",
            f"{sa['seat0_rate_min'] * 100:.0f}-{sa['seat0_rate_max'] * 100:.0f}%",
            f"{sb['seat0_rate_min'] * 100:.0f}-{sb['seat0_rate_max'] * 100:.0f}%",
        ],
        [
            "mean score over choices",
            f"{_fmt(sa['mean_score_min'])}-{_fmt(sa['mean_score_max'])}",
            f"{_fmt(sb['mean_score_min'])}-{_fmt(sb['mean_score_max'])}",
        ],
        ["does the choice matter for seat 1?", p_text(sa["matters_p"]), p_text(sb["matters_p"])],
    ]
    out.append(("table", ["", "A", "B"], rows))
    for title, section, img in (
        ("Scores", "scores", "scores"),
        ("Fill", "fill", None),
        ("Features", "features", None),
        ("Rule figures", "rules", None),
        ("Game quality", "quality", None),
    ):
        figs = cmp.get(section, [])
        out.append(("h2", title))
        if img and img in images:
            out.append(("img", images[img], "score distributions, A and B"))
        if not figs:
            out.append(("p", "Nothing to compare."))
            continue
        out.append(
            (
                "table",
                ["figure", "A mean", "B mean", "A median", "B median", "difference", *diff_head],
                [
                    [
                        f["figure"],
                        _cell(f["a_mean"]),
                        _cell(f["b_mean"]),
                        _cell(f["a_median"]),
                        _cell(f["b_median"]),
                        ("**" if f["p_value"] < cmp["alpha"] else "")
                        + p_text(f["p_value"])
                        + ("**" if f["p_value"] < cmp["alpha"] else ""),
                        *([_interval(f)] if "ci" in f else []),
                    ]
                    for f in figs
                ],
            )
        )
    if cmp["bots"]["a"] or cmp["bots"]["b"]:
        out.append(("h2", "Bots at mixed tables"))
        rows = [
            [side, f["bot"], f"{f['rate_per_seat'] * 100:.1f}%", f"{f['wins']}/{f['seats_played']}"]
            for side in ("a", "b")
            for f in cmp["bots"][side]
        ]
        out.append(("table", ["run", "bot", "wins per seat played", "wins"], rows))
    return out


def _cell(x: float | None) -> str:
    return "-" if x is None else _fmt(x)


def _interval(f: dict[str, Any], scale: float = 1, unit: str = "") -> str:
    """``+2.1 (0.4 to 3.8)``: a paired difference and its interval."""
    lo, hi = f["ci"]
    if lo is None or math.isnan(lo):
        return f"{f['diff'] * scale:+.3g}{unit}"
    return f"{f['diff'] * scale:+.3g}{unit} ({lo * scale:.3g} to {hi * scale:.3g})"


def draw_comparison_charts(
    cmp: dict[str, Any],
    a: Sequence[Facts],
    b: Sequence[Facts],
    out_dir: Path,
    maps: tuple[MapDef, MapDef],
    *,
    dpi: int = 72,
) -> dict[str, Path]:
    """The difference map (on map B), win share per seat (grouped bars) and the score
    distributions (box plots) of A and B."""
    # the optional report extra (may be absent)
    import matplotlib

    matplotlib.use("Agg", force=False)
    # the optional report extra (may be absent)
    import matplotlib.pyplot as plt

    files: dict[str, Path] = {}
    charts: list[tuple[str, Callable[[], Any]]] = [
        ("difference", lambda: _chart_difference(plt, maps, a, b)),
        ("seats", lambda: _chart_seats(plt, cmp)),
        ("scores", lambda: _chart_scores(plt, cmp, a, b)),
    ]
    with plt.rc_context({"font.size": 8, "axes.titlesize": 9}):
        for name, draw in charts:
            fig = draw()
            files[name] = save_chart(plt, fig, out_dir / f"{name}.png", dpi)
    return files


def built_difference(
    maps: tuple[MapDef, MapDef], a: Sequence[Facts], b: Sequence[Facts]
) -> tuple[dict[tuple[int, int], float], dict[tuple[int, int], str]]:
    """Per square both maps can build: the share of games B builds it minus A's; and the
    squares only one of them can build (``"only in A"``/``"only in B"``)."""
    built_a = grid_values(fill_figures(maps[0], a)["built_rate"])
    built_b = grid_values(fill_figures(maps[1], b)["built_rate"])
    diff = {sq: round(built_b[sq] - built_a[sq], 4) for sq in built_a.keys() & built_b.keys()}
    only = {sq: "only in A" for sq in built_a.keys() - built_b.keys()}
    only |= {sq: "only in B" for sq in built_b.keys() - built_a.keys()}
    return diff, only


def _chart_difference(
    plt: Any, maps: tuple[MapDef, MapDef], a: Sequence[Facts], b: Sequence[Facts]
) -> Any:
    diff, only = built_difference(maps, a, b)
    # symmetric around 0 so white means "no change"; never narrower than 5 points
    top = max([0.05, *(abs(v) for v in diff.values())])
    layer = MapLayer(
        "Difference map: share of games each square is built, B - A",
        diff,
        "RdBu",
        -top,
        top,
        "B - A (blue: B builds it more often)",
        crossed=frozenset(maps[0].start_squares.keys() - maps[1].start_squares.keys()),
        crossed_label="start square of A only",
        hatched=only,
    )
    return map_figure(plt, maps[1], [layer])


def _chart_seats(plt: Any, cmp: dict[str, Any]) -> Any:
    blocks = cmp["seats"]
    fig, axes = plt.subplots(
        1, max(1, len(blocks)), figsize=(3.2 * max(1, len(blocks)), 2.6), squeeze=False
    )
    for ax, blk in zip(axes[0], blocks, strict=False):
        seats = [s["seat"] + 1 for s in blk["seats"]]
        xs = range(len(seats))
        ax.bar([x - 0.2 for x in xs], [s["a_rate"] for s in blk["seats"]], 0.4, label="A")
        ax.bar([x + 0.2 for x in xs], [s["b_rate"] for s in blk["seats"]], 0.4, label="B")
        ax.axhline(blk["fair"], color="k", lw=0.8, ls="--")
        ax.set_xticks(list(xs), [str(s) for s in seats])
        ax.set_xlabel("seat")
        ax.set_ylabel("win share")
        ax.set_title(f"{blk['players']} players")
        ax.legend()
    fig.tight_layout()
    return fig


def _chart_scores(plt: Any, cmp: dict[str, Any], a: Sequence[Facts], b: Sequence[Facts]) -> Any:
    fig, ax = plt.subplots(figsize=(4.5, 2.6))
    data = [
        [s for g in a for s in g["scores"]],
        [s for g in b for s in g["scores"]],
        [max(g["scores"]) for g in a],
        [max(g["scores"]) for g in b],
    ]
    ax.boxplot(data)
    ax.set_xticks([1, 2, 3, 4], ["A score", "B score", "A winner", "B winner"])
    ax.set_ylabel("points")
    fig.tight_layout()
    return fig


def write_comparison(
    cmp: dict[str, Any],
    a: Sequence[Facts],
    b: Sequence[Facts],
    out_dir: str | Path,
    maps: tuple[MapDef, MapDef],
    *,
    charts: bool = True,
) -> dict[str, Path]:
    """Write ``comparison.json``, ``comparison.md``, ``comparison.html`` (and PNG charts, the
    difference map drawn on ``maps[1]``)."""
    return write_pages(
        out_dir,
        "comparison",
        cmp,
        title=f"Balance comparison: {cmp['a'].get('file', cmp['a']['label'])} and "
        f"{cmp['b'].get('file', cmp['b']['label'])}",
        draw=lambda out: draw_comparison_charts(cmp, a, b, out, maps),
        blocks=lambda images: comparison_blocks(cmp, images, command=compare_command(cmp, out_dir)),
        charts=charts,
    )


__all__ = [
    "ALPHA",
    "built_difference",
    "compare_runs",
    "comparison_blocks",
    "fisher_p",
    "mann_whitney_p",
    "verdicts",
    "write_comparison",
]
