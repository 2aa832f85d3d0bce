"""Commands that look after the data dir: doctor, unlock."""

from __future__ import annotations

import json

from core.commands.base import Answer, command


@command("doctor", "show the data dir, lock, engine, extensions and model")
def doctor(memory, args) -> Answer:
    report = memory.doctor()
    text = "\n".join(
        f"{key:>16}: {json.dumps(value, default=str) if isinstance(value, (dict, list)) else value}"
        for key, value in report.items())
    return Answer(report, text)


@command("unlock", "clear a stale data-dir lock left by a dead process", needs_memory=False)
def unlock(_memory, args) -> Answer:
    from core.settings import Settings  # noqa: PLC0415
    from core.store.lock import DataDirLock  # noqa: PLC0415

    settings = Settings.from_env(data_dir=args.data_dir)
    record = DataDirLock(settings.data_dir).clear_stale()
    text = f"cleared the stale lock of pid {record['pid']}" if record else "no stale lock"
    return Answer({"cleared": record}, text)
