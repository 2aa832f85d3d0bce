"""`neurons autostart on|off|status`: start the desktop app in the tray at login."""

from __future__ import annotations

from core.commands.base import Answer, command


def _arguments(parser) -> None:
    parser.add_argument(
        "switch",
        nargs="?",
        choices=["on", "off", "status"],
        default="status",
        help="on: start at login; off: do not; status (the default): say which",
    )


@command(
    "autostart",
    "start the desktop app in the tray when you log in (on, off, status)",
    arguments=_arguments,
    needs_memory=False,
)
def autostart(_memory, args) -> Answer:
    from core import autostart as entry  # noqa: PLC0415 - keeps forwarding light
    from core.settings import Settings  # noqa: PLC0415 - keeps forwarding light

    if args.switch != "status":
        entry.set_enabled(args.switch == "on", Settings.from_env(data_dir=args.data_dir, dsn=args.dsn))
    state = entry.status()
    if state["enabled"]:
        text = f"Neurons starts in the tray when you log in ({state['path']})"
    else:
        text = "Neurons does not start when you log in"
    return Answer(state, text)
