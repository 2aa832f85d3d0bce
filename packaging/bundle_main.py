"""The one entry point of the bundle: the executable's name picks the program.

`dist/neurons/neurons-desktop` runs the desktop app (desktop.launch:main) and `dist/neurons/neurons`
the command line (core.cli:main). Both are built from this script by packaging/neurons.spec and
share one `_internal/` folder. `neurons-desktop cli ARGS...` also runs the command line, for
the day only one of the two executables is at hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

CLI_NAMES = {"neurons", "neurons-cli"}


def main() -> int:
    name = Path(sys.argv[0]).name
    if name in CLI_NAMES:
        from core.cli import main as cli  # noqa: PLC0415 - only the program this executable runs

        return cli(sys.argv[1:])
    if sys.argv[1:2] == ["cli"]:
        from core.cli import main as cli  # noqa: PLC0415 - only the program this executable runs

        return cli(sys.argv[2:])
    from desktop.launch import main as app  # noqa: PLC0415 - only the program this executable runs

    return app()


if __name__ == "__main__":
    sys.exit(main())
