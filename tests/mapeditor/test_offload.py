"""The helper process that runs validation and chip proofs away from the UI's GIL."""

from __future__ import annotations

import os
import queue

import pytest

from engine.mapdef import NamedRuleSet
from engine.mapio import load_map
from engine.resources import bundled_map
from mapeditor import offload


def _pid() -> int:
    return os.getpid()


def _fail(message: str) -> None:
    raise ValueError(message)


def _wait(answers: queue.Queue, qtbot) -> tuple[object, BaseException | None]:
    got: list[tuple[object, BaseException | None]] = []

    def arrived() -> bool:
        try:
            got.append(answers.get_nowait())
        except queue.Empty:
            return False
        return True

    qtbot.waitUntil(arrived, timeout=60_000)
    return got[0]


def test_work_runs_in_another_process_and_answers(qtbot) -> None:
    answers: queue.Queue = queue.Queue()
    offload.run(_pid, (), lambda result, error: answers.put((result, error)))
    pid, error = _wait(answers, qtbot)
    assert error is None
    assert isinstance(pid, int) and pid != os.getpid()


def test_an_error_of_the_job_reaches_the_caller(qtbot) -> None:
    answers: queue.Queue = queue.Queue()
    offload.run(_fail, ("no such square",), lambda result, error: answers.put((result, error)))
    result, error = _wait(answers, qtbot)
    assert result is None
    assert isinstance(error, ValueError) and str(error) == "no such square"


def test_without_a_helper_process_the_work_runs_in_a_thread(qtbot, monkeypatch) -> None:
    monkeypatch.setattr(offload, "_disabled", True)
    answers: queue.Queue = queue.Queue()
    offload.run(_pid, (), lambda result, error: answers.put((result, error)))
    pid, error = _wait(answers, qtbot)
    assert error is None and pid == os.getpid()


@pytest.mark.parametrize("name", ["deutschland"])
def test_the_chips_dock_shows_the_proof_made_in_the_helper(make_editor, qtbot, name) -> None:
    window = make_editor(load_map(bundled_map(name)))
    dock = window.chips
    dock.show()
    dock.refresh()
    qtbot.waitUntil(lambda: "needs" in dock.feasible.text(), timeout=60_000)
    text = dock.feasible.text()
    assert "Erfurt" in text and "(needs 30)" in text and "✔" in text


def test_a_launcher_script_without_a_main_guard_runs_once(tmp_path) -> None:
    """``spawn`` re-imports the parent's main script in the child: the helper must not run an
    unguarded launcher (which would open a second editor) again."""
    import subprocess
    import sys

    script = tmp_path / "launcher.py"
    script.write_text(
        "import os, queue\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from mapeditor import offload\n"
        "app = QApplication([])\n"
        "print('launcher ran', flush=True)\n"
        "answers = queue.Queue()\n"
        "offload.run(os.getpid, (), lambda r, e: answers.put((r, e)))\n"
        "pid, error = answers.get(timeout=60)\n"
        "print('helper', pid != os.getpid(), error, flush=True)\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("launcher ran") == 1
    assert "helper True None" in out.stdout


def test_a_validator_failure_becomes_an_issue(make_editor, qtbot) -> None:
    """A validator that raises shows one "validator-failure" issue; the panel goes on."""
    window = make_editor()
    panel = window.validation
    panel._generation += 1
    panel._signals.done.emit(panel._generation, ValueError("broken rule"))
    texts = [str(panel.model.index(r).data()) for r in range(panel.model.rowCount())]
    assert any("broken rule" in t for t in texts), texts
    assert panel.summary.text() == "1 error(s), 0 warning(s)"


def _sleep_then(seconds: float, value: object) -> object:
    import time

    time.sleep(seconds)
    return value


def _answers(got: dict[int, object]):  # noqa: ANN202 - a QObject with a done signal
    from PySide6.QtCore import QObject, Signal

    class Answers(QObject):
        done = Signal(int, object)

    answers = Answers()
    answers.done.connect(lambda gen, result: got.__setitem__(gen, result))
    return answers


def test_a_slow_job_is_stopped_by_a_newer_one(qtbot) -> None:
    """A slow proof must not stall later checks: once it has run SUPERSEDE_AFTER_S, a newer job
    of the same caller stops it and runs at once."""
    got: dict[int, object] = {}
    answers = _answers(got)
    offload.run_to_signal(_sleep_then, (600.0, "slow"), answers.done, 1)
    qtbot.waitUntil(lambda: bool(offload.helper_pids()), timeout=60_000)
    qtbot.wait(int(offload.SUPERSEDE_AFTER_S * 1000) + 300)
    offload.run_to_signal(_sleep_then, (0.0, "newer"), answers.done, 2)
    qtbot.waitUntil(lambda: 2 in got, timeout=60_000)
    assert got[2] == "newer"
    qtbot.waitUntil(lambda: 1 in got, timeout=10_000)
    assert isinstance(got[1], offload.Superseded)  # stopped, not waited for (600 s)


def test_of_several_waiting_jobs_only_the_newest_runs(qtbot) -> None:
    got: dict[int, object] = {}
    answers = _answers(got)
    offload.run_to_signal(_sleep_then, (0.5, "first"), answers.done, 1)
    for gen in (2, 3, 4):
        offload.run_to_signal(_sleep_then, (0.0, f"job {gen}"), answers.done, gen)
    qtbot.waitUntil(lambda: 4 in got, timeout=60_000)
    assert got[4] == "job 4"
    qtbot.waitUntil(lambda: len(got) == 4, timeout=10_000)
    assert isinstance(got[2], offload.Superseded) and isinstance(got[3], offload.Superseded)
    assert got[1] == "first" or isinstance(got[1], offload.Superseded)


def test_channels_do_not_wait_for_each_other(qtbot) -> None:
    got_slow: dict[int, object] = {}
    got_fast: dict[int, object] = {}
    slow, fast = _answers(got_slow), _answers(got_fast)
    offload.run_to_signal(_sleep_then, (30.0, "slow"), slow.done, 1)
    offload.run_to_signal(_sleep_then, (0.0, "fast"), fast.done, 1)
    qtbot.waitUntil(lambda: got_fast == {1: "fast"}, timeout=25_000)
    assert not got_slow
    offload.shutdown()


def test_the_chips_dock_on_forty_start_squares_lists_a_few_and_proves_the_worst(
    make_editor, qtbot
) -> None:
    """40 start squares, 20 used: 1.4e11 choices. The dock lists the first ones (it used to
    build every choice on the UI thread) and shows the worst choice's exact count."""
    import random

    from engine.mapdef import MapDef, StartSquare
    from engine.startchoices import ENUMERATE_UP_TO, worst_choice

    rng = random.Random(1)
    m = MapDef("t", "T", 12, 12)
    m.rule_set = NamedRuleSet("france")
    m.land = {(x, y) for x in range(12) for y in range(12) if rng.random() < 0.85}
    for sq in rng.sample(sorted(m.land), 40):
        m.start_squares[sq] = StartSquare("s")
    m.setup.start_squares_used = 20
    window = make_editor(m)
    dock = window.chips
    dock.show()
    dock.refresh()
    assert dock.starts.count() == ENUMERATE_UP_TO
    qtbot.waitUntil(lambda: "needs" in dock.feasible.text(), timeout=60_000)
    worst = worst_choice(m)
    assert worst is not None and f": {worst.chips}<br>" in dock.feasible.text()


def test_channels_beyond_the_cap_close_idle_ones(qtbot) -> None:
    """Each dialog has its own channel; opening one again and again leaves no process behind."""
    offload.shutdown()
    keep = []
    for gen in range(offload.MAX_CHANNELS + 3):
        got: dict[int, object] = {}
        answers = _answers(got)
        keep.append(answers)
        offload.run_to_signal(_sleep_then, (0.0, gen), answers.done, gen)
        qtbot.waitUntil(lambda got=got: bool(got), timeout=60_000)
    assert len(offload._channels) <= offload.MAX_CHANNELS
    qtbot.waitUntil(lambda: len(offload.helper_pids()) <= offload.MAX_CHANNELS, timeout=20_000)
    offload.shutdown()


def test_a_job_done_before_its_callback_is_added_does_not_deadlock(monkeypatch) -> None:
    """A future can finish before ``add_done_callback``; the callback then runs at once, on the
    thread that holds the channel lock (this hung a CI run)."""
    import concurrent.futures
    import threading

    class DoneAtOnce:
        def submit(self, fn, *args):
            future: concurrent.futures.Future[object] = concurrent.futures.Future()
            future.set_result(fn(*args))
            return future

        def shutdown(self, **_kwargs) -> None:
            pass

    monkeypatch.setattr(offload, "_new_executor", DoneAtOnce)
    monkeypatch.setattr(offload, "_disabled", False)
    answers: queue.Queue = queue.Queue()
    key = object()
    caller = threading.Thread(
        target=offload.run_in_channel,
        args=(id(key), _pid, (), lambda result, error: answers.put((result, error))),
        daemon=True,
    )
    caller.start()
    caller.join(30)
    assert not caller.is_alive(), "run_in_channel deadlocked on a job that was already done"
    assert answers.get(timeout=30) == (os.getpid(), None)
    with offload._lock:
        offload._channels.pop(id(key), None)
