"""One online game: the engine game (the referee), its seats, log and chat; no networking.

Every action comes in through :meth:`Table.act`, which checks who sends it and that it answers
the position the sender saw, then lets the engine check the action itself. A refused action
raises :class:`TableError` and changes nothing. The server (:mod:`mapeditor.online.server`) saves
the table after every action and tells the browsers; bots choose in a worker process and their
choices come in through :meth:`Table.act` like anyone's.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, Game, GameRecord
from engine.moves import Move, action_from_dict
from mapeditor.online.seats import TAKEOVER_BOT, SeatState

MAX_LOG = 400
"""Log lines kept (and sent) per table."""
MAX_CHAT = 60
"""Chat lines kept per table."""


class TableError(Exception):
    """An action or message refused; the message says why. The table is unchanged."""


@dataclass
class TableOptions:
    """How a table treats absent and slow players."""

    takeover_after: float | None = 60.0
    """Seconds a human seat may stay disconnected before a bot plays for it (``None``: never,
    as in correspondence play, where players come and go)."""
    move_clock: float | None = None
    """Seconds a human may take for one turn before a bot plays that turn (``None``: no clock;
    Board Game Arena's turn-based tables give hours)."""

    def to_dict(self) -> dict[str, Any]:
        return {"takeover_after": self.takeover_after, "move_clock": self.move_clock}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        return cls(takeover_after=data.get("takeover_after"), move_clock=data.get("move_clock"))


@dataclass
class BotTurn:
    """A bot is due to act for ``player`` at the position with ``actions`` actions."""

    player: int
    actions: int
    kind: str
    strength: int
    stand_in: bool
    """A bot playing for an absent or timed-out human."""


@dataclass
class Table:
    """A game of one map with its seats."""

    game_id: str
    game: Game
    seats: list[SeatState]
    spectator_token: str
    options: TableOptions = field(default_factory=TableOptions)
    log: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_LOG))
    chat: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=MAX_CHAT))
    version: int = 0
    """Bumped on every change that browsers should see (actions, presence, chat)."""

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.game.players):
            raise EngineError(
                f"{self.game_id}: {len(self.seats)} seats for {len(self.game.players)} players"
            )
        if not self.log:
            self.log.append(self.intro())
        self.start_turn(time.time())

    # -- who is who -------------------------------------------------------------------------------

    def seat_of(self, token: str) -> int | None:
        """The seat a join token opens, ``-1`` for the spectator token, ``None`` for neither."""
        import hmac

        for i, seat in enumerate(self.seats):
            if not seat.is_bot and hmac.compare_digest(seat.token, token):
                return i
        if hmac.compare_digest(self.spectator_token, token):
            return -1
        return None

    def intro(self) -> str:
        g = self.game
        who = ", ".join(
            f"{s.name} ({'human' if not s.is_bot else s.kind + ' bot'})" for s in self.seats
        )
        rules = ", ".join(r.name for r in g.rules) or "plain Maps"
        where = g.map.name if g.map is not None else "the classic table"
        return f"Game on {where}, seed {g.seed}: {who}; {g.tiles_left()} tiles; rules: {rules}"

    # -- presence ---------------------------------------------------------------------------------

    def joined(self, seat: int) -> None:
        if seat >= 0:
            s = self.seats[seat]
            s.connections += 1
            s.away_since = None
            self.version += 1

    def left(self, seat: int, now: float) -> None:
        if seat >= 0:
            s = self.seats[seat]
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.away_since = now
            self.version += 1

    def start_turn(self, now: float) -> None:
        """Start the clock of the seat that acts (after every action that passes the turn or
        asks another player for a choice inside it, and at start)."""
        for i, s in enumerate(self.seats):
            if i != self.game.decider:
                s.turn_started = None
            elif s.turn_started is None:
                s.turn_started = now

    # -- acting -----------------------------------------------------------------------------------

    def bot_turn(self, now: float) -> BotTurn | None:
        """The bot that should act now, if any (a bot seat, an absent human's stand-in, or the
        stand-in of a human whose move clock ran out)."""
        g = self.game
        if g.is_over():
            return None
        p = g.decider  # the player to move, or a player a rule asks for a choice
        seat = self.seats[p]
        if seat.is_bot:
            return BotTurn(p, len(g.history), seat.kind, seat.strength, stand_in=False)
        if seat.bot_plays(now, self.options.takeover_after) or self.clock_expired(now):
            return BotTurn(p, len(g.history), TAKEOVER_BOT, 3, stand_in=True)
        return None

    def clock_expired(self, now: float) -> bool:
        clock = self.options.move_clock
        started = self.seats[self.game.decider].turn_started
        return clock is not None and started is not None and now - started >= clock

    def clock_left(self, seat: int, now: float) -> float | None:
        clock = self.options.move_clock
        started = self.seats[seat].turn_started
        if clock is None or started is None or self.game.is_over():
            return None
        return max(0.0, clock - (now - started))

    def act(self, seat: int, seen: int, data: dict[str, Any], *, by_bot: bool = False) -> None:
        """Play the action ``data`` (its JSON form) for ``seat``, which saw the position after
        ``seen`` actions.

        :raises TableError: not this seat's turn, a stale position, or an action the engine
            refuses (its reason); the game is unchanged.
        """
        g = self.game
        now = time.time()
        if g.is_over():
            raise TableError("the game is over")
        if seat < 0:
            raise TableError("spectators only watch")
        if seen != len(g.history):
            raise TableError(
                f"that answers an older position (action {seen}; the game is at action "
                f"{len(g.history)})"
            )
        if seat != g.decider:
            if g.decider != g.to_move:
                raise TableError(f"{g.players[g.decider]} is choosing now, not {g.players[seat]}")
            raise TableError(f"it is {g.players[g.to_move]}'s turn, not {g.players[seat]}'s")
        if not by_bot and self.bot_turn(now) is not None:
            raise TableError(f"a bot is playing for {g.players[seat]} now")
        self.apply(seat, data, stand_in=by_bot and not self.seats[seat].is_bot)
        self.start_turn(now)

    def apply(self, seat: int, data: Any, *, stand_in: bool = False) -> None:
        """Play ``data`` for the player who acts (``seat``) and log it: the engine checks it.

        :raises TableError: the engine's reason; the game is unchanged.
        """
        from mapeditor.playtest.describe import describe_move

        g = self.game
        try:
            action = action_from_dict(data, g.rules)
            if not isinstance(action, Move):  # the offered one carries the words players read
                action = next((a for a in g.legal_moves() if a == action), action)
            tile, turn, mover = g.current_tile, g.turn, g.to_move
            events = g.play(action)
        except EngineError as exc:  # IllegalMoveError and RecordError are EngineErrors
            raise TableError(str(exc)) from None
        text = describe_move(g, seat, action, tile)
        if text:
            self.log.append(text + (" (a bot standing in)" if stand_in else ""))
        self.log.extend(f"★ {e.text}" for e in events)
        if g.turn > turn and not g.is_over() and g.to_move == mover:
            self.log.append(f"{g.players[mover]} takes another turn")
        if g.is_over():
            out = g.outcome()
            if out is not None:
                won = " and ".join(g.players[w] for w in out.winners)
                self.log.append(f"Game over: {won} won")
        if g.decider != seat or g.turn > turn:
            self.seats[seat].turn_started = None
        self.version += 1

    def say(self, seat: int, text: str) -> None:
        """A chat line from ``seat``."""
        self.chat.append({"from": self.seats[seat].name, "text": text, "at": round(time.time())})
        self.version += 1

    # -- saving -----------------------------------------------------------------------------------

    def record(self) -> GameRecord:
        rec: GameRecord = self.game.record()
        return rec

    def state(self) -> dict[str, Any]:
        """The table's own state beside the record: seats and tokens, options, chat."""
        return {
            "format": "carcassonne-online-table",
            "format_version": 1,
            "game_id": self.game_id,
            "seats": [s.to_dict() for s in self.seats],
            "spectator_token": self.spectator_token,
            "options": self.options.to_dict(),
            "chat": list(self.chat),
        }
