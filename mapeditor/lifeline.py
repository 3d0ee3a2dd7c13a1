"""Helper processes end when the editor that started them dies, even by ``kill -9``.

A killed editor runs no exit handler, so nothing tells its helpers (the validation and chip
helpers, the country-preview workers, the playtest's bot process) to stop; Python's
multiprocessing resource tracker then stays too, as they keep its pipe open. Each helper calls
:func:`exit_with_parent` first: a daemon thread sees its parent change (the orphan is given to
another process) and ends the helper. No Qt here: the bot process loads none.
"""

from __future__ import annotations

import os
import threading
import time

POLL_S = 0.5
"""How often a helper looks at its parent (a helper outlives its editor by at most this)."""


def exit_with_parent(parent_pid: int) -> None:
    """End this process as soon as its parent is no longer ``parent_pid`` (POSIX: an orphan's
    parent changes; on Windows the parent id does not, and the helpers stop at their next
    message instead)."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(POLL_S)
        os._exit(0)  # the parent is gone: no one waits for an answer or a clean exit

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()
