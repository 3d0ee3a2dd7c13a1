"""What a rule set shows a player, as plain data (``Rules.view``): the playtest window draws
this and never reads a rule set's state."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.geometry import Square


@dataclass(frozen=True)
class ChipView:
    """A chip on a map square."""

    square: Square
    colour: str | None
    """``None`` when the colour is hidden too (face down, unless the rule set shows colours)."""
    value: int | None
    """``None`` when face down."""


@dataclass(frozen=True)
class StackView:
    """A stack of tiles on a map square (Benelux islands)."""

    square: Square
    tile: str | None
    """The face-up tile, ``None`` when the stack is empty or its next tile not yet revealed."""
    count: int


@dataclass(frozen=True)
class ResourceView:
    """A resource of a rule set, as its designer named and drew it, and what each player holds."""

    id: str
    name: str
    colour: str
    """``#rrggbb``."""
    icon: str
    held: tuple[int, ...]
    """Per seat."""


@dataclass
class RuleView:
    """A rule set's pieces and counters now. Per-player lists are indexed by seat."""

    chips: list[ChipView] = field(default_factory=list)
    """Chips on map squares, face down or face up (treats)."""
    stacks: list[StackView] = field(default_factory=list)
    upgraded: set[int] = field(default_factory=set)
    """Ids of upgraded meeples."""
    held: list[list[tuple[str, int]]] = field(default_factory=list)
    """Per player: the chips held, as ``(colour, value)``, in the order taken; value 0: a chip
    kept face down whose value the player to move cannot see."""
    isle_meeples: dict[int, int] = field(default_factory=dict)
    """Meeples on the Isle of Man by player (only players with some)."""
    wines: list[list[str]] = field(default_factory=list)
    """Per player: the colours of the wines they could sell (France)."""
    wines_title: str = ""
    """What the rule set calls what ``wines`` counts (its mechanic's title), ``""``: wines."""
    resources: list[ResourceView] = field(default_factory=list)
    """The rule set's own resources (the rule language), in the designer's order."""
