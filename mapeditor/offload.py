"""Work for the UI run in a helper process, so that it never shares the GIL with the UI thread.

Pure-Python work in a thread (validating a map, proving chip feasibility) holds the GIL in 5 ms
slices and starves the UI thread: measured on a 200x200 map, brush-stroke steps of 120-220 ms
while the map validated in a thread, against 5-10 ms otherwise. One helper process serves the
whole application, started on first use with ``spawn`` (never fork a process that runs Qt). If
it cannot be started, or stops, the work runs in Qt's thread pool instead: slower for the UI,
never lost.

:func:`run` calls ``done(result, error)`` from a worker thread: emit a Qt signal from it (a
queued connection brings the answer to the UI thread), as :func:`run_to_signal` does.
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

from PySide6.QtCore import QRunnable, QThreadPool

Done = Callable[[Any, BaseException | None], None]

_lock = threading.Lock()
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
    future: concurrent.futures.Future[Any], fn: Callable[..., Any], args: tuple[Any, ...], done: Done
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
                    import multiprocessing

                    _executor = concurrent.futures.ProcessPoolExecutor(
                        max_workers=1, mp_context=multiprocessing.get_context("spawn")
                    )
                    atexit.register(shutdown)  # before the interpreter tears modules down
                with hidden_main():  # the process starts at the first submit
                    future = _executor.submit(fn, *args)
                executor = _executor
            except (OSError, RuntimeError, concurrent.futures.process.BrokenProcessPool):
                _disabled = True  # no helper process here: threads from now on
    if executor is None:
        QThreadPool.globalInstance().start(_ThreadJob(fn, args, done))
        return
    future.add_done_callback(lambda f: _answer(f, fn, args, done))


def run_to_signal(
    fn: Callable[..., Any], args: tuple[Any, ...], signal: Any, generation: int
) -> None:
    """:func:`run`, answering with ``signal.emit(generation, result)`` (a queued signal reaches
    the UI thread); an error is emitted in place of the result, as the exception itself."""

    def done(result: Any, error: BaseException | None) -> None:
        with contextlib.suppress(RuntimeError):  # the receiver was closed meanwhile
            signal.emit(generation, error if error is not None else result)

    run(fn, args, done)


def helper_pids() -> set[int]:
    """Process ids of the running helper (tests tell it apart from other child processes)."""
    with _lock:
        executor = _executor
    # the executor keeps no public list of its processes
    processes = getattr(executor, "_processes", None) or {}
    return set(processes)


def shutdown() -> None:
    """Stop the helper process (tests; the interpreter also stops it at exit)."""
    global _executor
    with _lock:
        executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)
