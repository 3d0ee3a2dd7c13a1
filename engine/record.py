"""Game records: the map, options, seed, players and every action, as JSON (:mod:`engine.replaying`
rebuilds the game).

A record stores actions, never positions (like a PGN): the state is always rebuilt by replaying,
so a record saved mid-game continues exactly where it stopped.

File format (``schemas/game-record.schema.json``)::

    {"format": "carcassonne-game-record", "format_version": 1,
     "map": null | {"path": "maps/x.json"} | {"embedded": {...map_to_dict...}},
     "options": {...GameOptions...}, "seed": 7, "players": ["Red", "Blue"],
     "draw_order": [...] (optional), "end_after_turns": N (optional),
     "actions": [{"type": "place", "x": 3, "y": 4, "rotation": 90, "meeple": "N"}, ...],
     "result": {...} (optional, informative: scores when saved)}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import boundedio
from engine.errors import EngineError, RecordError
from engine.gameoptions import GameOptions
from engine.mapio import load_map, map_to_dict
from engine.resources import bundled_map, maps_dir
from engine.schemacheck import bundled_validator, schema_message

if TYPE_CHECKING:
    from engine.game import Game

FORMAT = "carcassonne-game-record"
FORMAT_VERSION = 1
MAX_RECORD_BYTES = boundedio.LIMITS["record"]
"""Record files larger than this are refused before parsing (a full game is about 20 kB)."""
MAX_ACTIONS = 20_000
"""Most actions a record may hold (a game of the largest tile pool has a few thousand);
checked before the schema check, so an oversized record is refused at once."""


@dataclass
class GameRecord:
    """Everything needed to replay a game."""

    options: GameOptions
    seed: int = 0
    players: list[str] = field(default_factory=lambda: ["Red", "Blue"])
    actions: list[dict[str, Any]] = field(default_factory=list)
    """Actions in their JSON form (parsed against the game's rule modules when replayed)."""
    map_path: str | None = None
    map_data: dict[str, Any] | None = None
    """The embedded map (``engine.mapio.map_to_dict``); wins over ``map_path``."""
    result: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        opts = self.options.to_dict()
        out: dict[str, Any] = {"format": FORMAT, "format_version": FORMAT_VERSION}
        if self.map_data is not None:
            out["map"] = {"embedded": self.map_data}
        elif self.map_path is not None:
            out["map"] = {"path": self.map_path}
        else:
            out["map"] = None
        draw_order = opts.pop("draw_order")
        end = opts.pop("end_after_turns")
        out["options"] = opts
        out["seed"] = self.seed
        out["players"] = list(self.players)
        if draw_order is not None:
            out["draw_order"] = draw_order
        if end is not None:
            out["end_after_turns"] = end
        out["actions"] = list(self.actions)
        if self.result is not None:
            out["result"] = self.result
        return out

    @classmethod
    def from_dict(cls, data: Any, *, source: str = "<data>") -> GameRecord:
        """Read a record; :class:`RecordError` names the source and the bad field."""
        _schema_check(data, source)
        try:
            opts_data = dict(data.get("options") or {})
            if "draw_order" in data:
                opts_data["draw_order"] = data["draw_order"]
            if "end_after_turns" in data:
                opts_data["end_after_turns"] = data["end_after_turns"]
            options = GameOptions.from_dict(opts_data)
        except (EngineError, TypeError) as exc:
            raise RecordError(f"{source}: options: {exc}") from None
        m = data.get("map")
        return cls(
            options=options,
            seed=int(data.get("seed", 0)),
            players=[str(p) for p in data["players"]],
            actions=list(data["actions"]),
            map_path=m.get("path") if isinstance(m, dict) else None,
            map_data=m.get("embedded") if isinstance(m, dict) else None,
            result=data.get("result"),
        )


def _schema_check(data: Any, source: str) -> None:
    if not isinstance(data, dict):
        raise RecordError(f"{source}: a game record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"{source}: format: not a game record (expected {FORMAT!r})")
    version = data.get("format_version")
    if version != FORMAT_VERSION or isinstance(version, bool | float):
        raise RecordError(
            f"{source}: format_version: {str(version)[:40]!r} is not supported (this engine "
            f"reads {FORMAT_VERSION})"
        )
    actions = data.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise RecordError(
            f"{source}: actions: {len(actions)} actions, more than a game can have "
            f"(at most {MAX_ACTIONS})"
        )
    bad = boundedio.unstorable(data)
    if bad is not None:
        raise RecordError(f"{source}: {bad[0][2:] or '(top)'}: {bad[1]}")
    errors = sorted(
        bundled_validator("game-record").iter_errors(data), key=lambda e: [str(p) for p in e.path]
    )
    if errors:
        err = errors[0]
        path = "/".join(str(p) for p in err.absolute_path) or "(top)"
        raise RecordError(f"{source}: {path}: {schema_message(err)}")


def record_of(game: Game, *, embed_map: bool | None = None) -> GameRecord:
    """The record of ``game`` so far. The map is embedded unless the game knows its file
    (``Game(map_path=...)``) and ``embed_map`` is not ``True``."""
    data = None
    if game.map is not None and (embed_map or (embed_map is None and game.map_path is None)):
        data = map_to_dict(game.map, inline_rule_set=True)
    return GameRecord(
        options=game.options,
        seed=game.seed,
        players=list(game.players),
        actions=[a.to_dict() for a in game.history],
        map_path=game.map_path if data is None else None,
        map_data=data,
        result={
            "turn": game.turn,
            "over": game.is_over(),
            "scores": list(game.scores),
        },
    )


def dumps_record(record: GameRecord) -> str:
    """The record as JSON text (deterministic: sorted map keys are the map writer's job)."""
    return json.dumps(record.to_dict(), indent=1, ensure_ascii=False) + "\n"


def loads_record(text: str, *, source: str = "<data>") -> GameRecord:
    """Read a record from text; a map path in it is taken relative to the current folder, which
    it may not leave (see :func:`map_file_of`)."""
    rec = _loads(text, source)
    if rec.map_path is not None and rec.map_data is None:
        rec = replace(rec, map_path=str(map_file_of(rec.map_path, Path.cwd() / "record")))
    return rec


def _loads(text: str, source: str) -> GameRecord:
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(
            f"{source}: the record is too large (at most {MAX_RECORD_BYTES // 1024 // 1024} MB)"
        )
    try:
        data = boundedio.parse_json(text, source)
    except boundedio.InputFileError as exc:
        raise RecordError(str(exc)) from None
    return GameRecord.from_dict(data, source=source)


def load_record(path: str | Path) -> GameRecord:
    """Read a record file; :class:`RecordError` with one clear line on any problem.

    A map path in it is resolved against the record's folder, which it may not leave (a shipped
    map is named by its file name: ``maps/france.json``); see :func:`map_file_of`.
    """
    try:
        text = boundedio.read_text(path, limit=MAX_RECORD_BYTES, what="game record")
    except boundedio.InputFileError as exc:
        raise RecordError(str(exc)) from None
    source = boundedio.shown(os.fspath(path))
    rec = _loads(text, source)
    if rec.map_path is not None and rec.map_data is None:
        rec = replace(rec, map_path=str(map_file_of(rec.map_path, path)))
    return rec


def map_file_of(written: str, record_file: str | os.PathLike[str]) -> Path:
    """The map file a record at ``record_file`` names with ``written``.

    Relative to the record's folder and inside it; otherwise, a path whose file name is a shipped
    map's (``maps/france.json``) means that shipped map. Anything else is refused with a
    :class:`RecordError` saying so (the map can still be opened by hand).
    """

    try:
        inside = boundedio.inside_folder(written, record_file, what="map")
    except boundedio.InputFileError as exc:
        inside = None
        refusal = exc
    if inside is not None and inside.is_file():
        return inside
    name = Path(written).name
    shipped = bundled_map(Path(name).stem)
    if name.endswith(".json") and shipped.name == name and shipped.is_file():
        return shipped
    if inside is None:
        raise RecordError(f"map: {refusal}") from None
    return inside  # reading it reports "no such file"


def _portable_map(record: GameRecord, path: Path) -> GameRecord:
    """``record`` with its map path relative to ``path``'s folder, or the map embedded when the
    file lies elsewhere (a record may only name a map in its own folder, or a shipped map)."""
    if record.map_path is None or record.map_data is not None:
        return record

    target = Path(record.map_path).resolve()
    folder = path.resolve().parent
    if target.is_relative_to(folder):
        return replace(record, map_path=target.relative_to(folder).as_posix())
    if target.parent == maps_dir().resolve():
        return replace(record, map_path=f"maps/{target.name}")

    try:
        data = map_to_dict(load_map(target), inline_rule_set=True)
    except EngineError as exc:
        raise RecordError(f"cannot embed the map of the record: {exc}") from None
    return replace(record, map_path=None, map_data=data)


def save_record(record: GameRecord, path: str | Path) -> None:
    """Write atomically (temp file in the same folder, then rename). A map path is written
    relative to the record's folder; a map outside it is embedded (see :func:`map_file_of`)."""

    p = Path(path)
    boundedio.write_text_atomically(p, dumps_record(_portable_map(record, p)))


__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "GameRecord",
    "dumps_record",
    "load_record",
    "loads_record",
    "record_of",
    "save_record",
]
