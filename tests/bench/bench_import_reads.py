"""What an import and a sync cost against a large store (printed, never asserted): the CPU of this
process and of the engine (Node), and the wall time.

    .venv/bin/python -m tests.bench.bench_import_reads --data-dir COPY [--file F] [--sync 20]

On a data dir (a **copy** of a bench store: it is written to): `--file` imported twice (the
second finds everything unchanged); with `--sync N`, a Radicale on 127.0.0.1 with an address book
and a task list of N items each, synced twice: the first brings them all, the second the five
cards and five tasks the phone changed since. Nothing made here is sent (no collection receives
what is new here), so the figures are the pulls and their plans. The same script runs on old code
and new alike (it uses only `import_path`, `sync_account` and the account's calls).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import keyring
import psutil

from core.interop import files
from core.memory import Memory
from core.settings import Settings
from core.sync import accounts, engine

ROOT = Path(__file__).resolve().parents[2]
CARD = ROOT / "tests" / "corpus" / "eds" / "12.vcf"


def cpu() -> float:
    """CPU seconds of this process and of the engine it started (not of a DAV server)."""
    me = psutil.Process()
    engines = [c for c in me.children(recursive=True) if "node" in c.name()]
    return sum(me.cpu_times()[:2]) + sum(sum(c.cpu_times()[:2]) for c in engines)


def measured(label: str, fn) -> object:
    c0, w0 = cpu(), time.perf_counter()
    value = fn()
    print(f"{label:<44} {cpu() - c0:7.2f} CPU s {time.perf_counter() - w0:7.2f} s", flush=True)
    return value


def card(i: int, note: str = "") -> str:
    return (
        f"BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bench-card-{i}\r\nFN:Pessoa {i}\r\nN:{i};Pessoa;;;\r\n"
        f"TEL;TYPE=CELL:+35193{i:07d}\r\nEMAIL:pessoa{i}@example.org\r\n"
        + (f"NOTE:{note}\r\n" if note else "")
        + "END:VCARD\r\n"
    )


def todo(i: int, summary: str, sequence: int = 0) -> str:
    return (
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//phone//EN\r\nBEGIN:VTODO\r\n"
        f"UID:bench-task-{i}\r\nDTSTAMP:2030010{1 + sequence}T000000Z\r\nSEQUENCE:{sequence}\r\n"
        f"SUMMARY:{summary}\r\nDUE:20310310T150000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
    )


def sync(memory: Memory, n: int) -> None:
    from tests.core.dav_server import MemoryKeyring, Phone, Radicale  # noqa: PLC0415 - a DAV server only for --sync

    keyring.set_keyring(MemoryKeyring())
    with tempfile.TemporaryDirectory() as tmp:
        server = Radicale(Path(tmp) / "radicale")
        try:
            user, password = server.new_user()
            phone = Phone(server.url, user, password)
            tasks, book = phone.task_list(), phone.address_book()
            for i in range(n):
                phone.put(f"{tasks.url}task-{i}.ics", todo(i, f"Task {i}"))
                phone.put_card(book, f"card-{i}.vcf", card(i))
            principal = accounts.find(server.url, user, password)
            accounts.add(memory, server.url, user, principal, accounts.choose(principal, every=True))
            [account] = memory.sync_accounts()

            def once():
                outcome = engine.sync_account(memory, account, password, receiving=set())
                assert not outcome.failed and not outcome.errors, (outcome.failed, outcome.errors)
                return outcome

            first = measured(f"sync: the first, {n} cards and {n} tasks", once)
            print(f"   pulled {first.pulled}", flush=True)
            [account] = memory.sync_accounts()
            for i in range(5):
                phone.put(f"{tasks.url}task-{i}.ics", todo(i, f"Task {i} moved", 1))
                phone.put_card(book, f"card-{i}.vcf", card(i, "changed on the phone"))
            again = measured("sync: 5 cards and 5 tasks changed there", once)
            print(f"   pulled {again.pulled}", flush=True)
        finally:
            server.stop()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data-dir", required=True, type=Path, help="a copy of a bench store (it is written)")
    p.add_argument("--file", type=Path, default=CARD)
    p.add_argument("--sync", type=int, default=0, help="also sync N cards and N tasks")
    args = p.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}", flush=True)
    with Memory.open(Settings(data_dir=args.data_dir, embed_in_background=False)) as memory:
        for label in ("import", "import again"):
            report = measured(f"{label} {args.file.name}", lambda: files.import_path(memory, args.file))
            print(f"   {report.text().splitlines()[0]}", flush=True)
        if args.sync:
            sync(memory, args.sync)


if __name__ == "__main__":
    main()
