"""The rule-set file format: a Map-Chips mini-expansion as data, read, checked and written.

A rule-set file (``*.ruleset.json``, schema ``schemas/ruleset.schema.json``) composes mechanics
drawn from the five official sheets: the chip supply and its layout, what collecting a chip
does, and up to eight mechanics, each a payment, a reward and a limit offered in one phase of a
turn. It is data only: every field is a bounded number, a name from a fixed list or free text;
nothing in it is evaluated. :class:`RuleSetSpec` is the checked, immutable form
(:meth:`RuleSetSpec.from_dict` / :meth:`RuleSetSpec.to_dict`); :func:`check_ruleset_dict` lists
every problem of a dict, one line each, naming the field; :func:`load_ruleset` reads a file
within its size bound. ``docs/rule-sets.md`` ("Rule sets as data") documents every field.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from engine import boundedio
from engine.errors import EngineError
from engine.resources import data_dir
from engine.rules.data.lang import MarkKind, Resource, Rule, build, to_dicts
from engine.schemacheck import bundled_validator, json_path, schema_message

FORMAT = "carcassonne-maps-ruleset"
VERSION = 1
MAX_FILE_BYTES = boundedio.LIMITS["rule set"]
COLOUR_ORDER = ("purple", "light_blue", "orange")
"""The map colours in the order chips are numbered (the modules' order)."""
RESERVED_ACTIONS = frozenset(("place", "draw", "pass", "place_treat"))
"""Record action types a mechanic may not take: the core's and the treat placement's."""

NAME_PATTERN = r"[a-z][a-z0-9_-]{0,39}"
"""What a rule set's ``name`` looks like."""

PRINT_NAMES = (
    "town_colours",
    "border_coa",
    "tracks",
    "island_stacks",
    "waves",
    "chip_squares",
    "isle_of_man",
    "gated_coa_islands",
)
"""Map prints a rule set may need (``RuleSetSpec.prints``); the validator reports a missing one
as ``ruleset-missing-<print>``."""

WHERE_ORDER = ("border_coa", "town_colour", "anywhere")
MARKETS = {"border_coa": "export", "town_colour": "town", "anywhere": "anywhere"}
"""A ``points`` reward's places -> the ``market`` its record action names (France's names)."""


def _p(kind: str, default: Any, description: str, **bounds: Any) -> dict[str, Any]:
    return {"type": kind, "default": default, "description": description, **bounds}


MECHANIC_KINDS: dict[str, dict[str, dict[str, Any]]] = {
    "pay": {
        "exact_value_one_colour": {
            "label": "Chips of one colour worth exactly",
            "params": {"value": _p("int", 2, "the value paid (France: 2)", min=1, max=60)},
        },
        "exact_total_any": {
            "label": "Chips of any colours worth exactly",
            "params": {"value": _p("int", 4, "the total paid (Deutschland: 4)", min=1, max=60)},
        },
        "one_chip_of_colour": {
            "label": "One chip of the colour (an island tile: the island's colour)",
            "params": {},
        },
        "set": {
            "label": "A set of chips",
            "params": {
                "size": _p("int", 3, "chips in a set (Great Britain: 3)", min=2, max=6),
                "same": _p(
                    "choice",
                    "either",
                    "all the same number, all different colours, or either",
                    choices=["number", "colour_all_different", "either"],
                ),
                "hand_in": _p(
                    "choice",
                    "on_complete",
                    "handed in the moment a new chip completes a set, or when the player chooses",
                    choices=["on_complete", "choice"],
                ),
                "choose": _p(
                    "choice",
                    "player",
                    "on_complete, several sets: the player chooses, or the chips held longest go",
                    choices=["player", "oldest"],
                ),
                "when_nothing_parked": _p(
                    "bool",
                    True,
                    "on_complete: handed in even when the player has no meeple parked",
                ),
            },
        },
        "none": {"label": "Nothing", "params": {}},
    },
    "reward": {
        "points": {
            "label": "Points where the tile just placed opens a market",
            "params": {
                "where": _p(
                    "list",
                    ["anywhere"],
                    "border_coa: connects to a border road or city with a coat of arms; "
                    "town_colour: covers a town of the paid colour; anywhere",
                    choices=list(WHERE_ORDER),
                ),
                "points": _p("points", {"anywhere": 3}, "points per place", min=0, max=50),
                "border_road_needs_coa": _p("bool", True, "a border road needs a coat of arms too"),
            },
        },
        "extra_turn": {
            "label": "One more full turn",
            "params": {
                "park_meeple": _p(
                    "bool", True, "a meeple from the supply is parked (the Isle of Man)"
                ),
                "freed_by": _p("mechanic", None, "the set mechanic that frees parked meeples"),
                "in_extra_turns": _p("bool", False, "offered in an extra turn too"),
            },
        },
        "upgrade_meeple": {
            "label": "Upgrade a meeple on the board",
            "params": {"strength": _p("int", 2, "meeples it counts as until scored", min=2, max=5)},
        },
        "island_tile": {
            "label": "The face-up tile of an island stack, instead of drawing",
            "params": {"stack_size": _p("int", 5, "tiles per stack (Benelux: 5)", min=0, max=20)},
        },
        "treat": {"label": "The first chip paid becomes a treat to place", "params": {}},
        "free_parked_meeples": {"label": "Parked meeples come back", "params": {}},
    },
    "collect": {
        "keep": {"label": "Keep the chip face up", "params": {}},
        "points": {"label": "Score it; the chip leaves the game", "params": {}},
        "treat": {
            "label": "Place it as a treat on its colour's tracks",
            "params": {
                "treat_factor": _p(
                    "int", 2, "a tile on a treat scores value x this", min=0, max=10
                ),
                "treat_squares": _p(
                    "choice",
                    "free",
                    "free squares, or also the setup rules",
                    choices=["free", "setup"],
                ),
            },
        },
    },
    "layout": {
        "random": {"label": "Random and even (the placement rules)", "params": {}},
        "fixed": {"label": "On the printed chip squares, by colour", "params": {}},
        "none": {"label": "No chips on the map", "params": {}},
        "supply": {"label": "Face down in a supply beside the map", "params": {}},
        "marks": {"label": "On the designer's marks; the rest beside the map", "params": {}},
    },
    "when": {
        "draw": {"label": "Instead of drawing", "params": {}},
        "action": {"label": "After the meeple, before scoring", "params": {}},
        "after": {"label": "After scoring", "params": {}},
    },
    "limit": {
        "round": {"label": "Once per round", "params": {}},
        "turn": {"label": "Once per turn", "params": {}},
        "none": {"label": "No limit", "params": {}},
    },
}
"""What a UI offers: per group (``pay``, ``reward``, ``collect``, ``layout``, ``when``,
``limit``), every kind with its ``label`` and ``params`` (name -> ``type`` (``int``, ``bool``,
``choice``, ``list``, ``points``, ``mechanic``), ``default``, ``description``, and ``min`` /
``max`` or ``choices``). The defaults are those a file may leave out."""


class RuleSetError(EngineError):
    """A rule set is invalid; ``str()`` is one line: ``"<file>: <field path>: <reason>"``."""

    def __init__(self, message: str, *, source: str = "", path: str = "") -> None:
        self.source = source
        self.path = path
        self.reason = message
        parts = [p for p in (source, path) if p]
        super().__init__(": ".join([*parts, message]))


class RuleSetProblem(NamedTuple):
    """One problem of a rule-set dict: the field path (``mechanics[0].pay.value``) and why."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


# -- the spec -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Supply:
    colours: tuple[str, ...] = COLOUR_ORDER
    per_colour: int = 10
    values: tuple[tuple[int, int], ...] = ((1, 5), (2, 5))
    """(value, chips of each colour with it), by value."""

    @property
    def total(self) -> int:
        return self.per_colour * len(self.colours)

    def colour_values(self) -> list[int]:
        """The values of one colour's chips, ascending."""
        return [v for v, n in self.values for _ in range(n)]


@dataclass(frozen=True)
class Layout:
    kind: str = "random"
    count: int | None = None
    exclude: tuple[str, ...] = ()


@dataclass(frozen=True)
class Collect:
    kind: str = "keep"
    points_factor: int = 1
    treat_factor: int = 2
    treat_squares: str = "free"


@dataclass(frozen=True)
class Pay:
    kind: str
    value: int = 0
    size: int = 3
    same: str = "either"
    hand_in: str = "on_complete"
    choose: str = "player"
    when_nothing_parked: bool = True

    @property
    def values_paid(self) -> bool:
        """Whether the action names the values paid (``pay``)."""
        return self.kind in ("exact_value_one_colour", "exact_total_any")


@dataclass(frozen=True)
class Reward:
    kind: str
    where: tuple[str, ...] = ()
    points: tuple[tuple[str, int], ...] = ()
    border_road_needs_coa: bool = True
    park_meeple: bool = True
    freed_by: str | None = None
    in_extra_turns: bool = False
    strength: int = 2
    stack_size: int = 5

    def points_at(self, where: str) -> int:
        return dict(self.points).get(where, 0)


@dataclass(frozen=True)
class Mechanic:
    id: str
    action: str
    when: str
    pay: Pay
    reward: Reward
    limit: str = "none"
    title: str = ""


@dataclass(frozen=True)
class SetupSpec:
    start_squares: int
    start_squares_used: int
    chips: int


@dataclass(frozen=True)
class RuleSetSpec:
    """A checked rule set (immutable, hashable: classes are cached per spec)."""

    name: str
    title: str = ""
    description: str = ""
    based_on: str = ""
    supply: Supply = Supply()
    layout: Layout = Layout()
    leftover: str = "out_unseen"
    collect: Collect = Collect()
    mechanics: tuple[Mechanic, ...] = ()
    island_coat_points: int = 0
    held_chip_points: int = 0
    declared_prints: tuple[str, ...] = ()
    """The file's ``prints`` (those its mechanics imply are added by :attr:`prints`)."""
    sheet_setup: SetupSpec | None = None
    resources: tuple[Resource, ...] = ()
    """Named tokens (the rule language, docs/rule-language.md)."""
    marks: tuple[MarkKind, ...] = ()
    """Square marks a map prints for this rule set."""
    rules: tuple[Rule, ...] = ()
    """when/if/then rules."""
    source: str = field(default="", compare=False, hash=False)
    """The file it was read from (messages), ``""`` for a dict."""

    @staticmethod
    def from_dict(data: Any, source: str = "") -> RuleSetSpec:
        """The spec of a rule-set dict (the JSON file's content).

        :raises RuleSetError: for the first problem :func:`check_ruleset_dict` finds.
        """
        problems = check_ruleset_dict(data)
        if problems:
            first = problems[0]
            raise RuleSetError(first.message, source=source, path=first.path)
        return _build(data, source)

    def to_dict(self) -> dict[str, Any]:
        """The file's content, every field written (defaults included); ``from_dict`` of it
        gives this spec back."""
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": self.name}
        if self.title:
            out["title"] = self.title
        if self.description:
            out["description"] = self.description
        if self.based_on:
            out["based_on"] = self.based_on
        out["supply"] = {
            "colours": list(self.supply.colours),
            "per_colour": self.supply.per_colour,
            "values": {str(v): n for v, n in self.supply.values},
        }
        out["layout"] = {
            "kind": self.layout.kind,
            "count": self.layout.count,
            "exclude": list(self.layout.exclude),
        }
        out["leftover"] = self.leftover
        c = self.collect
        collect: dict[str, Any] = {"kind": c.kind, "points_factor": c.points_factor}
        if c.kind == "treat":
            collect.update(treat_factor=c.treat_factor, treat_squares=c.treat_squares)
        out["collect"] = collect
        out["mechanics"] = [_mechanic_dict(m) for m in self.mechanics]
        out["island_coat_points"] = self.island_coat_points
        out["end"] = {"held_chip_points": self.held_chip_points}
        out["prints"] = list(self.declared_prints)
        if self.sheet_setup is not None:
            s = self.sheet_setup
            out["sheet_setup"] = {
                "start_squares": s.start_squares,
                "start_squares_used": s.start_squares_used,
                "chips": s.chips,
            }
        out.update(to_dicts(self.resources, self.marks, self.rules))
        return out

    # -- derived ---------------------------------------------------------------------------------

    @property
    def display_title(self) -> str:
        return self.title or self.name

    def mechanic(self, mid: str) -> Mechanic:
        return next(m for m in self.mechanics if m.id == mid)

    @property
    def prints(self) -> tuple[str, ...]:
        """Every map print this rule set needs: the declared ones and those its mechanics
        imply, in :data:`PRINT_NAMES` order."""
        need = set(self.declared_prints)
        if self.layout.kind == "fixed":
            need.add("chip_squares")
        if self.collect.kind == "treat":
            need.add("tracks")
        if self.island_coat_points:
            need.add("gated_coa_islands")
        for m in self.mechanics:
            r = m.reward
            if r.kind == "points":
                if "border_coa" in r.where:
                    need.add("border_coa")
                if "town_colour" in r.where:
                    need.add("town_colours")
            elif r.kind == "extra_turn" and r.park_meeple:
                need.add("isle_of_man")
            elif r.kind == "island_tile":
                need.add("island_stacks")
            elif r.kind == "treat":
                need.add("tracks")
        return tuple(p for p in PRINT_NAMES if p in need)

    @property
    def blocking_marks(self) -> tuple[str, ...]:
        """Ids of the marks whose squares take no tile (they close features like waves)."""
        return tuple(m.id for m in self.marks if not m.takes_tile)

    def resource(self, rid: str) -> Resource:
        return next(r for r in self.resources if r.id == rid)

    @property
    def blocking_prints(self) -> tuple[str, ...]:
        """Prints that take no tile while this rule set is played."""
        return tuple(p for p in ("waves", "island_stacks") if p in self.prints)


def _mechanic_dict(m: Mechanic) -> dict[str, Any]:
    out: dict[str, Any] = {"id": m.id}
    if m.title:
        out["title"] = m.title
    out.update(action=m.action, when=m.when)
    pay: dict[str, Any] = {"kind": m.pay.kind}
    if m.pay.values_paid:
        pay["value"] = m.pay.value
    elif m.pay.kind == "set":
        pay.update(
            size=m.pay.size,
            same=m.pay.same,
            hand_in=m.pay.hand_in,
            choose=m.pay.choose,
            when_nothing_parked=m.pay.when_nothing_parked,
        )
    r = m.reward
    reward: dict[str, Any] = {"kind": r.kind}
    if r.kind == "points":
        reward.update(
            where=list(r.where),
            points=dict(r.points),
            border_road_needs_coa=r.border_road_needs_coa,
        )
    elif r.kind == "extra_turn":
        reward.update(
            park_meeple=r.park_meeple, freed_by=r.freed_by, in_extra_turns=r.in_extra_turns
        )
    elif r.kind == "upgrade_meeple":
        reward["strength"] = r.strength
    elif r.kind == "island_tile":
        reward["stack_size"] = r.stack_size
    out.update(pay=pay, reward=reward, limit=m.limit)
    return out


def _default(group: str, kind: str, name: str) -> Any:
    return MECHANIC_KINDS[group][kind]["params"][name]["default"]


def _build(d: dict[str, Any], source: str) -> RuleSetSpec:
    s = d["supply"]
    supply = Supply(
        colours=tuple(c for c in COLOUR_ORDER if c in s["colours"]),
        per_colour=s["per_colour"],
        values=tuple(sorted((int(k), n) for k, n in s["values"].items() if n > 0)),
    )
    lay = d.get("layout", {})
    layout = Layout(lay.get("kind", "random"), lay.get("count"), tuple(lay.get("exclude", ())))
    c = d["collect"]
    collect = Collect(
        c["kind"],
        c.get("points_factor", 1),
        c.get("treat_factor", 2),
        c.get("treat_squares", "free"),
    )
    mechanics = []
    for m in d["mechanics"]:
        p, r = m["pay"], m["reward"]
        pay = Pay(
            p["kind"],
            value=p.get("value", 0),
            size=p.get("size", 3),
            same=p.get("same", "either"),
            hand_in=p.get("hand_in", "on_complete"),
            choose=p.get("choose", "player"),
            when_nothing_parked=p.get("when_nothing_parked", True),
        )
        where = tuple(w for w in WHERE_ORDER if w in r.get("where", ()))
        reward = Reward(
            r["kind"],
            where=where,
            points=tuple((w, r.get("points", {})[w]) for w in where),
            border_road_needs_coa=r.get("border_road_needs_coa", True),
            park_meeple=r.get("park_meeple", True),
            freed_by=r.get("freed_by"),
            in_extra_turns=r.get("in_extra_turns", False),
            strength=r.get("strength", 2),
            stack_size=r.get("stack_size", 5),
        )
        mechanics.append(
            Mechanic(
                m["id"],
                m["action"],
                m["when"],
                pay,
                reward,
                m.get("limit", "none"),
                m.get("title", ""),
            )
        )
    ss = d.get("sheet_setup")
    resources, marks, rules = build(d)
    return RuleSetSpec(
        name=d["name"],
        title=d.get("title", ""),
        description=d.get("description", ""),
        based_on=d.get("based_on", ""),
        supply=supply,
        layout=layout,
        leftover=d.get("leftover", "out_unseen"),
        collect=collect,
        mechanics=tuple(mechanics),
        island_coat_points=d.get("island_coat_points", 0),
        held_chip_points=d.get("end", {}).get("held_chip_points", 0),
        declared_prints=tuple(p for p in PRINT_NAMES if p in d.get("prints", ())),
        sheet_setup=SetupSpec(ss["start_squares"], ss["start_squares_used"], ss["chips"])
        if ss
        else None,
        resources=resources,
        marks=marks,
        rules=rules,
        source=source,
    )


def spec_of_valid_dict(data: dict[str, Any], source: str = "") -> RuleSetSpec:
    """The spec of a dict :func:`check_ruleset_dict` found valid (not checked again)."""
    return _build(data, source)


# -- checking -----------------------------------------------------------------------------------


def _schema_problems(d: Any) -> list[RuleSetProblem]:
    validator = bundled_validator("ruleset")
    out = []
    for e in sorted(validator.iter_errors(d), key=lambda e: [str(p) for p in e.absolute_path]):
        path = json_path(e.absolute_path)
        if "propertyNames" in e.schema_path:
            owner: Any = d
            for part in e.absolute_path:
                owner = owner[part]
            kind = owner.get("kind") if isinstance(owner, dict) else None
            where = f"{path}.{e.instance}" if path else str(e.instance)
            out.append(
                RuleSetProblem(where, f"not a field of kind {kind!r}" if kind else "unknown field")
            )
            continue
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            allowed = set(e.schema.get("properties", {}))
            patterns = e.schema.get("patternProperties", {})
            for name in sorted(e.instance):
                if name not in allowed and not any(re.search(p, name) for p in patterns):
                    out.append(RuleSetProblem(f"{path}.{name}" if path else name, "unknown field"))
            continue
        out.append(RuleSetProblem(path, schema_message(e)))
    return out


def _sums(values: list[int]) -> set[int]:
    """Every total some of ``values`` add up to (subset sums)."""
    sums = {0}
    for v in values:
        sums |= {s + v for s in sums}
    sums.discard(0)
    return sums


def check_ruleset_dict(data: Any) -> list[RuleSetProblem]:
    """Every problem of a rule-set dict, one per line, each naming its field; ``[]``: valid.
    Never raises."""
    try:
        if not isinstance(data, dict):
            return [RuleSetProblem("", f"expected a JSON object, got {type(data).__name__}")]
        problems = _schema_problems(data)
        if problems:
            return problems
        return _semantic_problems(data)
    except Exception as exc:  # noqa: BLE001 - a checker never raises (the editor calls it live)
        return [RuleSetProblem("", f"cannot check the rule set: {exc}")]


def _semantic_problems(d: dict[str, Any]) -> list[RuleSetProblem]:
    out: list[RuleSetProblem] = []

    def bad(path: str, message: str) -> None:
        out.append(RuleSetProblem(path, message))

    s = d["supply"]
    total_counts = sum(s["values"].values())
    if total_counts != s["per_colour"]:
        bad(
            "supply.values",
            f"the counts add up to {total_counts}, not per_colour {s['per_colour']}",
        )
    colour_values = [int(k) for k, n in sorted(s["values"].items()) for _ in range(n)]
    colours = len(s["colours"])
    total = s["per_colour"] * colours
    lay = d.get("layout", {})
    count = lay.get("count")
    if count is not None and count > total:
        bad("layout.count", f"{count} is more than the {total} chips of the supply")
    ss = d.get("sheet_setup")
    if ss is not None:
        if ss["start_squares_used"] > ss["start_squares"]:
            bad("sheet_setup.start_squares_used", "is more than start_squares")
        if ss["chips"] > total:
            bad("sheet_setup.chips", f"{ss['chips']} is more than the {total} chips of the supply")
    c = d["collect"]
    if c["kind"] != "treat":
        for name in ("treat_factor", "treat_squares"):
            if name in c:
                bad(f"collect.{name}", "only for collect kind 'treat'")
    mechanics = d["mechanics"]
    ids: dict[str, int] = {}
    actions: dict[str, int] = {}
    for i, m in enumerate(mechanics):
        at = f"mechanics[{i}]"
        if m["id"] in ids:
            bad(f"{at}.id", f"{m['id']!r} is the id of mechanics[{ids[m['id']]}] too")
        ids.setdefault(m["id"], i)
        if m["action"] in RESERVED_ACTIONS:
            bad(f"{at}.action", f"{m['action']!r} is reserved (the core's or the treat's action)")
        elif m["action"] in actions:
            bad(
                f"{at}.action",
                f"{m['action']!r} is the action of mechanics[{actions[m['action']]}] too",
            )
        actions.setdefault(m["action"], i)
    parks = any(
        m["reward"]["kind"] == "extra_turn" and m["reward"].get("park_meeple", True)
        for m in mechanics
    )
    for i, m in enumerate(mechanics):
        at = f"mechanics[{i}]"
        pay, reward, when = m["pay"], m["reward"], m["when"]
        pk, rk = pay["kind"], reward["kind"]
        if pk == "exact_value_one_colour":
            reach, most = _sums(colour_values), sum(colour_values)
            if pay["value"] > most:
                bad(
                    f"{at}.pay.value",
                    f"{pay['value']} is more than the largest total {most} of one colour's chips",
                )
            elif pay["value"] not in reach:
                bad(f"{at}.pay.value", f"no chips of one colour add up to {pay['value']}")
        elif pk == "exact_total_any":
            everything = colour_values * colours
            most = sum(everything)
            if pay["value"] > most:
                bad(f"{at}.pay.value", f"{pay['value']} is more than the largest chip total {most}")
            elif pay["value"] not in _sums(everything):
                bad(f"{at}.pay.value", f"no chips add up to {pay['value']}")
        elif pk == "set":
            size, same = pay["size"], pay["same"]
            by_number = max((n * colours for n in s["values"].values()), default=0) >= size
            by_colour = colours >= size
            ok = {
                "number": by_number,
                "colour_all_different": by_colour,
                "either": by_number or by_colour,
            }[same]
            if not ok:
                bad(
                    f"{at}.pay.size",
                    f"the supply holds no set of {size} chips ({same.replace('_', ' ')})",
                )
            if pay.get("hand_in", "on_complete") == "choice":
                for name in ("choose", "when_nothing_parked"):
                    if name in pay:
                        bad(f"{at}.pay.{name}", "only for hand_in 'on_complete'")
        if (when == "draw") != (rk == "island_tile"):
            bad(f"{at}.when", "'draw' is the phase of island tiles, and only theirs")
        if rk == "island_tile" and pk != "one_chip_of_colour":
            bad(f"{at}.pay.kind", "an island tile is paid with one chip of the island's colour")
        if rk == "points":
            where, points = reward["where"], reward["points"]
            for w in where:
                if w not in points:
                    bad(f"{at}.reward.points", f"no points for {w!r}")
            for w in points:
                if w not in where:
                    bad(f"{at}.reward.points.{w}", f"{w!r} is not in where")
            if pk == "set" and list(where) != ["anywhere"]:
                bad(f"{at}.reward.where", "a set pays for points 'anywhere' only")
        if rk == "extra_turn":
            freed = reward.get("freed_by")
            if freed is not None:
                target = next((x for x in mechanics if x["id"] == freed), None)
                if not reward.get("park_meeple", True):
                    bad(f"{at}.reward.freed_by", "needs park_meeple: nothing is parked")
                elif target is None:
                    bad(f"{at}.reward.freed_by", f"no mechanic has the id {freed!r}")
                elif (
                    target["pay"]["kind"] != "set"
                    or target["reward"]["kind"] != "free_parked_meeples"
                ):
                    bad(
                        f"{at}.reward.freed_by",
                        f"{freed!r} is not a set mechanic that frees parked meeples",
                    )
        if rk == "free_parked_meeples" and not parks:
            bad(f"{at}.reward.kind", "frees nothing: no extra_turn mechanic parks meeples")
        if rk in ("free_parked_meeples", "treat") and pk == "none":
            bad(f"{at}.pay.kind", f"a {rk.replace('_', ' ')} reward needs chips paid")
    from engine.rules.data.lang_check import lang_problems

    out.extend(RuleSetProblem(p, m) for p, m in lang_problems(d))
    return out


# -- files and presets -------------------------------------------------------------------------


def load_ruleset(path: str | os.PathLike[str]) -> RuleSetSpec:
    """The rule set in the file ``path`` (read within :data:`MAX_FILE_BYTES`).

    :raises RuleSetError: one line naming the file and the field.
    """
    source = boundedio.shown(os.fspath(path))
    try:
        data = boundedio.read_json(path, limit=MAX_FILE_BYTES, what="rule set")
    except boundedio.InputFileError as exc:
        raise RuleSetError(exc.reason, source=exc.source) from None
    return RuleSetSpec.from_dict(data, source=source)


def save_ruleset(spec: RuleSetSpec, path: str | os.PathLike[str]) -> None:
    """Write ``spec`` as a rule-set file (UTF-8 JSON, two-space indent), atomically: the whole
    new file, or the old one untouched (:func:`engine.boundedio.write_text_atomically`)."""
    boundedio.write_text_atomically(
        path, json.dumps(spec.to_dict(), indent=2, ensure_ascii=False) + "\n"
    )


OFFICIAL_2019 = ("france", "benelux", "great_britain", "iberica", "deutschland")
"""The five 2019 sheets (each also a country module, replaying the recorded games)."""
LATER = ("taiwan", "ukraine", "nordics")
"""The later official sheets, written in the rule language from what is known of them."""
PRESETS = OFFICIAL_2019 + LATER
PRESET_MAPS = {
    "france": "france",
    "benelux": "benelux",
    "great_britain": "great-britain",
    "iberica": "iberica",
    "deutschland": "deutschland",
    "taiwan": "taiwan",
    "ukraine": "ukraine",
    "nordics": "nordics",
}
"""The shipped map (``engine.resources.bundled_map`` name) made for each preset."""


def preset_names() -> list[str]:
    """The presets: the five 2019 mini-expansions and the later sheets, as data."""
    return list(PRESETS)


@cache
def _preset_text(name: str) -> str:
    return (data_dir() / "rulesets" / f"{name}.json").read_text(encoding="utf-8")


def preset_dict(name: str) -> dict[str, Any]:
    """A fresh copy of preset ``name``'s file content.

    :raises RuleSetError: an unknown preset (naming the known ones).
    """
    if name not in PRESETS:
        raise RuleSetError(f"unknown preset {str(name)[:40]!r}; known: {', '.join(PRESETS)}")
    data: dict[str, Any] = json.loads(_preset_text(name))
    return data


@cache
def preset_spec(name: str) -> RuleSetSpec:
    """Preset ``name`` as a spec (shipped data, checked by the tests rather than at every start:
    the country modules are built from it on import)."""
    return _build(preset_dict(name), f"preset {name}")
