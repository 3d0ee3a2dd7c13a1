"""Scoring: points of a feature, majorities, and :class:`ScoreEvent`, which explains each point.

Points (general Maps rules + base rules, see engine/RULES.md):

============  ===========================  =====================================
feature       completed during the game    at the end of the game
============  ===========================  =====================================
road          1 per tile + 2 per CoA       1 per tile + 1 per CoA
city          2 per tile + 2 per CoA       1 per tile + 1 per CoA
monastery     1 + neighbouring squares (9 on the classic board); the same at the end
field         (never)                      3 per completed city it touches
============  ===========================  =====================================

*Tiles* are distinct squares, plus one per printed border segment and one per ferry; large-city
squares are city tiles. Majority is by meeple strength (1 each; rule sets may make a meeple count 2);
every tied player scores the full points.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.features import CITY, FIELD, ROAD, FeatureStore
from engine.geometry import Square

KINDS = ("city", "road", "monastery", "field")


@dataclass(frozen=True, slots=True)
class ScoreEvent:
    """One scoring: what was scored, how, and who got what.

    ``points`` is what *each* player in ``players`` scores (ties all score in full).
    """

    turn: int
    kind: str
    """``city``, ``road``, ``monastery``, ``field``, or a rule's own kind (``town``, ``chip``, ...)."""
    points: int
    players: tuple[int, ...]
    player_names: tuple[str, ...]
    final: bool = False
    tiles: int = 0
    coats_of_arms: int = 0
    cities: int = 0
    """For fields: completed cities the field touches."""
    bonus: int = 0
    """Points added by a rule variant (town variant c), included in ``points``."""
    name: str | None = None
    """A printed name (``"Berlin"``), when the feature has one."""
    squares: tuple[Square, ...] = ()
    feature: int | None = None
    """The feature's node id on the board (for invariant checks), ``None`` for non-feature events."""
    detail: str = ""
    """Free text for rule events (``"covered the town Bremen"``)."""
    meeples: tuple[int, ...] = field(default=(), compare=False)
    """Ids of the meeples that were on the feature."""

    @property
    def text(self) -> str:
        """A sentence like ``"Berlin completed: 6 tiles + 4 coats of arms = 20 for Red"``."""
        who = " and ".join(self.player_names) or "nobody"
        label = self.name or self.kind.capitalize()
        state = "at game end" if self.final else "completed"
        if self.kind in ("city", "road"):
            parts = [f"{self.tiles} tile{'s' if self.tiles != 1 else ''}"]
            if self.coats_of_arms:
                n = self.coats_of_arms
                parts.append(f"{n} coat{'s' if n != 1 else ''} of arms")
            if self.bonus:
                parts.append(f"{self.bonus} town bonus")
            return f"{label} {state}: {' + '.join(parts)} = {self.points} for {who}"
        if self.kind == "monastery":
            return f"Monastery {state}: 1 + {self.tiles} neighbours = {self.points} for {who}"
        if self.kind == "field":
            return f"Field: {self.cities} completed cities x 3 = {self.points} for {who}"
        detail = f": {self.detail}" if self.detail else ""
        return f"{label}{detail} = {self.points} for {who}"

    def to_dict(self) -> dict[str, object]:
        return {
            "turn": self.turn,
            "kind": self.kind,
            "final": self.final,
            "points": self.points,
            "players": list(self.players),
            "player_names": list(self.player_names),
            "tiles": self.tiles,
            "coats_of_arms": self.coats_of_arms,
            "cities": self.cities,
            "bonus": self.bonus,
            "name": self.name,
            "squares": [list(s) for s in self.squares],
            "detail": self.detail,
            "text": self.text,
        }


def feature_points(kind: int, tiles: int, coa: int, final: bool) -> int:
    """Points of a city or road with ``tiles`` tiles and ``coa`` coats of arms."""
    if final:
        return tiles + coa
    if kind == CITY:
        return 2 * tiles + 2 * coa
    return tiles + 2 * coa


def majority(strengths: dict[int, int]) -> tuple[int, ...]:
    """Players with the highest strength, sorted (all tied players)."""
    if not strengths:
        return ()
    best = max(strengths.values())
    return tuple(sorted([p for p, s in strengths.items() if s == best]))


def completed_cities(features: FeatureStore, field_root: int) -> int:
    """Distinct completed cities a field touches."""
    parent = features.parent
    done = features.done
    kind = features.kind
    complete: set[int] = set()
    for c in features.cities_of(field_root):
        while parent[c] != c:  # FeatureStore.find inlined: the bots project fields often
            c = parent[c]
        if c in done and kind[c] == CITY:
            complete.add(c)
    return len(complete)


def final_points(features: FeatureStore, root: int, farmers: bool) -> int:
    """What the final scoring gives the majority on the open feature ``root`` (a city, road or
    field; fields score only with ``farmers``)."""
    kind = features.kind[root]
    if kind == FIELD:
        return 3 * completed_cities(features, root) if farmers else 0
    return feature_points(kind, len(features.tiles[root]), features.coa[root], True)


def square_tiles(features: FeatureStore, root: int) -> tuple[Square, ...]:
    """The real squares of a feature (printed border segments and ferries left out), sorted."""
    return tuple(sorted(t for t in features.tiles[root] if isinstance(t[0], int)))


__all__ = [
    "CITY",
    "FIELD",
    "KINDS",
    "ROAD",
    "ScoreEvent",
    "completed_cities",
    "feature_points",
    "final_points",
    "majority",
    "square_tiles",
]
