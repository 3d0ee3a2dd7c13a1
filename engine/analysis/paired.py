"""Statistics of paired games: the same deal (tile order, start squares, chip layout) played
under two settings, or once per seat rotation.

Most of the variance of a Carcassonne result is the luck of the draw. When A and B play the same
deals, the difference of game ``i`` under A and under B carries little of that luck, so a paired
interval of the difference is narrower than an unpaired one for the same number of games. The
tests are scipy's: the Wilcoxon signed-rank test for per-game numbers, McNemar's exact test (a
binomial test on the pairs that disagree) for wins, Student's t for intervals of means.

>>> from engine.analysis.paired import mean_ci, mcnemar_p
>>> mean_ci([1.0, 2.0, 3.0])
(2.0, -0.4841, 4.4841)
>>> round(mcnemar_p(12, 2), 4)  # 12 deals only A won, 2 only B won
0.0129
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

CONFIDENCE = 0.95


def _t(df: int, confidence: float = CONFIDENCE) -> float:
    # scipy.stats takes a while to import: only when a figure needs it
    from scipy.stats import t

    return float(t.ppf(0.5 + confidence / 2, df))


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """The mean of ``values`` and its Student-t interval, rounded to 4 places (``nan`` bounds
    for fewer than two values)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if n < 2:
        return (round(mean, 4), math.nan, math.nan)
    half = _t(n - 1, confidence) * statistics.stdev(values) / math.sqrt(n)
    return (round(mean, 4), round(mean - half, 4), round(mean + half, 4))


def welch_ci(
    a: Sequence[float], b: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The unpaired (Welch) interval of ``mean(b) - mean(a)``: what the same games tell when
    their pairing is ignored."""
    if len(a) < 2 or len(b) < 2:
        return (math.nan, math.nan)
    va, vb = statistics.variance(a) / len(a), statistics.variance(b) / len(b)
    d = statistics.fmean(b) - statistics.fmean(a)
    se = math.sqrt(va + vb)
    if se == 0:
        return (round(d, 4), round(d, 4))
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = _t(max(1, int(df)), confidence) * se
    return (round(d - half, 4), round(d + half, 4))


def wilcoxon_p(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided Wilcoxon signed-rank test that the paired differences ``b[i] - a[i]`` are
    centred on zero (1.0 when every pair is equal)."""
    # scipy.stats takes a while to import: only when a figure needs it
    from scipy.stats import wilcoxon

    if len(a) != len(b):
        raise ValueError(f"paired samples differ in length: {len(a)} and {len(b)}")
    if not a or all(x == y for x, y in zip(a, b, strict=True)):
        return 1.0
    return float(wilcoxon(b, a, zero_method="zsplit").pvalue)


def mcnemar_p(a_only: int, b_only: int) -> float:
    """McNemar's exact test: of the pairs that disagree, ``a_only`` went A's way and ``b_only``
    B's; the two-sided binomial p that either way is equally likely."""
    # scipy.stats takes a while to import: only when a figure needs it
    from scipy.stats import binomtest

    n = a_only + b_only
    return 1.0 if n == 0 else float(binomtest(a_only, n, 0.5).pvalue)


def paired_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """``b - a`` over paired games: its mean, the paired interval, the unpaired (Welch)
    interval of the same games, and the Wilcoxon p."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    mean, lo, hi = mean_ci(diffs)
    ulo, uhi = welch_ci(a, b)
    return {
        "diff": mean,
        "ci": [lo, hi],
        "unpaired_ci": [ulo, uhi],
        "p_value": round(wilcoxon_p(a, b), 6),
    }


def block_rate(blocks: Sequence[Sequence[float]]) -> dict[str, Any]:
    """A rate over games played in blocks (the deals of paired games): each game's result is 1
    (won), 0.5 (shared) or 0; the rate is their mean. Games of one deal are not independent,
    so the interval is a t interval over the blocks' means, with one block won and one lost
    added to them (as Agresti and Coull add two successes and two failures): a run whose deals
    all ended alike does not get an interval of zero width."""
    results = [r for blk in blocks for r in blk]
    means = [statistics.fmean(blk) for blk in blocks if blk]
    _mean, lo, hi = mean_ci([*means, 0.0, 1.0])
    return {
        "games": len(results),
        "deals": len(means),
        "rate": round(statistics.fmean(results), 4) if results else math.nan,
        "ci": [max(0.0, lo), min(1.0, hi)],
    }


__all__ = [
    "block_rate",
    "mcnemar_p",
    "mean_ci",
    "paired_difference",
    "wilcoxon_p",
    "welch_ci",
]
