"""Map-Chips Deutschland: upgraded meeples.

Setup: 2 of the 3 start squares, all 30 chips face down with the common rules.

A player holding chips worth exactly 4 (4x1, 2x2 or 2x1+1x2) may, on their turn, spend them to
upgrade one of their meeples on the board, placed earlier or just now (:class:`UpgradeMeeple`,
offered in the ``ACTION`` phase, after the meeple step and before scoring): one paid chip goes
under the meeple, the others leave the game. A meeple is upgraded at most once. An upgraded
meeple counts as 2 meeples for majorities in every scoring, during the game and at the end,
farmers included (:meth:`DeutschlandRules.meeple_strength`; the meeple's strength in
``game.meeples`` is set to 2 too, so ``Game.projected_scores`` sees it). After its feature is
scored during the game it returns as a normal meeple and its chip leaves the game.

Decisions (engine/RULES.md "Map-Chips"): the action names the meeple by square and location and
the payment by values (``pay``: ``[1, 1, 1, 1]``, ``[2, 2]`` or ``[1, 1, 2]``; colours play no
part); the first chip paid goes under the meeple. Several upgrades in one turn are allowed when
the player can pay for each. At the end of the game the chips under meeples stay on the board.

The rules themselves are the ``deutschland`` preset played by :class:`engine.rules.data.DataRules`;
this module adds the report's Deutschland figures.
"""

from __future__ import annotations

from engine.rules.base import register
from engine.rules.data.actions import UpgradeMeeple
from engine.rules.data.rules import DataRules, mechanic_figures
from engine.rules.data.ruleset import preset_spec
from engine.rules.spec import ActionCount, ActionTally

_SPEC = preset_spec("deutschland")
UPGRADE_VALUE = _SPEC.mechanic("upgrade").pay.value


@register
class DeutschlandRules(DataRules):
    spec = _SPEC
    issue_codes = {}  # nothing to print for it
    report_figures = {
        "meeples_upgraded": ActionCount(("upgrade_meeple",)),
        "upgrades_paid_with": ActionTally("upgrade_meeple", "joined", "pay"),
        **mechanic_figures(_SPEC),
    }


__all__ = ["UPGRADE_VALUE", "DeutschlandRules", "UpgradeMeeple"]
