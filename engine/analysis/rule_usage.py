"""How a rule set's own rules (the rule language) were used in a game, watched as it is played.

Per rule id: ``offered`` (times the player to move could take it: ``taken`` + ``declined``),
``taken``, ``declined`` (the player passed while a way to take it was legal), ``fired`` (times it ran, compulsory or taken), ``chips`` (the change in
chips held over the steps where it ran; shared by the rules that ran in the same step) and
``seat_fired`` (runs per seat, to see whether its heaviest user won), and the turns it moved:
``extra_turns`` (granted), ``extra_turns_played`` and ``turns_skipped`` (turns players missed
by it). The balance report sums these per rule
(:func:`engine.analysis.balance.rule_usage_figures`).
"""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.moves import Action, Pass

KEYS = ("offered", "taken", "declined", "fired", "chips")
TURN_KEYS = ("extra_turns", "extra_turns_played", "turns_skipped")
"""The turns a rule moved, in the order of ``LangState.turns``."""


def _lang(game: Game) -> tuple[Any, Any] | None:
    """The data rule set's state and its rule-language part, or ``None``."""
    for state in game.rule_state.values():
        lang = getattr(state, "lang", None)
        if lang is not None:
            return state, lang
    return None


def _rule_ids(game: Game) -> list[str]:
    """The ids of the rules in play, in their order (offers name their rule by index)."""
    for r in game.rules:
        interp = getattr(r, "lang", None)
        if interp is not None:
            return [rule.id for rule in interp.rules]
    return []


class RuleWatch:
    """Call :meth:`before` and :meth:`after` around every action of a game."""

    def __init__(self, game: Game) -> None:
        found = _lang(game)
        self.active = found is not None
        self.rules: dict[str, dict[str, int]] = {}
        self.seat_fired: dict[str, list[int]] = {}
        self._fired: dict[str, tuple[int, ...]] = {}
        self._chips = 0
        self._turns: dict[str, tuple[int, int, int]] = {}
        self._players = len(game.players)
        self._index = _rule_ids(game)
        for rid in self._index if found is not None else ():
            self._rule(rid)

    def _rule(self, rid: str) -> dict[str, int]:
        if rid not in self.rules:
            self.rules[rid] = dict.fromkeys(KEYS, 0)
            self.seat_fired[rid] = [0] * self._players
        return self.rules[rid]

    def before(self, game: Game, action: Action) -> None:
        found = _lang(game) if self.active else None
        if found is None:
            return
        state, lang = found
        if getattr(action, "type", None) == "rule":
            facts = self._rule(str(getattr(action, "rule", "?")))
            facts["taken"] += 1
            facts["offered"] += 1
        elif isinstance(action, Pass):  # every rule it could have taken instead is declined
            offered = {a.rule for a in game.legal_moves() if getattr(a, "type", None) == "rule"}  # type: ignore[attr-defined]
            for rid in sorted(offered):
                facts = self._rule(rid)
                facts["declined"] += 1
                facts["offered"] += 1
        self._fired = dict(lang.fired)
        self._chips = sum(len(h) for h in state.held)

    def after(self, game: Game) -> None:
        found = _lang(game) if self.active else None
        if found is None:
            return
        state, lang = found
        ran = [
            (rid, [a - b for a, b in zip(now, self._fired.get(rid, (0,) * len(now)), strict=False)])
            for rid, now in lang.fired.items()
            if now != self._fired.get(rid)
        ]
        self._turns = dict(lang.turns)
        chips = sum(len(h) for h in state.held) - self._chips
        for rid, per_seat in ran:
            facts = self._rule(rid)
            facts["fired"] += sum(per_seat)
            facts["chips"] += chips // len(ran) if chips >= 0 else -((-chips) // len(ran))
            for p, n in enumerate(per_seat[: self._players]):
                self.seat_fired[rid][p] += n

    def held(self, game: Game) -> dict[str, list[int]]:
        """What each player holds of each of the designer's resources (at the game's end)."""
        found = _lang(game) if self.active else None
        if found is None:
            return {}
        return {rid: list(held) for rid, held in sorted(found[1].res.items())}

    def facts(self) -> dict[str, Any]:
        """Per rule id: :data:`KEYS`, :data:`TURN_KEYS` and ``seat_fired``."""
        return {
            rid: {
                **f,
                **dict(zip(TURN_KEYS, self._turns.get(rid, (0, 0, 0)), strict=True)),
                "seat_fired": self.seat_fired[rid],
            }
            for rid, f in self.rules.items()
        }
