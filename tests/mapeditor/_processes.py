"""Child processes of a test, told apart from the editor's long-lived helper process."""

from __future__ import annotations

import multiprocessing
from multiprocessing.process import BaseProcess

from mapeditor.offload import helper_pids


def other_children() -> list[BaseProcess]:
    """Child processes besides the editor's helper (:mod:`mapeditor.offload`, which serves the
    whole application until it exits)."""
    helpers = helper_pids()
    return [p for p in multiprocessing.active_children() if p.pid not in helpers]
