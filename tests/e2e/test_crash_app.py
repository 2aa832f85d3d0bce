"""Kill -9 of the desktop app taking forwarded captures: the crash suite's app part
(tests/e2e/test_crash.py)."""

from __future__ import annotations

import random
import subprocess
import sys
import threading

import pytest

from core import instance
from tests.conftest import ROOT
from tests.e2e.crash import APP_KILLS, app_env, listed_ids, report, wait_ready


@pytest.mark.slow
def test_kill_9_of_the_app_loses_no_forwarded_capture(tmp_path, capsys, monkeypatch):
    """The desktop app, taking captures forwarded over its socket, killed mid-stream; the next app
    takes the data dir over and holds every capture it acknowledged."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    data, rng = tmp_path / "data", random.Random(13)
    acked: set[str] = set()
    kills = 0
    while True:
        app = subprocess.Popen(
            [sys.executable, "-m", "desktop.launch", "--data-dir", str(data), "--no-tray"],
            cwd=ROOT,
            env=app_env(runtime),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        wait_ready(app, data)
        # what the app holds now: everything acknowledged by the one killed before it
        assert acked <= listed_ids(data, env={"XDG_RUNTIME_DIR": str(runtime)})
        if kills == APP_KILLS:
            instance.request(data, {"op": "quit"}, timeout=10)
            assert app.wait(60) == 0
            break
        threading.Timer(rng.uniform(0.05, 1.5), lambda victim=app: victim.kill()).start()
        n = 0
        while app.poll() is None:
            n += 1
            try:
                answer = instance.command(
                    data, ["capture", "--kind", "note", "--", f"app crash {kills} capture {n}"]
                )
            except instance.InstanceError:
                continue  # the app died mid-request: not acknowledged
            if answer is not None and answer["code"] == 0:
                acked.add(answer["stdout"].strip())
        app.wait(30)
        kills += 1
    lost = len(acked - listed_ids(data))
    report(capsys, "app", kills, len(acked), lost)
    assert lost == 0 and acked
