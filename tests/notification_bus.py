"""The tests' own notification server on a session bus of theirs.

A call to org.freedesktop.Notifications before the test's dunst owns that name (`dunstctl`
asking whether it is paused, say) makes the bus start another dunst by activation, with the
system's configuration and none of the test's (its menu script): the test's own dunst then loses
the name, and "Done" picked in the menu never reaches the app. So the name is asked of the bus
itself, which starts nothing, before anyone talks to the server.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping

NOTIFICATIONS = "org.freedesktop.Notifications"


def owns_notifications(env: Mapping[str, str]) -> bool:
    """Whether a process owns the notification service on `env`'s session bus (starts none)."""
    asked = subprocess.run(
        [
            "dbus-send",
            "--session",
            "--print-reply",
            "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus",
            "org.freedesktop.DBus.NameHasOwner",
            f"string:{NOTIFICATIONS}",
        ],
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=30,
    )
    return asked.returncode == 0 and "boolean true" in asked.stdout
