"""Start at login: the XDG autostart entry that starts the app in the tray.

The entry is `$XDG_CONFIG_HOME/autostart/neurons.desktop` (~/.config by default), per the XDG
Autostart and Desktop Entry specifications; its Exec starts the desktop app with `--hidden` (the
tray only, no window). Its presence is the whole state: `neurons autostart on|off|status`, the
window's "Start at login" toggle and the installer all read and write this one file.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from core.model import InvalidInput
from core.settings import Settings, default_data_dir

ENTRY_NAME = "neurons.desktop"
APP_SCRIPT = "neurons-desktop"
# Characters that make an Exec argument need quotes, and those escaped inside the quotes.
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")
_ESCAPED_IN_QUOTES = set('"`$\\')


def autostart_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".config"
    return root / "autostart"


def entry_path() -> Path:
    return autostart_dir() / ENTRY_NAME


def launcher() -> list[str]:
    """How to start the desktop app from here: the bundle's or the venv's `neurons-desktop`
    (beside this Python, or this executable when frozen), else this Python with -m."""
    beside = Path(sys.executable).parent / APP_SCRIPT
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside)]
    return [sys.executable, "-m", "desktop.launch"]


def _quote(arg: str) -> str:
    """One Exec argument: quoted when it must be, then escaped as a desktop-entry string."""
    if "\n" in arg or "\r" in arg:
        raise InvalidInput(f"cannot start a program whose path holds a line break: {arg!r}")
    if any(c in _RESERVED for c in arg) or not arg:
        arg = '"' + "".join("\\" + c if c in _ESCAPED_IN_QUOTES else c for c in arg) + '"'
    # the string escape is applied before the quoting rule, so every backslash doubles again;
    # a literal % is written %% (a lone % starts a field code)
    return arg.replace("\\", "\\\\").replace("%", "%%")


def exec_line(command: list[str]) -> str:
    return " ".join(_quote(a) for a in command)


def command_for(settings: Settings | None = None, base: list[str] | None = None) -> list[str]:
    """The app's command line at login: hidden, with this data dir or server when not the default."""
    command = list(base or launcher()) + ["--hidden"]
    if settings is not None:
        if settings.dsn:
            command += ["--dsn", settings.dsn]
        elif Path(settings.data_dir).resolve() != default_data_dir().resolve():
            command += ["--data-dir", str(settings.data_dir)]
    return command


def entry_text(command: list[str]) -> str:
    return "\n".join(
        [
            "[Desktop Entry]",
            "Type=Application",
            "Version=1.0",
            "Name=Neurons",
            "Comment=Your memory in the tray: reminders fire on time",
            f"Exec={exec_line(command)}",
            "Icon=neurons",
            "Terminal=false",
            "NoDisplay=true",
            "X-GNOME-Autostart-enabled=true",
            "",
        ]
    )


def enable(settings: Settings | None = None, base: list[str] | None = None) -> Path:
    """Write the entry (replacing ours if it is there); returns its path."""
    path = entry_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{ENTRY_NAME}.{os.getpid()}.tmp")
    tmp.write_text(entry_text(command_for(settings, base)), encoding="utf-8")
    os.replace(tmp, path)
    return path


def disable() -> bool:
    """Remove the entry; False when there was none."""
    try:
        entry_path().unlink()
    except FileNotFoundError:
        return False
    return True


def set_enabled(on: bool, settings: Settings | None = None) -> None:
    """Start at login, or not (the switch the window, Preferences and the command share)."""
    if on:
        enable(settings)
    else:
        disable()


def status() -> dict[str, object]:
    """{"enabled": bool, "path": str, "exec": the Exec line or None}."""
    path = entry_path()
    exec_value = None
    enabled = False
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, UnicodeDecodeError):
        lines = []
    if lines:
        values = dict(line.split("=", 1) for line in lines if "=" in line and not line.startswith("#"))
        exec_value = values.get("Exec")
        enabled = (
            values.get("Hidden", "false").lower() != "true"
            and values.get("X-GNOME-Autostart-enabled", "true").lower() != "false"
        )
    return {"enabled": enabled, "path": str(path), "exec": exec_value}


def is_enabled() -> bool:
    return bool(status()["enabled"])
