"""The rule language: named resources, designer-made square marks and when/if/then rules.

A rule-set file may add three entries to the 2019 parts (docs/rule-language.md):

* ``resources``: named tokens a player holds (id, name, colour, icon, a bounded supply);
* ``marks``: square marks a designer prints on a map (takes a tile or not, closes features like
  a border, opens when reached, chips on it at setup);
* ``rules``: each reads *when* (a trigger), *if* (conditions), *cost*, *then* (effects), with a
  *choice* (compulsory or an optional offer) and *limits*.

The vocabulary is tables (:data:`TRIGGERS`, :data:`CONDITIONS`, :data:`QUANTITIES`,
:data:`EFFECTS`, :data:`COSTS`): each trigger names the facts it fills in the evaluation context
(``square``, ``tile``, ``feature``, ``meeple``, ``mark``), and each condition, quantity and
effect the facts it needs. So any trigger composes with any condition and effect whose needs it
fills, and the checker refuses the others with that reason. The same tables make the JSON
Schema fragment (:func:`schema_defs`, kept equal to ``schemas/ruleset.schema.json`` by a test).
Nothing is evaluated: every entry is a name from a table and bounded numbers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

ID = r"^[a-z][a-z0-9_]{0,31}$"
FEATURES = ("city", "road", "field", "monastery")
CHIP_COLOURS = ("purple", "light_blue", "orange")
ICONS = (
    "chip",
    "coin",
    "fish",
    "grape",
    "olive",
    "grain",
    "salt",
    "wagon",
    "ship",
    "star",
    "crown",
    "tower",
    "tree",
    "wave",
    "mountain",
    "flag",
)
"""The icons a resource or a mark may show (drawn by the editor from this list)."""

MAX_RULES = 16
MAX_RESOURCES = 8
MAX_MARKS = 8
MAX_ITEMS = 6
"""Conditions, costs or effects of one rule; items of an ``all`` / ``any``."""
MAX_OPTIONS = 64
"""Ways to take one offer (payments x targets) enumerated at most."""


class Trigger(NamedTuple):
    label: str
    fills: frozenset[str]
    players: str
    """``current``: the player to move; ``each``: every player in turn; ``scorers``: each
    player scoring the feature."""
    phase: str | None
    """Where an optional offer of this trigger is made (``action`` / ``after``), ``None``:
    nowhere (no phase follows it): the rule must be compulsory."""


TRIGGERS: dict[str, Trigger] = {
    "tile_placed": Trigger("A tile is placed", frozenset({"square", "tile"}), "current", "action"),
    "meeple_placed": Trigger(
        "A meeple is placed",
        frozenset({"square", "tile", "meeple", "feature"}),
        "current",
        "action",
    ),
    "mark_reached": Trigger(
        "A tile is first placed next to a mark that opens when reached",
        frozenset({"square", "mark"}),
        "current",
        "action",
    ),
    "feature_scored": Trigger(
        "A feature is scored (for each player scoring it)",
        frozenset({"feature"}),
        "scorers",
        "after",
    ),
    "action_phase": Trigger(
        "Any time after the meeple, before scoring", frozenset(), "current", "action"
    ),
    "after_phase": Trigger("Any time after scoring", frozenset(), "current", "after"),
    "end_of_turn": Trigger("The end of a turn", frozenset(), "current", None),
    "end_of_round": Trigger("The end of a round (for each player)", frozenset(), "each", None),
    "end_of_game": Trigger(
        "The end of the game, after the final scoring (for each player)",
        frozenset(),
        "each",
        None,
    ),
}
"""Every trigger: what it fills in the context, whose rule it is, where its offers go."""

OFFER_ONLY = frozenset({"action_phase", "after_phase"})
"""Triggers that are a phase, not an event: their rules are optional offers."""

PRINTS = (
    "sea",
    "land_border",
    "ferry",
    "printed_city",
    "town",
    "start",
    "border_coa",
    "mark",
    "tile",
    "chip",
)
"""What ``on`` / ``next_to`` look for: a side facing the sea or a land border, a ferry end, a
large city, a town, a start square, a printed border road/city with a coat of arms, a mark
(any, or ``mark``), a placed tile (``next_to`` only), a face-down chip."""


def int_schema(lo: int, hi: int, doc: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": doc}


def enum_schema(values: tuple[str, ...] | list[str], doc: str) -> dict[str, Any]:
    return {"enum": list(values), "description": doc}


_ID = {"type": "string", "pattern": ID}
_RES = {"type": "string", "pattern": ID, "description": "a resource id, or 'chips'"}
_MARK = {"type": "string", "pattern": ID, "description": "a mark id"}
_SIDES = {
    "type": "object",
    "additionalProperties": False,
    "properties": {k: int_schema(0, 10, f"per {k} side") for k in ("city", "road", "field")},
    "description": "per kind of side of the placed tile facing the mark",
}


class Kind(NamedTuple):
    label: str
    params: dict[str, dict[str, Any]]
    required: tuple[str, ...] = ()
    needs: frozenset[str] = frozenset()


def _k(
    label: str,
    params: dict[str, dict[str, Any]] | None = None,
    required: tuple[str, ...] = (),
    needs: tuple[str, ...] = (),
) -> Kind:
    return Kind(label, params or {}, required, frozenset(needs))


CONDITIONS: dict[str, Kind] = {
    "on": _k(
        "The square is (or faces) a print",
        {"print": enum_schema(PRINTS, "what is looked for"), "mark": _MARK},
        ("print",),
        ("square",),
    ),
    "next_to": _k(
        "A square orthogonally next to it is (or faces) a print",
        {"print": enum_schema(PRINTS, "what is looked for"), "mark": _MARK},
        ("print",),
        ("square",),
    ),
    "tile_shows": _k(
        "The placed tile shows a kind of feature",
        {"feature": enum_schema(FEATURES, "the kind")},
        ("feature",),
        ("tile",),
    ),
    "feature_is": _k(
        "The feature is of a kind",
        {"feature": enum_schema(FEATURES, "the kind")},
        ("feature",),
        ("feature",),
    ),
    "feature_size": _k(
        "The feature has at least so many tiles",
        {"at_least": int_schema(1, 200, "tiles")},
        ("at_least",),
        ("feature",),
    ),
    "holds": _k(
        "The player holds at least so many of a resource (or chips)",
        {"resource": _RES, "at_least": int_schema(0, 99, "how many")},
        ("resource", "at_least"),
    ),
    "is_current": _k("The player is the player to move"),
    "round": _k(
        "At least so many rounds were played",
        {"at_least": int_schema(0, 200, "rounds")},
        ("at_least",),
    ),
    "rank": _k(
        "The player leads (first) or trails (last) the score",
        {"is": enum_schema(("first", "last"), "")},
        ("is",),
    ),
    "all": _k("All of", {"of": {"type": "array"}}, ("of",)),
    "any": _k("Any of", {"of": {"type": "array"}}, ("of",)),
    "not": _k("Not", {"of": {"type": "object"}}, ("of",)),
}
"""Every condition kind with its parameters and the context facts it needs."""

QUANTITIES: dict[str, Kind] = {
    "feature_tiles": _k("Tiles of the feature", needs=("feature",)),
    "feature_coats": _k("Coats of arms of the feature", needs=("feature",)),
    "feature_points": _k("Points the feature scored", needs=("feature",)),
    "held": _k(
        "How many of a resource (or chips) the player holds", {"resource": _RES}, ("resource",)
    ),
    "sides_facing": _k(
        "Points per side of the placed tile facing a mark, by the side's kind",
        {"mark": _MARK, "values": _SIDES},
        ("mark", "values"),
        ("square", "tile"),
    ),
    "chips_taken": _k("The value of the chips this rule took so far"),
}
"""What a quantity ``{"count": ..., "times": k, "max": m}`` counts (a plain integer is a
number)."""

_Q = {"$ref": "#/$defs/quantity"}
_TO = enum_schema(("left", "right", "leader", "each_other", "current"), "who receives")

EFFECTS: dict[str, Kind] = {
    "points": _k("Points to the player (negative: lost)", {"amount": _Q}, ("amount",)),
    "gain": _k(
        "The player gains a resource", {"resource": _ID, "amount": _Q}, ("resource", "amount")
    ),
    "lose": _k(
        "The player loses a resource (not below 0)",
        {"resource": _ID, "amount": _Q},
        ("resource", "amount"),
    ),
    "give": _k(
        "The player gives points or a resource to others",
        {"what": _RES | {"description": "'points' or a resource id"}, "amount": _Q, "to": _TO},
        ("what", "amount", "to"),
    ),
    "take_chips": _k(
        "The player takes chips: from the supply beside the map or the marks next to the square",
        {
            "from": enum_schema(("supply", "marks_next_to"), "where from"),
            "count": _Q,
            "face": enum_schema(("up", "down"), "held face up or face down"),
            "score": {"type": "boolean", "description": "score their values"},
        },
        ("from",),
    ),
    "reveal_chips": _k("The player's face-down chips turn face up"),
    "upgrade_meeple": _k(
        "A meeple of the player on a feature of a kind counts as more (the one just placed, or "
        "one chosen)",
        {
            "feature": enum_schema((*FEATURES, "any"), "the kind"),
            "strength": int_schema(2, 5, "counts as"),
        },
        ("feature",),
    ),
    "place_meeple": _k(
        "A meeple from the player's supply on a free feature of a kind of the placed tile (the "
        "first, or one chosen)",
        {"feature": enum_schema(FEATURES, "the kind")},
        ("feature",),
        ("square", "tile"),
    ),
    "extra_turn": _k("The player takes one more turn"),
    "skip_turn": _k("The player misses their next turn"),
    "table": _k(
        "Points from a table: by count held, by sets of all resources, or by rank in a majority",
        {
            "by": enum_schema(("count", "sets", "majority"), "how the table is read"),
            "of": _RES,
            "points": {
                "type": "array",
                "minItems": 1,
                "maxItems": 10,
                "items": int_schema(-50, 50, "points"),
                "description": "count: points for 0, 1, 2... (the last for more); sets: per set; "
                "majority: first, second...",
            },
        },
        ("by", "points"),
    ),
}
"""Every effect kind with its parameters and the context facts it needs."""

COSTS: dict[str, Kind] = {
    "points": _k(
        "Points (the score may go below 0)", {"amount": int_schema(1, 50, "points")}, ("amount",)
    ),
    "resource": _k(
        "Some of a resource",
        {"resource": _ID, "amount": int_schema(1, 20, "how many")},
        ("resource", "amount"),
    ),
    "chips": _k(
        "Held chips (of one colour, or any)",
        {
            "count": int_schema(1, 3, "chips"),
            "colour": enum_schema((*CHIP_COLOURS, "any"), "their colour"),
        },
        ("count",),
    ),
}
"""Every cost kind: a rule fires (or is offered) only when its costs can be paid."""

LIMIT_PER = ("game", "player", "turn", "round")


class Chooser(NamedTuple):
    label: str
    needs: frozenset[str] = frozenset()


CHOOSERS: dict[str, Chooser] = {
    "current": Chooser(
        "The player the trigger concerns (an offer: only when it is the player to move)"
    ),
    "left": Chooser("The next player in turn order after the player the trigger concerns"),
    "right": Chooser("The player before the player the trigger concerns in turn order"),
    "each_other": Chooser("Each other player, in turn order from the left"),
    "owners": Chooser(
        "Each other player with a meeple on a feature of the tile on the square, in turn order",
        frozenset({"square"}),
    ),
}
"""Who takes a rule: the player it concerns, or other players, who then decide inside the
turn (the rule is played as theirs: they pay its costs, its effects are theirs)."""


# -- the checked form ---------------------------------------------------------------------------


def freeze(value: Any) -> Any:
    """A JSON value as a hashable one (dicts as sorted item tuples, lists as tuples)."""
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """:func:`freeze` undone (a tuple of pairs with string keys is a dict)."""
    if isinstance(value, tuple):
        if value and all(
            isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) for p in value
        ):
            return {k: thaw(v) for k, v in value}
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class Term:
    """One condition, quantity, cost or effect: its kind and frozen parameters."""

    kind: str
    args: tuple[tuple[str, Any], ...] = ()

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.args:
            if k == name:
                return v
        return default

    @staticmethod
    def of(d: dict[str, Any]) -> Term:
        kind = d["kind"]
        if kind in ("all", "any"):
            return Term(kind, (("of", tuple(Term.of(c) for c in d["of"])),))
        if kind == "not":
            return Term(kind, (("of", Term.of(d["of"])),))
        return Term(kind, freeze({k: v for k, v in d.items() if k != "kind"}))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for k, v in self.args:
            if isinstance(v, Term):
                out[k] = v.to_dict()
            elif isinstance(v, tuple) and v and isinstance(v[0], Term):
                out[k] = [t.to_dict() for t in v]
            else:
                out[k] = thaw(v)
        return out


@dataclass(frozen=True)
class Resource:
    id: str
    name: str
    colour: str = "#808080"
    icon: str = "coin"
    start: int = 0
    supply: int | None = None
    """Tokens in the supply beside the map; ``None``: as many as needed."""


@dataclass(frozen=True)
class MarkKind:
    id: str
    name: str
    colour: str = "#808080"
    icon: str = "star"
    takes_tile: bool = True
    closes: bool = True
    opens: str = "never"
    chips: int = 0
    chips_face: str = "down"


@dataclass(frozen=True)
class Rule:
    id: str
    when: str
    conditions: tuple[Term, ...] = ()
    costs: tuple[Term, ...] = ()
    effects: tuple[Term, ...] = ()
    choice: str = "compulsory"
    chooser: str = "current"
    limits: tuple[tuple[str, int], ...] = ()
    title: str = ""


def marks_used(rules: tuple[Rule, ...]) -> frozenset[str]:
    """The mark ids the conditions, costs and effects of ``rules`` name."""
    out: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, Term):
            walk(value.args)
        elif isinstance(value, tuple):
            if len(value) == 2 and value[0] == "mark" and isinstance(value[1], str):
                out.add(value[1])
            for v in value:
                walk(v)

    for r in rules:
        for t in (*r.conditions, *r.costs, *r.effects):
            walk(t)
    return frozenset(out)


def build(d: dict[str, Any]) -> tuple[tuple[Resource, ...], tuple[MarkKind, ...], tuple[Rule, ...]]:
    """The language parts of a checked rule-set dict."""
    resources = tuple(Resource(**r) for r in d.get("resources", ()))
    marks = tuple(
        MarkKind(
            **{k: v for k, v in m.items() if k != "chips"},
            chips=m.get("chips", {}).get("count", 0),
            chips_face=m.get("chips", {}).get("face", "down"),
        )
        for m in d.get("marks", ())
    )
    rules = tuple(
        Rule(
            r["id"],
            r["when"],
            tuple(Term.of(c) for c in r.get("if", ())),
            tuple(Term.of(c) for c in r.get("cost", ())),
            tuple(Term.of(e) for e in r["then"]),
            r.get("choice", "compulsory"),
            r.get("chooser", "current"),
            tuple((lim["per"], lim.get("times", 1)) for lim in r.get("limits", ())),
            r.get("title", ""),
        )
        for r in d.get("rules", ())
    )
    return resources, marks, rules


def to_dicts(
    resources: tuple[Resource, ...], marks: tuple[MarkKind, ...], rules: tuple[Rule, ...]
) -> dict[str, Any]:
    """The file entries of the language parts (none when there are none: 2019 files stay as
    they were)."""
    out: dict[str, Any] = {}
    if resources:
        out["resources"] = [asdict(r) for r in resources]
    if marks:
        out["marks"] = []
        for m in marks:
            md = {k: v for k, v in asdict(m).items() if not k.startswith("chips")}
            out["marks"].append({**md, "chips": {"count": m.chips, "face": m.chips_face}})
    if rules:
        out["rules"] = []
        for r in rules:
            rd: dict[str, Any] = {"id": r.id}
            if r.title:
                rd["title"] = r.title
            rd["when"] = r.when
            if r.conditions:
                rd["if"] = [c.to_dict() for c in r.conditions]
            if r.costs:
                rd["cost"] = [c.to_dict() for c in r.costs]
            rd["then"] = [e.to_dict() for e in r.effects]
            rd.update(choice=r.choice, chooser=r.chooser)
            if r.limits:
                rd["limits"] = [{"per": p, "times": n} for p, n in r.limits]
            out["rules"].append(rd)
    return out
