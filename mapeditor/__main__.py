"""``python -m mapeditor [MAP]`` opens the editor; ``export``, ``play`` and ``host`` are
subcommands."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "export":
        from mapeditor.export_cli import main as export_main

        return export_main(args[1:])
    if args and args[0] == "play":
        from mapeditor.play_cli import main as play_main

        return play_main(args[1:])
    if args and args[0] == "host":
        from mapeditor.host_cli import main as host_main

        return host_main(args[1:])
    from mapeditor.app import run_editor

    return run_editor(args)


if __name__ == "__main__":
    sys.exit(main())
