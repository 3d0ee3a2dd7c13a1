"""Game-quality figures: is a game close, does its lead change, when is it decided?

Balance says whether a map is fair; these say whether it is fun to play (the Ludii metrics
``LeadChange``, ``Drama`` and ``Decisiveness``, and a figure of Carcassonne's own: how often the
final scoring of farms and open features reverses the leader). Each is computed per game from
the running scores at the end of every turn (the scoring events of that turn included, the final
scoring not), then averaged by the report; definitions in docs/balance-reports.md.

>>> from engine.analysis.quality import trace_figures
>>> trace = [[0, 0], [4, 0], [4, 6], [10, 6], [10, 12]]  # scores after turns 0..4
>>> trace_figures(trace, winners=[1])
{'lead_changes': 3, 'drama': 4, 'decisive_turn': 5, 'decisive_share': 0.8, 'final_flip': False}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game

FIGURES = ("lead_changes", "drama", "decisive_share", "final_flip")
"""The per-game figures the report and comparisons describe (``decisive_turn`` is kept too)."""


def score_trace(game: Game) -> list[list[int]]:
    """The running scores after each turn ``0..turns-1`` of a finished ``game``: every scoring
    event of that turn counted, the final scoring (events flagged ``final``, or scored after the
    last turn, as rule sets score at the end) not."""
    turns = game.turn
    players = len(game.players)
    gains = [[0] * players for _ in range(turns)]
    for e in game.events:
        if e.final or e.turn >= turns:
            continue
        row = gains[e.turn]
        for p in e.players:
            row[p] += e.points
    out: list[list[int]] = []
    running = [0] * players
    for row in gains:
        running = [a + b for a, b in zip(running, row, strict=True)]
        out.append(running)
    return out


def _leaders(scores: Sequence[int]) -> set[int]:
    top = max(scores)
    return {i for i, s in enumerate(scores) if s == top}


def trace_figures(trace: Sequence[Sequence[int]], winners: Sequence[int]) -> dict[str, Any]:
    """The quality figures of one game from its ``trace`` (:func:`score_trace`) and its
    ``winners`` (by the final scores).

    * ``lead_changes``: how often the sole leader becomes another player (a tie keeps the
      lead where it was);
    * ``drama``: the most points the eventual winner was behind the leader, before the final
      scoring (several winners: the least behind of them);
    * ``decisive_turn``: the first turn (counted from 1) from which a winner led (ties
      included) at the end of every later turn; ``turns + 1`` when only the final scoring made
      them lead;
      ``decisive_share`` is ``(decisive_turn - 1) / turns``: 0 decided from the first turn, 1
      decided by the final scoring;
    * ``final_flip``: no winner was leading after the last turn: the final scoring changed the
      leader.
    """
    turns = len(trace)
    won = set(winners)
    changes = 0
    holder: int | None = None
    drama = 0
    decisive = turns + 1
    for scores in trace:
        leaders = _leaders(scores)
        if len(leaders) == 1:
            (one,) = leaders
            if holder is not None and one != holder:
                changes += 1
            holder = one
        if won:
            drama = max(drama, min(max(scores) - scores[w] for w in won))
    for t in range(turns - 1, -1, -1):
        if not won & _leaders(trace[t]):
            break
        decisive = t + 1
    flip = bool(trace) and not won & _leaders(trace[-1])
    if not won:
        decisive = turns + 1
    return {
        "lead_changes": changes,
        "drama": drama,
        "decisive_turn": decisive,
        "decisive_share": round((decisive - 1) / turns, 4) if turns else 1.0,
        "final_flip": bool(flip),
    }


def game_quality(game: Game) -> dict[str, Any]:
    """:func:`trace_figures` of a finished ``game``."""
    out = game.outcome()
    winners = list(out.winners) if out else []
    return trace_figures(score_trace(game), winners)


__all__ = ["FIGURES", "game_quality", "score_trace", "trace_figures"]
