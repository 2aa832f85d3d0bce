"""The server password lives in the OS keyring, never in a file or the DSN we store."""

from __future__ import annotations

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


def _secure_keyring():
    import keyring  # noqa: PLC0415 - only the server engine needs it
    from keyring.backends import fail  # noqa: PLC0415 - as above

    backend = keyring.get_keyring()
    kind = f"{type(backend).__module__}.{type(backend).__name__}".lower()
    # keyring ranks secure OS stores >= 1; the fail, null and plaintext-file backends below that
    if isinstance(backend, fail.Keyring) or "plaintext" in kind or getattr(backend, "priority", 0) < 1:
        raise KeyringUnavailable(
            "no secure OS keyring is available, so the database password cannot be kept: "
            "put it in the DSN for this session only, or use a desktop with a keyring"
        )
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
