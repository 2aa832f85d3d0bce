"""The Store: one connection to one engine, guarded for many threads, durable on commit.

pglite-socket serves every connection on ONE backend (transactions and session state leak between
them), so the store keeps exactly one connection and serialises its use with a lock. Server
Postgres gets the same treatment: one code path, one behaviour.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import signal
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from core.model import NeuronsError
from core.settings import Settings
from core.store.durable import WalSyncer
from core.store.embedded import EmbeddedEngine
from core.store.lock import DataDirLock, stop_orphan_engine

log = logging.getLogger(__name__)

# After this many commits the embedded store checkpoints and fsyncs its data files, so the WAL
# it recycles is never the only copy of a change.
CHECKPOINT_EVERY_COMMITS = 500


class StoreError(NeuronsError):
    pass


class Store:
    def __init__(self, settings: Settings):
        self.settings = settings
        self.kind = settings.engine
        self.lock: DataDirLock | None = None
        self.engine: EmbeddedEngine | None = None
        self.syncer: WalSyncer | None = None
        self._mutex = threading.RLock()
        self._commits = 0
        self._closed = False
        self.opened_in_s = 0.0
        t0 = time.monotonic()
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        try:
            if self.kind == "embedded":
                self._start_embedded()
            else:
                self.conn = self._connect(settings.dsn or "", password_from_keyring=True)
            self._migrate()
        except BaseException:
            self.close()
            raise
        self.opened_in_s = time.monotonic() - t0
        atexit.register(self.close)

    # -- opening -------------------------------------------------------------------------------

    def _start_embedded(self) -> None:
        _exit_cleanly_on_sigterm()
        self.lock = DataDirLock(self.settings.data_dir)
        self.lock.acquire()
        if self.lock.previous:
            stop_orphan_engine(self.lock.previous, self.settings.data_dir)
        self.engine = EmbeddedEngine(self.settings.data_dir, self.settings.pglite_runtime_dir)
        dsn = self.engine.start()
        self.lock.update(engine_pid=self.engine.pid)
        self.syncer = WalSyncer(self.engine.pgdata)
        self.conn = self._connect(dsn)

    def _connect(self, dsn: str, password_from_keyring: bool = False) -> psycopg.Connection:
        kwargs: dict[str, Any] = {}
        if password_from_keyring:
            from core.store.secrets import password_for  # noqa: PLC0415

            password = password_for(dsn)
            if password:
                kwargs["password"] = password
        last: Exception | None = None
        for _ in range(50):
            try:
                # prepare_threshold=None: pglite's one backend would mix prepared statements up
                return psycopg.connect(
                    dsn, autocommit=True, prepare_threshold=None, row_factory=dict_row,
                    connect_timeout=10, **kwargs,
                )
            except psycopg.OperationalError as exc:
                last = exc
                if self.kind != "embedded":
                    break
                time.sleep(0.1)
        raise StoreError(f"cannot connect to the {self.kind} database: {last}")

    def _migrate(self) -> None:
        with self.transaction() as cur:
            cur.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                " version int PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            # one migrator at a time on a shared server
            cur.execute("SELECT pg_advisory_xact_lock(727274)")
            cur.execute("SELECT version FROM schema_version")
            done = {row["version"] for row in cur.fetchall()}
            for version, name, sql in migrations():
                if version in done:
                    continue
                log.info("applying migration %03d %s", version, name)
                cur.execute(sql)
                cur.execute(
                    "INSERT INTO schema_version (version, name) VALUES (%s, %s)", (version, name)
                )

    # -- using ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[psycopg.Cursor]:
        """A write transaction; when it returns, the commit is on disk (fsynced)."""
        with self._mutex:
            self._check_open()
            with self.conn.transaction(), self.conn.cursor() as cur:
                yield cur
            self._made_durable()

    @contextlib.contextmanager
    def reading(self) -> Iterator[psycopg.Cursor]:
        with self._mutex:
            self._check_open()
            with self.conn.transaction(), self.conn.cursor() as cur:
                yield cur

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _made_durable(self) -> None:
        if self.syncer is None:
            return  # a server Postgres fsyncs its own WAL at commit
        self.syncer.sync()
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY_COMMITS == 0:
            self.checkpoint()

    def checkpoint(self) -> None:
        with self._mutex:
            self._check_open()
            self.conn.execute("CHECKPOINT")
            if self.syncer is not None:
                self.syncer.sync_all()

    def device_id(self) -> uuid.UUID:
        """This install's anonymous device id, made at first open and kept in the data dir."""
        path = self.settings.data_dir / "device_id"
        try:
            return uuid.UUID(path.read_text().strip())
        except FileNotFoundError:
            pass
        except ValueError as exc:
            raise StoreError(f"{path} is damaged: {exc}") from exc
        new = uuid.uuid4()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(str(new))
        tmp.replace(path)
        return new

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._mutex:
            conn = getattr(self, "conn", None)
            if conn is not None and not conn.closed:
                if self.syncer is not None:
                    with contextlib.suppress(Exception):
                        conn.execute("CHECKPOINT")
                        self.syncer.sync_all()
                with contextlib.suppress(Exception):
                    conn.close()
            if self.engine is not None:
                self.engine.stop()
            if self.lock is not None:
                self.lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _exit_cleanly_on_sigterm() -> None:
    """Turn a default SIGTERM into SystemExit, so `finally` and atexit close the store: the
    engine checkpoints and the lock is released. Handlers set by the app are left alone."""
    if threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))


def migrations() -> list[tuple[int, str, str]]:
    """The numbered `NNN_name.sql` files of core/store/migrations, in order."""
    folder = resources.files("core.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = Path(entry.name)
        if name.suffix == ".sql" and name.stem[:3].isdigit():
            found.append((int(name.stem[:3]), name.stem[4:], entry.read_text()))
    return sorted(found)


def open_store(settings: Settings) -> Store:
    return Store(settings)
