"""The server password lives in the OS keyring, never in a file or the DSN we store."""

from __future__ import annotations

import contextlib
import logging

from psycopg.conninfo import conninfo_to_dict

from core.model import NeuronsError

log = logging.getLogger(__name__)
SERVICE = "neurons"


class KeyringUnavailable(NeuronsError):
    pass


def account_for(dsn: str) -> str:
    parts = conninfo_to_dict(dsn)
    return (
        f"{parts.get('user', '')}@{parts.get('host', 'localhost')}:{parts.get('port', '5432')}"
        f"/{parts.get('dbname', '')}"
    )


DATABASE_PASSWORD = (
    "the database password",
    "put it in the DSN for this session only, or use a desktop with a keyring",
)
SYNC_PASSWORD = (
    "the sync password",
    "give it in NEURONS_SYNC_PASSWORD to each `neurons sync`, or use a desktop with a keyring",
)


def _secure_keyring(purpose: tuple[str, str] = DATABASE_PASSWORD):
    import keyring  # noqa: PLC0415 - only the server engine needs it
    from keyring.backends import fail  # noqa: PLC0415 - as above

    backend = keyring.get_keyring()
    kind = f"{type(backend).__module__}.{type(backend).__name__}".lower()
    # keyring ranks secure OS stores >= 1; the fail, null and plaintext-file backends below that
    if isinstance(backend, fail.Keyring) or "plaintext" in kind or getattr(backend, "priority", 0) < 1:
        what, instead = purpose
        raise KeyringUnavailable(f"no secure OS keyring is available, so {what} cannot be kept: {instead}")
    return keyring


def password_for(dsn: str) -> str | None:
    """The keyring's password for this DSN, unless the DSN carries one itself."""
    if "password" in conninfo_to_dict(dsn):
        return None
    try:
        return _secure_keyring().get_password(SERVICE, account_for(dsn))
    except KeyringUnavailable as exc:
        log.info("%s", exc)
        return None


def save_password(dsn: str, password: str) -> None:
    _secure_keyring().set_password(SERVICE, account_for(dsn), password)


# -- sync accounts (core/sync): the password of a CalDAV/CardDAV account --------------------------


def sync_account_for(url: str, username: str) -> str:
    return f"sync:{username}@{url}"


def sync_password(url: str, username: str) -> str | None:
    """The keyring's password for a sync account (None: no secure keyring, or none kept)."""
    try:
        return _secure_keyring(SYNC_PASSWORD).get_password(SERVICE, sync_account_for(url, username))
    except KeyringUnavailable as exc:
        log.info("%s", exc)
        return None


def save_sync_password(url: str, username: str, password: str) -> None:
    """Keep it in the OS keyring; raises KeyringUnavailable rather than write it anywhere else."""
    _secure_keyring(SYNC_PASSWORD).set_password(SERVICE, sync_account_for(url, username), password)


def forget_sync_password(url: str, username: str) -> None:
    try:
        store = _secure_keyring(SYNC_PASSWORD)
    except KeyringUnavailable:
        return
    from keyring.errors import PasswordDeleteError  # noqa: PLC0415 - keyring loads only for a server's password

    with contextlib.suppress(PasswordDeleteError):
        store.delete_password(SERVICE, sync_account_for(url, username))


# -- the backup passphrase (core/backup_elsewhere.py): one per data dir -----------------------------

# For one command where no keyring exists (a server without a desktop, a fresh machine's restore).
PASSPHRASE_ENV = "NEURONS_BACKUP_PASSPHRASE"
BACKUP_PASSPHRASE = (
    "the backup passphrase",
    f"give it in {PASSPHRASE_ENV} to each command that needs it, or use a desktop with a keyring",
)


def backup_account_for(data_dir) -> str:
    return f"backup:{data_dir}"


def backup_passphrase(data_dir, environ=None) -> str | None:
    """The passphrase backups outside the data dir are sealed with: NEURONS_BACKUP_PASSPHRASE for
    this command, else the one kept in the OS keyring (None: neither)."""
    import os  # noqa: PLC0415 - only a backup elsewhere needs it

    given = (os.environ if environ is None else environ).get(PASSPHRASE_ENV)
    if given:
        return given
    try:
        return _secure_keyring(BACKUP_PASSPHRASE).get_password(SERVICE, backup_account_for(data_dir))
    except KeyringUnavailable as exc:
        log.info("%s", exc)
        return None


def save_backup_passphrase(data_dir, passphrase: str) -> None:
    """Keep it in the OS keyring; raises KeyringUnavailable rather than write it anywhere else."""
    _secure_keyring(BACKUP_PASSPHRASE).set_password(SERVICE, backup_account_for(data_dir), passphrase)


def forget_backup_passphrase(data_dir) -> None:
    try:
        store = _secure_keyring(BACKUP_PASSPHRASE)
    except KeyringUnavailable:
        return
    from keyring.errors import PasswordDeleteError  # noqa: PLC0415 - keyring loads only when needed

    with contextlib.suppress(PasswordDeleteError):
        store.delete_password(SERVICE, backup_account_for(data_dir))
