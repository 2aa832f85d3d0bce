"""The kill tier: kill -9 at random moments of real processes importing, exporting, moving to a
server, re-embedding and syncing. After every kill the next process opens the store and checks it
(every row read and cross-checked with the indexes: Store.check) and finds everything that was
acknowledged before: an import's every item (an import is all or nothing), a capture, an export
file whole, a moved memory on the server.

Cheap by design: one data dir per operation, reused across its kills; small inputs; each process
forked from one that imported Neurons already (tests/e2e/kill_victim.py), so a kill costs an
engine start; each kill comes after a random delay within the operation's own run time, measured
on the runs left to finish. NEURONS_KILL_TIER sets the kills per operation (20: 100 in all)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core import config
from core.memory import Memory
from core.settings import Settings
from tests.conftest import ROOT
from tests.core.dav_server import Phone, Radicale
from tests.e2e.crash_counts import ACKED, KILLS, LOST

pytestmark = pytest.mark.slow

KILLS_PER_OPERATION = int(os.environ.get("NEURONS_KILL_TIER", "20"))
# every so many runs one is left to finish: it acknowledges, and measures the operation
FINISH_EVERY = 4
SEEDED = 24  # neurons in the stores that are exported, moved and re-embedded
IMPORTED = 8  # cards per imported file


class Zygote:
    """The process that forks the victims (tests/e2e/kill_victim.py)."""

    def __init__(self, root: Path):
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.kill_victim"],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "XDG_RUNTIME_DIR": str(root), "OPENBLAS_NUM_THREADS": "1"},
        )
        self.jobs = 0

    def run(self, job: dict[str, Any], kill_after: float | None) -> tuple[int, list[tuple[str, Any]], float]:
        """Run one job; with `kill_after`, kill -9 it that long after its store was open and
        checked. (exit status, its lines, seconds from the check to its end)."""
        self.jobs += 1
        out = self.root / f"job-{self.jobs}.out"
        self.proc.stdin.write(json.dumps({**job, "out": str(out)}) + "\n")
        self.proc.stdin.flush()
        pid = int(self.proc.stdout.readline().split()[1])
        checked = None
        deadline = time.monotonic() + 300
        while checked is None and time.monotonic() < deadline and _alive(pid):
            if out.exists() and out.read_text(errors="replace").startswith("healthy "):
                checked = time.monotonic()
            else:
                time.sleep(0.005)
        if kill_after is not None and checked is not None:
            time.sleep(kill_after)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        status = int(self.proc.stdout.readline().split()[1])
        spent = time.monotonic() - (checked or time.monotonic())
        lines = []
        for line in out.read_text(errors="replace").splitlines():
            tag, _, rest = line.partition(" ")
            if tag in ("healthy", "ack", "failed"):
                try:
                    lines.append((tag, json.loads(rest)))
                except ValueError:
                    pass  # a line cut by the kill
        return status, lines, spent

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(60)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.fixture(scope="module")
def zygote(tmp_path_factory):
    z = Zygote(tmp_path_factory.mktemp("kill-tier"))
    yield z
    z.close()


def seed(data_dir: Path, n: int = SEEDED) -> set[str]:
    with Memory.open(Settings(data_dir=data_dir, embed_in_background=False)) as memory:
        ids = {str(memory.capture(f"kept through the kills {i}", kind="note").id) for i in range(n)}
        a, b = sorted(ids)[:2]
        memory.link(a, b)
        return ids


def report(capsys, op: str, kills: int, acked: int, lost: int) -> None:
    KILLS[op] = KILLS.get(op, 0) + kills
    ACKED[op] = ACKED.get(op, 0) + acked
    LOST[op] = LOST.get(op, 0) + lost
    with capsys.disabled():
        print(f"\n[kill tier] {op}: {kills} kill -9s, {acked} acknowledged items, {lost} lost")


def tier(
    zygote: Zygote,
    op: str,
    job: Callable[[int], dict[str, Any]],
    check: Callable[[dict[str, Any]], int],
    acked: Callable[[int, list[tuple[str, Any]]], int],
    before: Callable[[], None] = lambda: None,
) -> tuple[int, int]:
    """Kill the operation KILLS_PER_OPERATION times. `check(healthy)` counts what acknowledged is
    missing from a store just opened; `acked(round, lines)` takes what a run acknowledged (how
    many). Every run's store must open and check healthy. (kills, acknowledged)."""
    rng = random.Random(op)
    kills = runs = total = 0
    took: float | None = None
    while kills < KILLS_PER_OPERATION:
        runs += 1
        before()
        finish = took is None or runs % FINISH_EVERY == 0
        status, lines, spent = zygote.run(job(runs), None if finish else rng.uniform(0, took))
        healthy = [data for tag, data in lines if tag == "healthy"]
        assert healthy, f"{op} run {runs} (exit {status}) never opened its store: {lines}"
        assert healthy[0]["ok"], f"{op} run {runs}: the store checks unhealthy: {healthy[0]['problems']}"
        lost = check(healthy[0])
        assert lost == 0, f"{op} run {runs}: {lost} acknowledged items are missing after the last kill"
        total += acked(runs, lines)
        if status == -signal.SIGKILL:
            kills += 1
        else:
            assert status == 0, f"{op} run {runs} failed: {lines}"
            took = spent if took is None else 0.7 * took + 0.3 * spent
    return kills, total


def test_kill_9_of_imports_loses_no_imported_item(zygote, tmp_path, capsys):
    data = tmp_path / "data"
    seed(data, 2)
    done: set[int] = set()

    def job(r: int) -> dict[str, Any]:
        cards = "".join(
            f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:kill-{r}-{i}\r\nFN:Kill Round{r} Person{i}\r\n"
            f"N:Person{i};Kill;;;\r\nNOTE:round {r}\r\nEND:VCARD\r\n"
            for i in range(IMPORTED)
        )
        path = tmp_path / f"round-{r}.vcf"
        path.write_text(cards)
        return {"op": "import", "data_dir": str(data), "argv": ["import", str(path)]}

    def check(healthy) -> int:
        bodies = list(healthy["neurons"].values())
        per_round: dict[int, int] = {}
        for body in bodies:
            if body.startswith("Kill Round"):
                r = int(body.split()[1].removeprefix("Round"))
                per_round[r] = per_round.get(r, 0) + 1
        assert all(n == IMPORTED for n in per_round.values()), f"a part of an import: {per_round}"
        return sum(IMPORTED for r in done if per_round.get(r) != IMPORTED)

    def acked(r: int, lines) -> int:
        if any(tag == "ack" for tag, _ in lines):
            done.add(r)
            return IMPORTED
        return 0

    kills, total = tier(zygote, "import", job, check, acked)
    status, lines, _ = zygote.run({"op": "check", "data_dir": str(data)}, None)
    lost = check(next(d for t, d in lines if t == "healthy"))
    report(capsys, "import", kills, total, lost)
    assert lost == 0 and done


def test_kill_9_of_exports_leaves_every_acknowledged_export_whole(zygote, tmp_path, capsys):
    data, file, vault = tmp_path / "data", tmp_path / "memory.json", tmp_path / "vault"
    kept = seed(data)
    acks = {"file": 0, "vault": 0}

    def job(r: int) -> dict[str, Any]:
        argv = ["export", str(file)] if r % 2 else ["export", "--format", "markdown", "--force", f"{vault}/"]
        return {"op": "export", "data_dir": str(data), "argv": argv}

    def check(healthy) -> int:
        missing = len(kept - set(healthy["neurons"]))
        if acks["file"]:  # an export acknowledged once stays whole: a later one replaces it whole
            written = json.loads(file.read_text())
            missing += len(kept - {n["id"] for n in written["neurons"]})
        manifest = vault / ".neurons-export.json"
        if acks["vault"]:
            listed = json.loads(manifest.read_text())["files"]
            missing += sum(1 for name in listed if not (vault / name).is_file())  # it says only what is there
            missing += max(0, len(kept) - sum(1 for p in vault.glob("**/*.md")))
        return missing

    def acked(r: int, lines) -> int:
        if any(tag == "ack" for tag, _ in lines):
            acks["file" if r % 2 else "vault"] += 1
            return 1
        return 0

    kills, total = tier(zygote, "export", job, check, acked)
    report(capsys, "export", kills, total, 0)
    assert acks["file"] and acks["vault"]


def test_kill_9_of_reembedding_loses_nothing(zygote, tmp_path, capsys):
    data = tmp_path / "data"
    kept = seed(data)

    def check(healthy) -> int:
        return len(kept - set(healthy["neurons"]))

    def acked(r: int, lines) -> int:
        return sum(1 for tag, d in lines if tag == "ack" and d["data"]["reindexed"] >= len(kept))

    kills, total = tier(
        zygote,
        "reindex",
        lambda r: {"op": "reindex", "data_dir": str(data), "argv": ["reindex"]},
        check,
        acked,
    )
    with Memory.open(Settings(data_dir=data, embed_in_background=False)) as memory:
        memory.reindex()
        assert memory.doctor()["pending_vectors"] == 0  # every vector there once it ran whole
    report(capsys, "reindex", kills, total, 0)
    assert total


@pytest.mark.server
def test_kill_9_of_move_to_loses_nothing(zygote, tmp_path, capsys, server_dsn):
    data = tmp_path / "data"
    kept = seed(data)
    captured: set[str] = set()

    def back_here() -> None:
        """Each round moves from the embedded engine again (the rows already there are kept once)."""
        saved = config.load(data)
        config.save(data, config.Config(profile_id=saved.profile_id, profile_name=saved.profile_name))

    def check(healthy) -> int:
        return len((kept | captured) - set(healthy["neurons"]))

    def acked(r: int, lines) -> int:
        made = {d["id"] for tag, d in lines if tag == "ack" and d["what"] == "capture"}
        captured.update(made)
        return len(made) + sum(1 for tag, d in lines if tag == "ack" and d["what"] == "move")

    def job(r: int) -> dict[str, Any]:
        return {"op": "move", "data_dir": str(data), "server": server_dsn, "round": r}

    kills, total = tier(zygote, "move-to", job, check, acked, before=back_here)
    back_here()
    status, lines, _ = zygote.run(job(0), None)  # one more, whole: the server then holds it all
    assert status == 0, lines
    acked(0, lines)
    status, lines, _ = zygote.run({"op": "check", "data_dir": str(data)}, None)
    healthy = next(d for t, d in lines if t == "healthy")
    lost = check(healthy)
    assert healthy["engine"] == "server" and healthy["ok"]
    report(capsys, "move-to", kills, total, lost)
    assert lost == 0


def test_kill_9_of_sync_loses_nothing(zygote, tmp_path, capsys):
    server = Radicale(tmp_path / "radicale")  # started as it is made
    try:
        user, password = server.new_user()
        phone = Phone(server.url, user, password)
        tasks = phone.task_list()
        for i in range(3):
            tasks.save_todo(
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\n"
                f"UID:phone-{i}\r\nDTSTAMP:20300101T000000Z\r\nSUMMARY:from the phone {i}\r\n"
                "END:VTODO\r\nEND:VCALENDAR\r\n"
            )
        data = tmp_path / "data"
        kept = seed(data, 2)
        env = {"NEURONS_SYNC_PASSWORD": password}
        added = {"op": "sync", "data_dir": str(data), "round": 0, "env": env}
        status, lines, _ = zygote.run(
            {**added, "argv": ["sync", "add", server.url, "--user", user, "--all"]}, None
        )
        assert status == 0, lines
        captured: set[str] = set()
        pulled: dict[str, int] = {"syncs": 0}

        def check(healthy) -> int:
            missing = len((kept | captured) - set(healthy["neurons"]))
            if pulled["syncs"]:  # what the phone made is here once a sync went through
                bodies = set(healthy["neurons"].values())
                missing += sum(1 for i in range(3) if f"from the phone {i}" not in bodies)
            return missing

        def acked(r: int, lines) -> int:
            made = {d["id"]: d["body"] for tag, d in lines if tag == "ack" and d["what"] == "capture"}
            captured.update(made)
            synced = sum(1 for tag, d in lines if tag == "ack" and d["what"] == "sync")
            pulled["syncs"] += synced
            return len(made) + synced

        kills, total = tier(zygote, "sync", lambda r: {**added, "round": r, "argv": ["sync"]}, check, acked)
        status, lines, _ = zygote.run({**added, "round": 10_000, "argv": ["sync"]}, None)
        assert status == 0, lines
        acked(10_000, lines)
        on_phone = {str(t.icalendar_component["SUMMARY"]) for t in tasks.todos(include_completed=True)}
        here = set(next(d for t, d in lines if t == "healthy")["neurons"].values())
        lost = sum(1 for body in here if body.startswith("kill sync round") and body not in on_phone)
        report(capsys, "sync", kills, total, lost)
        assert lost == 0
    finally:
        server.stop()
