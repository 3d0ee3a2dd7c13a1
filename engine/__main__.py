"""``python -m engine``: see :mod:`engine.cli`."""

from __future__ import annotations

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main())
