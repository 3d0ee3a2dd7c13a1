"""How much narrower paired games make the intervals, for the same number of games.

Two measurements on a shipped map (all in this process, one core; reproducible from the seed):

* **head-to-head** (``--h2h BOT,BOT``): the same number of games played paired (each deal
  twice, the seats swapped: ``SimConfig.paired``) and unpaired (a new deal every game, as
  before). Printed: the first bot's win rate with its interval (over deals when paired, Wilson's
  over games when not) and its mean margin with its t interval (over deals / over games).
* **comparison** (``--compare A B``): two versions of a map played with one seed, so game ``i``
  of A and of B share their deal. Printed, per figure of the comparison: the paired interval
  of ``B - A`` and the unpaired (Welch) interval of the same games, and the median ratio of
  their widths.

Run: ``python benchmarks/bench_paired.py --map deutschland --h2h greedy:farmer,greedy --games 400``
     ``python benchmarks/bench_paired.py --compare deutschland my-variant.json --games 400``
     ``python benchmarks/bench_paired.py --map deutschland --vary rule.ones_per_colour=5,3``
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from engine.analysis.balance import wilson
from engine.analysis.compare import compare_runs
from engine.analysis.paired import block_rate, mean_ci
from engine.analysis.simulate import SimConfig, simulate
from engine.analysis.sweep import config_at, parse_sweep
from engine.mapio import load_map
from engine.resources import find_map


def _width(ci: list[float] | tuple[float, float]) -> float:
    return float(ci[1] - ci[0])


def head_to_head(m: Any, a: str, b: str, games: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for paired in (True, False):
        config = SimConfig(games=games, players=(2,), seats=(a, b), seed=seed, paired=paired)
        result = simulate(m, config, workers=1)
        by_deal: dict[int, list[tuple[float, int]]] = {}
        for g in result.games:
            me = g["bots"].index(a)
            won = 0.5 if len(g["winners"]) > 1 else float(me in g["winners"])
            margin = g["scores"][me] - g["scores"][1 - me]
            by_deal.setdefault(g["deal"], []).append((won, margin))
        results = [w for v in by_deal.values() for w, _m in v]
        margins = [mg for v in by_deal.values() for _w, mg in v]
        if paired:
            rate = block_rate([[w for w, _m in v] for v in by_deal.values()])
            rate_ci = rate["ci"]
            _mean, lo, hi = mean_ci(
                [statistics.fmean(mg for _w, mg in v) for v in by_deal.values()]
            )
        else:
            rate_ci = list(wilson(round(sum(results)), len(results)))
            _mean, lo, hi = mean_ci(margins)
        out["paired" if paired else "unpaired"] = {
            "games": len(results),
            "rate": statistics.fmean(results),
            "rate_ci": rate_ci,
            "margin": statistics.fmean(margins),
            "margin_ci": [lo, hi],
        }
    return out


def comparison(
    a_map: Any, b_map: Any, games: int, seed: int, vary: dict[str, Any] | None = None
) -> list[tuple[str, Any, Any]]:
    """The paired and unpaired intervals of every figure of A against B; with ``vary``
    (``{"rule.NAME": [a, b]}``, a sweep axis) one map with two values of a setting."""
    config = SimConfig(games=games, seed=seed)
    if vary:
        ((name, (va, vb)),) = vary.items()
        ra = simulate(a_map, config_at(config, {name: va}), workers=1)
        rb = simulate(b_map, config_at(config, {name: vb}), workers=1)
    else:
        ra = simulate(a_map, config, workers=1)
        rb = simulate(b_map, config, workers=1)
    cmp = compare_runs(a_map, ra, b_map, rb)
    rows = []
    for section in ("seats", "scores", "fill", "features", "rules", "quality"):
        figs = (
            [s for blk in cmp["seats"] for s in blk["seats"]]
            if section == "seats"
            else cmp[section]
        )
        for f in figs:
            if "ci" not in f:
                continue
            label = f"seat {f['seat'] + 1} wins" if section == "seats" else f["figure"]
            rows.append((label, f["ci"], f["unpaired_ci"]))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="deutschland", help="the map of --h2h")
    ap.add_argument("--h2h", metavar="BOT,BOT", help="two bot specs, e.g. greedy:farmer,greedy")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"))
    ap.add_argument(
        "--vary",
        metavar="NAME=A,B",
        help="compare --map with itself under two values of a setting, e.g. rule.ones_per_colour=5,3",
    )
    ap.add_argument("--games", type=int, default=200, help="games per run (each side)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t0 = time.process_time()
    if args.h2h:
        a, b = args.h2h.split(",")
        m = load_map(find_map(args.map))
        got = head_to_head(m, a, b, args.games, args.seed)
        for kind, r in got.items():
            print(
                f"{kind:8} {r['games']} games: {a} wins {100 * r['rate']:.1f} % "
                f"({100 * r['rate_ci'][0]:.1f}-{100 * r['rate_ci'][1]:.1f} %, width "
                f"{100 * _width(r['rate_ci']):.1f} points), margin {r['margin']:+.1f} "
                f"({r['margin_ci'][0]:+.1f} to {r['margin_ci'][1]:+.1f}, width "
                f"{_width(r['margin_ci']):.1f})"
            )
        p, u = got["paired"], got["unpaired"]
        print(
            f"paired/unpaired width: win rate {_width(p['rate_ci']) / _width(u['rate_ci']):.2f}, "
            f"margin {_width(p['margin_ci']) / _width(u['margin_ci']):.2f}"
        )
    if args.compare or args.vary:
        if args.vary:
            a_map = b_map = load_map(find_map(args.map))
            vary = parse_sweep([args.vary])
        else:
            a_map, b_map = (load_map(find_map(x)) for x in args.compare)
            vary = None
        rows = comparison(a_map, b_map, args.games, args.seed, vary)
        ratios = []
        for label, ci, uci in rows:
            if _width(uci) > 0:
                ratios.append(_width(ci) / _width(uci))
            print(
                f"{label:55} paired {ci[0]:+.3f} to {ci[1]:+.3f}   unpaired "
                f"{uci[0]:+.3f} to {uci[1]:+.3f}   ratio "
                f"{_width(ci) / _width(uci) if _width(uci) else float('nan'):.2f}"
            )
        print(
            f"{len(ratios)} figures: median width ratio paired/unpaired "
            f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})"
        )
    print(f"CPU {time.process_time() - t0:.0f} s")


if __name__ == "__main__":
    main()
