"""How responsive the playtest window stays while bots think (not a test; prints figures).

A QTimer ticks every 10 ms on the UI thread while a game of bots runs in the window at full
speed (no pause between bot actions, as with "skip to my turn"); the gaps between ticks show how
long the UI thread was ever blocked. Goal: no gap over 100 ms.

    python benchmarks/bench_playtest.py [MAP] [--bot mcts|greedy|random] [--strength N]
                                        [--seconds S] [--players N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> int:
    if os.environ.get("SWITCH"):
        sys.setswitchinterval(float(os.environ["SWITCH"]))
    ap = argparse.ArgumentParser()
    ap.add_argument("map", nargs="?", default="france")
    ap.add_argument("--bot", default="mcts", choices=("random", "greedy", "mcts"))
    ap.add_argument("--strength", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument(
        "--thread", action="store_true", help="bots in a thread instead of their process"
    )
    args = ap.parse_args()

    from PySide6.QtCore import QElapsedTimer, QTimer
    from PySide6.QtWidgets import QApplication

    from engine.mapio import load_map
    from engine.resources import bundled_map
    from mapeditor.playtest.setup import DEFAULT_COLOURS, Seat, default_setup
    from mapeditor.playtest.window import PlaytestWindow

    app = QApplication.instance() or QApplication([])
    m = load_map(bundled_map(args.map))
    setup = default_setup(m, seed=1, players=args.players)
    setup.seats = [
        Seat(f"Bot{i + 1}", DEFAULT_COLOURS[i], args.bot, args.strength)
        for i in range(args.players)
    ]
    # the first bot waits 2 s: the window's first paint is not what this measures
    w = PlaytestWindow(m, setup, pace_ms=2000)
    if args.thread:
        from mapeditor.playtest.bot_worker import BotWorker

        w.session.use_worker(BotWorker(w.session, use_process=False))
    w.resize(1400, 950)
    w.show()
    t_show = time.perf_counter()
    while time.perf_counter() - t_show < 1.0:
        app.processEvents()
        time.sleep(0.005)

    gaps: list[float] = []
    clock = QElapsedTimer()
    clock.start()
    last = [clock.nsecsElapsed()]

    big: list[tuple[float, int, float]] = []

    def tick() -> None:
        now = clock.nsecsElapsed()
        gap = (now - last[0]) / 1e6
        gaps.append(gap)
        if gap > 60:
            big.append((gap, w.game.turn, now / 1e9))
        last[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    actions_before = len(w.game.history)
    w.pace.setValue(0)
    w.skip_to_human()  # as the "Skip to my turn" button: bots play on without pauses
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds and not w.game.is_over():
        app.processEvents()
        time.sleep(0.001)
    elapsed = time.perf_counter() - t0
    timer.stop()
    actions = len(w.game.history) - actions_before
    w.close()
    gaps.sort()
    print(
        f"bots in {'a thread' if args.thread else 'their own process'}; map {args.map}, {args.players} x {args.bot} bot (strength {args.strength}), "
        f"{elapsed:.1f} s, {actions} bot actions, {w.game.turn} turns"
        f"{' (game over)' if w.game.is_over() else ''}"
    )
    print(
        f"UI ticks: {len(gaps)} (timer 10 ms); gap median {statistics.median(gaps):.1f} ms, "
        f"p99 {gaps[int(len(gaps) * 0.99) - 1]:.1f} ms, max {gaps[-1]:.1f} ms"
    )
    over = sum(1 for g in gaps if g > 100)
    print(f"gaps over 100 ms: {over}")
    if os.environ.get("VERBOSE"):
        for gap, turn, at in big:
            print(f"  gap {gap:.0f} ms at {at:.2f} s, turn {turn}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
