"""The Store: one connection to one engine, guarded for many threads, durable on commit.

pglite-socket serves every connection on ONE backend (transactions and session state leak between
them), so the store keeps exactly one connection and serialises its use with a lock. Server
Postgres gets the same treatment: one code path, one behaviour.

The store supervises its engine: when the embedded engine dies (or the server connection drops),
it is reaped and started again (reconnected), the call that was running fails with EngineLost,
and `restart_listeners` hear of it once. Opening a store changes nothing process-wide: signal
handling and clean-up at exit belong to the entry points (core/cli.py, desktop/app.py).
"""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import psycopg
from psycopg import Pipeline, Transaction
from psycopg.pq import TransactionStatus
from psycopg.rows import DictRow, dict_row

from core.files import DiskFull, os_error, write_private
from core.model import Identity, NeuronsError
from core.settings import Settings
from core.store import health, queries
from core.store.cursor import Connection, Cursor, one_row
from core.store.durable import WalSyncer, has_space, require_space
from core.store.embedded import EmbeddedEngine, stop_orphan_engine
from core.store.errors import EngineLost, StoreDamaged, StoreError
from core.store.lock import DataDirLock
from core.store.secrets import password_for
from core.store.versions import check_server

log = logging.getLogger(__name__)

# After this many commits the embedded store checkpoints and fsyncs its data files, so the WAL
# it recycles is never the only copy of a change.
CHECKPOINT_EVERY_COMMITS = 500
# the file in the data dir holding its anonymous device id
DEVICE_ID = "device_id"
# An engine that dies this often within the window is not restarted again: something is wrong.
MAX_RESTARTS = 3
RESTART_WINDOW_S = 60.0
# Errors of the engine that mean what it read cannot be trusted.
DAMAGE_ERRORS = (psycopg.errors.DataCorrupted, psycopg.errors.IndexCorrupted, psycopg.errors.IoError)

__all__ = ["EngineLost", "Store", "StoreDamaged", "StoreError", "migrations", "open_store"]


class Store:
    def __init__(self, settings: Settings, *, wait_s: float = 0.0, give_up: Callable[[], bool] | None = None):
        self.settings = settings
        self.kind = settings.engine
        # how long the embedded engine's data-dir lock is waited for (Memory.open(wait_s=))
        self._wait_s, self._give_up = wait_s, give_up
        self.lock: DataDirLock | None = None
        self.engine: EmbeddedEngine | None = None
        self.syncer: WalSyncer | None = None
        self._mutex = threading.RLock()
        self._commits = 0
        self._closed = False
        self._restarts: list[float] = []
        # owners the connected role holds (migration 007), claimed once per store on a server
        self._owners_held: set[Identity] = set()
        # Told once per engine restart (or server reconnect), with a sentence for the person.
        self.restart_listeners: list[Callable[[str], None]] = []
        self.opened_in_s = 0.0
        t0 = time.monotonic()
        try:
            settings.data_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_error(exc, settings.data_dir) from None
        try:
            if self.kind == "embedded":
                self._start_embedded()
            else:
                self.conn = self._connect(settings.dsn or "", password_from_keyring=True)
                with self.reading() as cur:
                    check_server(cur, self._where())
            self._migrate()
        except BaseException:
            self.close()
            raise
        self.opened_in_s = time.monotonic() - t0

    # -- opening -------------------------------------------------------------------------------

    def _start_embedded(self) -> None:
        self.lock = DataDirLock(self.settings.data_dir)
        self.lock.acquire(wait_s=self._wait_s, give_up=self._give_up)
        if self.lock.previous:
            stop_orphan_engine(self.lock.previous, self.settings.data_dir)
        self.engine = EmbeddedEngine(self.settings.data_dir, self.settings.pglite_runtime_dir)
        self.engine.on_exit = self._engine_exited
        self._start_engine()

    def _start_engine(self) -> None:
        engine, lock = self.engine, self.lock
        assert engine is not None and lock is not None, "only an embedded store has an engine"
        dsn = engine.start()
        lock.update(engine_pid=engine.pid, engine_started_at=engine.started_at)
        self.syncer = WalSyncer(engine.pgdata)
        self.conn = self._connect(dsn)

    def _connect(self, dsn: str, password_from_keyring: bool = False) -> Connection:
        kwargs: dict[str, Any] = {}
        if password_from_keyring:
            password = password_for(dsn)
            if password:
                kwargs["password"] = password
        last: Exception | None = None
        for _ in range(50):
            try:
                # prepare_threshold=None: pglite's one backend would mix prepared statements up
                return _StoreConnection.connect(
                    dsn,
                    autocommit=True,
                    prepare_threshold=None,
                    row_factory=dict_row,
                    connect_timeout=10,
                    **kwargs,
                )
            except psycopg.OperationalError as exc:
                last = exc
                if self.kind != "embedded":
                    break
                time.sleep(0.1)
        # libpq's message is two lines (the failure, then a tab and a hint): one line, one sentence
        said = "; ".join(part.strip() for part in str(last).splitlines() if part.strip())
        raise StoreError(f"cannot connect to the {self.kind} database: {said}")

    def _migrate(self) -> None:
        if not self._pending_migrations():
            return  # nothing to write: a store on a full disk still opens for reading
        with self.transaction(every_owner=True) as cur:
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
                try:
                    cur.execute(sql)
                except psycopg.Error as exc:
                    refused = self._migration_refused(exc, version, name)
                    if refused is None:
                        raise
                    raise refused from None
                cur.execute("INSERT INTO schema_version (version, name) VALUES (%s, %s)", (version, name))

    def _pending_migrations(self) -> bool:
        with self.reading() as cur:
            cur.execute("SELECT to_regclass('schema_version') IS NOT NULL AS present")
            if not one_row(cur)["present"]:
                return True
            cur.execute("SELECT version FROM schema_version")
            done = {row["version"] for row in cur.fetchall()}
        return any(version not in done for version, _, _ in migrations())

    # -- using ---------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self, owner: Identity | None = None, *, every_owner: bool = False) -> Iterator[Cursor]:
        """A write transaction for `owner`'s rows (or, `every_owner`, for store-wide work);
        when it returns, the commit is on disk (fsynced)."""
        with self._mutex:
            if self.engine is not None:
                require_space(self.engine.pgdata)
            with self._engine_call(owner, every_owner, writing=True) as cur:
                yield cur
            self._made_durable()

    @contextlib.contextmanager
    def reading(
        self, owner: Identity | None = None, *, every_owner: bool = False, alone: bool = False
    ) -> Iterator[Cursor]:
        """A read transaction for `owner`'s rows (or, `every_owner`, for store-wide work).
        `alone`: no transaction around the reads, each statement on its own, in one round trip
        (when no transaction is open: inside one, a read is part of it). On the embedded engine
        that saves its BEGIN and COMMIT, and the reads still see one state of the store, for the
        engine is this process's alone and every call to it holds the store's mutex, as these
        reads do until the last. On the server each statement goes with the owner's name
        (`_OwnedCursor`), and sees what was committed when it began, as each statement of a read
        committed transaction does."""
        with self._mutex, self._engine_call(owner, every_owner, writing=False, alone=alone) as cur:
            yield cur

    @contextlib.contextmanager
    def _engine_call(
        self, owner: Identity | None, every_owner: bool, writing: bool, alone: bool = False
    ) -> Iterator[Cursor]:
        """One transaction on a live engine (`alone`: none, on the embedded engine); the
        engine's failures become sentences."""
        self._ready()
        committing = False
        claim = self.engine is None and owner is not None and owner not in self._owners_held
        try:
            with contextlib.ExitStack() as stack:
                between = not writing and self._between_transactions()
                if between and alone and self.engine is not None:
                    cur = stack.enter_context(self.conn.cursor())
                elif between and alone and owner is not None and not (every_owner or claim):
                    cur = stack.enter_context(_OwnedCursor(self.conn, owner))
                elif between and self.engine is None:
                    cur = stack.enter_context(self._queued_read(owner, every_owner, claim))
                else:
                    stack.enter_context(self.conn.transaction())
                    cur = stack.enter_context(self.conn.cursor())
                    if self.engine is None:  # the server: row-level security sees only this owner
                        queries.name_owner(cur, owner, every_owner, claim=claim)
                yield cur
                committing = True
            if claim and owner is not None:
                self._owners_held.add(owner)  # committed: the role holds it now
        except psycopg.Error as exc:
            problem = self._translate(exc, writing and committing)
            if problem is exc:
                raise
            raise problem from None

    def _between_transactions(self) -> bool:
        """No transaction is open on the connection: a read inside one (a reader's look in the
        middle of a capture's write, a read inside a read) is a savepoint of it instead."""
        conn = self.conn
        if isinstance(conn, _StoreConnection) and conn.queued is not None:
            return False
        return conn.info.transaction_status is TransactionStatus.IDLE

    @contextlib.contextmanager
    def _queued_read(self, owner: Identity | None, every_owner: bool, claim: bool) -> Iterator[Cursor]:
        """A read transaction on the server with two round trips less: in libpq's pipeline mode,
        its BEGIN and the owner's name go with its first statement (a statement waits only when
        its rows are fetched), its COMMIT with the last wait. A failure, in the reads or in the
        caller, rolls it back. BEGIN and the owner's name are sent on a cursor of their own: a
        pipelined result is given to its cursor whenever it arrives, so on the caller's cursor the
        owner's row could arrive after the caller's statement was sent and be fetched as its rows."""
        conn = self.conn
        done = False
        try:
            with conn.pipeline() as pipeline, conn.cursor() as preamble, conn.cursor() as cur:
                preamble.execute("BEGIN")
                queries.name_owner(preamble, owner, every_owner, claim=claim)
                if isinstance(conn, _StoreConnection):
                    conn.queued = pipeline
                yield cur
                preamble.execute("COMMIT")
            done = True  # synced: a statement whose rows were never fetched has run, and COMMIT
        finally:
            if isinstance(conn, _StoreConnection):
                conn.queued = None
            if not done and not conn.broken and conn.info.transaction_status is not TransactionStatus.IDLE:
                with contextlib.suppress(psycopg.Error):
                    conn.execute("ROLLBACK")

    def _check_open(self) -> None:
        if self._closed:
            raise StoreError("the store is closed")

    def _ready(self) -> None:
        """Before a call: an engine that died since the last one is started again first."""
        self._check_open()
        if self.engine is not None and not self.engine.alive:
            self._restart("the engine had stopped")
        elif self.conn.broken or self.conn.closed:
            self._restart("the connection was closed")

    def _translate(self, exc: psycopg.Error, committing: bool) -> Exception:
        if self.conn.broken or (self.engine is not None and not self.engine.alive):
            log.warning("the %s engine was lost during a call: %s", self.kind, exc)
            self._restart(str(exc).strip().splitlines()[0] if str(exc).strip() else "lost")
            outcome = (
                "it may or may not have been saved: look before you try again"
                if committing
                else "it was not saved: try again"
            )
            return EngineLost(
                f"the database {'engine' if self.engine else 'connection'} stopped "
                f"during this call and is back now; {outcome}"
            )
        if isinstance(exc, DAMAGE_ERRORS):
            log.error("the engine reports damage: %s", exc)
            return StoreDamaged(
                str(self.settings.data_dir) if self.engine else "the database server",
                str(exc).strip().splitlines()[0],
            )
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return StoreError(f"the database refused this ({_first_line(exc)}); nothing was changed")
        if isinstance(exc, psycopg.errors.UniqueViolation):
            return StoreError(
                "an id of this change is already taken by another identity of this database "
                "role; nothing was saved"
            )
        if isinstance(exc, psycopg.errors.DiskFull):
            where = self.engine.pgdata if self.engine else "the database server"
            return DiskFull(
                f"the disk holding {where} is full: free some space and try again "
                "(nothing was saved by this call)"
            )
        return exc

    def _migration_refused(self, exc: psycopg.Error, version: int, name: str) -> StoreError | None:
        """A migration the connected role may not apply, as what to ask the database's admin."""
        info, where = self.conn.info, self._where()
        extension = re.search(r'extension "([^"]+)"', str(exc))
        if extension and isinstance(exc, psycopg.errors.InsufficientPrivilege):
            ext = extension.group(1)
            return StoreError(
                f"the {where} lacks the {ext} extension, and the role {info.user} may not create "
                f'it: ask the database\'s admin to run "CREATE EXTENSION {ext};" in it as a '
                "superuser, then try again (nothing was changed)"
            )
        if extension and isinstance(exc, (psycopg.errors.FeatureNotSupported, psycopg.errors.UndefinedFile)):
            return StoreError(
                f"the server of the {where} has no {extension.group(1)} extension installed: ask "
                "its admin to install it (Neurons needs pgvector and pg_trgm), then try again "
                "(nothing was changed)"
            )
        if isinstance(exc, psycopg.errors.InsufficientPrivilege):
            return StoreError(
                f"the {where} needs Neurons' schema update {version:03d} ({name}), which only the "
                f"role that owns its tables may apply, not {info.user}: ask the database's admin "
                f"to open it once as that role (e.g. neurons doctor --dsn ...), then try again "
                f"(nothing was changed; {_first_line(exc)})"
            )
        return None

    def _where(self) -> str:
        """The server's database, as a sentence names it."""
        info = self.conn.info
        return f"database {info.dbname} on {info.host or 'localhost'}"

    def _restart(self, reason: str) -> None:
        """Reap and start the engine again (or reconnect to the server); tell the listeners once.
        The caller holds the mutex."""
        now = time.monotonic()
        self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW_S]
        if len(self._restarts) >= MAX_RESTARTS:
            raise StoreError(
                f"the database {'engine' if self.engine else 'connection'} keeps "
                f"stopping ({len(self._restarts)} times within {RESTART_WINDOW_S:.0f} s; "
                f"last: {reason}): quit Neurons and run `neurons doctor`"
            )
        self._restarts.append(now)
        with contextlib.suppress(Exception):
            self.conn.close()
        if self.engine is not None:
            process = self.engine.manager.process if self.engine.manager else None
            exited = process.returncode if process else None
            self.engine.stop()
            self._start_engine()
            message = (
                "The database engine stopped unexpectedly"
                + (f" (exit status {exited})" if exited is not None else "")
                + " and was restarted; nothing you saved was lost."
            )
        else:
            self.conn = self._connect(self.settings.dsn or "", password_from_keyring=True)
            message = (
                "The connection to the database server was lost and is back; nothing you saved was lost."
            )
        log.warning("%s (%s)", message, reason)
        for listener in list(self.restart_listeners):
            try:
                listener(message)
            except Exception:  # a listener must not stop the store from serving
                log.exception("restart listener failed")

    def _engine_exited(self, code: int) -> None:
        """On the engine's output thread, right after it died: restart it now, so the next call
        does not wait (a call running on another thread may have restarted it already)."""
        with self._mutex:
            if self._closed or self.engine is None or self.engine.alive:
                return
            try:
                self._restart(f"exit status {code}")
            except NeuronsError as exc:
                log.error("the engine could not be restarted: %s", exc)

    def _made_durable(self) -> None:
        if self.syncer is None:
            return  # a server Postgres fsyncs its own WAL at commit
        try:
            self.syncer.sync()
        except OSError as exc:
            raise os_error(exc, self.syncer.wal_dir, "make durable") from None
        self._commits += 1
        if self._commits % CHECKPOINT_EVERY_COMMITS == 0 and has_space(self.syncer.pgdata):
            self.checkpoint()  # (on a full disk the WAL keeps it; the next one does it)

    def checkpoint(self) -> None:
        with self._mutex:
            self._check_open()
            if self.engine is not None:
                require_space(self.engine.pgdata)
            self.conn.execute("CHECKPOINT")
            if self.syncer is not None:
                self.syncer.sync_all()

    def check(self, identity: Identity | None = None) -> dict[str, Any]:
        """Read every row (of `identity`) and cross-check it with the indexes: see health.py."""
        with self.reading(identity, every_owner=identity is None) as cur:
            return health.check_store(cur, identity)

    def require_sound(self, identity: Identity | None = None) -> None:
        """Raise StoreDamaged unless every row (of `identity`) reads back whole (an export must
        never write a partial file as if it were complete)."""
        report = self.check(identity)
        if not report["ok"]:
            raise self._damaged(report["problems"])

    def require_counted(self, cur: Cursor, read: dict[str, int], identity: Identity | None = None) -> None:
        """Raise StoreDamaged unless the rows (of `identity`) just read on `cur`, `read[table]`
        of each table, are every row its index holds: a table file cut short reads as a shorter
        table (a sequential scan stops at its end silently), and a plan made on part of a memory
        would write twins of what it did not see."""
        problems = health.counted_again(cur, read, identity)
        if problems:
            raise self._damaged(problems)

    def require_whole(self, cur: Cursor, identity: Identity | None = None) -> None:
        """Raise StoreDamaged unless every row of `identity` in each owned table can be fetched:
        the check of a plan that reads only the rows it could match (two counts a table, no
        value read; health.read_short)."""
        problems = health.read_short(cur, identity)
        if problems:
            raise self._damaged(problems)

    def _damaged(self, problems: list[str]) -> StoreDamaged:
        return StoreDamaged(
            str(self.settings.data_dir) if self.engine else "the database server", "; ".join(problems)
        )

    def device_id(self) -> uuid.UUID:
        """This install's anonymous device id, made at first open and kept in the data dir."""
        made = saved_device_id(self.settings)
        if made is not None:
            return made
        new = uuid.uuid4()
        write_private(self.settings.data_dir / DEVICE_ID, str(new), durable=True)
        return new

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with self._mutex:
            # On a (nearly) full disk a checkpoint would hang the engine: stop it hard instead;
            # every acknowledged commit is in the fsynced WAL, which the next start replays.
            roomy = self.engine is None or has_space(self.engine.pgdata)
            conn = getattr(self, "conn", None)
            if conn is not None and not conn.closed:
                if self.syncer is not None and roomy:
                    with contextlib.suppress(Exception):
                        conn.execute("CHECKPOINT")
                        self.syncer.sync_all()
                with contextlib.suppress(Exception):
                    conn.close()
            if self.engine is not None:
                self.engine.stop(hard=not roomy)
                if self.syncer is not None and roomy:
                    # the engine's own shutdown checkpoint wrote pg_control and data files
                    # PGlite never fsyncs: on disk before another process may open them
                    with contextlib.suppress(OSError):
                        self.syncer.sync_all()
            if self.lock is not None:
                self.lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _StoreConnection(psycopg.Connection[DictRow]):
    """The store's connection. In a queued read (`Store._queued_read`) libpq learns that the
    transaction began only at the read's first sync, so until then it says the connection is idle;
    psycopg's `transaction()` would then BEGIN and COMMIT a transaction of its own, ending the read's
    (and the owner named in it) early. So a nested transaction (a savepoint: a read the role may be
    refused) syncs the read first, and psycopg sees the transaction it is in."""

    queued: Pipeline | None = None  # the pipeline of the queued read under way

    @contextlib.contextmanager
    def transaction(
        self, savepoint_name: str | None = None, force_rollback: bool = False
    ) -> Iterator[Transaction]:
        if self.queued is not None:
            self.queued.sync()
        with super().transaction(savepoint_name, force_rollback) as tx:
            yield tx


class _OwnedCursor(psycopg.Cursor[DictRow]):
    """A server read without a transaction around it (`Store.reading(alone=True)`): each
    statement is sent in libpq's pipeline mode behind the owner's name, and the two end with one
    sync: one implicit transaction, so the name holds for that statement alone, and one round trip.
    No name outlives its statement (nothing is set for the session). The name goes on a cursor
    of its own, as in `Store._queued_read`: its row is never the caller's."""

    def __init__(self, conn: Connection, owner: Identity):
        super().__init__(conn, row_factory=dict_row)
        self._naming = psycopg.Cursor(conn)
        self._owner = queries.owner_statement(owner)

    def execute(self, query, params=None, **kwargs):
        with self.connection.pipeline():
            self._naming.execute(*self._owner)
            super().execute(query, params, **kwargs)
        return self

    def close(self) -> None:
        self._naming.close()
        super().close()


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def migrations() -> list[tuple[int, str, str]]:
    """The numbered `NNN_name.sql` files of core/store/migrations, in order."""
    folder = resources.files("core.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = Path(entry.name)
        if name.suffix == ".sql" and name.stem[:3].isdigit():
            found.append((int(name.stem[:3]), name.stem[4:], entry.read_text()))
    return sorted(found)


def saved_device_id(settings: Settings) -> uuid.UUID | None:
    """The data dir's anonymous device id, None before the store's first open made it."""
    path = settings.data_dir / DEVICE_ID
    try:
        return uuid.UUID(path.read_text().strip())
    except FileNotFoundError:
        return None
    except ValueError as exc:
        raise StoreError(f"{path} is damaged: {exc}") from exc


def open_store(
    settings: Settings, *, wait_s: float = 0.0, give_up: Callable[[], bool] | None = None
) -> Store:
    return Store(settings, wait_s=wait_s, give_up=give_up)
