"""The processes the kill tier kills (tests/e2e/test_kill_tier.py), and the one that makes them.

`python -m tests.e2e.kill_victim` is a zygote: it imports Neurons once, then for each job line on
stdin forks a child that runs the job and answers "pid N", then "exit STATUS" when the child ends
(killed: "exit -9"). Each child is a real process that opens the data dir as `neurons` does (the
embedded engine's own Node process started afresh; a killed child's engine is an orphan the next
one stops), so a kill costs an engine start, not Python's imports as well.

A child writes its lines to the job's file, each as soon as it holds:
    healthy {"ok": ..., "problems": [...], "neurons": {id: body}}   the store opened and checked
    ack {"what": ..., ...}                                         something acknowledged
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from core import commands
from core.commands import profile
from core.memory import Memory
from core.model import State
from core.settings import Settings
from core.sync import accounts, engine  # noqa: F401 - loaded before the fork, as the others

commands.load()


def say(out, tag: str, data: Any) -> None:
    out.write(f"{tag} {json.dumps(data, ensure_ascii=False, default=str)}\n")
    out.flush()


def run_job(job: dict[str, Any], out) -> int:
    """Open the data dir, check the store, then do the job's operation."""
    os.environ.update(job.get("env") or {})
    settings = Settings.from_env(data_dir=job["data_dir"], embed_in_background=False)
    memory = Memory.open(settings, wait_s=60)
    try:
        check = memory.store.check()
        held = memory.list(None, list(State), limit=1_000_000)
        say(
            out,
            "healthy",
            {**check, "engine": memory.store.kind, "neurons": {str(n.id): n.body for n in held}},
        )
        op = job["op"]
        if op == "check":
            return 0
        if op in ("move", "sync"):  # something new to carry, acknowledged first
            made = memory.capture(f"kill {op} round {job['round']}", kind="reminder", derive=False)
            say(out, "ack", {"what": "capture", "id": str(made.id), "body": made.body})
        if op == "move":
            moved = profile.move(memory, job["server"])
            say(out, "ack", {"what": "move", **{k: moved[k] for k in ("neurons", "edges", "checksum")}})
            return 0
        cmd, args = commands.parse(job["argv"])
        cmd.prepare(args)
        answer = cmd.run(memory, args)
        say(out, "ack", {"what": op, "code": answer.code, "data": answer.data})
        return answer.code
    finally:
        memory.close()


def main() -> None:
    for line in sys.stdin:
        job = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                with open(job["out"], "w", encoding="utf-8") as out:
                    null = os.open(os.devnull, os.O_RDWR)
                    os.dup2(null, 0)
                    os.dup2(out.fileno(), 2)  # anything said on stderr lands beside the lines
                    try:
                        code = run_job(job, out)
                    except BaseException as exc:  # noqa: BLE001 - the test reads what went wrong
                        say(out, "failed", f"{type(exc).__name__}: {exc}")
            finally:
                os._exit(code)
        print("pid", pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print("exit", os.waitstatus_to_exitcode(status), flush=True)


if __name__ == "__main__":
    main()
