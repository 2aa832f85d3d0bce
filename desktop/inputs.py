"""Reading what a person types in the due and repeat fields (the text itself is core.capture's)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from dateutil import parser as dateparser

from core import remind
from core.model import InvalidInput

_RELATIVE = re.compile(
    r"^\s*in\s+(\d+(?:[.,]\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|"
    r"d|days?|w|weeks?)\s*$", re.IGNORECASE)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}

REPEATS: list[tuple[str, str]] = [
    ("Does not repeat", ""),
    ("Every day", "FREQ=DAILY"),
    ("Every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("Every week", "FREQ=WEEKLY"),
    ("Every month", "FREQ=MONTHLY"),
    ("Every year", "FREQ=YEARLY"),
]


def parse_due(text: str, now: datetime) -> datetime | None:
    """'' -> None; 'in 10 min', 'in 2 s'; '2025-06-13 10:00', '14:30', 'Fri 9am' (next such time);
    an ISO time with its offset. Raises InvalidInput with a sentence to show."""
    text = text.strip()
    if not text:
        return None
    m = _RELATIVE.match(text)
    if m:
        amount = float(m.group(1).replace(",", "."))
        return now + timedelta(seconds=amount * _UNITS[m.group(2)[0].lower()])
    try:
        return datetime.fromisoformat(text) if "T" in text and _has_offset(text) else _dateutil(text, now)
    except (ValueError, OverflowError):
        raise InvalidInput(f"“{text}” is not a time I can read: try 2025-06-13 10:00, 14:30 or "
                           "in 10 min") from None


def _has_offset(text: str) -> bool:
    return bool(re.search(r"(Z|[+-]\d\d:?\d\d)$", text))


def _dateutil(text: str, now: datetime) -> datetime:
    local_now = now.astimezone(remind.local_zone())
    default = local_now.replace(second=0, microsecond=0)
    dt = dateparser.parse(text, default=default.replace(tzinfo=None))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=remind.local_zone())
    only_time = not re.search(r"\d{4}|\d+[/.-]\d+|[a-z]{3}", text, re.IGNORECASE)
    if only_time and dt <= now:  # "9:00" after nine means tomorrow
        dt += timedelta(days=1)
    return dt


def due_field_text(dt: datetime | None) -> str:
    if dt is None:
        return ""
    return dt.astimezone(remind.local_zone()).strftime("%Y-%m-%d %H:%M")


def repeat_label(rrule: str | None) -> str:
    rule = (rrule or "").upper().removeprefix("RRULE:")
    for label, value in REPEATS:
        if value == rule:
            return label
    return rrule or ""


def repeat_value(text: str) -> str:
    """A label of REPEATS or a raw RRULE -> the rule ('' for none)."""
    text = text.strip()
    for label, value in REPEATS:
        if text.lower() == label.lower():
            return value
    return text.upper().removeprefix("RRULE:") if text else ""


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]
