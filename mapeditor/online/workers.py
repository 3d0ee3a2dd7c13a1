"""The host's helper processes: the bots' worker and the one that finds the meeple spots.

Each is a one-process pool started with ``spawn`` (never fork a process that runs Qt) whose
worker ends with the host, even a killed one (:func:`mapeditor.lifeline.exit_with_parent`).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor


def bot_pool() -> ProcessPoolExecutor:
    """The bots' worker (one process: a host's bots take turns)."""
    return helper_pool()


def helper_pool() -> ProcessPoolExecutor:
    """A one-process pool whose worker ends with this process."""
    from mapeditor.lifeline import exit_with_parent

    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=exit_with_parent,
        initargs=(os.getpid(),),
    )
