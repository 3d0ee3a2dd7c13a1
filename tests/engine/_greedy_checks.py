"""Check the greedy bot's fast placement values against the plain ones while it plays."""

from __future__ import annotations

from typing import Any

import pytest

import engine.bots.greedy_bot as greedy
from engine.moves import Move


def check_greedy_values(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[str]]:
    """From now on every placing decision judged by ``placement_values`` or by the bot's own
    path (``_entry_values``, from the move blocks) is compared with ``reference_values`` (push
    each move, evaluate, pop). Returns the lists the checks fill: the number of moves of each
    decision judged, and a line per value that differs."""
    fast = greedy.placement_values
    fast_entries = greedy._entry_values
    decisions: list[int] = []
    mismatches: list[str] = []

    def compare(view: Any, moves: list[Any], got: list[float], me: int, mv: float) -> None:
        expected = greedy.reference_values(view.copy(), moves, me, mv)
        decisions.append(len(moves))
        mismatches.extend(
            f"{m}: fast {a} plain {b}"
            for m, a, b in zip(moves, got, expected, strict=True)
            if abs(a - b) > 1e-9
        )

    def checked(view: Any, moves: list[Any], me: int, mv: float) -> list[float]:
        got = fast(view, moves, me, mv)
        compare(view, moves, got, me, mv)
        return got

    def checked_entries(view: Any, entries: list[Any], me: int, mv: float) -> list[list[float]]:
        got = fast_entries(view, entries, me, mv)
        moves = [Move(sq, rot, loc) for sq, rot, names in entries for loc in names]
        compare(view, moves, [v for values in got for v in values], me, mv)
        return got

    monkeypatch.setattr(greedy, "placement_values", checked)
    monkeypatch.setattr(greedy, "_entry_values", checked_entries)
    return decisions, mismatches
