"""Where a host keeps its games: one folder per table in the host's state folder.

``STATE/<game id>/record.json`` is the game record (``engine.record``, written atomically after
every action: a host killed at any moment leaves the last whole record) and ``table.json`` the
seats with their join tokens, the table options and the chat (written with the same atomic
writer, readable by the owner only: the tokens are the seats' keys). ``map.json`` is a copy of
the map, so the record names a file in its own folder. A restarted host reads every folder back
(:func:`load_tables`) and replays each record through the engine.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import EngineError, GameRecord, MapDef, RecordError, save_map, save_record
from engine.boundedio import InputFileError, read_json
from engine.mapio import write_text_atomically
from engine.record import load_record
from engine.replaying import new_game
from mapeditor.online.seats import KINDS, SeatState
from mapeditor.online.table import Table, TableError, TableOptions

GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
"""A table's id: its folder name and the path segment of its links."""
MAX_TABLE_BYTES = 256 * 1024
"""Largest ``table.json`` read back (seats, options and 60 chat lines are a few kB)."""
TABLE_FORMAT = "carcassonne-online-table"


class StoreError(EngineError):
    """A table folder that cannot be read back; the message names the file and field."""


def game_id_for(m: MapDef | None, taken: set[str]) -> str:
    """A new table id from the map's id or name (``deutschland``, ``deutschland-2``...)."""
    base = re.sub(r"[^a-z0-9]+", "-", str((m.id or m.name) if m else "classic").lower())
    base = base.strip("-")[:32] or "game"
    gid, n = base, 1
    while gid in taken:
        n += 1
        gid = f"{base}-{n}"
    return gid


def save_table(table: Table, state_dir: Path) -> None:
    """Write the record and the table file of ``table`` (atomically, one after the other)."""
    write_snapshot(snapshot(table, state_dir))


@dataclass
class Snapshot:
    """What :func:`save_table` writes, taken at one moment (the writing may happen in another
    thread while the game goes on)."""

    folder: Path
    record: GameRecord
    table_text: str
    game_map: MapDef | None


def snapshot(table: Table, state_dir: Path) -> Snapshot:
    folder = state_dir / table.game_id
    if table.game.map is not None and table.game.map_path is None:
        # the record names the map's copy (without a path it would embed the whole map)
        table.game.map_path = str(folder / "map.json")
    rec = table.record()
    # who sat where, for `engine simulate --humans` (the record's result is informative)
    rec.result = {**(rec.result or {}), "seats": [s.kind for s in table.seats]}
    text = json.dumps(table.state(), indent=1) + "\n"
    return Snapshot(folder, rec, text, table.game.map)


def write_snapshot(snap: Snapshot) -> None:
    """Write a :func:`snapshot`: the map once, the record, and the table file when it changed."""
    snap.folder.mkdir(parents=True, exist_ok=True)
    map_file = snap.folder / "map.json"
    if snap.game_map is not None and not map_file.exists():
        save_map(snap.game_map, map_file)
    save_record(snap.record, snap.folder / "record.json")
    table_file = snap.folder / "table.json"
    if _written.get(table_file) == snap.table_text:
        return  # most actions change the record only
    if not table_file.exists():
        # first write: owner-only, before any token is in it (the atomic writer keeps the mode)
        table_file.touch(mode=0o600)
    write_text_atomically(table_file, snap.table_text)
    _written[table_file] = snap.table_text


_written: dict[Path, str] = {}
"""The text last written to each table file by this process."""


def _field(data: Any, key: str, kind: type, source: str) -> Any:
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise StoreError(f"{source}: {key}: missing or not a {kind.__name__}")
    return value


def load_table(folder: Path) -> Table:
    """Read a table back: its record replayed by the engine, its seats and options.

    :raises StoreError: naming the file and what is wrong (the folder is left as it is).
    """
    source = str(folder / "table.json")
    try:
        data = read_json(folder / "table.json", limit=MAX_TABLE_BYTES, what="table file")
    except InputFileError as exc:
        raise StoreError(str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
        raise StoreError(f"{source}: format: not an online table file")
    gid = _field(data, "game_id", str, source)
    if gid != folder.name or not GAME_ID.match(gid):
        raise StoreError(f"{source}: game_id: {gid[:40]!r} does not match its folder")
    seats = []
    for i, s in enumerate(_field(data, "seats", list, source)):
        try:
            seat = SeatState.from_dict(s)
        except (KeyError, TypeError, ValueError):
            raise StoreError(
                f"{source}: seats/{i}: needs name, colour, kind, strength, token"
            ) from None
        if seat.kind not in KINDS:
            raise StoreError(f"{source}: seats/{i}/kind: unknown kind {seat.kind[:20]!r}")
        seats.append(seat)
    options = TableOptions.from_dict(_field(data, "options", dict, source))
    try:
        record = load_record(folder / "record.json")
    except RecordError as exc:
        raise StoreError(str(exc)) from None
    spectator = _field(data, "spectator_token", str, source)
    table = table_from_record(
        gid, record, seats, spectator, options, source=str(folder / "record.json")
    )
    for line in data.get("chat") or []:
        if isinstance(line, dict):
            table.chat.append(line)
    # nobody is connected to a host that just started: the takeover clock starts now
    now = time.time()
    for s in table.seats:
        s.away_since = None if s.is_bot else now
    table.start_turn(now)
    return table


def table_from_record(
    game_id: str,
    record: GameRecord,
    seats: list[SeatState],
    spectator_token: str,
    options: TableOptions,
    *,
    source: str = "record",
) -> Table:
    """A table whose game is ``record`` replayed (each action checked by the engine and logged).

    :raises StoreError: naming ``source``, the action and the engine's reason.
    """
    try:
        game = new_game(record)
    except RecordError as exc:
        raise StoreError(f"{source}: {exc}") from None
    if len(seats) != len(game.players):
        raise StoreError(f"{source}: {len(game.players)} players, but {len(seats)} seats given")
    table = Table(game_id, game, seats, spectator_token, options)
    for i, action in enumerate(record.actions, start=1):
        try:
            table.apply(game.decider, action)
        except TableError as exc:
            raise StoreError(f"{source}: action {i}: {exc}") from None
    return table


def load_tables(state_dir: Path) -> tuple[list[Table], list[str]]:
    """Every table saved in ``state_dir`` and a sentence for each folder that cannot be read."""
    tables, problems = [], []
    if not state_dir.is_dir():
        return [], []
    for folder in sorted(state_dir.iterdir()):
        if not folder.is_dir() or not GAME_ID.match(folder.name):
            continue
        if not (folder / "table.json").exists():
            continue
        try:
            tables.append(load_table(folder))
        except StoreError as exc:
            problems.append(str(exc))
    return tables, problems


def ensure_private(state_dir: Path) -> None:
    """Create the state folder readable by its owner only (it holds the join tokens)."""
    state_dir.mkdir(parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(state_dir, 0o700)
