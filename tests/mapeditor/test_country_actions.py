"""Country-map commands in the editor: crop, resize and shift as undo steps (losses asked about
first), suggested ferries accepted one by one or all together, land borders, places; F9 on a map
with errors asks instead of refusing."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from engine.geometry import Edge, Side
from engine.mapdef import EdgeKind, Ferry, LargeCity, MapDef, StartSquare, Town
from mapeditor import country_actions as actions
from mapeditor.document import MapDocument
from mapeditor.widgets import country_menu


def _islands() -> MapDef:
    m = MapDef(id="i", name="I", width=16, height=10)
    m.land = {(x, y) for x in range(3, 7) for y in range(3, 7)} | {(10, 4), (11, 4), (14, 8)}
    m.start_squares[(3, 3)] = StartSquare("A")
    m.start_squares[(6, 6)] = StartSquare("B")
    m.towns[(11, 4)] = Town("T")
    m.large_cities["c"] = LargeCity("c", "C", {(4, 4)}, 1, {Edge(4, 4, Side.E): EdgeKind.CITY})
    m.editor["neighbours"] = [{"x": 3, "y": 5, "side": "W", "name": "Westland"}]
    return m


def test_crop_resize_shift_are_undo_steps_and_elements_move(qapp) -> None:
    doc = MapDocument(_islands())
    assert actions.reshape_document(doc, actions.crop_arguments(doc), "Crop to content")
    m = doc.map
    assert (m.width, m.height) == (14, 8)
    assert (1, 1) in m.start_squares and m.large_cities["c"].squares == {(2, 2)}
    assert m.large_cities["c"].edges == {Edge(2, 2, Side.E): EdgeKind.CITY}
    assert m.editor["neighbours"][0]["x"] == 1
    assert doc.undo_stack.undoText() == "Crop to content"
    doc.undo_stack.undo()
    assert (doc.map.width, (3, 3) in doc.map.start_squares) == (16, True)
    doc.undo_stack.redo()
    assert doc.map.width == 14
    args = actions.resize_arguments(doc, 8, 8)
    assert actions.grid_losses(doc, args)[0] == "3 map square(s): (8, 2), (9, 2), (12, 6)"
    assert "town T at (9, 2)" in actions.grid_losses(doc, args)
    assert not actions.reshape_document(doc, (14, 8, 0, 0), "nothing")


def test_losses_are_confirmed_before_they_go(make_editor, monkeypatch) -> None:
    window = make_editor(_islands())
    asked: list[str] = []

    def refuse(self) -> int:  # the confirmation box: "Cancel"
        asked.append(self.text())
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "exec", refuse)
    args = actions.resize_arguments(window.document, 8, 10)
    assert not country_menu._reshape(window, args, "Resize grid")
    assert "will fall off the grid" in asked[0] and "town T" in asked[0]
    assert window.document.map.width == 16  # nothing changed
    monkeypatch.setattr(QMessageBox, "exec", lambda self: QMessageBox.StandardButton.Ok)
    assert country_menu._reshape(window, args, "Resize grid")
    assert window.document.map.width == 8 and not window.document.map.towns
    assert {"Grid", "Country"} <= set(window.menus)


def test_suggested_ferries_accepted_one_by_one_or_together(make_editor, monkeypatch) -> None:
    window = make_editor(_islands())
    ferries = actions.suggested_ferries(window.document)
    assert len(ferries) == 2
    dialog = country_menu.FerriesDialog(ferries)
    from PySide6.QtCore import Qt

    dialog.list.item(1).setCheckState(Qt.CheckState.Unchecked)
    assert dialog.chosen() == ferries[:1]
    assert actions.accept_ferries(window.document, dialog.chosen()) == 1
    assert actions.accept_ferries(window.document, actions.suggested_ferries(window.document)) == 1
    assert len(window.document.map.ferries) == 2
    window.document.undo_stack.undo()
    assert len(window.document.map.ferries) == 1
    monkeypatch.setattr(
        country_menu.FerriesDialog, "exec", lambda self: QDialog.DialogCode.Accepted
    )
    assert country_menu.ferries_dialog(window) == 1  # all together
    assert len(window.document.map.ferries) == 2


def test_mark_land_borders_from_neighbour_names(qapp) -> None:
    doc = MapDocument(_islands())
    assert actions.mark_land_borders(doc) == 1
    assert doc.map.land_borders == {Edge(3, 5, Side.W)}
    assert actions.mark_land_borders(doc) == 0
    doc.undo_stack.undo()
    assert not doc.map.land_borders


def test_places_on_an_imported_map(qapp) -> None:
    from engine.geo.country import import_country
    from engine.geo.draft import keep_import_settings

    imp = import_country("Italy", km=40.0, crop=1, cities=0)
    m = imp.map
    keep_import_settings(m, imp)
    doc = MapDocument(m)
    edge, feature = actions.place_border_feature(doc, "Lugano", EdgeKind.ROAD)
    assert feature.neighbour == "Svizzera" and doc.map.border_features[edge] == feature
    square, _ = actions.place_town(doc, (12.33, 45.44), "Venezia")
    assert doc.map.towns[square].name == "Venezia" and square in doc.map.placeable_squares()
    assert country_menu._parse_place("9.03, 45.84") == (9.03, 45.84)
    assert country_menu._parse_place("Lugano") == "Lugano"


def test_f9_with_errors_asks_and_plays_when_the_engine_can(qapp, monkeypatch) -> None:
    from mapeditor.playtest import launch

    m = _islands()  # two islands without ferries: unreachable squares, an error
    assert any("unreachable-square" in e for e in launch.map_errors(m))
    shown: list[str] = []

    def answer(parent, title, text, *args):  # type: ignore[no-untyped-def]
        shown.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    assert launch.confirm_errors(m) is True
    assert "unreachable-square" in shown[0] and "would fix it" in shown[0]
    # A map the engine cannot play at all is refused, saying why.
    m.start_squares.clear()
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda p, t, text: warned.append(text))
    assert launch.confirm_errors(m) is False
    assert "cannot be played" in warned[0] and "no start squares" in warned[0]


@pytest.mark.parametrize("shift", [False, True])
def test_grid_dialog_arguments(make_editor, shift: bool) -> None:
    window = make_editor(_islands())
    dialog = country_menu.GridDialog(window, shift=shift)
    dialog.a.setValue(2 if shift else 20)
    dialog.b.setValue(1 if shift else 12)
    expected = (16, 10, 2, 1) if shift else (20, 12, 2, 1)
    assert dialog.arguments(window) == expected


def test_a_new_maps_tile_pool_follows_its_size(qapp) -> None:
    from mapeditor.files import blank_map

    small = blank_map(10, 8)
    assert (small.setup.tile_pool_min, small.setup.tile_pool_max) == (45, 55)
    big = blank_map(40, 40)
    assert (big.setup.tile_pool_min, big.setup.tile_pool_max) == (110, 120)


def test_suggested_ferries_are_labelled_with_nearby_places(qapp) -> None:
    m = _islands()
    ferries = actions.suggested_ferries(MapDocument(m))
    dialog = country_menu.FerriesDialog(ferries, None, m)
    labels = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert any(text.count("T ") == 1 for text in labels)  # the island town T


def test_a_ferry_to_an_island_off_a_town_is_not_named_after_the_town_twice(qapp) -> None:
    # Kalmar on the coast, Öland one square of sea away with no town of its own: the island end
    # is not "Kalmar" too (issue #27).
    m = MapDef(id="k", name="K", width=8, height=6)
    m.land = {(1, y) for y in range(1, 5)} | {(2, y) for y in range(1, 5)} | {(4, 2), (4, 3)}
    m.towns[(2, 2)] = Town("Kalmar")
    ferry = Ferry("f", Edge(2, 2, Side.E), Edge(4, 2, Side.W))
    assert country_menu.ferry_ends(m, ferry) == ("Kalmar ", "island of 2 squares ")
    m.towns[(4, 3)] = Town("Borgholm")
    assert country_menu.ferry_ends(m, ferry) == ("Kalmar ", "Borgholm ")
    dialog = country_menu.FerriesDialog([ferry], None, m)
    assert dialog.list.item(0).text().startswith("Kalmar (2, 2) E  →  Borgholm (4, 2) W")
    # Two ends on one land (a ferry across a bay) near one town: named once.
    bay = Ferry("g", Edge(2, 1, Side.N), Edge(2, 4, Side.S))
    assert country_menu.ferry_ends(m, bay) == ("Kalmar ", "")


def test_land_border_tool_drags_clouds_and_the_ferry_tool_keeps_to_the_sea(make_editor) -> None:
    from mapeditor.tools import FerryTool, LandBorderTool
    from tests.mapeditor._editor_input import click, drag, edge_point, square_point

    m = MapDef(id="b", name="B", width=12, height=10)
    m.land = {(x, y) for x in range(1, 4) for y in range(1, 4)} | {(8, 2)}
    m.start_squares[(1, 1)] = StartSquare("A")
    window = make_editor(m)
    window.set_tool(LandBorderTool)
    run = [Edge(3, 1, Side.E), Edge(3, 2, Side.E), Edge(3, 3, Side.E)]
    drag(window, [edge_point(window, e) for e in run])
    assert window.document.map.land_borders == set(run)
    window.document.undo_stack.undo()  # one stroke, one undo step
    assert window.document.map.land_borders == set()
    window.document.undo_stack.redo()
    click(window, edge_point(window, Edge(3, 2, Side.E)))  # back to sea
    assert window.document.map.land_borders == {Edge(3, 1, Side.E), Edge(3, 3, Side.E)}
    window.set_tool(FerryTool)
    land_border, island = Edge(3, 1, Side.E), Edge(8, 2, Side.W)
    drag(
        window,
        [edge_point(window, land_border), square_point(window, (5, 1)), edge_point(window, island)],
    )
    assert not window.document.map.ferries  # not from a land border
    sea = Edge(3, 2, Side.E)
    drag(
        window, [edge_point(window, sea), square_point(window, (5, 2)), edge_point(window, island)]
    )
    assert [(f.a, f.b) for f in window.document.map.ferries.values()] == [(sea, island)]
