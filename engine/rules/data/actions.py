"""The record actions of data rule sets, one shape per kind of mechanic.

A mechanic's action has the shape its reward (or its ``set`` payment) needs, and the record type
the rule-set file names (``mechanic.action``). The presets name the country modules' types, so a
preset writes exactly the records the module wrote: ``sell_wine`` {colour, market, pay},
``take_island_tile`` {x, y}, ``buy_extra_turn`` {}, ``hand_in_set`` {chips}, ``place_treat``
{x, y}, ``upgrade_meeple`` {x, y, location, pay}. A field a mechanic does not use (``colour``
without a one-colour payment, ``pay`` without values paid) is left out of the record.

:func:`action_class` gives the class of a shape under another record type (a subclass made once
and cached), so ``SellWine`` and a designer's ``sell_olive_oil`` share their code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from engine.errors import EngineError, RecordError
from engine.geometry import Square
from engine.mapdef import Colour
from engine.moves import LOCATIONS, Action
from engine.rules.chips_common import parse_colour

A = TypeVar("A", bound=Action)


def _paid(out: dict[str, Any], colour: Colour | None, pay: tuple[int, ...]) -> dict[str, Any]:
    if colour is not None:
        out["colour"] = colour.value
    if pay:
        out["pay"] = list(pay)
    return out


def _read_paid(data: Mapping[str, Any], where: str) -> tuple[Colour | None, tuple[int, ...]]:
    colour = parse_colour(data["colour"], f"{where}.colour") if "colour" in data else None
    pay = tuple(sorted(int(v) for v in data.get("pay", ())))
    return colour, pay


@dataclass(frozen=True, slots=True)
class SellWine(Action):
    """Points at ``market`` (``"export"``, ``"town"``, ``"anywhere"``), paying chips of
    ``colour`` (``None``: any colours) with the values ``pay``. France's wine sale."""

    type: ClassVar[str] = "sell_wine"
    colour: Colour | None
    market: str
    pay: tuple[int, ...] = ()

    def __str__(self) -> str:
        what = self.type.replace("_", " ")
        colour = f" {self.colour.value}" if self.colour is not None else ""
        paid = f" ({'+'.join(map(str, self.pay))})" if self.pay else ""
        return f"{what}{colour}{paid} {self.market}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.colour is not None:
            out["colour"] = self.colour.value
        out["market"] = self.market
        if self.pay:
            out["pay"] = list(self.pay)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            colour, pay = _read_paid(data, cls.type)
            market = data["market"]
        except (KeyError, TypeError, ValueError, EngineError) as exc:
            raise RecordError(f"bad {cls.type} action {dict(data)!r}: {exc}") from None
        if market not in ("export", "town", "anywhere"):
            raise RecordError(
                f"{cls.type}.market: {market!r} is not 'export', 'town' or 'anywhere'"
            )
        return cls(colour, market, pay)


@dataclass(frozen=True, slots=True)
class BuyExtraTurn(Action):
    """A reward taken with chips of ``colour`` worth ``pay`` (both empty when the mechanic pays
    nothing): an extra turn (Great Britain's, a meeple to the Isle of Man), a treat, or parked
    meeples freed."""

    type: ClassVar[str] = "buy_extra_turn"
    colour: Colour | None = None
    pay: tuple[int, ...] = ()

    def __str__(self) -> str:
        paid = f" ({'+'.join(map(str, self.pay))})" if self.pay else ""
        colour = f" {self.colour.value}" if self.colour is not None else ""
        return f"{self.type.replace('_', ' ')}{colour}{paid}"

    def to_dict(self) -> dict[str, Any]:
        return _paid({"type": self.type}, self.colour, self.pay)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        extra = sorted(set(data) - {"type", "colour", "pay"})
        if extra:
            raise RecordError(f"{cls.type} takes no fields {', '.join(extra)}")
        try:
            colour, pay = _read_paid(data, cls.type)
        except (TypeError, ValueError, EngineError) as exc:
            raise RecordError(f"bad {cls.type} action {dict(data)!r}: {exc}") from None
        return cls(colour, pay)


@dataclass(frozen=True, slots=True)
class HandInSet(Action):
    """Hand in a set: the held chips of these ``(colour, value)`` (with the chip just taken,
    when a set is completed and the player chooses which)."""

    type: ClassVar[str] = "hand_in_set"
    chips: tuple[tuple[str, int], ...]

    def __str__(self) -> str:
        return f"{self.type.replace('_', ' ')} with " + " + ".join(
            f"{c} {v}" for c, v in self.chips
        )

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "chips": [list(c) for c in self.chips]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            chips = tuple(sorted((str(c), int(v)) for c, v in data["chips"]))
        except (KeyError, TypeError, ValueError):
            raise RecordError(
                f"{cls.type} needs chips as [colour, value] pairs: {dict(data)!r}"
            ) from None
        return cls(chips)


@dataclass(frozen=True, slots=True)
class SquareAction(Action):
    """An action named by one map square, recorded as {type, x, y}."""

    type: ClassVar[str] = ""
    square: Square

    def __str__(self) -> str:
        return f"{self.type.replace('_', ' ')} {self.square[0]},{self.square[1]}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "x": self.square[0], "y": self.square[1]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            return cls((int(data["x"]), int(data["y"])))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"{cls.type} needs integer x, y: {dict(data)!r}") from None


@dataclass(frozen=True, slots=True)
class TakeIslandTile(SquareAction):
    """Pay a chip of the island's colour and take the face-up tile of the stack on ``square``
    instead of drawing."""

    type: ClassVar[str] = "take_island_tile"


@dataclass(frozen=True, slots=True)
class PlaceTreat(SquareAction):
    """Place the chip just collected face up as a treat on ``square``."""

    type: ClassVar[str] = "place_treat"


@dataclass(frozen=True, slots=True)
class UpgradeMeeple(Action):
    """Spend chips (values ``pay``; of ``colour`` for a one-colour payment) to upgrade the
    current player's meeple at ``location`` (board orientation) on ``square``."""

    type: ClassVar[str] = "upgrade_meeple"
    square: Square
    location: str
    pay: tuple[int, ...] = ()
    colour: Colour | None = None

    def __str__(self) -> str:
        x, y = self.square
        paid = f" ({'+'.join(map(str, self.pay))})" if self.pay else ""
        return f"{self.type.replace('_', ' ')} {x},{y} {self.location}{paid}"

    def to_dict(self) -> dict[str, Any]:
        out = {
            "type": self.type,
            "x": self.square[0],
            "y": self.square[1],
            "location": self.location,
        }
        return _paid(out, self.colour, self.pay)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        try:
            sq = (int(data["x"]), int(data["y"]))
            loc = data["location"]
            colour, pay = _read_paid(data, cls.type)
        except (KeyError, TypeError, ValueError, EngineError):
            raise RecordError(
                f"{cls.type} needs integer x, y, a location and pay values: {dict(data)!r}"
            ) from None
        if loc not in LOCATIONS:
            raise RecordError(f"{cls.type}: unknown meeple location {loc!r}")
        return cls(sq, loc, pay, colour)


_MADE: dict[tuple[type[Action], str], type[Action]] = {}


def _reduce(self: Any) -> tuple[Any, ...]:
    # pickled as (shape, type, fields): the class is made again where it is unpickled (a bot's
    # process may not have made it yet)
    shape = type(self).__mro__[1]
    values = tuple(getattr(self, f.name) for f in fields(self))
    return (_remake, (shape.__name__, self.type, values))


def _remake(shape_name: str, type_name: str, values: tuple[Any, ...]) -> Action:
    shape: Any = globals()[shape_name]
    action: Action = action_class(shape, type_name)(*values)
    return action


def action_class(shape: type[A], type_name: str) -> type[A]:
    """``shape`` under the record type ``type_name`` (``shape`` itself when it is its type)."""
    if shape.type == type_name:
        return shape
    made = _MADE.get((shape, type_name))
    if made is None:
        name = f"{shape.__name__}_{type_name}"
        made = type(
            name,
            (shape,),
            {"type": type_name, "__slots__": (), "__module__": __name__, "__reduce__": _reduce},
        )
        made.__qualname__ = name
        _MADE[(shape, type_name)] = made
    return made  # type: ignore[return-value]
