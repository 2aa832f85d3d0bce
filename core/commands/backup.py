"""Commands of backups (core/backup.py): backup, backups, restore."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import datetime
from pathlib import Path

from core.commands.base import Answer, command
from core.commands.neurons import set_state


@command("backup", "back the whole memory up now, to backups/ in the data dir")
def backup(memory, args) -> Answer:
    made = memory.backup()
    return Answer(made.to_json(), str(made.path))


@command("backups", "list the backups, newest first, with the tier that keeps each", needs_memory=False)
def backups(_memory, args) -> Answer:
    from core import backup as files  # noqa: PLC0415 - keeps forwarding light
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light

    found = files.listing(data_dir_from(args.data_dir))
    kept = files.tiers(found, datetime.now().astimezone())
    rows = [b.to_json(kept.get(b.path)) for b in found]
    text = "\n".join(
        f"{b.taken_at.astimezone():%Y-%m-%d %H:%M}  {b.size / 1024:8.0f} KB  "
        f"{kept.get(b.path, ''):<8} {b.path}"
        for b in found
    )
    return Answer(rows, text or "no backups yet")


def _is_id(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


def _backup_path(args) -> None:
    """A backup: the file as given, else that name in the data dir's backups/ -- absolute, so the
    running app (with its own working directory) opens the same file. An id stays an id."""
    if _is_id(args.target):
        return
    from core import backup as files  # noqa: PLC0415 - keeps forwarding light
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light

    given = Path(args.target).expanduser()
    if not given.exists():
        beside = files.folder(data_dir_from(args.data_dir)) / given
        if beside.exists():
            given = beside
    args.target = str(given.resolve())


@command(
    "restore",
    "make a neuron active again (ID), or the whole memory exactly what a backup "
    "holds (BACKUP: what it holds now is backed up first)",
    arguments=lambda p: p.add_argument(
        "target", metavar="ID|BACKUP", help="a neuron's id, or a backup file (or its name in backups/)"
    ),
    prepare=_backup_path,
    defaults={"state_value": "active"},
)
def restore(memory, args) -> Answer:
    if _is_id(args.target):
        args.id = args.target
        return set_state(memory, args)
    from core import instance  # noqa: PLC0415 - keeps forwarding light

    data_dir = memory.store.settings.data_dir
    was = _acting(memory)
    # the running app cannot become another identity under its window: there, a backup of
    # another identity's memory is refused (the command line, with the app closed, adopts it)
    done = memory.restore_backup(args.target, adopt=not instance.is_running(data_dir))
    text = f"restored {done['neurons']} neurons and {done['edges']} links from {done['restored']}"
    if done["adopted"]:
        _remember_owner(data_dir, done["owner"])
        text += (
            f": the memory of {done['owner_described']}, which this data dir now acts as "
            f"(as `neurons profile join` would; it acted as {was}); {memory.count()} neurons are its"
        )
    return Answer(done, text, note=f"the memory as it was before is in {done['before']}")


def _acting(memory) -> str:
    user = memory.identity.user_id
    return f"profile {user}" if user else "its anonymous device"


def _remember_owner(data_dir, owner: dict | None) -> None:
    """config.json says the identity a restore made this data dir act as."""
    from core import config  # noqa: PLC0415 - keeps forwarding light

    saved = config.load(data_dir)
    config.save(
        data_dir,
        dataclasses.replace(
            saved,
            profile_id=uuid.UUID(owner["id"]) if owner else None,
            profile_name=owner["name"] if owner else None,
            profile_pending=False,
        ),
    )
