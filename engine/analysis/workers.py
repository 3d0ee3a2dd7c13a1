"""What running games in worker processes needs, wherever they run (local processes or a Dask
cluster): game indices in chunks, and workers started without the caller's main script."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any


def chunks(games: int, workers: int) -> list[list[int]]:
    """Game indices in chunks: about 8 per worker, so progress is smooth and loads balance."""
    size = max(1, min(25, games // (workers * 8) or 1))
    return [list(range(i, min(games, i + size))) for i in range(0, games, size)]


@contextlib.contextmanager
def main_hidden(hide: bool) -> Iterator[None]:
    """Start spawned workers without them re-running the parent's ``__main__`` script.

    ``spawn`` imports the parent's main script in each child; a script without an
    ``if __name__ == "__main__"`` guard (an editor launcher, a notebook) would run again there.
    The workers need nothing from ``__main__``, so its file is hidden while they start.
    """
    main = sys.modules.get("__main__")
    if not hide or main is None:
        yield
        return
    saved: dict[str, Any] = {
        k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__
    }
    try:
        main.__dict__.pop("__file__", None)
        if "__spec__" in saved:
            main.__spec__ = None
        yield
    finally:
        main.__dict__.update(saved)


__all__ = ["chunks", "main_hidden"]
