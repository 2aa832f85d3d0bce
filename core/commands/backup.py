"""Commands of backups (core/backup.py): backup, backups, restore."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import datetime
from pathlib import Path

from core.commands.base import Answer, command
from core.commands.neurons import set_state

# the backup passphrase for one command (core/store/secrets.py says the same name)
PASSPHRASE_ENV = "NEURONS_BACKUP_PASSPHRASE"


def _backup_args(p) -> None:
    p.add_argument(
        "--to",
        metavar="DIR",
        help="also seal it (encrypted with the backup passphrase) into this folder now, e.g. a USB disk",
    )


def _backup_to(args) -> None:
    """--to as an absolute path (the running app has its own working directory)."""
    if getattr(args, "to", None):
        args.to = str(Path(args.to).expanduser().absolute())


def _passphrase_given() -> bool:
    import os  # noqa: PLC0415 - keeps forwarding light

    return bool(os.environ.get(PASSPHRASE_ENV))


@command(
    "backup",
    "back the whole memory up now, to backups/ in the data dir (and, sealed, to the backup "
    "folder chosen with `config set backup-dir`, or to --to DIR)",
    arguments=_backup_args,
    prepare=_backup_to,
    # a passphrase given in the environment stays in this process: the command runs here
    forwardable=lambda args: not _passphrase_given(),
)
def backup(memory, args) -> Answer:
    from core import backup_elsewhere as elsewhere  # noqa: PLC0415 - keeps forwarding light
    from core.store import secrets  # noqa: PLC0415 - keeps forwarding light

    data_dir = memory.store.settings.data_dir
    to = elsewhere.chosen_folder(args.to, data_dir) if getattr(args, "to", None) else None
    if to is not None and not secrets.backup_passphrase(data_dir):
        raise elsewhere.ElsewhereProblem(
            "no backup passphrase is set, and a backup outside the data dir is always encrypted: set "
            f"one with `neurons config set backup-passphrase` (or give {PASSPHRASE_ENV}); nothing "
            "was backed up"
        )
    made = memory.backup()
    data, text, note = made.to_json(), str(made.path), ""
    try:
        outcome = memory.backup_elsewhere(to=to)
    except elsewhere.ElsewhereProblem as exc:
        raise elsewhere.ElsewhereProblem(
            f"{exc} (the backup in the data dir was made: {made.path})"
        ) from None
    data["elsewhere"] = {
        "folder": str(outcome.folder) if outcome.folder else None,
        "path": str(outcome.made.path) if outcome.made else None,
        "problem": outcome.problem,
    }
    if outcome.made:
        text += f"\n{outcome.made.path} (sealed, read back whole)"
    if outcome.problem:
        note = f"neurons: the backup to {outcome.folder} failed: {outcome.problem}"
    return Answer(data, text, note=note)


@command(
    "backups",
    "list the backups, newest first, with the tier that keeps each: in the data dir, then in "
    "the backup folder",
    needs_memory=False,
)
def backups(_memory, args) -> Answer:
    from core import backup as files  # noqa: PLC0415 - keeps forwarding light
    from core import backup_elsewhere as elsewhere  # noqa: PLC0415 - keeps forwarding light
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light

    data_dir = data_dir_from(args.data_dir)
    now = datetime.now().astimezone()
    here = files.listing(data_dir)
    chosen, there = elsewhere.listing(data_dir)
    rows, lines = [], []
    for place, found in (("data dir", here), ("backup folder", there)):
        kept = files.tiers(found, now)
        rows += [{**b.to_json(kept.get(b.path)), "place": place} for b in found]
        lines += [
            f"{b.taken_at.astimezone():%Y-%m-%d %H:%M}  {b.size / 1024:8.0f} KB  "
            f"{kept.get(b.path, ''):<8} {b.path}"
            for b in found
        ]
    note = ""
    if chosen is not None and not there:
        note = f"none in the backup folder {chosen} yet (or it is not there now)"
    return Answer(rows, "\n".join(lines) or "no backups yet", note=note)


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
    args.passphrase = _passphrase(args) if files.is_sealed(given) else None


def _passphrase(args) -> str | None:
    """A sealed backup's passphrase, read here (it never travels to the running app): one line
    of stdin with --passphrase-stdin, else NEURONS_BACKUP_PASSPHRASE; else None when this data
    dir keeps one in the keyring; else asked for at a terminal."""
    import os  # noqa: PLC0415 - keeps forwarding light
    import sys  # noqa: PLC0415 - keeps forwarding light

    if getattr(args, "passphrase_stdin", False):
        return sys.stdin.readline().rstrip("\r\n") or None
    if os.environ.get(PASSPHRASE_ENV):
        return os.environ[PASSPHRASE_ENV]
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light
    from core.store import secrets  # noqa: PLC0415 - keeps forwarding light

    if secrets.backup_passphrase(data_dir_from(args.data_dir)):
        return None  # whoever restores (here or the app) reads it from the keyring
    if sys.stdin.isatty():
        import getpass  # noqa: PLC0415 - keeps forwarding light

        return getpass.getpass(f"passphrase of {Path(args.target).name}: ") or None
    return None


def _restore_args(p) -> None:
    p.add_argument(
        "target", metavar="ID|BACKUP", help="a neuron's id, or a backup file (or its name in backups/)"
    )
    p.add_argument(
        "--passphrase-stdin",
        action="store_true",
        help="an encrypted backup's passphrase is the first line of stdin",
    )


@command(
    "restore",
    "make a neuron active again (ID), or the whole memory exactly what a backup "
    "holds (BACKUP: what it holds now is backed up first)",
    arguments=_restore_args,
    prepare=_backup_path,
    # a passphrase read here stays in this process: the restore runs here
    forwardable=lambda args: getattr(args, "passphrase", None) is None,
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
    done = memory.restore_backup(
        args.target, adopt=not instance.is_running(data_dir), passphrase=getattr(args, "passphrase", None)
    )
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
