"""Map > Balance report…: batch playtests of the open map, with charts and a heat map on the map.

Three kinds of run: a report on the map (with "which plan wins" and a skill trace,
:mod:`engine.analysis.plans`, when asked); a comparison with another map file (two versions of a map:
:mod:`engine.analysis.compare`, with significance tests and a verdict); a sweep over a grid of
settings (:mod:`engine.analysis.sweep`). A bot, its play style and its strength level for every
seat, or one per seat (a mixed table), work with all three. The Tune page runs the tuner
(:mod:`engine.analysis.tune`) through the same machinery and applies its answer to the open map
as one undo step.

The games run in worker processes (:func:`engine.analysis.simulate.simulate` with ``processes=True``, so
the UI's interpreter never plays and stays responsive); a Python thread only waits for them and
forwards progress through queued signals. Cancelling the progress dialog terminates the workers.
"""

from __future__ import annotations

import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QPixmap, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTabWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from engine.analysis.balance import balance_report
from engine.analysis.candidate import START, number_paths
from engine.analysis.compare import (
    compare_runs,
    comparison_blocks,
    draw_comparison_charts,
    write_comparison,
)
from engine.analysis.plans import (
    SKILL_DEALS,
    parse_levels,
    skill_games,
    skill_trace,
    style_figures,
    style_games,
    style_warnings,
)
from engine.analysis.report import (
    draw_charts,
    has_matplotlib,
    icon_file,
    report_blocks,
    to_html,
    write_report,
)
from engine.analysis.report_types import BalanceReport
from engine.analysis.simulate import (
    Cancelled,
    SimConfig,
    default_workers,
    new_game,
    rule_set_for,
    simulate,
)
from engine.analysis.sweep import (
    draw_sweep_charts,
    grid,
    parse_sweep,
    sweep,
    sweep_blocks,
    write_sweep,
)
from engine.analysis.tune import (
    PARAMS,
    TuneParam,
    check,
    check_space,
    shown_values,
    tune,
    write_tuning,
)
from engine.errors import EngineError
from engine.mapdef import MapDef, UnreadableRuleSet
from engine.rules.registry import rules_for
from mapeditor.designer_icons import icon_pixmap
from mapeditor.folders import remember_dir, start_dir
from mapeditor.remembered import remember_fields
from mapeditor.tuning_edits import apply_tuning
from mapeditor.widgets.heat_map import (
    HEAT_LEGENDS,
    HEAT_MODES,
    HeatLegendBar,
    HeatMapView,
    paint_heat,
    render_heat,
)
from mapeditor.widgets.seat_bots import BotChoice, SeatBots
from mapeditor.widgets.tune_page import TunePage

if TYPE_CHECKING:
    from mapeditor.document import MapDocument

TUNE_ROWS = "balance/tune_rows"
"""The Tune page's rows, kept at each run beside the dialog's remembered fields."""
RUN_KINDS = {
    "report": "Report on this map",
    "compare": "Compare with another map…",
    "sweep": "Sweep settings",
}


def seat_effect_text(styles: dict[str, Any] | None) -> str:
    """The greedy bot's seat effect against the random bot's, in one sentence (``""`` without
    the styles study).

    >>> seat_effect_text({"seat_effect": [
    ...     {"bot": "random", "rate": 0.5},
    ...     {"bot": "greedy", "rate": 0.62, "vs_random": 0.12, "p_value": 0.03},
    ... ]})
    ' Seat 1 wins 62 % under the greedy bot, 50 % under the random bot: the bot adds +12 points (p = 0.03).'
    """
    if not styles:
        return ""
    by_bot = {f["bot"]: f for f in styles["seat_effect"]}
    bot, ref = by_bot["greedy"], by_bot["random"]
    return (
        f" Seat 1 wins {bot['rate']:.0%} under the greedy bot, {ref['rate']:.0%} under the random "
        f"bot: the bot adds {bot['vs_random'] * 100:+.0f} points (p = {bot['p_value']:.2g})."
    ).replace("%", " %")


def skill_text(trace: dict[str, Any] | None) -> str:
    """The skill trace in one sentence (``""`` without one).

    >>> skill_text({"deals": 4, "mean_rate": 0.6, "levels": [{"level": 2}, {"level": 3}]})
    ' Skill trace (levels 2,3; 4 deals each): the stronger level won 60 % on average.'
    """
    if not trace:
        return ""
    levels = ",".join(str(r["level"]) for r in trace["levels"])
    return (
        f" Skill trace (levels {levels}; {trace['deals']} deals each): the stronger level won "
        f"{trace['mean_rate']:.0%} on average."
    ).replace("%", " %")


NUMERIC_OPTIONS = frozenset(("chip_count", "ones_per_colour"))
"""The common Map-Chips options that take a whole number (``chips`` is a layout,
``chip_reading`` a word)."""


def tunable_names(m: MapDef) -> list[str]:
    """The tuner's parameters on ``m``: the settings, the rule set's chip options (the numeric
    options every Map-Chips set takes; its own are named freely), where each start square lies
    and every number of its data rule set.

    >>> from engine.mapio import load_map
    >>> from engine.resources import bundled_map
    >>> names = tunable_names(load_map(bundled_map("italia")))
    >>> names[:3], [n for n in names if n.startswith("start.")]
    (['tile_count', 'start_squares', 'rule.chip_count'], ['start.Bari', 'start.Genova', 'start.Trieste'])
    """
    try:
        rules = rules_for(m.rule_set.name, m)
    except EngineError:
        rules = None
    numeric = sorted(getattr(rules, "common_options", frozenset()) & NUMERIC_OPTIONS)
    starts = sorted(f"{START}{s.name}" for s in m.start_squares.values())
    return [*PARAMS, *(f"rule.{o}" for o in numeric), *starts, *number_paths(m)]


class _Relay(QObject):
    """Carries results from the waiting thread to the UI thread (queued connections)."""

    progress = Signal(int, int)
    rung = Signal(int, int)
    """A tuning candidate's games: played, of the rung's."""
    finished = Signal(object)
    failed = Signal(str)


class BalanceDialog(QDialog):
    """Options, a cancellable run, then the report: heat map, charts and tables."""

    report_ready = Signal(object)
    run_ended = Signal(str)
    """``"done"``, ``"cancelled"`` or ``"failed"``."""

    def __init__(
        self,
        m: MapDef,
        parent: QWidget | None = None,
        *,
        map_path: Path | None = None,
        document: MapDocument | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Balance report: {m.name or m.id}")
        self.map = m
        self.document = document
        """The open map's document, where "Apply to map" puts a tuner's answer (``None``: the
        dialog only reports)."""
        self.map_path = map_path
        """The open map's file (``None`` when unsaved): named by comparisons and re-run
        commands."""
        self.map_b_path: Path | None = None
        self.report: BalanceReport | None = None
        self.progress: QProgressDialog | None = None
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._charts_dir = tempfile.TemporaryDirectory(prefix="balance-")
        self._relay = _Relay()
        self._relay.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._relay.rung.connect(self._on_rung, Qt.ConnectionType.QueuedConnection)
        self._relay.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        self._relay.failed.connect(self._on_failed, Qt.ConnectionType.QueuedConnection)

        form = QFormLayout()
        self.games = QSpinBox(minimum=1, maximum=100_000, value=200)
        self.players = QSpinBox(minimum=2, maximum=6, value=2)
        self.bot_choice = BotChoice("greedy")
        self.bot = self.bot_choice.bot
        self.play_style = self.bot_choice.play_style
        self.level = self.bot_choice.level
        from mapeditor.playtest.setup import rule_set_available, rule_set_title

        playable = m.rule_set.name != "none" and rule_set_available(m.rule_set.name, m)
        self.rules = QCheckBox(f"Map-Chips rules ({rule_set_title(m)})")
        self.rules.setChecked(playable)
        self.rules.setEnabled(playable)
        if isinstance(m.rule_set, UnreadableRuleSet):
            self.rules.setToolTip(f"the map's rule set has a mistake: {m.rule_set.error}")
        self.workers = QSpinBox(minimum=1, maximum=max(1, os.cpu_count() or 1))
        self.workers.setValue(default_workers())
        self.seed = QSpinBox(minimum=0, maximum=2_000_000_000, value=0)
        self.kind = QComboBox()
        self.kind.setObjectName("balance_run_kind")
        for key, label in RUN_KINDS.items():
            self.kind.addItem(label, key)
        self.map_b: MapDef | None = None
        self.map_b_button = QPushButton("Choose map B…")
        self.map_b_button.setToolTip(
            "The other version of this map (a .json map file): both are played with the same "
            "settings and seed, and the report says which is fairer, with p-values"
        )
        self.map_b_button.clicked.connect(self._choose_map_b)
        self.sweep_text = QLineEdit()
        self.sweep_text.setPlaceholderText("players=2,3,4; tile_count=60,80")
        self.sweep_text.setToolTip(
            "Parameters and their values, separated by ';': players, tile_count, tile_pool, "
            "start_squares, bot (greedy,mcts@4,mcts:cities@6), seats (mcts@4/greedy/greedy), rule.NAME (a rule-set option), "
            "ruleset/PATH (a number inside the map's data rule set), start.NAME=X,Y|X,Y (where "
            "a start square lies). "
            "Several parameters make a grid; each point plays the number of games above."
        )
        self.seats = SeatBots(self.players.value())
        self.players.valueChanged.connect(self.seats.set_players)
        self.seats.mixed.toggled.connect(lambda on: self.bot_choice.setEnabled(not on))
        self.styles_deals = QSpinBox(minimum=0, maximum=10_000, value=0)
        self.styles_deals.setSpecialValueText("off")
        self.styles_deals.setSuffix(" deals")
        self.styles_deals.setToolTip(
            "Which plan wins on this map: each play style against the balanced greedy bot, and "
            "the seat effect each bot brings, on this many paired 2-player deals (a report only)"
        )
        self.skill_levels = QLineEdit()
        self.skill_levels.setObjectName("balance_skill_levels")
        self.skill_levels.setPlaceholderText("off (levels, e.g. 2-4)")
        self.skill_levels.setToolTip(
            "A skill trace: each MCTS strength level given (2..10, e.g. 2-4 or 2,5,8) against "
            "the level below it on paired 2-player deals (a report only). Rates well above 50 % "
            "say skill decides games on this map; near 50 %, the draw does. Levels 8-10 spend "
            "0.3-1 s a move"
        )
        self.skill_deals = QSpinBox(minimum=1, maximum=10_000, value=SKILL_DEALS)
        self.skill_deals.setSuffix(" deals")
        self.skill_deals.setToolTip("Paired deals per level of the skill trace (two games each)")
        skill_row = QWidget()
        skill_layout = QHBoxLayout(skill_row)
        skill_layout.setContentsMargins(0, 0, 0, 0)
        skill_layout.addWidget(self.skill_levels, 1)
        skill_layout.addWidget(self.skill_deals)
        form.addRow("Run", self.kind)
        form.addRow("Map B", self.map_b_button)
        form.addRow("Sweep", self.sweep_text)
        form.addRow("Games", self.games)
        form.addRow("Worker processes", self.workers)
        form.addRow("Seed", self.seed)
        # who plays, beside what is played (the seats' rows grow with the players)
        players_form = QFormLayout()
        players_form.addRow("Players", self.players)
        players_form.addRow("Bot and style", self.bot_choice)
        players_form.addRow("Mixed table", self.seats)
        players_form.addRow("Which plan wins", self.styles_deals)
        players_form.addRow("Skill trace", skill_row)
        players_form.addRow("Rules", self.rules)
        self.run_button = QPushButton("Run")
        self.run_button.clicked.connect(self.start)
        self.save_button = QPushButton("Save report…")
        self.save_button.setEnabled(False)
        self.save_button.clicked.connect(self._save)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addLayout(players_form, 1)
        side = QVBoxLayout()
        side.addWidget(self.run_button)
        side.addWidget(self.save_button)
        side.addStretch(1)
        top.addLayout(side)

        self.status = QLabel("")
        self.tabs = QTabWidget()
        heat_page = QWidget()
        heat_layout = QVBoxLayout(heat_page)
        self.heat_mode = QComboBox()
        for key, label in HEAT_MODES.items():
            self.heat_mode.addItem(label, key)
        self.heat_mode.currentIndexChanged.connect(self._heat_mode_changed)
        self.heat = HeatMapView(m)
        self.heat_legend = QLabel(HEAT_LEGENDS["often"])
        self.heat_bar = HeatLegendBar("often")
        heat_layout.addWidget(self.heat_mode)
        heat_layout.addWidget(self.heat, 1)
        heat_layout.addWidget(self.heat_bar)
        heat_layout.addWidget(self.heat_legend)
        self.tabs.addTab(heat_page, "Heat map")
        self.charts = QWidget()
        self.charts_layout = QVBoxLayout(self.charts)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.charts)
        self.tabs.addTab(scroll, "Charts")
        self.summary = QTextBrowser()
        self.tabs.addTab(self.summary, "Figures")
        self.tune_page = TunePage(self._tiles_played(), self._check_space, names=tunable_names(m))
        self.tune_page.tune_button.clicked.connect(lambda: self.start("tune"))
        self.tune_page.apply_button.clicked.connect(self.apply_tuning)
        self.tabs.addTab(self.tune_page, "Tune…")
        # the bounds a row may take depend on the players and rules played
        self.players.valueChanged.connect(self.tune_page.params.recheck)
        self.rules.toggled.connect(self.tune_page.params.recheck)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(900, 760)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        # The last run's settings (Map-Chips rules and map B belong to the map); kept at Run.
        self.remembered = remember_fields(
            self,
            "balance",
            {
                "kind": self.kind,
                "sweep": self.sweep_text,
                "games": self.games,
                "players": self.players,
                "bot": self.bot,
                "style": self.play_style,
                "level": self.level,
                "mixed": self.seats.mixed,
                **{
                    f"seat{k + 1}_{part}": getattr(c, attr)
                    for k, c in enumerate(self.seats.choices)
                    for part, attr in (("bot", "bot"), ("style", "play_style"), ("level", "level"))
                },
                "styles_deals": self.styles_deals,
                "skill_levels": self.skill_levels,
                "skill_deals": self.skill_deals,
                "workers": self.workers,
                "seed": self.seed,
                "tune_min_games": self.tune_page.min_games,
                "tune_max_games": self.tune_page.max_games,
                "tune_trials": self.tune_page.trials,
                "tune_check": self.tune_page.check_games,
            },
        )
        self.seats.set_players(self.players.value())
        self.bot_choice.setEnabled(not self.seats.mixed.isChecked())
        self.tune_page.restore_rows(str(self.remembered.settings.value(TUNE_ROWS, "", type=str)))
        self._kind_changed()
        self.comparison: dict[str, Any] | None = None
        self.sweep_report: dict[str, Any] | None = None
        self._shown: tuple[str, Any] | None = None
        """What the pages show and Save writes: ``(kind, data)``."""
        self._unit = "games"
        """What the progress dialog counts: games, or a tuning's candidates."""

    # -- running ----------------------------------------------------------------------------------

    def config(self) -> SimConfig:
        """The run's settings (raises :class:`EngineError` for a bad mixed table)."""
        return SimConfig(
            games=self.games.value(),
            players=(self.players.value(),),
            bot=self.bot_choice.spec(),
            rules=self.rules.isChecked(),
            seed=self.seed.value(),
            seats=self.seats.specs(),
        )

    def run_kind(self) -> str:
        return str(self.kind.currentData())

    def _kind_changed(self, _index: int = 0) -> None:
        kind = self.run_kind()
        self.map_b_button.setEnabled(kind == "compare")
        self.sweep_text.setEnabled(kind == "sweep")
        self.styles_deals.setEnabled(kind == "report")
        self.skill_levels.setEnabled(kind == "report")
        self.skill_deals.setEnabled(kind == "report")

    def _choose_map_b(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Map B", str(start_dir()), "Maps (*.json)")
        if path:
            remember_dir(Path(path))
            self.set_map_b(path)

    def set_map_b(self, path: str | Path) -> bool:
        """Load map B of a comparison; a map that cannot be read is reported and not taken."""
        from engine.mapio import load_map

        try:
            self.map_b = load_map(Path(path))
        except (EngineError, OSError) as exc:
            QMessageBox.warning(self, "Balance report", f"Cannot use {path} as map B:\n{exc}")
            return False
        self.map_b_path = Path(path)
        self.map_b_button.setText(f"{Path(path).name} ({self.map_b.name or self.map_b.id})")
        return True

    def _job(self, config: SimConfig, kind: str) -> tuple[Any, int]:
        """What the waiting thread runs, ``job(sim, progress) -> (kind, data)`` with ``sim(map,
        config, offset)`` playing one run (its games counted from ``offset``; ``None``: a
        tuning candidate's rung, told beside the count) and ``progress(done, total)``; and the
        total: games, or a tuning's candidates."""
        m = self.map
        if kind == "tune":
            return self._tune_job(config)
        if kind == "compare":
            b = self.map_b
            if b is None:
                raise EngineError("choose map B (the map to compare with) first")

            def compare_job(sim: Any, _progress: Any) -> tuple[str, Any]:
                ra = sim(m, config, 0)
                rb = sim(b, config, config.games)
                return "compare", (ra, rb)

            return compare_job, 2 * config.games
        if kind == "sweep":
            items = [t for t in self.sweep_text.text().split(";") if t.strip()]
            if not items:
                raise EngineError("give at least one parameter to sweep, e.g. players=2,3,4")
            axes = parse_sweep(items)
            points = len(grid(axes))

            def sweep_job(sim: Any, _progress: Any) -> tuple[str, Any]:
                done = [0]

                def run(c: SimConfig) -> Any:
                    result = sim(m, c, done[0] * config.games)
                    done[0] += 1
                    return result

                return "sweep", sweep(m, config, axes, run=run)

            return sweep_job, points * config.games
        deals = self.styles_deals.value()
        text = self.skill_levels.text().strip()
        levels, skill_deals = (parse_levels(text) if text else []), self.skill_deals.value()

        def report_job(sim: Any, _progress: Any) -> tuple[str, Any]:
            result = sim(m, config, 0)
            done = [config.games]

            def run(c: SimConfig) -> Any:
                played = sim(m, c, done[0])
                done[0] += c.games
                return played

            studies: dict[str, Any] = {}
            if deals:
                studies["styles"] = style_figures(run, config, deals)
            if levels:
                studies["skill_trace"] = skill_trace(run, config, levels, skill_deals)
            return "report", (result, studies)

        studies_games = (style_games(deals) if deals else 0) + skill_games(levels, skill_deals)
        return report_job, config.games + studies_games

    def _tune_job(self, config: SimConfig) -> tuple[Any, int]:
        """The tuner's search (and its check) on this map: progress counts candidates."""
        settings = self.tune_page.settings()
        m = self.map
        check_space(m, config, settings["params"])  # the rows together, before any game
        trials = settings["trials"]

        def tune_job(sim: Any, progress: Any) -> tuple[str, Any]:
            def run(c: SimConfig) -> Any:
                return sim(m, c, None)

            tried = [0]

            def on_trial(_entry: dict[str, Any]) -> None:
                tried[0] += 1
                progress(tried[0], trials)

            result = tune(
                run,
                config,
                settings["params"],
                settings["targets"],
                trials=trials,
                min_games=settings["min_games"],
                max_games=settings["max_games"],
                on_trial=on_trial,
                map_info={"id": m.id, "name": m.name},
            )
            if settings["check"] and result["best"] is not None:
                values = result["best"]["values"]
                result["check"] = check(run, config, values, settings["targets"], settings["check"])
            return "tune", result

        return tune_job, trials

    def _tiles_played(self) -> int:
        """The tiles a game of this map plays with the dialog's settings (the map's
        recommendation, bounded by the tile pool)."""
        config = self.config()
        try:
            rule_set, _missing = rule_set_for(self.map, config.rules)
            game = new_game(self.map, config.players[0], 0, rule_set, config)
        except EngineError:  # a map that cannot be played yet: its recommendation
            return self.map.setup.tile_pool_max
        return len(game.pile)

    def _check_space(self, param: TuneParam) -> None:
        """Refuse a tuner's row this map (with the players and rules set) cannot play, as the
        command line does before any game is spent (:func:`check_space`: every start square
        choice, every number of a rule-set range, the ends of the others)."""
        check_space(self.map, self.config(), [param])

    def _heat_mode_changed(self, _index: int) -> None:
        mode = self.heat_mode.currentData()
        self.heat_legend.setText(HEAT_LEGENDS[mode])
        self.heat_bar.set_mode(mode)
        self.heat.set_report(self.report, mode)

    def is_running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self, kind: str | None = None) -> None:
        """Start the run (``kind``: the Run box's, or ``"tune"``); a modal progress dialog shows
        it and can cancel it."""
        if self.is_running():
            return
        kind = kind or self.run_kind()
        try:
            config = self.config()
            job, total = self._job(config, kind)
        except EngineError as exc:
            QMessageBox.warning(self, "Balance report", str(exc))
            return
        self.remembered.save()
        self.remembered.settings.setValue(TUNE_ROWS, self.tune_page.rows_json())
        self._cancel = threading.Event()
        self._unit = "candidates" if kind == "tune" else "games"
        first = "Trying candidates…" if kind == "tune" else "Playing games…"
        self.progress = QProgressDialog(first, "Cancel", 0, total, self)
        self.progress.setWindowTitle("Balance report")
        self.progress.setWindowModality(Qt.WindowModality.WindowModal)
        self.progress.setMinimumDuration(0)
        self.progress.setAutoClose(False)
        self.progress.setAutoReset(False)
        self.progress.canceled.connect(self.cancel)
        self.progress.setValue(0)
        self.run_button.setEnabled(False)
        self.tune_page.tune_button.setEnabled(False)
        self.status.setText(
            f"Tuning: at most {total} candidates…" if kind == "tune" else f"Playing {total} games…"
        )
        workers, relay, cancel = self.workers.value(), self._relay, self._cancel

        def sim(m: MapDef, c: SimConfig, offset: int | None) -> Any:
            return simulate(
                m,
                c,
                workers=workers,
                processes=True,
                context="spawn",  # never fork a process with Qt threads
                progress=relay.rung.emit
                if offset is None
                else (lambda d, _t: relay.progress.emit(offset + d, total)),
                cancel=cancel.is_set,
            )

        def work() -> None:
            try:
                relay.finished.emit(job(sim, relay.progress.emit))
            except Cancelled:
                relay.failed.emit("cancelled")
            except Exception as exc:  # noqa: BLE001 - shown to the user, never a crash
                relay.failed.emit(f"{type(exc).__name__}: {exc}")

        self._thread = threading.Thread(target=work, name="balance-report", daemon=True)
        self._thread.start()

    def cancel(self) -> None:
        """Stop the run: the waiting thread terminates the worker processes."""
        self._cancel.set()
        self.status.setText("Cancelling…")

    def _on_progress(self, done: int, total: int) -> None:
        if self.progress is not None and not self._cancel.is_set():
            what = "Tried" if self._unit == "candidates" else "Played"
            self.progress.setLabelText(f"{what} {done} of {total} {self._unit}…")
            # last: a modal progress dialog's setValue runs queued events, the run's end too
            self.progress.setValue(done)

    def _on_rung(self, played: int, games: int) -> None:
        if self.progress is not None and not self._cancel.is_set():
            tried, total = self.progress.value(), self.progress.maximum()
            self.progress.setLabelText(
                f"Tried {tried} of {total} candidates; the next has played {played} of "
                f"{games} games of its rung…"
            )

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.canceled.disconnect(self.cancel)
            self.progress.close()
            self.progress.deleteLater()
            self.progress = None
        self.run_button.setEnabled(True)
        self.tune_page.tune_button.setEnabled(True)

    def _on_failed(self, message: str) -> None:
        self._close_progress()
        if message == "cancelled":
            self.status.setText("Cancelled.")
            self.run_ended.emit("cancelled")
            return
        self.status.setText(f"Failed: {message}")
        self.run_ended.emit("failed")
        QMessageBox.warning(self, "Balance report", f"The simulation failed:\n{message}")

    def _on_finished(self, outcome: tuple[str, Any]) -> None:
        self._close_progress()
        kind, result = outcome
        if kind == "compare":
            self.show_comparison(*result)
            assert self.comparison is not None
            self.status.setText(f"Verdict: {self.comparison['headline']}")
            self.run_ended.emit("done")
            return
        if kind == "sweep":
            self.show_sweep(result)
            self.status.setText(f"Sweep of {len(result['rows'])} settings done.")
            self.run_ended.emit("done")
            return
        if kind == "tune":
            self.show_tuning(result)
            verdict = "met" if result["met"] else "not met"
            self.status.setText(
                f"Tuning {verdict}: {result['trials']} candidates, {result['games_played']} games."
            )
            self.run_ended.emit("done")
            return
        result, studies = result
        report = balance_report(self.map, result)
        styles = studies.get("styles")
        if styles is not None:
            report["styles"] = styles
            report["warnings"] += style_warnings(styles)
        if "skill_trace" in studies:
            report["skill_trace"] = studies["skill_trace"]
        self.show_report(report)
        per = len(result.games) / result.seconds / result.workers if result.seconds else 0.0
        warn = len(self.report["warnings"]) if self.report else 0
        self.status.setText(
            f"{len(result.games)} games in {result.seconds:.1f} s ({per:.2f} games/s per "
            f"worker); {warn} warning{'s' if warn != 1 else ''}.{seat_effect_text(styles)}"
            f"{skill_text(studies.get('skill_trace'))}"
        )
        self.run_ended.emit("done")

    # -- showing ---------------------------------------------------------------------------------

    def _show_charts(self, draw: Any) -> dict[str, str]:
        """Replace the Charts page with what ``draw(folder)`` draws (PNG files by name)."""
        while self.charts_layout.count():
            item = self.charts_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        images: dict[str, str] = {}
        if has_matplotlib():
            out = Path(self._charts_dir.name)
            for name, path in draw(out).items():
                label = QLabel()
                label.setPixmap(QPixmap(str(path)))
                label.setObjectName(f"chart-{name}")
                self.charts_layout.addWidget(label)
                images[name] = path.as_uri()
        else:
            self.charts_layout.addWidget(
                QLabel("Charts need matplotlib: pip install 'carcassonne-maps-studio[report]'")
            )
        self.charts_layout.addStretch(1)
        return images

    def show_report(self, report: BalanceReport) -> None:
        """Show ``report``: heat map, charts (with matplotlib) and the figures page."""
        self.report = report
        self._shown = ("report", report)
        self.save_button.setEnabled(True)
        self.heat.set_report(report, self.heat_mode.currentData())
        images = self._show_charts(lambda out: draw_charts(report, out, self.map))
        page = self.summary.document()
        for r in report["rules"].get("resources", []):  # the designer's icons in the tables
            image = icon_pixmap(r["icon"], r["colour"], 16).toImage()
            page.addResource(QTextDocument.ResourceType.ImageResource, QUrl(icon_file(r)), image)
        self.summary.setHtml(to_html(report_blocks(report, images), title="Balance report"))

    def show_comparison(self, a: Any, b: Any) -> None:
        """Show the comparison of runs ``a`` (this map) and ``b`` (map B): verdict and tables on
        the Figures page, its charts, and this map's heat map."""
        assert self.map_b is not None
        labels = ("this map", self.map_b.name or self.map_b.id)
        files = (
            str(self.map_path) if self.map_path is not None else "this map (unsaved)",
            str(self.map_b_path) if self.map_b_path is not None else labels[1],
        )
        cmp = compare_runs(self.map, a, self.map_b, b, labels=labels, files=files)
        maps = (self.map, self.map_b)
        self.comparison = cmp
        self._shown = ("compare", (cmp, a.games, b.games, maps))
        self.report = balance_report(self.map, a)
        self.heat.set_report(self.report, self.heat_mode.currentData())
        self.save_button.setEnabled(True)
        images = self._show_charts(
            lambda out: draw_comparison_charts(cmp, a.games, b.games, out, maps)
        )
        self.summary.setHtml(to_html(comparison_blocks(cmp, images), title="Balance comparison"))
        self.tabs.setCurrentIndex(2)

    def show_tuning(self, result: dict[str, Any]) -> None:
        """Show a tuner's answer on the Tune page (Apply offered when a document is open)."""
        self._shown = ("tune", result)
        self.save_button.setEnabled(True)
        self.tune_page.show_result(result, can_apply=self.document is not None)
        self.tabs.setCurrentWidget(self.tune_page)

    def apply_tuning(self) -> None:
        """Put the answer's values in the open map as one undo step; say what the map cannot
        hold (play options) and the rule-set file written beside the map's own."""
        result = self.tune_page.result
        if self.document is None or result is None or result["best"] is None:
            return
        values = result["best"]["values"]
        try:
            left, written = apply_tuning(self.document, values)
        except (EngineError, OSError) as exc:
            self.tune_page.applied.setText(f"Not applied: {exc}")
            return
        done = {k: v for k, v in values.items() if k not in left}
        words = f"Applied to the map (one undo step): {shown_values(done)}." if done else ""
        if written is not None:
            words += (
                f" The tuned rule set was written to a new file, {written.name}, which the map "
                "now names (undo names the original again; the new file stays)."
            )
        if left:
            words += (
                " Not applied: "
                + "; ".join(f"{shown_values({k: values[k]})}, {why}" for k, why in left.items())
                + "."
            )
        self.tune_page.applied.setText(words.strip())
        self.tune_page.apply_button.setEnabled(False)

    def show_sweep(self, report: dict[str, Any]) -> None:
        """Show a sweep: its table and a chart per parameter."""
        self.sweep_report = report
        self._shown = ("sweep", report)
        self.save_button.setEnabled(True)
        self.heat.set_report(None)
        images = self._show_charts(lambda out: draw_sweep_charts(report, out))
        self.summary.setHtml(to_html(sweep_blocks(report, images), title="Balance sweep"))
        self.tabs.setCurrentIndex(2)

    def _save(self) -> None:
        if self._shown is None:
            return
        folder = QFileDialog.getExistingDirectory(
            self, "Save the balance report in", str(start_dir())
        )
        if not folder:
            return
        remember_dir(Path(folder) / "report")
        try:
            files = self.save_to(folder)
        except OSError as exc:
            QMessageBox.warning(self, "Balance report", f"Cannot write the report:\n{exc}")
            return
        self.status.setText(f"Saved {files['markdown']}")

    def save_to(self, folder: str | Path) -> dict[str, Path]:
        """Write what is shown (report, comparison or sweep) into ``folder``."""
        assert self._shown is not None
        kind, data = self._shown
        if kind == "compare":
            cmp, a, b, maps = data
            return write_comparison(cmp, a, b, folder, maps)
        if kind == "sweep":
            return write_sweep(data, folder)
        if kind == "tune":
            return write_tuning(data, folder)
        return write_report(data, folder, self.map, map_file=self.map_path)

    def done(self, result: int) -> None:  # noqa: D401 - Qt override
        """Closing the dialog stops a run still going."""
        if self.is_running():
            self._cancel.set()
        super().done(result)


def open_balance_dialog(
    m: MapDef,
    parent: QWidget | None = None,
    *,
    map_path: Path | None = None,
    document: MapDocument | None = None,
) -> BalanceDialog:
    """Show the balance report dialog for ``m`` (non-modal; ``map_path``: its file, if saved;
    ``document``: where "Apply to map" puts a tuner's answer) and return it."""
    dialog = BalanceDialog(m, parent, map_path=map_path, document=document)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.show()
    return dialog


def add_balance_report_action(window: Any, menu: Any) -> Any:
    """Add "Balance report…" to ``menu`` (the editor's Map menu): it opens the dialog on a copy
    of the window's map (``window.document.snapshot()``), so a run never sees later edits; a
    tuner's answer is applied to the window's document."""

    def show() -> None:
        window._balance_dialog = open_balance_dialog(
            window.document.snapshot(),
            window,
            map_path=window.document.path,
            document=window.document,
        )

    action = menu.addAction("&Balance report…")
    action.setStatusTip("Play many bot games of this map and report on its balance")
    action.triggered.connect(show)
    return action


__all__ = [
    "add_balance_report_action",
    "BalanceDialog",
    "HeatMapView",
    "open_balance_dialog",
    "paint_heat",
    "render_heat",
    "tunable_names",
]
