"""Generated rule sets, valid and hostile, and the verdict on each: what the checker accepts, the
program runs.

Used by the bounded suite (``tests/fuzz/test_fuzz_rulegen.py``, CI) and the long run
(``benchmarks/fuzz_long.py --rulesets N``).

:func:`ruleset` makes a rule-set dict from the parts :data:`MECHANIC_KINDS` lists, most of them
shaped the way the checker wants and some not (a hostile case: a reserved name, a lone surrogate,
a combination that cannot work, deep nesting, a field left out or of a wrong type). The verdict
(:func:`check_ruleset`) on one dict is

* ``refused``: the checker lists problems, each one line naming its field;
* ``unfit``: accepted, but none of the shipped maps has the prints it needs (the validator says
  so: a clean verdict);
* ``valid``: accepted, written and read back unchanged (file, map embedding it, record of a game
  on it), and bot games on a map with its prints end without a crash, every offered action
  accepted by ``play()``, a refused action changing nothing;
* ``defect``: anything else.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

from fuzzlib import Hang, Verdict, _crash, time_limit

from engine.bots import make_bot
from engine.errors import EngineError, IllegalMoveError
from engine.game import Game, GameOptions
from engine.mapdef import EmbeddedRuleSet, MapDef
from engine.mapio import dumps_map, load_map, loads_map
from engine.moves import Action
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import shipped_maps
from engine.rules.data import MECHANIC_KINDS, RuleSetSpec, check_ruleset_dict
from engine.rules.data.ruleset import COLOUR_ORDER
from engine.validation import Severity, validate_map

HOSTILE = 0.3
"""Share of generated rule sets given one hostile change."""


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


def _deep(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _hostile(d: dict[str, Any], rng: random.Random) -> None:
    which = rng.randrange(9)
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
    else:
        d["unknown"] = {"deep": _deep(rng.randint(1, 30))}


def ruleset(rng: random.Random) -> dict[str, Any]:
    """A generated rule-set dict (hostile with probability :data:`HOSTILE`)."""
    d = _plain(rng)
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
    """Play an action that is not offered: it must be refused with the state unchanged."""
    from engine.moves import Pass

    extra = [a for a in g.legal_moves().list() if not isinstance(a, Pass)]
    probe: Action = Pass() if Pass() not in offered else (extra[-1] if extra else Pass())
    if probe in offered:
        return None
    before = g.state_summary()
    try:
        g.play(probe)
    except IllegalMoveError:
        if g.state_summary() != before:
            return f"a refused {probe} changed the state"
        return None
    return f"{probe} was accepted although not offered"


def play_checked(m: MapDef, seed: int, bots: tuple[str, str], turns: int) -> Game:
    """A game on ``m`` played by ``bots`` through ``play()`` for ``turns`` turns: every action a
    bot chooses must be offered, and one action not offered is refused each turn without a
    change of state; raises :class:`AssertionError` otherwise."""
    g = Game(m, players=2, seed=seed, options=GameOptions(end_after_turns=turns))
    players = [make_bot(b, seed=seed + i) for i, b in enumerate(bots)]
    for _ in range(20 * turns + 200):
        if g.is_over():
            break
        offered = g.legal_moves().list()
        if not offered:
            raise AssertionError(f"turn {g.turn + 1}: nothing offered in phase {g.phase.value}")
        action = players[g.to_move].choose(g)
        if action not in offered:
            raise AssertionError(f"the bot chose {action}, which is not offered")
        problem = _refused_changes_nothing(g, offered)
        if problem:
            raise AssertionError(problem)
        try:
            g.play(action)
        except IllegalMoveError as exc:
            raise AssertionError(f"an offered action was refused: {exc}") from None
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
