"""What a rule set declares besides its hooks: plain data the rest of the engine reads.

A rule set class (:class:`engine.rules.base.Rules`) carries these as class attributes, so the
validator, the chip layout, the balance report, the greedy bot and the playtest window ask the
class instead of naming countries:

* :class:`ChipLayout`: how chips are laid out (random and even, fixed printed squares, none) and
  which squares of a map are excluded from chips;
* :class:`SheetSetup`: the start squares and chips the rule sheet's setup uses;
* :class:`IssueCode`: the validator issue codes the rule set may report (``Rules.check_map``);
* report figures (:class:`ActionCount`, :class:`EventStat`, :class:`ActionTally`,
  :class:`SummarySum`): the rule set's own figures in the balance report;
* :class:`BotHints`: facts about the hooks that let the greedy bot take its fast paths.

Everything here is a frozen dataclass of strings, numbers and booleans: a later rule set read
from a data file can fill the same fields.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from engine.mapdef import IslandRole, IslandSquare

if TYPE_CHECKING:
    from engine.geometry import Square
    from engine.mapdef import MapDef


class LayoutKind(StrEnum):
    """How a rule set's chips reach the map at setup."""

    NONE = "none"
    """No chips."""
    RANDOM = "random"
    """Shuffled face down and spread evenly under the placement rules (:mod:`engine.chips`)."""
    FIXED = "fixed"
    """On the chip squares printed on the map (``MapDef.chip_squares``)."""


EXCLUDABLE = ("gated_islands",)
"""Names of the square sets of a map a :class:`ChipLayout` may exclude from chips."""


@dataclass(frozen=True)
class ChipLayout:
    """A rule set's chip layout: its kind and the squares it keeps free of chips.

    ``excluded`` names square sets of the map (see :data:`EXCLUDABLE`); a chip on one of them
    breaks the rule ``excluded_code`` (``excluded_label`` says what the square is).
    """

    kind: LayoutKind = LayoutKind.NONE
    excluded: tuple[str, ...] = ()
    excluded_code: str = ""
    excluded_label: str = ""
    excluded_meaning: str = ""

    def __post_init__(self) -> None:
        unknown = [name for name in self.excluded if name not in EXCLUDABLE]
        if unknown:
            raise ValueError(f"ChipLayout.excluded: unknown square set(s) {unknown}")

    @property
    def random(self) -> bool:
        """Whether chips are laid out at random (and so need the feasibility proof)."""
        return self.kind is LayoutKind.RANDOM

    def excluded_squares(self, m: MapDef) -> set[Square]:
        """The squares of ``m`` this layout keeps free of chips."""
        out: set[Square] = set()
        for name in self.excluded:
            if name == "gated_islands":
                out |= m.gated_squares()
        return out


PRINTS = ("waves", "island_stacks")
"""Prints of a map that take no tile under the rule set that uses them (``Rules.blocking_prints``).
Without that rule set "you simply ignore the additional prints" and they are ordinary squares."""


def without_prints(m: MapDef, prints: Iterable[str]) -> MapDef:
    """A copy of ``m`` in which the named :data:`PRINTS` are ignored: wave squares and island
    stack squares become ordinary squares."""
    out = m.copy()
    names = set(prints)
    if "waves" in names:
        out.waves.clear()
    if "island_stacks" in names:
        for island in out.islands.values():
            for sq, info in list(island.squares.items()):
                if info.role is IslandRole.STACK:
                    island.squares[sq] = IslandSquare(IslandRole.LAND, info.coats_of_arms)
    return out


def with_marks_blocked(m: MapDef, marks: Iterable[str]) -> MapDef:
    """A copy of ``m`` whose squares marked with one of ``marks`` take no tile and close the
    features facing them: the board treats them as wave squares."""
    ids = set(marks)
    out = m.copy()
    out.waves |= {sq for sq, mk in m.marks.items() if mk.mark in ids}
    return out


@dataclass(frozen=True)
class SheetSetup:
    """The rule sheet's setup: start squares on the map, start squares used, chips laid out."""

    start_squares: int
    start_squares_used: int
    chips: int


@dataclass(frozen=True)
class IssueCode:
    """A validator issue code a rule set reports: ``severity`` (``"error"`` or ``"warning"``),
    what it means and how to fix it."""

    severity: str
    meaning: str
    fix: str


class IssueSink(Protocol):
    """Where :meth:`engine.rules.base.Rules.check_map` reports located issues."""

    def err(self, code: str, message: str, **where: Any) -> None:
        """An error ``code`` with ``message``, located by ``squares=``, ``edges=``, ``city=``,
        ``ferry=`` or ``island=``."""

    def warn(self, code: str, message: str, **where: Any) -> None:
        """A warning, located as for :meth:`err`."""


# -- report figures -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionCount:
    """Per game: how many actions of the record types ``types`` were taken."""

    types: tuple[str, ...]


@dataclass(frozen=True)
class EventStat:
    """Per game: the count (``what="count"``) or points (``"points"``) of rule events ``kind``."""

    kind: str
    what: str = "count"


@dataclass(frozen=True)
class ActionTally:
    """Actions of record type ``type`` counted by a label, most frequent first.

    ``label``: ``"field"`` (the action's ``key`` field), ``"joined"`` (its ``key`` list joined
    with ``+``), ``"square"`` (the square in field ``key``, named by its town) or ``"island"``
    (the island holding the action's ``x``, ``y``).
    """

    type: str
    label: str
    key: str = ""


@dataclass(frozen=True)
class SummarySum:
    """Per game: a number (or the sum of a list) under ``key`` in the final state summary."""

    key: str


Figure = ActionCount | EventStat | ActionTally | SummarySum
"""One report figure a rule set declares."""


# -- bot hints ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotHints:
    """Facts about a rule set's hooks that the greedy bot relies on for its fast paths.

    ``meeple_blind``: the hooks after the meeple step never change scores, meeples or supply
    depending on meeples or supply (choices offered then may read them, but are optional), so a
    meeple on a feature that stays open changes the evaluation only by that feature's points.

    ``plain_scoring``: besides, no hook adjusts a feature scoring (``on_score``) and the end of
    turn and end of game hooks never change scores, meeples or supply, so the final scoring
    equals the projection and a placement can be judged where its turn would end.

    The defaults promise nothing (the bot plays every placement out). ``tests/engine/rules/
    test_declarations.py`` checks every rule set's hints against its hooks' behaviour.
    """

    meeple_blind: bool = False
    plain_scoring: bool = False

    def __post_init__(self) -> None:
        if self.plain_scoring and not self.meeple_blind:
            raise ValueError("BotHints: plain_scoring needs meeple_blind")
