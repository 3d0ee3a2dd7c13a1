"""The Studio's playtest window joins a real host (a `python -m mapeditor host` process on
127.0.0.1) with a join link and plays its seat through real mouse and key events."""

from __future__ import annotations

import time

import pytest
from _browser import HostProcess, is_mine, launch, open_page, play_turn_via_page
from _dialogs import answer_next_message_box
from playwright.sync_api import sync_playwright
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QMessageBox

from engine import load_record, replay
from engine.game import Phase
from mapeditor.online.joined_window import JoinedWindow, join_game
from mapeditor.online.link import LinkError, parse_link
from mapeditor.painting import square_rect


@pytest.fixture
def host_factory(tmp_path):
    hosts: list[HostProcess] = []

    def make(args: list[str], port: int | None = None) -> HostProcess:
        h = HostProcess(tmp_path / "state", args, port=port).start()
        hosts.append(h)
        return h

    yield make
    for h in hosts:
        h.stop()


def _join(qtbot, link: str) -> JoinedWindow:
    _joining, opened = join_game(link)
    qtbot.waitUntil(lambda: bool(opened), timeout=60_000)
    w = opened[0]
    qtbot.addWidget(w)
    w.resize(1200, 800)
    qtbot.waitExposed(w)
    w.view.fit()
    return w


def _click(w: JoinedWindow, point: QPointF) -> None:
    QTest.mouseClick(
        w.view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        w.view.mapFromScene(point),
    )


def _offered_placements(w: JoinedWindow) -> set[tuple[int, int, int]]:
    return {(x, y, r) for x, y, r, _ in w.remote.state["moves"]["placements"]}


def play_turn_in_window(qtbot, w: JoinedWindow, *, meeple: bool) -> None:
    """One action of the window's seat with real input: turn the tile (R) to the host's first
    placement, click its square, then a meeple spot or "No meeple"; or the first action button.
    Waits until the host has reported the action back."""
    before = len(w.game.history)
    if w.game.phase is Phase.PLACE:
        # the window offers exactly the host's placements
        mine = {(sq[0], sq[1], r) for sq, rots in w.scene.overlay.fits.items() for r in rots}
        assert mine == _offered_placements(w)
        x, y, r, _spots = w.remote.state["moves"]["placements"][0]
        while w.rotation != r:
            QTest.keyClick(w.view, Qt.Key.Key_R)
        _click(w, square_rect((x, y)).center())
        if w.pending is not None:
            if meeple and w.scene.overlay.spots:
                _click(w, next(iter(w.scene.overlay.spots.values())))
            else:
                [no] = [b for b in w.action_buttons() if b.objectName() == "no_meeple"]
                QTest.mouseClick(no, Qt.MouseButton.LeftButton)
    else:
        QTest.mouseClick(w.action_buttons()[0], Qt.MouseButton.LeftButton)
    assert not w.human_to_move()  # sent: nothing more until the host answers
    qtbot.waitUntil(lambda: len(w.game.history) > before, timeout=30_000)


def _log_text(w: JoinedWindow) -> str:
    return "\n".join(w.log.lines())


def test_a_join_link_is_taken_apart_or_refused_with_a_reason() -> None:
    link = parse_link("https://games.example.org/play/deutschland#t=" + "a" * 24)
    assert link.websocket == "wss://games.example.org/ws/deutschland"
    for bad, why in [
        ("ftp://x/play/g#t=" + "a" * 24, "starts http"),
        ("http://x/ws/g#t=" + "a" * 24, "/play/GAME"),
        ("http://x/play/g", "no seat token"),
        ("http://x/play/g#t=short", "no seat token"),
    ]:
        with pytest.raises(LinkError, match=why):
            parse_link(bad)


def test_the_window_plays_a_whole_game_against_the_hosts_bot(qtbot, host_factory) -> None:
    host = host_factory(
        ["deutschland", "--players", "Ann=human,greedy", "--seed", "5", "--tiles", "12"]
    )
    w = _join(qtbot, host.links["Ann"])
    assert w.remote.seat == 0 and "you play Ann" in w.windowTitle()
    assert not w.undo_action.isVisible() and not w.bots_box.isVisible()

    w.chat_text.setFocus()
    QTest.keyClicks(w.chat_text, "Good luck")
    QTest.keyClick(w.chat_text, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "Ann says: Good luck" in _log_text(w), timeout=20_000)

    turns = 0
    deadline = time.monotonic() + 300
    while not w.game.is_over():
        assert time.monotonic() < deadline, "the game did not finish in time"
        qtbot.waitUntil(lambda: w.human_to_move() or w.game.is_over(), timeout=60_000)
        if w.game.is_over():
            break
        play_turn_in_window(qtbot, w, meeple=turns % 2 == 0)
        turns += 1
    # every action of Ann's seat was played in the window, and there were several
    assert turns == sum(1 for player, _turn in w.actors if player == 0) >= 4
    # the bot's moves reached the window's log, in the bot's colour
    bot = w.game.players[1]
    assert _log_text(w).count(f"{bot} ") >= 3
    record = load_record(host.state / "deutschland" / "record.json")
    game = replay(record)
    assert game.is_over()
    assert game.scores == w.game.scores
    assert record.actions == [a.to_dict() for a in w.game.history]
    qtbot.waitUntil(lambda: w.summary is not None, timeout=10_000)


def test_the_window_reconnects_to_a_restarted_host_and_plays_on(qtbot, host_factory) -> None:
    args = ["deutschland", "--players", "Ann=human,greedy", "--seed", "11"]
    host = host_factory(args)
    w = _join(qtbot, host.links["Ann"])
    qtbot.waitUntil(w.human_to_move, timeout=60_000)
    play_turn_in_window(qtbot, w, meeple=False)
    qtbot.waitUntil(w.human_to_move, timeout=60_000)
    played = len(w.game.history)

    host.kill()
    qtbot.waitUntil(lambda: "Connection lost" in w.statusBar().currentMessage(), timeout=20_000)
    assert not w.human_to_move() or not w.remote.link.connected
    again = host_factory(args, port=host.port)
    assert again.links["Ann"] == host.links["Ann"]
    qtbot.waitUntil(
        lambda: w.statusBar().currentMessage() == "Connected to the host", timeout=60_000
    )
    qtbot.waitUntil(w.human_to_move, timeout=60_000)
    assert len(w.game.history) == played
    play_turn_in_window(qtbot, w, meeple=False)
    record = load_record(host.state / "deutschland" / "record.json")
    assert len(record.actions) > played
    assert record.actions[: len(w.game.history)] == [a.to_dict() for a in w.game.history]


def test_a_browser_and_the_studio_window_play_one_game(qtbot, host_factory) -> None:
    host = host_factory(
        ["deutschland", "--players", "Ann=human,Bob=human,greedy", "--seed", "5", "--tiles", "9"]
    )
    with sync_playwright() as pw:
        browser = launch(pw)
        ann = open_page(browser, host.links["Ann"])
        bob = _join(qtbot, host.links["Bob"])
        ann.locator("#chat-text").fill("Hello from the browser")
        ann.locator("#chat-form button").click()
        qtbot.waitUntil(
            lambda: "Ann says: Hello from the browser" in _log_text(bob), timeout=20_000
        )
        turns = {"page": 0, "window": 0}
        deadline = time.monotonic() + 300
        while not bob.game.is_over():
            assert time.monotonic() < deadline, "the game did not finish in time"
            if is_mine(ann):
                play_turn_via_page(ann, meeple=False)
                turns["page"] += 1
            if bob.human_to_move():
                play_turn_in_window(qtbot, bob, meeple=turns["window"] % 2 == 0)
                turns["window"] += 1
            qtbot.wait(20)
        browser.close()
    assert turns["page"] >= 2 and turns["window"] >= 2
    game = replay(load_record(host.state / "deutschland" / "record.json"))
    assert game.is_over() and game.scores == bob.game.scores


def _type_into_next_input_dialog(text: str) -> None:
    """When the next input dialog opens, type ``text`` into it and press Enter."""

    def poll() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QInputDialog):
            QTimer.singleShot(20, poll)
            return
        line = box.findChild(QLineEdit)
        line.selectAll()
        QTest.keyClicks(line, text)
        QTest.keyClick(line, Qt.Key.Key_Return)

    QTimer.singleShot(0, poll)


def test_the_editors_map_menu_joins_a_game_or_says_why_not(qtbot, make_editor, host_factory):
    host = host_factory(["deutschland", "--players", "Ann=human,greedy", "--seed", "3"])
    editor = make_editor()
    map_menu = next(a.menu() for a in editor.menuBar().actions() if a.text() == "&Map")
    [join] = [a for a in map_menu.actions() if a.text() == "&Join an online game…"]
    # not a join link: one message naming what is wrong, nothing opens
    seen: list[str] = []
    _type_into_next_input_dialog("http://127.0.0.1/ws/deutschland")
    answer_next_message_box(QMessageBox.StandardButton.Ok, seen)
    join.trigger()
    qtbot.waitUntil(lambda: bool(seen))
    assert "/play/GAME" in seen[0] and not editor._joined_windows
    # Ann's link: her seat opens in a playtest window
    _type_into_next_input_dialog(host.links["Ann"])
    join.trigger()
    qtbot.waitUntil(lambda: bool(editor._joined_windows), timeout=60_000)
    w = editor._joined_windows[0]
    qtbot.addWidget(w)
    assert w.remote.seat == 0 and w.game.map.id == "deutschland"
