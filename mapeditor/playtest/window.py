"""The playtest window: the view of a :class:`~mapeditor.playtest.session.PlaytestSession`.

It works on its own copy of the map (the editor hands over ``document.snapshot()``). The session
holds the game, its record, undo, the bots and save/load; the window draws it, turns clicks and
keys into actions, and asks before a game in progress would be thrown away.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QColor, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDockWidget,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSlider,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from engine.errors import EngineError
from engine.game import Game, Phase
from engine.geometry import Square
from engine.mapdef import MapDef
from engine.moves import Action, Draw, Move, Pass, Placement
from engine.scoring import ScoreEvent
from mapeditor.folders import remember_dir, start_dir
from mapeditor.painting import SQUARE, square_rect
from mapeditor.playtest import aids
from mapeditor.playtest.board_scene import (
    BoardScene,
    callout_positions,
    meeple_role,
    meeple_spot,
)
from mapeditor.playtest.board_view import BoardView
from mapeditor.playtest.bot_worker import BotWorker
from mapeditor.playtest.describe import describe_action
from mapeditor.playtest.game_log import GameLog
from mapeditor.playtest.score_board import ScoreBoard
from mapeditor.playtest.session import LogEntry, PlaytestSession
from mapeditor.playtest.setup import PlaytestSetup, Seat
from mapeditor.playtest.setup_dialog import SetupDialog
from mapeditor.playtest.tile_preview import TilePreview
from mapeditor.playtest.tiles_left_panel import TilesLeftPanel

_PHASE_WORDS = {
    Phase.DRAW: "draw a tile or take another action",
    Phase.PLACE: "place the tile",
    Phase.ACTION: "take an action or pass",
    Phase.AFTER: "take an action or end the turn",
}


def _take_back_label(action: Action) -> str:
    if isinstance(action, Move):
        x, y = action.square
        meeple = " and its meeple" if action.meeple else ""
        return f"Take back the tile at ({x}, {y}){meeple}"
    return f"Take back: {describe_action(action)}"


def _pass_label(phase: Phase, other: bool = False) -> str:
    """The pass button's words (``other``: a player other than the one to move decides)."""
    if other:
        return "Decline"
    return "End turn" if phase is Phase.AFTER else "No action (score and go on)"


class PlaytestWindow(QMainWindow):
    """Play ``m`` with the players of ``setup`` (a setup dialog's default when ``None``).

    Public helpers for tools and tests: :attr:`game`, :meth:`rotate`, :meth:`click_square`
    (what a click does), :meth:`save_to`, :meth:`load_from`, :meth:`undo`.
    """

    game_changed = Signal()
    """After every action, undo, load or new game."""
    game_over = Signal()

    def __init__(
        self,
        m: MapDef,
        setup: PlaytestSetup | None = None,
        parent: QWidget | None = None,
        *,
        pace_ms: int = 700,
        session: PlaytestSession | None = None,
    ) -> None:
        super().__init__(parent)
        if session is None:
            session = PlaytestSession(m, setup, self, pace_ms=pace_ms)
        else:
            session.setParent(self)  # a session made elsewhere (an online game's seat)
        self.session = session
        self.rotation = 0
        self.pending: Placement | None = None
        self.summary: QDialog | None = None
        self.ask_to_keep_game = True
        """Ask before closing or replacing a game with unsaved human play (scripts turn it off)."""
        self._seen: tuple[int, str | None] | None = None
        """(turn, tile) last shown: the tile's rotation starts again when either changes."""
        self._build_ui(pace_ms)
        se = self.session
        se.started.connect(self._on_started)
        se.logged.connect(self._on_logged)
        se.changed.connect(self._on_changed)
        se.finished.connect(self._finished)
        se.thinking.connect(
            lambda p: self.turn_label.setText(f"{self.game.players[p]} is thinking…")
        )
        se.bot_error.connect(lambda message: self.hint.setText(f"The bot failed: {message}"))
        se.begin()

    # -- the session's state (read it here; change it through the session) ----------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def map(self) -> MapDef:
        return self.session.map

    @property
    def seats(self) -> list[Seat]:
        return self.session.seats

    @property
    def setup(self) -> PlaytestSetup:
        return self.session.setup

    @property
    def actors(self) -> list[tuple[int, int]]:
        return self.session.actors

    @property
    def worker(self) -> BotWorker:
        return self.session.worker

    @property
    def skip(self) -> bool:
        return self.session.skip

    @skip.setter
    def skip(self, value: bool) -> None:
        self.session.skip = value

    # -- building ------------------------------------------------------------------------------

    def _build_ui(self, pace_ms: int) -> None:
        self.resize(1280, 860)
        self.scene = BoardScene(self.map, self._colours(), self)
        self.view = BoardView(self.scene)
        self.view.setObjectName("board_view")
        self.view.hovered.connect(self._hovered)
        self.view.clicked.connect(self._clicked)
        self.view.rotate_requested.connect(self.rotate)
        self.view.cancel_requested.connect(self.take_back)

        side = QWidget()
        side.setMinimumWidth(330)
        side.setMaximumWidth(430)
        col = self.side_layout = QVBoxLayout(side)
        self.turn_label = QLabel()
        self.turn_label.setObjectName("turn_label")
        self.turn_label.setWordWrap(True)
        f = self.turn_label.font()
        f.setPointSizeF(f.pointSizeF() * 1.25)
        f.setBold(True)
        self.turn_label.setFont(f)
        col.addWidget(self.turn_label)

        row = QHBoxLayout()
        self.preview = TilePreview()
        self.preview.rotate_requested.connect(self.rotate)
        row.addWidget(self.preview, 1)
        info = QVBoxLayout()
        self.tiles_label = QLabel()
        self.tiles_label.setObjectName("tiles_label")
        self.seed_label = QLabel()
        self.seed_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        rot_left = QPushButton("⟲ Turn left")
        rot_left.clicked.connect(lambda: self.rotate(-1))
        rot_right = QPushButton("⟳ Turn right (R)")
        rot_right.clicked.connect(lambda: self.rotate(1))
        for w in (self.tiles_label, self.seed_label, rot_left, rot_right):
            w.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            info.addWidget(w)
        info.addStretch(1)
        row.addLayout(info)
        col.addLayout(row)

        self.hint = QLabel()
        self.hint.setObjectName("hint")
        self.hint.setWordWrap(True)
        self.hint.setMinimumHeight(36)
        col.addWidget(self.hint)

        self.actions_box = QGroupBox("Actions")
        self.actions_layout = QVBoxLayout(self.actions_box)
        col.addWidget(self.actions_box)

        self.projected_box = QCheckBox("Projected scores (if the game ended now)")
        self.projected_box.setObjectName("projected")
        self.projected_box.setToolTip(
            "Show beside each score what the final scoring would add now "
            "(roads, cities, monasteries and fields still open); the mouse over a row picks "
            "out that player's features"
        )
        self.projected_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.projected_box.toggled.connect(lambda _on: self._refresh())
        col.addWidget(self.projected_box)
        self.score_board = ScoreBoard()
        self.score_board.player_hovered.connect(self._player_hovered)
        col.addWidget(self.score_board)

        bots = self.bots_box = QGroupBox("Bots")
        brow = QHBoxLayout(bots)
        brow.addWidget(QLabel("Pace"))
        self.pace = QSlider(Qt.Orientation.Horizontal)
        self.pace.setObjectName("pace")
        self.pace.setRange(0, 2000)
        self.pace.setSingleStep(100)
        self.pace.setValue(pace_ms)
        self.pace.setToolTip("Pause before each bot action")
        brow.addWidget(self.pace, 1)
        pace_label = QLabel()
        pace_label.setMinimumWidth(36)
        self.pace.valueChanged.connect(lambda v: pace_label.setText(f"{v / 1000:.1f} s"))
        self.pace.valueChanged.connect(lambda v: setattr(self.session, "pace_ms", v))
        pace_label.setText(f"{pace_ms / 1000:.1f} s")
        brow.addWidget(pace_label)
        self.skip_button = QPushButton("Skip to my turn")
        self.skip_button.setObjectName("skip")
        self.skip_button.clicked.connect(self.skip_to_human)
        self.skip_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.pace.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        brow.addWidget(self.skip_button)
        col.addWidget(bots)

        self.log = GameLog()
        self.log.event_hovered.connect(lambda e: self._pick_out(e.squares if e is not None else ()))
        col.addWidget(self.log, 1)

        self.tiles_panel = TilesLeftPanel()
        self.tiles_dock = QDockWidget("Tiles left", self)
        self.tiles_dock.setObjectName("tiles_left_dock")
        self.tiles_dock.setWidget(self.tiles_panel)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.tiles_dock)
        self.tiles_dock.hide()
        self.tiles_dock.visibilityChanged.connect(lambda _v: self._refresh())

        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 0)
        self.setCentralWidget(split)

        menu = self.menuBar().addMenu("&Game")
        self.new_action = self._action(menu, "&New game…", QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.new_game_dialog)
        self.save_action = self._action(menu, "&Save game…", QKeySequence.StandardKey.Save)
        self.save_action.triggered.connect(self._save_dialog)
        self.load_action = self._action(menu, "&Load game…", QKeySequence.StandardKey.Open)
        self.load_action.triggered.connect(self._load_dialog)
        menu.addSeparator()
        self.undo_action = self._action(menu, "&Undo my last turn", QKeySequence.StandardKey.Undo)
        self.undo_action.triggered.connect(self.undo)
        self.take_back_action = self._action(
            menu, "&Take back (within this turn)", QKeySequence(Qt.Key.Key_Backspace)
        )
        self.take_back_action.setToolTip(
            "Take back your last action of this turn, until the turn ends or a draw is seen"
        )
        self.take_back_action.triggered.connect(self.take_back_action_within_turn)
        menu.addSeparator()
        close = self._action(menu, "&Close", QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)
        view_menu = self.menuBar().addMenu("&View")
        fit = self._action(view_menu, "&Whole board", QKeySequence("0"))
        fit.triggered.connect(self.view.fit)
        self.tiles_left_action = self._action(view_menu, "&Tiles left", QKeySequence("T"))
        self.tiles_left_action.setCheckable(True)
        self.tiles_left_action.setToolTip(
            "The tiles still in the pile, and the open squares no tile left can fill (T)"
        )
        self.tiles_left_action.toggled.connect(self.tiles_dock.setVisible)
        self.tiles_dock.visibilityChanged.connect(self.tiles_left_action.setChecked)
        tb = self.addToolBar("Game")
        tb.setObjectName("game_toolbar")
        for a in (
            self.new_action,
            self.save_action,
            self.load_action,
            self.undo_action,
            self.take_back_action,
        ):
            tb.addAction(a)

    def _action(
        self, menu: QMenu, text: str, key: QKeySequence | QKeySequence.StandardKey
    ) -> QAction:
        a = QAction(text, self)
        if isinstance(key, QKeySequence.StandardKey):
            a.setShortcuts(key)  # every binding: Close is Ctrl+W as well as Ctrl+F4
        else:
            a.setShortcut(key)
        menu.addAction(a)
        return a

    def _colours(self) -> list[QColor]:
        return [QColor(s.colour) for s in self.seats]

    # -- game lifecycle ------------------------------------------------------------------------

    def _on_started(self, log: list[LogEntry], fit: bool) -> None:
        """A game is in place (new, undone or loaded): show it from scratch."""
        game = self.game
        if self.scene.map is not self.map:
            self.scene.set_map(self.map)  # a loaded game of another map
        self.rotation = 0
        self.pending = None
        self._seen = (game.turn, game.current_tile)
        if self.summary is not None:
            self.summary.close()
            self.summary = None
        self.scene.colours = self._colours()
        self.scene.set_game(game)
        rules = ", ".join(r.title for r in game.rules if r.title and r.name in game.rule_state)
        self.setWindowTitle(
            f"Playtest: {self.map.name or self.map.id}"
            + (f" ({rules})" if rules else "")
            + f" — seed {game.seed}"
        )
        self.seed_label.setText(f"Seed {game.seed}")
        self.log.clear()
        for entry in log:
            self._on_logged(entry)
        self.hint.clear()
        self._refresh()
        if fit:
            self.view.fit()
        self.view.setFocus()
        self.game_changed.emit()

    def _on_logged(self, entry: LogEntry) -> None:
        if entry.event is not None:
            self.log.add_event(entry.event)
        elif entry.player is not None:
            self.log.add_line(entry.text, self.scene.colour(entry.player), entry.icon)
        elif entry.text.startswith("Bot error:"):
            self.log.add_line(entry.text, QColor("#b00020"))
        else:
            self.log.add_line(entry.text)

    def _on_changed(self) -> None:
        g = self.game
        if (g.turn, g.current_tile) != self._seen:
            self.rotation = 0
            self._seen = (g.turn, g.current_tile)
        self.pending = None
        self._refresh()
        self.game_changed.emit()

    def new_game(self, setup: PlaytestSetup) -> None:
        """Start a new game with ``setup`` (raises EngineError if it does not fit the map)."""
        self.session.new_game(setup)

    def has_unsaved_play(self) -> bool:
        """See :meth:`PlaytestSession.has_unsaved_play`."""
        return self.session.has_unsaved_play()

    def keep_or_discard(self, doing: str) -> bool:
        """Before ``doing`` throws the game away: ask to save it. ``False`` cancels the caller."""
        if not self.ask_to_keep_game or not self.has_unsaved_play():
            return True
        B = QMessageBox.StandardButton
        answer = QMessageBox.question(
            self,
            "Game in progress",
            f"The game is not finished. Save the game record before you {doing}?",
            B.Save | B.Discard | B.Cancel,
            B.Save,
        )
        if answer == B.Save:
            return self._save_dialog()
        return answer == B.Discard

    def new_game_dialog(self) -> None:
        if not self.keep_or_discard("start a new game"):
            return
        dlg = SetupDialog(self.map, self.setup, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.new_game(dlg.setup())

    # -- playing -------------------------------------------------------------------------------

    def current_seat(self) -> Seat:
        return self.session.current_seat()

    def human_to_move(self) -> bool:
        return self.session.human_to_move()

    def play(self, action: Action) -> list[ScoreEvent]:
        """Play ``action`` for the player to move (checked). Returns the scoring events.

        :raises IllegalMoveError: the state is unchanged.
        """
        return self.session.play(action)

    def rotate(self, direction: int = 1) -> None:
        """Turn the current tile by 90° (``direction`` +1 clockwise, -1 counter-clockwise)."""
        if self.game.current_tile is None or not self.human_to_move():
            return
        if self.pending is not None:
            # in the meeple step: turn the tile on its square to the next rotation that fits
            fits = self.scene.overlay.fits.get(self.pending.square, set())
            rot = self.pending.rotation
            for _ in range(4):
                rot = (rot + 90 * direction) % 360
                if rot in fits:
                    break
            self.rotation = rot
            self._put_down(Placement(self.pending.square, rot))
            return
        self.rotation = (self.rotation + 90 * direction) % 360
        self._refresh()

    def take_back(self) -> None:
        """Leave the meeple step: pick the tile up again."""
        if self.pending is not None:
            self.pending = None
            self._refresh()

    def click_square(self, square: tuple[int, int], point: QPointF | None = None) -> bool:
        """What a left click on ``square`` does; returns whether it did something."""
        g = self.game
        if not self.human_to_move() or self.worker.busy:
            return False
        ov = self.scene.overlay
        target = self.square_actions().get(square) if square in ov.targets else None
        if target is not None:
            self.play(target)
            return True
        if g.phase is not Phase.PLACE or g.current_tile is None:
            return False
        if self.pending is not None:
            if point is not None:
                loc = self.scene.spot_at(point)
                if loc is None and square == self.pending.square:
                    loc = self._feature_location(point)
                if loc is not None:
                    self.play(Move(self.pending.square, self.pending.rotation, loc))
                    return True
            if square != self.pending.square:
                self.hint.setText("Choose a meeple spot, “No meeple”, or Esc to pick the tile up")
            return False
        placement = Placement(square, self.rotation)
        if placement not in g.legal_placements():
            why = g.why_illegal(Move(square, self.rotation))
            others = sorted(ov.fits.get(square, set()))
            extra = ""
            if others:
                extra = " — it fits turned " + ", ".join(f"{r}°" for r in others)
            self.hint.setText(f"Not there: {why}{extra}")
            return False
        self._put_down(placement)
        return True

    def _feature_location(self, point: QPointF) -> str | None:
        """The offered meeple location of the feature drawn under ``point`` on the pending tile
        (a click anywhere on a road or field works, not just on its spot)."""
        from mapeditor.tile_painter import segment_at

        g = self.game
        tile = g.current_tile
        if self.pending is None or tile is None:
            return None
        sq, rot = self.pending.square, self.pending.rotation
        seg = segment_at(g.tileset[tile], rot, square_rect(sq), point)
        if seg is None:
            return None
        name = g.board.oriented(tile, rot).location_of(seg)
        return name if name in self.scene.overlay.spots else None

    def _put_down(self, placement: Placement) -> None:
        g = self.game
        tile = g.current_tile
        assert tile is not None
        locations = g.meeple_locations(placement)
        if not locations:
            self.play(Move(placement.square, placement.rotation, None))
            return
        self.pending = placement
        self.scene.overlay.spots = {
            loc: meeple_spot(g, tile, placement.rotation, placement.square, loc)
            for loc in locations
        }
        self.scene.overlay.spot_labels = {
            loc: meeple_role(g, tile, placement.rotation, loc)[0] for loc in locations
        }
        self.scene.overlay.callouts = callout_positions(placement.square, self.scene.overlay.spots)
        self.hint.setText("Place a meeple on a marked spot, or “No meeple”")
        self._refresh()

    def spot_text(self, location: str) -> str:
        """``"Knight on the city (click to place)"``: what a meeple spot offers."""
        g = self.game
        if self.pending is None or g.current_tile is None:
            return ""
        role, kind = meeple_role(g, g.current_tile, self.pending.rotation, location)
        return f"{role} on the {kind} (click to place)"

    def no_meeple(self) -> None:
        if self.pending is not None:
            self.play(Move(self.pending.square, self.pending.rotation, None))

    def _hovered(self, square: tuple[int, int] | None, point: QPointF) -> None:
        ov = self.scene.overlay
        if self.pending is not None:
            spot = self.scene.spot_at(point) if square is not None else None
            if spot != ov.spot_hover:
                ov.spot_hover = spot
                self.scene.update_overlay(
                    [square_rect(self.pending.square).adjusted(-SQUARE, -SQUARE, SQUARE, SQUARE)]
                )
                text = self.spot_text(spot) if spot is not None else ""
                self.view.viewport().setToolTip(text)
                self.hint.setText(text or "Place a meeple on a marked spot, or “No meeple”")
            return
        if square == ov.hover:
            return
        rects = [square_rect(s) for s in (ov.hover, square) if s is not None]
        ov.hover = square
        self.scene.update_overlay(rects)

    def _clicked(self, square: tuple[int, int], point: QPointF) -> None:
        self.click_square(square, point)

    # -- bots ----------------------------------------------------------------------------------

    def skip_to_human(self) -> None:
        """Let the bots play without pauses until a human is to move."""
        self.session.skip_to_human()

    def _cancel_bot(self) -> None:
        self.session.cancel_bot()

    # -- display -------------------------------------------------------------------------------

    def _refresh(self) -> None:
        g = self.game
        ov = self.scene.overlay
        before = ov.looks()
        human = self.human_to_move()
        tile = g.current_tile
        ov.tile = tile
        ov.rotation = self.pending.rotation if self.pending else self.rotation
        ov.pending = (self.pending.square, self.pending.rotation) if self.pending else None
        if self.pending is None:
            ov.spots = {}
            ov.spot_labels = {}
            ov.callouts = {}
            ov.spot_hover = None
        ov.fits = {}
        if human and g.phase is Phase.PLACE:
            for p in g.legal_placements():
                ov.fits.setdefault(p.square, set()).add(p.rotation)
        ov.targets = {sq: describe_action(a) for sq, a in self.square_actions().items()}
        ov.unfillable = (
            frozenset(aids.unfillable_squares(g))
            if self.tiles_dock.isVisibleTo(self) and not g.is_over()
            else frozenset()
        )
        # the overlay covers the whole board: repaint it only when it changed
        self.scene.refresh(overlay=ov.looks() != before)
        self.preview.show_tile(
            g.tileset[tile] if tile is not None else None,
            ov.rotation if human else 0,
        )
        self.tiles_label.setText(f"Tiles left: {g.tiles_left()}")
        name = g.players[g.decider]
        if g.is_over():
            out = g.outcome()
            assert out is not None
            winners = " and ".join(g.players[w] for w in out.winners)
            self.turn_label.setText(f"Game over — {winners} won")
        elif human and g.decider != g.to_move:  # a rule asks this player inside another's turn
            self.turn_label.setText(f"{name}, your choice in {g.players[g.to_move]}'s turn")
        elif human:
            step = "place a meeple or not" if self.pending else _PHASE_WORDS.get(g.phase, "")
            self.turn_label.setText(f"{name}, your turn: {step}")
        else:
            self.turn_label.setText(f"{name} ({self.current_seat().label()}) to play")
        if human and self.pending is None and g.phase is Phase.PLACE:
            fits_now = any(self.rotation in r for r in ov.fits.values())
            self.hint.setText(
                "Click a highlighted square to place the tile"
                if fits_now
                else "The tile fits nowhere at this rotation: turn it (R, wheel, right-click)"
            )
        elif not human or g.phase is not Phase.PLACE:
            self.hint.clear()  # the placing hint is over once the tile is down
        projected = g.projected_scores() if self.projected_box.isChecked() else None
        self.score_board.show_game(g, self._colours(), [s.label() for s in self.seats], projected)
        if self.tiles_dock.isVisibleTo(self):
            self.tiles_panel.show_game(g, len(ov.unfillable))
        self._rebuild_actions()
        self.undo_action.setEnabled(self.session.undo_target() is not None)
        can = self.pending is None and self.session.can_take_back()
        self.take_back_action.setEnabled(can)
        self.take_back_action.setText(
            _take_back_label(g.history[-1]) if can else "Take back (this turn)"
        )
        self.save_action.setEnabled(True)

    def _rebuild_actions(self) -> None:
        lay = self.actions_layout
        while lay.count():
            item = lay.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.setParent(None)
                w.deleteLater()
        g = self.game
        buttons: list[QPushButton] = []
        if self.human_to_move():
            if self.pending is not None:
                b = QPushButton("No meeple")
                b.setObjectName("no_meeple")
                b.clicked.connect(self.no_meeple)
                buttons.append(b)
                b = QPushButton("Pick the tile up again (Esc)")
                b.setObjectName("take_back")
                b.clicked.connect(self.take_back)
                buttons.append(b)
            elif g.phase is not Phase.PLACE:
                on_board = self.square_actions()
                many = len(on_board) > 6
                if many:
                    label = describe_action(next(iter(on_board.values())))
                    note = QLabel(f"Click a marked square: {label.split(' ')[0].lower()} …")
                    note.setObjectName("board_note")
                    lay.addWidget(note)
                for action in g.legal_moves():
                    if isinstance(action, Move):
                        continue
                    if many and action in on_board.values():
                        continue  # too many for buttons: clicked on the board
                    label = (
                        _pass_label(g.phase, g.decider != g.to_move)
                        if isinstance(action, Pass)
                        else "Draw a tile face down"
                        if isinstance(action, Draw)
                        else describe_action(action)
                    )
                    b = QPushButton(label)
                    b.setProperty("action", str(action))
                    b.clicked.connect(lambda _=False, a=action: self._play_button(a))
                    buttons.append(b)
        for b in buttons:
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys (R, Esc) stay with the board
            lay.addWidget(b)
        self.actions_box.setVisible(lay.count() > 0)

    def action_buttons(self) -> list[QPushButton]:
        """The buttons offered now (tests, tools)."""
        items = (self.actions_layout.itemAt(i) for i in range(self.actions_layout.count()))
        widgets = [item.widget() for item in items if item is not None]
        return [w for w in widgets if isinstance(w, QPushButton)]

    def square_actions(self) -> dict[tuple[int, int], Action]:
        """Rule actions of the human to move that are named by a square alone (a treat spot, an
        island stack): they are played by clicking that square on the board."""
        g = self.game
        if not self.human_to_move() or g.phase not in (Phase.DRAW, Phase.ACTION, Phase.AFTER):
            return {}
        found: dict[tuple[int, int], list[Action]] = {}
        legal: list[Action] = g.legal_moves().list()
        for action in legal:
            if isinstance(action, Move) or not is_dataclass(action):
                continue
            # only actions that a square alone names (other fields at their defaults, e.g. no
            # chip values to choose: more choices need a button)
            names = [f.name for f in fields(action)]
            if "square" not in names or any(
                f.default is MISSING or getattr(action, f.name) != f.default
                for f in fields(action)
                if f.name != "square"
            ):
                continue
            sq = getattr(action, "square", None)
            if isinstance(sq, tuple):
                found.setdefault(sq, []).append(action)
        return {sq: acts[0] for sq, acts in found.items() if len(acts) == 1}

    def _play_button(self, action: Action) -> None:
        if not self.human_to_move() or action not in self.game.legal_moves():
            return
        self.play(action)

    # -- aids ------------------------------------------------------------------------------------

    def _pick_out(self, squares: tuple[Square, ...] | set[Square]) -> None:
        """Pick out ``squares`` on the board (a feature under the mouse in the log or the
        score board); nothing when empty."""
        ov = self.scene.overlay
        new = frozenset(squares)
        if new != ov.highlight:
            ov.highlight = new
            self.scene.update_overlay()

    def _player_hovered(self, player: int | None) -> None:
        self._pick_out(aids.held_squares(self.game, player) if player is not None else ())

    # -- undo, save, load ------------------------------------------------------------------------

    def take_back_action_within_turn(self) -> bool:
        """Take back the last action of this turn (the tile and its meeple, a chip...), never
        after another player's move or a draw (see :meth:`PlaytestSession.can_take_back`)."""
        if self.pending is not None:
            return False  # Esc picks the tile up first
        return self.session.take_back()

    def undo(self) -> bool:
        """Take back the last human turn (and every bot action after it); the view keeps its
        zoom. Returns whether something was undone."""
        return self.session.undo()

    def save_to(self, path: str | Path) -> None:
        """Save the game record (the map embedded) to ``path``."""
        self.session.save_to(path)

    def load_from(self, path: str | Path) -> None:
        """Load a saved game and continue it (see :meth:`PlaytestSession.load_from`).

        :raises EngineError: (RecordError) naming the file and what is wrong; nothing changes.
        """
        self.session.load_from(path)

    def _save_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save game",
            str(start_dir() / f"{self.map.id}-game.json"),
            "Game records (*.json)",
        )
        if not path:
            return False
        remember_dir(Path(path))
        try:
            self.save_to(path)
        except OSError as exc:
            QMessageBox.warning(self, "Save game", f"{path}: {exc.strerror or exc}")
            return False
        return True

    def _load_dialog(self) -> None:
        if not self.keep_or_discard("load another game"):
            return
        path, _ = QFileDialog.getOpenFileName(
            self, "Load game", str(start_dir()), "Game records (*.json)"
        )
        if path:
            remember_dir(Path(path))
            try:
                self.load_from(path)
            except EngineError as exc:
                QMessageBox.warning(self, "Load game", str(exc))

    # -- the end -------------------------------------------------------------------------------

    def summary_rows(self) -> tuple[list[str], list[list[str]]]:
        """The final scoring table (see :meth:`PlaytestSession.summary_rows`)."""
        return self.session.summary_rows()

    def _finished(self) -> None:
        g = self.game
        out = g.outcome()
        assert out is not None
        winners = " and ".join(g.players[w] for w in out.winners)
        self.log.add_line(f"Game over: {winners} won with {max(out.scores)} points")
        header, rows = self.summary_rows()
        dlg = QDialog(self)
        dlg.setWindowTitle("Final scoring")
        lay = QVBoxLayout(dlg)
        title = QLabel(f"<h2>{winners} won</h2>")
        title.setObjectName("winners")
        lay.addWidget(title)
        table = QTableWidget(len(rows), len(header))
        table.setObjectName("summary_table")
        table.setHorizontalHeaderLabels(header)
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                table.setItem(r, c, QTableWidgetItem(text))
        table.resizeColumnsToContents()
        lay.addWidget(table)
        ok = QPushButton("Close")
        ok.clicked.connect(dlg.close)
        lay.addWidget(ok)
        dlg.resize(720, 140 + 30 * len(rows))
        self.summary = dlg
        dlg.show()
        self.game_over.emit()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.keep_or_discard("close the window"):
            event.ignore()
            return
        if self.summary is not None:
            self.summary.close()  # a top-level dialog of its own: it would outlive the window
        self.session.close()
        super().closeEvent(event)
