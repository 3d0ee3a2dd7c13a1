"""The editor's main window: canvas, tool bar, docks, menus, files, autosave and recovery."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from pathlib import Path

import shiboken6
from PySide6.QtCore import (
    QByteArray,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
    QShowEvent,
    QUndoGroup,
)
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSpinBox,
    QStackedWidget,
    QStyle,
    QToolBar,
    QUndoView,
    QWidget,
)

from engine.errors import EngineError, MapFormatError
from engine.geometry import Edge, Square
from engine.mapdef import MAX_GRID, UnreadableRuleSet
from mapeditor import recovery
from mapeditor.commands import ReplaceMap
from mapeditor.dialog_buttons import ok_cancel
from mapeditor.document import MapDocument
from mapeditor.files import ChangedOnDisk, EditorFiles, blank_map
from mapeditor.folders import editor_settings
from mapeditor.online.host_dialog import add_host_action
from mapeditor.online.joined_window import add_join_action
from mapeditor.painting import LAYERS, square_rect
from mapeditor.playtest.launch import confirm_errors, open_playtest
from mapeditor.tools import ALL_TOOLS, Tool
from mapeditor.tools.clipboard import copy_fragment, from_mime, paste, to_mime
from mapeditor.tools.marks import DesignerMarkTool
from mapeditor.tools.select import delete_selection
from mapeditor.widgets.balance_dialog import add_balance_report_action
from mapeditor.widgets.chips_dock import ChipsDock
from mapeditor.widgets.country_import import new_map_from_country
from mapeditor.widgets.country_menu import install_country_menu
from mapeditor.widgets.export_dialog import export_dialog
from mapeditor.widgets.field_guard import guard_fields
from mapeditor.widgets.help_menu import add_help_menu
from mapeditor.widgets.map_scene import MapScene
from mapeditor.widgets.map_view import MapView
from mapeditor.widgets.marks_bar import MarksBar
from mapeditor.widgets.neighbour_names_item import NeighbourNamesItem
from mapeditor.widgets.overview_dock import OverviewView
from mapeditor.widgets.printing import print_map, print_preview
from mapeditor.widgets.properties_dock import PropertiesDock
from mapeditor.widgets.ruleset_dock import RuleSetDock
from mapeditor.widgets.start_page import StartPage
from mapeditor.widgets.tool_options import ToolOptionsBar
from mapeditor.widgets.underlay_dock import UnderlayDock
from mapeditor.widgets.validation_panel import ValidationPanel

AUTOSAVE_MS = 2 * 60 * 1000
MAP_FILTER = "Carcassonne maps (*.json);;All files (*)"
GEOMETRY_KEY = "window/geometry"
STATE_KEY = "window/state"
LAYOUT_VERSION = 1
"""Raise when docks or tool bars change so much that an older saved layout no longer fits."""


class NewMapDialog(QDialog):
    """Asks for the grid size of a blank map."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New map")
        self.width_spin = QSpinBox()
        self.height_spin = QSpinBox()
        for spin, value in ((self.width_spin, 16), (self.height_spin, 20)):
            spin.setRange(1, MAX_GRID)
            spin.setValue(value)
        form = QFormLayout(self)
        form.addRow("Columns", self.width_spin)
        form.addRow("Rows", self.height_spin)
        buttons, _ = ok_cancel(self)
        form.addRow(buttons)


class MainWindow(QMainWindow):
    """One window edits one :class:`MapDocument`."""

    def __init__(self, document: MapDocument | None = None) -> None:
        super().__init__()
        self.settings = editor_settings()
        self.files = EditorFiles(self.settings, self)
        self.files.status.connect(self._status_message)
        self.document = document or MapDocument(blank_map(16, 20))
        # The group's undo/redo actions and history view follow whichever document is active.
        self.undo_group = QUndoGroup(self)
        self.undo_group.addStack(self.document.undo_stack)
        self.undo_group.setActiveStack(self.document.undo_stack)
        self.scene = MapScene(self.document, self)
        self.view = MapView(self.scene, self)
        self.view.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # Tab stays among the dock fields
        # A window opened without a map shows the start page until a map is created or opened.
        self.start_page = StartPage()
        self.start_page.new_requested.connect(self.new_map)
        self.start_page.country_requested.connect(lambda: new_map_from_country(self))
        self.start_page.open_requested.connect(self.open_dialog)
        self.start_page.path_chosen.connect(self._open_from_start_page)
        self.start_page.recovery_chosen.connect(self._recover_from_start_page)
        self.start_page.recovery_discarded.connect(self._discard_from_start_page)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.start_page)
        self.pages.addWidget(self.view)
        self.setCentralWidget(self.pages)
        self.tools: dict[type[Tool], Tool] = {}
        self.tool_actions: dict[type[Tool], QAction] = {}
        self.menus: dict[str, QMenu] = {}
        self._build_docks()
        self._build_actions()
        self._build_menus()
        self._hint = QLabel()
        self._where = QLabel()
        self.statusBar().addWidget(self._hint, 1)
        self.zoom_label = QLabel()
        self.zoom_label.setToolTip("Zoom (100% = a square 64 pixels wide); Ctrl+0 fits the map")
        self.statusBar().addPermanentWidget(self._where)
        self.statusBar().addPermanentWidget(self.zoom_label)
        self.view.hovered.connect(self._on_hover)
        self.view.notice.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.view.zoomChanged.connect(
            lambda _s: self.zoom_label.setText(f"{self.view.zoom_percent}%")
        )
        self._autosave = QTimer(self)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.autosave_in_background)
        self._autosave.start()
        self._bind_document()
        self.set_tool(ALL_TOOLS[1])  # the land brush
        self.resize(1280, 860)
        self._install_parts()
        install_country_menu(self)
        self._restore_layout()
        self._show_start_page(document is None)

    # -- construction ------------------------------------------------------------------------------

    def _build_docks(self) -> None:
        self.validation = ValidationPanel(self.document)
        self.validation.activated.connect(self.centre_on)
        self.validation.validated.connect(self._show_markers)
        self.validation.map_issue_activated.connect(self._show_map_properties)
        self.properties = PropertiesDock(self.document)
        self.chips = ChipsDock(self.document)
        self.chips.layoutChanged.connect(self.scene.set_chips)
        self.ruleset = RuleSetDock(self.document)
        self.ruleset.status.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.validation.rule_set_issue_activated.connect(self._show_rule_set_issue)
        self.undo_view = QUndoView(self.undo_group)
        self.overview = OverviewView(self.scene, self.view)
        self.docks: dict[str, QDockWidget] = {}
        for title, widget, area in (
            ("Properties", self.properties, Qt.DockWidgetArea.RightDockWidgetArea),
            ("Validation", self.validation, Qt.DockWidgetArea.RightDockWidgetArea),
            ("Rule set", self.ruleset, Qt.DockWidgetArea.RightDockWidgetArea),
            ("Chips", self.chips, Qt.DockWidgetArea.LeftDockWidgetArea),
            ("History", self.undo_view, Qt.DockWidgetArea.LeftDockWidgetArea),
            ("Overview", self.overview, Qt.DockWidgetArea.LeftDockWidgetArea),
        ):
            dock = QDockWidget(title, self)
            dock.setObjectName(f"dock-{title.lower()}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[title] = dock
            guard_fields(widget)  # Properties and Rule set guard what they rebuild themselves
        self.tabifyDockWidget(self.docks["Properties"], self.docks["Rule set"])
        self.docks["Properties"].raise_()

    def _action(
        self,
        text: str,
        slot: Callable[..., object],
        shortcut: str | QKeySequence | QKeySequence.StandardKey | None = None,
        tip: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip or shortcut:
            key = QKeySequence(shortcut).toString() if shortcut is not None else ""
            action.setToolTip(f"{tip or text}" + (f" ({key})" if key else ""))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        S = QKeySequence.StandardKey
        self.new_action = self._action("&New…", self.new_map, S.New)
        self.open_action = self._action("&Open…", self.open_dialog, S.Open)
        self.save_action = self._action("&Save", self.save, S.Save)
        self.save_as_action = self._action("Save &As…", self.save_as, S.SaveAs)
        self.quit_action = self._action("&Quit", self.close, S.Quit)
        # Own actions, not QUndoGroup's: their text stays "Undo"/"Redo" (the command's name goes
        # in the tooltip, so the tool bar never reflows), and they wait while a stroke is drawn.
        self.undo_action = self._action("&Undo", lambda: self._undo_redo(undo=True), "Ctrl+Z")
        self.redo_action = self._action("&Redo", lambda: self._undo_redo(undo=False))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        for action, can, text, word in (
            (
                self.undo_action,
                self.undo_group.canUndoChanged,
                self.undo_group.undoTextChanged,
                "Undo",
            ),
            (
                self.redo_action,
                self.undo_group.canRedoChanged,
                self.undo_group.redoTextChanged,
                "Redo",
            ),
        ):
            can.connect(action.setEnabled)
            text.connect(lambda t, a=action, w=word: a.setToolTip(f"{w} {t}".strip()))
        self.undo_action.setEnabled(self.undo_group.canUndo())
        self.redo_action.setEnabled(self.undo_group.canRedo())
        self.delete_action = self._action("&Delete selection", self.delete_selection, "Delete")
        self.select_all_action = self._action(
            "Select &all", lambda: self.document.select(self.document.map.land), "Ctrl+A"
        )
        self.cut_action = self._action("Cu&t", self.cut_selection, S.Cut)
        self.copy_action = self._action("&Copy", self.copy_selection, S.Copy)
        self.paste_action = self._action("&Paste", self.paste, S.Paste)
        self.selection_actions = (
            self.cut_action,
            self.copy_action,
            self.paste_action,
            self.delete_action,
            self.select_all_action,
        )
        """The Edit menu's actions on the selection (none of them on the start page)."""
        self.paste_action.setToolTip("Paste at the square under the cursor (Ctrl+V)")
        self.zoom_in_action = self._action("Zoom &in", lambda: self.view.zoom(1.25), S.ZoomIn)
        self.zoom_out_action = self._action("Zoom &out", lambda: self.view.zoom(0.8), S.ZoomOut)
        self.fit_action = self._action("&Fit to window", self.view.fit, "Ctrl+0")
        self.grid_action = self._action("Show &grid", self.scene.set_grid, "Ctrl+G")
        self.grid_action.setCheckable(True)
        self.grid_action.setChecked(True)
        self.print_look_action = self._action(
            "&Print look",
            lambda on: self.scene.set_print_look(bool(on)),
            "Ctrl+Shift+L",
            "Show the map as it prints: neighbouring land and sea, names, cartouche and legend",
        )
        self.print_look_action.setCheckable(True)
        self.validate_action = self._action(
            "&Validate now", lambda: self.validation.run_now(), "F5"
        )
        self.playtest_action = self._action("&Playtest…", self.playtest, "F9")
        self.playtest_action.setToolTip(
            "Play a test game of this map (refused while the map has errors) (F9)"
        )
        group = QActionGroup(self)
        group.setExclusive(True)
        toolbar = self.addToolBar("Tools")
        toolbar.setObjectName("toolbar-tools")
        for tool_cls in ALL_TOOLS:
            self.tools[tool_cls] = tool_cls(self.document)
            action = QAction(tool_cls.name, self)
            action.setCheckable(True)
            action.setShortcut(QKeySequence(tool_cls.shortcut))
            # A tool's single key works on the canvas only: never typed into a dock field, and
            # a field's letters never switch tools (field_guard: Escape returns to the canvas).
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.view.addAction(action)
            action.setToolTip(f"{tool_cls.name} ({tool_cls.shortcut})\n{tool_cls.hint}")
            action.triggered.connect(lambda _c=False, cls=tool_cls: self.set_tool(cls))
            group.addAction(action)
            toolbar.addAction(action)
            self.tool_actions[tool_cls] = action
        self.tool_options = ToolOptionsBar(self)
        guard_fields(self.tool_options)  # Escape there returns to the canvas too
        self.addToolBarBreak()  # on a row of its own: the tools' row overflows on small screens
        self.addToolBar(self.tool_options)
        mark_tool = self.tools[DesignerMarkTool]
        assert isinstance(mark_tool, DesignerMarkTool)
        self.marks_bar = MarksBar(mark_tool, lambda: self.set_tool(DesignerMarkTool), self)
        self.marks_bar.set_document(self.document)
        self.addToolBarBreak()  # apart from the options while both do not fit: _arrange_bars
        self.addToolBar(self.marks_bar)
        self.edit_bar = self.addToolBar("Edit")
        self.edit_bar.setObjectName("toolbar-edit")
        for action in (self.undo_action, self.redo_action, self.fit_action, self.playtest_action):
            self.edit_bar.addAction(action)
        self._bars_timer = QTimer(self)
        self._bars_timer.setSingleShot(True)
        self._bars_timer.setInterval(0)  # once the bars' fields are shown or hidden
        self._bars_timer.timeout.connect(self._arrange_bars)

    def _arrange_bars(self) -> None:
        """The tool options and the designer marks (with the edit bar) share one row when they
        fit in the window's width, each its own row when they do not."""
        bars = (self.tool_options, self.marks_bar, self.edit_bar)
        need = sum(bar.sizeHint().width() for bar in bars) + 4 * self.style().pixelMetric(
            QStyle.PixelMetric.PM_ToolBarHandleExtent
        )
        fits = need <= self.width()
        apart = self.toolBarBreak(self.marks_bar)
        if fits == apart:
            if fits:
                self.removeToolBarBreak(self.marks_bar)
            else:
                self.insertToolBarBreak(self.marks_bar)
            layout = self.layout()
            if layout is not None:
                layout.activate()  # the view's new size now, not between two mouse moves

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(self.new_action)
        file_menu.addAction(self.open_action)
        self.recent_menu = file_menu.addMenu("Open &Recent")
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.save_as_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = bar.addMenu("&Edit")
        for action in (self.undo_action, self.redo_action):
            edit_menu.addAction(action)
        edit_menu.addSeparator()
        for action in self.selection_actions:
            edit_menu.addAction(action)
        view_menu = bar.addMenu("&View")
        for action in (
            self.zoom_in_action,
            self.zoom_out_action,
            self.fit_action,
            self.grid_action,
            self.print_look_action,
        ):
            view_menu.addAction(action)
        self.layers_menu = view_menu.addMenu("&Layers")
        view_menu.addSeparator()
        for dock in self.docks.values():
            view_menu.addAction(dock.toggleViewAction())
        map_menu = bar.addMenu("&Map")
        map_menu.addAction(self.validate_action)
        map_menu.addAction(self.playtest_action)
        self.host_action = add_host_action(self, map_menu)
        self.join_action = add_join_action(self, map_menu)
        add_balance_report_action(self, map_menu)
        rule_set = map_menu.addAction("Map-Chips &rule set…")
        rule_set.setToolTip("The map's Map-Chips rules: a module, or a mini-expansion of its own")
        rule_set.triggered.connect(self.show_rule_set)
        self.rule_set_action = rule_set
        tools_menu = bar.addMenu("&Tools")
        for action in self.tool_actions.values():
            tools_menu.addAction(action)
        help_menu = bar.addMenu("&Help")
        self.help_actions = add_help_menu(self, help_menu, self._listed_actions)
        self.menus = {
            "File": file_menu,
            "Edit": edit_menu,
            "View": view_menu,
            "Map": map_menu,
            "Help": help_menu,
        }
        self.files.recentChanged.connect(self._refresh_recent)
        self._refresh_recent()

    def _install_parts(self) -> None:
        """File ▸ New map from country…, Export, Print…, View ▸ Underlay and neighbour names."""
        file_menu = self.menus["File"]
        first = file_menu.actions()[2] if len(file_menu.actions()) > 2 else None  # after New, Open
        country = QAction("New map from &country…", self)
        country.triggered.connect(lambda: new_map_from_country(self))
        if first is None:
            file_menu.addAction(country)
        else:
            file_menu.insertAction(first, country)
        export_menu = file_menu.addMenu("&Export")
        for label, suffix in (
            ("PNG image…", "png"),
            ("SVG drawing…", "svg"),
            ("PDF, true scale…", "pdf"),
        ):
            action = export_menu.addAction(label)
            action.triggered.connect(lambda _c=False, s=suffix: export_dialog(self, s))
        print_action = QAction("&Print…", self)
        print_action.setShortcut("Ctrl+P")
        print_action.triggered.connect(lambda: print_map(self))
        file_menu.insertAction(file_menu.actions()[-1], print_action)
        preview_action = QAction("Print pre&view…", self)
        preview_action.setShortcut("Ctrl+Shift+P")
        preview_action.triggered.connect(lambda: print_preview(self))
        file_menu.insertAction(print_action, preview_action)
        self.extras_actions = {"country": country, "print": print_action, "preview": preview_action}
        file_menu.removeAction(self.quit_action)  # Quit closes the menu, after Export and Print
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        dock_widget = UnderlayDock(self)
        dock = QDockWidget("Underlay", self)
        dock.setObjectName("dock-underlay")
        dock.setWidget(dock_widget)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
        dock.hide()
        self.docks["Underlay"] = dock
        guard_fields(dock_widget)
        self.menus["View"].addAction(dock.toggleViewAction())
        self.underlay = dock_widget
        names = NeighbourNamesItem(self.document)
        self.scene.addItem(names)

        bound: list[MapDocument] = []

        def bind(_stack: object = None) -> None:
            # The window swaps documents (New, Open, New map from country): follow the current one.
            document = self.document
            if (bound and bound[-1] is document) or not shiboken6.isValid(document):
                return
            bound[:] = [document]
            names.set_document(document)
            for slot in (names.refresh, dock_widget.refresh):
                document.squaresChanged.connect(slot)
                document.mapReplaced.connect(slot)
            dock_widget.refresh()

        bind()
        self.undo_group.activeStackChanged.connect(bind)
        show_names = self.menus["View"].addAction("Neighbour names (from the country import)")
        show_names.setCheckable(True)
        show_names.setChecked(True)
        show_names.toggled.connect(names.setVisible)
        self.show_names_action = show_names
        self.neighbour_names = names
        self._build_layer_toggles()

    def _build_layer_toggles(self) -> None:
        """View ▸ Layers: one check box per drawing layer, the underlay and the grid."""
        self.layer_actions: dict[str, QAction] = {}
        for layer, title in LAYERS.items():
            if layer == "grid":
                action = self.grid_action  # Ctrl+G, also in the View menu itself
            else:
                action = self.layers_menu.addAction(title)
                action.setCheckable(True)
                action.setChecked(True)
                action.toggled.connect(lambda on, name=layer: self._set_layer(name, on))
            self.layer_actions[layer] = action
        underlay = self.layers_menu.addAction("Underlay")
        underlay.setCheckable(True)
        underlay.setChecked(True)
        underlay.toggled.connect(lambda on: self._set_layer("underlay", on))
        self.layer_actions["underlay"] = underlay
        self.layers_menu.addAction(self.grid_action)

    def _set_layer(self, layer: str, on: bool) -> None:
        if layer == "underlay":
            self.underlay.shown_in_view = on
            self.underlay.refresh()
            return
        self.scene.set_layer_visible(layer, on)
        self.overview.render_map()
        if layer == "labels":
            self.neighbour_names.setVisible(on and self.show_names_action.isChecked())

    def _show_start_page(self, on: bool) -> None:
        """The start page replaces the canvas; docks and tool bars wait until a map is open."""
        self.pages.setCurrentWidget(self.start_page if on else self.view)
        if on:
            self._refresh_recoverable()
            self._docks_shown = [d for d in self.docks.values() if d.isVisibleTo(self)]
        bars = self.findChildren(QToolBar)
        for widget in [*bars, *getattr(self, "_docks_shown", [])]:
            widget.setVisible(not on)
        # Nothing to edit, save or print on the start page (the blank map behind it is no map).
        for action in (
            *self.tool_actions.values(),
            *self.selection_actions,
            self.save_action,
            self.save_as_action,
            self.validate_action,
            self.playtest_action,
            self.host_action,
            self.rule_set_action,
            *self.extras_actions.values(),
        ):
            action.setEnabled(not on)
        self.extras_actions["country"].setEnabled(True)  # a way off the start page
        tool = self.scene.tool
        self._hint.setText(
            "Create or open a map to start; shipped maps open as untitled copies."
            if on
            else (f"{tool.name}: {tool.hint}" if tool is not None else "")
        )
        self._update_title()

    def _listed_actions(self) -> list[QAction]:
        """The actions the shortcut sheet lists (read when it is shown: menus are complete)."""
        return list(self.findChildren(QAction))

    # -- document ------------------------------------------------------------------------------

    def _bind_document(self) -> None:
        doc = self.document
        doc.fileChanged.connect(self._update_title)
        doc.ruleSetChanged.connect(self._bars_timer.start)  # marks come and go
        self._bars_timer.start()
        doc.selectionChanged.connect(self.scene.overlay.update)
        doc.undo_stack.indexChanged.connect(self._drop_chip_layout)
        self._update_title()

    def _drop_chip_layout(self, _index: int = 0) -> None:
        """An edit (or undo) makes a shown chip layout stale: hide it rather than show a chip
        on a square that may be water now."""
        if self.scene.chips:
            self.scene.set_chips([])
            self.statusBar().showMessage(
                "Chip layout hidden: the map changed (Chips ▸ Show layout draws it again)", 6000
            )

    def set_document(self, document: MapDocument) -> None:
        """Show another map (New/Open/Recover); the old one must already be dealt with."""
        old = self.document
        self.document = document
        for tool in self.tools.values():
            tool.document = document
        self.scene.set_document(document)
        self.overview.set_document(document)
        self.validation.set_document(document)
        self.properties.set_document(document)
        self.chips.set_document(document)
        self.ruleset.set_document(document)
        self.marks_bar.set_document(document)
        self.undo_group.addStack(document.undo_stack)
        self.undo_group.setActiveStack(document.undo_stack)
        self.undo_group.removeStack(old.undo_stack)
        self.scene.set_chips([])
        self._bind_document()
        if self.pages.currentWidget() is self.start_page:
            self._show_start_page(False)
        self.view.fit()
        old.deleteLater()

    def _update_title(self) -> None:
        if self.pages.currentWidget() is self.start_page:
            self.setWindowTitle("Carcassonne Maps Studio")  # no map yet, saved or not
            return
        doc = self.document
        star = "*" if doc.modified else ""
        # The star is written by hand (no "[*]" placeholder), so no setWindowModified: Qt warns
        # on every call when the title lacks the placeholder.
        self.setWindowTitle(f"{star}{doc.display_name} — Carcassonne Maps Studio")

    def set_tool(self, tool_cls: type[Tool]) -> None:
        tool = self.tools[tool_cls]
        if self.scene.tool is not None:
            self.scene.tool.cancel()
        self.scene.tool = tool
        self.tool_options.show_for(tool)
        self._bars_timer.start()
        self.scene.show_hover_edge = tool_cls.__name__ in (
            "BorderFeatureTool",
            "FerryTool",
            "LargeCityTool",
        )
        self.tool_actions[tool_cls].setChecked(True)
        self._hint.setText(f"{tool.name}: {tool.hint}") if hasattr(self, "_hint") else None

    def tool(self, tool_cls: type[Tool]) -> Tool:
        return self.tools[tool_cls]

    def _on_hover(self, square: Square, edge: Edge) -> None:
        m = self.document.map
        what = []
        if square in m.start_squares:
            what.append(f"start square {m.start_squares[square].name}")
        if square in m.towns:
            what.append(f"town {m.towns[square].name}")
        city = m.city_at(square)
        if city is not None:
            what.append(f"large city {city.name}")
        state = (
            "map square"
            if square in m.land
            else ("outside the map" if m.in_grid(square) else "off the grid")
        )
        self._where.setText(
            f"({square[0]}, {square[1]}) {edge.side.value} — {state}"
            + (f": {', '.join(what)}" if what else "")
        )

    def _show_markers(self) -> None:
        errors, warnings = self.validation.marker_squares()
        self.scene.set_markers(errors, warnings)

    def centre_on(self, squares: set[Square]) -> None:
        if not squares:
            return
        rect = square_rect(next(iter(squares)))
        for sq in squares:
            rect = rect.united(square_rect(sq))
        self.view.centerOn(rect.center())

    def _undo_redo(self, *, undo: bool) -> None:
        if self.view.stroke_active:
            # Undoing half a stroke would split it in two undo steps: finish the drag first.
            self.statusBar().showMessage("Release the mouse button (or press Esc) first", 3000)
            return
        if undo:
            self.undo_group.undo()
        else:
            self.undo_group.redo()

    def _show_map_properties(self, code: str) -> None:
        dock = self.docks["Properties"]
        dock.show()
        dock.raise_()
        self.properties.show_map_properties(code)

    def show_rule_set(self) -> None:
        """Bring the Rule set dock to the front."""
        dock = self.docks["Rule set"]
        dock.show()
        dock.raise_()

    def _show_rule_set_issue(self, issue: object) -> None:
        self.show_rule_set()
        self.ruleset.show_problem(issue)  # type: ignore[arg-type]

    def delete_selection(self) -> None:
        delete_selection(self.document)

    # -- clipboard -------------------------------------------------------------------------------

    def copy_selection(self) -> bool:
        """Put the selected squares and what is on them on the clipboard."""
        squares = self.document.selection
        if not squares:
            self.statusBar().showMessage("Nothing selected: select squares first (V)", 4000)
            return False
        fragment = copy_fragment(self.document.map, set(squares))
        QGuiApplication.clipboard().setMimeData(to_mime(fragment))
        self.statusBar().showMessage(f"Copied {len(fragment.squares)} square(s)", 4000)
        return True

    def cut_selection(self) -> None:
        if self.copy_selection():
            delete_selection(self.document)

    def paste(self) -> set[Square]:
        """Paste the clipboard's squares at the square under the cursor (where they were copied
        from when the cursor is not over the map). One undo step."""
        try:
            fragment = from_mime(QGuiApplication.clipboard().mimeData())
        except MapFormatError as exc:
            QMessageBox.warning(self, "Paste", str(exc))
            return set()
        if fragment is None:
            self.statusBar().showMessage("The clipboard holds no map squares to paste", 4000)
            return set()
        m = self.document.map
        at = fragment.origin
        here = self.view.hovered_square
        if self.view.underMouse() and here is not None and m.in_grid(here):
            at = here
        elif not m.in_grid(at):
            at = (0, 0)
        pasted = paste(self.document, fragment, at)
        if pasted:
            self.statusBar().showMessage(f"Pasted {len(pasted)} square(s) at {at}", 4000)
        return pasted

    # -- files ---------------------------------------------------------------------------------

    def maybe_save(self) -> bool:
        """Ask what to do with unsaved changes; ``False`` means cancel the caller."""
        if not self.document.modified:
            return True
        answer = QMessageBox.question(
            self,
            "Unsaved changes",
            f"{self.document.display_name} has unsaved changes. Save them?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Save,
        )
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            self.files.discard_recovery(self.document)
            return True
        return False

    def new_map(self) -> None:
        if not self.maybe_save():
            return
        dialog = NewMapDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.set_document(
            MapDocument(blank_map(dialog.width_spin.value(), dialog.height_spin.value()))
        )

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = self.document.path.parent if self.document.path else self._last_dir()
        path, _ = QFileDialog.getOpenFileName(self, "Open map", str(start), MAP_FILTER)
        if path:
            self.open_path(Path(path), ask_save=False)

    def open_path(self, path: Path, *, ask_save: bool = True) -> bool:
        """Open ``path``; a file that fails to load shows why and leaves the editor as it was."""
        if ask_save and not self.maybe_save():
            return False
        try:
            document = self.files.open(path)
        except (MapFormatError, EngineError, OSError) as exc:
            QMessageBox.critical(self, "Cannot open map", str(exc))
            return False
        self.set_document(document)
        if document.path is None:
            self.statusBar().showMessage(
                f"{path.name} is a shipped map: you edit a copy; Save asks where to keep it", 8000
            )
            return True
        ref = document.map.rule_set
        if isinstance(ref, UnreadableRuleSet):  # the map opens; the validation lists it too
            self.statusBar().showMessage(ref.error, 15000)
        self.offer_recovery()
        return True

    def _open_from_start_page(self, path: Path) -> None:
        if self.pages.currentWidget() is self.start_page:  # a double click reports twice
            self.open_path(path)

    def _recover_from_start_page(self, entry: recovery.Entry) -> None:
        if self.pages.currentWidget() is self.start_page:
            self.recover(entry)

    def _discard_from_start_page(self, entry: recovery.Entry) -> None:
        self.files.discard(entry)
        self._refresh_recoverable()

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        start = str(
            self.document.path or self._last_dir() / f"{self.document.map.id or 'map'}.json"
        )
        path, _ = QFileDialog.getSaveFileName(self, "Save map as", start, MAP_FILTER)
        if not path:
            return False
        return self._save_to(Path(path))

    def _recovery(self) -> Path:
        return self.files.recovery_of(self.document)

    def _save_to(self, path: Path, *, overwrite: bool = False) -> bool:
        try:
            self.files.save(self.document, path, overwrite=overwrite)
        except ChangedOnDisk as exc:
            return self._changed_on_disk(exc)
        except EngineError as exc:  # SaveFailed and the refusals of the map's own checks
            QMessageBox.critical(self, "Cannot save map", str(exc))
            return False
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def _changed_on_disk(self, exc: ChangedOnDisk) -> bool:
        """Another window or program saved this file since we read it: overwrite it, save
        this version elsewhere, or cancel (the work stays open either way)."""
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "File changed on disk",
            f"{exc}. Overwrite it with your version (the changes made there are lost), or "
            "save your version as another file?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.SaveAll
            | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.button(QMessageBox.StandardButton.Save).setText("Overwrite")
        box.button(QMessageBox.StandardButton.SaveAll).setText("Save As…")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return self._save_to(exc.path, overwrite=True)
        if answer == QMessageBox.StandardButton.SaveAll:
            return self.save_as()
        return False

    def autosave(self) -> Path | None:
        """Write unsaved work to this map's recovery file now (see :class:`EditorFiles`)."""
        return self.files.autosave(self.document)

    def autosave_in_background(self) -> None:
        """Autosave off the UI thread (the timer's way)."""
        self.files.autosave_in_background(self.document)

    def _status_message(self, text: str) -> None:
        with contextlib.suppress(RuntimeError):  # the window is gone
            self.statusBar().showMessage(text, 6000)

    def offer_recovery(self) -> bool:
        """If this file has an autosave newer than the file, left by a window that is gone (a
        crash), offer to restore it."""
        doc = self.document
        entry = self.files.pending_recovery(doc)
        recovered = self.files.read_recovery(entry) if entry is not None else None
        if entry is None or recovered is None:
            return False
        answer = QMessageBox.question(
            self,
            "Recover unsaved work",
            f"An autosave of {doc.display_name} from an earlier session was found. Restore it?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            self.files.discard(entry)
            return False
        doc.undo_stack.push(ReplaceMap(doc, recovered, "Recover autosave"))
        self.files.adopt(doc, entry)
        return True

    def recover(self, entry: recovery.Entry) -> bool:
        """Open the work kept in ``entry`` (the start page's list): on its file when that is
        still there, else as an unsaved map."""
        if not self.maybe_save():
            return False
        recovered = self.files.read_recovery(entry)
        if recovered is None:
            QMessageBox.warning(
                self, "Recover unsaved work", f"{entry.file.name} can no longer be read."
            )
            self._refresh_recoverable()
            return False
        document: MapDocument | None = None
        if entry.origin is not None and entry.origin.is_file():
            with contextlib.suppress(MapFormatError, EngineError, OSError):
                document = self.files.open(entry.origin)
        if document is None:
            document = MapDocument(blank_map(recovered.width, recovered.height))
        document.undo_stack.push(ReplaceMap(document, recovered, "Recover autosave"))
        self.set_document(document)
        self.files.adopt(document, entry)
        self.statusBar().showMessage(f"Recovered {entry.name}: save it to keep it", 8000)
        return True

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._bars_timer.start()  # the tool bars' rows follow the width

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        # A message shown before the window was (opening a file from the command line) could
        # not hide the tool hint, which is hidden only while visible: show it again so it does
        # (cleared first: QStatusBar ignores the message it already shows).
        super().showEvent(event)
        self._arrange_bars()  # before the first paint: the rows never jump once shown
        bar = self.statusBar()
        message = bar.currentMessage()
        if message:
            bar.clearMessage()
            bar.showMessage(message, 8000)

    def _restore_layout(self) -> None:
        """The size, position, docks and tool bars the last window closed with."""
        geometry = self.settings.value(GEOMETRY_KEY)
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self.settings.value(STATE_KEY)
        if isinstance(state, QByteArray):
            self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self) -> None:
        """Remember this window's size, position, docks and tool bars for the next one."""
        self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        if self.pages.currentWidget() is not self.start_page:  # it hides the docks and bars
            self.settings.setValue(STATE_KEY, self.saveState(LAYOUT_VERSION))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        if self.maybe_save():
            self.save_layout()
            self.files.discard_recovery(self.document)
            self.files.close()
            event.accept()
        else:
            event.ignore()

    def _last_dir(self) -> Path:
        return self.files.last_dir()

    def _refresh_recoverable(self) -> None:
        """List the work left by windows that are gone (read when the start page is shown: it
        reads every recovery file, too much for each save)."""
        self.start_page.set_recoverable(self.files.recoverable())

    def _refresh_recent(self) -> None:
        recent = self.files.recent()
        self.start_page.set_recent(recent)
        self.recent_menu.clear()
        for p in recent:
            self.recent_menu.addAction(p, functools.partial(self.open_path, Path(p)))
        self.recent_menu.setEnabled(bool(recent))

    # -- playtest ------------------------------------------------------------------------------

    def playtest(self) -> None:
        """Hand a copy of the map (saved or not) to the game window. A map with errors is
        played after a confirmation listing them; refused only when the engine cannot play it."""
        m = self.document.snapshot()
        ok = confirm_errors(m, self)
        self._playtest = open_playtest(m, self, allow_errors=True) if ok else None


def open_editor(path: str | Path | None = None) -> MainWindow:
    """A main window on ``path``, or showing the start page. Bad files leave the start page."""
    window = MainWindow()
    if path is not None:
        window.open_path(Path(path), ask_save=False)
        window.view.fit()
    return window
