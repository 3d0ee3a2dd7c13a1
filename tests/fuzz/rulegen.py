"""The one generator of rule sets, valid and hostile, and the verdict on each: what the checker
accepts, the program runs. It serves the fuzzer and the rule language alike:

* the fuzzer (``tests/fuzz/test_fuzz_rulegen.py`` in CI, ``benchmarks/fuzz_long.py --rulesets N``
  for long runs) draws :func:`ruleset`: the 2019 parts from ``MECHANIC_KINDS``, a share of them
  with the rule language's parts (:data:`LANG`), a share given one hostile change
  (:data:`HOSTILE`: a reserved name, a lone surrogate, a combination that cannot work, deep
  nesting, a field left out or of a wrong type, a language entry of an unknown kind or nested too
  deep);
* the rule language (``tests/engine/rules/test_rule_language.py`` in CI, ``python
  tests/fuzz/rulegen.py 300 [FIRST_SEED [OTHERS]]`` for long runs, ``OTHERS`` the share of rules
  given a drawn chooser, 0.5 by default) draws :func:`lang_ruleset`: a preset
  plus random resources, marks and rules, whose refused rules :func:`prune` drops, and plays the
  rest on the preset's map with the marks printed (:func:`run`).

The language's parts come from its vocabulary tables (``engine.rules.data.lang``: every trigger,
condition, quantity, cost, effect and chooser, parameters drawn from their schema), so a new
kind is generated without changing this file. Both play bot games through :func:`play_checked`:
every action a bot chooses is offered, every offered rule-set action plays on a copy, one action
not offered is refused each move without a change of state, the chip and meeple invariants hold.

The verdict (:func:`check_ruleset`) on one dict is

* ``refused``: the checker lists problems, each one line naming its field;
* ``unfit``: accepted, but none of the shipped maps has the prints it needs (the validator says
  so: a clean verdict);
* ``valid``: accepted, written and read back unchanged (file, map embedding it, record of a game
  on it), and bot games on a map with its prints end without a crash (:func:`play_checked`);
* ``defect``: anything else.
"""

from __future__ import annotations

import copy
import json
import random
import re
import sys
from collections import Counter
from functools import cache
from typing import Any

from fuzzlib import Hang, Verdict, _crash, time_limit

from engine.bots import make_bot
from engine.errors import EngineError, IllegalMoveError
from engine.game import Game, GameOptions
from engine.mapdef import EmbeddedRuleSet, MapDef, MarkSquare
from engine.mapio import dumps_map, load_map, loads_map
from engine.moves import Action, Draw, Move, Pass
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import bundled_map, shipped_maps
from engine.rules.chips_common import invariant_violations
from engine.rules.data import (
    MECHANIC_KINDS,
    RuleSetSpec,
    check_ruleset_dict,
    preset_dict,
    preset_names,
)
from engine.rules.data.interpret import RuleAction
from engine.rules.data.lang import (
    CHOOSERS,
    CONDITIONS,
    COSTS,
    EFFECTS,
    ICONS,
    QUANTITIES,
    TRIGGERS,
    Kind,
)
from engine.rules.data.ruleset import COLOUR_ORDER, PRESET_MAPS
from engine.validation import Severity, validate_map

HOSTILE = 0.3
"""Share of generated rule sets given one hostile change."""
LANG = 0.3
"""Share of the fuzzer's rule sets given the rule language's parts too."""


def _param(spec: dict[str, Any], rng: random.Random) -> Any:
    kind = spec["type"]
    if kind == "int":
        return rng.randint(spec["min"], min(spec["max"], spec["min"] + 8))
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "choice":
        return rng.choice(spec["choices"])
    if kind == "list":
        return rng.sample(spec["choices"], rng.randint(1, len(spec["choices"])))
    return spec["default"]


def _mechanic(i: int, rng: random.Random, colours: int) -> dict[str, Any]:
    reward_kind = rng.choice(list(MECHANIC_KINDS["reward"]))
    pay_kind = rng.choice(list(MECHANIC_KINDS["pay"]))
    if reward_kind == "island_tile" and rng.random() < 0.8:
        pay_kind = "one_chip_of_colour"
    pay: dict[str, Any] = {"kind": pay_kind}
    for name, p in MECHANIC_KINDS["pay"][pay_kind]["params"].items():
        if rng.random() < 0.7:
            pay[name] = _param(p, rng)
    if pay_kind in ("exact_value_one_colour", "exact_total_any"):
        pay["value"] = rng.randint(1, 4 if pay_kind == "exact_value_one_colour" else 6)
    if pay_kind == "set":
        pay["size"] = rng.randint(2, max(2, colours))
        if pay.get("hand_in") == "choice":
            pay.pop("choose", None)
            pay.pop("when_nothing_parked", None)
    reward: dict[str, Any] = {"kind": reward_kind}
    for name, p in MECHANIC_KINDS["reward"][reward_kind]["params"].items():
        if name == "freed_by":
            continue
        if rng.random() < 0.7:
            reward[name] = _param(p, rng)
    if reward_kind == "points":
        where = reward.setdefault("where", ["anywhere"])
        reward["points"] = {w: rng.randint(0, 6) for w in where}
        if pay_kind == "set":
            reward["where"], reward["points"] = ["anywhere"], {"anywhere": rng.randint(0, 6)}
    when = "draw" if reward_kind == "island_tile" else rng.choice(["action", "after"])
    out: dict[str, Any] = {
        "id": f"m{i}",
        "action": f"act_{i}",
        "when": when,
        "pay": pay,
        "reward": reward,
    }
    if rng.random() < 0.8:
        out["limit"] = rng.choice(list(MECHANIC_KINDS["limit"]))
    if rng.random() < 0.3:
        out["title"] = rng.choice(["Sell oil", "Ferry", "Trade é", "Tee 🍵"])
    return out


def _split(total: int, rng: random.Random) -> dict[str, int]:
    values: dict[str, int] = {}
    left = total
    for v in rng.sample(range(1, 6), rng.randint(1, 3)):
        n = left if len(values) == 2 else rng.randint(0, left)
        if n:
            values[str(v)] = n
        left -= n
    if left:
        values[str(rng.randint(1, 5))] = values.get("1", 0) + left if "1" in values else left
    return values


def _plain(rng: random.Random) -> dict[str, Any]:
    colours = rng.sample(COLOUR_ORDER, rng.randint(1, 3))
    per_colour = rng.randint(1, 10)
    values = _split(per_colour, rng)
    if sum(values.values()) != per_colour:
        values = {"1": per_colour}
    d: dict[str, Any] = {
        "format": "carcassonne-maps-ruleset",
        "version": 1,
        "name": rng.choice(["fuzz", "olive-oil", "herring", "x1"]),
        "supply": {"colours": colours, "per_colour": per_colour, "values": values},
        "collect": {"kind": rng.choice(list(MECHANIC_KINDS["collect"]))},
        "mechanics": [_mechanic(i, rng, len(colours)) for i in range(rng.randint(0, 4))],
    }
    if rng.random() < 0.5:
        d["collect"]["points_factor"] = rng.randint(0, 3)
    if d["collect"]["kind"] == "treat" and rng.random() < 0.5:
        d["collect"]["treat_factor"] = rng.randint(0, 4)
    if rng.random() < 0.7:
        d["layout"] = {"kind": rng.choice(["random", "random", "none", "fixed"])}
    if rng.random() < 0.3:
        d["end"] = {"held_chip_points": rng.randint(0, 3)}
    if rng.random() < 0.2:
        d["island_coat_points"] = rng.randint(0, 3)
    parks = [m for m in d["mechanics"] if m["reward"]["kind"] == "extra_turn"]
    frees = [m for m in d["mechanics"] if m["reward"]["kind"] == "free_parked_meeples"]
    if parks and frees and rng.random() < 0.5:
        parks[0]["reward"]["park_meeple"] = True
        parks[0]["reward"]["freed_by"] = frees[0]["id"]
        frees[0]["pay"] = {"kind": "set", "size": 2, "same": "either"}
    return d


# -- the rule language's parts -------------------------------------------------------------


def _value(
    rng: random.Random,
    name: str,
    schema: dict[str, Any],
    ids: dict[str, list[str]],
    fills: frozenset[str],
) -> Any:
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if schema.get("type") == "integer":
        lo, hi = schema["minimum"], schema["maximum"]
        return rng.randint(lo, min(hi, lo + 6))
    if schema.get("type") == "boolean":
        return rng.random() < 0.5
    if schema.get("$ref") == "#/$defs/quantity":
        return _quantity(rng, ids, fills)
    if name in ("resource", "what", "of"):
        pool = ids["resources"] + ["chips"] + (["points"] if name == "what" else [])
        return rng.choice(pool)
    if name == "mark":
        return rng.choice(ids["marks"] or ["nomark"])
    if name == "values":
        return {k: rng.randint(0, 3) for k in ("city", "road", "field")}
    if name == "points":
        return [rng.randint(-3, 8) for _ in range(rng.randint(1, 4))]
    return rng.choice(ids["resources"] or ["none"])


def _fits(kind: Kind, fills: frozenset[str]) -> bool:
    return kind.needs <= fills


def _quantity(rng: random.Random, ids: dict[str, list[str]], fills: frozenset[str]) -> Any:
    if rng.random() < 0.5:
        return rng.randint(-3, 5)
    name = rng.choice([k for k, v in QUANTITIES.items() if _fits(v, fills)])
    out: dict[str, Any] = {"count": name, "times": rng.randint(-2, 3)}
    if rng.random() < 0.3:
        out["max"] = rng.randint(0, 10)
    for p, s in QUANTITIES[name].params.items():
        out[p] = _value(rng, p, s, ids, fills)
    return out


def _term(
    rng: random.Random,
    table: dict[str, Kind],
    ids: dict[str, list[str]],
    fills: frozenset[str],
    depth: int = 1,
) -> dict[str, Any]:
    names = [k for k, v in table.items() if _fits(v, fills)]
    if depth >= 3:
        names = [n for n in names if n not in ("all", "any", "not")]
    kind = rng.choice(names)
    out: dict[str, Any] = {"kind": kind}
    if kind in ("all", "any"):
        out["of"] = [_term(rng, table, ids, fills, depth + 1) for _ in range(rng.randint(1, 2))]
        return out
    if kind == "not":
        out["of"] = _term(rng, table, ids, fills, depth + 1)
        return out
    for p, s in table[kind].params.items():
        if p in table[kind].required or rng.random() < 0.5:
            out[p] = _value(rng, p, s, ids, fills)
    return out


def lang_ruleset(rng: random.Random, others: float = 0.5) -> dict[str, Any]:
    """A random rule-set dict: a preset's 2019 parts plus random resources, marks and rules
    (valid or not: the checker decides)."""
    base = rng.choice(preset_names())
    d = preset_dict(base)
    d["name"], d["based_on"] = "gen", base
    language(d, rng, others)
    return d


def language(d: dict[str, Any], rng: random.Random, others: float = 0.5) -> None:
    """Add random resources, marks and 1-5 rules to the rule-set dict ``d``, every kind drawn
    from the vocabulary tables (a layout for chips on marks or beside the map when needed); a
    share ``others`` of the rules is given a chooser drawn from all of them, mostly players other
    than the one the trigger concerns)."""
    ids: dict[str, list[str]] = {"resources": [], "marks": []}
    d["resources"] = []
    for i in range(rng.randint(0, 3)):
        rid = f"res{i}"
        ids["resources"].append(rid)
        d["resources"].append(
            {
                "id": rid,
                "name": f"Token {i}",
                "icon": rng.choice(ICONS),
                "start": rng.randint(0, 2),
                "supply": rng.choice([None, 5, 20]),
            }
        )
    d["marks"] = []
    for i in range(rng.randint(0, 2)):
        mid = f"mark{i}"
        ids["marks"].append(mid)
        takes = rng.random() < 0.5
        d["marks"].append(
            {
                "id": mid,
                "name": f"Mark {i}",
                "takes_tile": takes,
                "closes": True,
                "opens": "never" if takes else rng.choice(["never", "when_reached"]),
                "chips": {"count": rng.choice([0, 0, 1, 2]), "face": rng.choice(["up", "down"])},
            }
        )
    if any(m["chips"]["count"] for m in d["marks"]):
        d["layout"] = {"kind": "marks", "count": None, "exclude": []}
    elif rng.random() < 0.3:
        d["layout"] = {"kind": "supply", "count": None, "exclude": []}
    d["rules"] = []
    for i in range(rng.randint(1, 5)):
        when = rng.choice(list(TRIGGERS))
        trig = TRIGGERS[when]
        fills = trig.fills
        optional = trig.phase is not None and (
            when in ("action_phase", "after_phase") or rng.random() < 0.5
        )
        rule: dict[str, Any] = {
            "id": f"r{i}",
            "when": when,
            "if": [_term(rng, CONDITIONS, ids, fills) for _ in range(rng.randint(0, 2))],
            "cost": [_term(rng, COSTS, ids, fills) for _ in range(rng.randint(0, 2))],
            "then": [_term(rng, EFFECTS, ids, fills) for _ in range(rng.randint(1, 3))],
            "choice": "optional" if optional else "compulsory",
        }
        if rng.random() < others:
            rule["chooser"] = rng.choice(list(CHOOSERS))
        if rng.random() < 0.5:
            rule["limits"] = [
                {"per": rng.choice(["game", "player", "turn", "round"]), "times": rng.randint(1, 3)}
            ]
        d["rules"].append(rule)


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _hostile(d: dict[str, Any], rng: random.Random) -> None:
    which = rng.randrange(10)
    if which == 0:
        d["name"] = rng.choice(["towns", "none", "invalid"])
    elif which == 1:
        d["title"] = "bad \ud800 title"
    elif which == 2:
        d["description"] = _deep(rng.choice([70, 600, 5000]))
    elif which == 3 and d["mechanics"]:
        m = rng.choice(d["mechanics"])
        m["pay"] = {"kind": "none"}
        m["reward"] = {"kind": "extra_turn", "park_meeple": False, "in_extra_turns": True}
        m["limit"] = rng.choice(["none", "turn"])
    elif which == 4 and d["mechanics"]:
        m = rng.choice(d["mechanics"])
        m["pay"] = {"kind": "set", "size": 2, "hand_in": rng.choice(["choice", "on_complete"])}
        m["reward"] = {"kind": rng.choice(["upgrade_meeple", "treat", "extra_turn"])}
    elif which == 5:
        section = rng.choice(["supply", "collect", "mechanics", "name"])
        d[section] = rng.choice([None, 3.0, "x", [], {}, _deep(40)])
    elif which == 6 and d["mechanics"]:
        m = rng.choice(d["mechanics"])
        m.pop(rng.choice(["pay", "reward", "when", "id", "action"]))
    elif which == 7:
        d["supply"]["per_colour"] = rng.choice([0, 31, -1, 10**30])
    elif which == 9:
        _hostile_rule(d, rng)
    else:
        d["unknown"] = {"deep": _deep(rng.randint(1, 30))}


def _hostile_rule(d: dict[str, Any], rng: random.Random) -> None:
    """A rule the checker must refuse: an unknown kind, conditions nested too deep, a chooser
    with no phase to decide in, an effect needing a fact its trigger does not give."""
    nested: dict[str, Any] = {"kind": "is_current"}
    for _ in range(rng.randint(4, 12)):
        nested = {"kind": rng.choice(["all", "any"]), "of": [nested]}
    rule = rng.choice(
        [
            {"id": "h", "when": "tile_placed", "then": [{"kind": "teleport"}]},
            {"id": "h", "when": "tile_placed", "if": [nested], "then": [{"kind": "reveal_chips"}]},
            {"id": "h", "when": "end_of_turn", "chooser": "left", "then": [{"kind": "skip_turn"}]},
            {
                "id": "h",
                "when": "end_of_game",
                "then": [{"kind": "place_meeple", "feature": "road"}],
            },
            {"id": "h", "when": "nightfall", "then": [{"kind": "points", "amount": 1}]},
        ]
    )
    d.setdefault("rules", []).append(rule)


def ruleset(rng: random.Random) -> dict[str, Any]:
    """A generated rule-set dict (with the rule language's parts with probability :data:`LANG`,
    hostile with probability :data:`HOSTILE`)."""
    d = _plain(rng)
    if rng.random() < LANG:
        language(d, rng)
        if not prune(d, Figures()):  # the refusals are the hostile changes' to make
            for key in ("resources", "marks", "rules"):
                d.pop(key, None)
    if rng.random() < HOSTILE:
        _hostile(d, rng)
    return d


# -- the verdict --------------------------------------------------------------------------------


@cache
def _maps() -> tuple[MapDef, ...]:
    return tuple(load_map(p) for p in shipped_maps() if not p.stem.startswith("example"))


def fitting_map(spec: RuleSetSpec) -> MapDef | None:
    """A copy of the first shipped map on which ``spec`` validates without errors."""
    for base in _maps():
        m = base.copy()
        m.rule_set = EmbeddedRuleSet(spec)  # embedded, not a shipped map's own file
        if not any(i.severity is Severity.ERROR for i in validate_map(m)):
            return m
    return None


def _refused_changes_nothing(g: Game, offered: list[Action]) -> str | None:
    """Play actions that are not offered (a pass, or the last offer's kind; a rule action no
    rule offers): each must be refused with the state unchanged."""
    extra = [a for a in offered if not isinstance(a, Pass)]
    probe: Action = Pass() if Pass() not in offered else (extra[-1] if extra else Pass())
    for p in (probe, RuleAction("r0", 99, 0)):
        if p in offered:
            continue
        before = g.state_summary()
        try:
            g.play(p)
        except IllegalMoveError:
            if g.state_summary() != before:
                return f"a refused {p} changed the state"
            continue
        return f"{p} was accepted although not offered"
    return None


def play_checked(
    m: MapDef,
    seed: int,
    bots: tuple[str, ...],
    turns: int,
    tally: Counter[str] | None = None,
) -> Game:
    """A game on ``m`` played by ``bots`` (one a seat) through ``play()`` for ``turns`` turns: every action a
    bot chooses must be offered, every offered rule-set action must play on a copy, one action
    not offered is refused each move without a change of state (the game's own probe and a rule
    action no rule offers), and the chip and meeple invariants hold after every move; raises
    :class:`AssertionError` otherwise. Returns the game; ``tally`` counts the ``moves``, the
    offered actions ``checked`` on copies and the choices made by ``others`` than the player to
    move."""
    tally = Counter() if tally is None else tally
    g = Game(m, players=len(bots), seed=seed, options=GameOptions(end_after_turns=turns))
    players = [make_bot(b, seed=seed + i) for i, b in enumerate(bots)]
    for _ in range(20 * turns + 200):
        if g.is_over():
            break
        offered = g.legal_moves().list()
        if not offered:
            raise AssertionError(f"turn {g.turn + 1}: nothing offered in phase {g.phase.value}")
        for a in offered:
            if not isinstance(a, (Move, Draw, Pass)):
                tally["checked"] += 1
                try:
                    g.copy().play(a)
                except EngineError as exc:
                    raise AssertionError(f"offered {a} refused: {exc}") from None
        tally["others"] += g.decider != g.to_move
        action = players[g.decider].choose(g)
        if action not in offered:
            raise AssertionError(f"the bot chose {action}, which is not offered")
        problem = _refused_changes_nothing(g, offered)
        if problem:
            raise AssertionError(problem)
        try:
            g.play(action)
        except IllegalMoveError as exc:
            raise AssertionError(f"an offered action was refused: {exc}") from None
        tally["moves"] += 1
        broken = invariant_violations(g)
        if broken:
            raise AssertionError(broken[0])
    else:
        raise AssertionError(f"the game did not end within {20 * turns + 200} actions")
    return g


def check_ruleset(data: Any, *, seed: int = 0, limit: float = 20.0, turns: int = 12) -> Verdict:
    """The verdict on one rule-set dict (see the module docstring)."""
    try:
        with time_limit(limit):
            problems = check_ruleset_dict(data)
            if problems:
                bad = [p for p in problems if "\n" in str(p) or len(str(p)) > 500]
                if bad:
                    return Verdict("defect", f"a problem not on one short line: {bad[0]!s:.300}")
                if any(p.message.startswith("cannot check") for p in problems):
                    return Verdict("defect", f"the checker failed: {problems[0]}")
                return Verdict("refused", str(problems[0]))
            spec = RuleSetSpec.from_dict(copy.deepcopy(data))
            again = RuleSetSpec.from_dict(json.loads(json.dumps(spec.to_dict())))
            if again != spec:
                return Verdict("defect", "the rule set reads back differently once written")
            if check_ruleset_dict(spec.to_dict()):
                return Verdict(
                    "defect", f"written back refused: {check_ruleset_dict(spec.to_dict())[0]}"
                )
            m = fitting_map(spec)
            if m is None:
                return Verdict("unfit")
            embedded = loads_map(dumps_map(m))
            if embedded.rule_set.spec != spec:
                return Verdict("defect", "a map embedding the rule set reads back differently")
            bots = (("greedy", "random"), ("random", "random"))[seed % 2]
            g = play_checked(m, seed, bots, turns)
            replayed = replay(loads_record(dumps_record(record_of(g))))
            if replayed.state_summary() != g.state_summary():
                return Verdict("defect", "the record of a game replays differently")
            return Verdict("valid")
    except Hang as exc:
        return Verdict("defect", f"hang: {exc}")
    except AssertionError as exc:
        return Verdict("defect", f"accepted, then broken: {exc}")
    except EngineError as exc:
        return Verdict("defect", f"accepted, then refused: {exc}")
    except Exception as exc:  # noqa: BLE001 - that is what a defect is
        return Verdict("defect", _crash(exc))


# -- maps and records that embed generated rule sets ----------------------------------------------


@cache
def _base_map_texts() -> tuple[dict[str, Any], ...]:
    from fuzzlib import map_corpus

    return tuple(json.loads(t) for t in map_corpus() if '"example' not in t[:200])


def embedding_map(rng: random.Random) -> str:
    """The text of a shipped map whose ``rule_set`` is a generated rule set (hostile at times),
    with one to two more mutations of the whole map half of the time."""
    from fuzzlib import mutate_value

    data = copy.deepcopy(rng.choice(_base_map_texts()))
    if rng.random() < 0.5:
        for _ in range(rng.randint(1, 2)):
            data = mutate_value(data, rng)
    if not isinstance(data, dict):
        return json.dumps(data)
    while True:
        data["rule_set"] = ruleset(rng)
        try:  # a rule set nested thousands deep cannot be written by json itself
            return json.dumps(data, ensure_ascii=rng.random() < 0.5)
        except RecursionError:
            continue


@cache
def embedding_record_corpus(size: int = 12, seed: int = 0) -> tuple[str, ...]:
    """Records of short random games on shipped maps embedding generated, accepted rule sets
    (the map embedded in the record)."""
    rng = random.Random(seed)
    texts: list[str] = []
    while len(texts) < size:
        d = _plain(rng)
        if check_ruleset_dict(d):
            continue
        m = fitting_map(RuleSetSpec.from_dict(d))
        if m is None:
            continue
        g = Game(m, players=2, seed=len(texts))
        for _ in range(rng.randint(8, 30)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_moves().list()))
        texts.append(dumps_record(record_of(g, embed_map=True)))
    return tuple(texts)


# -- the rule language's run ----------------------------------------------------------------


def marked_map(spec: RuleSetSpec, base: str, rng: random.Random) -> MapDef:
    """The preset's shipped map with the spec's marks printed on a few free squares."""
    m = load_map(bundled_map(base))
    m.rule_set = EmbeddedRuleSet(spec)
    if spec.marks:
        free = sorted(m.placeable_squares() - set(m.start_squares) - set(m.towns))
        for sq in rng.sample(free, min(12, len(free))):
            m.marks[sq] = MarkSquare(rng.choice(spec.marks).id)
    return m


class Figures:
    """What a run of the rule language's generator did."""

    def __init__(self) -> None:
        self.accepted = self.refused = self.games = 0
        self.tally: Counter[str] = Counter()
        self.defects: list[str] = []

    def __str__(self) -> str:
        t = self.tally
        return (
            f"rule sets accepted {self.accepted}, rules or sets refused {self.refused}; games "
            f"{self.games}, moves {t['moves']}, offered actions checked {t['checked']}, "
            f"choices by other players {t['others']}; defects {len(self.defects)}"
        )


def prune(d: dict[str, Any], figures: Figures) -> bool:
    """Drop the rules the checker refuses (each refusal counted); whether the rest is valid."""
    for _ in range(4):
        problems = check_ruleset_dict(d)
        if any("\n" in str(p) or len(str(p)) > 400 for p in problems):
            figures.defects.append(f"{d['name']}: a problem of several lines")
        if not problems:
            return bool(d["rules"])
        bad = {int(x) for p in problems for x in re.findall(r"^rules\[(\d+)\]", p.path)}
        figures.refused += len(bad) or 1
        if not bad:
            return False
        d["rules"] = [r for i, r in enumerate(d["rules"]) if i not in bad]
    return False


def run(
    n: int, start: int = 0, turns: int = 40, progress: bool = False, others: float = 0.5
) -> Figures:
    """Generate and play ``n`` rule sets from seed ``start`` (``others``: the share of rules
    given a drawn chooser, see :func:`language`)."""
    figures = Figures()
    for seed in range(start, start + n):
        if progress and seed > start and (seed - start) % 25 == 0:
            print(f"after {seed - start} seeds: {figures}", flush=True)
        rng = random.Random(seed)
        d = lang_ruleset(rng, others)
        if not prune(d, figures):
            continue
        figures.accepted += 1
        spec = RuleSetSpec.from_dict(d)
        base = PRESET_MAPS.get(spec.based_on or "", "deutschland")
        m = marked_map(spec, base, rng)
        bot = rng.choice(["random", "greedy"])
        seats = rng.choice([2, 2, 3])  # three: 'each_other' asks two players in turn
        figures.games += 1
        try:
            play_checked(m, seed, (bot,) * seats, turns, figures.tally)
        except AssertionError as exc:
            figures.defects.append(f"seed {seed}: {exc}")
        except Exception as exc:  # noqa: BLE001 - a crash is a defect to report, with its seed
            figures.defects.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    return figures


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    share = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5  # rules with a drawn chooser
    result = run(count, first, progress=True, others=share)
    print(result)
    for line in result.defects[:20]:
        print(line)
