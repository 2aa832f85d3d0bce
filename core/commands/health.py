"""Commands that look after the data dir: doctor, unlock."""

from __future__ import annotations

import json

from core.commands.base import Answer, command

# `neurons doctor` exits with this when it finds the store damaged (2 stays "refused").
DAMAGED_EXIT = 1


@command(
    "doctor",
    "check the store (every row read back) and show the data dir, lock, engine, extensions and model",
)
def doctor(memory, args) -> Answer:
    report = memory.doctor()
    text = "\n".join(
        f"{key:>16}: {json.dumps(value, default=str) if isinstance(value, (dict, list)) else value}"
        for key, value in report.items()
    )
    from core.store.errors import StoreDamaged  # noqa: PLC0415 - the store is open already

    check, owner = report["store_check"], report["owner_check"]
    notes = [] if owner["ok"] else [f"neurons: {owner['problem']}"]
    if not check["ok"]:
        where = report["data_dir"] if report["engine"] == "embedded" else "the database server"
        notes.insert(0, f"neurons: {StoreDamaged(where, '; '.join(check['problems']))}")
    if not notes:
        return Answer(report, text)
    return Answer(report, text, code=DAMAGED_EXIT, note="\n".join(notes))


@command("unlock", "clear a stale data-dir lock left by a dead process", needs_memory=False)
def unlock(_memory, args) -> Answer:
    from core.settings import data_dir_from  # noqa: PLC0415 - keeps forwarding light
    from core.store.lock import DataDirLock  # noqa: PLC0415 - keeps forwarding light

    record = DataDirLock(data_dir_from(args.data_dir)).clear_stale()  # config.json is not needed
    text = f"cleared the stale lock of pid {record['pid']}" if record else "no stale lock"
    return Answer({"cleared": record}, text)
