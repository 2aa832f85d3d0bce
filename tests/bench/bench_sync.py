"""Sync benchmark (printed, never asserted): 1,000 reminders and 1,000 contacts against a real
Radicale on 127.0.0.1.

    .venv/bin/python -m tests.bench.bench_sync [--reminders 1000] [--contacts 1000]

On a fresh embedded data dir, times: the first sync that sends everything made here to an empty
server, the incremental sync right after (nothing changed: nothing moves), an incremental sync
after ten edits here, and, on a second data dir, the first sync that brings everything from
the server (what a second computer, or the phone's data, costs), then its incremental sync.
Radicale's own time is in every figure (it is the server).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import keyring

from core.memory import Memory
from core.settings import Settings
from core.sync import accounts, engine
from tests.core.dav_server import MemoryKeyring, Phone, Radicale

ROOT = Path(__file__).resolve().parents[2]


def timed(label: str, fn) -> object:
    t0 = time.perf_counter()
    result = fn()
    print(f"{label:<52} {time.perf_counter() - t0:8.2f} s")
    return result


def add(memory: Memory, server: Radicale, user: str, password: str) -> None:
    principal = accounts.find(server.url, user, password)
    chosen = accounts.choose(principal, every=True)
    accounts.add(memory, server.url, user, principal, chosen)


def run(reminders: int, contacts: int) -> None:
    keyring.set_keyring(MemoryKeyring())
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        server = Radicale(root / "radicale")
        try:
            user, password = server.new_user()
            phone = Phone(server.url, user, password)
            phone.task_list()
            phone.address_book()
            model = ROOT / "resources" / "model" / "all-MiniLM-L6-v2"
            here = Settings(data_dir=root / "here", embed_in_background=False, model_dir=model)
            due = datetime(2031, 1, 1, 9, tzinfo=UTC)
            with Memory.open(here) as memory:
                for i in range(reminders):
                    when = (due + timedelta(hours=i)).isoformat()
                    memory.capture(
                        f"Errand number {i}", kind="reminder", attrs={"due_at": when}, derive=False
                    )
                for i in range(contacts):
                    attrs = {
                        "name": f"Person {i}",
                        "emails": [f"p{i}@example.org"],
                        "phones": [f"+35191{i:07d}"],
                    }
                    memory.capture(f"Person {i}", kind="contact", attrs=attrs, derive=False)
                add(memory, server, user, password)
                print(f"{reminders:,} reminders and {contacts:,} contacts")

                def once():
                    [o] = engine.sync_all(memory, lambda _a: password)
                    assert not o.failed, o.failed
                    return o

                first = timed("first sync, all sent to an empty server", once)
                print(f"   pushed {first.pushed:,}")
                again = timed("incremental sync, nothing changed", once)
                assert again.pushed == again.pulled == 0
                for n in memory.list("reminder", limit=10):
                    memory.edit(n.id, n.body + " (edited)")
                edited = timed("incremental sync, 10 edits here", once)
                print(f"   pushed {edited.pushed:,}")
            there = Settings(data_dir=root / "there", embed_in_background=False, model_dir=model)
            with Memory.open(there) as memory:
                add(memory, server, user, password)

                def once_there():
                    [o] = engine.sync_all(memory, lambda _a: password)
                    assert not o.failed, o.failed
                    return o

                pulled = timed("first sync, all brought from the server", once_there)
                print(f"   pulled {pulled.pulled:,}")
                timed("incremental sync, nothing changed", once_there)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reminders", type=int, default=1000)
    parser.add_argument("--contacts", type=int, default=1000)
    args = parser.parse_args()
    run(args.reminders, args.contacts)


if __name__ == "__main__":
    main()
