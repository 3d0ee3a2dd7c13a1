"""A playtest session: the game, its record, undo, bot scheduling, save and load; no widgets.

:class:`PlaytestSession` holds the engine :class:`~engine.game.Game` as the only game state and
rebuilds it from its record for undo and loading, so every position shown is one the engine
reached by legal play. Bots think on a copy in a worker (:mod:`mapeditor.playtest.bot_worker`).
The window (:mod:`mapeditor.playtest.window`) is a view of it: it listens to the signals below and
turns clicks into :meth:`PlaytestSession.play`. Tests drive a session without any window.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from engine.errors import EngineError, IllegalMoveError
from engine.game import Game
from engine.mapdef import MapDef
from engine.moves import Action, action_from_dict
from engine.record import GameRecord, load_record, save_record
from engine.replaying import new_game
from engine.scoring import KINDS, ScoreEvent
from mapeditor.playtest import rule_view
from mapeditor.playtest.bot_worker import BotWorker, TileWarmer, next_token
from mapeditor.playtest.describe import describe_action, describe_move
from mapeditor.playtest.setup import DEFAULT_COLOURS, PlaytestSetup, Seat, default_setup

Chance = tuple[int, int, str | None, int]
"""What a draw changes (:func:`_chance`)."""


def _chance(g: Game) -> Chance:
    """What a draw changes: the pile's size, the random generator's state, the tile in hand and
    the chips lying face down on the board."""
    face_down = sum(1 for c in rule_view.pieces(g).chips if c.value is None)
    return len(g.pile), hash(g.rng.getstate()), g.current_tile, face_down


def _revealed(before: Chance, g: Game) -> bool:
    """Whether the action just played on ``g`` showed something hidden (a tile from the pile or
    a stack, a face-down chip, anything random): it may not be taken back, or the same thing
    would be drawn again, and a player could look before choosing."""
    pile, rng, tile, face_down = before
    now = _chance(g)
    return (
        now[0] != pile
        or now[1] != rng
        or (now[2] is not None and now[2] != tile)
        or now[3] < face_down
    )


@dataclass(frozen=True)
class LogEntry:
    """One line of the game log: a move (by ``player``), a scoring ``event``, or a note."""

    text: str
    player: int | None = None
    event: ScoreEvent | None = None
    icon: tuple[str, str] | None = None
    """The designer's icon of what the line is about: its name and colour."""


class PlaytestSession(QObject):
    """Play ``m`` with the seats of ``setup`` (the default setup when ``None``)."""

    started = Signal(object, bool)
    """A game was put in place (new, undone or loaded): its log (list of :class:`LogEntry`)
    and whether the view should show the whole board (not after an undo)."""
    logged = Signal(object)
    """A :class:`LogEntry` to append."""
    changed = Signal()
    """After every action (the game moved on)."""
    finished = Signal()
    """The game is over."""
    thinking = Signal(int)
    """A bot (this player) started thinking."""
    bot_error = Signal(str)

    def __init__(
        self,
        m: MapDef,
        setup: PlaytestSetup | None = None,
        parent: QObject | None = None,
        *,
        pace_ms: int = 700,
    ) -> None:
        super().__init__(parent)
        self.map = m
        self.setup = setup or default_setup(m)
        self.seats: list[Seat] = list(self.setup.seats)
        self.game: Game = self.setup.make_game(m)
        self.actors: list[tuple[int, int]] = []
        """``(player, turn)`` of every action in ``game.history`` (for undo)."""
        self.revealed: list[bool] = []
        """Whether each action in ``game.history`` showed a draw (see :meth:`can_take_back`)."""
        self.pace_ms = pace_ms
        """Pause before each bot action."""
        self.skip = False
        """Bots play without pauses until a human is to move."""
        self._saved_actions = 0
        """How many actions the last save or load held (unsaved play is asked about)."""
        self._waiting: int | None = None
        self.worker = BotWorker(self)
        self.worker.chosen.connect(self._bot_chose)
        self.worker.failed.connect(self._bot_failed)
        self.warmer = TileWarmer(self)
        self._bot_timer = QTimer(self)
        self._bot_timer.setSingleShot(True)
        self._bot_timer.timeout.connect(self._ask_bot)

    # -- lifecycle --------------------------------------------------------------------------------

    def begin(self) -> None:
        """Show the first game (call once the view listens)."""
        self._start(self.game, [], None)

    def _start(
        self,
        game: Game,
        actors: list[tuple[int, int]],
        log: list[LogEntry] | None,
        *,
        fit: bool = True,
        revealed: list[bool] | None = None,
    ) -> None:
        self.cancel_bot()
        self.game = game
        self.actors = actors
        self.revealed = revealed if revealed is not None else [False] * len(actors)
        self._saved_actions = len(actors)
        self.skip = False
        self.warmer.warm(game)
        self.started.emit(log if log is not None else [LogEntry(self.intro())], fit)
        self.schedule_bot()

    def intro(self) -> str:
        g = self.game
        players = ", ".join(
            f"{n} ({s.label()})" for n, s in zip(g.players, self.seats, strict=False)
        )
        rules = [r.name for r in g.rules]
        return (
            f"New game on {self.map.name or self.map.id}, seed {g.seed}: {players}; "
            f"{g.tiles_left()} tiles; rules: {', '.join(rules) or 'plain Maps'}"
        )

    def new_game(self, setup: PlaytestSetup) -> None:
        """Start a new game with ``setup`` (raises EngineError if it does not fit the map)."""
        game = setup.make_game(self.map)
        self.setup = setup
        self.seats = list(setup.seats)
        self._start(game, [], None)

    def close(self) -> None:
        """Stop the bots (the window is closing)."""
        self.cancel_bot()
        self.warmer.stop()
        self.worker.close()

    # -- playing ----------------------------------------------------------------------------------

    def current_seat(self) -> Seat:
        """The seat that acts now: the player to move's, or that of a player a rule asks for
        a choice inside the turn (``Game.decider``)."""
        return self.seats[self.game.decider]

    def human_to_move(self) -> bool:
        return not self.game.is_over() and not self.current_seat().is_bot

    def play(self, action: Action) -> list[ScoreEvent]:
        """Play ``action`` for the player to move (checked). Returns the scoring events.

        :raises IllegalMoveError: the state is unchanged.
        """
        g = self.game
        player, mover, turn, tile = g.decider, g.to_move, g.turn, g.current_tile
        held = rule_view.resources(g)
        chance = _chance(g)
        events = g.play(action)
        self.actors.append((player, turn))
        self.revealed.append(_revealed(chance, g))
        self.logged.emit(LogEntry(describe_move(g, player, action, tile), player))
        for who, line, drawn in rule_view.resource_lines(g, held):
            self.logged.emit(LogEntry(line, who, icon=drawn))
        final_shown = False
        for e in events:
            if e.final and not final_shown:
                self.logged.emit(LogEntry("Final scoring:"))
                final_shown = True
            self.logged.emit(LogEntry(f"   ★ {e.text}", event=e))
        if g.turn > turn and not g.is_over() and g.to_move == mover:
            self.logged.emit(LogEntry(f"{g.players[mover]} takes another turn"))
        self.changed.emit()
        if g.is_over():
            self.finished.emit()
        else:
            self.schedule_bot()
        return events

    # -- bots -------------------------------------------------------------------------------------

    def skip_to_human(self) -> None:
        """Let the bots play without pauses until a human is to move."""
        self.skip = True
        if self._bot_timer.isActive():
            self._bot_timer.stop()
            self._ask_bot()

    def schedule_bot(self) -> None:
        if self.game.is_over() or not self.current_seat().is_bot:
            self.skip = False
            return
        self._bot_timer.start(0 if self.skip else self.pace_ms)

    def _ask_bot(self) -> None:
        g = self.game
        if g.is_over() or not self.current_seat().is_bot or self.worker.busy:
            return
        token = next_token()
        self._waiting = token
        seat = self.current_seat()
        who = g.decider
        self.thinking.emit(who)
        self.worker.request(token, g, who, seat.kind, seat.strength, g.seed * 31 + who)

    def cancel_bot(self) -> None:
        self._bot_timer.stop()
        self._waiting = None
        self.worker.forget()

    def use_worker(self, worker: BotWorker) -> None:
        """Let ``worker`` think for the bots from now on (the old one is closed)."""
        self.worker.chosen.disconnect(self._bot_chose)
        self.worker.failed.disconnect(self._bot_failed)
        self.worker.close()
        self.worker = worker
        worker.chosen.connect(self._bot_chose)
        worker.failed.connect(self._bot_failed)

    def _bot_chose(self, token: int, action: object) -> None:
        if token != self._waiting:
            # a stale answer (undo, load or new game meanwhile); the position moved on
            self.schedule_bot()
            return
        self._waiting = None
        try:
            self.play(action)  # type: ignore[arg-type]
        except IllegalMoveError as exc:
            self._bot_failed(token, str(exc))

    def _bot_failed(self, token: int, message: str) -> None:
        if token != self._waiting and self._waiting is not None:
            return
        self._waiting = None
        self.logged.emit(LogEntry(f"Bot error: {message}", event=None, player=None))
        self.bot_error.emit(message)

    # -- undo, save, load ---------------------------------------------------------------------------

    def humans(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if not s.is_bot}

    def undo_target(self) -> int | None:
        """Index of the first action of the last human turn (``None``: nothing to undo)."""
        humans = self.humans()
        if not humans:
            return None
        idx = next(
            (i for i in range(len(self.actors) - 1, -1, -1) if self.actors[i][0] in humans), None
        )
        if idx is None:
            return None
        j = idx
        while j > 0 and self.actors[j - 1] == self.actors[idx]:
            j -= 1
        return j

    def undo(self) -> bool:
        """Take back the last human turn (and every bot action after it) by replaying the
        record without them. Returns whether something was undone."""
        target = self.undo_target()
        if target is None:
            return False
        self._cut(target)
        self.logged.emit(LogEntry("(undone to the start of your last turn)"))
        return True

    def can_take_back(self) -> bool:
        """Whether the last action can be taken back within the turn: a human played it in the
        turn still going on, and it showed nothing drawn (JCloisterZone's undo: never after
        another player's move or a draw)."""
        g = self.game
        return (
            bool(self.actors)
            and not g.is_over()
            and self.actors[-1] == (g.to_move, g.turn)
            and not self.current_seat().is_bot
            and not self.revealed[-1]
        )

    def take_back(self) -> bool:
        """Take back the last action of this turn (see :meth:`can_take_back`) by replaying the
        record without it. Returns whether something was taken back."""
        if not self.can_take_back():
            return False
        last = describe_action(self.game.history[-1])
        self._cut(len(self.actors) - 1)
        self.logged.emit(LogEntry(f"(taken back: {last})"))
        return True

    def _cut(self, upto: int) -> None:
        """Go back to the position after the record's first ``upto`` actions. Play not saved
        stays not saved: a game taken back is still one to ask about before it is closed."""
        saved = self._saved_actions
        self.rebuild(self.game.record(), upto, fit=False)
        self._saved_actions = min(saved, upto)

    def rebuild(self, record: GameRecord, upto: int | None = None, *, fit: bool = True) -> None:
        """Replay ``record`` (its first ``upto`` actions) into a fresh game and show it."""
        game = new_game(record)
        actors: list[tuple[int, int]] = []
        revealed: list[bool] = []
        log: list[LogEntry] = []
        actions = record.actions if upto is None else record.actions[:upto]
        for i, data in enumerate(actions, start=1):
            action = action_from_dict(data, game.rules)
            player, turn, tile = game.decider, game.turn, game.current_tile
            held = rule_view.resources(game)
            chance = _chance(game)
            try:
                events = game.play(action)
            except IllegalMoveError as exc:
                raise EngineError(f"action {i}: {exc}") from None
            actors.append((player, turn))
            revealed.append(_revealed(chance, game))
            log.append(LogEntry(describe_move(game, player, action, tile), player))
            log.extend(
                LogEntry(t, who, icon=drawn)
                for who, t, drawn in rule_view.resource_lines(game, held)
            )
            log.extend(LogEntry(f"   ★ {e.text}", event=e) for e in events)
        self._start(game, actors, log, fit=fit, revealed=revealed)

    def has_unsaved_play(self) -> bool:
        """A game in progress, with a human seat, played on since it was started, saved or loaded.

        A game of bots alone is not asked about: its seed replays it exactly."""
        return (
            not self.game.is_over()
            and bool(self.humans())
            and len(self.actors) > self._saved_actions
        )

    def save_to(self, path: str | Path) -> None:
        """Save the game record (the map embedded) to ``path``."""
        save_record(self.game.record(), path)
        self._saved_actions = len(self.actors)
        self.logged.emit(LogEntry(f"Saved to {path}"))

    def load_from(self, path: str | Path) -> bool:
        """Load a saved game and continue it. Seats keep their kinds when the player names
        match the current game; otherwise the first player is human and the others greedy bots.
        Returns whether the map changed.

        :raises EngineError: (RecordError) naming the file and what is wrong; nothing changes.
        """
        record = load_record(path)
        names = list(record.players)
        if names != [s.name for s in self.seats]:
            seats = [
                Seat(n, DEFAULT_COLOURS[i % 6], "human" if i == 0 else "greedy")
                for i, n in enumerate(names)
            ]
        else:
            seats = self.seats
        game_map = new_game(record).map
        old = (self.map, self.seats, self.setup)
        new_map = game_map is not None and game_map != self.map
        try:
            if game_map is not None and new_map:
                self.map = game_map
            self.seats = seats
            self.setup = PlaytestSetup(seats=seats, seed=record.seed, options=record.options)
            self.rebuild(record)
        except EngineError:
            self.map, self.seats, self.setup = old
            raise
        self.logged.emit(LogEntry(f"Loaded {path}"))
        return new_map

    # -- the end ----------------------------------------------------------------------------------

    def summary_rows(self) -> tuple[list[str], list[list[str]]]:
        """The final scoring table: header and one row per player (kinds, at the end, total)."""
        g = self.game
        kinds = list(KINDS) + sorted({k for b in g.breakdown for k in b if k not in KINDS})
        final = [0] * len(g.players)
        for e in g.events:
            if e.final:
                for p in e.players:
                    final[p] += e.points
        header = ["Player", *[k.replace("_", " ") for k in kinds], "of which at the end", "Total"]
        rows = []
        for p, name in enumerate(g.players):
            b = g.breakdown[p]
            rows.append([name, *[str(b.get(k, 0)) for k in kinds], str(final[p]), str(g.scores[p])])
        return header, rows
