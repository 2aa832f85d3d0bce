"""The local clock and recurrences: the time zone a person's words are read in, RRULE occurrences."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

import tzlocal
from dateutil import rrule as dr


def local_tz() -> tzinfo:
    try:
        return tzlocal.get_localzone()
    except Exception:  # noqa: BLE001 - no zone configured: the offset of the moment
        return datetime.now().astimezone().tzinfo  # type: ignore[return-value]


def local_now() -> datetime:
    return datetime.now(local_tz())


def occurrences(
    rule: str, dtstart: datetime, start: datetime, end: datetime, limit: int = 10
) -> list[datetime]:
    """Occurrences of an RRULE (from dtstart) in [start, end)."""
    r = dr.rrulestr(rule if rule.upper().startswith(("RRULE:", "FREQ")) else f"FREQ={rule}", dtstart=dtstart)
    found = []
    for occ in r.xafter(start - timedelta(microseconds=1), count=limit, inc=True):
        if occ >= end:
            break
        found.append(occ)
    return found
