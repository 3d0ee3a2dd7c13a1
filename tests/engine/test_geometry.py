"""Sides of a square: order, rotation, and the str methods a StrEnum member keeps."""

from __future__ import annotations

from engine.geometry import SIDES, Side, neighbour


def test_side_keeps_the_str_methods() -> None:
    # A property named ``index`` once hid str.index, so this raised TypeError.
    assert Side.N.index("N") == 0
    assert Side.W.find("W") == 0
    assert Side.E.lower() == "e"


def test_ordinal_is_the_clockwise_position_from_north() -> None:
    assert [s.ordinal for s in SIDES] == [0, 1, 2, 3]
    assert [s.value for s in sorted(Side, key=lambda s: s.ordinal)] == ["N", "E", "S", "W"]


def test_rotation_and_opposite_follow_the_ordinal() -> None:
    for side in Side:
        assert side.rotated(90).ordinal == (side.ordinal + 1) % 4
        assert side.rotated(360) is side
        assert side.opposite.ordinal == (side.ordinal + 2) % 4
        assert neighbour(neighbour((5, 5), side), side.opposite) == (5, 5)
