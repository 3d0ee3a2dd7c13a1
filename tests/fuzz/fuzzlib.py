"""Mutation fuzzing of map files and game records: the corpus, the mutators and the verdicts.

Used by the bounded suite in ``tests/fuzz/`` (CI) and by ``benchmarks/fuzz_long.py`` (long runs).

The corpus is built from what ships: every map in ``maps/`` and game records of a few seeded
random games on them (a record naming its map file, one embedding it, one on the classic board).
A mutant is the text of a corpus file with one to three mutations, either of the JSON value
(delete a key, replace a value by a nasty one such as ``3.0``, ``-0.0``, ``1e308``, a long string,
a deep list, a wrong type; duplicate, drop or splice list entries; add keys) or of the text (cut
it short, flip or insert bytes, delete or repeat a span).

Every mutant gets one verdict (:class:`Verdict`):

* ``refused``: the loader refused it with its own error type, naming where (the source, or for
  records also the action, the map or the setup);
* ``invalid``: it loaded and the validator reports errors (a clean verdict too);
* ``valid``: it loaded, validates clean, and a game on it starts and plays a few moves (maps), or
  the record replays and its re-saved record replays identically (records);
* ``defect``: anything else: another exception type, a hang over the time limit, a message
  without a location, a map that validates clean but cannot be played, a map that loads but
  cannot be saved, a ``validator-failure`` issue.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import signal
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engine.errors import EngineError, MapFormatError
from engine.game import Game
from engine.mapio import _loads, dumps_map
from engine.record import dumps_record, loads_record, record_of
from engine.replaying import replay
from engine.resources import shipped_maps
from engine.validation import Severity, validate_map

SOURCE = "<fuzz>"


@dataclass(frozen=True)
class Verdict:
    kind: str
    """``refused``, ``invalid``, ``valid`` or ``defect``."""
    detail: str = ""


class Hang(Exception):  # noqa: N818 - raised by the alarm
    pass


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in the main thread after ``seconds`` (SIGALRM)."""

    def alarm(_signum: int, _frame: object) -> None:
        raise Hang(f"no answer after {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _crash(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)[-2:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
    return f"{type(exc).__name__}: {str(exc)[:200]} [{where}]"


# -- the corpus ---------------------------------------------------------------------------------


def _standalone_text(path: Path) -> str:
    """A shipped map's text, with a rule set it names by file embedded: the fuzzer reads texts,
    and a text alone has no folder to find the file in."""
    text = path.read_text(encoding="utf-8")
    rule_set = json.loads(text).get("rule_set")
    if not (isinstance(rule_set, dict) and set(rule_set) == {"file"}):
        return text
    from engine.mapio import load_map, map_to_dict

    return json.dumps(map_to_dict(load_map(path), inline_rule_set=True), indent=1) + "\n"


@cache
def map_corpus() -> tuple[str, ...]:
    """The text of every shipped map (standing alone: see :func:`_standalone_text`)."""
    return tuple(_standalone_text(p) for p in shipped_maps())


@cache
def record_corpus() -> tuple[str, ...]:
    """Records of seeded random games: by map path, embedded, and on the classic board."""
    from engine.mapio import load_map

    texts: list[str] = []
    for i, path in enumerate(shipped_maps()):
        m = load_map(path)
        rng = random.Random(i)
        g = Game(m, seed=i, map_path=f"maps/{path.name}")
        for _ in range(rng.randint(6, 14)):
            if g.is_over():
                break
            g.play(rng.choice(g.legal_moves().list()))
        texts.append(dumps_record(record_of(g)))
        if i < 2:
            texts.append(dumps_record(record_of(g, embed_map=True)))
    g = Game(None, seed=5)
    rng = random.Random(5)
    for _ in range(10):
        g.play(rng.choice(g.legal_moves().list()))
    texts.append(dumps_record(record_of(g)))
    return tuple(texts)


# -- mutations ----------------------------------------------------------------------------------

NASTY: tuple[Callable[[random.Random], Any], ...] = (
    lambda r: 0,
    lambda r: -1,
    lambda r: 3.0,
    lambda r: -0.0,
    lambda r: 0.5,
    lambda r: 1e308,
    lambda r: 10**30,
    lambda r: r.randint(-2000, 2000),
    lambda r: True,
    lambda r: None,
    lambda r: "",
    lambda r: "x" * r.choice([1, 300, 5000, 30000]),
    lambda r: "..",
    lambda r: "../../etc/passwd",
    lambda r: "/dev/zero",
    lambda r: "\u202e\ud7ff名",
    lambda r: [],
    lambda r: {},
    lambda r: [[[[[]]]]],
    lambda r: [{"x": 0, "y": 0}] * r.choice([1, 50, 2000]),
    lambda r: {"x": r.randint(-3, 50), "y": r.randint(-3, 50)},
    lambda r: r.choice(["N", "E", "S", "W", "city", "road", "field", "land", "stack"]),
    lambda r: r.choice(["none", "france", "benelux", "great_britain", "iberica", "deutschland"]),
    lambda r: r.choice(["purple", "light_blue", "orange", "red"]),
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        # long lists: a sample of positions keeps this cheap
        idx = range(len(value)) if len(value) <= 12 else sorted({0, 1, len(value) - 1})
        for i in idx:
            yield from _paths(value[i], (*prefix, i))


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


def mutate_value(data: Any, rng: random.Random) -> Any:
    """``data`` (a JSON value, changed in place and returned) with one structural mutation."""
    paths = list(_paths(data))
    path = rng.choice(paths)
    target = _get(data, path)
    parent = _get(data, path[:-1]) if path else None
    op = rng.randrange(9)
    if op == 0 and parent is not None:  # delete
        del parent[path[-1]]
    elif op in (1, 2) and parent is not None:  # replace by something nasty
        parent[path[-1]] = rng.choice(NASTY)(rng)
    elif op == 3 and isinstance(target, list) and target:  # duplicate entries
        target.extend(copy.deepcopy(rng.choice(target)) for _ in range(rng.choice([1, 2, 40])))
    elif op == 4 and isinstance(target, list) and target:  # drop a slice
        a = rng.randrange(len(target))
        del target[a : a + rng.randint(1, 5)]
    elif op == 5 and isinstance(target, dict):  # add a key
        target[rng.choice(["extra", "x", "y", "name", "id", "kind", "path"])] = rng.choice(NASTY)(
            rng
        )
    elif op == 6 and parent is not None:  # splice another subtree here
        other = _get(data, rng.choice(paths))
        parent[path[-1]] = copy.deepcopy(other)
    elif op == 7 and isinstance(target, int | float) and not isinstance(target, bool):
        parent_value = rng.choice([target + 1, target - 1, -target, target * 1000, float(target)])
        if parent is not None:
            parent[path[-1]] = parent_value
    elif op == 8 and isinstance(target, str) and parent is not None:
        parent[path[-1]] = target[: rng.randint(0, len(target))] + rng.choice(
            ["", "#", ".", "\x00"]
        )
    else:
        if parent is not None:
            parent[path[-1]] = rng.choice(NASTY)(rng)
    return data


def mutate_text(text: str, rng: random.Random) -> str:
    """``text`` with one textual mutation (cut, flip, insert, delete or repeat a span)."""
    if not text:
        return "{"
    op = rng.randrange(5)
    i = rng.randrange(len(text))
    if op == 0:
        return text[:i]
    if op == 1:
        return text[:i] + rng.choice('{}[]",:0-.e\\\x00 ') + text[i + 1 :]
    if op == 2:
        return (
            text[:i] + rng.choice(['"', "[" * 50, "1e999", "NaN", "\ufeff", "\\ud800"]) + text[i:]
        )
    j = min(len(text), i + rng.randint(1, 40))
    if op == 3:
        return text[:i] + text[j:]
    return text[:j] + text[i:j] * rng.randint(1, 3) + text[j:]


def mutant(corpus: tuple[str, ...], rng: random.Random) -> str:
    """A mutant of a random corpus text: 1-3 structural mutations, or one textual one."""
    text = rng.choice(corpus)
    if rng.random() < 0.25:
        return mutate_text(text, rng)
    data = json.loads(text)
    for _ in range(rng.randint(1, 3)):
        data = mutate_value(data, rng)
    return json.dumps(data, ensure_ascii=rng.random() < 0.5)


# -- verdicts -----------------------------------------------------------------------------------


def _play_a_little(m: Any, seed: int) -> None:
    g = Game(m, seed=seed)
    rng = random.Random(seed)
    for _ in range(3):
        if g.is_over():
            break
        g.play(rng.choice(g.legal_moves().list()))


def check_map(text: str, *, limit: float = 5.0, seed: int = 0) -> Verdict:
    """The verdict on one map file text (see the module docstring)."""
    try:
        with time_limit(limit):
            try:
                m, _issues = _loads(text, SOURCE)
            except MapFormatError as exc:
                if not str(exc).startswith(f"{SOURCE}: "):
                    return Verdict("defect", f"message without a location: {exc}")
                return Verdict("refused", str(exc))
            issues = validate_map(m)
            failures = [i for i in issues if i.code == "validator-failure"]
            if failures:
                return Verdict("defect", f"validator failure: {failures[0].message[:300]}")
            try:
                dumps_map(m)
            except MapFormatError as exc:
                return Verdict("defect", f"loads but cannot be saved: {exc}")
            if any(i.severity is Severity.ERROR for i in issues):
                return Verdict("invalid")
            try:
                _play_a_little(m, seed)
            except EngineError as exc:
                return Verdict("defect", f"validates clean but cannot be played: {exc}")
            return Verdict("valid")
    except Hang as exc:
        return Verdict("defect", f"hang: {exc}")
    except Exception as exc:  # noqa: BLE001 - that is what a defect is
        return Verdict("defect", _crash(exc))


_RECORD_WHERE = (SOURCE, "action ", "map:", "cannot set the game up:")


def check_record(text: str, *, limit: float = 5.0) -> Verdict:
    """The verdict on one game record text."""
    try:
        with time_limit(limit):
            try:
                record = loads_record(text, source=SOURCE)
                game = replay(record)
            except EngineError as exc:
                if not str(exc).startswith(_RECORD_WHERE):
                    return Verdict("defect", f"message without a location: {exc}")
                return Verdict("refused", str(exc))
            again = replay(loads_record(dumps_record(record_of(game)), source=SOURCE))
            if again.state_summary() != game.state_summary():
                return Verdict("defect", "the re-saved record replays differently")
            return Verdict("valid")
    except Hang as exc:
        return Verdict("defect", f"hang: {exc}")
    except Exception as exc:  # noqa: BLE001
        return Verdict("defect", _crash(exc))
