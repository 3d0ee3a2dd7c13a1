"""What a browser is sent: the position as plain JSON, and for the player to move their choices.

The browser draws only what this says and proposes only actions listed here (each as the
engine's own JSON form, sent back unchanged); the host's engine checks whatever comes back.
"""

from __future__ import annotations

import time
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any

from engine import Draw, Game, Move, Pass, Phase
from engine.record import record_of
from mapeditor.online import art
from mapeditor.online.table import Table
from mapeditor.playtest import rule_view

LOG_SENT = 80
"""Log lines in each state (the host keeps more; a reconnecting page gets these)."""

_PHASE_WORDS = {
    Phase.DRAW: "draw a tile or take another action",
    Phase.PLACE: "place the tile",
    Phase.ACTION: "take an action or pass",
    Phase.AFTER: "take an action or end the turn",
}


@cache
def _chip_hex(colour: str | None) -> str:
    from mapeditor.playtest.board_scene import chip_colour

    return str(chip_colour(colour).name())


def designer(g: Game, resources: list[rule_view.ResourceView]) -> dict[str, Any]:
    """The designer's marks on the map (``[x, y, mark id]``) and the kinds of marks and of
    ``resources`` (:func:`~mapeditor.playtest.rule_view.resources`), each as
    ``{"name", "colour", "icon"}`` by id: icons by name only (the page draws them from
    ``/static/icons.svg``). Bounded by the map's squares and the rule set's entries."""
    spec = g.map.rule_set.spec if g.map is not None else None
    marks = sorted(g.map.marks.items()) if g.map is not None else []
    kinds = spec.marks if spec is not None else ()
    return {
        "marks": [[x, y, mk.mark] for (x, y), mk in marks],
        "mark_kinds": {k.id: {"name": k.name, "colour": k.colour, "icon": k.icon} for k in kinds},
        "resource_kinds": {
            r.id: {"name": r.name, "colour": r.colour, "icon": r.icon} for r in resources
        },
    }


def board(table: Table) -> dict[str, Any]:
    """The part of the state every recipient shares."""
    g = table.game
    now = time.time()
    views = rule_view.pieces(g)
    meeples = []
    for mid, (player, sq, loc, _node, _s) in sorted(g.meeples.items()):
        placed = g.board.tiles.get(sq)
        if placed is None:
            continue  # on the Isle of Man: counted below
        u, v = art.spot(g, placed.tile_id, placed.rotation, loc)
        upgraded = mid in views.upgraded or g.meeple_strength(mid) > 1
        meeples.append([player, round(sq[0] + u, 3), round(sq[1] + v, 3), upgraded])
    out = g.outcome() if g.is_over() else None
    bot = table.bot_turn(now)
    held = rule_view.chips_held_by_all(g)
    resources = rule_view.resources(g)
    players = []
    for i, (name, seat) in enumerate(zip(g.players, table.seats, strict=True)):
        clock = table.clock_left(i, now) if i == g.decider else None
        players.append(
            {
                "name": name,
                "colour": seat.colour,
                "kind": seat.kind,
                "score": g.scores[i],
                "meeples": g.supply[i],
                "here": seat.is_bot or seat.connections > 0,
                "stand_in": bot is not None and bot.stand_in and bot.player == i,
                "clock": None if clock is None else round(clock),
                "held": [[c, v] for c, v in held[i]],
                "isle": views.isle_meeples.get(i, 0),
                "resources": [[r.id, r.held[i] if i < len(r.held) else 0] for r in resources],
            }
        )
    last = g.last_placement
    return {
        "type": "state",
        "game": table.game_id,
        "actions": len(g.history),
        "turn": g.turn,
        "phase": g.phase.value,
        "phase_words": _PHASE_WORDS.get(g.phase, ""),
        "to_move": g.to_move,
        "decider": g.decider,
        "tile": g.current_tile,
        "tiles_left": g.tiles_left(),
        "over": g.is_over(),
        "winners": list(out.winners) if out is not None else [],
        "players": players,
        "tiles": [[sq[0], sq[1], t, r] for sq, t, r in g.placed_tiles()],
        "last": list(last[0]) if last is not None else None,
        "meeples": meeples,
        "chips": [[c.square[0], c.square[1], _chip_hex(c.colour), c.value] for c in views.chips],
        "stacks": [[s.square[0], s.square[1], s.count] for s in views.stacks],
        **designer(g, resources),
        "log": list(table.log)[-LOG_SENT:],
        "chat": list(table.chat),
    }


def _label(g: Game, action: Any) -> str:
    from mapeditor.playtest.describe import describe_action

    if isinstance(action, Pass):
        if g.decider != g.to_move:
            return "Decline"  # a rule asked this player for a choice inside another's turn
        return "End turn" if g.phase is Phase.AFTER else "No action (score and go on)"
    if isinstance(action, Draw):
        return "Draw a tile face down"
    return describe_action(action)


def _square_of(action: Any) -> list[int] | None:
    if not is_dataclass(action):
        return None
    names = {f.name for f in fields(action)}
    sq = getattr(action, "square", None) if "square" in names else None
    return [int(sq[0]), int(sq[1])] if isinstance(sq, tuple) else None


def choices(table: Table) -> dict[str, Any]:
    """The legal choices of the player to move: tile placements with their meeple spots, and
    every other action the engine offers (the rule set's chips, extra turns, upgrades, passes)
    with a label."""
    g = table.game
    placements: dict[tuple[int, int, int], list[list[Any]]] = {}
    actions = []
    tile = g.current_tile
    for a in g.legal_moves():
        if isinstance(a, Move):
            spots = placements.setdefault((a.square[0], a.square[1], a.rotation), [])
            if a.meeple is not None and tile is not None:
                u, v, role = art.spot_and_role(g, tile, a.rotation, a.meeple)
                spots.append([a.meeple, u, v, role])
            continue
        actions.append({"label": _label(g, a), "action": a.to_dict(), "square": _square_of(a)})
    return {
        "placements": [[x, y, r, spots] for (x, y, r), spots in placements.items()],
        "actions": actions,
    }


def history(table: Table, since: int) -> dict[str, Any]:
    """The game's actions from action ``since`` on, for a client that replays them on its own
    copy of the game (the Studio's playtest window, :mod:`mapeditor.online.remote`). From 0 it
    also carries the record's head (map, options, seed, players): everything a replay needs.
    The record holds nothing a state does not show: the seed is in the first log line."""
    g = table.game
    since = min(since, len(g.history))
    out: dict[str, Any] = {
        "type": "record",
        "since": since,
        "actions": [a.to_dict() for a in g.history[since:]],
    }
    if since == 0:
        # embedded: a client never reads a path of the host's
        head = record_of(g, embed_map=True).to_dict()
        head["actions"] = []
        out["record"] = head
    return out
