"""Plain verdicts: one sentence per question a designer asks of a report.

"Seat 3 wins 40 % against a fair 33 %: not significant at 100 games; about 1,000 games would
tell." Each verdict says the observed figure, what fair would be, whether the games played
settle it (a test at ``ALPHA``), and when they do not, how many games would: the sample size at
which the observed effect would be found with probability ``POWER`` (the normal approximation
of the binomial test: Fleiss, *Statistical Methods for Rates and Proportions*, 3rd ed., 2.5).

>>> games_needed(1 / 3, 0.40)
402
>>> about(1234)
'about 1,200'
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.analysis.report_types import BalanceReport

ALPHA = 0.05
"""A plain verdict calls a difference significant below this p (after allowing for the number
of seats or choices looked at)."""
POWER = 0.8
"""The chance a run of the suggested size finds the observed effect."""
MAX_GAMES = 1_000_000


def _z(alpha: float, power: float) -> tuple[float, float]:
    normal = NormalDist()
    return normal.inv_cdf(1 - alpha / 2), normal.inv_cdf(power)


def games_needed(fair: float, observed: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Games a two-sided binomial test against ``fair`` needs to find a true rate ``observed``
    with probability ``power`` (``MAX_GAMES`` when there is no effect to find)."""
    if abs(observed - fair) < 1e-9:
        return MAX_GAMES
    za, zb = _z(alpha, power)
    n = (
        (za * math.sqrt(fair * (1 - fair)) + zb * math.sqrt(observed * (1 - observed)))
        / (observed - fair)
    ) ** 2
    return min(MAX_GAMES, math.ceil(n))


def games_needed_two(p1: float, p2: float, alpha: float = ALPHA, power: float = POWER) -> int:
    """Games per group a two-proportion test needs to tell ``p1`` from ``p2``."""
    if abs(p1 - p2) < 1e-9:
        return MAX_GAMES
    za, zb = _z(alpha, power)
    mean = (p1 + p2) / 2
    n = (
        (za * math.sqrt(2 * mean * (1 - mean)) + zb * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2)))
        / (p1 - p2)
    ) ** 2
    return min(MAX_GAMES, math.ceil(n))


def about(n: int) -> str:
    """A game count to two significant figures, in words: ``about 1,200``."""
    if n >= MAX_GAMES:
        return "more than a million"
    digits = max(0, len(str(n)) - 2)
    rounded = round(n, -digits)
    return f"about {rounded:,}"


def _pct(x: float) -> str:
    return f"{x * 100:.0f} %"


def _settles(p: float, played: int, needed: int, what: str = "games") -> str:
    if p < ALPHA:
        return f"significant at {played:,} {what} (p = {p:.2g})"
    if needed <= played:
        return (
            f"not significant at {played:,} {what} (p = {p:.2g}): a difference this size would "
            "usually show by now, so it is likely chance"
        )
    return f"not significant at {played:,} {what}; {about(needed)} {what} would tell"


def seat_verdicts(report: BalanceReport) -> list[dict[str, Any]]:
    """Per player count: the seat farthest from a fair share."""
    out = []
    for p, w in report["wins"].items():
        seats = w["seats"]
        if not seats:
            continue
        fair = w["fair"]
        worst = max(seats, key=lambda s: (abs(s["rate"] - fair), -s["seat"]))
        n = worst["games"]
        p_value = min(1.0, worst["p_value"] * len(seats))  # the worst of len(seats) looked at
        needed = games_needed(fair, worst["rate"])
        out.append(
            {
                "question": "seats",
                "players": int(p),
                "p_value": round(p_value, 6),
                "games_needed": needed,
                "text": f"{p} players: seat {worst['seat'] + 1} wins {_pct(worst['rate'])} "
                f"against a fair {_pct(fair)} (95 % interval {_pct(worst['ci'][0])}-"
                f"{_pct(worst['ci'][1])}): {_settles(p_value, n, needed)}.",
            }
        )
    return out


def start_verdict(report: BalanceReport) -> list[dict[str, Any]]:
    """The choice of start squares whose first seat does best or worst against the others."""
    rows = [
        (c, s)
        for c in report["start_choices"]
        for s in c["seats"]
        if s["seat"] == 0 and s["others_rate"] is not None
    ]
    if not rows:
        return []
    choice, seat = max(rows, key=lambda cs: abs(cs[1]["rate"] - (cs[1]["others_rate"] or 0)))
    others = seat["others_rate"] or 0.0
    names = " + ".join(
        n or f"({x}, {y})" for n, (x, y) in zip(choice["names"], choice["squares"], strict=True)
    )
    p_value = min(1.0, seat["p_value"] * len(rows))
    needed = games_needed_two(seat["rate"], others)
    return [
        {
            "question": "start squares",
            "players": seat["players"],
            "p_value": round(p_value, 6),
            "games_needed": needed,
            "text": f"Start squares {names} ({seat['players']} players): seat 1 wins "
            f"{_pct(seat['rate'])} against {_pct(others)} with the other choices: "
            f"{_settles(p_value, choice['games'], needed, 'games of that choice')}.",
        }
    ]


def rules_verdict(report: BalanceReport) -> list[dict[str, Any]]:
    """Does the rule set's own scoring pick the winner? How often the player who scored most
    from it (chips, wine, ...) won, against the share that player would win if it did not
    matter (``rule_leader``, :func:`engine.analysis.balance.rule_leader_figure`)."""
    lead = report.get("rule_leader")
    if not lead or not lead["games"]:
        return []
    fair, rate = lead["fair"], lead["rate"]
    needed = games_needed(fair, rate)
    lo, hi = lead["ci"]
    return [
        {
            "question": "rules",
            "p_value": lead["p_value"],
            "games_needed": needed,
            "text": f"The player who scores most from the rule set's own points wins "
            f"{_pct(rate)} of games (95 % interval {_pct(lo)}-{_pct(hi)}) against "
            f"{_pct(fair)} if those points did not matter: "
            f"{_settles(lead['p_value'], lead['games'], needed)}.",
        }
    ]


def length_verdict(report: BalanceReport) -> list[dict[str, Any]]:
    """How long games are, per player count, with the interval of the mean."""
    out = []
    for p, d in report["length"].items():
        if p in ("all", "values") or not isinstance(d, dict) or not d.get("n"):
            continue
        n, mean, sd = d["n"], d["mean"], d.get("sd") or 0.0
        half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
        out.append(
            {
                "question": "length",
                "players": int(p),
                "text": f"{p} players: games last {mean:.1f} turns ({d['min']}-{d['max']}; "
                f"the mean within {half:.1f}), {mean / int(p):.1f} turns a player.",
            }
        )
    return out


def quality_verdict(report: BalanceReport) -> list[dict[str, Any]]:
    """Whether the final scoring often overturns the game, and how often the lead changes."""
    q = report.get("quality")
    if not q:
        return []
    flip = q["final_flip"]
    lo, hi = flip["ci"]
    reading = (
        "players can mostly tell who leads while they play"
        if hi < 0.25
        else "the end often overturns the game: open features and farms decide it"
        if lo > 0.25
        else "neither rare nor common"
    )
    changes = q["lead_changes"]
    return [
        {
            "question": "quality",
            "text": f"The final scoring changes the leader in {_pct(flip['rate'])} of games "
            f"(95 % interval {_pct(lo)}-{_pct(hi)}): {reading}; the lead changes "
            f"{changes.get('mean', 0):.1f} times a game (median {changes.get('median', 0):g}).",
        }
    ]


def plain_verdicts(report: BalanceReport) -> list[dict[str, Any]]:
    """One verdict per question: seats, start squares, rules, length, quality figures."""
    return [
        *seat_verdicts(report),
        *start_verdict(report),
        *rules_verdict(report),
        *length_verdict(report),
        *quality_verdict(report),
    ]


__all__ = [
    "ALPHA",
    "POWER",
    "about",
    "games_needed",
    "games_needed_two",
    "plain_verdicts",
]
