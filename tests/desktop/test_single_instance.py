"""One app per data dir, with real processes (offscreen, no tray): a second launch and `neurons
capture` hand their request to the running app; after a crash the next app takes over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core import instance
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT, run_cli

START_TIMEOUT_S = 120


def app_env(runtime: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(runtime))
    return env


def launch(data_dir: Path, runtime: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop.launch", "--data-dir", str(data_dir), "--no-tray", *args],
        cwd=ROOT,
        env=app_env(runtime),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_ready(proc: subprocess.Popen, data_dir: Path) -> dict:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"the app exited with {proc.returncode}: {said}")
        try:
            status = instance.request(data_dir, {"op": "status"}, timeout=10)
        except instance.InstanceError:
            status = None
        if status and status.get("ready"):
            return status
        time.sleep(0.1)  # fine enough for the benchmarks that time a start with it
    raise AssertionError("the app did not become ready")


# A second launch run as `neurons-desktop` is, that says on its last line of stderr which heavy
# modules it loaded: forwarding a request loads no Qt and no database driver.
SECOND = (
    "import json, sys; from desktop.launch import main; code = main(sys.argv[1:]); "
    "heavy = ('PySide6', 'shiboken6', 'psycopg', 'onnxruntime', 'numpy', 'core.memory', 'desktop.app'); "
    "print(json.dumps(sorted(m for m in sys.modules if m.startswith(heavy))), file=sys.stderr); "
    "sys.exit(code)"
)


def second(data_dir: Path, runtime: Path, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-c", SECOND, "--data-dir", str(data_dir), *args],
        cwd=ROOT,
        env=app_env(runtime),
        capture_output=True,
        text=True,
        timeout=60,
    )
    said, _, loaded = done.stderr.rstrip("\n").rpartition("\n")
    assert json.loads(loaded) == [], f"a forwarded {args} loaded {loaded}"
    done.stderr = said
    return done


def stop(proc: subprocess.Popen, data_dir: Path) -> int:
    try:
        instance.request(data_dir, {"op": "quit"}, timeout=10)
    except instance.InstanceError:
        proc.terminate()
    try:
        return proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise


@pytest.fixture
def runtime(tmp_path, monkeypatch):
    path = tmp_path / "run"
    path.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(path))
    return path


def ask_app(data_dir, question: str, *options: str) -> list[dict]:
    """`neurons ask --json` answered by the running app (its one door for reads, op "command")."""
    answer = instance.command(data_dir, ["ask", "--json", *options, "--", question])
    assert answer is not None and answer["code"] == 0, answer
    return json.loads(answer["stdout"])


@pytest.mark.slow  # the app and a dozen processes that go through it
def test_second_launch_and_cli_go_through_the_running_app(tmp_path, runtime):
    data_dir = tmp_path / "data"
    proc = launch(data_dir, runtime)
    try:
        status = wait_ready(proc, data_dir)
        assert status["window_visible"] is True and status["tray"] is False
        # a second app forwards --capture and exits 0 without opening the store
        done = second(data_dir, runtime, "--capture", "Buy oat milk on the way home")
        assert done.returncode == 0, done.stderr
        forwarded_id = done.stdout.strip()
        # `neurons capture` from a terminal too (this is what a global shortcut runs)
        cli = run_cli(
            "capture",
            "Call Ana about the flat",
            "--json",
            data_dir=data_dir,
            env={"XDG_RUNTIME_DIR": str(runtime)},
        )
        assert cli.returncode == 0, cli.stderr
        cli_id = json.loads(cli.stdout)["id"]
        # a plain second launch raises the window and exits 0
        shown = second(data_dir, runtime, "--ask", "oat milk")
        assert shown.returncode == 0, shown.stderr
        # --quick opens the quick capture box of the running app (bind it to a global shortcut)
        quick = second(data_dir, runtime, "--quick")
        assert quick.returncode == 0, quick.stderr
        assert instance.request(data_dir, {"op": "status"})["quick_visible"] is True
        found = ask_app(data_dir, "oat milk", "--mode", "keyword")
        assert [r["id"] for r in found] == [forwarded_id]
        assert forwarded_id in [r["id"] for r in ask_app(data_dir, "oat milk")]
        # every other `neurons` command is answered by the running app too, same output
        env = {"XDG_RUNTIME_DIR": str(runtime)}
        listed = run_cli("list", "--json", data_dir=data_dir, env=env)
        assert listed.returncode == 0, listed.stderr
        assert {forwarded_id, cli_id} <= {n["id"] for n in json.loads(listed.stdout)}
        shown = run_cli("show", cli_id, "--json", data_dir=data_dir, env=env)
        assert json.loads(shown.stdout)["body"] == "Call Ana about the flat"
        assert run_cli("done", forwarded_id, data_dir=data_dir, env=env).returncode == 0
        missing = run_cli("show", "00000000-0000-0000-0000-000000000000", data_dir=data_dir, env=env)
        assert missing.returncode == 2 and "no neuron" in missing.stderr
        backup = tmp_path / "backup.json"
        exported = run_cli("export", str(backup), data_dir=data_dir, env=env)
        assert exported.returncode == 0 and len(json.loads(backup.read_text())["neurons"]) == 2
        report = json.loads(run_cli("doctor", "--json", data_dir=data_dir, env=env).stdout)
        assert report["lock"]["pid"] == proc.pid
    finally:
        code = stop(proc, data_dir)
    assert code == 0, proc.stderr.read()
    assert not instance.socket_path(data_dir).exists()
    # everything is in the store after the app is gone
    with Memory.open(Settings.from_env(data_dir=data_dir, embed_in_background=False)) as memory:
        bodies = {str(n.id): n.body for n in memory.list(states=["active", "done"], limit=10)}
        assert memory.get(forwarded_id).state.value == "done"  # marked done through the app
    assert bodies[forwarded_id] == "Buy oat milk on the way home"
    assert bodies[cli_id] == "Call Ana about the flat"


@pytest.mark.slow
def test_after_a_crash_the_next_app_takes_over_the_stale_socket(tmp_path, runtime):
    data_dir = tmp_path / "data"
    proc = launch(data_dir, runtime)
    wait_ready(proc, data_dir)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(30)
    path = instance.socket_path(data_dir)
    assert path.exists()  # left behind by the crash
    # nobody answers there: the CLI saves by itself (it never deletes the socket)
    cli = run_cli(
        "capture", "written while the app was down", data_dir=data_dir, env={"XDG_RUNTIME_DIR": str(runtime)}
    )
    assert cli.returncode == 0, cli.stderr
    assert path.exists()
    # the next app holds the lock, replaces the socket and answers on it
    again = launch(data_dir, runtime)
    try:
        wait_ready(again, data_dir)
        found = ask_app(data_dir, "written while", "--mode", "keyword")
        assert [r["neuron"]["body"] for r in found] == ["written while the app was down"]
    finally:
        assert stop(again, data_dir) == 0
