"""The local clock: the time zone a person's words are read in. The zone is looked up in one place,
core/remind/series.py (whose engine also answers every recurrence question)."""

from __future__ import annotations

from datetime import datetime

from core.remind.series import local_zone as local_tz


def local_now() -> datetime:
    return datetime.now(local_tz())


__all__ = ["local_now", "local_tz"]
