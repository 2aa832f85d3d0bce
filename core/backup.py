"""Backups of the embedded store, like Anki's: taken when something changed, at most every half
hour while the app runs, to `backups/` in the data dir, kept in tiers.

A backup is one gzip-compressed JSON file (`neurons-backup/1`, mode 0600) holding every neuron,
link and profile of the store as they were at one instant: Postgres writes their JSON in one
read transaction (how long the store is busy: tests/bench/bench_backup.py, docs/performance.md;
compressing and writing happen after, while captures go on), with
the store's stamp of that instant. Vectors are left out (derived data, and
three times the size); a restore keeps the vector of every neuron whose text did not change.

Kept: the KEEP_RECENT newest, the newest of each day for a week, of each week for a month, of
each month for a year (days in the time zone of the `now` given; `tiers` decides, on names alone).
Restoring checks the whole file first (a damaged or foreign file is refused and changes nothing),
backs the current state up, then makes the store hold exactly the backup's rows in one
transaction. `AutoBackup.due(now)` is the app's periodic trigger.

A copy outside the data dir (core/backup_elsewhere.py) is the same file sealed with a passphrase
in the age format (age-encryption.org/v1, scrypt; through pyrage), behind one line in the clear
that says what it is and which version wrote it (SEALED_HEADER): nothing of the memory, not even
its counts, can be read without the passphrase. `load` opens either kind.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import os
import re
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from core import __version__
from core.files import os_error
from core.model import Identity, InvalidInput, Kind, NeuronsError, Relation, State
from core.store import snapshot
from core.validate import clean_attrs, clean_text, number, parse_instant, parse_json, parse_uuid

log = logging.getLogger(__name__)

FORMAT = "neurons-backup/1"
FOLDER = "backups"
# A backup when something changed, at most this often; the app checks this often.
BACKUP_EVERY = timedelta(minutes=30)
CHECK_EVERY = timedelta(minutes=5)
KEEP_RECENT = 12
KEEP_DAILY = timedelta(days=7)
KEEP_WEEKLY = timedelta(days=31)
KEEP_MONTHLY = timedelta(days=366)
NAME = re.compile(r"^neurons-(\d{8}-\d{6})Z(?:-(\d+))?(-before-restore)?\.json\.gz(\.age)?$")
# A sealed backup: this line, then an age file holding the backup's gzip bytes.
SEALED_FORMAT = "neurons-sealed-backup/1"
SEALED_HEADER = f"{SEALED_FORMAT} age-encryption.org/v1 neurons/{__version__}\n".encode()
SEALED_LINE = re.compile(
    rb"^neurons-sealed-backup/1 age-encryption\.org/v1 neurons/([0-9A-Za-z.+_-]{1,40})\n"
)
SEALED_SUFFIX = ".age"
# A restore first backs up what the memory holds: those safety backups are kept apart, the
# KEEP_SAFETY newest, so that they never push out the backups they protect.
SAFETY = "-before-restore"
KEEP_SAFETY = 12
NAME_TIME = "%Y%m%d-%H%M%S"


class CorruptBackup(NeuronsError):
    """The file is not a whole Neurons backup: nothing was restored."""


class PassphraseNeeded(CorruptBackup):
    """The backup is sealed and no passphrase was given (or it does not open it)."""


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime  # UTC, from the file name
    size: int = 0
    safety: bool = False  # taken by a restore, of what the memory held just before it
    nth: int = 0  # of the backups taken in its second (the name's -N): their order
    sealed: bool = False  # encrypted with the backup passphrase (a copy outside the data dir)

    @property
    def order(self) -> tuple[datetime, int]:
        """Oldest first: its second, then its place in the second (names sort "-10" before "-9"
        and the unnumbered first one after both)."""
        return (self.taken_at, self.nth)

    def to_json(self, tier: str | None = None) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "taken_at": self.taken_at.isoformat(),
            "bytes": self.size,
            "tier": tier,
            "sealed": self.sealed,
        }


def folder(data_dir: Path | str) -> Path:
    return Path(data_dir) / FOLDER


def listing(data_dir: Path | str) -> list[Backup]:
    """The backups in the data dir's folder, newest first (other files there are not ours)."""
    return listing_in(folder(data_dir))


def listing_in(place: Path) -> list[Backup]:
    """The backups in a folder, newest first (other files there are not ours; a missing
    folder holds none)."""
    found = []
    try:
        entries = list(os.scandir(place))
    except FileNotFoundError:
        return []
    for entry in entries:
        match = NAME.match(entry.name)
        if match and entry.is_file(follow_symlinks=False):
            taken = datetime.strptime(match[1], NAME_TIME).replace(tzinfo=UTC)
            found.append(
                Backup(
                    Path(entry.path),
                    taken,
                    entry.stat().st_size,
                    safety=bool(match[3]),
                    nth=int(match[2] or 0),
                    sealed=bool(match[4]),
                )
            )
    return sorted(found, key=lambda b: b.order, reverse=True)


# -- which to keep, when to take one (pure) -------------------------------------------------------


def tiers(backups: Sequence[Backup], now: datetime) -> dict[Path, str]:
    """The backups to keep and why: recent, daily, weekly or monthly (the rest may go); a
    restore's safety backups apart ("before restore", the KEEP_SAFETY newest), never in the
    regular tiers' count."""
    by_time = sorted(backups, key=lambda b: b.order, reverse=True)
    newest_first = [b for b in by_time if not b.safety]
    keep = {b.path: "recent" for b in newest_first[:KEEP_RECENT]}
    keep.update({b.path: "before restore" for b in [b for b in by_time if b.safety][:KEEP_SAFETY]})
    for label, span, period in (
        ("daily", KEEP_DAILY, lambda d: d.date()),
        ("weekly", KEEP_WEEKLY, lambda d: d.isocalendar()[:2]),
        ("monthly", KEEP_MONTHLY, lambda d: (d.year, d.month)),
    ):
        seen = set()
        for b in newest_first:
            if now - b.taken_at > span:
                break
            key = period(b.taken_at.astimezone(now.tzinfo))
            if key not in seen:
                seen.add(key)
                keep.setdefault(b.path, label)
    return keep


def is_due(last: datetime | None, changed: bool, now: datetime) -> bool:
    """Something changed and the last backup is BACKUP_EVERY old (or the clock went back)."""
    if not changed:
        return False
    return last is None or now - last >= BACKUP_EVERY or last - now > BACKUP_EVERY


# -- taking one -----------------------------------------------------------------------------------


def _require_embedded(store) -> None:
    if store.kind != "embedded":
        raise NeuronsError(
            "backups are made of the embedded store; back a server database up with its own tools (pg_dump)"
        )


def take(
    store,
    now: datetime | None = None,
    owner: Identity | None = None,
    *,
    safety: bool = False,
    protect: Sequence[Path] = (),
) -> Backup:
    """Write a backup of the whole store now, then drop the ones no tier keeps (never those in
    `protect`). `owner` is the identity the data dir acts as (whose memory it is: a restore
    elsewhere says so). A `safety` backup (a restore's, of what is about to be replaced) is
    kept in a tier of its own, and not written when a backup of exactly these rows is there."""
    _require_embedded(store)
    now = now or datetime.now().astimezone()
    # one instant: the rows and the stamp that goes with them, of every owner
    with store.reading(every_owner=True) as cur:
        tables = snapshot.read(cur)
        stamp = snapshot.stamp(cur)
    digest = hashlib.sha256("".join(rows for _, rows in tables.values()).encode()).hexdigest()
    if safety:
        same = next((b for b in listing(store.settings.data_dir) if _digest_of(b.path) == digest), None)
        if same is not None:
            return same  # the rows are in a backup already: nothing to add, nothing pushed out
    header = {
        "format": FORMAT,
        "digest": digest,  # of the rows: near the start, read without inflating the file
        "app_version": __version__,
        "taken_at": now.isoformat(),
        "device_id": str(store.device_id()),
        "owner": _owner_json(owner, store),
        "stamp": stamp,
        "counts": {table: count for table, (count, _) in tables.items()},
    }
    text = (
        json.dumps(header, ensure_ascii=False, separators=(",", ":"))[:-1]
        + "".join(f',"{table}":{rows}' for table, (_, rows) in tables.items())
        + "}"
    )
    payload = gzip.compress(text.encode(), compresslevel=6, mtime=0)
    target = folder(store.settings.data_dir)
    path = target / "?"
    try:  # a full disk (or another failure) names the backups folder, not "."
        target.mkdir(mode=0o700, exist_ok=True)
        os.chmod(target, 0o700)
        path = _free_name(target, now, SAFETY if safety else "")
        _write_private(path, payload)
    except OSError as exc:
        raise os_error(exc, path) from None
    prune(store.settings.data_dir, now, protect=(path, *protect))
    named = NAME.match(path.name)
    return Backup(path, _utc_second(now), len(payload), safety=safety, nth=int(named[2] or 0) if named else 0)


def _digest_of(path: Path) -> str | None:
    """The rows' digest a backup's header holds (None: older, or unreadable), from its first
    kilobytes."""
    try:
        with open(path, "rb") as f:
            head = zlib.decompressobj(wbits=31).decompress(f.read(64 * 1024), 4096)
    except (OSError, zlib.error):
        return None
    found = re.search(rb'"digest":"([0-9a-f]{64})"', head)
    return found[1].decode() if found else None


def _owner_json(owner: Identity | None, store) -> dict[str, str]:
    if owner is not None and owner.user_id is not None:
        return {"user_id": str(owner.user_id)}
    return {"device_id": str(store.device_id())}


def _utc_second(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(microsecond=0)


def _free_name(target: Path, now: datetime, suffix: str = "") -> Path:
    stem = f"neurons-{_utc_second(now).strftime(NAME_TIME)}Z"
    path, n = target / f"{stem}{suffix}.json.gz", 0
    while path.exists():
        n += 1
        path = target / f"{stem}-{n}{suffix}.json.gz"
    return path


def _write_private(path: Path, payload: bytes) -> None:
    """The whole file or none, readable by its owner only, on disk when this returns."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def prune(data_dir: Path | str, now: datetime, protect: Sequence[Path] = ()) -> list[Path]:
    """Remove the backups no tier keeps (never one in `protect`); the removed paths."""
    return prune_in(folder(data_dir), now, protect)


def prune_in(place: Path, now: datetime, protect: Sequence[Path] = ()) -> list[Path]:
    """prune() in any folder of backups."""
    backups = listing_in(place)
    keep = tiers(backups, now)
    spared = {Path(p).absolute() for p in protect}
    removed = []
    for b in backups:
        if b.path not in keep and b.path.absolute() not in spared:
            b.path.unlink(missing_ok=True)
            removed.append(b.path)
    return removed


# -- reading one back -----------------------------------------------------------------------------


# A backup inflates to at most this many times its size (Neurons' own are ~4 times: JSON of ids,
# times and text), or MAX_INFLATED_FLOOR, whichever is more: a file that would inflate further
# is refused before it is held in memory (a 1.5 MB file can inflate to 1.5 GB).
MAX_INFLATE_RATIO = 100
MAX_INFLATED_FLOOR = 64 * 1024 * 1024
INFLATE_CHUNK = 1024 * 1024


def is_sealed(path: Path | str) -> bool:
    """Whether the file starts as a sealed backup does (False: any other file, or none)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SEALED_FORMAT)) == SEALED_FORMAT.encode()
    except OSError:
        return False


def seal(packed: bytes, passphrase: str) -> bytes:
    """A backup's bytes sealed with the passphrase: SEALED_HEADER, then an age file (scrypt)."""
    from pyrage import passphrase as age  # noqa: PLC0415 - only a sealed backup loads it

    return SEALED_HEADER + age.encrypt(packed, passphrase)


def unseal(sealed: bytes, passphrase: str | None, path: Path | str) -> bytes:
    """The backup's bytes inside a sealed one; PassphraseNeeded or CorruptBackup in one line."""
    from pyrage import DecryptError  # noqa: PLC0415 - only a sealed backup loads it
    from pyrage import passphrase as age  # noqa: PLC0415 - as above

    line = SEALED_LINE.match(sealed[:128])
    if line is None:
        raise CorruptBackup(
            f"{path} is damaged (its first line is not that of a sealed Neurons backup): nothing was restored"
        )
    if not passphrase:
        raise PassphraseNeeded(
            f"{path} is encrypted: give its backup passphrase (--passphrase-stdin, or "
            "NEURONS_BACKUP_PASSPHRASE for one command); nothing was restored"
        )
    try:
        return age.decrypt(sealed[line.end() :], passphrase)
    except DecryptError as exc:
        if "Decryption failed" in str(exc):  # age could not unwrap the file key
            raise PassphraseNeeded(
                f"{path} does not open with this passphrase (a wrong passphrase, or a damaged "
                "header): nothing was restored"
            ) from None
        raise CorruptBackup(f"{path} is damaged ({exc}): nothing was restored") from None


def load(path: Path | str, passphrase: str | None = None) -> dict[str, Any]:
    """A backup file (sealed ones opened with `passphrase`), checked whole: its rows in the
    store's terms (JSON values), or CorruptBackup saying what is wrong with it."""
    path = Path(path)
    try:
        packed = path.read_bytes()
    except FileNotFoundError:
        raise CorruptBackup(f"there is no backup {path}") from None
    except OSError as exc:
        raise CorruptBackup(f"{path} cannot be read ({exc.strerror or exc}): nothing was restored") from None
    if packed.startswith(SEALED_FORMAT.encode()):
        packed = unseal(packed, passphrase, path)
    return parse(packed, path)


def parse(packed: bytes, path: Path | str) -> dict[str, Any]:
    """A backup's gzip bytes (`path` names them in messages), checked whole."""
    path = Path(path)
    try:
        text = _inflated(packed, path).decode("utf-8")
    except (OSError, EOFError, zlib.error) as exc:
        raise CorruptBackup(
            f"{path} is damaged ({exc}): nothing was restored; choose another backup (neurons backups)"
        ) from None
    except UnicodeDecodeError as exc:
        raise CorruptBackup(f"{path} is damaged (not UTF-8 text: {exc}): nothing was restored") from None
    try:
        data = parse_json(text, "its JSON")
    except InvalidInput as exc:
        raise CorruptBackup(f"{path} is damaged ({exc}): nothing was restored") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CorruptBackup(
            f"{path} is not a Neurons backup (expected format {FORMAT!r}): nothing was restored"
        )
    try:
        checked = _checked(data)
    except (NeuronsError, ValueError, TypeError, KeyError, AttributeError) as exc:
        raise CorruptBackup(f"{path} is damaged ({exc}): nothing was restored") from None
    return checked


def _inflated(packed: bytes, path: Path) -> bytes:
    """The gzip file's content, measured first without keeping it: one that would inflate past
    the cap is refused having held a megabyte of it at a time."""
    cap = max(MAX_INFLATED_FLOOR, MAX_INFLATE_RATIO * len(packed))
    size, rest = 0, packed
    while rest:
        member = zlib.decompressobj(wbits=31)  # one gzip member (a file may hold several)
        pending = rest
        while pending and not member.eof:
            size += len(member.decompress(pending, INFLATE_CHUNK))
            pending = member.unconsumed_tail
            if size > cap:
                raise CorruptBackup(
                    f"{path} would inflate to more than {cap / 1e6:,.0f} MB from "
                    f"{len(packed) / 1e6:,.1f} MB, more than a Neurons backup ever does: it is not "
                    "one (nothing was restored)"
                )
        if not member.eof:
            raise EOFError("it ends before its compressed data does")
        rest = member.unused_data.lstrip(b"\0")  # gzip pads with zeros at most
    if size == 0 and not packed:
        raise EOFError("it is empty")
    return gzip.decompress(packed)


def _owner(row: dict[str, Any], where: str) -> tuple[str | None, str | None]:
    device = str(parse_uuid(row["device_id"], f"{where}.device_id")) if row["device_id"] else None
    user = str(parse_uuid(row["user_id"], f"{where}.user_id")) if row["user_id"] else None
    if (device is None) == (user is None):
        raise ValueError(f"{where} has not exactly one owner")
    return device, user


def _instant(value: Any, where: str, *, required: bool = True) -> str | None:
    parsed = parse_instant(value, where)
    if parsed is None and required:
        raise ValueError(f"{where} is missing")
    return parsed.isoformat() if parsed else None


def _rows(data: dict[str, Any], table: str, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    items, counts = data.get(table), data.get("counts")
    if not isinstance(items, list) or not isinstance(counts, dict) or counts.get(table) != len(items):
        raise ValueError(f"its {table} are missing or incomplete")
    for i, item in enumerate(items):
        if not isinstance(item, dict) or set(item) != set(fields):
            raise ValueError(f"{table}[{i}] does not have the fields {', '.join(fields)}")
    return items


def _checked(data: dict[str, Any]) -> dict[str, Any]:
    neurons, edges = [], []
    for i, r in enumerate(_rows(data, "neurons", snapshot.NEURON_FIELDS)):
        where = f"neurons[{i}]"
        device, user = _owner(r, where)
        neurons.append(
            {
                "id": str(parse_uuid(r["id"], f"{where}.id")),
                "device_id": device,
                "user_id": user,
                "kind": Kind.parse(r["kind"]).value,
                "body": clean_text(r["body"], what=f"{where}.body", allow_empty=True),
                "attrs": clean_attrs(r["attrs"]),
                "state": State.parse(r["state"]).value,
                "created_at": _instant(r["created_at"], f"{where}.created_at"),
                "updated_at": _instant(r["updated_at"], f"{where}.updated_at"),
            }
        )
    ids = {n["id"] for n in neurons}
    if len(ids) != len(neurons):
        raise ValueError("it holds the same neuron twice")
    for i, r in enumerate(_rows(data, "neurons_edges", snapshot.EDGE_FIELDS)):
        where = f"neurons_edges[{i}]"
        device, user = _owner(r, where)
        edge = {
            "id": str(parse_uuid(r["id"], f"{where}.id")),
            "device_id": device,
            "user_id": user,
            "from_node_id": str(parse_uuid(r["from_node_id"], f"{where}.from_node_id")),
            "to_node_id": str(parse_uuid(r["to_node_id"], f"{where}.to_node_id")),
            "relation_type": Relation.parse(r["relation_type"]).value,
            "weight": number(r["weight"], f"{where}.weight"),
            "valid_from": _instant(r["valid_from"], f"{where}.valid_from"),
            "valid_to": _instant(r["valid_to"], f"{where}.valid_to", required=False),
            "created_at": _instant(r["created_at"], f"{where}.created_at"),
            "derived_by": r["derived_by"]
            if r["derived_by"] is None
            else clean_text(r["derived_by"], what=f"{where}.derived_by"),
        }
        if (
            not {edge["from_node_id"], edge["to_node_id"]} <= ids
            or edge["from_node_id"] == edge["to_node_id"]
        ):
            raise ValueError(f"{where} does not link two neurons of the backup")
        valid_to, valid_from = (
            parse_instant(edge["valid_to"], where),
            parse_instant(edge["valid_from"], where),
        )
        if valid_to and valid_from and valid_to < valid_from:
            raise ValueError(f"{where} ends before it starts")
        edges.append(edge)
    profiles = []
    for i, r in enumerate(_rows(data, "profiles", snapshot.PROFILE_FIELDS)):
        where = f"profiles[{i}]"
        profiles.append(
            {
                "user_id": str(parse_uuid(r["user_id"], f"{where}.user_id")),
                "name": clean_text(r["name"], what=f"{where}.name"),
                "claimed_device": str(parse_uuid(r["claimed_device"], f"{where}.claimed_device"))
                if r["claimed_device"]
                else None,
                "created_at": _instant(r["created_at"], f"{where}.created_at"),
            }
        )
    if len({e["id"] for e in edges}) != len(edges) or len({p["user_id"] for p in profiles}) != len(profiles):
        raise ValueError("it holds the same link or profile twice")
    device_id = str(parse_uuid(data.get("device_id"), "device_id"))
    return {
        "device_id": device_id,
        "owner": _owner_of(data.get("owner"), device_id, profiles),
        "stamp": data.get("stamp"),
        "neurons": neurons,
        "neurons_edges": edges,
        "profiles": profiles,
    }


def _owner_of(given: Any, device_id: str, profiles: list[dict[str, Any]]) -> dict[str, str]:
    """Whose memory the backup holds: the identity its data dir acted as ({"user_id"} of a
    profile it holds, or {"device_id"}: its anonymous device). A backup made before backups
    said so acted as the newest profile claimed from its device, if any."""
    if given is None:
        mine = sorted(
            (p for p in profiles if p["claimed_device"] == device_id), key=lambda p: p["created_at"]
        )
        return {"user_id": mine[-1]["user_id"]} if mine else {"device_id": device_id}
    if not isinstance(given, dict) or len(given) != 1 or not {"user_id", "device_id"} & set(given):
        raise ValueError("its owner is not a profile or a device")
    if "device_id" in given:
        if str(parse_uuid(given["device_id"], "owner.device_id")) != device_id:
            raise ValueError("its owner is not the device that took it")
        return {"device_id": device_id}
    user_id = str(parse_uuid(given["user_id"], "owner.user_id"))
    if user_id not in {p["user_id"] for p in profiles}:
        raise ValueError(f"it was taken as profile {user_id}, which it does not hold")
    return {"user_id": user_id}


class OwnerChangeError(NeuronsError):
    """The backup holds another identity's memory than the one this data dir acts as, and the
    data dir cannot take that identity on here (the running app): nothing was restored."""


def owner_of(checked: dict[str, Any]) -> tuple[Identity | None, str]:
    """The profile a loaded backup's memory belongs to (None: the restoring data dir's own
    anonymous device) and how to name it to a person."""
    owner = checked["owner"]
    if "user_id" not in owner:
        return None, "an anonymous device"
    name = next(p["name"] for p in checked["profiles"] if p["user_id"] == owner["user_id"])
    return Identity(user_id=uuid.UUID(owner["user_id"])), f"profile {name} ({owner['user_id']})"


def restore(
    store,
    path: Path | str,
    now: datetime | None = None,
    *,
    acting: Identity | None = None,
    adopt: bool = True,
    passphrase: str | None = None,
) -> dict[str, Any]:
    """Make the store hold exactly the backup at `path` (all or nothing; a sealed one opened
    with `passphrase`), after backing up what it holds now. A backup of another data dir's
    device becomes this device's.

    The result says whose memory the backup holds ("owner": a profile's id and name, or None for
    this data dir's anonymous device) and whether that is another identity than `acting` (the one
    the data dir acts as): the caller then makes the data dir act as the owner ("adopted"), as
    `profile join` does. With `adopt` False such a backup is refused before anything changes."""
    _require_embedded(store)
    checked = load(path, passphrase)
    owner, described = owner_of(checked)
    here_identity = acting or Identity(device_id=store.device_id())
    changes_owner = (owner.user_id if owner else None) != here_identity.user_id
    if changes_owner and not adopt:
        now_as = f"profile {here_identity.user_id}" if here_identity.user_id else "its anonymous device"
        raise OwnerChangeError(
            f"{path} holds the memory of {described}, and this data dir acts as {now_as}: quit the "
            "Neurons app, then run `neurons restore` again (the data dir then acts as the backup's "
            "owner); nothing was restored"
        )
    here, there = str(store.device_id()), checked["device_id"]
    if there != here:
        for row in (*checked["neurons"], *checked["neurons_edges"]):
            if row["device_id"] == there:
                row["device_id"] = here
        for row in checked["profiles"]:
            if row["claimed_device"] == there:
                row["claimed_device"] = here
    before = take(store, now, here_identity, safety=True, protect=(Path(path),))
    with store.transaction(every_owner=True) as cur:
        current = {table: json.loads(rows) for table, (_, rows) in snapshot.read(cur).items()}
        _write_difference(cur, current, checked)
    profile = next((p for p in checked["profiles"] if owner and p["user_id"] == str(owner.user_id)), None)
    return {
        "restored": str(path),
        "before": str(before.path),
        "owner": {"id": profile["user_id"], "name": profile["name"]} if profile else None,
        "owner_described": described,
        "adopted": changes_owner,
        "neurons": len(checked["neurons"]),
        "edges": len(checked["neurons_edges"]),
        "profiles": len(checked["profiles"]),
    }


TIMES = {"created_at", "updated_at", "valid_from", "valid_to"}


def _comparable(row: dict[str, Any], fields: tuple[str, ...]) -> tuple:
    return tuple(datetime.fromisoformat(row[f]) if f in TIMES and row[f] else row[f] for f in fields)


def _write_difference(cur, current: dict[str, list], wanted: dict[str, list]) -> None:
    """Make the store hold `wanted`: rows it does not hold go (links first), rows that differ or
    are missing are written (neurons first); rows already as wanted are left alone."""
    plans = {}
    for table, key, fields in snapshot.TABLES:
        have = {r[key]: _comparable(r, fields) for r in current[table]}
        want = {r[key]: r for r in wanted[table]}
        plans[table] = (
            [k for k in have if k not in want],
            [r for k, r in want.items() if have.get(k) != _comparable(r, fields)],
        )
    for table, _, _ in reversed(snapshot.TABLES):
        snapshot.delete(cur, table, plans[table][0])
    for table, _, _ in snapshot.TABLES:
        snapshot.upsert(cur, table, plans[table][1])


# -- while the app runs ---------------------------------------------------------------------------


class AutoBackup:
    """The app's trigger: ask `due(now)` every CHECK_EVERY, on the worker (it reads the store's
    stamp); `run(now)` takes a backup when one is due. `memory` is the app's Memory."""

    def __init__(self, memory):
        self.memory = memory
        self._stamps: dict[tuple[Path, int], Any] = {}  # the stamp each backup file was taken at
        self._problem: str | None = None  # the backup folder's, as last reported

    def due(self, now: datetime) -> bool:
        store = self.memory.store
        if store.kind != "embedded":
            return False
        backups = listing(store.settings.data_dir)
        newest = backups[0] if backups else None
        if newest is not None and not is_due(newest.taken_at, True, now):
            return False  # too soon: the store is not even asked
        with store.reading(every_owner=True) as cur:
            current = snapshot.stamp(cur)
        if newest is None:  # an empty store needs no backup
            return is_due(None, current["neurons"] + current["edges"] + current["profiles"] > 0, now)
        return is_due(newest.taken_at, current != self._stamp_of(newest), now)

    def _stamp_of(self, backup: Backup) -> Any:
        key = (backup.path, backup.size)
        if key not in self._stamps:
            try:
                self._stamps = {key: load(backup.path)["stamp"]}
            except CorruptBackup:
                self._stamps = {key: None}  # a damaged newest backup: take a good one
        return self._stamps[key]

    def run(self, now: datetime) -> Backup | None:
        """A backup if one is due; then the backup folder brought up to date (a problem there
        is logged as a warning once, until it is solved or another one comes; tried each time)."""
        made = self.memory.backup(now=now) if self.due(now) else None
        outcome = self.memory.backup_elsewhere(now=now)
        if outcome.problem and outcome.problem != self._problem:
            log.warning(
                "the backup to %s failed (the one in the data dir was made; tried again at each check): %s",
                outcome.folder,
                outcome.problem,
            )
        elif outcome.made and self._problem:
            log.info("the backup to %s works again: %s", outcome.folder, outcome.made.path)
        self._problem = outcome.problem
        return made
