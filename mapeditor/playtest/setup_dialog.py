"""The playtest's setup dialog: edits a :class:`~mapeditor.playtest.setup.PlaytestSetup`."""

from __future__ import annotations

import random
from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from engine.errors import EngineError
from engine.mapdef import MapDef, UnreadableRuleSet
from mapeditor.dialog_buttons import ok_cancel
from mapeditor.playtest.setup import (
    BOT_KINDS,
    POOLS,
    PlaytestSetup,
    Seat,
    default_seats,
    default_setup,
    rule_set_available,
    rule_set_title,
)
from mapeditor.remembered import Field, remember_fields

STRENGTH_TIP = (
    "Monte-Carlo bot strength: 1-3 play loosely, like a beginner; 4-7 search more and more; "
    "8 is the default bot (beats the greedy bot in most games); 9-10 think longer still. "
    "See docs/bots.md for each level's win rates."
)
"""The strength box's tooltip: what the levels mean."""


class _SeatRow:
    """The widgets of one seat in the dialog."""

    def __init__(self, grid: QGridLayout, row: int, seat: Seat) -> None:
        self.colour = seat.colour
        self.name = QLineEdit(seat.name)
        self.name.setObjectName(f"seat_name_{row}")
        self.colour_button = QPushButton()
        self.colour_button.setFixedWidth(36)
        self.colour_button.setObjectName(f"seat_colour_{row}")
        self.colour_button.clicked.connect(self._pick_colour)
        self.kind = QComboBox()
        self.kind.setObjectName(f"seat_kind_{row}")
        for key, label in BOT_KINDS.items():
            self.kind.addItem(label, key)
        self.kind.setCurrentIndex(list(BOT_KINDS).index(seat.kind))
        self.strength = QSpinBox()
        self.strength.setRange(1, 10)
        self.strength.setValue(seat.strength)
        self.strength.setPrefix("strength ")
        self.strength.setToolTip(STRENGTH_TIP)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.widgets: list[QWidget] = [self.name, self.colour_button, self.kind, self.strength]
        for col, w in enumerate(self.widgets):
            grid.addWidget(w, row, col)
        self._paint_colour()
        self._kind_changed()

    def _kind_changed(self) -> None:
        self.strength.setEnabled(self.kind.currentData() == "mcts")

    def _paint_colour(self) -> None:
        self.colour_button.setStyleSheet(f"background-color: {self.colour};")
        self.colour_button.setToolTip(f"meeple colour {self.colour}")

    def _pick_colour(self) -> None:
        from PySide6.QtWidgets import QColorDialog

        c = QColorDialog.getColor(QColor(self.colour), self.colour_button, "Meeple colour")
        if c.isValid():
            self.colour = c.name()
            self._paint_colour()

    def set_visible(self, on: bool) -> None:
        for w in self.widgets:
            w.setVisible(on)

    def seat(self) -> Seat:
        return Seat(
            self.name.text().strip(),
            self.colour,
            str(self.kind.currentData()),
            self.strength.value(),
        )


class SetupDialog(QDialog):
    """Edit a :class:`PlaytestSetup` for a map: players, start squares, tiles, rules, seed."""

    def __init__(
        self, m: MapDef, setup: PlaytestSetup | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Playtest {m.name or m.id}: setup")
        self.map = m
        base = setup or default_setup(m)
        opts = base.options
        layout = QVBoxLayout(self)

        # players
        box = QGroupBox("Players")
        grid = QGridLayout(box)
        self.player_count = QSpinBox()
        self.player_count.setObjectName("player_count")
        self.player_count.setRange(2, 6)
        grid.addWidget(QLabel("Number of players"), 0, 0, 1, 2)
        grid.addWidget(self.player_count, 0, 2)
        seats = list(base.seats) + default_seats(6)[len(base.seats) :]
        self.rows = [_SeatRow(grid, i + 1, seat) for i, seat in enumerate(seats[:6])]
        self.player_count.valueChanged.connect(self._count_changed)
        self.player_count.setValue(len(base.seats))
        self._count_changed()
        layout.addWidget(box)

        # the game
        form_box = QGroupBox("Game")
        form = QFormLayout(form_box)
        used = m.setup.start_squares_used
        self.starts_auto = QCheckBox(f"Random start squares, as the map says ({used} used)")
        self.starts_auto.setObjectName("starts_auto")
        self.starts = QListWidget()
        self.starts.setObjectName("start_squares")
        self.starts.setMaximumHeight(90)
        chosen = set(opts.start_squares or ())
        for sq, start in sorted(m.start_squares.items()):
            item = QListWidgetItem(f"{start.name or 'start'} ({sq[0]}, {sq[1]})")
            item.setData(Qt.ItemDataRole.UserRole, sq)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if sq in chosen else Qt.CheckState.Unchecked)
            self.starts.addItem(item)
        self.starts_auto.setChecked(opts.start_squares is None)
        self.starts_auto.toggled.connect(lambda on: self.starts.setEnabled(not on))
        self.starts.setEnabled(opts.start_squares is not None)
        form.addRow(self.starts_auto)
        form.addRow("Start squares (first gets the start tile)", self.starts)

        self.pool = QComboBox()
        self.pool.setObjectName("tile_pool")
        for name in POOLS:
            self.pool.addItem(name, name)
        self.pool.setCurrentIndex(POOLS.index(opts.tile_pool or "base+ic+tb"))
        self.tile_count = QSpinBox()
        self.tile_count.setObjectName("tile_count")
        self.tile_count.setRange(0, 200)
        self.tile_count.setSpecialValueText("as the map recommends")
        self.tile_count.setValue(opts.tile_count or 0)
        pool_row = QHBoxLayout()
        pool_row.addWidget(self.pool)
        pool_row.addWidget(QLabel("tiles:"))
        pool_row.addWidget(self.tile_count)
        form.addRow("Tile pool", pool_row)

        self.meeples = QSpinBox()
        self.meeples.setObjectName("meeples")
        self.meeples.setRange(1, 30)
        self.meeples.setValue(opts.meeples or m.setup.meeples_per_player)
        form.addRow("Meeples per player", self.meeples)

        self.farmers = QCheckBox("Farmers")
        self.farmers.setChecked(opts.farmers)
        form.addRow(self.farmers)

        rule_set = m.rule_set.name
        self.chips = QCheckBox(f"Map-Chips rules ({rule_set_title(m)})")
        self.chips.setObjectName("map_chips")
        available = rule_set != "none" and rule_set_available(rule_set, m)
        self.chips.setEnabled(available)
        self.chips.setChecked(available and opts.rule_set not in ("none",))
        if rule_set == "none":
            self.chips.setToolTip("this map has no Map-Chips rule set")
        elif isinstance(m.rule_set, UnreadableRuleSet):
            self.chips.setToolTip(f"the map's rule set has a mistake: {m.rule_set.error}")
        elif not available:
            self.chips.setToolTip(f"the engine has no rule module {rule_set!r} yet")
        form.addRow(self.chips)

        self.town_a = QCheckBox("Town variant a: covering a town gives one extra tile")
        self.town_b = QCheckBox("Town variant b: covering a town costs 2 points")
        self.town_c = QCheckBox("Town variant c: +2 per visible town next to a scored road")
        for cb, on, name in (
            (self.town_a, opts.town_extra_tile, "town_a"),
            (self.town_b, opts.town_cost, "town_b"),
            (self.town_c, opts.town_road_bonus, "town_c"),
        ):
            cb.setChecked(on)
            cb.setObjectName(name)
            form.addRow(cb)

        self.seed = QSpinBox()
        self.seed.setObjectName("seed")
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setValue(base.seed)
        reroll = QPushButton("New seed")
        reroll.clicked.connect(lambda: self.seed.setValue(random.randrange(1_000_000)))
        seed_row = QHBoxLayout()
        seed_row.addWidget(self.seed)
        seed_row.addWidget(reroll)
        form.addRow("Seed (same seed, same game)", seed_row)
        layout.addWidget(form_box)

        self.problems = QLabel()
        self.problems.setObjectName("problems")
        self.problems.setStyleSheet("color: #b00020;")
        self.problems.setWordWrap(True)
        layout.addWidget(self.problems)
        buttons, _ = ok_cancel(self, "Play")
        layout.addWidget(buttons)
        # The players and the game as last played (start squares, tile count and the Map-Chips
        # box belong to the map).
        fields: dict[str, Field] = {
            "players": self.player_count,
            "tile_pool": self.pool,
            "meeples": self.meeples,
            "farmers": self.farmers,
            "town_a": self.town_a,
            "town_b": self.town_b,
            "town_c": self.town_c,
            "seed": self.seed,
        }
        for i, row in enumerate(self.rows):
            fields |= {f"seat{i}_name": row.name, f"seat{i}_kind": row.kind}
            fields[f"seat{i}_strength"] = row.strength
        self.remembered = remember_fields(self, "playtest_setup", fields)
        self._base_options = opts

    def _count_changed(self) -> None:
        n = self.player_count.value()
        for i, row in enumerate(self.rows):
            row.set_visible(i < n)

    def setup(self) -> PlaytestSetup:
        """The setup the form shows now."""
        starts = None
        if not self.starts_auto.isChecked():
            starts = tuple(
                self.starts.item(i).data(Qt.ItemDataRole.UserRole)
                for i in range(self.starts.count())
                if self.starts.item(i).checkState() == Qt.CheckState.Checked
            )
            starts = tuple((int(x), int(y)) for x, y in starts)
        options = replace(
            self._base_options,
            start_squares=starts,
            tile_pool=str(self.pool.currentData()),
            tile_count=self.tile_count.value() or None,
            meeples=self.meeples.value(),
            farmers=self.farmers.isChecked(),
            rule_set=self.map.rule_set.name if self.chips.isChecked() else "none",
            town_extra_tile=self.town_a.isChecked(),
            town_cost=self.town_b.isChecked(),
            town_road_bonus=self.town_c.isChecked(),
        )
        seats = [row.seat() for row in self.rows[: self.player_count.value()]]
        return PlaytestSetup(seats=seats, seed=self.seed.value(), options=options)

    def validate(self) -> list[str]:
        """Problems that keep the game from starting (shown in the dialog)."""
        setup = self.setup()
        problems = setup.check()
        if setup.options.start_squares is not None and not setup.options.start_squares:
            problems.append("start squares: choose at least one, or use the map's rule")
        if not problems:
            try:
                setup.make_game(self.map)
            except EngineError as exc:
                problems.append(str(exc))
        return problems

    def accept(self) -> None:
        problems = self.validate()
        if problems:
            self.problems.setText("\n".join(problems))
            return
        super().accept()
