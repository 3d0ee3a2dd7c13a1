"""Work for the UI run in a helper process, so that it never shares the GIL with the UI thread.

Pure-Python work in a thread (validating a map, proving chip feasibility) holds the GIL in 5 ms
slices and starves the UI thread: measured on a 200x200 map, brush-stroke steps of 120-220 ms
while the map validated in a thread, against 5-10 ms otherwise. One helper process serves the
whole application, started on first use with ``spawn`` (never fork a process that runs Qt). If
it cannot be started, or stops, the work runs in Qt's thread pool instead: slower for the UI,
never lost.

**Superseding.** Each caller of :func:`run_to_signal` (one signal: the validation dock, the chips
dock, a country dialog) is a *channel* with its own helper process, so a slow chip proof never
delays validation. A channel runs one job at a time and keeps at most one waiting: a newer job
replaces the waiting one, and a job that has already run for :data:`SUPERSEDE_AFTER_S` is
stopped (its process is ended and a fresh one takes the new job) instead of delaying it. A
replaced or stopped job answers with :class:`Superseded`, which callers ignore like any answer
of an old generation.

:func:`run` calls ``done(result, error)`` from a worker thread: emit a Qt signal from it (a
queued connection brings the answer to the UI thread), as :func:`run_to_signal` does.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import concurrent.futures.process  # BrokenProcessPool; not loaded until a pool is made
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QRunnable, QThreadPool

from mapeditor import lifeline

Done = Callable[[Any, BaseException | None], None]

SUPERSEDE_AFTER_S = 1.0
"""A running job older than this is stopped when a newer job of its channel arrives (a younger
one finishes first: starting a helper process costs about as much)."""


class Superseded(Exception):  # noqa: N818 - an answer, not a failure
    """The answer of a job replaced by a newer job of the same channel before it finished."""


# Re-entrant: a job that is already done when _start (called with the lock held) adds its done
# callback runs _finished at once on the same thread; a plain Lock deadlocked there.
_lock = threading.RLock()
_executor: concurrent.futures.ProcessPoolExecutor | None = None
_disabled = False


@contextlib.contextmanager
def hidden_main() -> Iterator[None]:
    """Start spawned processes without them re-running the parent's ``__main__``.

    ``spawn`` imports the parent's main script (or ``-m`` module) in the child; a script that
    opens the window at top level, with no ``if __name__ == "__main__"`` guard, would open it
    again there. The helpers need nothing from ``__main__``, so it is hidden while they start.
    """
    main = sys.modules.get("__main__")
    saved: dict[str, Any] = {
        k: main.__dict__[k] for k in ("__file__", "__spec__") if main and k in main.__dict__
    }
    try:
        if main is not None:
            main.__dict__.pop("__file__", None)
            if "__spec__" in saved:
                main.__spec__ = None
        yield
    finally:
        if main is not None:
            main.__dict__.update(saved)


class _ThreadJob(QRunnable):
    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], done: Done) -> None:
        super().__init__()
        self._fn, self._args, self._done = fn, args, done

    def run(self) -> None:
        try:
            result = self._fn(*self._args)
        except Exception as exc:  # noqa: BLE001 - handed to the caller, never lost
            self._done(None, exc)
        else:
            self._done(result, None)


def _answer(
    future: concurrent.futures.Future[Any],
    fn: Callable[..., Any],
    args: tuple[Any, ...],
    done: Done,
) -> None:
    """Hand a finished job to ``done``; a job the process could not finish runs in a thread."""
    global _executor
    try:
        result = future.result()
    except concurrent.futures.process.BrokenProcessPool:
        with _lock:
            _executor = None  # the next job starts a new process
        QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))
    except Exception as exc:  # noqa: BLE001 - the job's own error, for the caller
        done(None, exc)
    else:
        done(result, None)


def run(fn: Callable[..., Any], args: tuple[Any, ...], done: Done) -> None:
    """Run ``fn(*args)`` in the helper process (``fn`` and ``args`` must pickle: a module-level
    function and plain data), then call ``done(result, None)`` or ``done(None, error)``."""
    global _executor, _disabled
    with _lock:
        executor = None
        if not _disabled:
            try:
                if _executor is None:
                    _executor = _new_executor()
                with hidden_main():  # the process starts at the first submit
                    future = _executor.submit(fn, *args)
                executor = _executor
            except (OSError, RuntimeError, concurrent.futures.process.BrokenProcessPool):
                _disabled = True  # no helper process here: threads from now on
    if executor is None:
        QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))
        return
    future.add_done_callback(lambda f: _answer(f, fn, args, done))


_exit_hook = False


def _new_executor() -> concurrent.futures.ProcessPoolExecutor:
    import multiprocessing

    global _exit_hook
    if not _exit_hook:
        atexit.register(shutdown)  # before the interpreter tears modules down
        _exit_hook = True
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=lifeline.exit_with_parent,
        initargs=(os.getpid(),),
    )


def _terminate(executor: concurrent.futures.ProcessPoolExecutor) -> None:
    """End the executor's process now (its running job answers BrokenProcessPool)."""
    # the executor has no public way to stop a running job before Python 3.14
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
    executor.shutdown(wait=False, cancel_futures=True)


class _Channel:
    """One caller's jobs: one running in the channel's own helper process, at most one waiting."""

    def __init__(self) -> None:
        self.executor: concurrent.futures.ProcessPoolExecutor | None = None
        self.running: tuple[concurrent.futures.Future[Any], float, Done] | None = None
        self.waiting: tuple[Callable[..., Any], tuple[Any, ...], Done] | None = None
        self.stopped: set[concurrent.futures.Future[Any]] = set()

    def submit(self, fn: Callable[..., Any], args: tuple[Any, ...], done: Done) -> None:
        """Called with :data:`_lock` held."""
        old_waiting, self.waiting = self.waiting, None
        if old_waiting is not None:
            _answer_later(old_waiting[2], Superseded())
        if self.running is not None:
            future, started, running_done = self.running
            if time.monotonic() - started < SUPERSEDE_AFTER_S:
                self.waiting = (fn, args, done)  # it finishes soon: run next
                return
            self.stopped.add(future)
            self.running = None
            executor, self.executor = self.executor, None
            if executor is not None:
                _terminate(executor)
            _answer_later(running_done, Superseded())
        self._start(fn, args, done)

    def _start(self, fn: Callable[..., Any], args: tuple[Any, ...], done: Done) -> None:
        global _disabled
        try:
            if self.executor is None:
                self.executor = _new_executor()
            with hidden_main():
                future = self.executor.submit(fn, *args)
        except (OSError, RuntimeError, concurrent.futures.process.BrokenProcessPool):
            _disabled = True
            QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))
            return
        self.running = (future, time.monotonic(), done)
        future.add_done_callback(lambda f: self._finished(f, fn, args, done))

    def _finished(
        self,
        future: concurrent.futures.Future[Any],
        fn: Callable[..., Any],
        args: tuple[Any, ...],
        done: Done,
    ) -> None:
        with _lock:
            if future in self.stopped or future.cancelled():
                self.stopped.discard(future)
                return  # superseded (already answered) or shut down
            if self.running is not None and self.running[0] is future:
                self.running = None
            broken = isinstance(future.exception(), concurrent.futures.process.BrokenProcessPool)
            if broken:
                self.executor = None
            following, self.waiting = self.waiting, None
            if following is not None:
                self._start(*following)
        if broken:  # the process died under the job: run it in a thread instead
            QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))
            return
        _answer(future, fn, args, done)

    def pids(self) -> set[int]:
        return set(getattr(self.executor, "_processes", None) or {})

    def close(self) -> None:
        """Stop the channel's process (a running job is abandoned: the caller is going away)."""
        executor, self.executor = self.executor, None
        if self.running is not None:
            self.stopped.add(self.running[0])
            self.running = None
        if executor is not None:
            _terminate(executor)


_channels: dict[int, _Channel] = {}
MAX_CHANNELS = 4
"""Helper processes kept at most (beyond, the least recently used idle channel is closed: a
dialog opened again and again must not leave a process behind each time)."""
"""Channels by ``id`` of their signal (PySide returns the same signal object on each access)."""


def _answer_later(done: Done, error: BaseException) -> None:
    """Call ``done(None, error)`` outside the lock (from a pool thread)."""
    threading.Thread(target=done, args=(None, error), daemon=True).start()


def run_to_signal(
    fn: Callable[..., Any], args: tuple[Any, ...], signal: Any, generation: int
) -> None:
    """:func:`run`, answering with ``signal.emit(generation, result)`` (a queued signal reaches
    the UI thread); an error is emitted in place of the result, as the exception itself.

    The signal names the channel: a newer job for it supersedes an older one (see the module
    docstring; the older answers :class:`Superseded`, if at all).
    """

    def done(result: Any, error: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver was closed meanwhile
            signal.emit(generation, error if error is not None else result)

    run_in_channel(id(signal), fn, args, done)


def run_in_channel(key: int, fn: Callable[..., Any], args: tuple[Any, ...], done: Done) -> None:
    """:func:`run` in the channel ``key``: its own helper process; newer jobs supersede."""
    with _lock:
        if not _disabled:
            channel = _channels.pop(key, None)
            if channel is None:
                channel = _Channel()
                idle = [k for k, c in _channels.items() if c.running is None and c.waiting is None]
                for k in idle[: max(0, len(_channels) + 1 - MAX_CHANNELS)]:
                    _channels.pop(k).close()
            _channels[key] = channel  # most recently used last
            channel.submit(fn, args, done)
            return
    QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))


def helper_pids() -> set[int]:
    """Process ids of the running helper (tests tell it apart from other child processes)."""
    with _lock:
        executor = _executor
        pids = set().union(*(c.pids() for c in _channels.values())) if _channels else set()
    # the executor keeps no public list of its processes
    processes = getattr(executor, "_processes", None) or {}
    return set(processes) | pids


def shutdown() -> None:
    """Stop the helper process (tests; the interpreter also stops it at exit)."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
        channels = list(_channels.values())
        _channels.clear()
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
    for channel in channels:
        channel.close()
