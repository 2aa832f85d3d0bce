"""Reading what a person types in the due and repeat fields (the text itself is core.capture's)."""

from __future__ import annotations

from datetime import datetime, timedelta

from core import remind
from desktop.look import theme

REPEATS: list[tuple[str, str]] = [
    ("Does not repeat", ""),
    ("Every day", "FREQ=DAILY"),
    ("Every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("Every week", "FREQ=WEEKLY"),
    ("Every month", "FREQ=MONTHLY"),
    ("Every year", "FREQ=YEARLY"),
]


def parse_due(text: str, now: datetime) -> datetime | None:
    """'' -> None; 'in 10 min', '8 Dec 9am', '14:30', 'amanhã às 15h'... read by the one date
    grammar (core.when) in the local time zone. Raises InvalidInput with a sentence to show."""
    from core.when import parse_due as read  # noqa: PLC0415 - loaded after the window's first paint

    return read(text, now.astimezone(remind.local_zone()))


def due_doubt(text: str, now: datetime) -> str | None:
    """The doubt the grammar had reading a time in the text ("05/06 read day first: it could be
    the other way round"), or None: said beside the due time, so the person can fix it."""
    from core.when import find_when  # noqa: PLC0415 - loaded after the window's first paint

    when = find_when(text, now.astimezone(remind.local_zone())) if text.strip() else None
    return when.ambiguous if when is not None else None


def no_day(text: str, now: datetime) -> str | None:
    """ "30 February is no day" when the text names a date no calendar has (no time is read from
    it): said where the due time would be, so the person is not left with none and no reason."""
    from core.when import no_day as said_no_day  # noqa: PLC0415 - loaded after the window's first paint

    return said_no_day(text, now.astimezone(remind.local_zone())) if text.strip() else None


def read_as(due: datetime, rrule: str | None, doubt: str | None, now: datetime) -> str:
    """ "Read as Sat 5 Jun 2027 10:00 (05/06 read day first: it could be the other way round)"."""
    from core.when.spoken import say_reading  # noqa: PLC0415 - loaded after the window's first paint

    local = now.astimezone(remind.local_zone())
    return f"Read as {say_reading(due, rrule or None, local, doubt)}"


def due_example(now: datetime) -> str:
    """The Due field's placeholder: examples that are never in the past (tomorrow's date)."""
    tomorrow = now.astimezone(remind.local_zone()) + timedelta(days=1)
    return f"no due time — e.g. {tomorrow:%Y-%m-%d} 10:00, 14:30, in 10 min"


def due_field_text(dt: datetime | None) -> str:
    if dt is None:
        return ""
    return dt.astimezone(remind.local_zone()).strftime("%Y-%m-%d %H:%M")


def repeat_label(rrule: str | None) -> str:
    """What the Repeat field shows for a rule: its entry in REPEATS, else the rule in words in the
    dates' language ("Every 2 days", "Todos os meses no dia 1"), never the raw RRULE."""
    rule = (rrule or "").strip().upper().removeprefix("RRULE:")
    for label, value in REPEATS:
        if value == rule:
            return label
    said = theme.repeat_text(rule)
    return said[:1].upper() + said[1:]


def repeat_value(text: str, shown: str | None = None) -> str:
    """The rule ('' for none) of what the Repeat field says: an entry of REPEATS, the words it
    was filled with for `shown` (the rule it showed), a repeat typed in words ("every 2 weeks",
    read by the capture grammar) or an RFC 5545 rule. Raises InvalidInput otherwise."""
    text = text.strip()
    for label, value in REPEATS:
        if text.lower() == label.lower():
            return value
    if shown and text == repeat_label(shown):
        return shown.strip().upper().removeprefix("RRULE:")
    if not text:
        return ""
    from core.when import parse_repeat  # noqa: PLC0415 - loaded after the window's first paint

    rule = parse_repeat(text, datetime.now(remind.local_zone()))
    return (rule or "").upper().removeprefix("RRULE:")


def split_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]
