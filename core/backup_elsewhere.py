"""The second place: backups also sealed into a folder outside the data dir (a USB disk, a synced
folder), so that a dead disk, a lost laptop or a deleted data dir does not take the memory and
every backup of it at once.

The folder is config.json's `backup_dir` (`neurons config set backup-dir DIR`), or the one
`neurons backup --to DIR` names. Neurons writes only into its own subfolder there,
`neurons-<the device id's first 8 hex digits>`, so two machines that share a synced folder never
prune each other's copies. A copy is the newest backup of backups/, sealed with the backup
passphrase (core/backup.py: age, scrypt), written whole or not at all (a temp name, fsync,
rename, the folder fsynced), then read back once (opened, compared, parsed and counted) before
it counts; the same tiers keep them there as in backups/.

A folder that is unplugged, full or read-only, or a passphrase that is not set, is a problem
recorded in backups/elsewhere.json (which `neurons doctor` reads, with the last copy that
succeeded) and never stops the backup in the data dir; the next check tries again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from core import backup, config
from core.files import FileProblem, os_error, write_private
from core.model import InvalidInput, NeuronsError
from core.store import secrets

STATUS_FILE = "elsewhere.json"
MIN_PASSPHRASE = 8
# a temp file of ours (write_private's name) that a killed process left
TEMP = re.compile(r"^neurons-.*\.json\.gz\.age\.(\d+)\.tmp$")


class ElsewhereProblem(NeuronsError):
    """A copy outside the data dir could not be made (the backup in the data dir was)."""


@dataclass(frozen=True)
class Outcome:
    folder: Path | None  # the chosen folder (None: no second place chosen)
    made: backup.Backup | None = None  # the copy written now (None: none needed, or a problem)
    problem: str | None = None


def subfolder(backup_dir: Path | str, device_id: uuid.UUID | str) -> Path:
    return Path(backup_dir) / f"neurons-{uuid.UUID(str(device_id)).hex[:8]}"


def chosen_folder(given: str | Path, data_dir: Path) -> Path:
    """A folder the person names for backups, as an absolute path: it must exist (a disk
    plugged in) and lie outside the data dir (InvalidInput says why not)."""
    path = Path(given).expanduser().absolute()
    if not path.is_dir():
        raise InvalidInput(f"there is no folder {path}: create it (or plug its disk in) first")
    real, data = path.resolve(), Path(data_dir).resolve()
    if real == data or data in real.parents:
        raise InvalidInput(
            f"{path} is inside the data dir {data}: choose a folder elsewhere, on another disk if you can"
        )
    return path


def check_passphrase(passphrase: str) -> str:
    if len(passphrase) < MIN_PASSPHRASE or not passphrase.strip():
        raise InvalidInput(f"a backup passphrase has at least {MIN_PASSPHRASE} characters")
    if "\n" in passphrase or "\r" in passphrase:
        raise InvalidInput("a backup passphrase is one line")
    return passphrase


def choose_folder(data_dir: Path, given: str | Path | None) -> Path | None:
    """Remember the folder backups are also sealed into (None: forget it), checked; the app
    reads config.json at each backup check, so it may run meanwhile."""
    folder = chosen_folder(given, data_dir) if given is not None else None
    saved = config.load(data_dir)
    config.save(data_dir, dataclasses.replace(saved, backup_dir=str(folder) if folder else None))
    return folder


def keep_passphrase(data_dir: Path, passphrase: str) -> None:
    """Keep the backup passphrase in the OS keyring (KeyringUnavailable where there is none:
    never in a file)."""
    secrets.save_backup_passphrase(data_dir, check_passphrase(passphrase))


def listing(data_dir: Path) -> tuple[Path | None, list[backup.Backup]]:
    """The chosen folder and this data dir's copies there, newest first (none if it is gone)."""
    try:
        chosen = config.load(data_dir).backup_dir
    except NeuronsError:  # the backups of the data dir are listed all the same
        return None, []
    if chosen is None:
        return None, []
    try:
        device_id = uuid.UUID((Path(data_dir) / "device_id").read_text().strip())
        return Path(chosen), backup.listing_in(subfolder(chosen, device_id))
    except (OSError, ValueError):
        return Path(chosen), []


# -- one copy -------------------------------------------------------------------------------------


def copy(
    local: backup.Backup, backup_dir: Path, device_id: uuid.UUID | str, passphrase: str, now: datetime
) -> tuple[backup.Backup, dict[str, int]]:
    """Seal the local backup into the folder, read it back, prune there; the copy and the counts
    read back. ElsewhereProblem (or FileProblem) says what went wrong; no copy is left then."""
    if not Path(backup_dir).is_dir():
        raise ElsewhereProblem(f"the backup folder {backup_dir} is not there (is its disk unplugged?)")
    try:
        packed = local.path.read_bytes()
    except OSError as exc:
        raise os_error(exc, local.path, "read") from None
    sealed = backup.seal(packed, passphrase)
    place = subfolder(backup_dir, device_id)
    target = place / (local.path.name + backup.SEALED_SUFFIX)
    try:
        place.mkdir(mode=0o700, exist_ok=True)
        if place.is_symlink() or not place.is_dir():
            raise ElsewhereProblem(f"{place} is not a folder Neurons made: move it aside")
        _sweep_temps(place)
        write_private(target, sealed, durable=True, replace=False)
        _fsync_dir(place)
    except FileExistsError:
        raise ElsewhereProblem(f"{target} is there already: nothing was written over it") from None
    except OSError as exc:
        raise os_error(exc, target) from None
    try:
        counts = read_back(target, packed, passphrase)
    except NeuronsError as exc:
        target.unlink(missing_ok=True)
        raise ElsewhereProblem(
            f"the copy in {place} did not read back whole ({exc}): it was removed"
        ) from None
    backup.prune_in(place, now, protect=(target,))
    return backup.Backup(target, local.taken_at, len(sealed), nth=local.nth, sealed=True), counts


def read_back(target: Path, packed: bytes, passphrase: str) -> dict[str, int]:
    """Open the file as written (decrypt, compare with what was sealed, parse): its counts."""
    try:
        written = target.read_bytes()
    except OSError as exc:
        raise os_error(exc, target, "read") from None
    opened = backup.unseal(written, passphrase, target)
    if hashlib.sha256(opened).digest() != hashlib.sha256(packed).digest():
        raise backup.CorruptBackup(f"{target} does not hold what was written")
    rows = backup.parse(opened, target)
    return {table: len(rows[table]) for table in ("neurons", "neurons_edges", "profiles")}


def _sweep_temps(place: Path) -> None:
    """Remove the temp files of our processes that died writing (never a file of a live one)."""
    for entry in os.scandir(place):
        found = TEMP.match(entry.name)
        if found and int(found[1]) != os.getpid() and not _alive(int(found[1])):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync_dir(place: Path) -> None:
    fd = os.open(place, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- keeping the second place up to date ----------------------------------------------------------


def keep_up(
    data_dir: Path,
    device_id: uuid.UUID | str,
    now: datetime,
    *,
    to: Path | None = None,
    passphrase: str | None = None,
) -> Outcome:
    """Make the folder (`to`, else the chosen one) hold the newest backup of backups/, sealed.
    With `to`, a problem raises ElsewhereProblem; else it is recorded and returned (the
    caller reports it), and the next call tries again."""
    try:
        chosen = to or (Path(d) if (d := config.load(data_dir).backup_dir) else None)
    except NeuronsError as exc:  # a config.json that cannot be read: said, never fatal here
        return Outcome(None, problem=str(exc))
    if chosen is None:
        return Outcome(None)
    newest = next((b for b in backup.listing(data_dir) if not b.safety), None)
    if newest is None:
        return Outcome(chosen)
    try:
        passphrase = passphrase or secrets.backup_passphrase(data_dir)
        if not passphrase:
            raise ElsewhereProblem(
                "no backup passphrase is set: set one with `neurons config set backup-passphrase` "
                f"(or give {secrets.PASSPHRASE_ENV} for one command)"
            )
        target = subfolder(chosen, device_id) / (newest.path.name + backup.SEALED_SUFFIX)
        if to is None and target.exists():
            return Outcome(chosen)  # up to date
        made, counts = copy(newest, chosen, device_id, passphrase, now)
    except (NeuronsError, OSError) as exc:
        message = str(exc) if isinstance(exc, NeuronsError) else str(os_error(exc, chosen))
        _record_problem(data_dir, chosen, message, now)
        if to is not None:
            raise ElsewhereProblem(message) from None
        return Outcome(chosen, problem=message)
    _record(
        data_dir,
        {
            "folder": str(chosen),
            "last_ok": {"at": now.isoformat(), "path": str(made.path), **counts},
            "problem": None,
        },
    )
    return Outcome(chosen, made)


def status(data_dir: Path) -> dict[str, Any]:
    """What backups/elsewhere.json says: the folder, the last copy that read back whole
    (`last_ok`), the problem since then (None when there is none)."""
    try:
        data = json.loads((backup.folder(data_dir) / STATUS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"folder": None, "last_ok": None, "problem": None}
    if not isinstance(data, dict):
        return {"folder": None, "last_ok": None, "problem": None}
    return {key: data.get(key) for key in ("folder", "last_ok", "problem")}


def _record_problem(data_dir: Path, chosen: Path, message: str, now: datetime) -> None:
    was = status(data_dir)
    since = (was["problem"] or {}).get("since") if (was["problem"] or {}).get("message") == message else None
    _record(
        data_dir,
        {
            "folder": str(chosen),
            "last_ok": was["last_ok"],
            "problem": {"since": since or now.isoformat(), "message": message},
        },
    )


def _record(data_dir: Path, data: dict[str, Any]) -> None:
    """Write the status file (a failure to is no reason to fail the backup)."""
    place = backup.folder(data_dir)
    with contextlib.suppress(FileProblem, OSError):
        place.mkdir(mode=0o700, exist_ok=True)
        write_private(place / STATUS_FILE, json.dumps(data, ensure_ascii=False, indent=1), durable=True)
