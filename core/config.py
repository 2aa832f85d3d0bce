"""The data dir's own settings, in `<data dir>/config.json` beside `device_id`: which engine it
uses (a server DSN, never its password: that stays in the OS keyring) and the local profile it
acts as (from `neurons profile create/join`), and the second place backups go to (a folder
outside it, `neurons config set backup-dir`; its passphrase stays in the keyring), and the region
whose conventions read a numeric date (`neurons config set date-region`). A flag or an
environment variable still overrides the engine; nothing else writes this file.

    {"dsn": "host=db.example dbname=neurons user=ana",
     "profile": {"id": "7c0e...", "name": "Ana"}, "backup_dir": "/media/ana/usb", "date_region": "pt_PT"}
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.files import os_error, write_private
from core.model import InvalidInput, NeuronsError
from core.validate import parse_json

FILE = "config.json"
REGION_TAG = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z]{2})?$")  # "pt_PT", "en-US", "de"


class ConfigError(NeuronsError):
    """The data dir's config.json cannot be read or written."""


@dataclass(frozen=True)
class Config:
    dsn: str | None = None
    profile_id: uuid.UUID | None = None
    profile_name: str | None = None
    # written before a claim's transaction, cleared after it: if the process dies in between,
    # the next open asks the store whether the claim committed (Memory settles it)
    profile_pending: bool = False
    backup_dir: str | None = None  # backups are also sealed into this folder (core/backup_elsewhere.py)
    # written before `neurons move-to` copies the memory to a server, cleared by the same write
    # that switches `dsn` to it: if the process dies in between, the next command says so
    moving_to: str | None = None
    moving_since: str | None = None
    # whose conventions read a numeric date ("en_US": 05/06 is May 6): core/when/region.py
    date_region: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.dsn:
            data["dsn"] = self.dsn
        if self.profile_id:
            data["profile"] = {"id": str(self.profile_id), "name": self.profile_name}
            if self.profile_pending:
                data["profile"]["pending"] = True
        if self.backup_dir:
            data["backup_dir"] = self.backup_dir
        if self.moving_to:
            data["moving"] = {"to": self.moving_to, "since": self.moving_since}
        if self.date_region:
            data["date_region"] = self.date_region
        return data


_date_region: str | None = None  # the data dir in use's date_region (choose_date_region)


def choose_date_region(tag: str | None) -> None:
    """The region whose conventions read numeric dates in this process (the data dir's choice;
    NEURONS_DATE_REGION still wins: core/when/region.py)."""
    global _date_region  # one choice for the process, as the environment's
    _date_region = tag or None


def chosen_date_region() -> str | None:
    return _date_region


def path(data_dir: Path) -> Path:
    return Path(data_dir) / FILE


def load(data_dir: Path) -> Config:
    file = path(data_dir)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Config()
    except OSError as exc:
        raise os_error(exc, file, "read") from None
    except UnicodeDecodeError:
        raise _unreadable(file, "it is not UTF-8 text") from None
    try:
        data = parse_json(text, "its JSON")
    except InvalidInput as exc:
        raise _unreadable(file, str(exc)) from None
    if not isinstance(data, dict):
        raise _unreadable(file, "it is not a JSON object")
    profile = data.get("profile") or {}
    if not isinstance(profile, dict):
        raise _unreadable(file, "its profile is not an object")
    try:
        profile_id = uuid.UUID(str(profile["id"])) if profile.get("id") else None
    except ValueError:
        raise _unreadable(file, "it names a profile whose id is not valid") from None
    dsn = data.get("dsn")
    if dsn is not None and not isinstance(dsn, str):
        raise _unreadable(file, "its dsn is not text")
    backup_dir = data.get("backup_dir")
    if backup_dir is not None and not (isinstance(backup_dir, str) and Path(backup_dir).is_absolute()):
        raise _unreadable(file, "its backup_dir is not a folder's absolute path")
    moving = data.get("moving") or {}
    if not (isinstance(moving, dict) and isinstance(moving.get("to") or "", str)):
        raise _unreadable(file, "its moving is not an object naming a server")
    date_region = data.get("date_region")
    if date_region is not None and not (isinstance(date_region, str) and REGION_TAG.match(date_region)):
        raise _unreadable(file, "its date_region is not a region such as en_US or pt_PT")
    return Config(
        dsn=dsn or None,
        profile_id=profile_id,
        profile_name=str(profile.get("name") or "") or None,
        profile_pending=bool(profile_id and profile.get("pending")),
        backup_dir=backup_dir or None,
        date_region=date_region or None,
        moving_to=moving.get("to") or None,
        moving_since=str(moving.get("since") or "") or None,
    )


def unfinished_move(data_dir: Path) -> str | None:
    """A sentence when a `neurons move-to` stopped (killed, the machine off) before this data dir
    switched to the server: where the memory is, and how to finish or forget the move."""
    try:
        saved = load(data_dir)
    except ConfigError:
        return None  # said by whatever reads the config next
    if not saved.moving_to:
        return None
    where = (
        f"the server {saved.dsn}" if saved.dsn else f"the embedded database in {Path(data_dir) / 'pgdata'}"
    )
    stay = f"neurons config set dsn '{saved.dsn}'" if saved.dsn else "neurons config unset dsn"
    return (
        f"a move of this memory to the server {saved.moving_to} stopped (started {saved.moving_since}) "
        f"before this data dir switched to it: your whole memory is still in {where}, which this "
        "data dir still uses, and nothing was lost (the server may hold a copy of it, unused); run "
        "`neurons move-to` with that server again to finish the move (what is there already is "
        f"kept once), or `{stay}` to stay and forget it"
    )


def _unreadable(file: Path, why: str) -> ConfigError:
    return ConfigError(
        f"{file} is not a config Neurons can read ({why}): fix it, or move it aside and say again "
        "which server (neurons config set dsn) or profile (neurons profile join) this data dir used"
    )


def save(data_dir: Path, config: Config) -> None:
    """Write the whole file or nothing, private to its owner, on disk when this returns."""
    file = path(data_dir)
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise os_error(exc, file.parent, "create") from None
    write_private(file, json.dumps(config.to_json(), ensure_ascii=False, indent=1), durable=True)


def split_password(dsn: str) -> tuple[str, str | None]:
    """(the DSN without its password, the password): only the first may be kept in a file."""
    from psycopg.conninfo import conninfo_to_dict, make_conninfo  # noqa: PLC0415 - psycopg loads only for a server DSN

    try:
        parts = conninfo_to_dict(dsn)
    except Exception as exc:  # noqa: BLE001 - psycopg's ProgrammingError: a DSN it cannot read
        raise ConfigError(f"not a Postgres connection string: {exc}") from None
    if not any(str(v).strip() for k, v in parts.items() if k != "password"):
        raise ConfigError(
            f"{dsn!r} names no server: give at least its host and database, e.g. "
            '"postgresql://ana@db.example/neurons" or "host=db.example dbname=neurons user=ana" '
            "(nothing was changed)"
        )
    password = parts.pop("password", None)
    return make_conninfo("", **parts), (str(password) if password is not None else None)
