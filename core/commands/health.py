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

    check = report["store_check"]
    if check["ok"]:
        return Answer(report, text)
    where = report["data_dir"] if report["engine"] == "embedded" else "the database server"
    return Answer(
        report, text, code=DAMAGED_EXIT, note=f"neurons: {StoreDamaged(where, '; '.join(check['problems']))}"
    )


@command("unlock", "clear a stale data-dir lock left by a dead process", needs_memory=False)
def unlock(_memory, args) -> Answer:
    from core.settings import Settings  # noqa: PLC0415 - keeps forwarding light
    from core.store.lock import DataDirLock  # noqa: PLC0415 - keeps forwarding light

    settings = Settings.from_env(data_dir=args.data_dir)
    record = DataDirLock(settings.data_dir).clear_stale()
    text = f"cleared the stale lock of pid {record['pid']}" if record else "no stale lock"
    return Answer({"cleared": record}, text)
