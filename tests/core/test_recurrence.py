"""One recurrence engine (core/remind/series.py): what the scheduler fires, what a question's time
window holds and what an export writes all come from the same reading of a series."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from core import remind
from core.model import InvalidInput
from core.remind import Override, Series
from core.remind.series import first_on_rule

LISBON = ZoneInfo("Europe/Lisbon")
# A Wednesday; the next Monday is 2027-03-15, the one after 2027-03-22.
NOW = datetime(2027, 3, 10, 12, 0, tzinfo=LISBON)
MONDAY = datetime(2027, 3, 8, 9, 0, tzinfo=LISBON)
NEXT_MONDAY = datetime(2027, 3, 15, 9, 0, tzinfo=LISBON)


def weekly_with_next_monday_excluded() -> dict:
    return {
        "title": "team sync",
        "due_at": MONDAY.isoformat(),
        "dtstart": MONDAY.isoformat(),
        "notified_at": MONDAY.isoformat(),
        "rrule": "FREQ=WEEKLY;BYDAY=MO",
        "tz": "Europe/Lisbon",
        "exdates": [NEXT_MONDAY.isoformat()],
    }


def test_an_excluded_monday_is_not_due_next_monday_in_a_questions_window(memory):
    rem = memory.capture("team sync", kind="reminder", attrs=weekly_with_next_monday_excluded())
    # the scheduler: after this Monday, the next one is skipped
    alarm = remind.next_alarm(memory.get(rem.id))
    assert alarm is not None and alarm.due_at == NEXT_MONDAY + timedelta(days=7)
    # a question about next Monday: the same answer
    answer = memory.ask("what is due next monday", now=NOW)
    assert rem.id not in [r.neuron.id for r in answer]
    # and the Monday after it holds it
    answer = memory.ask("what is due on 22 march", now=NOW)
    assert rem.id in [r.neuron.id for r in answer]


def test_overrides_move_one_occurrence_or_every_later_one():
    weekly = Series("FREQ=WEEKLY;COUNT=4", LISBON, anchor=MONDAY)
    moved = Series(
        "FREQ=WEEKLY;COUNT=4",
        LISBON,
        anchor=MONDAY,
        overrides=(Override(of=NEXT_MONDAY, start=NEXT_MONDAY - timedelta(days=10)),),
    )
    later = Series(
        "FREQ=WEEKLY;COUNT=4",
        LISBON,
        anchor=MONDAY,
        overrides=(Override(of=NEXT_MONDAY, start=NEXT_MONDAY + timedelta(hours=2), and_after=True),),
    )
    since, until = MONDAY - timedelta(days=30), MONDAY + timedelta(days=60)
    plain = remind.occurrences(weekly, since, until)
    early = NEXT_MONDAY - timedelta(days=10)  # moved before the series' start: still one of it
    assert remind.occurrences(moved, since, until) == [early, plain[0], *plain[2:]]
    assert remind.occurrences(later, since, until) == [plain[0], *(t + timedelta(hours=2) for t in plain[1:])]


def test_several_rules_are_one_series():
    both = Series(
        "FREQ=WEEKLY;BYDAY=MO;COUNT=2", LISBON, anchor=MONDAY, more_rules=("FREQ=WEEKLY;BYDAY=WE;COUNT=2",)
    )
    got = remind.occurrences(both, MONDAY, MONDAY + timedelta(days=30))
    assert [t.strftime("%a %d") for t in got] == ["Mon 08", "Wed 10", "Mon 15", "Wed 17"]


# -- a bound on work --------------------------------------------------------------------------------


def test_a_rule_that_can_never_occur_is_its_start_alone_found_at_once():
    started = time.perf_counter()
    for rule in ("FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30", "FREQ=YEARLY;BYMONTH=4,6;BYMONTHDAY=31,-31"):
        series = Series.plain(rule, "Europe/Lisbon")
        assert remind.next_occurrence(series, MONDAY, NOW) is None
        assert remind.occurrences(series, MONDAY, NOW + timedelta(days=3650)) == [MONDAY]
    assert time.perf_counter() - started < 1.0  # it was a search to the year 9999: 13 s to minutes
    leap = Series.plain("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "Europe/Lisbon")
    assert remind.next_occurrence(leap, MONDAY, NOW) == datetime(2028, 2, 29, 9, 0, tzinfo=LISBON)


def test_a_rule_every_second_without_end_is_refused_after_bounded_work():
    attrs = {
        "due_at": (NOW - timedelta(days=30)).isoformat(),
        "rrule": "FREQ=SECONDLY",
        "tz": "Europe/Lisbon",
    }
    started = time.perf_counter()
    with pytest.raises(InvalidInput, match="too many occurrences"):
        remind.as_of(attrs, NOW)
    assert time.perf_counter() - started < 8.0  # it walked 200,000 seconds first: 26-33 s


def _walk(rule: str, tz: str, due: datetime, steps: int, *, by_done: bool) -> list[datetime]:
    """The due times a reminder takes as it moves on, occurrence by occurrence, as done (next
    occurrence after now) or as shown (the latest occurrence not after now) moves it: each step
    starts from the due time and rule the step before wrote."""
    out = [due]
    for _ in range(steps):
        series = Series.plain(rule, tz)
        if by_done:
            moved = remind.series.next_after(series, due, due)
            if moved is None:
                break
            due, rule = moved
        else:
            nxt = remind.series.next_occurrence(series, due, due)
            if nxt is None:
                break
            due, rule = remind.series.latest_not_after(series, due, nxt)
        due = remind.parse_time(remind.iso(due))  # as the store keeps it: an instant and its offset
        out.append(due)
    return out


def _wall(times: list[datetime], tz: str) -> list[str]:
    return [t.astimezone(UTC).astimezone(ZoneInfo(tz)).strftime("%d %H:%M %Z") for t in times]


@pytest.mark.parametrize("by_done", [True, False], ids=["done", "shown"])
def test_the_hour_that_does_not_exist_moves_one_occurrence_not_the_series(by_done):
    # Lisbon, 28 March 2027: 01:00 becomes 02:00; "every day at 01:30" is due 02:30 that day only
    due = datetime(2027, 3, 27, 1, 30, tzinfo=LISBON)
    walked = _walk("FREQ=DAILY", "Europe/Lisbon", due, 3, by_done=by_done)
    assert _wall(walked, "Europe/Lisbon") == [
        "27 01:30 WET",
        "28 02:30 WEST",
        "29 01:30 WEST",
        "30 01:30 WEST",
    ]
    # New York, 14 March 2027: 02:00 becomes 03:00
    due = datetime(2027, 3, 13, 2, 30, tzinfo=ZoneInfo("America/New_York"))
    walked = _walk("FREQ=DAILY", "America/New_York", due, 3, by_done=by_done)
    assert _wall(walked, "America/New_York") == [
        "13 02:30 EST",
        "14 03:30 EDT",
        "15 02:30 EDT",
        "16 02:30 EDT",
    ]


def test_a_counted_series_across_the_missing_hour_keeps_its_count():
    due = datetime(2027, 3, 27, 1, 30, tzinfo=LISBON)
    walked = _walk("FREQ=DAILY;COUNT=4", "Europe/Lisbon", due, 6, by_done=True)
    assert _wall(walked, "Europe/Lisbon") == [
        "27 01:30 WET",
        "28 02:30 WEST",
        "29 01:30 WEST",
        "30 01:30 WEST",
    ]


def test_the_local_zone_keeps_the_wall_time_across_the_missing_hour(monkeypatch):
    """No `tz`: the series follows the computer's zone (TZ=Europe/Lisbon), as a capture makes it."""
    monkeypatch.setenv("TZ", "Europe/Lisbon")
    remind.series.reload_local_zone()
    try:
        due = datetime(2027, 3, 27, 1, 30, tzinfo=LISBON)
        walked = _walk("FREQ=DAILY", "", due, 3, by_done=True)
        assert _wall(walked, "Europe/Lisbon") == [
            "27 01:30 WET",
            "28 02:30 WEST",
            "29 01:30 WEST",
            "30 01:30 WEST",
        ]
    finally:
        monkeypatch.delenv("TZ")
        remind.series.reload_local_zone()


def test_the_first_occurrence_of_a_rule_itself_from_a_start_not_on_it():
    """A start that is not one of the rule's days (a Wednesday for "every Monday") is not counted:
    the first is the rule's own first from then; on one of its days, that day; never, None."""
    assert first_on_rule("FREQ=WEEKLY;BYDAY=MO", NOW) == NEXT_MONDAY.replace(hour=12)
    assert first_on_rule("FREQ=WEEKLY;BYDAY=MO", MONDAY) == MONDAY
    assert first_on_rule("FREQ=MONTHLY;BYMONTHDAY=4", NOW) == datetime(2027, 4, 4, 12, 0, tzinfo=LISBON)
    assert first_on_rule("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", NOW) is None
