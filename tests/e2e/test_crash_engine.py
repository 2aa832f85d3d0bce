"""Kill -9 of the embedded engine under a process that keeps capturing: the crash suite's
engine part (tests/e2e/test_crash.py)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys

import pytest

from tests.conftest import ROOT
from tests.e2e.crash import ENGINE_KILLS, ENGINE_KILLS_PER_PROCESS, LOOP, listed_ids, report


@pytest.mark.slow
def test_kill_9_of_the_engine_loses_nothing_acknowledged(tmp_path, capsys):
    """The engine under a process that keeps capturing: it is restarted, the process goes on."""
    data, rng = tmp_path / "data", random.Random(11)
    acked: list[str] = []
    kills = 0
    while kills < ENGINE_KILLS:
        child = subprocess.Popen(
            [sys.executable, "-c", LOOP, str(data), str(kills)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        engine = None
        for _ in range(ENGINE_KILLS_PER_PROCESS):
            wanted, seen = rng.randint(2, 30), 0
            while seen < wanted:
                line = child.stdout.readline().split()
                assert line, child.stderr.read()
                if line[0] == "engine":
                    engine = int(line[1])
                elif line[0] == "ok":
                    acked.append(line[1])
                    seen += 1
            os.kill(engine, signal.SIGKILL)
            kills += 1
        # closing stdin (communicate does) ends the loop after its next capture
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        acked += [line.split()[1] for line in out.splitlines() if line.startswith("ok ")]
    lost = len(set(acked) - listed_ids(data))
    report(capsys, "engine", kills, len(acked), lost)
    assert lost == 0
