"""The setup dialog, and bots that never play on the wrong position."""

from __future__ import annotations

from _playtest_helpers import small_setup, wait_for_human
from PySide6.QtCore import Qt

from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor.playtest import SetupDialog, default_setup
from mapeditor.playtest.bot_worker import BotWorker


def test_setup_dialog_reads_its_form(qtbot) -> None:
    m = load_map(bundled_map("deutschland"))
    dlg = SetupDialog(m, default_setup(m, seed=42))
    qtbot.addWidget(dlg)
    assert dlg.seed.value() == 42
    dlg.player_count.setValue(4)
    dlg.rows[1].kind.setCurrentIndex(dlg.rows[1].kind.findData("mcts"))
    dlg.rows[1].strength.setValue(7)
    dlg.rows[2].name.setText("Carla")
    dlg.town_a.setChecked(True)
    dlg.chips.setChecked(False)
    dlg.starts_auto.setChecked(False)
    for i in range(dlg.starts.count()):
        dlg.starts.item(i).setCheckState(
            Qt.CheckState.Checked if i < 2 else Qt.CheckState.Unchecked
        )
    dlg.meeples.setValue(6)
    setup = dlg.setup()
    assert [s.name for s in setup.seats] == ["Red", "Blue", "Carla", "Yellow"]
    assert (setup.seats[1].kind, setup.seats[1].strength) == ("mcts", 7)
    o = setup.options
    assert o.town_extra_tile and not o.town_cost and o.rule_set == "none" and o.meeples == 6
    assert o.start_squares is not None and len(o.start_squares) == 2
    assert dlg.validate() == []
    game = setup.make_game(m)
    assert [sq for sq, _t, _r in game.start_tiles] == list(o.start_squares)


def test_setup_dialog_refuses_a_bad_setup_and_says_why(qtbot) -> None:
    m = load_map(bundled_map("example-small"))
    dlg = SetupDialog(m, default_setup(m, seed=1))
    qtbot.addWidget(dlg)
    dlg.rows[1].name.setText("Red")
    dlg.accept()
    assert dlg.result() != SetupDialog.DialogCode.Accepted
    assert "the name 'Red' is used twice" in dlg.problems.text()
    dlg.rows[1].name.setText("Blue")
    dlg.starts_auto.setChecked(False)
    for i in range(dlg.starts.count()):
        dlg.starts.item(i).setCheckState(Qt.CheckState.Unchecked)
    assert any("start squares" in p for p in dlg.validate())


def test_the_map_chips_box_follows_the_map(qtbot) -> None:
    plain = load_map(bundled_map("example-small"))
    dlg = SetupDialog(plain)
    qtbot.addWidget(dlg)
    assert not dlg.chips.isEnabled() and dlg.setup().options.rule_set == "none"
    france = load_map(bundled_map("france"))
    dlg = SetupDialog(france)
    qtbot.addWidget(dlg)
    assert dlg.chips.isEnabled() and dlg.setup().options.rule_set == "france"


def test_bots_run_in_their_own_process(qtbot, make_playtest) -> None:
    w = make_playtest()
    assert w.worker.in_process
    wait_for_human(qtbot, w)


def test_a_stale_bot_answer_is_never_played(qtbot, make_playtest) -> None:
    setup = small_setup()
    setup.seats[0].kind = "random"
    w = make_playtest(setup=setup)
    w.pace.setValue(0)
    # a game restarted while its bot thinks: the old answer must be dropped
    qtbot.waitUntil(lambda: w.worker.busy, timeout=10_000)
    w.new_game(small_setup())
    fresh = w.game.state_summary()
    qtbot.wait(300)
    assert w.game.state_summary() == fresh  # Red is human now: nothing moved
    assert w.human_to_move()


def test_thread_fallback_plays_too(qtbot, make_playtest) -> None:
    w = make_playtest()
    wait_for_human(qtbot, w)
    w.session.use_worker(BotWorker(w.session, use_process=False))
    assert not w.worker.in_process
    p = w.game.legal_placements().list()[0]
    w.rotation = p.rotation
    w.click_square(p.square)
    if w.pending is not None:
        w.no_meeple()
    wait_for_human(qtbot, w)
    assert w.game.turn == 2


def test_the_bot_process_side_loads_no_qt() -> None:
    import subprocess
    import sys

    code = (
        "import sys, mapeditor.playtest.bot_process\n"
        "bad = [m for m in sys.modules if m.startswith('PySide6')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_a_script_without_a_main_guard_is_not_run_again_by_the_bot_process(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = tmp_path / "unguarded.py"
    script.write_text(
        "import os\n"
        "os.environ['QT_QPA_PLATFORM'] = 'offscreen'\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from engine.game import GameOptions\n"
        "from engine.mapio import load_map\n"
        "from engine.resources import bundled_map\n"
        "from mapeditor.playtest import PlaytestSetup, PlaytestWindow, Seat\n"
        "setup = PlaytestSetup([Seat('A', '#f00', 'random'), Seat('B', '#00f', 'random')], 1,\n"
        "    GameOptions(rule_set='none', draw_order=('A', 'B', 'C')))\n"
        "w = PlaytestWindow(load_map(bundled_map('example-small')), setup, pace_ms=0)\n"
        "while not w.game.is_over():\n"
        "    app.processEvents()\n"
        "print('game over', flush=True)\n"
        "w.close()\n",
        encoding="utf-8",
    )
    root = Path(__file__).resolve().parents[3]
    r = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=root, timeout=120
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("game over") == 1


def test_the_same_seed_replays_the_same_bot_game(qtbot, make_playtest) -> None:
    def play_out() -> dict:
        setup = small_setup("greedy")
        setup.seats[0].kind = "random"
        w = make_playtest(setup=setup)
        qtbot.waitUntil(w.game.is_over, timeout=20_000)
        return w.game.state_summary()

    assert play_out() == play_out()


def test_bots_carry_on_in_a_thread_when_their_process_dies(qtbot, make_playtest) -> None:
    from mapeditor.playtest.bot_worker import _BotProcess

    setup = small_setup("random")
    setup.seats[0].kind = "mcts"
    setup.seats[0].strength = 10  # thinks long enough to be killed while thinking
    w = make_playtest(setup=setup)
    assert w.worker.in_process
    qtbot.waitUntil(lambda: w.worker.busy, timeout=10_000)
    running = _BotProcess.get()
    assert running is not None
    proc = running.proc
    proc.kill()
    proc.join(5)
    qtbot.waitUntil(lambda: w.game.turn >= 1, timeout=30_000)
    assert not w.worker.in_process
    assert not any(line.startswith("Bot error") for line in w.log.lines())
    w.close()  # do not wait for the whole slow game


def test_no_bot_process_outlives_the_windows(qtbot, make_playtest) -> None:
    import multiprocessing

    def bot_processes() -> list:
        # the editor's helper process (mapeditor.offload) serves the whole application
        return [p for p in multiprocessing.active_children() if p.name == "playtest-bots"]

    w1 = make_playtest()
    w2 = make_playtest()
    assert w1.worker.in_process and w2.worker.in_process
    assert len(bot_processes()) == 1  # one process for all windows
    w1.close()
    assert len(bot_processes()) == 1
    w2.close()
    assert bot_processes() == []
